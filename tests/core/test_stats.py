"""The figures of a finished game (ankh.core.stats): the dice are the rolls of
the log, the standing ends where the game ended, and the flows add up to what
each seat holds at the end."""
from __future__ import annotations

from pathlib import Path

import pytest

from ankh.core.game import get
from ankh.core.stats import odds, tally
from ankh.net.play.local import LocalGame

RECORDS = Path(__file__).parent.parent / "fixtures" / "stats"


def played(kind: str):
    """A finished four-seat game of bots, its figures gathered as it is replayed."""
    game = get(kind)
    record = game.parse_record((RECORDS / f"{kind}.ankh").read_text(encoding="utf-8"))
    t = tally(kind, record.players)
    local = LocalGame(record, None, game, watch=t.see)
    assert local.state.outcome is not None
    return local, t.result()


def test_the_odds_of_two_dice_and_of_the_d12():
    two = odds(2, 6)
    assert two[7] == pytest.approx(6 / 36) and two[2] == pytest.approx(1 / 36) and sum(two.values()) == pytest.approx(1)
    assert odds(1, 12) == {t: pytest.approx(1 / 12) for t in range(1, 13)}


def test_the_guild_dice_are_the_rolls_of_the_log():
    local, stats = played("guilds")
    rolls = [sum(e.data["dice"]) for e in local.log if e.kind == "roll"]
    assert stats.dice == (2, 6) and stats.rolls == rolls and len(rolls) > 20
    counts = stats.counts()
    assert sum(counts.values()) == len(rolls) and counts[7] == rolls.count(7)
    assert sum(stats.expected().values()) == pytest.approx(len(rolls))


def test_the_d12_rolls_are_those_of_the_log():
    local, stats = played("morpork")
    rolls = [e.data["roll"] for e in local.log if e.kind == "roll"]
    assert stats.dice == (1, 12) and stats.rolls == rolls and rolls
    assert set(stats.counts()) == set(range(1, 13))


def test_the_victory_points_end_at_the_final_scores():
    local, stats = played("guilds")
    vp = stats.series["vp"]
    assert [line[-1] for line in vp] == [local.state.vp(p) for p in range(4)]
    assert all(len(line) == local.state.turn + 1 for line in vp)   # a value per turn and one at the end
    assert all(line[0] <= line[-1] for line in vp)


def test_the_guild_cards_in_and_out_add_up_to_each_hand():
    local, stats = played("guilds")
    for p in range(4):
        held = sum(g - lost for g, lost in (stats.flows[name][p] for name in stats.flows))
        assert held == local.state.hand_size(p)
    assert sum(stats.flows["production"][p][0] for p in range(4)) > 0
    steals = stats.flows["steal"]
    assert sum(g for g, _ in steals) == sum(lost for _, lost in steals)   # what a thief takes, a victim loses


def test_the_first_game_standing_money_and_minions_add_up():
    local, stats = played("morpork")
    s = local.state
    assert [line[-1] for line in stats.series["money"]] == list(s.money)
    start_money = [line[0] for line in stats.series["money"]]
    start_minions = [line[0] for line in stats.series["minions"]]
    for p in range(4):
        earned, paid = stats.flows["money"][p]
        assert start_money[p] + earned - paid == s.money[p]
        placed, lost = stats.flows["minions"][p]
        assert start_minions[p] + placed - lost == stats.series["minions"][p][-1]
    plays = [e.seat for e in local.log if e.kind == "play"]
    assert [stats.flows["cards"][p][1] for p in range(4)] == [plays.count(p) for p in range(4)]
    assert stats.personalities == tuple(s.outcome.personalities) and all(stats.personalities)


def test_a_game_not_over_ends_its_race_where_it_stands():
    text = (RECORDS / "guilds.ankh").read_text(encoding="utf-8")
    game = get("guilds")
    record = game.parse_record(text)
    record.lines = record.lines[:300]
    t = tally("guilds", record.players)
    local = LocalGame(record, None, game, watch=t.see)
    assert local.state.outcome is None
    stats = t.result()
    assert [line[-1] for line in stats.series["vp"]] == [local.state.vp(p) for p in range(4)]
    assert len(stats.series["vp"][0]) == local.state.turn + 1


def test_a_trade_counts_the_cards_both_ways():
    """A bank trade of four for one is one card in and four out, not three out;
    a player trade is what each side gave and got, and both sides add up."""
    local, stats = played("guilds")
    banked = [e for e in local.log if e.kind == "bank"]
    assert banked
    for p in range(4):
        mine = [e for e in banked if e.seat == p]
        assert stats.flows["bank"][p] == [len(mine), sum(e.data["paid"] for e in mine)]
    traded = [e for e in local.log if e.kind == "trade"]
    assert traded
    given = [0] * 4
    for e in traded:
        given[e.seat] += sum(e.data["give"][:5])
        given[e.data["other"]] += sum(e.data["want"][:5])
    assert [lost for _, lost in stats.flows["trade"]] == given
    assert sum(g for g, _ in stats.flows["trade"]) == sum(given)
