"""The fair random steal: one card taken at random from another seat's hand.

Only the thief and the victim learn which card moved, nobody can bias the
draw, and a cheat is caught at the step it happens, with its author named.
The card kinds of a hand (the five resources, say) are fungible and mostly
public, so the protocol works on hand *slots*, not on deck positions.

A **slot** is one point ``S = rho*P(c)``: ``P(c)`` is the card's point
(``group.card_points``: nobody knows a discrete logarithm between two cards),
``rho`` the slot's key, known to the seat holding it.  A card that enters a
hand face up (production, a bank trade) is the public slot ``P(c)``, key 1.
Whoever knows a slot's key knows its card (``rho^-1 * S`` is a card point);
whoever does not sees a uniformly random point.  To claim a slot holds
another card c' one would need ``log P(c')`` to the base ``P(c)``.

A **steal** by seat t from seat v, whose hand is the slots ``X[0..n-1]``:

1. ``steal`` (v, public).  For each slot, a fresh secret ``r[k]``,
   ``Y[k] = r[k]*X[k]`` and a Schnorr proof of knowledge of ``r[k]``
   (``group.dlog_prove``): Y is the hand, card for card, each slot now a
   uniformly random point (two public bricks no longer look alike).  Then one
   secret ``e`` and a permutation ``pi``: ``Z[m] = e*Y[pi[m]]``, ``E = e*B``,
   and the 40 shadow-shuffle commitments of ``deck``'s cut-and-choose proof.
2. ``dice`` (every seat): one beacon round.  Its values fix the 40 challenge
   bits and then the slot ``j`` taken, uniformly in ``range(n)``
   (``dice.bits``, ``dice.pick``): both after ``Z`` is in every seat's log,
   from hash chains committed at the start of the game.
3. ``steal-open`` (v, public, with a private part).  The shadow openings,
   checked by everyone, and the key ``rho'[j] = e*r[pi[j]]*rho[pi[j]]`` of
   slot ``Z[j]`` sealed to t (``seal``: ephemeral X25519, ChaCha20-Poly1305;
   the signed message carries the plaintext's hash).  The private part
   travels inside v's signed public message: a relay can neither strip nor
   alter it without breaking v's signature.  t checks that
   ``rho'^-1 * Z[j]`` is a card point.

Afterwards v holds the slots ``Z[m]``, ``m != j``, under fresh handles (v knows
each one's card and key) and t holds ``Z[j]``.  A hidden slot is used (spent,
discarded, traded, shown) only after a ``show``: its holder publishes the
card with a proof of knowledge of ``rho`` with ``S = rho*P(c)``; the key
itself stays secret (two published keys of one shuffle would link their
slots back to its input).  A show names slots the seat holds now: a slot
spent, or stolen away, is no longer among them.

Every check raises ``RemoteProtocolError`` naming the seat at fault; a
dispute over the private part is settled by ``judge_delivery``, from public
data and the evidence the thief hands on (``evidence.proven``).

At the end-of-game audit each victim discloses every steal's ``e`` and
``pi`` (``audit_entry``; checked by ``check_audit_entry``): with them and
the decks' orders, everyone knows the card under every handle a steal made
(``slot_cards``), for the rules' replay with every card known.  No slot's
key is disclosed: the per-slot factors ``r[k]`` never are.
"""

from __future__ import annotations

import functools
from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import deck as decks
from . import dice, group
from .deck import DeckSpec
from ..wire.errors import LocalProtocolError, RemoteProtocolError
from .group import GroupError, L
from ..wire.schema import Bin, Int, List, Map, Str
from .seal import Boxes, digest, open_disclosed

SHADOWS = decks.SHADOWS
MAX_HAND = 120  # a hand's steal message fits a frame: 128 bytes a slot
MAX_SHOW = 32
_KEY_LEN = 32  # a slot key as sealed to the thief (``group.scalar_to_bytes``)
_B32 = Bin(32)


