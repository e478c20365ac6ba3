"""Property tests over many random-bot games (OpenSpiel's random_sim_test):
no crash or stuck state, every card accounted for at every step, at most one
trouble marker per area, supplies never exceeded, money never negative, and a
game's record replays to the identical state."""
from __future__ import annotations

import os
import random

import pytest

from ankh.core.morpork.bots.random_bot import RandomBot
from ankh.core.morpork.views import state_json
from ankh.net.play.local import LocalGame

from .helpers import play_random

# per player count; every step of every game is checked (ANKH_PROPERTY_GAMES: more, for a long run)
GAMES = int(os.environ.get("ANKH_PROPERTY_GAMES", "400"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players):
    reasons = set()
    for seed in range(GAMES):
        s, _ = play_random(players, seed, check=True)
        reasons.add(s.outcome.reason)
    # the property runs must reach the different endings, or they prove little
    assert {"personality", "points", "vimes"} <= reasons


@pytest.mark.parametrize("players", [2, 3, 4])
def test_records_replay_to_the_identical_state(players):
    for seed in range(0, 150):
        bots = {p: RandomBot(random.Random(seed * 10 + p)) for p in range(players)}
        game = LocalGame.new(players, seed, bots)
        game.advance()
        again = LocalGame.from_text(game.save_text())
        assert state_json(again.state) == state_json(game.state)
        assert again.state.outcome == game.state.outcome
