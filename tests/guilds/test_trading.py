"""Trades between players (R30: base domestic trade): any cards for any
cards as one move, counters with their own terms, deals, the bound on
offers, and records of such trades (old and new) that replay."""
import json
import random
from pathlib import Path

import pytest

from ankh.core.game import IllegalAction, MalformedAction, allows, forced
from ankh.net.play.peer import LegalMoves
from ankh.core.guilds.bots import HeuristicBot
from ankh.core.guilds.game import GAME
from ankh.core.guilds.offers import (
    TO_ALL, cards_of, cards_text, check_offer, counter_option, offer_option, offer_terms,
)
from ankh.core.guilds.views import view_for
from ankh.net.play.local import LocalGame

from .helpers import BR, GR, LU, OR, WO, game, hand, opts, play

P3 = "turn: red\nhouses yellow: V24\nhouses green: V31\nhouses red: V09\n"
DATA = Path(__file__).parent / "data"


def test_an_offer_of_several_kinds_for_several_kinds_is_one_move_and_deals():
    g = game(P3 + "hand red: 2 brick 1 wool 1 grain\nhand yellow: 1 ore 2 lumber\nrolls: 6+6")
    d = g.state.pending
    assert d.kind == "action" and not any(o[0] == "offer" for o in d.options)
    assert d.space.have == (2, 0, 1, 1, 0, 0) and d.space.seats == (1, 2)
    play(g, "offer 2 brick 1 wool for 1 ore 1 lumber to yellow")
    assert g.state.pending.seat == 1 and g.state.pending.kind == "answer"
    play(g, "accept")
    assert opts(g) == ["deal yellow", "cancel"]
    play(g, "deal yellow")
    assert hand(g, 0) == [0, 1, 0, 1, 1] and hand(g, 1) == [2, 1, 1, 0, 0]
    assert g.state.pending.kind == "action"
    assert [e.data for e in g.log if e.kind == "trade"] == [
        {"other": 1, "give": [2, 0, 1, 0, 0, 0], "want": [0, 1, 0, 0, 1, 0]}]


def test_a_counter_names_its_own_terms_and_the_deal_takes_them():
    g = game(P3 + "hand red: 2 brick 2 grain\nhand yellow: 1 ore 1 lumber\nhand green: 2 ore\n"
             "parchments red: 3\nrolls: 6+6")
    play(g, "offer 2 brick for 1 ore to all")
    # yellow gives a lumber and an ore, and wants a grain and parchments instead
    play(g, "counter 1 lumber 1 ore for 1 grain 2 parchment")
    play(g, "decline")
    assert opts(g) == ["deal yellow", "cancel"]
    play(g, "deal yellow")
    s = g.state
    assert hand(g, 0) == [2, 1, 0, 1, 1] and s.parch[0] == 1
    assert hand(g, 1) == [0, 0, 0, 1, 0] and s.parch[1] == 2


def test_the_offerer_may_cancel_after_the_answers():
    g = game(P3 + "hand red: 2 brick\nhand yellow: 1 ore\nrolls: 6+6")
    play(g, "offer 1 brick for 1 ore to yellow", "accept", "cancel")
    assert hand(g, 0)[BR] == 2 and hand(g, 1)[OR] == 1 and g.state.trade is None


@pytest.mark.parametrize("text, why", [
    ("offer 1 brick for 1 brick to yellow", "a kind on both sides"),
    ("offer 1 brick 1 ore for 1 brick to yellow", "a kind on both sides"),
    ("offer 3 brick for 1 ore to yellow", "more than you hold"),
    ("offer 1 parchment for 1 ore to all", "more than you hold"),
])
def test_like_for_like_gifts_and_cards_not_held_are_refused(text, why):
    g = game(P3 + "hand red: 2 brick 1 ore\nhand yellow: 1 ore\nrolls: 6+6")
    with pytest.raises(IllegalAction, match=why):
        g.choose_text(text)
    assert g.state.pending.kind == "action"       # nothing lost
    # a gift as a move, which the notation cannot even write
    assert not allows(g.state.pending, ("offer", "1b", "", TO_ALL))
    assert check_offer(g.state, (1, 0, 0, 0, 0, 0), (0,) * 6) == "nothing asked"
    assert check_offer(g.state, (0,) * 6, (1, 0, 0, 0, 0, 0)) == "nothing given"
    with pytest.raises(MalformedAction):
        g.choose_text("offer 1 brick for 0 ore to yellow")