_SLOTS = Bin(unit=32, max_len=32 * MAX_HAND)


#: The fields of the messages' bodies (the step descriptor and the log hash
#: are added by whoever carries them).
FIELDS = {
    "steal": {"Y": _SLOTS, "A": _SLOTS, "s": _SLOTS, "Z": _SLOTS, "E": _B32, "C": Bin(32 * SHADOWS)},
    "steal-open": {"f": Bin(32 * SHADOWS), "perms": Bin(max_len=SHADOWS * MAX_HAND), "eph": _B32, "h": _B32,
                   "ct": Bin(max_len=256)},
    "show": {"A": Bin(unit=32, max_len=32 * MAX_SHOW), "s": Bin(unit=32, max_len=32 * MAX_SHOW),
             "slots": List(Int(0, 2**32 - 1), MAX_SHOW, min_len=1, unique=True),
             "cards": List(Str(decks.MAX_CARD_ID), MAX_SHOW, min_len=1)},
}


def _blame(seat: int, message: str, evidence: Sequence[bytes] = ()) -> RemoteProtocolError:
    return RemoteProtocolError(message, seat=seat, evidence=evidence)


def _context(*parts: bytes) -> bytes:
    return b"".join(len(p).to_bytes(2, "little") + p for p in parts)


@functools.lru_cache(maxsize=MAX_HAND)
def hand_spec(n: int) -> DeckSpec:
    """A hand of n slots, shuffled as one segment (the shape the shuffle proof permutes)."""
    return DeckSpec.of("hand", tuple(str(i) for i in range(n)))


# -- what everyone knows -----------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """A card in a hand: the point ``rho*P(card)``; ``card`` once public (then rho = 1)."""

    point: bytes
    card: str | None = None


class Hands:
    """The seats' hands of one kind of card, as every seat and the verifier know them.

    A slot has a handle (an int, never reused).  A steal gives the victim's
    remaining slots fresh handles (the public cannot tell which old one each
    is) and the thief one more.
    """

    def __init__(self, name: str, kinds: Sequence[str], seats: int) -> None:
        self.spec = DeckSpec.of(name, tuple(kinds))  # checks the name and the card ids
        self.points = dict(zip(self.spec.cards, self.spec.points(), strict=True))
        self.lookup = {p: c for c, p in self.points.items()}
        self.seats = seats
        self.slots: dict[int, Slot] = {}
        self.owner: dict[int, int] = {}
        self.held: list[list[int]] = [[] for _ in range(seats)]
        self.next_handle = 0
        self.steals = 0

    @property
    def name(self) -> str:
        return self.spec.name

    def hand(self, seat: int) -> tuple[int, ...]:
        return tuple(self.held[seat])

    def public(self, seat: int) -> list[str | None]:
        """The seat's hand as the public sees it (None: a hidden card)."""
        return [self.slots[h].card for h in self.held[seat]]

    def _add(self, seat: int, slot: Slot) -> int:
        handle = self.next_handle
        self.next_handle += 1
        self.slots[handle] = slot
        self.owner[handle] = seat
        self.held[seat].append(handle)
        return handle

    def give(self, seat: int, cards: Sequence[str]) -> tuple[int, ...]:
        """Cards enter a hand face up (production, a bank trade): public slots, key 1."""
        unknown = [c for c in cards if c not in self.points]
        if unknown:
            raise LocalProtocolError(f"{self.name}: no card kind {unknown[0]!r}")
        return tuple(self._add(seat, self.public_slot(c)) for c in cards)

    def public_slot(self, card: str) -> Slot:
        return Slot(self.points[card], card)

    def _remove(self, seat: int, handles: Sequence[int]) -> list[Slot]:
        if len(set(handles)) != len(handles) or any(self.owner.get(h) != seat for h in handles):
            raise LocalProtocolError(f"{self.name}: seat {seat} does not hold all of {list(handles)}")
        for h in handles:
            self.held[seat].remove(h)
            del self.owner[h]
        return [self.slots.pop(h) for h in handles]

    def spend(self, seat: int, handles: Sequence[int]) -> tuple[str, ...]:
        """Cards leave a hand (paid, discarded): each must be public (shown) first."""
        hidden = [h for h in handles if h in self.slots and self.slots[h].card is None]
        if hidden:
            raise LocalProtocolError(f"{self.name}: slots {hidden} are hidden: show them first")
        return tuple(s.card for s in self._remove(seat, handles))  # type: ignore[misc]

    def arrange(self, seat: int, entries: Sequence[str | int]) -> tuple[int, ...]:
        """The seat's hand in the given order: a card kind is a public card (a fresh
        public slot), an int the handle of one of its hidden slots.  Every hidden
        slot it holds must be listed, once (a ledger keeps only hidden slots between
        steals: the rules keep the public cards)."""
        listed = [e for e in entries if type(e) is int]
        hidden = [h for h in self.held[seat] if self.slots[h].card is None]
        if sorted(listed) != sorted(hidden):
            raise LocalProtocolError(f"{self.name}: seat {seat} holds the hidden slots {hidden}, not {listed}")
        kinds = [e for e in entries if type(e) is str]
        public = list(self.give(seat, kinds))  # type: ignore[arg-type]
        order = tuple(e if type(e) is int else public.pop(0) for e in entries)
        self.held[seat] = list(order) + [h for h in self.held[seat] if h not in order]
        return order

    def hidden(self, seat: int) -> tuple[int, ...]:
        return tuple(h for h in self.held[seat] if self.slots[h].card is None)

    def move(self, handles: Sequence[int], giver: int, receiver: int) -> tuple[int, ...]:
        """Public cards change hands (a trade): they keep their points, under new handles."""
        hidden = [h for h in handles if h in self.slots and self.slots[h].card is None]
        if hidden:
            raise LocalProtocolError(f"{self.name}: slots {hidden} are hidden: show them first")
        return tuple(self._add(receiver, s) for s in self._remove(giver, handles))


