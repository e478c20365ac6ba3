"""City Area cards (board.json, rulebook p.4 "City Area Cards"): each of the twelve
abilities does what it says; once per turn; not in the turn the card was gained;
off while a demon is in the area; only in your own turn; Small Gods reacts to
random events in anybody's turn.  Abilities are offered as ``ability <area>``
options at the turn's decisions.  Also the rulebook's building example (p.4).
"""
from __future__ import annotations

import pytest

from ankh.core.morpork.model import AREA_INDEX
from ankh.core.morpork.state import NOBODY

from tests.core.helpers import Scenario, check_invariants, scenario

A = AREA_INDEX
RED, YELLOW = 0, 1

HANDS = {
    "red": "groat the-peeled-nuts dwarves the-mended-drum captain-carrot",
    "yellow": "the-dean rincewind pink-pussy-cat-club the-royal-mint hargas-house-of-ribs",
    "green": "gimlets-dwarf-delicatessen ruby sergeant-colon mr-gryle inigo-skimmer",
    "blue": "dr-cruces sergeant-angua buggy-swires the-bursar doctor-hix",
}




def game(*lines: str, players: int = 2, hands: dict | None = None, **setup) -> Scenario:
    """A scenario whose hands hold no interrupt unless ``hands`` says so."""
    return scenario(*lines, hands={**HANDS, **(hands or {})}, players=players, **setup)


def abilities(sc: Scenario) -> set[str]:
    return {o for o in sc.options() if o.startswith("ability ")}


# --- what each card does --------------------------------------------------------------------------------


@pytest.mark.parametrize("area, amount", [
    ("dragons-landing", 2), ("the-hippo", 2), ("seven-sleepers", 3),
    ("nap-hill", 1), ("longwall", 1),
])
def test_money_cards_pay_their_amount_once_per_turn(area, amount):
    sc = game(f"area {area}: building=red")
    assert sc.waiting == "red:turn"
    assert abilities(sc) == {f"ability {area}"}
    sc.do(f"red: ability {area}")
    assert sc.money("red") == 10 + amount
    assert sc.waiting == "red:turn"  # still red's turn: a card must be played
    assert abilities(sc) == set()  # once per turn


def test_dolly_sisters_pays_3_to_place_in_or_next_to_dolly_sisters():
    # Red stands only in The Scours and The Shades: the normal rule would not reach
    # any of these areas; the card's own restriction replaces it.
    sc = game("area dolly-sisters: yellow building=red", "area nap-hill: yellow")
    sc.do("red: ability dolly-sisters")
    assert sc.money("red") == 7
    assert sc.waiting == "red:place"
    assert set(sc.options()) == {"minion dolly-sisters", "minion unreal-estate",
                                 "minion dragons-landing", "minion nap-hill"}
    sc.do("red: minion nap-hill")
    assert sc.minions("nap-hill", "red") == 1
    assert sc.trouble("nap-hill")  # normal trouble rule: yellow was already there
    assert sc.waiting == "red:turn" and abilities(sc) == set()


def test_dimwell_pays_3_to_place_in_or_next_to_dimwell():
    sc = game("area dimwell: building=red", "area the-shades: empty", "area the-scours: empty",
              "area dolly-sisters: red")
    sc.do("red: ability dimwell")
    assert sc.money("red") == 7
    assert set(sc.options()) == {"minion dimwell", "minion the-scours", "minion the-shades",
                                 "minion longwall"}
    sc.do("red: minion longwall")
    assert sc.minions("longwall", "red") == 1
    assert not sc.trouble("longwall")


def test_minion_placing_cards_need_three_dollars():
    sc = game("area dimwell: building=red", "area dolly-sisters: red building=red",
              "money red: 2")
    assert abilities(sc) == set()


def test_unreal_estate_draws_a_card_then_discards_one():
    sc = game("area unreal-estate: building=red", "deck: hex librarian")
    hand = sc.hand("red")
    sc.do("red: ability unreal-estate")
    assert sc.waiting == "red:discard"
    assert set(sc.options()) == {f"discard {c}" for c in hand + ["hex"]}
    sc.do("red: discard hex")  # the card just drawn may be the one discarded
    assert sc.hand("red") == hand
    assert sc.s.card[sc.s.discard[-1]] == "hex"
    assert sc.game.table.deck("player")[sc.s.draw[-1]] == "librarian"
    assert abilities(sc) == set()


