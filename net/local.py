"""The local table: one process knows every card and fulfils the rules
engine's requests from a seeded generator (or from outcomes fixed by hand).

This is the table for games against bots, for tests and for replaying
records.  Networked games use the fairness protocol instead, where no
machine knows every card.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ankh.core.model import (
    DealCard, PassCard, PickRandom, Reveal, RollDie, ShowCards, deck_lists, personality_list,
)
from ankh.core.model import EVENTS as _EVENTS
from ankh.core.state import State

EVENT_IDS = tuple(e["id"] for e in _EVENTS)


@dataclass
class Fixed:
    """Chance outcomes fixed by hand (a scenario); anything left open is drawn
    from the seed.  ``hands`` and ``deck`` give cards from the top of the draw
    pile down: first the starting hands (seat 0's five, then seat 1's ...),
    then ``deck``."""
    hands: dict[int, list[str]] = field(default_factory=dict)
    deck: list[str] = field(default_factory=list)
    personalities: dict[int, str] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)
    rolls: list[int] = field(default_factory=list)
    first: int | None = None


class SetupError(ValueError):
    """The fixed outcomes cannot all hold (an unknown or repeated card...)."""


class LocalTable:
    def __init__(self, players: int, seed: int | None = None, fixed: Fixed | None = None):
        self.players = players
        self.rng = random.Random(seed)
        self.fixed = fixed or Fixed()
        self.rolls = list(self.fixed.rolls)
        self.cards = self._player_deck()
        self.personalities = self._personalities()
        self.events = self._events()

    # --- building the true orders ---------------------------------------------------------

    def _player_deck(self) -> list[str]:
        green, brown = deck_lists(self.players)
        top: list[str] = []
        for seat in range(self.players):
            hand = self.fixed.hands.get(seat)
            if hand is None:
                top.append(None)  # placeholder: filled from the shuffled deck
                continue
            if len(hand) != 5:
                raise SetupError(f"a starting hand has 5 cards, not {len(hand)}")
            top.append(list(hand))
        wanted = [c for h in top if h for c in h] + list(self.fixed.deck)
        for c in wanted:
            if c not in green and c not in brown:
                raise SetupError(f"{c!r} is not a card of a {self.players}-player game")
        if len(set(wanted)) != len(wanted):
            raise SetupError("a card is fixed twice")
        g = [c for c in green if c not in wanted]
        b = [c for c in brown if c not in wanted]
        self.rng.shuffle(g)
        self.rng.shuffle(b)
        rest = g + b  # green cards on top of brown (rulebook setup)
        order: list[str] = []
        for h in top:
            if h is None:
                order += rest[:5]
                rest = rest[5:]
            else:
                order += h
        return order + list(self.fixed.deck) + rest

    def _personalities(self) -> list[str]:
        ids = list(personality_list(self.players))
        fixed = self.fixed.personalities
        for seat, pid in fixed.items():
            if pid not in ids:
                raise SetupError(f"{pid!r} is not a personality of a {self.players}-player game")
        if len(set(fixed.values())) != len(fixed):
            raise SetupError("a personality is fixed twice")
        rest = [p for p in ids if p not in fixed.values()]
        self.rng.shuffle(rest)
        out = []
        for seat in range(self.players):
            out.append(fixed[seat] if seat in fixed else rest.pop())
        return out + rest

    def _events(self) -> list[str]:
        fixed = list(self.fixed.events)
        for e in fixed:
            if e not in EVENT_IDS:
                raise SetupError(f"{e!r} is not a random event")
        rest = [e for e in EVENT_IDS if e not in fixed]
        self.rng.shuffle(rest)
        return fixed + rest

    # --- answering ---------------------------------------------------------------------------

    def roll(self) -> int:
        if self.rolls:
            return self.rolls.pop(0)
        return self.rng.randint(1, 12)

    def answer(self, req):
        """The omniscient answer to a request of the rules engine."""
        if isinstance(req, RollDie):
            return self.roll()
        if isinstance(req, DealCard):
            return self._deck(req.deck)[req.handle]
        if isinstance(req, (Reveal, ShowCards)):
            d = self._deck(req.deck)
            return tuple(d[h] for h in req.handles)
        if isinstance(req, PassCard):
            return self.cards[req.handle]
        if isinstance(req, PickRandom):
            if req.purpose == "first player" and self.fixed.first is not None:
                return (self.fixed.first,)
            return tuple(self.rng.sample(list(req.items), req.k))
        raise TypeError(f"unknown request {req!r}")

    def _deck(self, name: str) -> list[str]:
        return {"player": self.cards, "personality": self.personalities, "event": self.events}[name]

    def fulfil(self, state: State):
        """Answer ``state``'s pending request; returns the events."""
        return state.fulfil(self.answer(state.pending))
