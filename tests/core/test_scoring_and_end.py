"""The three ways the game ends (rulebook p.6 "End of the Game", RULES.md §12):
a personality win, the draw pile running out (at the end-of-turn refill or
mid-turn through a card's draw: the game ends at once, A4; Commander Vimes wins
if dealt, else points), and Riots.  Points: 5 a minion, a building its area's
cost, $1 a point, loans repaid with $12 each or -15 (A15), nothing in demon areas;
ties broken by the highest City Area card held (A16), then a shared win.
"""
from __future__ import annotations

from ankh.core.morpork.model import AREA_IDS, COLOURS

from tests.core.helpers import Scenario

RED, YELLOW, GREEN = 0, 1, 2

HANDS = {
    "red": "the-peeled-nuts groat hex librarian pink-pussy-cat-club",
    "yellow": "the-royal-mint rincewind hargas-house-of-ribs mr-gryle inigo-skimmer",
    "green": "gimlets-dwarf-delicatessen ruby the-mended-drum dr-cruces sergeant-angua",
}
NO_VIMES = {"red": "lord-rust", "yellow": "lord-selachii", "green": "lord-de-worde"}


def game(*lines: str, players: int = 2, areas: dict[str, str] | None = None,
         hands: dict | None = None, personalities: dict | None = None,
         event: str | None = None, rolls=()) -> Scenario:
    hands = {**HANDS, **(hands or {})}
    pers = {**NO_VIMES, **(personalities or {})}
    head = [f"players: {players}", "first: red"]
    head += [f"hand {c}: {hands[c]}" for c in COLOURS[:players]]
    head += [f"personality {c}: {pers[c]}" for c in COLOURS[:players]]
    if event:
        head.append(f"events: {event}")
    if rolls:
        head.append("rolls: " + " ".join(map(str, rolls)))
    if areas is not None:
        head += [f"area {a}: {areas.get(a, 'empty')}" for a in AREA_IDS]
    return Scenario("\n".join(head + list(lines)))


def outcome(sc: Scenario):
    o = sc.s.outcome
    assert o is not None, f"the game should be over; waiting for {sc.waiting}"
    return o


# --- a personality win ------------------------------------------------------------------------------------


def test_a_personality_win_ends_the_game_at_the_start_of_the_turn():
    areas = {a: "trouble" for a in AREA_IDS[:8]}
    sc = game(areas=areas, personalities={"red": "dragon-king-of-arms"})
    o = outcome(sc)
    assert (o.reason, o.winners, o.detail) == ("personality", (RED,), "dragon-king-of-arms")
    assert sc.s.pending is None
    assert len(sc.hand("red")) == 5  # no card was played


# --- the draw pile runs out ---------------------------------------------------------------------------------


def test_taking_the_last_card_at_the_refill_ends_the_game_on_points():
    sc = game("draw-pile: 2", "money red: 20")
    sc.do("red: play the-peeled-nuts")
    assert sc.s.outcome is None  # one card left: the game goes on
    assert len(sc.s.draw) == 1
    sc.do("yellow: play the-royal-mint")  # nothing to build; $5
    o = outcome(sc)
    assert (o.reason, o.detail) == ("points", "draw-pile")
    assert sc.s.draw == []
    assert len(sc.hand("yellow")) == 5
    assert o.scores == (15 + 20, 15 + 15)
    assert o.winners == (RED,)


def test_a_player_who_needs_more_cards_than_remain_keeps_what_was_drawn():
    sc = game("draw-pile: 1")
    sc.do("red: play pink-pussy-cat-club", "red: play the-peeled-nuts")
    outcome(sc)
    assert len(sc.hand("red")) == 4
    assert sc.s.draw == []


def test_commander_vimes_wins_when_the_draw_pile_runs_out():
    sc = game("draw-pile: 1", "money red: 40", personalities={"yellow": "commander-vimes"})
    sc.do("red: play the-peeled-nuts")
    o = outcome(sc)
    assert (o.reason, o.winners) == ("vimes", (YELLOW,))  # although red has more points
    assert o.scores[RED] > o.scores[YELLOW]