def test_a_counter_that_only_accepts_or_asks_what_the_offerer_lacks_is_refused():
    g = game(P3 + "hand red: 2 brick\nhand yellow: 1 ore 1 wool\nrolls: 6+6")
    play(g, "offer 2 brick for 1 ore to yellow")
    for text, why in (("counter 1 ore for 2 brick", "same as accepting"),
                      ("counter 1 ore for 3 brick", "more than they hold"),
                      ("counter 1 ore for 1 ore", "a kind on both sides")):
        with pytest.raises(IllegalAction, match=why):
            g.choose_text(text)
    play(g, "counter 1 ore 1 wool for 2 brick")
    assert opts(g) == ["deal yellow", "cancel"]


def test_parchments_trade_on_either_side():
    g = game(P3 + "hand red: 1 grain\nparchments red: 4\nhand yellow: 2 wool\nparchments yellow: 1\n"
             "rolls: 6+6")
    play(g, "offer 3 parchment 1 grain for 2 wool to yellow", "accept", "deal yellow")
    s = g.state
    assert (s.parch[0], s.parch[1]) == (1, 4) and hand(g, 0)[WO] == 2 and hand(g, 1)[GR] == 1
    play(g, "offer 1 parchment for 1 grain to yellow", "counter 1 grain 1 parchment for 1 wool",
         "deal yellow")
    assert (s.parch[0], s.parch[1]) == (2, 3) and hand(g, 0) == [0, 0, 1, 1, 0]


def test_an_asked_seat_that_cannot_accept_may_still_counter():
    g = game(P3 + "hand red: 2 brick\nhand yellow: 1 lumber\nrolls: 6+6")
    play(g, "offer 2 brick for 1 ore to yellow")
    d = g.state.pending
    assert d.options == (("decline",),) and not forced(d)      # the counter is still open
    play(g, "counter 1 lumber for 1 brick", "deal yellow")
    assert hand(g, 0) == [1, 1, 0, 0, 0]


def test_a_networked_seat_checks_an_offer_against_the_decision_s_space():
    g = game(P3 + "hand red: 2 brick\nrolls: 6+6")
    legal = LegalMoves(g.state.pending)
    assert ("end",) in legal and offer_option((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0), 1) in legal
    assert ("offer", "2b", "2b", 1) not in legal and ("offer", "3b", "1o", 1) not in legal
    assert ("offer", "1b", "1o", 3) not in legal                      # no blue at three
    assert ("offer", "01b", "1o", 1) not in legal and ("offer", [1], "1o", 1) not in legal


def test_cards_texts_are_canonical():
    assert cards_text((2, 0, 1, 0, 0, 3)) == "2b1w3p" and cards_of("2b1w3p") == (2, 0, 1, 0, 0, 3)
    assert offer_terms(counter_option((0, 1, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))) == (
        (0, 1, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), TO_ALL)
    for bad in ("", "b", "1w2b", "0b", "1b1b", "2x", "12", 3, "100b"):
        with pytest.raises(MalformedAction):
            cards_of(bad)


def test_records_with_such_trades_round_trip_and_replay():
    g = game(P3 + "hand red: 2 brick 1 wool\nhand yellow: 1 ore 1 lumber\nhand green: 1 grain\n"
             "parchments green: 2\nrolls: 6+6")
    play(g, "offer 2 brick 1 wool for 1 ore 1 lumber to all", "decline",   # written in any order
         "counter 1 grain 2 parchment for 1 brick 1 wool", "deal green")
    text = g.save_text()
    assert "red: offer 2 brick 1 wool for 1 lumber 1 ore to all" in text
    assert "green: counter 1 grain 2 parchment for 1 brick 1 wool" in text and "red: deal green" in text
    again = LocalGame.from_text(text)
    again.advance()
    assert again.state.res == g.state.res and again.state.parch == g.state.parch