class HandKeys:
    """What one seat knows of its own hand: each slot's card and key."""

    def __init__(self, hands: Hands, seat: int) -> None:
        self.hands = hands
        self.seat = seat
        self._known: dict[int, tuple[str, int]] = {}

    def learn(self, handle: int, card: str, key: int) -> None:
        self._known[handle] = (card, key % L)

    def card(self, handle: int) -> str:
        return self.of(handle)[0]

    def of(self, handle: int) -> tuple[str, int]:
        """(card, key) of one of our slots (a public card's key is 1)."""
        slot = self.hands.slots.get(handle)
        if slot is not None and slot.card is not None:
            return slot.card, 1
        if slot is None or handle not in self._known:
            raise LocalProtocolError(f"seat {self.seat} does not know slot {handle}")
        return self._known[handle]

    def hand(self) -> list[str]:
        return [self.card(h) for h in self.hands.hand(self.seat)]


# -- the steal ---------------------------------------------------------------------------


def steal_context(game_id: bytes, basis: bytes, hands: Hands, victim: int, thief: int) -> bytes:
    """What every proof of one steal is bound to: the game, the log so far, the hand, the seats."""
    return _context(
        b"ankh/v1/steal", game_id, basis, hands.name.encode(), hands.steals.to_bytes(4, "little"),
        bytes([victim, thief]),
    )


class StealSecrets:
    """The victim's secrets for one steal, derived from its master seed and the steal's context."""

    def __init__(self, master: bytes, context: bytes, n: int) -> None:
        self.e, self.e_n = group.secret_scalar(master, b"steal-e", context)
        self.perm = decks.derive_permutation(group.derive(master, b"steal-perm", context), hand_spec(n))
        self.r = [group.secret_scalar(master, b"steal-r", context, k.to_bytes(2, "little")) for k in range(n)]
        self.nonce_key = group.derive(master, b"steal-nonces", context)[:32]


