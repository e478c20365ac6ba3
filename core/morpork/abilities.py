"""City Area abilities (the cards that come with a building), offered in the
owner's own turn: which can be used now, and what each does.
"""
from __future__ import annotations

from .model import ABILITY, ABILITY_PARAMS, ADJ, AREA_IDS, COLOURS, NUM_AREAS
from .state import State
from .board import ask_placement, placement_options, t_discard_one, t_draw, t_gain


# --- City Area abilities ----------------------------------------------------------------------


def ability_options(s: State, p: int) -> list[tuple]:
    """The City Area cards ``p`` may use now: own turn, once per turn, not the
    turn it was gained, no demon in the area, and the ability can do something."""
    if s.current != p or s.ending or p not in s.city_owner:
        return []
    out = []
    spent = s.used | s.gained
    owner, demons = s.city_owner, s.demons
    for a in range(NUM_AREAS):
        if owner[a] != p or spent >> a & 1 or demons[a]:
            continue
        kind = ABILITY[a]
        prm = ABILITY_PARAMS[a]
        if kind == "take_money":
            ok = True
        elif kind == "pay_to_place_minion":
            ok = s.money[p] >= prm["cost"] and bool(
                placement_options(s, p, _area_and_neighbours(prm["centre_area"] - 1)))
        elif kind == "draw_then_discard":
            ok = bool(s.draw)
        elif kind == "discard_for_money":
            ok = bool(s.hand[p])
        elif kind == "place_trouble":
            ok = bool(shades_targets(s, prm["centre_area"] - 1))
        elif kind == "pay_to_remove_trouble":
            ok = s.money[p] >= prm["cost"] and any(s.trouble)
        else:  # random_event_protection (Small Gods) is used in windows, not here
            ok = False
        if ok:
            out.append(("ability", a))
    return out


def _area_and_neighbours(c: int):
    fixed = ADJ[c] | {c}
    return lambda s: fixed


def shades_targets(s: State, c: int) -> list[int]:
    return [a for a in sorted(ADJ[c] | {c}) if s.minion_total(a) and not s.trouble[a]]


def use_ability(s: State, p: int, a: int) -> None:
    s.used |= 1 << a
    kind = ABILITY[a]
    prm = ABILITY_PARAMS[a]
    if s.narrate:
        s.log("ability", p, f"{COLOURS[p]}: ability {AREA_IDS[a]}", area=a)
    if kind == "take_money":
        s.money[p] += prm["amount"]
    elif kind == "pay_to_place_minion":
        s.money[p] -= prm["cost"]
        ask_placement(s, p, _area_and_neighbours(prm["centre_area"] - 1),
                      f"{AREA_IDS[a]}: place a minion")
    elif kind == "draw_then_discard":
        s.push(t_discard_one, p, "Unreal Estate: discard a card")
        s.push(t_draw, p, 1)
    elif kind == "discard_for_money":
        s.push(t_gain, p, prm["amount"])
        s.push(t_discard_one, p, "The Scours: discard a card for $2")
    elif kind == "place_trouble":
        s.ask(p, "area", [("area", x) for x in shades_targets(s, prm["centre_area"] - 1)],
              "The Shades: place a trouble marker", r_place_trouble, p)
    elif kind == "pay_to_remove_trouble":
        s.money[p] -= prm["cost"]
        s.ask(p, "area", [("area", x) for x in range(NUM_AREAS) if s.trouble[x]],
              "Isle of Gods: remove a trouble marker", r_remove_trouble, p)


def r_place_trouble(s: State, opt, p: int) -> None:
    s.trouble[opt[1]] = True
    if s.narrate:
        s.log("trouble", p, f"{COLOURS[p]}: trouble {AREA_IDS[opt[1]]}", area=opt[1])


def r_remove_trouble(s: State, opt, p: int) -> None:
    s.trouble[opt[1]] = False
    if s.narrate:
        s.log("trouble", p, f"{COLOURS[p]}: remove-trouble {AREA_IDS[opt[1]]}", area=opt[1], removed=True)
