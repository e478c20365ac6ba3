"""Card texts (the scroll symbol), keyed by effect kind.

Each kind is an :class:`Effect`: ``can(state, player, handle)`` says whether
the text could do anything now (the scroll is only offered when it can),
``start(state, player, handle)`` queues the work.  Several cards share one
kind and differ by the parameters in :mod:`ankh.core.catalog`.

Anything a card's text does to another player is preceded by that player's
interrupt window (``t_guard``): Wallace Sonky against text, and for moves
and removals Gaspode, Susan, Igor and Fresh Start Club as they apply.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .engine import (
    build, build_options, discard_card, move_minion, place_minion, placement_options,
    remove_building, remove_minion, t_discard_one, t_draw, t_gain, t_guard, t_play_extra,
    targets_in, assassination_options, put_building, learn, who_name,
)
from .model import (
    ADJ, AREA_IDS, CARD, COLOURS, COST, NUM_AREAS, UNREAL_ESTATE,
    PassCard, PickRandom, RollDie, ShowCards,
)
from .state import NOBODY, State


@dataclass(frozen=True, slots=True)
class Effect:
    can: Callable[[State, int, int], bool]
    start: Callable[[State, int, int], None]


EFFECTS: dict[str, Effect] = {}


def effect(kind: str, can: Callable | None = None):
    def register(start):
        EFFECTS[kind] = Effect(can or (lambda s, p, h: True), start)
        return start
    return register


def params(s: State, h: int) -> dict:
    return CARD[s.card[h]].get("params", {})


def others(s: State, p: int) -> list[int]:
    """The other seats in turn order, starting at ``p``'s left."""
    n = s.players
    return [(p + i) % n for i in range(1, n)]


def text(p: int):
    return ("text", p)


def guard_text(s: State, q: int, p: int) -> None:
    """Queue ``q``'s Wallace Sonky window in front of the task pushed just before."""
    s.push(t_guard, q, "text", text(p), None)


def ask_target(s: State, p: int, cands, prompt: str, fn, *args) -> None:
    s.ask(p, "target", [("target", q) for q in cands], prompt, fn, p, *args)


def pay(s: State, payer: int, payee: int | None, amount: int) -> int:
    """Move up to ``amount`` from ``payer`` (A18: short payers give what they have)."""
    n = min(amount, s.money[payer])
    s.money[payer] -= n
    if payee is not None:
        s.money[payee] += n
    s.log("pay", payer, f"{COLOURS[payer]} pays ${n}" + (f" to {COLOURS[payee]}" if payee is not None else ""),
          amount=n, target=payee)
    return n


def t_pay(s: State, payer: int, payee: int, amount: int) -> None:
    pay(s, payer, payee, amount)


# --- passing hidden cards between hands --------------------------------------------------------


def t_pass_card(s: State, h: int, giver: int, receiver: int) -> None:
    if h not in s.hand[giver]:
        return
    s.request(PassCard(h, giver, receiver), r_passed, h, giver, receiver)


def r_passed(s: State, cid, h: int, giver: int, receiver: int) -> None:
    if cid is not None:
        learn(s, h, cid)
    s.hand[giver].remove(h)
    s.hand[receiver].append(h)
    s.seen[receiver].add(h)
    s.log("give", giver, f"{COLOURS[giver]} gives a card to {COLOURS[receiver]}", target=receiver, handles=(h,))


# --- money and loans ---------------------------------------------------------------------------


@effect("take_loan")
def take_loan(s: State, p: int, h: int) -> None:
    s.money[p] += params(s, h)["amount"]
    s.in_play.remove(h)  # at once in front of its player: the loan stands (A14)
    s.loans[p].append(h)
    s.log("loan", p, f"{COLOURS[p]} takes a ${params(s, h)['amount']} loan", amount=params(s, h)["amount"],
          card=s.card[h])


@effect("gain_money_per_trouble_marker")
def per_trouble(s: State, p: int, h: int) -> None:
    t_gain(s, p, params(s, h)["per"] * s.trouble_count())


@effect("gain_money_per_minion_in_area")
def per_minion_in_area(s: State, p: int, h: int) -> None:
    # A26: trolls and demons count as minions.
    t_gain(s, p, params(s, h)["per"] * s.minion_total(params(s, h)["area"] - 1))