@dataclass
class Steal:
    """One steal under way, as every seat (and the verifier) follows it."""

    hands: Hands
    victim: int
    thief: int
    context: bytes
    handles: tuple[int, ...]
    X: list[bytes]
    Y: list[bytes] = field(default_factory=list)
    Z: list[bytes] = field(default_factory=list)
    E: bytes = b""
    C: bytes = b""
    bits: tuple[int, ...] | None = None
    pick: int | None = None
    delivered: tuple[bytes, bytes, bytes] | None = None  # (eph, h, ct) of the private part

    @property
    def n(self) -> int:
        return len(self.X)


def begin(hands: Hands, victim: int, thief: int, context: bytes) -> Steal:
    """Start a steal of one card of ``victim``'s hand by ``thief``."""
    if not (0 <= victim < hands.seats and 0 <= thief < hands.seats) or victim == thief:
        raise LocalProtocolError(f"seat {thief} cannot steal from seat {victim}")
    handles = hands.hand(victim)
    if not 0 < len(handles) <= MAX_HAND:
        raise LocalProtocolError(f"seat {victim} has {len(handles)} cards: nothing to steal")
    return Steal(hands, victim, thief, context, handles, [hands.slots[h].point for h in handles])


def _rerandomise_context(st: Steal, k: int) -> bytes:
    return _context(b"ankh/v1/steal/rerandomise", st.context, k.to_bytes(2, "little"))


def shadow_context(context: bytes, E: bytes) -> bytes:
    """What the shuffle proof's shadow commitments are bound to."""
    return _context(b"ankh/v1/steal/shuffle", context, E)


def make_shuffle(st: Steal, master: bytes) -> dict[str, Any]:
    """The victim's ``steal`` message: its hand re-randomised slot by slot, shuffled, committed."""
    sec = StealSecrets(master, st.context, st.n)
    Y, A, s = [], [], []
    for k, x in enumerate(st.X):
        r, r_n = sec.r[k]
        y = group.mul_n(r_n, x)
        a, sk = group.dlog_prove(_rerandomise_context(st, k), r, x, y, sec.nonce_key)
        Y.append(y)
        A.append(a)
        s.append(sk)
    Z = [group.mul_n(sec.e_n, Y[src]) for src in sec.perm]
    E = group.mul_base_n(sec.e_n)
    C = decks.commit_shadows(shadow_context(st.context, E), Y, Z, sec, hand_spec(st.n))
    return {"Y": b"".join(Y), "A": b"".join(A), "s": b"".join(s), "Z": b"".join(Z), "E": E, "C": C}


def check_shuffle(
    st: Steal, body: dict[str, Any], frame: bytes = b"", *, own: bool = False
) -> tuple[list[bytes], list[bytes], bytes, bytes]:
    """Everyone checks the ``steal`` message before anything is built on it.  Blames the victim.

    ``own``: the victim's own message, taken as made (no proof to check).
    """
    if own:
        return group.split_points(body["Y"]), group.split_points(body["Z"]), body["E"], body["C"]
    v, n, evidence = st.victim, st.n, (frame,) if frame else ()
    try:
        # Z is kept (the hand's new slots): the full check.  Y appears only in
        # this step's proofs, where a clamped multiplication wipes out any
        # small-order part: the cheap one.
        Y, Z = group.split_points(body["Y"]), group.split_group_points(body["Z"])
        E = group.check_group_point(body["E"])
    except GroupError as exc:
        raise _blame(v, f"steal from {st.hands.name}: {exc}", evidence) from None
    A, s = body["A"], body["s"]
    if not len(Y) == len(Z) == len(A) // 32 == len(s) // 32 == n:
        raise _blame(v, f"steal from a hand of {n} cards with a message for another size", evidence)
    for k, x in enumerate(st.X):
        cut = slice(32 * k, 32 * k + 32)
        if not group.dlog_verify(_rerandomise_context(st, k), x, Y[k], A[cut], s[cut]):
            raise _blame(v, f"steal: slot {k} of the hand is not re-randomised as proven (a card changed)", evidence)
    return Y, Z, E, body["C"]


