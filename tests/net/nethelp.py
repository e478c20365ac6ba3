"""Shared helpers for the net tests (deck fixtures, tampering, oracles)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ankh.net.fair import group
from ankh.net.fair.deck import DeckSpec
from ankh.net.wire.envelope import HEADER_LEN, Identity, seal, unpack_strict
from ankh.net.fair.group import L
from ankh.net.fair.seal import Boxes
from ankh.net.play.table import Table

GREEN = [f"green-{i:02d}" for i in range(48)]
BROWN = [f"brown-{i:02d}" for i in range(53)]
PERSONALITIES = ["vimes", "vetinari", "chrysoprase", "dragon", "selachii", "rust", "ventre"]
EVENTS = [f"event-{i:02d}" for i in range(12)]
NAMES = ["Ann", "Bob", "Cat", "Dan"]


def full_decks(players: int = 4) -> list[DeckSpec]:
    brown = BROWN[:-2] if players == 2 else BROWN
    personalities = PERSONALITIES[:6] if players == 2 else PERSONALITIES
    return [
        DeckSpec.player(GREEN, brown),
        DeckSpec.of("personalities", personalities),
        DeckSpec.of("events", EVENTS),
    ]


def small_decks() -> list[DeckSpec]:
    return [
        DeckSpec.player([f"g{i}" for i in range(6)], [f"b{i}" for i in range(6)]),
        DeckSpec.of("personalities", PERSONALITIES),
    ]


def table(players: int = 3, *, seed: bytes = b"t", decks: list[DeckSpec] | None = None, **kw: Any) -> Table:
    t = Table.new(NAMES[:players], seed=seed, **kw)
    if decks is not None:
        t.setup(decks)
    return t


def decode(frame: bytes) -> dict[str, Any]:
    return unpack_strict(frame[HEADER_LEN:])


def resign(frame: bytes, identity: Identity, mutate: Callable[[dict[str, Any]], None]) -> bytes:
    """The same message with its body changed, signed again by its sender."""
    payload = decode(frame)
    body = payload["body"]
    mutate(body)
    return seal(identity, payload["from"], payload["game"], payload["seq"], payload["kind"], body)


class Tamper:
    """A wire hook: the first frame of ``kind`` from ``sender`` (matching ``when``)
    is replaced, for every recipient, by ``change(frame)``; or dropped if it returns None.

    ``digests`` records each recipient's ledger digest just before it gets the
    altered frame (to check that nothing was applied)."""

    def __init__(
        self,
        t: Table,
        sender: int,
        kind: str,
        change: Callable[[bytes], bytes | None],
        when: Callable[[dict[str, Any]], bool] = lambda body: True,
        only_to: set[int] | None = None,
    ) -> None:
        self.t, self.sender, self.kind, self.change, self.when = t, sender, kind, change, when
        self.only_to = only_to
        self.target: bytes | None = None
        self.replacement: bytes | None = None
        self.digests: dict[int, bytes] = {}
        t.wire = self

    def __call__(self, frame: bytes, sender: int, recipient: int) -> bytes | None:
        if self.target is None and sender == self.sender:
            payload = decode(frame)
            if payload["kind"] == self.kind and self.when(payload["body"]):
                self.target = frame
                self.replacement = self.change(frame)
        if frame == self.target and (self.only_to is None or recipient in self.only_to):
            self.digests[recipient] = self.t.seats[recipient].ledger.digest()
            return self.replacement
        return frame


def identity(t: Table, seat: int) -> Identity:
    return t.seats[seat].secrets.identity


def swap_scalar(blob: bytes, index: int, value: int) -> bytes:
    return blob[: 32 * index] + group.scalar_to_bytes(value % L) + blob[32 * (index + 1) :]


def attempt_unlock(t: Table, seat: int, deck: str, pos: int) -> str | None:
    """Everything ``seat`` holds for this position, multiplied out: a card only if it has every key."""
    d = t.seats[seat].ledger.deck(deck)
    prod = 1
    for k in t.seats[seat].material(deck, pos).values():
        prod = prod * k % L
    point = group.mul(pow(prod, -1, L), d.final[pos])
    return d.card_of(point)


def reseal(t: Table, frame: bytes, to: int, mutate_inner: Callable[[dict[str, Any]], None]) -> bytes:
    """A sealed (private) message re-made by its sender with the inner body changed."""
    from ankh.net.wire.envelope import INNER
    from ankh.net.fair.seal import digest

    payload = decode(frame)
    sender, seq = payload["from"], payload["seq"]
    secrets = t.seats[sender].secrets
    receiver = t.seats[to].secrets
    eph = payload["body"]["eph"]
    inner = Boxes(receiver.box_private, t.game_id).open(sender, to, seq, eph, payload["body"]["ct"])
    inner_payload = unpack_strict(inner[HEADER_LEN:])
    mutate_inner(inner_payload["body"])
    inner2 = seal(secrets.identity, sender, t.game_id, seq, "keys", inner_payload["body"], label=INNER)
    peer = t.seats[sender].ledger.box[to]

    def outer(body: dict[str, Any]) -> None:
        _, body["ct"] = Boxes(secrets.box_private, t.game_id).seal(
            sender, to, seq, peer, inner2, secrets.ephemeral(seq, to)
        )
        body["h"] = digest(inner2)

    return resign(frame, secrets.identity, outer)


def cheat_body(
    t: Table,
    seat: int,
    kind: str,
    mutate: Callable[[dict[str, Any]], None],
    when: Callable[[Any], bool] = lambda op: True,
) -> None:
    """Make ``seat`` itself cheat consistently: its next ``kind`` message body is
    altered before it signs it and applies it to its own log."""
    from ankh.net.play.ops import KIND_OF

    s = t.seats[seat]
    honest = s._body
    done = []

    def body(op: Any) -> dict[str, Any]:
        b = honest(op)
        if not done and KIND_OF[type(op)] == kind and when(op):
            mutate(b)
            done.append(op)
        return b

    s._body = body  # type: ignore[method-assign]



def rigged_shadows(
    ctx: bytes, spec: DeckSpec, X: list[bytes], Z: list[bytes], E: bytes, guess: list[int], salt: bytes
) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    """A cheater's best try at proving a shuffle X -> Z that is not one: each shadow
    is built to open only the way its guessed bit asks.  Returns (commitments, openings)."""
    from ankh.net.fair import deck as decks

    commits, openings = [], []
    for i, bit in enumerate(guess):
        f, _ = group.secret_scalar(b"cheat", salt, bytes([i]))
        sigma = decks.derive_permutation(salt + bytes([i]), spec)
        if bit == 0:  # an honest shadow of the input
            S, F = [group.mul(f, X[src]) for src in sigma], group.mul_base(f)
        else:  # a shadow of the rigged output: S[sigma[m]] = f*Z[m]
            S = [b""] * len(Z)
            for m, dst in enumerate(sigma):
                S[dst] = group.mul(f, Z[m])
            F = group.mul(f, E)
        commits.append(decks._shadow_hash(ctx, i, F, S))
        openings.append((group.scalar_to_bytes(f), bytes(sigma)))
    return b"".join(commits), openings


def cheating_shuffler(t: Table, seat: int, deck: str, rig: Callable[[list[bytes], bytes], list[bytes]]) -> list[int]:
    """Make ``seat`` rig its shuffle of ``deck`` and try to prove it the best way a
    cheater can (``rigged_shadows``).  ``rig(honest output, E)`` returns the rigged
    output.  Returns the guessed bits."""
    from ankh.net.fair import deck as decks
    from ankh.net.play.ops import ProveShuffle, ShuffleBy, ShuffleDeck

    s = t.seats[seat]
    honest = s._body
    guess = [(7 * i + seat) % 3 % 2 for i in range(decks.SHADOWS)]
    state: dict[str, Any] = {}

    def body(op: Any) -> dict[str, Any]:
        b = honest(op)
        name = op.spec.name if isinstance(op, ShuffleDeck) else getattr(op, "deck", None)
        if name != deck or getattr(op, "seat", 0) != seat:
            return b
        if isinstance(op, (ShuffleDeck, ShuffleBy)):
            d = s.ledger.deck(deck)
            Z = rig(group.split_points(b["pts"]), b["E"])
            ctx = decks.shuffle_context(t.game_id, seat, deck, b["E"])
            b["C"], state["openings"] = rigged_shadows(ctx, d.spec, d.shuffle_input(seat), Z, b["E"], guess, b"rig")
            b["pts"] = b"".join(Z)
        elif isinstance(op, ProveShuffle):
            b["f"] = b"".join(f for f, _ in state["openings"])
            b["perms"] = b"".join(p for _, p in state["openings"])
        return b

    s._body = body  # type: ignore[method-assign]
    return guess
