"""Mental-poker decks: shuffle pass, locking pass with proofs, keys, audit.

Every card identity c of deck d is the public point
``P(c) = from_uniform(SHA512("ankh/card/v1/" + d + "/" + c)[:32])``.

1. Shuffle pass.  In seat order, each seat multiplies every point by its
   secret deck scalar e, permutes the list (within segments: the player deck
   is a green segment stacked on a brown one) and publishes it with E = e*B.
2. Locking pass.  In seat order, each seat replaces its e layer on every
   position j by a fresh per-card key k[j] = a[j]*e: it publishes
   Y[j] = a[j]*X[j] (X being the previous seat's output) and one proof that
   it knows e and every k[j] with E = e*B and e*Y[j] = k[j]*X[j].  That last
   equation fixes k[j] uniquely: it is the public commitment to the key.
3. Keys.  When a key is published (a deal, a reveal) or sent privately (a
   pass, a look), it comes with a batched Chaum-Pedersen proof that
   e*Y[j] = k[j]*X[j] under the same E.  A wrong key is a signed lie.
4. Audit.  At the end each seat discloses e, its permutation and its keys;
   anyone recomputes the shuffle pass and checks that each deck was a
   permutation of the printed cards and that every position unlocks to the
   card the permutations put there.

The lock proof is a Schnorr-style proof for the relation
``{(e, k[0..n-1]) : E = e*B, e*Y[j] - k[j]*X[j] = 0}``: commitments
R = rho*B and T[j] = rho*Y[j] - sigma[j]*X[j], challenge c by Fiat-Shamir over
the running transcript hash and the whole statement, responses
z = rho + c*e and z[j] = sigma[j] + c*k[j]; the verifier checks
R = z*B - c*E and T[j] = z*Y[j] - z[j]*X[j] (up to sign, see ``group``).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

from . import group
from ..wire.errors import LocalProtocolError
from .group import GroupError, L
from .kept import Kept

MAX_DECK = 255
MAX_CARD_ID = 64
_DECK_NAME = re.compile(r"[a-z][a-z0-9-]{0,15}")


# -- deck definitions ----------------------------------------------------------


@dataclass(frozen=True)
class DeckSpec:
    """A deck's printed cards, as segments from the top down.

    Each segment is shuffled on its own and the segments are stacked in the
    given order (the player deck: green on top of brown).
    """

    name: str
    segments: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        problem = self.problem()
        if problem is not None:
            raise LocalProtocolError(f"bad deck {self.name!r}: {problem}")

    def problem(self) -> str | None:
        if type(self.name) is not str or not _DECK_NAME.fullmatch(self.name):
            return "deck names are lowercase letters, digits and '-', up to 16"
        if not self.segments or any(not seg for seg in self.segments):
            return "empty segment"
        cards = [c for seg in self.segments for c in seg]
        if len(cards) > MAX_DECK:
            return f"more than {MAX_DECK} cards"
        if any(type(c) is not str or not 0 < len(c) <= MAX_CARD_ID or not c.isprintable() for c in cards):
            return "card ids are printable strings of 1 to 64 characters"
        if len(set(cards)) != len(cards):
            return "duplicate card ids"
        return None

    @classmethod
    def of(cls, name: str, cards: Sequence[str]) -> DeckSpec:
        return cls(name, (tuple(cards),))

    @classmethod
    def player(cls, green: Sequence[str], brown: Sequence[str], name: str = "player") -> DeckSpec:
        """Green cards shuffled and stacked on the shuffled brown cards.

        For a two-player game the caller removes the two brown cards the rules
        name before calling this.
        """
        return cls(name, (tuple(green), tuple(brown)))

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(c for seg in self.segments for c in seg)

    @property
    def size(self) -> int:
        return sum(len(seg) for seg in self.segments)

    @property
    def bounds(self) -> list[tuple[int, int]]:
        out, start = [], 0
        for seg in self.segments:
            out.append((start, start + len(seg)))
            start += len(seg)
        return out

    def to_wire(self) -> list[list[str]]:
        return [list(seg) for seg in self.segments]

    def points(self) -> tuple[bytes, ...]:
        return group.card_points(self.name, self.cards)


def permutation_ok(perm: Sequence[int], spec: DeckSpec) -> bool:
    """A permutation of range(n) that keeps every position in its segment."""
    if len(perm) != spec.size or sorted(perm) != list(range(spec.size)):
        return False
    return all(a <= perm[m] < b for a, b in spec.bounds for m in range(a, b))


def derive_permutation(key: bytes, spec: DeckSpec) -> list[int]:
    """A uniformly random segment-preserving permutation from a secret key."""
    perm = list(range(spec.size))
    counter = 0
    pool = b""

    def below(m: int) -> int:
        nonlocal counter, pool
        bits = max(1, (m - 1).bit_length())
        while True:
            if len(pool) < 2:
                pool += hashlib.sha512(key + counter.to_bytes(4, "little")).digest()
                counter += 1
            x = int.from_bytes(pool[:2], "little") & ((1 << bits) - 1)
            pool = pool[2:]
            if x < m:
                return x

    for a, b in spec.bounds:
        for i in range(b - 1, a, -1):
            j = a + below(i - a + 1)
            perm[i], perm[j] = perm[j], perm[i]
    return perm


# -- one seat's secrets for one deck -------------------------------------------


class DeckSecrets:
    """Everything a seat keeps about one deck, derived from its master seed."""

    def __init__(self, master: bytes, game_id: bytes, spec: DeckSpec) -> None:
        tag = game_id + spec.name.encode()
        self.e, self.e_n = group.secret_scalar(master, b"deck-e", tag)
        self.perm = derive_permutation(group.derive(master, b"deck-perm", tag), spec)
        self._a = [group.secret_scalar(master, b"lock-a", tag, j.to_bytes(2, "little")) for j in range(spec.size)]
        self.nonce_key = group.derive(master, b"deck-nonces", tag)[:32]

    def a(self, j: int) -> tuple[int, bytes]:
        return self._a[j]

    def key(self, j: int) -> int:
        """The per-card key k[j] = a[j] * e."""
        return self._a[j][0] * self.e % L


def shuffle(points: Sequence[bytes], secrets: DeckSecrets) -> tuple[bytes, list[bytes]]:
    """One seat's shuffle pass: (E, permuted points times e)."""
    E = group.mul_base_n(secrets.e_n)
    out = [group.mul_n(secrets.e_n, points[src]) for src in secrets.perm]
    return E, out