def apply_shuffle(st: Steal, staged: tuple[list[bytes], list[bytes], bytes, bytes]) -> None:
    st.Y, st.Z, st.E, st.C = staged


def draw(st: Steal, game_id: bytes, index: int, values: Sequence[bytes]) -> int:
    """The beacon round after the shuffle: the proof's challenge bits and the slot taken."""
    if not st.Z:
        raise LocalProtocolError("the pick comes after the victim's shuffle is in the log")
    purpose = f"steal:{st.hands.name}:{st.victim}:{st.thief}"
    st.bits = dice.bits(game_id, index, purpose, SHADOWS, values)
    (st.pick,) = dice.pick(game_id, index, purpose, 1, st.n, values)
    return st.pick


def victim_keys(st: Steal, keys: HandKeys, sec: StealSecrets) -> list[tuple[str, int]]:
    """(card, key) of every output slot Z[m], as the victim knows them."""
    out = []
    for src in sec.perm:
        card, rho = keys.of(st.handles[src])
        out.append((card, sec.e * sec.r[src][0] * rho % L))
    return out


def make_open(
    st: Steal, keys: HandKeys, master: bytes, boxes: Boxes, seq: int, thief_box: bytes, eph_private: bytes
) -> dict[str, Any]:
    """The victim's ``steal-open`` message: the openings, and slot j's key sealed to the thief.

    ``seq`` is the sequence number of the frame that will carry it (the seal's nonce).
    """
    if st.bits is None or st.pick is None:
        raise LocalProtocolError("the steal has no challenge yet")
    sec = StealSecrets(master, st.context, st.n)
    f, perms = decks.open_shadows(shadow_context(st.context, st.E), st.Y, st.Z, sec, hand_spec(st.n), st.bits)
    _, rho = victim_keys(st, keys, sec)[st.pick]
    plaintext = group.scalar_to_bytes(rho)
    eph, ct = boxes.seal(st.victim, st.thief, seq, thief_box, plaintext, eph_private)
    return {"f": f, "perms": perms, "eph": eph, "h": digest(plaintext), "ct": ct}


def check_open(
    st: Steal, body: dict[str, Any], frame: bytes = b"", used: Container[bytes] = ()
) -> tuple[bytes, bytes, bytes]:
    """Everyone checks the shuffle's openings.  Blames the victim.  Returns the private part.

    ``used``: the ephemeral keys of the private messages of the steps done.  A
    message's key depends on its ephemeral key alone, so one reused would make
    the thief's defence (disclosing this message's key) open that other message.
    """
    assert st.bits is not None
    evidence = (frame,) if frame else ()
    bad = decks.verify_shadows(
        shadow_context(st.context, st.E), hand_spec(st.n), st.Y, st.Z, st.E, st.C, st.bits, body["f"], body["perms"]
    )
    if bad:
        raise _blame(
            st.victim,
            f"steal: the victim's shuffle proof fails ({len(bad)} of {SHADOWS} shadow shuffles); the steal is refused",
            evidence,
        )
    try:
        group.check_group_point(body["eph"])
    except GroupError as exc:
        raise _blame(st.victim, f"steal: private part with an unusable ephemeral key: {exc}", evidence) from None
    if body["eph"] in used:
        raise _blame(st.victim, "steal: private part under an ephemeral key used before in this game", evidence)
    return body["eph"], body["h"], body["ct"]


def opened_card(st: Steal, plaintext: bytes) -> str | None:
    """The card a delivered plaintext opens slot j to (None: it is not slot j's key)."""
    assert st.pick is not None
    try:
        rho = group.scalar_from_bytes(plaintext)
        return st.hands.lookup.get(group.mul(pow(rho, -1, L), st.Z[st.pick]))
    except GroupError:
        return None


