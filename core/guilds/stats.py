"""The figures of a game of the guilds (see :mod:`ankh.core.stats`): the two
dice, each seat's victory points everybody can count, and where each seat's
resource cards came from and went, read from the public hand sizes step by
step and told apart by the step's events.  A trade counts both ways (a bank
trade of four for one: one card in, four out), as its event says."""
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
        change = [state.hand_size(p) - self._hands[p] for p in range(state.players)]
        for e in events:
            for seat, gained, lost in self.traded(e):
                self.count(flow, seat, gained)
                self.count(flow, seat, -lost)
                change[seat] -= gained - lost
        for p in range(state.players):
            self.count(flow, p, change[p])
            self._hands[p] = state.hand_size(p)

    @staticmethod
    def traded(event: Any) -> list[tuple[int, int, int]]:
        """``(seat, cards gained, cards given)`` of a trade's event (parchments are no cards)."""
        data = event.data or {}
        if event.kind == "bank" and "paid" in data:
            return [(event.seat, 1, data["paid"])]
        if event.kind == "trade" and "give" in data:
            give, want = sum(data["give"][:5]), sum(data["want"][:5])
            return [(event.seat, want, give), (data["other"], give, want)]
        return []


def tally(players: int) -> GuildsTally:
    return GuildsTally(players)
