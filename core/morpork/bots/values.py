"""What cards and City Area cards are worth to the heuristic bot, by the
personality it holds: a card's worth in hand, a use of an area's ability.
"""
from __future__ import annotations

from ..model import ABILITY, ABILITY_PARAMS, CARD, NUM_AREAS

VETINARI = "lord-vetinari"
LORDS = frozenset({"lord-selachii", "lord-rust", "lord-de-worde"})
DRAGON = "dragon-king-of-arms"
CHRYSOPRASE = "chrysoprase"
VIMES = "commander-vimes"


# --- card values (how good a card is to keep in hand) ---------------------------------------

SYMBOL_VALUE = {
    "minion": 2.5, "building": 2.0, "assassinate": 2.0, "remove_trouble": 0.5,
    "play_another": 1.0, "event": -0.5, "scroll": 0.0,
}
EFFECT_VALUE = {
    "take_loan": 0.5, "target_gives_cards": 2.5, "each_other_player_gives_money_or_card": 2.0,
    "give_card_receive_money": 1.0, "steal_money_from_each_other_player": 3.0,
    "steal_money_from_player": 2.0, "force_payment_between_others": 0.5,
    "pay_or_receive_penalty_card": 2.0, "swap_personality_with_random_unused": 0.0,
    "gain_money_per_trouble_marker": 2.0, "discard_any_for_money": 1.0, "discard_cards": 0.2,
    "roll_die": 1.0, "draw_cards": 1.5, "draw_random_from_discard": 1.5,
    "gain_money_per_minion_in_area": 1.5, "move_other_minion": 1.5,
    "pay_or_lose_building": 1.0, "play_additional_cards": 3.0,
    "view_unused_personalities": 0.0, "take_over_building": 2.5, "build_at_discount": 3.0,
    "place_minion": 3.0, "gain_money_per_minion_in_chosen_trouble_area": 2.0,
    "take_random_cards_keep_one": 1.5, "gain_money_per_building_on_board": 2.0,
    "move_own_minion": 1.5, "pay_player_then_move_own_minion": 1.0, "swap_two_minions": 1.0,
    "remove_minion": 1.0, "roll_areas_remove_minions": 1.0, "others_remove_own_minion": 2.0,
    "pay_player_who_removes_minion": 0.5, "pay_player_then_assassinate": 1.5,
    "place_trouble": 1.0, "look_at_hand_discard_one": 1.5, "swap_hands": 0.0,
    "draw_cards_per_own_building": 1.0, "discard_up_to_then_refill": 0.5,
}
INTERRUPT_VALUE = {
    "prevent_removal": 5.0, "prevent_move_or_removal": 5.0,
    "replace_removal_with_placement": 4.0, "immunity_to_card_text": 2.5,
    "end_own_turn_keep_previous_card": 1.0,
}


def _card_value(cid: str, pid: str | None) -> float:
    c = CARD[cid]
    if "interrupt" in c:
        return INTERRUPT_VALUE.get(c["interrupt"], 2.0)
    v = 0.0
    for sym in c["symbols"]:
        if sym.startswith("money:"):
            n = int(sym[6:])
            v += n * (0.8 if pid == CHRYSOPRASE else 0.5)
            continue
        w = SYMBOL_VALUE.get(sym, 0.0)
        if pid == VETINARI and sym == "minion":
            w *= 1.5
        elif pid in LORDS and sym in ("minion", "building", "assassinate"):
            w *= 1.3
        elif pid == DRAGON and sym == "remove_trouble":
            w = -0.5
        elif pid == CHRYSOPRASE and sym == "building":
            w *= 1.4
        elif pid == VIMES and sym == "play_another":
            w *= 2.0
        v += w
    eff = c.get("effect")
    if eff:
        e = EFFECT_VALUE.get(eff, 0.5)
        if pid == DRAGON and eff == "place_trouble":
            e = 4.0
        if pid == VIMES and eff in ("draw_cards", "draw_cards_per_own_building",
                                    "play_additional_cards"):
            e *= 2.0
        if pid == CHRYSOPRASE and eff == "take_loan":
            e = -2.0
        v += e
    return v


CARD_VALUE: dict[str | None, dict[str, float]] = {}


def card_values(pid: str | None) -> dict[str, float]:
    t = CARD_VALUE.get(pid)
    if t is None:
        t = CARD_VALUE[pid] = {cid: _card_value(cid, pid) for cid in CARD}
    return t


def average_value(pid: str | None) -> float:
    t = card_values(pid)
    return sum(t.values()) / len(t)


def money_weight(pid: str | None) -> float:
    return 3.0 if pid == CHRYSOPRASE else 0.6


def ability_values(pid: str | None) -> list[float]:
    """What one use of each area's City Area card is worth to ``pid`` (points units)."""
    mw = money_weight(pid)
    out = []
    for a in range(NUM_AREAS):
        kind, prm = ABILITY[a], ABILITY_PARAMS[a]
        if kind == "take_money":
            v = mw * prm["amount"]
        elif kind == "discard_for_money":
            v = mw * prm["amount"] * 0.6
        elif kind == "pay_to_place_minion":
            v = (10.0 if pid == VETINARI else 5.0 if pid == DRAGON else 8.0 if pid in LORDS
                 else 2.0) - mw * prm["cost"]
        elif kind == "place_trouble":
            v = 10.0 if pid == DRAGON else 0.3
        elif kind == "pay_to_remove_trouble":
            v = 0.3
        elif kind == "draw_then_discard":
            v = 3.0 if pid == VIMES else 1.0
        else:
            v = 1.0
        out.append(max(0.0, v))
    return out
