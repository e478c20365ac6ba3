"""A turn's rules (§4.4-4.13, §5): each with a position and its expected result."""
import pytest

from ankh.core.game import IllegalAction, Reveal, StealRandom
from ankh.core.guilds.board import SPOT_INDEX, TRACK_BIT
from ankh.core.guilds.game import GAME
from ankh.core.guilds.trading import MAX_OFFERS
from ankh.core.guilds.views import view_for

from .helpers import BR, GR, LU, OR, WO, game, gp, hand, opts, piece, play

P3 = "turn: red\nhouses yellow: V24\nhouses green: V31\n"


def test_production_house_1_villa_2_and_robber_blocks_one_token_only():
    g = game(P3 + "houses red: V09\nvillas yellow: V05\nrolls: 2+4")
    assert hand(g, 0)[GR] == 1 and hand(g, 1)[GR] == 2
    g = game(P3 + "houses red: V09\nvillas yellow: V05\nrobber: GRAIN:6\nrolls: 2+4")
    assert hand(g, 0)[GR] == 0 and hand(g, 1)[GR] == 0
    g = game(P3 + "houses red: V09\nvillas yellow: V05\nrobber: GRAIN:6\nrolls: 5+6")
    assert hand(g, 0)[GR] == 1 and hand(g, 1)[GR] == 2   # GRAIN:11 still works


def test_r29_bank_shortage_nobody_or_the_single_taker():
    g = game(P3 + "houses red: V09\nvillas yellow: V05\nhand green: 17 grain\nrolls: 2+4")
    assert hand(g, 0)[GR] == 0 and hand(g, 1)[GR] == 0 and g.state.bank[GR] == 2
    g = game(P3 + "houses red: V25\nvillas yellow: V05\nhand green: 18 grain\nrolls: 2+4")
    assert hand(g, 1)[GR] == 1 and g.state.bank[GR] == 0


def test_r16_beggars_richest_first_from_active_shows_and_builders_copy():
    g = game(P3 + "houses red: V09\nhand yellow: 2 ore 1 wool\nhand green: 3 lumber\nrolls: 1+1")
    d = g.state.pending
    assert d.seat == 1 and d.kind == "show" and opts(g) == ["show wool", "show ore"]
    play(g, "show wool")
    # yellow keeps its card, and its V24 (BEGGARS + ORE) copies one too
    assert hand(g, 0)[WO] == 1 and hand(g, 1) == [0, 0, 2, 0, 2]
    # yellow's V24 is on the Beggars too (BEGGARS + ORE): it copies as well
    g = game(P3 + "houses red: V09\nhand green: 3 lumber\nrolls: 1+1")
    assert hand(g, 0)[LU] == 1 and hand(g, 1)[LU] == 1 and hand(g, 2)[LU] == 3


def test_r17_alchemists_library_then_fire_then_laboratory():
    g = game(P3 + "houses red: V05\nhand red: 1 brick\nrolls: 2+3 4+6 4+6")
    assert g.state.pending.kind == "library" and opts(g) == ["swap brick", "keep"]
    play(g, "swap brick")
    s = g.state
    assert s.parch[0] == 2 and hand(g, 0)[BR] == 0 and s.fire
    assert s.parch[2] == 1                       # UU:5 gives green (V31) a parchment
    play(g, "end")      # yellow rolls 10: the fire goes out, nothing else; green rolls 10
    fires = [e.text for e in g.log if e.kind == "fire"]
    assert fires[-1] == "the fire at the Alchemists' Guild is put out"
    assert s.active == 2 and s.pending.seat == 0 and s.pending.kind == "laboratory"
    assert not s.fire                            # the Laboratory gives its cards, then blows up
    play(g, "take ore")
    assert hand(g, 0)[OR] == 1 and s.fire
    told = [e.text for e in g.log if e.kind in ("fire", "laboratory", "library")]
    assert told == ["red gives brick for 2 parchments", "the Alchemists' Laboratory blows up",
                    "the fire at the Alchemists' Guild is put out",
                    "red takes ore from the Laboratory", "the Alchemists' Laboratory blows up"]