# -- the shuffle proof: cut and choose with shadow shuffles ------------------------
#
# Statement: Z[m] = e*X[pi[m]] for every m and E = e*B, for some e and some
# segment-preserving permutation pi.  The prover draws k shadows
# S_i[m] = f_i*X[sigma_i[m]] (with F_i = f_i*B) and publishes, with Z and E,
# only a hash of each.  After that, k challenge bits come from the dice beacon.
# Bit 0 opens shadow i as (f_i, sigma_i): the verifier recomputes it from the
# input.  Bit 1 opens it as (h_i, tau_i) with h_i = f_i/e and
# tau_i = sigma_i^-1 o pi: the verifier recomputes S_i[tau_i[m]] = h_i*Z[m] and
# F_i = h_i*E from the output.  Both openings of one shadow together give
# Z[m] = (f_i/h_i)*X[sigma_i[tau_i[m]]] and E = (f_i/h_i)*B, which is the
# statement; so a false statement survives each shadow with probability at most
# 1/2, and all k with at most 2**-k.  Each opening alone is a fresh random
# re-encryption of the input or of the output: it tells nothing about pi or e.

SHADOWS = 40  # soundness 2**-40 per shuffle


class ShuffleSecrets(Protocol):
    """What a shuffler keeps: its scalar ``e``, its permutation and its nonce key
    (a deck's ``DeckSecrets``, a hand's ``steal.StealSecrets``)."""

    e: int
    perm: list[int]
    nonce_key: bytes


def shuffle_context(game_id: bytes, seat: int, deck: str, E: bytes) -> bytes:
    return b"".join(
        len(p).to_bytes(2, "little") + p for p in (b"ankh/v1/shuffle", game_id, bytes([seat]), deck.encode(), E)
    )