def test_the_scours_discards_a_card_for_two_dollars():
    sc = game("area the-scours: red building=red")
    sc.do("red: ability the-scours")
    assert sc.waiting == "red:discard"
    assert len(sc.options()) == 5
    sc.do("red: discard dwarves")
    assert sc.money("red") == 12
    assert "dwarves" not in sc.hand("red") and len(sc.hand("red")) == 4
    assert sc.s.card[sc.s.discard[-1]] == "dwarves"


def test_the_shades_places_trouble_next_to_the_shades_where_a_minion_stands():
    sc = game("area the-shades: red building=red", "area the-hippo: empty",
              "area dimwell: yellow", "area the-scours: red yellow trouble",
              "area longwall: yellow")
    sc.do("red: ability the-shades")
    # The Hippo is empty, The Scours has trouble already, Longwall is too far.
    assert set(sc.options()) == {"area the-shades", "area dimwell"}
    sc.do("red: area dimwell")
    assert sc.trouble("dimwell")
    assert sc.money("red") == 10


def test_isle_of_gods_pays_2_to_remove_any_trouble_marker():
    sc = game("area isle-of-gods: building=red", "area nap-hill: yellow yellow trouble")
    sc.do("red: ability isle-of-gods")
    assert sc.money("red") == 8
    assert set(sc.options()) == {"area dolly-sisters", "area the-scours", "area the-shades",
                                 "area nap-hill"}
    sc.do("red: area nap-hill")
    assert not sc.trouble("nap-hill")
    assert sc.s.trouble_count() == 3


def test_isle_of_gods_needs_two_dollars():
    sc = game("area isle-of-gods: building=red", "money red: 1")
    assert abilities(sc) == set()


def test_small_gods_is_not_an_action_of_your_turn():
    sc = game("area small-gods: building=red")
    assert abilities(sc) == set()


def test_small_gods_reacts_to_a_random_event_in_another_players_turn():
    sc = game("area small-gods: building=red", first="yellow", event="the-dragon", rolls=[5])
    sc.do("yellow: play the-dean")
    assert sc.s.current == YELLOW
    assert sc.waiting == "red:window"
    assert sc.options() == ["pass", "small-gods"]
    sc.do("red: small-gods")
    assert sc.money("red") == 7
    assert sc.minions("the-scours", "red") == 1
    assert sc.minions("the-scours", "yellow") == 0


def test_small_gods_is_off_while_a_demon_is_there():
    sc = game("area small-gods: demon building=red", first="yellow", event="the-dragon",
              rolls=[5])
    sc.do("yellow: play the-dean")
    assert sc.minions("the-scours", "red") == 0
    assert sc.money("red") == 10


# --- when abilities may be used ------------------------------------------------------------------------------


def test_abilities_are_offered_at_every_decision_of_the_turn_but_once_each():
    sc = game("area the-hippo: building=red", "area nap-hill: building=red")
    assert abilities(sc) == {"ability the-hippo", "ability nap-hill"}
    sc.do("red: ability the-hippo", "red: play groat")
    assert sc.waiting == "red:action"  # between actions
    assert abilities(sc) == {"ability nap-hill"}
    sc.do("red: ability nap-hill")
    assert sc.waiting == "red:action"
    assert abilities(sc) == set()
    assert sc.money("red") == 13
    sc.do("red: minion the-hippo")
    assert sc.waiting == "yellow:turn"  # nothing left to use: the turn ended by itself