def test_a_card_draw_taking_the_last_card_ends_the_game_at_once():
    # Hex: draw three cards, then build.  Red could build in The Hippo, but the
    # game ends with the draw (A4) and the build is never offered.
    sc = game("draw-pile: 3", "area the-hippo: red", "money red: 20")
    sc.do("red: play hex", "red: scroll")
    o = outcome(sc)
    assert (o.reason, o.detail) == ("points", "draw-pile")
    assert sc.building("the-hippo") is None
    assert sc.money("red") == 20
    assert len(sc.hand("red")) == 4 + 3
    assert sc.s.pending is None


def test_a_card_draw_with_fewer_cards_than_asked_ends_the_game_and_keeps_them():
    sc = game("draw-pile: 2", personalities={"red": "commander-vimes"})
    sc.do("red: play librarian", "red: scroll")  # draw four: only two are left
    o = outcome(sc)
    assert (o.reason, o.winners) == ("vimes", (RED,))
    assert len(sc.hand("red")) == 4 + 2


def test_the_draw_pile_running_out_in_the_middle_of_a_chain_stops_the_chain():
    sc = game("draw-pile: 3", "area the-hippo: red", "money red: 20",
              hands={"red": "pink-pussy-cat-club hex groat the-peeled-nuts librarian"})
    sc.do("red: play pink-pussy-cat-club", "red: play hex", "red: scroll")
    outcome(sc)
    assert sc.money("red") == 23
    assert sc.building("the-hippo") is None


def test_unreal_estate_drawing_the_last_card_ends_the_game():
    sc = game("draw-pile: 1", "area unreal-estate: building=red")
    sc.do("red: ability unreal-estate")
    o = outcome(sc)
    assert o.detail == "draw-pile"
    assert len(sc.hand("red")) == 6  # the discard that would follow is not carried out


def test_a_card_draw_that_leaves_cards_does_not_end_the_game():
    sc = game("draw-pile: 4", "area the-hippo: red", "money red: 20")
    sc.do("red: play hex", "red: scroll")
    assert sc.s.outcome is None
    assert sc.waiting == "red:action"
    assert "build the-hippo" in sc.options()


# --- Riots ----------------------------------------------------------------------------------------------------


def test_riots_end_the_game_on_points_even_with_vimes():
    areas = {a: "trouble" for a in AREA_IDS[:8]}
    areas["the-hippo"] = "red red trouble"
    areas["longwall"] = "yellow"
    sc = game(areas=areas, personalities={"yellow": "commander-vimes"},
              hands={"red": "the-dean groat hex librarian pink-pussy-cat-club"},
              event="riots")
    sc.do("red: play the-dean")
    o = outcome(sc)
    assert (o.reason, o.detail) == ("points", "riots")
    assert o.scores == (10 + 10, 5 + 10)
    assert o.winners == (RED,)


# --- points -----------------------------------------------------------------------------------------------------


def end_now(sc: Scenario):
    """Red plays The Peeled Nuts (nothing happens) and takes the last card."""
    sc.do("red: play the-peeled-nuts")
    if sc.waiting == "red:end":  # red could still use a City Area card
        sc.do("red: end")
    return outcome(sc)


def test_points_are_five_a_minion_the_building_cost_and_the_money():
    areas = {
        "the-hippo": "red red building=red",  # 10 + 12
        "longwall": "red",  # 5
        "nap-hill": "red yellow trouble building=red",  # 5 + 12 for red, 5 for yellow
        "seven-sleepers": "yellow building=yellow",  # 5 + 18
        "dimwell": "red red yellow demon trouble building=red",  # demon: nothing
    }
    sc = game("draw-pile: 1", "money red: 7", "money yellow: 3", areas=areas)
    o = end_now(sc)
    assert o.scores == (10 + 12 + 5 + 5 + 12 + 7, 5 + 5 + 18 + 3)
    assert o.winners == (RED,)