@effect("gain_money_per_building_on_board")
def per_building(s: State, p: int, h: int) -> None:
    t_gain(s, p, sum(1 for b in s.building if b != NOBODY))


@effect("gain_money_per_minion_in_chosen_trouble_area",
        lambda s, p, h: any(s.trouble))
def mr_slant(s: State, p: int, h: int) -> None:
    s.ask(p, "area", [("area", a) for a in range(NUM_AREAS) if s.trouble[a]],
          "Mr Slant: pick an area with trouble ($2 per minion there)", r_mr_slant, p)


def r_mr_slant(s: State, opt, p: int) -> None:
    t_gain(s, p, 2 * s.minion_total(opt[1]))


@effect("steal_money_from_each_other_player")
def steal_each(s: State, p: int, h: int) -> None:
    amount = params(s, h)["amount"]
    for q in reversed(others(s, p)):
        s.push(t_pay, q, p, amount)
        guard_text(s, q, p)


@effect("steal_money_from_player")
def steal_one(s: State, p: int, h: int) -> None:
    ask_target(s, p, others(s, p), "Take $3 from which player?", r_steal_one, params(s, h)["amount"])


def r_steal_one(s: State, opt, p: int, amount: int) -> None:
    q = opt[1]
    s.push(t_pay, q, p, amount)
    guard_text(s, q, p)


@effect("force_payment_between_others", lambda s, p, h: s.players >= 3)
def hubert(s: State, p: int, h: int) -> None:
    ask_target(s, p, others(s, p), "Hubert: who pays $3?", r_hubert_payer)


def r_hubert_payer(s: State, opt, p: int) -> None:
    payer = opt[1]
    ask_target(s, p, [q for q in others(s, p) if q != payer], "Hubert: who receives it?",
               r_hubert_payee, payer)


def r_hubert_payee(s: State, opt, p: int, payer: int) -> None:
    s.push(t_pay, payer, opt[1], 3)
    guard_text(s, payer, p)


# --- cards between hands ----------------------------------------------------------------------------


@effect("target_gives_cards", lambda s, p, h: any(s.hand[q] for q in others(s, p)))
def target_gives(s: State, p: int, h: int) -> None:
    cands = [q for q in others(s, p) if s.hand[q]]
    ask_target(s, p, cands, "Which player gives you two cards?", r_target_gives, params(s, h)["count"])


def r_target_gives(s: State, opt, p: int, count: int) -> None:
    q = opt[1]
    s.push(t_give_cards, q, p, count)
    guard_text(s, q, p)


def t_give_cards(s: State, q: int, p: int, k: int) -> None:
    if k <= 0 or not s.hand[q]:
        return
    s.push(t_give_cards, q, p, k - 1)
    s.ask(q, "give", [("give", h) for h in s.hand[q]], f"Give a card to {COLOURS[p]}",
          r_give, q, p)


def r_give(s: State, opt, q: int, p: int) -> None:
    t_pass_card(s, opt[1], q, p)


@effect("each_other_player_gives_money_or_card")
def sunshine(s: State, p: int, h: int) -> None:
    for q in reversed(others(s, p)):
        s.push(t_money_or_card, q, p)
        guard_text(s, q, p)


def t_money_or_card(s: State, q: int, p: int) -> None:
    opts = [("pay", 1)] if s.money[q] >= 1 else []
    opts += [("give", h) for h in s.hand[q]]
    if opts:
        s.ask(q, "give", opts, f"Give {COLOURS[p]} $1 or a card", r_money_or_card, q, p)


def r_money_or_card(s: State, opt, q: int, p: int) -> None:
    if opt[0] == "pay":
        pay(s, q, p, 1)
    else:
        t_pass_card(s, opt[1], q, p)


@effect("give_card_receive_money", lambda s, p, h: bool(s.hand[p]))
def give_card_for_money(s: State, p: int, h: int) -> None:
    ask_target(s, p, others(s, p), "Give a card to which player (they pay you $2)?",
               r_give_card_for_money)


def r_give_card_for_money(s: State, opt, p: int) -> None:
    q = opt[1]
    s.push(t_give_card_for_money, p, q)
    guard_text(s, q, p)