def receive(
    st: Steal, delivered: tuple[bytes, bytes, bytes], boxes: Boxes, seq: int, frame: bytes = b""
) -> tuple[str, int]:
    """The thief opens its card: (card, key).  Blames the victim, with the evidence to show.

    The evidence is the victim's signed frame and either the plaintext (its hash
    is in that frame) or, when the private part does not open, this one
    message's disclosed key (``Boxes.disclose``): ``judge_delivery`` settles it.
    """
    assert st.pick is not None
    eph, h, ct = delivered
    try:
        plaintext = boxes.open(st.victim, st.thief, seq, eph, ct)
        if digest(plaintext) != h:
            raise RemoteProtocolError("does not match its signed hash")
    except RemoteProtocolError as exc:
        raise _blame(st.victim, f"steal: the private part {exc.message}", (frame, boxes.disclose(eph))) from None
    card = opened_card(st, plaintext)
    if card is None:
        raise _blame(st.victim, "steal: the key delivered does not open the picked slot to a card", (frame, plaintext))
    return card, group.scalar_from_bytes(plaintext)


def judge_delivery(
    st: Steal, game_id: bytes, seq: int, body: dict[str, Any], evidence: Sequence[bytes], thief_box: bytes,
    used: Container[bytes] = (),
) -> RemoteProtocolError | None:
    """What the thief's evidence proves, from public data alone; None when it proves nothing.

    ``evidence`` is what the thief hands on (``evidence.proven`` checks it for
    every seat, spectator and ``ankh verify``): the victim's ``steal-open``
    frame (``seq`` its sequence number, ``body`` its body: the caller has
    checked that the victim signed it for this very step), then the plaintext
    the thief found (32 bytes) or this one message's disclosed key with its
    proof (``Boxes.disclose``).  The victim is named when its own signed frame
    fails: its openings, or its private part as the evidence opens it.  The
    rest names nobody, the thief included: the ``blame`` message is not the
    thief's signed word, so evidence that clears the victim may come from
    anyone.  A made-up plaintext or a false disclosure anyone (the relay
    among them) can make; the true plaintext the victim knows as well as the
    thief; and even a true disclosure beside a right private part does not
    show that the thief refused that part: a victim that signed two frames
    under one ephemeral key (a bad one for the thief, a good one for the
    others) could hand the thief's honest disclosure of the bad one on beside
    the good one.  A thief that refuses a right part stops the game alone:
    a stall, by name.
    """
    if len(evidence) != 2:
        return None
    frame, proof = evidence
    try:
        eph, h, ct = check_open(st, body, frame, used)
    except RemoteProtocolError as exc:
        return exc  # the victim's own signed frame fails where everyone checks it
    if len(proof) == _KEY_LEN:
        plaintext = proof
        if digest(plaintext) != h:
            return None  # not what the victim sealed: anyone can make up 32 bytes
    else:
        try:
            plaintext = open_disclosed(game_id, st.victim, st.thief, seq, thief_box, eph, ct, proof)
        except RemoteProtocolError as exc:
            if exc.message.startswith("false disclosure"):
                return None  # a disclosure that does not hold: anyone can make one up
            return _blame(st.victim, f"steal: the private part {exc.message}", evidence)
        if digest(plaintext) != h:
            return _blame(st.victim, "steal: the private part does not match its signed hash", evidence)
    if opened_card(st, plaintext) is None:
        return _blame(st.victim, "steal: the key delivered does not open the picked slot to a card", evidence)
    return None  # a right part: the victim is cleared, and the evidence is no one's signed word


@dataclass(frozen=True)
class Stolen:
    """A finished steal: the thief's new slot and the victim's remaining ones (fresh handles).

    ``lost``: on the victim's side only, the old handle taken and its card.
    """

    taken: int
    kept: tuple[int, ...]
    retired: tuple[int, ...]
    lost: tuple[int, str] | None = None