def test_r17_fire_is_placed_even_when_the_robber_blocks_the_library():
    g = game(P3 + "houses red: V05\nhand red: 1 brick\nrobber: ALCHEMISTS:5\nrolls: 2+3")
    assert g.state.fire and g.state.pending.kind == "action" and g.state.parch[0] == 0


def test_r12_r13_palace_cap_two_per_guild_and_simultaneous_tie_stays_vacant():
    g = game(P3 + "houses red: V03 V08 V13\nhouses yellow: V07\ngp red: 2 wool 1 brick\n"
             "gp yellow: 1 wool 1 brick\nrolls: 6+6")
    play(g, "gp wool", "gp wool")
    assert g.state.pending.seat == 0 and "gp wool" not in opts(g)   # third building: cap 2
    play(g, "gp ore")
    assert g.state.pending.seat == 1                                 # then yellow's building
    play(g, "gp wool")
    s = g.state
    assert gp(g, 0, "wool") == 4 and gp(g, 1, "wool") == 2 and s.pres[WO] == 0


def test_r13_palace_batch_tie_leaves_presidency_vacant():
    g = game(P3 + "houses red: V03\nhouses yellow: V07\ngp red: 2 wool\ngp yellow: 2 wool\n"
             "rolls: 6+6")
    play(g, "gp wool", "gp wool")
    assert gp(g, 0, "wool") == 3 and gp(g, 1, "wool") == 3 and g.state.pres[WO] == -1


def test_r27_r20_seven_discards_half_rounded_down_unless_a_receipt_is_up():
    g = game(P3 + "houses red: V09\nreceipts red: 0\nreceipts yellow: 0\nreceipts green: 1\n"
             "hand red: 9 ore\nhand yellow: 4 wool 5 grain\nhand green: 8 brick\nrolls: 3+4")
    # red (active) discards first: 4 of its 9 ore (its only option, taken at once)
    assert hand(g, 0)[OR] == 5
    for _ in range(4):
        assert g.state.pending.seat == 1
        play(g, "discard grain")
    assert hand(g, 0)[OR] == 5 and hand(g, 1) == [0, 0, 4, 1, 0] and hand(g, 2)[BR] == 8


def test_r19_unlicensed_robber_only_to_the_shades():
    g = game(P3 + "houses red: V09\nhand red: 1 brick\nrolls: 3+4")
    assert opts(g) == ["robber SHADES", "pass"]


def test_r19_licensed_robber_spots_and_victims():
    g = game(P3 + "houses red: V29\nhouses green: V21\nreceipts yellow: 0\nreceipts green: 1\n"
             "hand yellow: 1 ore\nhand green: 2 ore\nrolls: 3+4")
    spots = [o for o in opts(g) if o.startswith("robber")]
    assert len(spots) == 17 and "robber ALCHEMISTS:10" not in spots and "robber SHADES" not in spots
    play(g, "robber ORE:8")
    assert opts(g) == ["rob yellow", "no-steal"]    # green shows a receipt
    assert g.state.robber == SPOT_INDEX["ORE:8"]


def test_r20_a_thief_with_seven_cards_cannot_steal():
    g = game(P3 + "houses red: V29\nreceipts yellow: 0\nhand red: 7 wool\nreceipts red: 1\n"
             "hand yellow: 1 ore\nrolls: 3+4")
    play(g, "robber ORE:8")
    assert g.state.pending.kind == "action"
    # the log tells why nothing was stolen
    assert [e.data for e in g.log if e.kind == "no-steal"] == [{"why": "full"}]