def _shadow_hash(context: bytes, i: int, F: bytes, S: Sequence[bytes]) -> bytes:
    h = hashlib.sha256(b"ankh/v1/shadow")
    h.update(len(context).to_bytes(2, "little") + context + i.to_bytes(2, "little") + F)
    for point in S:
        h.update(point)
    return h.digest()


def _shadow_secrets(
    context: bytes, X: Sequence[bytes], Z: Sequence[bytes], secrets: ShuffleSecrets, spec: DeckSpec, k: int
) -> list[tuple[int, bytes, list[int]]]:
    """The prover's (f_i, X25519 form, sigma_i), derived from its seed and the whole statement."""
    statement = hashlib.sha512(context + b"".join(X) + b"".join(Z)).digest()
    out = []
    for i in range(k):
        tag = i.to_bytes(2, "little")
        f, f_n = group.secret_scalar(secrets.nonce_key, b"shadow-f", statement, tag)
        sigma = derive_permutation(group.derive(secrets.nonce_key, b"shadow-perm", statement, tag), spec)
        out.append((f, f_n, sigma))
    return out


def commit_shadows(
    context: bytes,
    X: Sequence[bytes],
    Z: Sequence[bytes],
    secrets: ShuffleSecrets,
    spec: DeckSpec,
    k: int = SHADOWS,
) -> bytes:
    """The k shadow commitments (32 bytes each) for the shuffle X -> Z."""
    out = []
    for i, (_, f_n, sigma) in enumerate(_shadow_secrets(context, X, Z, secrets, spec, k)):
        S = [group.mul_n(f_n, X[src]) for src in sigma]
        out.append(_shadow_hash(context, i, group.mul_base_n(f_n), S))
    return b"".join(out)


def open_shadows(
    context: bytes,
    X: Sequence[bytes],
    Z: Sequence[bytes],
    secrets: ShuffleSecrets,
    spec: DeckSpec,
    bits: Sequence[int],
) -> tuple[bytes, bytes]:
    """Open each shadow the way its challenge bit asks: (scalars, permutations), concatenated."""
    scalars, perms = [], []
    e_inv = pow(secrets.e, -1, L)
    for (f, _, sigma), bit in zip(_shadow_secrets(context, X, Z, secrets, spec, len(bits)), bits, strict=True):
        if bit == 0:
            scalars.append(group.scalar_to_bytes(f))
            perms.append(bytes(sigma))
        else:
            inverse = [0] * len(sigma)
            for m, src in enumerate(sigma):
                inverse[src] = m
            scalars.append(group.scalar_to_bytes(f * e_inv))
            perms.append(bytes(inverse[src] for src in secrets.perm))
    return b"".join(scalars), b"".join(perms)


def verify_shadows(
    context: bytes,
    spec: DeckSpec,
    X: Sequence[bytes],
    Z: Sequence[bytes],
    E: bytes,
    commitments: bytes,
    bits: Sequence[int],
    scalars: bytes,
    perms: bytes,
) -> list[int]:
    """The shadows whose opening fails (empty: the shuffle is proven).

    A proof already checked in this process (every seat of a simulated table, then the
    transcript's check, read the same one) gets its first answer again: the check is a
    function of exactly the bytes the key below is made of (with the group it is
    checked in: a proof forged in the simulator's group is no proof on the curve)."""
    n, k = spec.size, len(bits)
    if len(commitments) != 32 * k or len(scalars) != 32 * k or len(perms) != n * k or len(X) != n or len(Z) != n:
        return list(range(k))
    def opens(i: int, bit: int) -> bool:
        perm = list(perms[n * i : n * (i + 1)])
        try:
            s = group.scalar_from_bytes(scalars[32 * i : 32 * (i + 1)])
            if not permutation_ok(perm, spec):
                raise GroupError("not a permutation of the deck's segments")
            times = group.multiplier(s)
            if bit == 0:
                F, S = group.mul_base(s), [times(X[src]) for src in perm]
            else:
                F, S = times(E), [b""] * n
                for m, dst in enumerate(perm):
                    S[dst] = times(Z[m])
        except GroupError:
            return False
        return _shadow_hash(context, i, F, S) == commitments[32 * i : 32 * (i + 1)]

    def failed() -> tuple[int, ...]:
        # The shadows are independent and libsodium lets go of the interpreter
        # while it multiplies: check them on every core (the answer is the same).
        return tuple(i for i, ok in enumerate(_proof_pool().map(opens, range(k), bits)) if not ok)

    inputs = (context, repr((spec.name, spec.segments)).encode(), *X, *Z, E, commitments,
              ",".join(map(str, bits)).encode(), scalars, perms)
    return list(_CHECKED.answer(inputs, failed))


