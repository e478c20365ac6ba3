"""Simulation (``State.simulate``: no events told, answers trusted, forced
decisions taken inside the machine) plays exactly the games the engine plays
without it.  ``ANKH_SIM_GAMES`` sets how many seeded games of each table size
are compared (200 by default: 600 games here, each played twice)."""
from __future__ import annotations

import os
import pickle
import random

import pytest

from ankh.core.morpork.model import Decision

from .helpers import ChoosyRandomBot, final_state_text, new_table_game

GAMES = int(os.environ.get("ANKH_SIM_GAMES", "200"))


def play(players: int, seed: int, switches: str = "") -> tuple[str, int]:
    """A seeded game to its end; its final state as text and the decisions asked."""
    s, table = new_table_game(players, seed)
    if switches == "all":
        s.simulate()
    for name in switches.split():
        if name != "all":
            setattr(s, name, not getattr(s, name))
    bot = ChoosyRandomBot(random.Random(seed))
    asked = 0
    while s.outcome is None:
        if isinstance(s.pending, Decision):
            asked += 1
            s.choose(bot.choose(s, s.pending))
        else:
            table.fulfil(s)
    return final_state_text(s), asked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulated_games_end_exactly_as_the_real_ones(players):
    fewer = 0
    for seed in range(GAMES):
        real, asked = play(players, seed)
        simulated, asked_sim = play(players, seed, "all")
        assert simulated == real, f"{players}-player game {seed} ends differently in simulation"
        fewer += asked - asked_sim
    assert fewer > 0, "simulation asked every forced decision too"


@pytest.mark.parametrize("switch", ["narrate", "trust", "auto"])
def test_each_switch_alone_changes_nothing(switch):
    for seed in range(20):
        assert play(4, 1000 + seed, switch)[0] == play(4, 1000 + seed)[0]


def test_simulation_tells_no_events_and_copies_keep_it():
    s, table = new_table_game(4, 5)
    s.simulate()
    told = []
    while s.turn < 5:
        if isinstance(s.pending, Decision):
            told += s.choose(s.pending.options[-1])
        else:
            told += table.fulfil(s)
    assert told == []
    c = s.copy()
    assert (c.narrate, c.trust, c.auto) == (False, True, True)
    back = pickle.loads(pickle.dumps(s))
    assert (back.narrate, back.trust, back.auto) == (False, True, True)
    assert final_state_text(back) == final_state_text(s)


def test_a_real_game_still_checks_answers():
    s, table = new_table_game(4, 5)
    while not isinstance(s.pending, Decision):
        table.fulfil(s)
    pending = s.pending
    with pytest.raises(Exception, match="not among the options"):
        s.choose(("nonsense",))
    assert s.pending == pending