def test_a_steal_skipped_is_told_with_its_reason():
    # nobody at the Smelters may be robbed: yellow's receipt is face up
    g = game(P3 + "houses red: V29\nhand yellow: 1 ore\nrolls: 3+4")
    play(g, "robber ORE:8")
    assert [e.data for e in g.log if e.kind == "no-steal"] == [{"why": "nobody"}]
    g = game(P3 + "houses red: V29\nreceipts yellow: 0\nhand yellow: 1 ore\nrolls: 3+4")
    play(g, "robber ORE:8", "no-steal")
    assert [e.data for e in g.log if e.kind == "no-steal"] == [{"why": "choice"}]


def test_steal_hides_the_card_from_the_other_seats():
    g = game(P3 + "houses red: V29\nreceipts yellow: 0\nhand yellow: 1 ore 1 grain\n"
             "hand red: 1 brick 1 lumber\nrolls: 3+4")
    play(g, "robber ORE:8")
    g.choose_text("rob yellow")
    s = g.state
    assert isinstance(s.pending, StealRandom)
    assert s.pending.victim == 1 and s.pending.thief == 0 and len(s.pending.handles) == 2
    g.advance()
    (h,) = s.hid[0]
    (kept,) = s.hid[1]
    assert s.hand_size(0) == 3 and s.hand_size(1) == 1 and s.res[5:10] == [0] * 5
    card = s.rcard[h]
    assert {card, s.rcard[kept]} == {3, 4}
    assert view_for(s, 0).rcard[h] == card
    assert view_for(s, 2).rcard[h] is None and view_for(s, None).rcard[h] is None
    # the victim's rules bound the thief's hand as everyone else's do (its seat knows the card)
    assert view_for(s, 1).rcard[h] is None and view_for(s, 1).hand(0) == view_for(s, 2).hand(0)
    # the victim's remaining card is hidden too: only the victim knows it
    assert view_for(s, 1).rcard[kept] == s.rcard[kept]
    assert view_for(s, 0).rcard[kept] is None and view_for(s, 2).rcard[kept] is None
    # green's engine only knows an upper bound of red's hand
    assert view_for(s, 2).hand(0) == [2, 2, 1, 1, 1]
    # spending makes the engine reveal the hidden card first
    g.choose_text("offer 1 brick for 1 wool to yellow")
    assert isinstance(s.pending, Reveal) is False     # an offer spends nothing yet
    g.advance()
    assert s.pending.kind == "answer"


def test_spending_asks_a_reveal_and_folds_the_card_back():
    g = game(P3 + "houses red: V29\nreceipts yellow: 0\nhand yellow: 1 ore\n"
             "hand red: 1 brick 1 lumber\nrolls: 3+4")
    play(g, "robber ORE:8", "rob yellow")
    s = g.state
    assert hand(g, 0) == [1, 1, 0, 0, 1] and s.hid[0]
    g.choose_text("refresh ore")
    assert isinstance(s.pending, Reveal) and s.pending.deck == "res"
    g.advance()
    assert s.hid[0] == () and s.res[0:5] == [1, 1, 0, 0, 0] and s.rcpt[0] == 2
    assert s.hand_size(1) == 0 and s.bank[OR] == 19


def test_a_payment_the_face_up_cards_cover_keeps_the_hidden_cards_hidden():
    g = game(P3 + "houses red: V29\nreceipts yellow: 0\nhand yellow: 1 ore\n"
             "hand red: 1 brick 1 lumber\nrolls: 3+4")
    play(g, "robber ORE:8", "rob yellow")
    s = g.state
    (h,) = s.hid[0]
    g.choose_text("refresh brick")                # paid from red's face-up brick: nothing shown
    assert not isinstance(s.pending, Reveal)
    g.advance()
    assert s.hid[0] == (h,) and s.res[0:5] == [0, 1, 0, 0, 0] and s.rcpt[0] == 2
    assert view_for(s, 2).rcard[h] is None        # still hidden from the others