def t_give_card_for_money(s: State, p: int, q: int) -> None:
    if not s.hand[p]:
        return
    s.push(t_pay, q, p, 2)
    s.ask(p, "give", [("give", h) for h in s.hand[p]], f"Give which card to {COLOURS[q]}?",
          r_give, p, q)


@effect("take_random_cards_keep_one", lambda s, p, h: any(s.hand[q] for q in others(s, p)))
def stanley(s: State, p: int, h: int) -> None:
    ask_target(s, p, [q for q in others(s, p) if s.hand[q]], "Take two random cards from whom?",
               r_stanley)


def r_stanley(s: State, opt, p: int) -> None:
    q = opt[1]
    s.push(t_stanley, p, q)
    guard_text(s, q, p)


def t_stanley(s: State, p: int, q: int) -> None:
    k = min(2, len(s.hand[q]))
    if k:
        s.request(PickRandom(tuple(s.hand[q]), k, "stanley"), r_stanley_picked, p, q)


def r_stanley_picked(s: State, picked, p: int, q: int) -> None:
    if len(picked) == 2:
        s.push(t_give_back, p, q, picked)
    for h in reversed(picked):
        s.push(t_pass_card, h, q, p)


def t_give_back(s: State, p: int, q: int, picked) -> None:
    s.ask(p, "give", [("give", h) for h in picked if h in s.hand[p]],
          f"Give one of the two cards back to {COLOURS[q]}", r_give, p, q)


@effect("look_at_hand_discard_one", lambda s, p, h: any(s.hand[q] for q in others(s, p)))
def cable_street(s: State, p: int, h: int) -> None:
    ask_target(s, p, [q for q in others(s, p) if s.hand[q]], "Look at whose hand?", r_cable)


def r_cable(s: State, opt, p: int) -> None:
    q = opt[1]
    s.push(t_cable, p, q)
    guard_text(s, q, p)


def t_cable(s: State, p: int, q: int) -> None:
    if s.hand[q]:
        handles = tuple(s.hand[q])
        s.request(ShowCards("player", handles, p), r_cable_shown, p, q, handles)


def r_cable_shown(s: State, ids, p: int, q: int, handles) -> None:
    for h, cid in zip(handles, ids):
        if cid is not None:
            learn(s, h, cid)
        s.seen[p].add(h)
    s.ask(p, "discard", [("discard", h) for h in handles],
          f"Choose a card of {COLOURS[q]}'s to discard", r_cable_discard, q)


def r_cable_discard(s: State, opt, q: int) -> None:
    discard_card(s, q, opt[1])


@effect("swap_hands")
def chair(s: State, p: int, h: int) -> None:
    ask_target(s, p, others(s, p), "Swap hands with whom?", r_chair)


def r_chair(s: State, opt, p: int) -> None:
    q = opt[1]
    s.push(t_swap_hands, p, q)
    guard_text(s, q, p)


def t_swap_hands(s: State, p: int, q: int) -> None:
    mine, theirs = list(s.hand[p]), list(s.hand[q])
    for h in reversed(theirs):
        s.push(t_pass_card, h, q, p)
    for h in reversed(mine):
        s.push(t_pass_card, h, p, q)


@effect("pay_or_receive_penalty_card")
def penalty_card(s: State, p: int, h: int) -> None:
    ask_target(s, p, others(s, p), "Give this card to whom (unless they pay $5)?", r_penalty, h)


def r_penalty(s: State, opt, p: int, h: int) -> None:
    q = opt[1]
    s.push(t_penalty, q, p, h)
    guard_text(s, q, p)


def t_penalty(s: State, q: int, p: int, h: int) -> None:
    opts = ([("pay", 5)] if s.money[q] >= 5 else []) + [("accept",)]
    s.ask(q, "choice", opts, f"Pay {COLOURS[p]} $5, or take {s.card[h]} for the rest of the game",
          r_penalty_choice, q, p, h)


def r_penalty_choice(s: State, opt, q: int, p: int, h: int) -> None:
    if opt[0] == "pay":
        pay(s, q, p, 5)
    else:
        s.in_play.remove(h)
        s.penalties[q].append(h)
        s.log("penalty", q, f"{COLOURS[q]} takes {s.card[h]}", card=s.card[h])


