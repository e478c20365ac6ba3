"""Shared helpers for the rules tests: playing games and checking invariants."""
from __future__ import annotations

import random

from ankh.core.bots.random_bot import RandomBot
from ankh.core.engine import new_game
from ankh.core.model import BUILDINGS_PER_PLAYER, MINIONS_PER_PLAYER, NUM_AREAS, Decision, deck_lists
from ankh.core.state import NOBODY, REMOVED
from ankh.net.local import Fixed, LocalTable


def check_invariants(s) -> None:
    n = s.players
    green, brown = deck_lists(n)
    handles = s.all_card_handles()
    assert sorted(handles) == list(range(len(green) + len(brown))), "player cards lost or doubled"
    for p in range(n):
        on_board = sum(s.minions[a][p] for a in range(NUM_AREAS))
        assert on_board + s.supply[p] == MINIONS_PER_PLAYER
        assert 0 <= s.supply[p] <= MINIONS_PER_PLAYER
        built = sum(1 for a in range(NUM_AREAS) if s.building[a] == p)
        assert built + s.buildings_left[p] == BUILDINGS_PER_PLAYER
        assert s.money[p] >= 0
    for a in range(NUM_AREAS):
        assert s.trouble[a] in (True, False)  # at most one marker per area
        assert s.trolls[a] >= 0 and s.demons[a] >= 0
        assert all(c >= 0 for c in s.minions[a])
        owner = s.city_owner[a]
        if owner != REMOVED:
            assert owner == s.building[a], "City Area card must follow its building"
    assert sum(s.trolls) <= 3 and sum(s.demons) <= 4
    assert sorted(s.event_deck + s.events_done) == list(range(12))
    assert sorted(s.personality + s.unused_pers) == list(range(len(s.pers)))


def play_random(players: int, seed: int, check: bool = False, max_steps: int = 50_000):
    """Play one game of random bots; returns (state, table, decisions-as-list)."""
    s = new_game(players)
    table = LocalTable(players, seed)
    bot = RandomBot(random.Random(seed * 7919 + players))
    steps = 0
    while s.outcome is None:
        if isinstance(s.pending, Decision):
            s.choose(bot.choose(s, s.pending))
        else:
            table.fulfil(s)
        if check:
            check_invariants(s)
        steps += 1
        assert steps < max_steps, "game stuck"
    return s, table


def run_to_decision(s, table) -> None:
    """Fulfil table requests until a seat must decide (or the game ends)."""
    while s.outcome is None and not isinstance(s.pending, Decision):
        table.fulfil(s)