def test_r21_r22_r23_assassin_track_table_and_house_anywhere():
    g = game(P3 + "houses red: V09\nhand red: 1 brick 1 wool 1 ore\nrolls: 3+4 5")
    assert [o for o in opts(g) if o.startswith("assassin")] == ["assassin brick wool"]
    play(g, "assassin brick wool")
    s = g.state
    assert s.track & TRACK_BIT[12] and hand(g, 0) == [0, 0, 0, 0, 1]
    assert s.pending.kind == "assassin-house" and "place V00" in opts(g)
    play(g, "place V00")
    assert piece(g, "V00") == (0, "house") and gp(g, 0, "grain") == 1
    # a 4 fails without a building at the Thieves' Guild, succeeds with one
    g = game(P3 + "houses red: V09\nhand red: 1 brick 1 wool\nrolls: 3+4 4")
    play(g, "assassin brick wool")
    assert g.state.pending.kind == "action" and g.state.sup[1] == 4
    g = game(P3 + "houses red: V29\nhand red: 1 brick 1 wool\nrolls: 3+4 4")
    play(g, "assassin brick wool")
    assert g.state.pending.kind == "assassin-house"


def test_r21_no_hire_with_a_full_track():
    g = game(P3 + "houses red: V09\nhand red: 1 brick 1 wool\ntrack: 2 3 4 5 6 8 9 10 11 12\n"
             "rolls: 3+4")
    assert not [o for o in opts(g) if o.startswith("assassin")]


def test_r24_arrest_is_automatic_once_per_turn():
    g = game(P3 + "houses red: V09\nguards red: 2\nhand red: 1 ore\nrolls: 1+4")
    s = g.state
    assert s.arrests[0] == 1 and s.gup[0] == 1 and not s.track & TRACK_BIT[5] and s.arrested
    assert s.vp(0) == 2


def test_r24_a_chosen_total_arrests_too_and_a_seven_never_does():
    g = game(P3 + "houses red: V09\nguards red: 1\nhand red: 1 ore\nparchments red: 5")
    play(g, "fix 4")
    assert g.state.arrests[0] == 1


def test_r26_guard_in_phase_a_moves_the_robber_only_and_one_per_turn():
    g = game(P3 + "houses red: V29\ntokens red: guard-1 guard-2\nrolls: 6+6")
    assert "guard guard-1" in opts(g) and "guard guard-2" in opts(g)
    play(g, "guard guard-1")
    assert all(o.startswith("robber") for o in opts(g))
    play(g, "robber GRAIN:6")
    assert opts(g) == ["roll"] or g.state.phase == "C"
    assert not [o for o in opts(g) if o.startswith("guard")]
    assert g.state.gup[0] == 1 and g.state.dev[0] == (1,)


def test_r26_a_guard_is_never_played_the_turn_it_is_acquired():
    g = game(P3 + "houses red: V09\nhand red: 1 wool 1 grain 1 ore\ndev: guard-5\nrolls: 6+6")
    play(g, "dev")
    s = g.state
    assert s.dcard[s.dev[0][0]] == "guard-5"
    assert not [o for o in opts(g) if o.startswith("guard")]
    play(g, "end")
    while s.active != 0:
        play(g, "end")
    assert "guard guard-5" in opts(g)


def test_r26_guard_in_phase_c_may_hire_an_assassin():
    g = game(P3 + "houses red: V09\ntokens red: guard-1\nhand red: 1 brick 1 wool\nrolls: 6+6")
    play(g, "roll") if "roll" in opts(g) else None
    play(g, "guard guard-1")
    assert "assassin brick wool" in opts(g) and "robber SHADES" in opts(g)


def test_r25_promotion_captain_then_lieutenant():
    g = game(P3 + "houses red: V09\nguards red: 3\nguards yellow: 3\nhand red: 1 ore\n"
             "rolls: 6+6 6+6")
    play(g, "promote")
    s = g.state
    assert s.rank[0] == 1 and s.gup[0] == 0 and s.vp(0) == 3
    assert "promote" not in opts(g)
    play(g, "end", "promote")
    assert s.rank[1] == 2 and s.vp(1) == 2