def test_records_written_when_an_offer_took_four_moves_still_read():
    text = (DATA / "old_trades.ankh").read_text()
    assert "red: give 1 brick" in text and "green: counter 1 ore" in text and "red: deal green 1 ore" in text
    g = LocalGame.from_text(text)
    g.advance()
    want = json.loads((DATA / "old_trades.json").read_text())
    s = g.state
    for field in ("turn", "active", "res", "bank", "parch", "gp", "occ", "rcpt"):
        value = getattr(s, field)
        assert (value if type(value) is int else list(value)) == want[field], field
    assert s.pending.kind == want["pending_kind"]
    # written again, the same game in one-move offers
    new = g.save_text()
    assert "red: offer 1 brick for 1 lumber to all" in new and "red: deal green" in new
    again = LocalGame.from_text(new)
    again.advance()
    assert again.state.res == s.res and again.state.turn == s.turn


@pytest.mark.parametrize("arrests", [0, 6])
def test_a_heuristic_bot_accepts_an_offer_that_completes_its_next_build(arrests):
    # yellow's next build is a villa (2 grain 3 ore): one ore short, two wool spare.  Red
    # far ahead of it (seven points to one) but not close to winning is no reason to refuse:
    # a rule by the lead froze the leader out of every trade.
    g = game(P3 + f"arrests red: {arrests}\nhand red: 1 ore\nhand yellow: 2 grain 2 ore 2 wool\n"
             "rolls: 6+6")
    assert g.state.vp(0) == 1 + arrests and g.state.vp(1) == 1
    play(g, "offer 1 ore for 2 wool to yellow")
    bot = HeuristicBot(random.Random(1))
    assert bot.choose(view_for(g.state, 1), g.state.pending) == ("accept",)


def test_a_heuristic_bot_declines_to_feed_a_seat_one_point_from_winning():
    # the same offer as above, from a red one point from winning
    g = game(P3 + "arrests red: 10\nhand red: 1 ore\nhand yellow: 2 grain 2 ore 2 wool\nrolls: 6+6")
    assert g.state.vp(0) == 11
    play(g, "offer 1 ore for 2 wool to yellow")
    bot = HeuristicBot(random.Random(1))
    assert bot.choose(view_for(g.state, 1), g.state.pending) == ("decline",)


@pytest.mark.parametrize("arrests, red, answer", [
    (8, "2 grain 2 ore", "accept"),     # nine points: not close
    (9, "1 grain 2 ore", "accept"),     # ten, but the ore does not pay for its villa
    (9, "2 grain 2 ore", "decline"),    # ten, and the ore pays for its villa: two points more
])
def test_a_heuristic_bot_feeds_a_seat_two_points_from_winning_only_what_builds_nothing(arrests, red, answer):
    # yellow has its villa's cards and an ore to spare: a brick and a wool for it are worth it
    g = game(P3 + f"arrests red: {arrests}\nhand red: {red} 1 brick 1 wool\nhand yellow: 2 grain 4 ore\n"
             "rolls: 6+6")
    assert g.state.vp(0) == 1 + arrests
    play(g, "offer 1 brick 1 wool for 1 ore to yellow")
    bot = HeuristicBot(random.Random(1))
    assert bot.choose(view_for(g.state, 1), g.state.pending) == (answer,)


def test_a_heuristic_bot_deals_an_offer_it_values_whatever_the_taker_s_points_unless_it_feeds_them():
    # red gives a wool it can spare for two parchments (worth a little to it), and yellow
    # accepts as it stands: red deals, though yellow has five points; it used to take the
    # offer back when the taker's points weighed more than the trade (half the offers its
    # bots made and others accepted), and yellow four points ahead of it is no reason either.
    # A yellow one point from winning it does not feed.
    for arrests, deal in ((3, ("deal", 1)), (6, ("deal", 1)), (9, ("cancel",))):
        g = game("turn: red\nvillas yellow: V24\nhouses green: V31\nhouses red: V09\n"
                 f"arrests red: 3\narrests yellow: {arrests}\nparchments yellow: 3\n"
                 "hand red: 1 grain 1 ore 1 brick 1 wool\nreceipts red: 2\nrolls: 6+6")
        play(g, "offer 1 wool for 2 parchment to yellow", "accept")
        assert g.state.vp(1) == arrests + 2 and g.state.pending.kind == "deal"
        assert HeuristicBot(random.Random(1)).choose(view_for(g.state, 0), g.state.pending) == deal