# --- drawing and discarding ---------------------------------------------------------------------------


@effect("draw_cards")
def draw_cards(s: State, p: int, h: int) -> None:
    s.push(t_draw, p, params(s, h)["count"])


@effect("draw_cards_per_own_building", lambda s, p, h: bool(s.buildings_on_board(p)))
def gargoyles(s: State, p: int, h: int) -> None:
    s.push(t_draw, p, len(s.buildings_on_board(p)))


@effect("discard_cards", lambda s, p, h: bool(s.hand[p]))
def discard_one(s: State, p: int, h: int) -> None:
    s.push(t_discard_one, p, "Discard a card")


@effect("discard_any_for_money", lambda s, p, h: bool(s.hand[p]))
def discard_for_money(s: State, p: int, h: int) -> None:
    s.push(t_discard_loop, p, params(s, h)["per_card"], 99, False)


def t_discard_loop(s: State, p: int, per: int, left: int, refill: bool) -> None:
    if left <= 0 or not s.hand[p]:
        if refill:
            s.push(t_draw, p, s.refill_need(p))
        return
    opts = [("discard", h) for h in s.hand[p]] + [("done",)]
    s.ask(p, "discard", opts, "Discard a card" + (f" for ${per}" if per else ""),
          r_discard_loop, p, per, left, refill)


def r_discard_loop(s: State, opt, p: int, per: int, left: int, refill: bool) -> None:
    if opt[0] == "done":
        if refill:
            s.push(t_draw, p, s.refill_need(p))
        return
    s.push(t_discard_loop, p, per, left - 1, refill)
    if per:
        s.push(t_gain, p, per)
    discard_card(s, p, opt[1])


@effect("discard_up_to_then_refill")
def alchemists(s: State, p: int, h: int) -> None:
    s.push(t_discard_loop, p, 0, params(s, h)["max_discard"], True)


@effect("draw_random_from_discard", lambda s, p, h: bool(s.discard))
def history_monks(s: State, p: int, h: int) -> None:
    k = min(params(s, h)["count"], len(s.discard))
    s.request(PickRandom(tuple(s.discard), k, "history-monks"), r_history_monks, p)


def r_history_monks(s: State, picked, p: int) -> None:
    for h in picked:
        s.discard.remove(h)
        s.hand[p].append(h)
        s.seen[p].add(h)
    s.log("take", p, f"{COLOURS[p]} takes {', '.join(s.card[h] or '?' for h in picked)} from the discard pile",
          handles=tuple(picked))


@effect("play_additional_cards", lambda s, p, h: bool(s.hand[p]))
def drumknott(s: State, p: int, h: int) -> None:
    s.push(t_play_extra, p, params(s, h)["count"])


# --- personalities ---------------------------------------------------------------------------------------


@effect("swap_personality_with_random_unused", lambda s, p, h: bool(s.unused_pers))
def zorgo(s: State, p: int, h: int) -> None:
    s.request(PickRandom(tuple(s.unused_pers), 1, "zorgo"), r_zorgo_picked, p)


def r_zorgo_picked(s: State, picked, p: int) -> None:
    s.request(ShowCards("personality", picked, p), r_zorgo_shown, p, picked[0])


def r_zorgo_shown(s: State, ids, p: int, new: int) -> None:
    if ids[0] is not None:
        s.pers[new] = ids[0]
    old = s.personality[p]
    s.unused_pers.remove(new)
    s.unused_pers.append(old)
    s.personality[p] = new
    s.pers_seen[p].add(new)
    s.log("zorgo", p, f"{COLOURS[p]} swaps personality with an unused one", handles=(new,))


@effect("view_unused_personalities", lambda s, p, h: len(s.unused_pers) > 1)
def mrs_cake(s: State, p: int, h: int) -> None:
    s.request(PickRandom(tuple(s.unused_pers), 1, "mrs-cake"), r_cake_hidden, p)


def r_cake_hidden(s: State, picked, p: int) -> None:
    shown = tuple(x for x in s.unused_pers if x != picked[0])
    s.request(ShowCards("personality", shown, p), r_cake_shown, p, shown)


