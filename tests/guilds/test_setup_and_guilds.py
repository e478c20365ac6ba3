"""Setup (§4.2) and guild points, membership, presidency and rates (§4.3)."""
import pytest


from .helpers import BR, GR, OR, game, gp, hand, opts, piece, play

BASE = "turn: red\nhouses red: V09\nhouses yellow: V24\nhouses green: V31\n"


def test_r34_setup_snake_then_clockwise_from_the_first_player():
    g = game("first: yellow")
    seats = []
    free = ["V00", "V01", "V02", "V03", "V04", "V05", "V06", "V07", "V08"]
    for v in free:
        seats.append(g.state.pending.seat)
        play(g, f"place {v}")
    assert seats == [1, 2, 0, 0, 2, 1, 1, 2, 0]


def test_r15_start_card_from_the_third_house_and_guild_point():
    # §7.5: a third house on V09 (GRAIN + BEGGARS) starts with 1 grain and 1 GP in grain
    g = game("first: red\nrolls: 1+2")
    for v in ["V01", "V03", "V16", "V20", "V30", "V42", "V09", "V40", "V34"]:
        play(g, f"place {v}")
    # green's third house V34 (THIEVES + SHADES) touches no resource guild: a card of choice
    assert g.state.pending.seat == 2 and g.state.pending.kind == "start-card"
    play(g, "take ore")
    s = g.state
    assert hand(g, 0) == [0, 0, 0, 1, 0] and gp(g, 0, "grain") == 1
    assert hand(g, 1) == [0, 1, 0, 0, 0] and gp(g, 1, "lumber") == 1
    assert hand(g, 2) == [0, 0, 0, 0, 1] and sum(s.gp[10:15]) == 0
    from ankh.core.guilds.pieces import has_licence
    assert has_licence(s, 2) and not has_licence(s, 0)   # V34 touches the Thieves' Guild
    assert s.turn == 1 and s.active == 0 and s.phase == "C"


def test_r15_no_distance_rule_in_setup():
    g = game("first: red")
    play(g, "place V05")
    assert "place V00" in opts(g) and "place V10" in opts(g) and "place V05" not in opts(g)


def test_r10_a_house_and_its_villa_both_score():
    g = game(BASE + "foundations red: V15\nhand red: 2 brick 1 lumber 1 wool 3 grain 3 ore\nrolls: 6+6",
             "")
    play(g, "house V15")
    assert gp(g, 0, "grain") == 1 and piece(g, "V15") == (0, "house")
    play(g, "villa V15")
    assert gp(g, 0, "grain") == 2 and piece(g, "V15") == (0, "villa")
    assert g.state.sup[0 * 3 + 1] == 5 - 1  # V09 house; the V15 house went back to supply


def test_r10_a_foundation_scores_nothing():
    g = game(BASE + "hand red: 1 brick 1 lumber\nrolls: 6+6")
    play(g, "foundation V15")
    assert piece(g, "V15") == (0, "foundation") and gp(g, 0, "grain") == 0


def test_r11_buying_guild_points_costs_1_1_then_2_per_turn():
    g = game(BASE + "hand red: 5 ore\nrolls: 6+6 6+6 6+6 6+6")
    play(g, "gp ore", "gp ore")
    assert hand(g, 0)[OR] == 3 and gp(g, 0, "ore") == 2
    play(g, "gp ore")
    assert hand(g, 0)[OR] == 1 and gp(g, 0, "ore") == 3
    assert "gp ore" not in opts(g)  # a fourth costs 2; one left
    play(g, "end")      # the counter resets on red's next turn
    while g.state.active != 0:
        play(g, "end")
    assert "gp ore" in opts(g)


def test_r9_membership_is_a_threshold_and_first_member_presides():
    g = game(BASE + "hand red: 4 ore\nrolls: 6+6")
    play(g, "gp ore", "gp ore")
    s = g.state
    assert s.pres[OR] == -1 and s.rate(0, OR) == 4
    play(g, "gp ore")
    assert s.pres[OR] == 0 and gp(g, 0, "ore") == 3
    assert s.rate(0, OR) == 2          # president at once: 2:1 in the same turn
    assert s.memberships(0) == 1


def test_r14_bank_rates_4_3_2():
    g = game(BASE + "gp red: 3 grain 3 ore\ngp yellow: 4 ore\nguild ore: president=yellow\n"
             "hand red: 4 brick 3 grain\nrolls: 6+6")
    s = g.state
    assert s.rate(0, BR) == 4 and s.rate(0, GR) == 3 and s.rate(1, OR) == 2
    # red is a member of grain but its presidency is vacant in this position
    assert "bank brick for ore" in opts(g) and "bank grain for ore" in opts(g)
    play(g, "bank grain for ore")
    assert hand(g, 0) == [4, 0, 0, 0, 1]
    play(g, "bank brick for wool")
    assert hand(g, 0) == [0, 0, 1, 0, 1]
    assert not [o for o in opts(g) if o.startswith("bank")]


def test_r13_presidency_passes_on_strictly_more_and_locks_at_9():
    g = game(BASE + "gp red: 3 ore\ngp yellow: 4 ore\nguild ore: president=yellow\n"
             "hand red: 8 ore\nrolls: 6+6")
    s = g.state
    play(g, "gp ore")
    assert s.pres[OR] == 1            # 4 = 4: a tie changes nothing
    play(g, "gp ore")
    assert s.pres[OR] == 0            # 5 > 4
    play(g, "gp ore", "gp ore")       # 2 cards each now: 7 GP
    assert gp(g, 0, "ore") == 7 and hand(g, 0)[OR] == 2 and not s.lock[OR]
    play(g, "gp ore")
    assert gp(g, 0, "ore") == 8 and hand(g, 0)[OR] == 0


def test_r13_lock_when_the_sitting_president_reaches_9():
    g = game(BASE + "gp red: 8 ore\ngp yellow: 4 ore\nguild ore: president=red\n"
             "hand red: 1 ore\nrolls: 6+6")
    play(g, "gp ore")
    assert g.state.lock[OR] and g.state.pres[OR] == 0


def test_r13_a_locked_presidency_never_moves():
    g = game(BASE + "gp red: 9 ore\ngp yellow: 9 ore\nguild ore: president=yellow locked\n"
             "hand red: 4 ore\nrolls: 6+6")
    play(g, "gp ore", "gp ore", "gp ore")
    assert gp(g, 0, "ore") == 12 and g.state.pres[OR] == 1


def test_setup_error_names_the_line():
    with pytest.raises(Exception) as e:
        game("turn: red\nhouses red: V09\nhouses yellow: V09\nhouses green: V31")
    assert "line 6" in str(e.value) and "V09" in str(e.value)
    with pytest.raises(Exception) as e:
        game(BASE + "gp red: 2 ore\nguild ore: president=red")
    assert "line 9" in str(e.value) and "fewer than 3" in str(e.value)
    with pytest.raises(Exception) as e:
        game(BASE + "robber: ALCHEMISTS:10")
    assert "line 8" in str(e.value) and "Laboratory" in str(e.value)
    with pytest.raises(Exception) as e:
        game(BASE + "houses red: V00 V01 V02 V03 V04")
    assert "line 8" in str(e.value) and "only 5 houses" in str(e.value)
