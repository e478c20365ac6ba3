"""An in-memory table: N seats, each holding only its own secrets, wired together.

``Table`` answers the rules engine's requests with plain values: deal the
next card of a deck to a seat, reveal cards, pass a hidden card from one
seat to another, let a seat look at hidden cards, roll dice, pick k of n at
random, audit at the end.  Every request runs the real protocol: each seat's
``SeatProtocol`` produces signed frames, and the table carries the bytes to
every other seat (through an optional ``wire`` hook that tests use to drop,
alter or equivocate frames).  Nothing here is trusted: a seat that cheats is
caught by the other seats, not by the table.

The networked game replaces this class with real links; the seats stay the
same.
"""

from __future__ import annotations

import hashlib
import os
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..fair.deck import DeckSpec, unlock
from ..fair.dice import CHAIN_LENGTH
from ..wire.envelope import Identity
from ..wire.errors import Divergence, LocalProtocolError, RemoteProtocolError, Stalled
from .ledger import NOTHING_TO_SEND, AuditOutcome
from .ops import (
    Audit, Deal, Draw, Hello, LockDeck, Op, Pick, Reveal, Roll, Show, ShowSlots, ShuffleDeck, StealCard, Sync, describe,
)
from .seat import SeatProtocol
from ..files.secrets import SeatSecrets
from ..fair.steal import Stolen
from ..files.transcript import Roster, Transcript, find_equivocation

# wire(frame, sender, recipient) -> the bytes to deliver (a frame, a list of
# frames, or None to drop it).
Wire = Callable[[bytes, int, int], "bytes | list[bytes] | None"]