def finish(st: Steal, keys: HandKeys | None = None, master: bytes | None = None) -> Stolen:
    """Everyone moves the slots: the victim's old handles retire, the shuffled slots take new ones.

    The victim passes its ``keys`` and ``master``: it learns the keys of its new slots.
    """
    assert st.pick is not None and st.delivered is not None
    known, lost = None, None
    if keys is not None and keys.seat == st.victim:
        if master is None:
            raise LocalProtocolError("the victim's new keys come from its master seed")
        sec = StealSecrets(master, st.context, st.n)
        known = victim_keys(st, keys, sec)
        lost = st.handles[sec.perm[st.pick]], known[st.pick][0]
    hands = st.hands
    for h in st.handles:
        hands.held[st.victim].remove(h)
        del hands.owner[h]
        del hands.slots[h]
    kept, taken = [], -1
    for m, point in enumerate(st.Z):
        slot = Slot(point)
        if m == st.pick:
            taken = hands._add(st.thief, slot)
            continue
        handle = hands._add(st.victim, slot)
        kept.append(handle)
        if known is not None:
            keys.learn(handle, *known[m])  # type: ignore[union-attr]
    hands.steals += 1
    return Stolen(taken, tuple(kept), st.handles, lost)


# -- the end-of-game audit ----------------------------------------------------------------

MAX_STEALS = 256  # steals one seat was robbed in, in one game: one audit entry each (the audit fits a frame)

#: One entry of a victim's audit for each steal it was robbed in, in log order.
AUDIT_ENTRY = Map({"e": _B32, "perm": Bin(max_len=MAX_HAND)})


@dataclass(frozen=True)
class Robbery:
    """A finished steal, as the end-of-game audit needs it: the victim's slots in
    (``inputs``, with the card of each that was public), the slots out (``outputs``,
    the handle each ``Z[m]`` took) and the points between."""

    hand: str
    victim: int
    context: bytes
    inputs: tuple[int, ...]
    cards: tuple[str | None, ...]
    Y: tuple[bytes, ...]
    Z: tuple[bytes, ...]
    E: bytes
    outputs: tuple[int, ...]


def robbery(st: Steal, cards: Sequence[str | None], result: Stolen) -> Robbery:
    """The record of steal ``st`` once finished (``cards``: its input slots' public cards)."""
    kept = iter(result.kept)
    outputs = tuple(result.taken if m == st.pick else next(kept) for m in range(st.n))
    return Robbery(st.hands.name, st.victim, st.context, st.handles, tuple(cards), tuple(st.Y), tuple(st.Z), st.E,
                   outputs)


def audit_entry(r: Robbery, master: bytes) -> dict[str, Any]:
    """The victim's disclosure of one steal at the end of the game: its shuffle scalar
    and permutation, which link each new slot to the old one it came from.  No slot's
    key is in it: each slot's own factor ``r[k]`` stays secret."""
    sec = StealSecrets(master, r.context, len(r.inputs))
    return {"e": group.scalar_to_bytes(sec.e), "perm": bytes(sec.perm)}


def check_audit_entry(r: Robbery, entry: dict[str, Any]) -> list[int] | str:
    """The permutation a victim's audit entry proves (``Z[m] = e*Y[perm[m]]``, ``E = e*B``),
    or what is wrong with it."""
    n, perm = len(r.inputs), list(entry["perm"])
    if sorted(perm) != list(range(n)):
        return f"steal of {r.hand} by seat {r.victim}'s thief: the order disclosed is no order of {n} cards"
    try:
        e = group.scalar_from_bytes(entry["e"])
        if group.mul_base(e) != r.E or any(group.mul(e, r.Y[src]) != z for src, z in zip(perm, r.Z, strict=True)):
            return f"steal from a hand of {r.hand}: the shuffle disclosed is not the one proven at the step"
    except GroupError as exc:
        return f"steal from a hand of {r.hand}: {exc}"
    return perm