def test_a_heuristic_bot_offers_several_kinds_towards_its_build():
    # red's next build is a villa: 2 grain 3 ore; it holds spare brick and wool.  Yellow,
    # whose house is a villa already, saves for a foundation (brick and lumber) and holds
    # the grain and ore red lacks.
    g = game("turn: red\nvillas yellow: V24\nhouses green: V31\nhouses red: V09\n"
             "hand red: 1 grain 1 ore 2 brick 3 wool\nhand yellow: 1 grain 2 ore 1 lumber\n"
             "receipts red: 2\nrolls: 6+6")
    d = g.state.pending
    move = HeuristicBot(random.Random(1)).choose(view_for(g.state, 0), d)
    assert move[0] == "offer" and allows(d, move)
    give, want, to = offer_terms(move)
    assert want[GR] >= 1 and want[OR] >= 1 and not any(want[k] for k in (BR, LU, WO)) and to == TO_ALL
    assert not give[GR] and not give[OR]
    # yellow takes it (it gets the brick it lacks); green has nothing to give
    g.choose(move)
    g.advance()
    play(g, "accept", "decline")
    assert ("deal", 1) in g.state.pending.options


def test_a_heuristic_bot_offers_nothing_nobody_would_take():
    # nobody holds the grain and ore red lacks: it makes no offer
    g = game(P3 + "hand red: 1 grain 1 ore 2 brick 3 wool\nreceipts red: 2\nrolls: 6+6")
    move = HeuristicBot(random.Random(1)).choose(view_for(g.state, 0), g.state.pending)
    assert move[0] != "offer"


def test_a_heuristic_bot_does_not_ask_back_a_kind_it_just_traded_away():
    # red saves for a house (brick lumber wool grain): its ore is spare, and it sells it to
    # yellow for two grain.  Still a brick short, it asks yellow's spare brick, not the ore back
    # (a spare card is worth a little, so "1 grain for 1 brick 2 ore" looked better still).
    g = game("turn: red\nvillas yellow: V24\nfoundations yellow: V40\nhouses green: V31\n"
             "villas red: V09\nfoundations red: V15\nhand red: 1 lumber 1 wool 1 ore\n"
             "hand yellow: 2 grain 2 brick 2 ore\nhand green: 1 wool 1 lumber\n"
             "receipts red: 2\nrolls: 6+6")
    play(g, "offer 1 ore for 2 grain to yellow", "accept", "deal yellow")
    d = g.state.pending
    assert d.seat == 0 and d.kind == "action" and hand(g, 0)[OR] == 0
    move = HeuristicBot(random.Random(1)).choose(view_for(g.state, 0), d)
    assert move[0] == "offer"
    give, want, _to = offer_terms(move)
    assert want[BR] and not want[OR]
    # each seat's kinds given away this turn (forgotten when the next turn starts)
    assert g.state.gave[0] == 1 << OR and g.state.gave[1] == 1 << GR


def test_a_hidden_card_shown_at_a_trade_reveals_only_itself():
    # red robs yellow: yellow's two cards left are hidden from then on
    g = game(P3 + "houses red: V29\nreceipts yellow: 0\nhand yellow: 1 ore 1 wool 1 grain\n"
             "hand red: 1 brick 1 lumber\nrolls: 3+4")
    play(g, "robber ORE:8", "rob yellow")
    s = g.state
    kept = s.hid[1]
    assert len(kept) == 2 and s.res[5:10] == [0] * 5
    assert view_for(s, 2).hand(1) == [2, 2, 2, 2, 2]           # green: any two cards
    wool = next(h for h in kept if s.rcard[h] == WO)
    other = next(h for h in kept if h != wool)
    g.choose_text("offer 1 brick for 1 wool to yellow")
    g.advance()
    # green's rules allow yellow any one of its hidden cards; yellow's its wool alone
    play(g, "accept", "deal yellow")
    assert [e.kind for e in g.log].count("trade") == 1
    assert s.hid[1] == (other,) and view_for(s, 2).rcard.get(other) is None
    assert view_for(s, 2).hand(1)[GR] + view_for(s, 2).hand(1)[OR] == 2   # still any one card
    assert hand(g, 0)[WO] == 1 and s.res[5:10] == [1, 0, 0, 0, 0]
    text = g.save_text()
    again = LocalGame.from_text(text)
    again.advance()
    assert again.state.hid == s.hid and again.state.res == s.res


