"""The figures of a game of the guilds (see :mod:`ankh.core.stats`): the two
dice, each seat's victory points everybody can count, and where each seat's
resource cards came from and went, read from the public hand sizes step by
step and told apart by the step's events."""
from __future__ import annotations

from typing import Any

from ..stats import Tally

#: The kind of a step's first event -> the flow its changes of hand sizes count in.
FLOW_OF = {
    "start": "start", "produce": "production", "shortage": "production", "bank": "bank",
    "trade": "trade", "steal": "steal", "show": "beggars", "library": "library",
    "laboratory": "laboratory", "parchments": "parchments", "discard": "seven",
}


class GuildsTally(Tally):
    DICE = (2, 6)
    SERIES = ("vp",)
    FLOWS = ("start", "production", "bank", "trade", "steal", "beggars", "library", "laboratory", "parchments",
             "seven", "spent")

    def __init__(self, players: int):
        super().__init__("guilds", players)
        self._hands = [0] * players

    def roll(self, event: Any) -> int | None:
        if event.kind == "roll" and event.data and "dice" in event.data:
            return sum(event.data["dice"])
        return None

    def standing(self, state: Any) -> dict[str, list[int]]:
        return {"vp": [state.vp(p) for p in range(state.players)]}

    def step(self, state: Any, events: list[Any]) -> None:
        flow = next((FLOW_OF[e.kind] for e in events if e.kind in FLOW_OF), "spent")
        for p in range(state.players):
            n = state.hand_size(p)
            self.count(flow, p, n - self._hands[p])
            self._hands[p] = n


def tally(players: int) -> GuildsTally:
    return GuildsTally(players)
