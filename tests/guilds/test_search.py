"""The search bot: its decision depends only on what its seat can see, and it
keeps to its time budget on the clock it is given."""
import random

from ankh.core.game import Decision, allows
from ankh.core.guilds.board import DEV_IDS
from ankh.core.guilds.bots import HeuristicBot
from ankh.core.guilds.game import GAME
from ankh.core.guilds.rules import new_state
from ankh.core.guilds.search import SearchBot, determinize
from ankh.core.guilds.views import view_for

from .helpers import game, table


def midgame(seed: int, turns: int = 12):
    s = new_state(4).simulate()
    s.auto = False   # stop at every decision
    t = table(4, seed)
    bots = [HeuristicBot(random.Random(seed + i)) for i in range(4)]
    while s.outcome is None and not (s.turn >= turns and type(s.pending) is Decision
                                     and s.pending.kind == "action"
                                     and len(s.pending.options) > 2):
        d = s.pending
        if type(d) is Decision:
            s.choose(bots[d.seat].choose(s, d))
        else:
            s.fulfil(t.answer(d, s))
    return s


def test_determinized_worlds_keep_what_the_seat_sees():
    s = midgame(3)
    seat = s.pending.seat
    v = view_for(s, seat)
    w = determinize(v, seat, random.Random(1))
    assert sorted(w.dcard) == sorted(DEV_IDS)   # every token placed somewhere
    for h in v.dev[seat]:
        assert w.dcard[h] == s.dcard[h]
    for q in range(4):
        assert w.hand_size(q) == s.hand_size(q)
        assert min(w.hand(q)) >= 0


def test_the_decision_ignores_what_the_seat_cannot_see():
    s = midgame(5)
    seat = s.pending.seat
    other = s.copy()
    # swap two development tokens the seat cannot see
    hidden = [h for h in range(len(other.dcard)) if view_for(s, seat).dcard[h] is None]
    a, b = hidden[0], hidden[-1]
    other.dcard[a], other.dcard[b] = other.dcard[b], other.dcard[a]
    picks, rated = [], []
    for truth in (s, other):
        bot = SearchBot(random.Random(9), worlds=3)
        picks.append(bot.choose(view_for(truth, seat), truth.pending))
        rated.append(SearchBot(random.Random(9), worlds=3).evaluate(truth, truth.pending))   # a hint's
    assert picks[0] == picks[1]
    assert rated[0] == rated[1] and [v for _, v in rated[0]] == sorted((v for _, v in rated[0]), reverse=True)
    assert all(allows(s.pending, o) and 0 <= v <= 1 for o, v in rated[0])   # offers are in the decision's space


def test_the_budget_is_kept_on_the_injected_clock():
    s = midgame(7)
    ticks = [0.0]

    def clock():
        ticks[0] += 0.01     # every look at the clock costs 10 ms of fake time
        return ticks[0]
    bot = SearchBot(random.Random(2), clock=clock, budget=0.2, worlds=1000)
    opt = bot.choose(view_for(s, s.pending.seat), s.pending)
    assert allows(s.pending, opt)      # a listed option, or an offer its space allows
    assert ticks[0] < 0.2 + 0.2   # stops within the budget (plus one world's look-ups)


def test_search_is_a_bot_of_the_game():
    bot = GAME.bot("search", random.Random(0))
    assert isinstance(bot, SearchBot)


def test_it_takes_a_win_the_heuristic_walks_past():
    """Red has 11 VP and a brick and a lumber: the heuristic lays a
    foundation, but a third brick guild point makes red its president, the
    twelfth point, and the win."""
    g = game("turn: red\nhouses yellow: V24\nhouses green: V31\n"
             "villas red: V30 V34 V38 V42\nhouses red: V37 V41 V14\nhand red: 1 brick 1 lumber\n"
             "gp red: 2 brick\nrolls: 2+6")
    s = g.state
    assert HeuristicBot(random.Random(1)).choose(view_for(s, 0), s.pending)[0] == "found"
    for seed in range(3):
        assert SearchBot(random.Random(seed), worlds=4).choose(view_for(s, 0), s.pending) == ("gp", 0)
    g.choose_text("gp brick")
    g.advance()
    assert g.state.outcome.winners == (0,)


def test_a_world_leaves_the_cards_a_pending_trade_was_seen_to_hold():
    """Red was robbed, so its cards are hidden from green, and it has accepted
    to give a lumber: every world green imagines gives red that lumber."""
    s = midgame(3)
    s.res = [0, 0, 0, 0, 0, 4, 0, 2, 4, 0, 1, 0, 1, 0, 2, 0, 2, 2, 4, 3]
    s.hid, s.rcard = [(1, 2, 3), (), (), ()], {1: 1, 2: 0, 3: 4}
    # green offers an ore for a lumber; red accepted (it gives a lumber, gets an ore)
    s.trade = (2, (0, 0, 0, 0, 1, 0), (0, 1, 0, 0, 0, 0), (3, 0, 1), ((0, (0, 1, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0)),))
    v = view_for(s, 1)
    assert all(v.rcard.get(h) is None for h in (1, 2, 3))
    for seed in range(30):
        w = determinize(v, 1, random.Random(seed))
        assert w.true_hand(0)[1] >= 1 and min(w.true_hand(0)) >= 0


def test_an_offer_the_search_only_weighs_stays_on_offer():
    """Red's best offer toward its villa is its choice whenever it is asked: the
    search weighs it at every look (a hint, a decision) without it counting
    as made; once red makes it, it is not made again that turn."""
    g = game("turn: red\nvillas yellow: V24\nhouses green: V31\nhouses red: V09\n"
             "hand red: 1 grain 1 ore 2 brick 3 wool\nhand yellow: 1 grain 2 ore 1 lumber\n"
             "receipts red: 2\nrolls: 6+6")
    s, d = g.state, g.state.pending
    bot = SearchBot(random.Random(1), worlds=2)
    best = bot.heuristic.prefer(view_for(s, 0), d)
    assert best[0] == "offer"
    for _ in range(3):
        assert bot.candidates(view_for(s, 0), d)[0] == best
    bot.evaluate(view_for(s, 0), d)
    assert bot.heuristic.prefer(view_for(s, 0), d) == best and bot.heuristic.made_offers(s) == []
    assert bot.heuristic.settle(s, best) == best
    assert bot.heuristic.prefer(view_for(s, 0), d) != best
    assert best not in bot.candidates(view_for(s, 0), d)