LOANS = {"red": "mr-bent the-bank-of-ankh-morpork the-peeled-nuts groat hex"}


def test_each_loan_is_repaid_with_twelve_dollars_when_possible():
    sc = game("draw-pile: 1", "money red: 4", areas={"longwall": "red", "nap-hill": "yellow"},
              hands=LOANS)
    sc.do("red: play mr-bent", "red: scroll", "red: play the-bank-of-ankh-morpork",
          "red: scroll", "red: stop")
    o = outcome(sc)
    assert sc.money("red") == 24
    assert o.scores == (5 + 24 - 24, 5 + 10)


def test_a_loan_that_cannot_be_repaid_costs_fifteen_points_and_cash_still_scores():
    sc = game("draw-pile: 1", "money red: 0", areas={"longwall": "red", "nap-hill": "yellow"},
              hands=LOANS)
    sc.do("red: play mr-bent", "red: scroll", "red: play the-bank-of-ankh-morpork",
          "red: scroll", "red: stop")
    o = outcome(sc)
    # $20: the first loan is repaid ($8 left, no partial payment of the second),
    # the second costs 15 points (A15).
    assert o.scores == (5 + 8 - 15, 5 + 10)
    assert o.winners == (YELLOW,)


def test_a_building_hit_by_bloody_stupid_johnson_still_scores():
    sc = game("draw-pile: 1", areas={"nap-hill": "red red building=red", "longwall": "yellow"},
              hands={"red": "the-dean groat hex librarian pink-pussy-cat-club"},
              event="bloody-stupid-johnson", rolls=[12])
    sc.do("red: play the-dean", "red: stop")
    o = outcome(sc)
    assert sc.s.city_owner[AREA_IDS.index("nap-hill")] == -2
    assert o.scores == (5 + 12 + 10, 5 + 10)


# --- ties ---------------------------------------------------------------------------------------------------------


def test_a_tie_is_won_by_the_highest_city_area_card():
    areas = {"longwall": "red", "seven-sleepers": "building=red",  # 5 + 18 + $0
             "dragons-landing": "yellow", "the-hippo": "building=yellow"}  # 5 + 12 + $6
    sc = game("draw-pile: 1", "money red: 0", "money yellow: 6", areas=areas)
    o = end_now(sc)
    assert o.scores == (23, 23)
    assert o.winners == (RED,)


def test_a_city_area_card_lost_to_bloody_stupid_johnson_does_not_break_a_tie():
    areas = {"longwall": "red", "seven-sleepers": "building=red",
             "dragons-landing": "yellow", "the-hippo": "building=yellow"}
    sc = game("draw-pile: 1", "money red: 0", "money yellow: 6", areas=areas,
              hands={"red": "the-dean groat hex librarian pink-pussy-cat-club"},
              event="bloody-stupid-johnson", rolls=[11])
    sc.do("red: play the-dean", "red: stop")
    o = outcome(sc)
    assert o.scores == (23, 23)  # the building still scores its 18
    assert o.winners == (YELLOW,)  # but red holds no City Area card any more (A16)


def test_a_tie_without_a_better_card_is_a_shared_win():
    areas = {"longwall": "red", "dragons-landing": "yellow", "nap-hill": "green"}
    sc = game("draw-pile: 1", "money green: 9", players=3, areas=areas)
    o = end_now(sc)
    assert o.scores == (15, 15, 14)
    assert o.winners == (RED, YELLOW)


def test_a_tie_with_equal_best_cards_is_a_shared_win():
    areas = {"longwall": "red building=red", "dragons-landing": "yellow building=yellow"}
    sc = game("draw-pile: 1", areas=areas)
    o = end_now(sc)
    assert o.scores == (27, 27)
    assert o.winners == (RED, YELLOW)