def r_cake_shown(s: State, ids, p: int, shown) -> None:
    for h, pid in zip(shown, ids):
        if pid is not None:
            s.pers[h] = pid
        s.pers_seen[p].add(h)
    s.log("look", p, f"{COLOURS[p]} looks at {len(shown)} unused personalities", handles=tuple(shown))


# --- placing and moving minions --------------------------------------------------------------------------


def _placement_rule(s: State, p: int, h: int):
    prm = params(s, h)
    where = prm["where"]
    if where == "area_with_own_building":
        return lambda st: {a for a in range(NUM_AREAS) if st.building[a] == p}
    if where == "in_or_adjacent_to_area":
        fixed = ADJ[prm["area"] - 1] | {prm["area"] - 1}
        return lambda st: fixed
    if where == "area_with_trouble":
        return lambda st: {a for a in range(NUM_AREAS) if st.trouble[a]}
    if where == "any":
        everywhere = set(range(NUM_AREAS))
        return lambda st: everywhere
    raise AssertionError(where)


def _place_trouble_flag(s: State, h: int) -> bool:
    # Mr Shine and Deep Dwarves place without trouble.
    return CARD[s.card[h]]["params"].get("where") != "any"


@effect("place_minion", lambda s, p, h: bool(placement_options(s, p, _placement_rule(s, p, h))))
def place_by_text(s: State, p: int, h: int) -> None:
    prm = params(s, h)
    count = prm.get("count_max", prm.get("count", 1))
    s.push(t_place_by_text, p, h, count, True)


def t_place_by_text(s: State, p: int, h: int, left: int, first: bool) -> None:
    if left <= 0:
        return
    opts = placement_options(s, p, _placement_rule(s, p, h))
    if not opts:
        return
    if not first:
        opts.append(("done",))  # Archchancellor Ridcully: the second minion is optional
    s.ask(p, "place", opts, f"{s.card[h]}: place a minion", r_place_by_text, p, h, left)


def r_place_by_text(s: State, opt, p: int, h: int, left: int) -> None:
    if opt[0] == "done":
        return
    s.push(t_place_by_text, p, h, left - 1, False)
    place_minion(s, p, opt[1], opt[2] if len(opt) > 2 else None, _place_trouble_flag(s, h))


def own_move_options(s: State, p: int, h: int) -> list[tuple]:
    prm = params(s, h)
    out = []
    for f in s.own_areas(p):
        if prm["from_area"] == "area_with_trouble" and not s.trouble[f]:
            continue
        dests = ADJ[f] if prm["to_area"] == "adjacent" else [a for a in range(NUM_AREAS) if a != f]
        out += [("move", f, p, t) for t in sorted(dests)]
    return out


@effect("move_own_minion", lambda s, p, h: bool(own_move_options(s, p, h)))
def move_own(s: State, p: int, h: int) -> None:
    s.ask(p, "move", own_move_options(s, p, h), f"{s.card[h]}: move one of your minions",
          r_move, p)


def r_move(s: State, opt, p: int) -> None:
    _, f, who, t = opt
    move_minion(s, f, t, who, text(p))


def other_move_options(s: State, p: int) -> list[tuple]:
    # A12: trolls and demons may be moved too.
    out = []
    for f in range(NUM_AREAS):
        for who in targets_in(s, f, exclude=p):
            out += [("move", f, who, t) for t in sorted(ADJ[f])]
    return out


@effect("move_other_minion", lambda s, p, h: bool(other_move_options(s, p)))
def move_other(s: State, p: int, h: int) -> None:
    s.ask(p, "move", other_move_options(s, p), f"{s.card[h]}: move another player's minion",
          r_move, p)


@effect("pay_player_then_move_own_minion",
        lambda s, p, h: s.money[p] >= 2 and bool(s.own_areas(p)))
def hobsons(s: State, p: int, h: int) -> None:
    ask_target(s, p, others(s, p), "Give $2 to whom?", r_hobsons)


def r_hobsons(s: State, opt, p: int) -> None:
    pay(s, p, opt[1], 2)
    opts = [("move", f, p, t) for f in s.own_areas(p) for t in range(NUM_AREAS) if t != f]
    s.ask(p, "move", opts, "Move one of your minions anywhere", r_move, p)