def test_r25_no_promotion_after_an_arrest():
    g = game(P3 + "houses red: V09\nguards red: 4\nhand red: 1 ore\nrolls: 1+4")
    assert g.state.arrested and "promote" not in opts(g)


def test_r18_parchments_dice_may_be_7_and_two_actions_a_turn():
    g = game(P3 + "houses red: V09\nparchments red: 9")
    assert "fix 7" in opts(g)
    play(g, "fix 7", "pass")
    s = g.state
    assert s.parch[0] == 4 and s.pacts == 1
    play(g, "parchments card ore")
    assert s.parch[0] == 2 and s.pacts == 2 and hand(g, 0)[OR] == 1
    assert not [o for o in opts(g) if o.startswith("parchments")]


def test_parchment_builds_need_the_foundation_or_house():
    g = game(P3 + "houses red: V09\nfoundations red: V15\nparchments red: 13\nrolls: 6+6")
    play(g, "roll")
    assert "parchments house V15" in opts(g) and "parchments villa V09" in opts(g)
    play(g, "parchments house V15")
    assert piece(g, "V15") == (0, "house") and gp(g, 0, "grain") == 1
    play(g, "parchments villa V15")
    assert piece(g, "V15") == (0, "villa") and g.state.parch[0] == 0


def test_receipts_flip_at_phase_c_and_refresh_only_when_one_is_down():
    g = game(P3 + "houses red: V09\nhand red: 2 ore\nrolls: 6+6 6+6 6+6 6+6")
    s = g.state
    assert s.rcpt[0] == 1 and s.rcpt[1] == 2
    play(g, "refresh ore")
    assert s.rcpt[0] == 2 and "refresh ore" not in opts(g)


def test_r33_foundation_reach_example():
    # §7.5: with 1 membership, the sites reachable from V09 (distance <= 2)
    g = game(P3 + "houses red: V09\ngp red: 3 ore\nhand red: 1 brick 1 lumber\nrolls: 6+6")
    sites = sorted(o.split()[1] for o in opts(g) if o.startswith("foundation"))
    assert sites == ["V00", "V04", "V10", "V14", "V15", "V20", "V21"]
    g = game(P3 + "houses red: V09\nhand red: 1 brick 1 lumber\nrolls: 6+6")
    sites = sorted(o.split()[1] for o in opts(g) if o.startswith("foundation"))
    assert sites == ["V04", "V14", "V15"]


def test_house_only_on_own_foundation_and_piece_limits():
    g = game(P3 + "houses red: V09\nfoundations yellow: V15\nfoundations red: V04 V14\n"
             "hand red: 3 brick 3 lumber 1 wool 1 grain\nrolls: 6+6")
    o = opts(g)
    assert "house V04" in o and "house V15" not in o
    assert not [x for x in o if x.startswith("foundation")]   # both foundations are out
    play(g, "house V04")
    assert g.state.sup[0] == 1 and any(x.startswith("foundation") for x in opts(g))


def test_r28_win_at_12_on_your_own_turn():
    g = game(P3 + "houses red: V09\nvillas red: V00 V01 V02 V03\nfoundations red: V04\n"
             "gp red: 3 ore\nguild ore: president=red\nhand red: 1 brick 1 lumber 1 wool 1 grain\n"
             "rolls: 1+2")
    assert g.state.vp(0) == 10
    play(g, "house V04")
    assert g.state.outcome is None and g.state.vp(0) == 11
    g = game(P3 + "houses red: V09 V10\nvillas red: V00 V01 V02 V03\nfoundations red: V04\n"
             "gp red: 3 ore\nguild ore: president=red\nhand red: 1 brick 1 lumber 1 wool 1 grain\n"
             "rolls: 1+2")
    play(g, "house V04")
    assert g.state.outcome.winners == (0,) and g.state.outcome.scores[0] == 12