_CHECKED: Kept[tuple[int, ...]] = Kept(256)  # the proofs checked, oldest first


_POOL: ThreadPoolExecutor | None = None


def _proof_pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1), thread_name_prefix="ankh-proof")
    return _POOL


# -- the lock proof ---------------------------------------------------------------


def lock_context(game_id: bytes, basis: bytes, seat: int, deck: str, E: bytes) -> bytes:
    return b"".join(
        len(p).to_bytes(2, "little") + p
        for p in (b"ankh/v1/lock", game_id, basis, bytes([seat]), deck.encode(), E)
    )


@dataclass(frozen=True)
class LockMessage:
    Y: bytes  # concatenated points
    T: bytes
    R: bytes
    z: bytes
    zs: bytes  # concatenated scalars


def lock(context: bytes, X: Sequence[bytes], secrets: DeckSecrets) -> LockMessage:
    """One seat's locking pass with its proof."""
    X_blob = b"".join(X)
    x_digest = hashlib.sha512(context + X_blob).digest()
    Y = [group.mul_n(secrets.a(j)[1], x) for j, x in enumerate(X)]
    ts = [group.secret_scalar(secrets.nonce_key, b"lock-t", x_digest, j.to_bytes(2, "little")) for j in range(len(X))]
    T = [group.mul_n(t_n, x) for (_, t_n), x in zip(ts, X, strict=True)]
    Y_blob, T_blob = b"".join(Y), b"".join(T)
    h0 = hashlib.sha512(context + X_blob + Y_blob + T_blob).digest()
    for attempt in range(1000):
        rho, rho_n = group.secret_scalar(secrets.nonce_key, b"lock-rho", h0, attempt.to_bytes(4, "little"))
        R = group.mul_base_n(rho_n)
        c, _ = group.challenge(h0, R)
        z = (rho + c * secrets.e) % L
        # z[j] = sigma[j] + c*k[j] with sigma[j] = rho*a[j] - t[j], i.e. a[j]*z - t[j].
        zs = [(secrets.a(j)[0] * z - t) % L for j, (t, _) in enumerate(ts)]
        if z and group.rep(z) is not None and all(zs):
            return LockMessage(Y_blob, T_blob, R, group.scalar_to_bytes(z), b"".join(map(group.scalar_to_bytes, zs)))
    raise LocalProtocolError("could not build a lock proof")  # pragma: no cover


def verify_lock(context: bytes, E: bytes, X: Sequence[bytes], msg: LockMessage) -> tuple[list[bytes], list[int]]:
    """Check a lock message.  Returns (Y points, failing indices; -1 = whole proof)."""
    try:
        Y = group.split_points(msg.Y)
        T = group.split_points(msg.T)
        zs = group.split_scalars(msg.zs)
        z = group.scalar_from_bytes(msg.z)
        group.check_point(msg.R)
    except GroupError:
        return [], [-1]
    if not len(Y) == len(T) == len(zs) == len(X):
        return [], [-1]
    h0 = hashlib.sha512(context + b"".join(X) + msg.Y + msg.T).digest()
    c, c_n = group.challenge(h0, msg.R)
    try:
        if not group.is_sum(msg.R, group.mul_base(z), group.mul_n(c_n, E)):
            return Y, [-1]
        times_z = group.multiplier(z)
        to_int, mul, is_sum_int = group.to_int, group.mul, group.is_sum_int
        bad = [
            j
            for j in range(len(X))
            if not is_sum_int(to_int(T[j]), to_int(times_z(Y[j])), to_int(mul(zs[j], X[j])))
        ]
    except GroupError:
        return Y, [-1]
    return Y, bad