def pick_options(s: State, areas, exclude=None) -> list[tuple]:
    return [("pick", a, w) for a in areas for w in targets_in(s, a, exclude=exclude)]


@effect("swap_two_minions",
        lambda s, p, h: sum(1 for a in range(NUM_AREAS) if s.minion_total(a)) >= 2)
def bursar(s: State, p: int, h: int) -> None:
    s.ask(p, "pick", pick_options(s, range(NUM_AREAS)), "The Bursar: pick the first minion",
          r_bursar_first, p)


def r_bursar_first(s: State, opt, p: int) -> None:
    _, a1, w1 = opt
    s.ask(p, "pick", pick_options(s, [a for a in range(NUM_AREAS) if a != a1]),
          "The Bursar: pick the minion to swap it with", r_bursar_second, p, a1, w1)


def r_bursar_second(s: State, opt, p: int, a1: int, w1) -> None:
    _, a2, w2 = opt
    s.push(t_swap_minions, a1, w1, a2, w2)
    # Each other player whose minion moves may stop the whole swap.
    for a, w in ((a2, w2), (a1, w1)):
        if not isinstance(w, str) and w != p:
            s.push(t_guard, w, "move", text(p), a)


def t_swap_minions(s: State, a1: int, w1, a2: int, w2) -> None:
    from .engine import arrive, depart
    if not s.pieces_of(w1, a1) or not s.pieces_of(w2, a2):
        return
    depart(s, a1, w1)
    depart(s, a2, w2)
    arrive(s, a2, w1)
    arrive(s, a1, w2)
    s.log("swap", None, f"{who_name(w1)} {AREA_IDS[a1]} <-> {who_name(w2)} {AREA_IDS[a2]}",
          who=w1, source=a1, target=w2, area=a2)


# --- removing minions ------------------------------------------------------------------------------------


def remove_by(s: State, a: int, who, p: int) -> None:
    """``p``'s card text removes a minion (A8: no window against your own choice)."""
    remove_minion(s, a, who, text(p))


@effect("remove_minion", lambda s, p, h: s.minion_total(UNREAL_ESTATE) > 0)
def the_dean(s: State, p: int, h: int) -> None:
    s.ask(p, "pick", pick_options(s, [UNREAL_ESTATE]), "The Dean: remove a minion from Unreal Estate",
          r_remove_pick, p)


def r_remove_pick(s: State, opt, p: int) -> None:
    remove_by(s, opt[1], opt[2], p)


@effect("roll_areas_remove_minions")
def carcer(s: State, p: int, h: int) -> None:
    s.push(t_carcer_roll, p)
    s.push(t_carcer_roll, p)


def t_carcer_roll(s: State, p: int) -> None:
    s.request(RollDie("carcer"), r_carcer_rolled, p)


def r_carcer_rolled(s: State, roll: int, p: int) -> None:
    a = roll - 1
    s.log("roll", p, f"roll {roll}: {AREA_IDS[a]}", roll=roll, area=a, card="carcer")
    opts = pick_options(s, [a])
    if opts:  # A10: compulsory when a minion is there; any owner, yours included
        s.ask(p, "pick", opts, f"Carcer: remove a minion from {AREA_IDS[a]}", r_carcer_pick, p,
              all(o[2] == p for o in opts))


def r_carcer_pick(s: State, opt, p: int, forced: bool) -> None:
    # A8: when only your own minions are there the removal is forced on you, and
    # Susan, Igor or Fresh Start Club may answer it; picking your own is not.
    remove_minion(s, opt[1], opt[2], ("forced", p) if forced else text(p))


@effect("others_remove_own_minion")
def auditors(s: State, p: int, h: int) -> None:
    for q in reversed(others(s, p)):
        s.push(t_auditor, q, p)


def t_auditor(s: State, q: int, p: int) -> None:
    areas = s.own_areas(q)
    if areas:
        s.ask(q, "pick", [("pick", a, q) for a in areas], "The Auditors: remove one of your minions",
              r_auditor, q, p)


def r_auditor(s: State, opt, q: int, p: int) -> None:
    remove_minion(s, opt[1], q, text(p))