def test_vetinari_tokens_win_when_shown():
    g = game(P3 + "houses red: V09 V10 V11\nvillas red: V00 V01 V02 V03\ntokens red: vetinari-2")
    assert "win" in opts(g)
    assert view_for(g.state, 1).known_vetinari(0) == ()      # others cannot count it
    play(g, "win")
    assert g.state.outcome.winners == (0,) and g.state.vshown[0] == 1


def test_r30_trade_offer_accept_and_deal():
    g = game(P3 + "houses red: V09\nhand red: 2 brick\nhand yellow: 1 ore\nhand green: 1 ore\n"
             "parchments green: 2\nrolls: 6+6")
    play(g, "offer 1 brick for 1 ore to all")
    assert g.state.pending.seat == 1
    play(g, "accept")
    assert g.state.pending.seat == 2 and "accept" in opts(g)
    play(g, "counter 2 parchment for 1 brick")
    assert opts(g) == ["deal yellow", "deal green", "cancel"]
    play(g, "deal green")
    s = g.state
    assert hand(g, 0)[BR] == 1 and hand(g, 2)[BR] == 1 and s.parch[0] == 2 and s.parch[2] == 0
    assert hand(g, 1)[OR] == 1


def test_a_copy_that_answers_an_offer_leaves_the_game_s_offer_alone():
    # bots explore copies of the state: an answer in a copy is not an answer in the game
    g = game(P3 + "houses red: V09\nhand red: 2 brick\nhand yellow: 1 ore\nhand green: 1 ore\nrolls: 6+6")
    play(g, "offer 1 brick for 1 ore to all")
    for _ in range(3):
        explored = g.state.copy().simulate()
        explored.choose(("accept",))
        explored.choose(("accept",))
        assert explored.pending.kind == "deal"
    play(g, "decline", "decline")
    assert g.state.pending.kind == "action" and g.state.trade is None     # nobody accepted here


def test_a_copy_taken_during_an_offer_keeps_its_own_answers():
    """Bots explore answers on copies: an answer given in one copy is not
    given in the other."""
    g = game(P3 + "houses red: V09\nhand red: 2 brick\nhand yellow: 1 ore\nhand green: 1 ore\n"
             "rolls: 6+6")
    play(g, "offer 1 brick for 1 ore to all")
    s = g.state
    c = s.copy()
    s.choose(("accept",))
    s.choose(("decline",))
    c.choose(("decline",))
    c.choose(("accept",))
    assert [GAME.format_option(s, o) for o in s.pending.options] == ["deal yellow", "cancel"]
    assert [GAME.format_option(c, o) for o in c.pending.options] == ["deal green", "cancel"]


def test_trade_offers_are_limited_per_turn():
    g = game(P3 + "houses red: V09\nhand red: 5 brick\nhand yellow: 3 ore\nrolls: 6+6")
    for _ in range(MAX_OFFERS):
        assert g.state.pending.space.left > 0
        play(g, "offer 1 brick for 1 ore to yellow", "decline")
    assert g.state.pending.kind == "action" and g.state.pending.space is None
    with pytest.raises(IllegalAction, match="not legal"):
        g.choose_text("offer 1 brick for 1 ore to yellow")



def test_r31_guard_and_dice_setting_before_the_same_roll_in_either_order():
    g = game(P3 + "houses red: V29\ntokens red: guard-1\nparchments red: 5\nhand red: 1 ore")
    play(g, "fix 6")
    assert "guard guard-1" in opts(g) and not [o for o in opts(g) if o.startswith("fix")]
    play(g, "guard guard-1", "robber GRAIN:6")     # then the roll is the only option
    s = g.state
    assert s.phase == "C" and s.parch[0] == 0 and s.gup[0] == 1 and s.pacts == 1
    assert any(e.text == "red sets the dice to 6" for e in g.log)


def test_r35_three_or_four_players_only():
    import pytest
    from ankh.core.guilds.record import RecordError
    with pytest.raises(RecordError) as e:
        game("", players=2)
    assert "3 or 4 players" in str(e.value)