def test_another_seat_s_rules_let_the_payer_show_any_hidden_card_and_check_it():
    g = game(P3 + "houses red: V29\nreceipts yellow: 0\nhand yellow: 1 ore 1 wool 1 grain\n"
             "hand red: 1 brick 1 lumber\nrolls: 3+4")
    play(g, "robber ORE:8", "rob yellow")
    play(g, "offer 1 brick for 1 wool to yellow", "accept")
    s = g.state
    green = view_for(s, 2)
    green.choose(("deal", 1))
    d = green.pending
    assert d.kind == "show-hidden" and d.seat == 1 and len(d.options) == 2
    assert sorted(o[1] for o in d.options) == sorted(s.hid[1])


@pytest.mark.parametrize("kind", ["heuristic", "search"])
def test_a_bot_does_not_counter_the_same_offer_twice_in_a_turn(kind):
    # yellow saves for a villa (2 grain 3 ore): red's "1 ore for 2 grain" costs it its grain,
    # so it counters with a spare wool for the ore.  Red takes the offer back and makes it
    # again: the bots answered every time with the counter red had passed over.
    from ankh.core.guilds.search import SearchBot
    g = game(P3 + "hand red: 1 ore 2 brick\nhand yellow: 2 grain 2 ore 2 wool\nrolls: 6+6")
    rng = random.Random(1)
    bot = HeuristicBot(rng) if kind == "heuristic" else SearchBot(rng, worlds=4)
    play(g, "offer 1 ore for 2 grain to yellow")
    first = bot.choose(view_for(g.state, 1), g.state.pending)
    assert first[0] == "counter", first
    g.choose(first)
    g.advance()
    play(g, "cancel", "offer 1 ore for 2 grain to yellow")
    assert g.state.pending.seat == 1 and g.state.pending.kind == "answer"
    assert bot.choose(view_for(g.state, 1), g.state.pending) != first


@pytest.mark.parametrize("arrests", [7, 8, 9])
def test_a_heuristic_bot_s_own_offers_feed_a_seat_close_to_winning_by_the_rule_of_its_answers(arrests):
    # red's next build is a villa (2 grain 3 ore); only yellow holds grain and ore.  Yellow saves
    # for a foundation (1 brick 1 lumber) and holds the lumber: a brick pays it.  At ten points
    # (two from winning) red still offers it what builds nothing (wool, not brick); its offers
    # used to leave out any seat two points from winning.  At eleven it offers nothing.
    g = game("turn: red\nvillas yellow: V24\nhouses green: V31\nhouses red: V09\n"
             f"arrests yellow: {arrests}\nhand red: 1 grain 1 ore 2 brick 3 wool\n"
             "hand yellow: 1 grain 2 ore 1 lumber\nreceipts red: 2\nrolls: 6+6")
    assert g.state.vp(1) == arrests + 2
    bot = HeuristicBot(random.Random(1))
    offers = bot.offers(view_for(g.state, 0), 0, g.state.pending.space)
    if arrests == 9:
        assert offers == []
        return
    assert offers
    gives_brick = [offer_terms(o)[0][BR] > 0 for o in offers]
    assert any(gives_brick) if arrests == 7 else not any(gives_brick)
    move = bot.choose(view_for(g.state, 0), g.state.pending)
    assert move[0] == "offer" and (arrests == 7 or not offer_terms(move)[0][BR])


@pytest.mark.parametrize("receipts", [0, 2])
def test_a_heuristic_bot_trades_down_with_the_bank_before_a_7_unless_a_receipt_protects_it(receipts):
    # red saves for a villa (2 grain 3 ore) and holds nine cards, none of a kind it has four
    # spare of: no bank trade pays for its villa, and nobody holds what it lacks.  Open to a 7,
    # it gives four grain for the ore it lacks rather than lose four cards; with a receipt up
    # it keeps its hand.
    g = game(P3 + f"hand red: 4 grain 2 ore 3 wool\nreceipts red: {receipts}\nrolls: 6+6")
    assert g.state.hand_size(0) == 9
    d = g.state.pending
    move = HeuristicBot(random.Random(1)).choose(view_for(g.state, 0), d)
    if receipts:
        assert move[0] != "bank", move
    else:
        assert move == ("bank", GR, OR)
