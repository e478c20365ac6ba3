"""A whole game through the fairness protocol, in memory.

Each seat runs its own rules engine and learns only what its own keys
unlock: the protocol :class:`~ankh.net.table.Table` fulfils every request of
the engines (deal, reveal, pass, look, pick, roll), and each engine is told
the card identities *its* seat's material can decrypt, nothing more.  The
engines must then agree on every question asked, which is how peers agree
without a leader.

Handles and positions coincide: a player card's handle in the rules engine
is its position in the shuffled deck (0 = top), and likewise for the
personality and event decks.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ankh.core.setup import new_game
from ankh.core.model import (
    COLOURS, DealCard, Decision, PassCard, PickRandom, Reveal, RollDie, ShowCards, deck_lists,
    personality_list,
)
from ankh.core.model import EVENTS as _EVENTS
from ankh.core.state import State

from .deck import DeckSpec
from .errors import LocalProtocolError
from .table import Table

EVENT_IDS = tuple(e["id"] for e in _EVENTS)


def deck_specs(players: int) -> list[DeckSpec]:
    green, brown = deck_lists(players)
    return [DeckSpec.player(green, brown), DeckSpec.of("personality", personality_list(players)),
            DeckSpec.of("event", EVENT_IDS)]


class FairGame:
    """``players`` seats, each with its own engine, joined by the protocol."""

    def __init__(self, players: int, *, seed: bytes | None = None, table: Table | None = None):
        self.players = players
        self.table = table or Table.new(COLOURS[:players], seed=seed)
        self.table.setup(deck_specs(players))
        self.engines: list[State] = [new_game(players) for _ in range(players)]

    @property
    def pending(self):
        """What every engine waits for (they agree, or something is wrong)."""
        first = self.engines[0].pending
        for e in self.engines[1:]:
            p = e.pending
            if isinstance(first, Decision):
                same = isinstance(p, Decision) and (p.seat, p.kind) == (first.seat, first.kind)
            else:
                same = p == first
            if not same:
                raise LocalProtocolError(f"the engines disagree: {first!r} vs {p!r}")
        return first

    @property
    def outcome(self):
        return self.engines[0].outcome

    def choose(self, option: tuple) -> None:
        """The deciding seat's choice, applied by every engine (each checks it)."""
        for e in self.engines:
            e.choose(option)

    def fulfil(self) -> None:
        """Run the protocol for the pending request and tell each engine its part."""
        req = self.pending
        t = self.table
        if isinstance(req, RollDie):
            value = t.roll(req.purpose)
            answers = [value] * self.players
        elif isinstance(req, PickRandom):
            picked = t.pick(req.k, len(req.items), req.purpose)
            answers = [tuple(req.items[i] for i in picked)] * self.players
        elif isinstance(req, DealCard):
            positions = t.deal(req.deck, req.seat, len(req.handles))
            if tuple(positions) != tuple(req.handles):
                raise LocalProtocolError(f"dealt {positions}, the rules expected {req.handles}")
            answers = [self._known(s, req.deck, req.handles) for s in range(self.players)]
        elif isinstance(req, Reveal):
            shown = t.reveal(req.deck, req.handles)
            answers = [tuple(shown[h] for h in req.handles)] * self.players
        elif isinstance(req, PassCard):
            t.pass_cards("player", [req.handle], req.receiver)
            answers = [self._known(s, "player", (req.handle,))[0] for s in range(self.players)]
        elif isinstance(req, ShowCards):
            t.look(req.deck, req.handles, req.seat)
            answers = [self._known(s, req.deck, req.handles) for s in range(self.players)]
        else:
            raise LocalProtocolError(f"unknown request {req!r}")
        for engine, answer in zip(self.engines, answers):
            engine.fulfil(answer)

    def _known(self, seat: int, deck: str, handles: Sequence[int]) -> tuple:
        return tuple(self.table.known(seat, deck, h) for h in handles)

    def play(self, bots: Sequence, max_steps: int = 50_000,
             after_step: Callable[["FairGame"], None] | None = None) -> None:
        """Play to the end; ``bots[seat].choose(engine, decision)`` sees only its
        own seat's engine.  ``after_step`` (if given) sees the game after each step."""
        for _ in range(max_steps):
            if self.outcome is not None:
                return
            req = self.pending
            if isinstance(req, Decision):
                own = self.engines[req.seat]
                self.choose(bots[req.seat].choose(own, own.pending))
            else:
                self.fulfil()
            if after_step is not None:
                after_step(self)
        raise LocalProtocolError("the game did not end")