# -- key proofs -------------------------------------------------------------------


def keys_context(game_id: bytes, basis: bytes, seat: int, deck: str, positions: Sequence[int]) -> bytes:
    pos = b"".join(p.to_bytes(2, "little") for p in positions)
    return b"".join(
        len(p).to_bytes(2, "little") + p
        for p in (b"ankh/v1/keys", game_id, basis, bytes([seat]), deck.encode(), pos)
    )


@dataclass(frozen=True)
class KeyMessage:
    keys: bytes  # concatenated scalars, in the order of the positions
    A: bytes
    As: bytes
    s: bytes


def prove_keys(
    context: bytes, secrets: DeckSecrets, positions: Sequence[int], E: bytes, Y: Sequence[bytes]
) -> KeyMessage:
    """Publish k[j] for these positions with a proof that e*Y[j] = k[j]*X[j]."""
    Ys = [Y[j] for j in positions]
    Vs = [group.mul_n(secrets.e_n, y) for y in Ys]
    A, As, s = group.dleq_prove(context, secrets.e, E, Ys, Vs, secrets.nonce_key)
    keys = b"".join(group.scalar_to_bytes(secrets.key(j)) for j in positions)
    return KeyMessage(keys, A, As, s)


def verify_keys(
    context: bytes, msg: KeyMessage, positions: Sequence[int], E: bytes, X: Sequence[bytes], Y: Sequence[bytes]
) -> list[int] | None:
    """The keys if the proof holds, else None."""
    try:
        keys = group.split_scalars(msg.keys)
        As = group.split_points(msg.As)
        group.check_point(msg.A)
        if len(keys) != len(positions) or len(As) != len(positions):
            return None
        Vs = [group.mul(k, X[j]) for k, j in zip(keys, positions, strict=True)]
    except GroupError:
        return None
    bad = group.dleq_verify(context, E, [Y[j] for j in positions], Vs, msg.A, As, msg.s)
    return None if bad else keys


# -- what everyone knows about a deck ----------------------------------------------


@dataclass
class PublicDeck:
    spec: DeckSpec
    seats: int
    points: tuple[bytes, ...] = ()
    lookup: dict[bytes, int] = field(default_factory=dict)
    E: list[bytes] = field(default_factory=list)
    shuffled: list[list[bytes]] = field(default_factory=list)  # S[i]: output of seat i's shuffle, proven
    # The shuffle under proof: (seat, E, output, shadow commitments), then its challenge bits.
    candidate: tuple[int, bytes, list[bytes], bytes] | None = None
    challenge: tuple[int, ...] | None = None
    locked: list[list[bytes]] = field(default_factory=list)  # Y[i]: output of seat i's lock
    keys: list[dict[int, int]] = field(default_factory=list)  # public keys per position: seat -> k
    shown: list[dict[int, set[int]]] = field(default_factory=list)  # pos -> viewer -> seats who sent keys
    cursor: int = 0  # next undealt position (the top of the deck)
    dealt: dict[int, int] = field(default_factory=dict)  # position -> seat it was dealt to
    public: dict[int, str] = field(default_factory=dict)  # position -> card, once revealed to all

    def __post_init__(self) -> None:
        self.points = self.spec.points()
        self.lookup = {p: i for i, p in enumerate(self.points)}
        n = self.spec.size
        self.keys = [dict() for _ in range(n)]
        self.shown = [dict() for _ in range(n)]

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def size(self) -> int:
        return self.spec.size

    @property
    def ready(self) -> bool:
        return len(self.locked) == self.seats

    def shuffle_input(self, seat: int) -> list[bytes]:
        return list(self.points) if seat == 0 else self.shuffled[seat - 1]

    def lock_input(self, seat: int) -> list[bytes]:
        return self.shuffled[-1] if seat == 0 else self.locked[seat - 1]

    @property
    def final(self) -> list[bytes]:
        return self.locked[-1]

    def card_of(self, point: bytes) -> str | None:
        i = self.lookup.get(point)
        return None if i is None else self.spec.cards[i]

    def knows_key(self, pos: int, owner: int, viewer: int) -> bool:
        """Whether ``viewer`` holds ``owner``'s key for ``pos``."""
        return owner == viewer or owner in self.keys[pos] or owner in self.shown[pos].get(viewer, ())

    def missing(self, pos: int, viewer: int) -> list[int]:
        return [s for s in range(self.seats) if not self.knows_key(pos, s, viewer)]

    def unpublished(self, pos: int) -> list[int]:
        return [s for s in range(self.seats) if s not in self.keys[pos]]