@effect("pay_player_who_removes_minion", lambda s, p, h: s.money[p] >= 2)
def cosmo_lavish(s: State, p: int, h: int) -> None:
    ask_target(s, p, others(s, p), "Give $2 to whom (they must remove a minion)?", r_cosmo)


def r_cosmo(s: State, opt, p: int) -> None:
    q = opt[1]
    s.push(t_cosmo, p, q)
    guard_text(s, q, p)


def t_cosmo(s: State, p: int, q: int) -> None:
    pay(s, p, q, 2)
    opts = pick_options(s, [a for a in range(NUM_AREAS) if s.trouble[a]], exclude=p)
    if opts:
        s.ask(q, "pick", opts, f"Remove a minion (not {COLOURS[p]}'s) from an area with trouble",
              r_cosmo_pick, p, q, all(o[2] == q for o in opts))


def r_cosmo_pick(s: State, opt, p: int, q: int, forced: bool) -> None:
    _, a, who = opt
    if who == q and not forced:
        remove_minion(s, a, who, text(q))  # your own free choice: no window
    else:
        remove_minion(s, a, who, text(p))  # p's card forces it (as The Auditors do)


@effect("pay_player_then_assassinate",
        lambda s, p, h: s.money[p] >= 2 and bool(assassination_options(s, p)))
def burleigh(s: State, p: int, h: int) -> None:
    ask_target(s, p, others(s, p), "Give $2 to whom?", r_burleigh)


def r_burleigh(s: State, opt, p: int) -> None:
    pay(s, p, opt[1], 2)
    opts = assassination_options(s, p)
    if opts:
        s.ask(p, "pick", opts, "Assassinate a minion", r_burleigh_kill, p)


def r_burleigh_kill(s: State, opt, p: int) -> None:
    s.log("assassinate", p, f"{COLOURS[p]}: assassinate {AREA_IDS[opt[1]]} {who_name(opt[2])}",
          area=opt[1], who=opt[2])
    remove_minion(s, opt[1], opt[2], text(p))


# --- trouble ---------------------------------------------------------------------------------------------


def trouble_targets(s: State, h: int) -> list[int]:
    # A11: no minion needed in the target, only no trouble there yet.
    if params(s, h)["where"] == "adjacent_to_area_with_trouble":
        return [a for a in range(NUM_AREAS)
                if not s.trouble[a] and any(s.trouble[b] for b in ADJ[a])]
    return [a for a in range(NUM_AREAS) if not s.trouble[a]]


@effect("place_trouble", lambda s, p, h: bool(trouble_targets(s, h)))
def place_trouble(s: State, p: int, h: int) -> None:
    s.ask(p, "area", [("area", a) for a in trouble_targets(s, h)],
          f"{s.card[h]}: place a trouble marker", r_place_trouble_text, p)


def r_place_trouble_text(s: State, opt, p: int) -> None:
    s.trouble[opt[1]] = True
    s.log("trouble", p, f"{COLOURS[p]}: trouble {AREA_IDS[opt[1]]}", area=opt[1])


# --- buildings -------------------------------------------------------------------------------------------


@effect("build_at_discount", lambda s, p, h: bool(build_options(s, p, 0.5)))
def wee_mad_arthur(s: State, p: int, h: int) -> None:
    s.ask(p, "build", build_options(s, p, 0.5), "Build at half price", r_half_build, p)


def r_half_build(s: State, opt, p: int) -> None:
    build(s, p, opt[1], opt[2] if len(opt) > 2 else None, 0.5)


def takeover_areas(s: State, p: int, h: int) -> list[int]:
    want_trouble = params(s, h)["area_trouble"] == "must_be_present"
    return [a for a in range(NUM_AREAS)
            if s.building[a] not in (NOBODY, p) and s.trouble[a] == want_trouble
            and s.money[p] >= COST[a]]


@effect("take_over_building", lambda s, p, h: bool(takeover_areas(s, p, h)))
def take_over(s: State, p: int, h: int) -> None:
    s.ask(p, "area", [("area", a) for a in takeover_areas(s, p, h)],
          f"{s.card[h]}: take over which building?", r_take_over, p)


def r_take_over(s: State, opt, p: int) -> None:
    a = opt[1]
    q = s.building[a]
    s.push(t_take_over, p, a, q)
    guard_text(s, q, p)