def test_abilities_are_offered_at_the_end_of_the_turn_and_before_playing_another():
    sc = game("area the-hippo: building=red", "area nap-hill: building=red",
              hands={"red": "pink-pussy-cat-club groat the-peeled-nuts dwarves captain-carrot",
                     "yellow": "the-dean rincewind the-royal-mint hargas-house-of-ribs "
                               "mr-pin-and-mr-tulip"})
    sc.do("red: play pink-pussy-cat-club")
    assert sc.waiting == "red:another"
    assert abilities(sc) == {"ability the-hippo", "ability nap-hill"}
    sc.do("red: ability the-hippo")
    assert sc.waiting == "red:another"
    sc.do("red: play the-peeled-nuts")
    assert sc.waiting == "red:end"
    assert set(sc.options()) == {"end", "ability nap-hill"}
    sc.do("red: ability nap-hill")
    assert sc.waiting == "yellow:turn"
    assert sc.money("red") == 10 + 3 + 2 + 1


def test_ability_is_available_again_in_the_next_own_turn():
    sc = game("area the-hippo: building=red")
    sc.do("red: ability the-hippo", "red: play the-peeled-nuts")
    assert sc.waiting == "yellow:turn"
    assert abilities(sc) == set()  # not red's turn
    sc.do("yellow: play hargas-house-of-ribs", "yellow: minion the-hippo")
    assert sc.waiting == "red:turn"
    assert abilities(sc) == {"ability the-hippo"}
    sc.do("red: ability the-hippo")
    assert sc.money("red") == 14


def test_ability_cannot_be_used_in_the_turn_the_card_was_gained():
    sc = game("area the-hippo: red", "area nap-hill: building=red", "money red: 12")
    sc.do("red: play the-mended-drum", "red: build the-hippo")
    assert sc.s.city_owner[A["the-hippo"]] == RED
    assert sc.waiting == "red:end"
    assert set(sc.options()) == {"end", "ability nap-hill"}
    sc.do("red: end")
    sc.do("yellow: play hargas-house-of-ribs", "yellow: minion dolly-sisters")
    assert sc.waiting == "red:turn"
    assert abilities(sc) == {"ability the-hippo", "ability nap-hill"}


def test_ability_is_off_while_a_demon_is_in_the_area():
    sc = game("area the-hippo: demon trouble building=red", "area nap-hill: building=red")
    assert abilities(sc) == {"ability nap-hill"}


def test_abilities_are_not_offered_in_another_players_turn():
    sc = game("area the-hippo: building=red", first="yellow",
              event="mysterious-murders", rolls=[7, 5])
    sc.do("yellow: play the-dean", "yellow: pick the-shades yellow")
    assert sc.waiting == "red:pick"  # red decides during yellow's turn ...
    assert abilities(sc) == set()  # ... but may not use The Hippo
    sc.do("red: pick the-scours yellow")
    assert sc.money("red") == 10


# --- the rulebook's building example (p.4) ---------------------------------------------------------------------


def building_example(money: int = 20) -> Scenario:
    """Red may build only in Nap Hill: Dolly Sisters has a trouble marker, Seven
    Sleepers already has a building, red has no minion in Unreal Estate or
    Dragon's Landing.  Yellow has more minions in Nap Hill."""
    return game(
        "area dolly-sisters: red trouble",
        "area seven-sleepers: red building=green",
        "area nap-hill: red yellow yellow",
        "area unreal-estate: yellow",
        "area dragons-landing: empty",
        "area the-scours: red trouble", "area the-shades: red trouble",
        f"money red: {money}",
        players=4,
    )


def test_rulebook_building_example_only_nap_hill():
    sc = building_example()
    sc.do("red: play the-mended-drum")
    assert sc.waiting == "red:action"
    assert sc.options() == ["build nap-hill", "skip"]
    sc.do("red: build nap-hill")
    assert sc.building("nap-hill") == "red"
    assert sc.s.city_owner[A["nap-hill"]] == RED  # red takes the Nap Hill card
    assert sc.money("red") == 20 - 12 + 2  # $12 to the bank, then the card's $2
    check_invariants(sc.s)


def test_building_needs_the_money():
    sc = building_example(money=11)
    sc.do("red: play the-mended-drum")
    assert sc.waiting == "yellow:turn"  # nothing can be built: the symbol is skipped
    assert sc.building("nap-hill") is None
    assert sc.s.city_owner[A["nap-hill"]] == NOBODY
