"""The figures of a game of Discworld: Ankh-Morpork (see
:mod:`ankh.core.stats`): the twelve-sided die (rolled for the random events,
Carcer and the cards that roll it), each seat's public standing turn by turn
(money, minions on the board, buildings, areas controlled) and, per seat,
the cards drawn and played, the money earned and paid, the minions placed
and lost."""
from __future__ import annotations

from typing import Any

from ..stats import Tally
from .model import NUM_AREAS


def standing(s: Any) -> dict[str, list[int]]:
    """Every seat's public standing: money, minions on the board, buildings, areas controlled."""
    seats = range(s.players)
    control = [s.controller(a) for a in range(NUM_AREAS)]
    return {
        "money": [s.money[p] for p in seats],
        "minions": [sum(row[p] for row in s.minions) for p in seats],
        "buildings": [len(s.buildings_on_board(p)) for p in seats],
        "areas": [control.count(p) for p in seats],
    }


class MorporkTally(Tally):
    DICE = (1, 12)
    SERIES = ("money", "minions", "buildings", "areas")
    FLOWS = ("cards", "money", "minions")

    def __init__(self, players: int):
        super().__init__("morpork", players)
        self._last: dict[str, list[int]] | None = None
        self._hands = [0] * players

    def roll(self, event: Any) -> int | None:
        if event.kind == "roll" and event.data and "roll" in event.data:
            return int(event.data["roll"])
        return None

    def standing(self, state: Any) -> dict[str, list[int]]:
        return standing(state)

    def step(self, state: Any, events: list[Any]) -> None:
        now = standing(state)
        last = self._last or now
        for p in range(state.players if state.turn > 0 else 0):  # the setup deals and places: not counted
            self.count("money", p, now["money"][p] - last["money"][p])
            self.count("minions", p, now["minions"][p] - last["minions"][p])
            drawn = len(state.hand[p]) - self._hands[p]
            if drawn > 0:
                self.count("cards", p, drawn)
        self._hands = [len(h) for h in state.hand]
        for e in events:
            if e.kind == "play" and e.seat is not None:
                self.count("cards", e.seat, -1)
        self._last = now


def tally(players: int) -> MorporkTally:
    return MorporkTally(players)
