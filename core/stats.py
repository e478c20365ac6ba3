"""The figures of a game, for the pictures at its end: the dice against their
odds, each seat's standing turn by turn, and where each seat's cards (or, in
the first game, money and minions) came from and went.

A game is its log: the figures are gathered by a :class:`Tally` that sees the
rules' state after each step and the public events of that step, as a replay
of a record or of a networked game's public log walks them.  It reads only
what every seat may see (public counts and events), so the figures are the
same for a seat, a spectator and a replay.  Each game says what it counts in
its ``stats`` module (``tally(players)``); :func:`tally` finds it.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from .game import GAMES


@dataclass
class Stats:
    """What the pictures show.

    ``dice``: how many dice of how many sides make a total (``(2, 6)``: 2d6);
    ``rolls``: every total rolled, in order.  ``series``: a name (``"vp"``,
    ``"money"``...) -> per seat, its value as each turn began and once at the
    end.  ``flows``: a name (``"production"``...) -> per seat ``(gained,
    lost)``, in the order the game lists them.  ``personalities``: per seat,
    its personality once the game has revealed it (else None)."""
    game: str
    players: int
    dice: tuple[int, int]
    rolls: list[int] = field(default_factory=list)
    series: dict[str, list[list[int]]] = field(default_factory=dict)
    flows: dict[str, list[list[int]]] = field(default_factory=dict)
    personalities: tuple[str | None, ...] = ()

    def totals(self) -> list[int]:
        """The totals the dice can make, lowest first."""
        n, sides = self.dice
        return list(range(n, n * sides + 1))

    def counts(self) -> dict[int, int]:
        """How many times each total came up."""
        out = {t: 0 for t in self.totals()}
        for t in self.rolls:
            out[t] = out.get(t, 0) + 1
        return out

    def expected(self) -> dict[int, float]:
        """How many times each total should come up in as many rolls, on average."""
        return {t: p * len(self.rolls) for t, p in odds(*self.dice).items()}


def odds(n: int, sides: int) -> dict[int, float]:
    """The chance of each total of ``n`` dice of ``sides`` faces."""
    ways: dict[int, int] = {}
    for faces in product(range(1, sides + 1), repeat=n):
        ways[sum(faces)] = ways.get(sum(faces), 0) + 1
    whole = sides ** n
    return {t: w / whole for t, w in sorted(ways.items())}


class Tally:
    """Gathers a game's :class:`Stats`: call :meth:`see` after each step of the
    rules with the state and that step's events, :meth:`result` at the end.
    Each game's subclass says what a roll is, what the standing is and which
    step moves what."""

    DICE: tuple[int, int] = (1, 12)
    SERIES: tuple[str, ...] = ()
    FLOWS: tuple[str, ...] = ()

    def __init__(self, game: str, players: int):
        self.stats = Stats(game, players, self.DICE,
                           series={name: [[] for _ in range(players)] for name in self.SERIES},
                           flows={name: [[0, 0] for _ in range(players)] for name in self.FLOWS})
        self._turn: Any = None
        self._ended = False
        self._state: Any = None

    def see(self, state: Any, events: list[Any]) -> None:
        self._state = state
        for e in events:
            total = self.roll(e)
            if total is not None:
                self.stats.rolls.append(total)
        self.step(state, events)
        if self._ended:
            return
        if state.outcome is not None:
            self._ended = True
            self.sample(state)
            self.stats.personalities = tuple(getattr(state.outcome, "personalities", ()) or ())
        elif state.turn != self._turn and state.turn > 0:
            self._turn = state.turn
            self.sample(state)

    def sample(self, state: Any) -> None:
        for name, values in self.standing(state).items():
            for seat, v in enumerate(values):
                self.stats.series[name][seat].append(v)

    def count(self, flow: str, seat: int, delta: int) -> None:
        """``delta`` cards (or coins, minions) gained (>0) or lost (<0) by ``seat`` through ``flow``."""
        if delta:
            self.stats.flows[flow][seat][0 if delta > 0 else 1] += abs(delta)

    def result(self) -> Stats:
        """The figures; of a game not over (a journal, a record cut short), with
        the standing as it is now as the last value."""
        if not self._ended and self._state is not None and self._state.turn > 0:
            self._ended = True
            self.sample(self._state)
        return self.stats

    # what each game says
    def roll(self, event: Any) -> int | None:
        """The total an event shows rolled by chance, if it is a roll."""
        return None

    def standing(self, state: Any) -> dict[str, list[int]]:
        return {}

    def step(self, state: Any, events: list[Any]) -> None:
        """Count the flows of one step."""


def tally(game_id: str, players: int) -> Tally:
    """The :class:`Tally` of game ``game_id`` (its ``stats`` module, beside its ``game`` module)."""
    module = GAMES[game_id].rsplit(".", 1)[0] + ".stats"
    return importlib.import_module(module).tally(players)