def test_r38_the_robber_blocks_a_special_district_token():
    g = game(P3 + "houses red: V09\nhand yellow: 2 ore\nrobber: BEGGARS:2\nrolls: 1+1")
    assert g.state.pending.kind == "action" and hand(g, 0) == [0, 0, 0, 0, 0]
    g = game(P3 + "houses red: V26\nrobber: UU:4\nrolls: 1+3")
    assert g.state.parch[0] == 0
    g = game(P3 + "houses red: V26\nrolls: 1+3")
    assert g.state.parch[0] == 1


def test_phase_a_allows_nothing_but_guard_dice_and_roll():
    g = game(P3 + "houses red: V29\ntokens red: guard-1\nparchments red: 5\n"
             "hand red: 4 brick 4 lumber 4 wool 4 grain 4 ore")
    verbs = {o.split()[0] for o in opts(g)}
    assert verbs == {"roll", "fix", "guard"}


def test_each_building_acts_once_at_the_library():
    g = game(P3 + "houses red: V05 V06\nvillas red: V10\nhand red: 3 brick\nrolls: 2+3")
    for _ in range(3):                       # three buildings, a villa once
        assert g.state.pending.kind == "library" and g.state.pending.seat == 0
        play(g, "swap brick")
    assert g.state.parch[0] == 6 and g.state.pending.kind == "action"


def test_beggars_with_every_hand_empty_do_nothing():
    g = game(P3 + "houses red: V09\nhand red: 1 ore\nrolls: 1+1")
    assert g.state.pending.seat == 0 and g.state.pending.kind == "action"  # red shows its ore
    g = game(P3 + "houses red: V09\nparchments red: 2\nrolls: 1+1")
    assert g.state.pending.kind == "action" and sum(hand(g, 0)) == 0


def test_the_laboratory_gives_nothing_from_an_empty_bank():
    g = game(P3 + "houses red: V05\nhand green: 19 brick 19 lumber 19 wool 19 grain 19 ore\n"
             "parchments red: 2\nrolls: 4+6")
    assert g.state.pending.kind == "action" and sum(hand(g, 0)) == 0 and g.state.fire


def test_no_arrest_without_an_uncovered_guard():
    g = game(P3 + "houses red: V09\narrests red: 1\nhand red: 1 ore\nrolls: 1+4")
    assert g.state.track & TRACK_BIT[5] and g.state.arrests[0] == 1


def test_no_assassin_without_a_house_in_supply():
    g = game(P3 + "houses red: V00 V01 V02 V03 V04\nhand red: 1 brick 1 wool\nrolls: 3+4")
    assert not [o for o in opts(g) if o.startswith("assassin")]


def test_victims_need_cards():
    g = game(P3 + "houses red: V29\nreceipts yellow: 0\nhand red: 1 ore\nrolls: 3+4")
    play(g, "robber ORE:8")
    assert g.state.pending.kind == "action"      # yellow holds nothing: no steal offered


def test_a_development_token_for_four_parchments_and_an_empty_stack():
    g = game(P3 + "houses red: V09\nparchments red: 8\ndev: vetinari-1\nrolls: 6+6")
    play(g, "roll")
    play(g, "parchments dev")
    s = g.state
    assert s.parch[0] == 4 and [s.dcard[h] for h in s.dev[0]] == ["vetinari-1"]
    used = " ".join(f"guard-{i}" for i in range(1, 15)) + " " + " ".join(
        f"vetinari-{i}" for i in range(1, 6))
    g = game(P3 + f"houses red: V09\nparchments red: 8\nhand red: 1 wool 1 grain 1 ore\n"
             f"tokens yellow: {used}\nrolls: 6+6")
    play(g, "roll")
    assert "dev" not in opts(g) and "parchments dev" not in opts(g)


def test_seven_gives_no_production():
    g = game(P3 + "houses red: V09\nhand red: 1 ore\nrolls: 3+4")
    play(g, "pass")
    assert hand(g, 0) == [0, 0, 0, 0, 1]
