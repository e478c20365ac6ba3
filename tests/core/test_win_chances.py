"""The win chance a search gives each seat (what the review and the hint show):
over the seats it sums to 1, a finished game gives it all to its winner
(shared on a tie), and in a game going on it follows the position."""
from __future__ import annotations

import random

import pytest

from ankh.core.game import Decision, get, win_chances
from ankh.net.play.local import LocalGame


def chances_of(name: str):
    """The game's search estimate of every seat's chance from a position."""
    if name == "morpork":
        from ankh.core.morpork.bots import search
        from ankh.core.morpork.bots.heuristic import HeuristicBot
        judge = HeuristicBot(random.Random(0))
        return lambda s: search.chances(s, judge)
    from ankh.core.guilds import search as gsearch
    return gsearch.chances


def bot_game(name: str, seed: int) -> tuple[list[list[float]], list[float], tuple[int, ...]]:
    """A four-seat game of heuristic bots: every seat's chance at the start of
    each turn, at the end, and the winners."""
    rules = get(name)
    chances = chances_of(name)
    game = LocalGame.new(4, seed, {p: rules.bot("heuristic", random.Random(p)) for p in range(4)}, rules)
    seen, during = None, []
    while game.step():
        s = game.state
        if s.outcome is None and isinstance(s.pending, Decision) and s.turn != seen:
            seen = s.turn
            during.append(chances(s))
    return during, chances(game.state), game.state.outcome.winners


@pytest.mark.parametrize("name", ["morpork", "guilds"])
def test_the_seats_chances_sum_to_one_and_the_winner_takes_all(name):
    during, end, winners = bot_game(name, 3)
    assert len(during) > 10
    for shares in during:
        assert len(shares) == 4
        assert all(0.0 <= p <= 1.0 for p in shares)
        assert sum(shares) == pytest.approx(1.0)
    assert end == [1.0 / len(winners) if q in winners else 0.0 for q in range(4)]
    # The position is read, not a fair share: the chances move, and by the
    # last quarter of the game the winner is given more than its fair share.
    assert any(max(shares) > 0.4 for shares in during)
    late = during[3 * len(during) // 4:]
    assert sum(shares[winners[0]] for shares in late) / len(late) > 0.25


def test_a_tie_shares_the_win_and_values_give_softmax_shares():
    assert win_chances(4, (0, 2), None, 1.0) == [0.5, 0.0, 0.5, 0.0]
    assert win_chances(3, (1,), [5.0, 0.0, 0.0], 1.0) == [0.0, 1.0, 0.0]
    shares = win_chances(3, None, [2.0, 1.0, 1.0], 1.0)
    assert sum(shares) == pytest.approx(1.0)
    assert shares[0] / shares[1] == pytest.approx(2.718281828, rel=1e-6)   # one value unit: e to 1
    assert win_chances(2, None, [1e9, 0.0], 1.0) == pytest.approx([1.0, 0.0])   # no overflow