def unlock(deck: PublicDeck, pos: int, keys: Mapping[int, int]) -> str | None:
    """The card at ``pos`` given every seat's key for it (None if not a card)."""
    prod = 1
    for s in range(deck.seats):
        prod = prod * keys[s] % L
    try:
        point = group.mul(pow(prod, -1, L), deck.final[pos])
    except GroupError:
        return None
    return deck.card_of(point)


def forensics(deck: PublicDeck) -> int | None:
    """The first seat that published a point outside the group, if any (slow)."""
    for seat, E in enumerate(deck.E):
        if not group.is_valid_point(E):
            return seat
    for seat, pts in enumerate(deck.shuffled):
        if not all(group.is_valid_point(p) for p in pts):
            return seat
    for seat, pts in enumerate(deck.locked):
        if not all(group.is_valid_point(p) for p in pts):
            return seat
    return None


# -- audit -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Disclosure:
    """What a seat reveals about one deck at the end of the game."""

    e: int
    perm: list[int]
    keys: list[int]


def check_disclosure(deck: PublicDeck, seat: int, d: Disclosure) -> str | None:
    """A seat's own shuffle, recomputed from its disclosure (None = consistent)."""
    if group.mul_base(d.e) != deck.E[seat]:
        return f"{deck.name}: disclosed shuffle scalar does not match E"
    if not permutation_ok(d.perm, deck.spec):
        return f"{deck.name}: disclosed permutation is not a permutation of the deck's segments"
    if len(d.keys) != deck.size:
        return f"{deck.name}: wrong number of disclosed keys"
    source = deck.shuffle_input(seat)
    times_e = group.multiplier(d.e)
    for m, src in enumerate(d.perm):
        if times_e(source[src]) != deck.shuffled[seat][m]:
            return f"{deck.name}: shuffle output {m} is not the disclosed scalar times input {src} (card substituted)"
    for pos, k in enumerate(d.keys):
        earlier = deck.keys[pos].get(seat)
        if earlier is not None and earlier not in (k, L - k):
            return f"{deck.name}: disclosed key for position {pos} differs from the one published"
    return None


def audit_deck(deck: PublicDeck, disclosures: Mapping[int, Disclosure]) -> tuple[list[str], list[tuple[int, str]]]:
    """Given every seat's (individually consistent) disclosure, the deck order and any blame.

    Returns (card at each position, [(seat, problem)]).
    """
    order = list(range(deck.size))
    for seat in range(deck.seats):
        perm = disclosures[seat].perm
        order = [order[src] for src in perm]
    cards = [deck.spec.cards[i] for i in order]
    blame: list[tuple[int, str]] = []
    for pos in range(deck.size):
        keys = {s: disclosures[s].keys[pos] for s in range(deck.seats)}
        if unlock(deck, pos, keys) == cards[pos]:
            continue
        for s in range(deck.seats):
            d = disclosures[s]
            X, Y = deck.lock_input(s)[pos], deck.locked[s][pos]
            if group.mul(d.e, Y) != group.mul(d.keys[pos], X):
                blame.append((s, f"{deck.name}: disclosed key for position {pos} does not open the lock"))
                break
        else:  # pragma: no cover - impossible once each lock proof and disclosure checked out
            blame.append((-1, f"{deck.name}: position {pos} does not hold {cards[pos]}"))
    return cards, blame
