"""The engine never needs to know what its seat cannot see: one engine per
seat, each told only what that seat may know (its own development tokens,
the card of a steal it took part in), plays whole games in step with a table
that sees everything."""
import random

from ankh.core.game import DealCard, Decision, StealRandom
from ankh.core.guilds.bots import HeuristicBot, RandomBot
from ankh.core.guilds.rules import new_state
from ankh.core.guilds.views import view_for

from .helpers import table

PUBLIC = ("occ", "sup", "res", "bank", "gp", "pres", "lock", "parch", "rcpt", "dev", "dturn",
          "dtop", "gup", "arrests", "rank", "vshown", "hid", "owe", "rnext", "robber", "fire",
          "track", "active", "turn", "phase", "pacts", "bought", "offers")


def told(req, answer, seat):
    """What the engine of ``seat`` is told of a request's answer."""
    if type(req) is DealCard:
        return answer if seat == req.seat else (None,) * len(answer)
    if type(req) is StealRandom:
        h, card = answer
        return (h, card if seat in (req.thief, req.victim) else None)
    return answer


def play_split(players, seed, kinds):
    truth = new_state(players)
    engines = [new_state(players) for _ in range(players)]
    t = table(players, seed)
    bots = [(HeuristicBot if k == "h" else RandomBot)(random.Random(seed * 7 + i))
            for i, k in enumerate(kinds)]
    steals = 0
    steps = 0
    while truth.outcome is None:
        d = truth.pending
        if type(d) is Decision:
            mine = engines[d.seat]
            assert type(mine.pending) is Decision and mine.pending.seat == d.seat
            # the seat decides from its own engine, which sees what it may see
            opt = bots[d.seat].choose(mine, mine.pending)
            truth.choose(opt)
            for e in engines:
                e.choose(opt)
        else:
            answer = t.answer(d, truth)
            steals += type(d) is StealRandom
            truth.fulfil(answer)
            for k, e in enumerate(engines):
                assert type(e.pending) is type(d)
                e.fulfil(told(d, answer, k))
        for k, e in enumerate(engines):
            for f in PUBLIC:
                assert getattr(e, f) == getattr(truth, f), (f, k)
            # a seat's engine knows exactly what its view shows
            assert e.dcard == view_for(truth, k).dcard
            assert e.rcard == view_for(truth, k).rcard
        steps += 1
    for e in engines:
        assert e.outcome == truth.outcome
    return steals, steps


def test_split_engines_stay_in_step_through_whole_games():
    steals = 0
    for seed in range(4):
        steals += play_split(4, seed, "hrhr")[0]
        steals += play_split(3, seed, "rhh")[0]
    assert steals > 0    # the games did exercise the hidden steal


def test_a_seat_view_hides_other_tokens_and_the_stack():
    s = new_state(3).simulate()
    t = table(3, 4)
    bot = RandomBot(random.Random(4))
    while s.outcome is None and s.dtop < 3:
        d = s.pending
        if type(d) is Decision:
            s.choose(bot.choose(s, d))
        else:
            s.fulfil(t.answer(d, s))
    holders = [q for q in range(3) if s.dev[q]]
    assert holders
    q = holders[0]
    other = (q + 1) % 3
    h = s.dev[q][0]
    assert view_for(s, q).dcard[h] == s.dcard[h]
    assert view_for(s, other).dcard[h] is None and view_for(s, None).dcard[h] is None
    assert all(x is None for x in view_for(s, q).dcard[s.dtop:])