class Table:
    def __init__(self, seats: Sequence[SeatProtocol], *, wire: Wire | None = None) -> None:
        if not seats or [s.seat for s in seats] != list(range(len(seats))):
            raise LocalProtocolError("seats must be given in seat order")
        self.seats = list(seats)
        self.roster = seats[0].roster
        self.wire = wire
        self.delivered = 0

    @classmethod
    def new(
        cls,
        names: Sequence[str],
        *,
        seed: bytes | None = None,
        chain_length: int = CHAIN_LENGTH,
        wire: Wire | None = None,
    ) -> Table:
        """A fresh game.  With ``seed``, every secret is derived from it (tests, benchmarks);
        without, every secret comes from the operating system's randomness."""

        def fresh(label: str) -> bytes:
            if seed is None:
                return os.urandom(32)
            return hashlib.sha256(b"ankh/table-seed/" + seed + label.encode()).digest()

        identities = [Identity.from_seed(fresh(f"identity/{i}")) for i in range(len(names))]
        game_id = fresh("game")[:16]
        secrets = [
            SeatSecrets.certified(game_id, i, identities[i], fresh(f"game-key/{i}"), fresh(f"master/{i}"))
            for i in range(len(names))
        ]
        roster = Roster(
            game_id,
            tuple(names),
            tuple(s.identity.public_key for s in secrets),
            tuple(i.public_key for i in identities),
            tuple(s.cert for s in secrets),
        )
        seats = [
            SeatProtocol(roster, s, chain_length=chain_length)
            for s in secrets
        ]
        return cls(seats, wire=wire)

    # -- plumbing ---------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return self.roster.names

    @property
    def game_id(self) -> bytes:
        return self.roster.game_id

    @property
    def ledger(self):  # any seat's public view: they agree
        return self.seats[0].ledger

    def _pump(self) -> None:
        queue: deque[tuple[int, bytes]] = deque()

        def collect(seat: int) -> None:
            queue.extend((seat, frame) for frame in self.seats[seat].data_to_send())

        for s in range(len(self.seats)):
            collect(s)
        while queue:
            sender, frame = queue.popleft()
            for r, seat in enumerate(self.seats):
                if r == sender:
                    continue
                data = self.wire(frame, sender, r) if self.wire is not None else frame
                if data is None:
                    continue
                for item in data if isinstance(data, list) else [data]:
                    try:
                        seat.receive(item, via=sender)
                    except Divergence as exc:
                        self._resolve(exc, r)
                    except RemoteProtocolError as exc:
                        exc.reporter = r  # type: ignore[attr-defined]
                        if exc.seat is not None and exc.label is None and exc.seat < len(self.seats):
                            exc.label = self.roster.label(exc.seat)
                        raise
                    self.delivered += 1
                collect(r)

    def _resolve(self, exc: Divergence, reporter: int) -> None:
        found = find_equivocation({s.seat: s.view() for s in self.seats}, self.roster)
        if found is None and exc.suspect is not None:
            # Every seat accepted the same frames, so every honest log is the same:
            # the seat that signed another hash lied about it.
            found = self.ledger.blame(
                exc.suspect, "signed a log hash that no seat's history has (no one told different stories)",
                exc.evidence,
            )
        if found is not None:
            found.reporter = reporter  # type: ignore[attr-defined]
            raise found from exc
        exc.reporter = reporter  # type: ignore[attr-defined]
        raise exc

    def run(self, op: Op) -> Any:
        """Run one step on every seat; returns its result (the same at every seat)."""
        if any(s.busy() for s in self.seats):
            raise LocalProtocolError("a previous step did not finish")
        index = self.ledger.index
        alarms = [len(s.alarms) for s in self.seats]
        for seat in self.seats:
            seat.request(op)
        self._pump()
        waiting = sorted({w for s in self.seats for w in s.waiting_for()})
        if waiting:
            raise Stalled(
                waiting, [self.names[w] for w in waiting], describe(op), [self.roster.label(w) for w in waiting]
            )
        for seat, before in zip(self.seats, alarms, strict=True):
            if len(seat.alarms) > before:
                error = seat.alarms[before]
                error.reporter = seat.seat  # type: ignore[attr-defined]
                raise error
        return self.seats[0].ledger.results[index]

    def _ensure_started(self) -> None:
        if self.ledger.index == 0:
            self.run(Hello())

    # -- what the rules engine asks for -------------------------------------------------

    def setup(self, decks: Iterable[DeckSpec]) -> None:
        """Hello, then the shuffle and locking passes of every deck, then a sync."""
        self._ensure_started()
        for spec in decks:
            self.run(ShuffleDeck(spec))
            self.run(LockDeck(spec.name))
        self.sync()

    def roll(self, purpose: str, sides: int = Roll.sides, dice: int = Roll.dice) -> int | tuple[int, ...]:
        """Fair dice: one face (1..sides), or a tuple of ``dice`` faces."""
        self._ensure_started()
        return self.run(Roll(purpose, sides, dice))

    def pick(self, k: int, n: int, purpose: str) -> tuple[int, ...]:
        """k distinct indices of range(n), uniformly at random, in a random order."""
        self._ensure_started()
        return self.run(Pick(k, n, purpose))

    def deal(self, deck: str, to: int, count: int = 1) -> tuple[int, ...]:
        """The next ``count`` cards of ``deck``, secretly to seat ``to``; returns their positions."""
        start = self.ledger.deck(deck).cursor
        return self.run(Deal(deck, to, tuple(range(start, start + count))))

    def draw(self, deck: str, count: int = 1) -> dict[int, str]:
        """The next ``count`` cards of ``deck``, face up; returns {position: card}."""
        start = self.ledger.deck(deck).cursor
        return self.run(Draw(deck, tuple(range(start, start + count))))

    def reveal(self, deck: str, positions: Iterable[int]) -> dict[int, str]:
        """Turn cards face up (e.g. a played card); returns {position: card}."""
        op = Reveal(deck, tuple(positions))
        if self.ledger.problem(op) == NOTHING_TO_SEND:  # every key is public already
            d = self.ledger.deck(deck)
            return {p: d.public.get(p) or unlock(d, p, d.keys[p]) for p in op.positions}
        return self.run(op)

    def show(self, deck: str, positions: Iterable[int], to: int) -> dict[int, str]:
        """Let seat ``to`` learn these cards; returns what it now knows of them."""
        op = Show(deck, tuple(positions), to)
        if self.ledger.problem(op) != NOTHING_TO_SEND:
            self.run(op)
        seat = self.seats[to]
        return {p: seat.card(deck, p) for p in op.positions}  # type: ignore[misc]

    def pass_cards(self, deck: str, positions: Iterable[int], to: int) -> dict[int, str]:
        """A hidden card changes hands (gift, exchange, steal): seat ``to`` learns it."""
        return self.show(deck, positions, to)

    def look(self, deck: str, positions: Iterable[int], by: int) -> dict[int, str]:
        """Seat ``by`` looks at hidden cards (another seat's hand, an unused deck's)."""
        return self.show(deck, positions, by)

    def steal(self, hand: str, kinds: Sequence[str], victim: int, thief: int, slots: Sequence[str | int]) -> Stolen:
        """``thief`` takes one card at random from ``victim``'s hand (``slots``: a card
        kind for each public card, the handle of each hidden one).  Returns what
        everyone knows; the thief's card is in its ledger's ``hand_keys``, the
        victim's loss in its ledger's result (``lost``)."""
        self._ensure_started()
        self.run(StealCard(hand, tuple(kinds), victim, thief, tuple(slots)))
        result = self.ledger.results[-1]
        return Stolen(result.taken, result.kept, result.retired)  # as the public sees it

    def show_slots(self, hand: str, seat: int, slots: Iterable[int]) -> tuple[str, ...]:
        """``seat`` shows hidden cards of its hand to everyone, with proofs; returns them."""
        return self.run(ShowSlots(hand, seat, tuple(slots)))

    def known(self, seat: int, deck: str, position: int) -> str | None:
        """What ``seat`` knows of a card (None: it does not know it)."""
        return self.seats[seat].card(deck, position)

    def audit(self) -> AuditOutcome:
        """End of game: disclose everything and check every deck."""
        return self.run(Audit())

    def sync(self) -> None:
        """Every seat states its log hash; a mismatch exposes an equivocator."""
        self.run(Sync())

    def transcript(self, seat: int = 0) -> Transcript:
        return self.seats[seat].transcript()

    def secrets(self, seat: int) -> bytes:
        return self.seats[seat].secrets.to_bytes()

    def replace(self, seat: int, protocol: SeatProtocol) -> None:
        """Swap in a seat rebuilt after a crash (``SeatProtocol.resume``)."""
        if protocol.seat != seat or protocol.roster != self.roster:
            raise LocalProtocolError("that protocol object is not this seat")
        self.seats[seat] = protocol
