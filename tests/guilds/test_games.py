"""Whole games: the invariants of §7.5 after every step of seeded games
between random and heuristic bots, games that reach a winner, and records
that round-trip (a saved game replays to the same state; a position written
from a state reads back as that state)."""
import random

import pytest

from ankh.core.game import Decision
from ankh.core.guilds.invariants import Broken, check
from ankh.core.guilds.record import Record, format_record, parse_record, position_of
from ankh.core.guilds.rules import new_state
from ankh.core.guilds.state import FIELDS

from ankh.net.play.local import LocalGame

from .helpers import bots_game, table as helpers_table


def run_checked(g):
    snap = check(g.state)
    steps = 0
    while g.step():
        steps += 1
        snap = check(g.state, snap)
        assert steps < 200_000
    return steps


def test_a_broken_invariant_is_named():
    g = bots_game("rrr", 3, 1)
    for _ in range(200):
        g.step()
    s = g.state
    snap = check(s)
    s.gp[0] -= 1 if s.gp[0] else -1
    s.gp[0] = max(0, s.gp[0])
    s.bank[0] += 1
    with pytest.raises(Broken) as e:
        check(s, snap)
    assert "not conserved" in str(e.value)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("kinds", ["rrrr", "hhhh", "hrhr"])
def test_invariants_hold_after_every_step_and_games_reach_a_winner(players, kinds):
    for seed in range(6):
        g = bots_game(kinds, players, seed)
        run_checked(g)
        out = g.state.outcome
        assert out is not None and len(out.winners) == 1
        w = out.winners[0]
        assert g.state.active == w and out.scores[w] >= 12


def test_heuristic_beats_three_random_bots():
    wins = 0
    for seed in range(20):
        kinds = ["r"] * 4
        kinds[seed % 4] = "h"
        g = bots_game(kinds, 4, seed)
        g.advance()
        wins += g.state.outcome.winners == (seed % 4,)
    assert wins >= 18


def test_saved_games_replay_to_the_same_state():
    for seed in range(4):
        g = bots_game("hrhh", 4, seed)
        g.advance()
        text = g.save_text()
        again = LocalGame.from_text(text)
        assert again.state.outcome == g.state.outcome
        for f in ("occ", "res", "gp", "pres", "lock", "parch", "dcard", "track", "robber"):
            assert getattr(again.state, f) == getattr(g.state, f), f
        assert format_record(parse_record(text)) == text


def test_a_position_written_from_any_turn_reads_back_as_that_state():
    for seed in range(6):
        g = bots_game("hhrh", 4, seed)
        s = g.state
        while s.outcome is None and not (s.turn >= 8 + seed * 5 and s.phase == "A"
                                          and isinstance(s.pending, Decision)):
            g.step()
        if s.outcome is not None:
            continue
        rec = Record(players=4, seed=seed, position=position_of(s))
        text = format_record(rec)
        back = parse_record(text)
        assert format_record(back) == text
        t = new_state(4, back.position)
        for f in ("occ", "sup", "gp", "pres", "lock", "parch", "rcpt", "gup", "arrests", "rank",
                  "vshown", "robber", "fire", "track", "dtop", "active"):
            assert getattr(t, f) == getattr(s, f), f
        for p in range(4):
            assert t.hand(p) == s.true_hand(p)
            assert sorted(t.dcard[h] for h in t.dev[p]) == sorted(s.dcard[h] for h in s.dev[p])
        assert t.bank == s.bank


def test_copy_is_independent():
    g = bots_game("rrrr", 4, 3)
    for _ in range(400):
        g.step()
    s = g.state
    c = s.copy()
    for f in FIELDS:
        assert getattr(c, f) == getattr(s, f) or f == "events"
    c.res[0] += 1
    c.dev[0] = c.dev[0] + (99,)
    assert c.res != s.res and c.dev != s.dev


def test_simulation_plays_the_same_game():
    """The switches (no events, trusted answers, forced steps taken at once)
    do not change the game."""
    from ankh.core.guilds.bots import RandomBot
    for seed in range(3):
        results = []
        for sim in (False, True):
            s = new_state(4)
            if sim:
                s.simulate()
            table = helpers_table(4, seed)
            bot = RandomBot(random.Random(seed))
            while s.outcome is None:
                d = s.pending
                if isinstance(d, Decision):
                    if len(d.options) == 1 and not sim:
                        s.choose(d.options[0])
                    else:
                        s.choose(bot.choose(s, d))
                else:
                    s.fulfil(table.answer(d, s))
            results.append((s.outcome, s.turn, s.gp[:], s.occ[:]))
        assert results[0] == results[1]
