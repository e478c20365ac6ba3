"""Supply limits (rulebook p.3-4, RULES.md §1, A5): with all twelve minions on
the board, placing one first takes one of yours off (``minion X from Y``; the area
it leaves loses its trouble marker; it may not go back to the same area, and the
placement rule is applied after it left).  With all six buildings on the board a
new building moves one of yours (``build X from Y``) and the old area's City Area
card goes back to the display.
"""
from __future__ import annotations

from ankh.core.morpork.model import AREA_IDS, AREA_INDEX, COLOURS
from ankh.core.morpork.state import NOBODY

from tests.core.helpers import Scenario, check_invariants

A = AREA_INDEX
RED, YELLOW = 0, 1

HANDS = {
    "red": "groat the-mended-drum the-peeled-nuts dwarves captain-carrot",
    "yellow": "the-royal-mint rincewind hargas-house-of-ribs mr-gryle inigo-skimmer",
}


def game(areas: dict[str, str], *lines: str, hands: dict | None = None) -> Scenario:
    hands = {**HANDS, **(hands or {})}
    head = ["players: 2", "first: red", "personality red: commander-vimes",
            "personality yellow: lord-rust"]
    head += [f"hand {c}: {hands[c]}" for c in COLOURS[:2]]
    head += [f"area {a}: {areas.get(a, 'empty')}" for a in AREA_IDS]
    return Scenario("\n".join(head + list(lines)))


TWELVE = {"dolly-sisters": " ".join(["red"] * 11) + " trouble",
          "the-hippo": "red trouble", "longwall": "yellow"}


# --- the thirteenth minion ------------------------------------------------------------------------------


def test_with_twelve_minions_out_a_placement_moves_one_of_yours():
    sc = game(TWELVE)
    assert sc.s.supply[RED] == 0
    sc.do("red: play groat")
    opts = sc.options()
    places = [o for o in opts if o.startswith("minion ")]
    assert places and all(" from " in o for o in places)
    # The minion comes off first, then the placement rule is applied (A5):
    assert "minion small-gods from dolly-sisters" in opts  # red still in The Hippo
    assert "minion small-gods from the-hippo" not in opts  # red no longer next to it
    assert "minion nap-hill from dolly-sisters" in opts
    assert "minion dolly-sisters from the-hippo" in opts
    # ... and never back into the area it left.
    assert "minion the-hippo from the-hippo" not in opts
    assert "minion dolly-sisters from dolly-sisters" not in opts
    assert set(places) == (
        {f"minion {a} from dolly-sisters" for a in
         ("unreal-estate", "dragons-landing", "nap-hill", "small-gods", "the-scours",
          "the-hippo", "the-shades")}
        | {f"minion {a} from the-hippo" for a in
           ("dolly-sisters", "unreal-estate", "dragons-landing", "nap-hill")})


def test_the_area_the_minion_leaves_loses_its_trouble_marker():
    sc = game(TWELVE)
    sc.do("red: play groat", "red: minion the-scours from dolly-sisters")
    s = sc.s
    assert sc.minions("dolly-sisters", "red") == 10
    assert not sc.trouble("dolly-sisters")  # although ten red minions remain
    assert sc.minions("the-scours", "red") == 1
    assert not sc.trouble("the-scours")
    assert s.supply[RED] == 0
    check_invariants(s)


def test_moving_the_only_minion_out_of_an_area():
    sc = game(TWELVE)
    sc.do("red: play groat", "red: minion nap-hill from the-hippo")
    assert sc.minions("the-hippo", "red") == 0
    assert not sc.trouble("the-hippo")
    assert sc.minions("nap-hill", "red") == 1
    assert sc.s.supply[RED] == 0


def test_the_relocation_rule_also_applies_to_city_area_placements():
    areas = dict(TWELVE)
    areas["dimwell"] = "building=red"
    sc = game(areas)
    sc.do("red: ability dimwell")
    opts = sc.options()
    assert opts and all(" from " in o for o in opts)
    assert "minion dimwell from dolly-sisters" in opts
    assert "minion the-scours from the-hippo" in opts  # the card's own area rule
    sc.do("red: minion longwall from the-hippo")
    assert sc.minions("longwall", "red") == 1 and sc.trouble("longwall")  # yellow is there
    assert sc.money("red") == 7


def test_with_a_minion_in_the_supply_the_placement_is_normal():
    areas = dict(TWELVE)
    areas["dolly-sisters"] = " ".join(["red"] * 10) + " trouble"
    sc = game(areas)
    sc.do("red: play groat")
    opts = sc.options()
    assert "minion nap-hill" in opts
    assert not any(" from " in o for o in opts)


# --- the seventh building -------------------------------------------------------------------------------


SIX = {"the-hippo": "building=red", "longwall": "building=red", "seven-sleepers": "building=red",
       "dimwell": "building=red", "dragons-landing": "building=red",
       "isle-of-gods": "building=red", "nap-hill": "red", "the-scours": "yellow"}


def test_with_six_buildings_out_a_new_building_moves_one_and_returns_its_card():
    sc = game(SIX, "money red: 12")
    s = sc.s
    assert s.buildings_left[RED] == 0
    sc.do("red: play the-mended-drum")
    builds = {o for o in sc.options() if o.startswith("build ")}
    assert builds == {f"build nap-hill from {a}" for a in (
        "dragons-landing", "the-hippo", "dimwell", "longwall", "isle-of-gods",
        "seven-sleepers")}
    sc.do("red: build nap-hill from the-hippo")
    assert sc.building("the-hippo") is None
    assert s.city_owner[A["the-hippo"]] == NOBODY  # the card goes back to the display
    assert sc.building("nap-hill") == "red"
    assert s.city_owner[A["nap-hill"]] == RED
    assert s.buildings_left[RED] == 0
    assert sc.money("red") == 12 - 12 + 2  # the new area's cost, then the card's $2
    check_invariants(s)
    # The moved card's ability is gone; the new one cannot be used this turn.
    assert sc.waiting == "red:end"
    abilities = {o for o in sc.options() if o.startswith("ability ")}
    assert "ability the-hippo" not in abilities and "ability nap-hill" not in abilities
    assert "ability longwall" in abilities


def test_a_building_freed_this_way_can_be_built_by_another_player():
    sc = game(SIX, "money red: 12", "money yellow: 20",
              hands={"yellow": "the-royal-mint rincewind hargas-house-of-ribs mr-gryle "
                               "inigo-skimmer"})
    sc.do("red: play the-mended-drum", "red: build nap-hill from dimwell", "red: end")
    assert sc.waiting == "yellow:turn"
    # Yellow moves a minion in: The Scours borders Dimwell.
    sc.do("yellow: play hargas-house-of-ribs", "yellow: minion dimwell")
    sc.do("red: play the-peeled-nuts", "red: end")
    sc.do("yellow: play the-royal-mint", "yellow: build dimwell")
    assert sc.building("dimwell") == "yellow"
    assert sc.s.city_owner[A["dimwell"]] == YELLOW