def t_take_over(s: State, p: int, a: int, q: int) -> None:
    # A17: pay the owner the full cost; with six buildings out, move one of yours.
    pay(s, p, q, COST[a])
    remove_building(s, a)
    if s.buildings_left[p] == 0:
        s.ask(p, "area", [("area", b) for b in s.buildings_on_board(p)],
              "All six buildings are out: which one moves?", r_take_over_from, p, a)
        return
    put_building(s, p, a)
    s.log("build", p, f"{COLOURS[p]} takes over the building in {AREA_IDS[a]}", area=a, over=True)


def r_take_over_from(s: State, opt, p: int, a: int) -> None:
    remove_building(s, opt[1])
    put_building(s, p, a)
    s.log("build", p, f"{COLOURS[p]} takes over the building in {AREA_IDS[a]}", area=a, over=True)


# --- die rolls on cards ------------------------------------------------------------------------------------


@effect("roll_die")
def roll_card(s: State, p: int, h: int) -> None:
    s.request(RollDie(s.card[h]), r_roll_card, p, s.card[h])


def _lose_own_minion(s: State, p: int, extra=()) -> None:
    opts = list(extra) + [("pick", a, p) for a in s.own_areas(p)]
    if opts:
        s.ask(p, "pick", opts, "Roll of 1: lose one of your minions", r_forced_loss, p)


def r_forced_loss(s: State, opt, p: int) -> None:
    if opt[0] == "pay":
        pay(s, p, None, opt[1])
    else:
        remove_minion(s, opt[1], p, ("forced", p))  # A8: Susan/Igor/Fresh Start Club allowed


def r_roll_card(s: State, roll: int, p: int, cid: str) -> None:
    s.log("roll", p, f"roll {roll}", roll=roll, card=cid)
    if roll == 1:
        if cid == "cmot-dibbler":
            # Pay $2 or lose a minion, as you prefer; with no minion on the board
            # only paying is a real choice (A27: removing none does nothing).
            _lose_own_minion(s, p, [("pay", 2)] if s.money[p] >= 2 else [])
        else:
            _lose_own_minion(s, p)
    elif roll >= 7:
        if cid == "here-n-now":
            ask_target(s, p, others(s, p), "Take $3 from whom?", r_steal_one, 3)
        elif cid == "cmot-dibbler":
            t_gain(s, p, 4)
        else:  # Errol: any minion in an area with trouble (A24: yours allowed)
            opts = pick_options(s, [a for a in range(NUM_AREAS) if s.trouble[a]])
            if opts:
                s.ask(p, "pick", opts, "Errol: remove a minion from an area with trouble",
                      r_remove_pick, p)


@effect("pay_or_lose_building",
        lambda s, p, h: any(s.buildings_on_board(q) for q in others(s, p)))
def fire_brigade(s: State, p: int, h: int) -> None:
    ask_target(s, p, [q for q in others(s, p) if s.buildings_on_board(q)],
               "The Fire Brigade: threaten whose buildings?", r_fire_brigade)


def r_fire_brigade(s: State, opt, p: int) -> None:
    q = opt[1]
    s.push(t_fire_brigade, q, p)
    guard_text(s, q, p)


def t_fire_brigade(s: State, q: int, p: int) -> None:
    opts = ([("pay", 5)] if s.money[q] >= 5 else []) + [("refuse",)]
    s.ask(q, "choice", opts, f"Pay {COLOURS[p]} $5, or they may burn one of your buildings",
          r_fire_brigade_choice, q, p)


def r_fire_brigade_choice(s: State, opt, q: int, p: int) -> None:
    if opt[0] == "pay":
        pay(s, q, p, 5)
        return
    opts = [("area", a) for a in s.buildings_on_board(q)] + [("skip",)]
    s.ask(p, "area", opts, f"Remove which of {COLOURS[q]}'s buildings?", r_fire_brigade_burn, p)


def r_fire_brigade_burn(s: State, opt, p: int) -> None:
    if opt[0] == "area":
        q = s.building[opt[1]]
        remove_building(s, opt[1])
        s.log("building-lost", q, f"{COLOURS[p]} removes {COLOURS[q]}'s building in {AREA_IDS[opt[1]]}",
              area=opt[1], by=p)