def slot_cards(robberies: Sequence[Robbery], orders: dict[int, list[int]],
               dealt: dict[str, tuple[str, ...]]) -> dict[str, dict[int, str]]:
    """Every slot a steal made, with its card, once the audit disclosed the steals'
    orders (``orders``: robbery index -> permutation) and the decks' (``dealt``): a
    slot in holds a public card, a hidden deck's card (its handle is its position)
    or a slot of an earlier steal; slot ``outputs[m]`` holds the card of ``inputs[perm[m]]``.
    A steal whose order is not known leaves its slots out."""
    out: dict[str, dict[int, str]] = {}
    for i, r in enumerate(robberies):
        perm = orders.get(i)
        if perm is None:
            continue
        known, deck = out.setdefault(r.hand, {}), dealt.get(r.hand, ())
        cards = [c if c is not None else known.get(h) or (deck[h] if h < len(deck) else None)
                 for h, c in zip(r.inputs, r.cards, strict=True)]
        for m, handle in enumerate(r.outputs):
            card = cards[perm[m]]
            if card is not None:
                known[handle] = card
    return out


# -- showing hidden cards -------------------------------------------------------------------


def show_context(game_id: bytes, basis: bytes, hands: Hands, seat: int, handle: int, card: str) -> bytes:
    """What the proof of one shown slot is bound to: the game, the log so far, the slot and the card named."""
    return _context(
        b"ankh/v1/show", game_id, basis, hands.name.encode(), bytes([seat]), handle.to_bytes(4, "little"),
        card.encode(),
    )


def make_show(
    hands: Hands, keys: HandKeys, handles: Sequence[int], game_id: bytes, basis: bytes, master: bytes
) -> dict[str, Any]:
    """Show hidden slots of our hand to everyone: each card with a proof that the slot holds it."""
    nonce_key = group.derive(master, b"show-nonces", game_id, basis)[:32]
    cards, A, s = [], [], []
    for h in handles:
        card, rho = keys.of(h)
        ctx = show_context(game_id, basis, hands, keys.seat, h, card)
        a, sh = group.dlog_prove(ctx, rho, hands.points[card], hands.slots[h].point, nonce_key)
        cards.append(card)
        A.append(a)
        s.append(sh)
    return {"slots": list(handles), "cards": cards, "A": b"".join(A), "s": b"".join(s)}


def check_show(
    hands: Hands, seat: int, body: dict[str, Any], game_id: bytes, basis: bytes, frame: bytes = b""
) -> tuple[str, ...]:
    """Everyone checks a show: each slot held by ``seat`` now, hidden, and holding the card named."""
    evidence = (frame,) if frame else ()
    handles, cards = body["slots"], body["cards"]
    if not len(cards) == len(handles) == len(body["A"]) // 32 == len(body["s"]) // 32:
        raise _blame(seat, "show: as many cards and proofs as slots, please", evidence)
    for i, (h, card) in enumerate(zip(handles, cards, strict=True)):
        if hands.owner.get(h) != seat:
            raise _blame(seat, f"show: slot {h} is not in this hand (spent, or stolen away)", evidence)
        slot = hands.slots[h]
        if slot.card is not None:
            raise _blame(seat, f"show: slot {h} is public already", evidence)
        point = hands.points.get(card)
        cut = slice(32 * i, 32 * i + 32)
        ctx = show_context(game_id, basis, hands, seat, h, card)
        if point is None or not group.dlog_verify(ctx, point, slot.point, body["A"][cut], body["s"][cut]):
            raise _blame(seat, f"show: slot {h} does not hold {card!r}", evidence)
    return tuple(cards)


def apply_show(hands: Hands, body: dict[str, Any]) -> None:
    """Shown slots become public cards: the slot ``(B, P(card))``, key 1, like a card dealt face up."""
    for h, card in zip(body["slots"], body["cards"], strict=True):
        hands.slots[h] = hands.public_slot(card)

