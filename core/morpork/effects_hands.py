"""Card texts about money and hands: loans, payments, cards taken, given,
shown and swapped, drawing and discarding, and personalities (Zorgo, Mrs
Cake).  :data:`HAND_EFFECTS` maps each effect kind of :mod:`ankh.core.morpork.catalog`
to its :class:`~ankh.core.morpork.effects_common.Effect`.
"""
from __future__ import annotations

from .model import COLOURS, NUM_AREAS, PickRandom, ShowCards
from .state import NOBODY, State
from .board import discard_card, learn, pay, t_discard_one, t_draw, t_gain, t_pass_card, t_pay
from .effects_common import Effect, always, ask_target, ask_victim, guard_text, others, params


# --- money and loans ---------------------------------------------------------------------------


def take_loan(s: State, p: int, h: int) -> None:
    s.money[p] += params(s, h)["amount"]
    s.in_play.remove(h)  # at once in front of its player: the loan stands (A14)
    s.loans[p] += (h,)
    if s.narrate:
        s.log("loan", p, f"{COLOURS[p]} takes a ${params(s, h)['amount']} loan", amount=params(s, h)["amount"],
              card=s.card[h])


def per_trouble(s: State, p: int, h: int) -> None:
    t_gain(s, p, params(s, h)["per"] * s.trouble_count())


def per_minion_in_area(s: State, p: int, h: int) -> None:
    # A26: trolls and demons count as minions.
    t_gain(s, p, params(s, h)["per"] * s.minion_total(params(s, h)["area"] - 1))


def per_building(s: State, p: int, h: int) -> None:
    t_gain(s, p, sum(1 for b in s.building if b != NOBODY))


def mr_slant(s: State, p: int, h: int) -> None:
    s.ask(p, "area", [("area", a) for a in range(NUM_AREAS) if s.trouble[a]],
          "Mr Slant: pick an area with trouble ($2 per minion there)", r_mr_slant, p)


def r_mr_slant(s: State, opt, p: int) -> None:
    t_gain(s, p, 2 * s.minion_total(opt[1]))


def steal_each(s: State, p: int, h: int) -> None:
    amount = params(s, h)["amount"]
    for q in reversed(others(s, p)):
        s.push(t_pay, q, p, amount)
        guard_text(s, q, p)


def steal_one(s: State, p: int, h: int) -> None:
    ask_target(s, p, others(s, p), "Take $3 from which player?", r_steal_one, params(s, h)["amount"])


def r_steal_one(s: State, opt, p: int, amount: int) -> None:
    q = opt[1]
    s.push(t_pay, q, p, amount)
    guard_text(s, q, p)


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


def give_card_for_money(s: State, p: int, h: int) -> None:
    ask_victim(s, p, others(s, p), "Give a card to which player (they pay you $2)?",
               t_give_card_for_money)


def t_give_card_for_money(s: State, p: int, q: int) -> None:
    if not s.hand[p]:
        return
    s.push(t_pay, q, p, 2)
    s.ask(p, "give", [("give", h) for h in s.hand[p]], f"Give which card to {COLOURS[q]}?",
          r_give, p, q)


def stanley(s: State, p: int, h: int) -> None:
    ask_victim(s, p, [q for q in others(s, p) if s.hand[q]], "Take two random cards from whom?",
               t_stanley)


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


def cable_street(s: State, p: int, h: int) -> None:
    ask_victim(s, p, [q for q in others(s, p) if s.hand[q]], "Look at whose hand?", t_cable)


def t_cable(s: State, p: int, q: int) -> None:
    if s.hand[q]:
        handles = tuple(s.hand[q])
        s.request(ShowCards("player", handles, p), r_cable_shown, p, q, handles)


def r_cable_shown(s: State, ids, p: int, q: int, handles) -> None:
    for h, cid in zip(handles, ids):
        if cid is not None:
            learn(s, h, cid)
        s.seen[p] |= 1 << h
    s.ask(p, "discard", [("discard", h) for h in handles],
          f"Choose a card of {COLOURS[q]}'s to discard", r_cable_discard, q)


def r_cable_discard(s: State, opt, q: int) -> None:
    discard_card(s, q, opt[1])


def chair(s: State, p: int, h: int) -> None:
    ask_victim(s, p, others(s, p), "Swap hands with whom?", t_swap_hands)


def t_swap_hands(s: State, p: int, q: int) -> None:
    mine, theirs = list(s.hand[p]), list(s.hand[q])
    for h in reversed(theirs):
        s.push(t_pass_card, h, q, p)
    for h in reversed(mine):
        s.push(t_pass_card, h, p, q)


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
        s.penalties[q] += (h,)
        if s.narrate:
            s.log("penalty", q, f"{COLOURS[q]} takes {s.card[h]}", card=s.card[h])


# --- drawing and discarding ---------------------------------------------------------------------------


def draw_cards(s: State, p: int, h: int) -> None:
    s.push(t_draw, p, params(s, h)["count"])


def gargoyles(s: State, p: int, h: int) -> None:
    s.push(t_draw, p, len(s.buildings_on_board(p)))


def discard_one(s: State, p: int, h: int) -> None:
    s.push(t_discard_one, p, "Discard a card")


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


def alchemists(s: State, p: int, h: int) -> None:
    s.push(t_discard_loop, p, 0, params(s, h)["max_discard"], True)


def history_monks(s: State, p: int, h: int) -> None:
    k = min(params(s, h)["count"], len(s.discard))
    s.request(PickRandom(tuple(s.discard), k, "history-monks"), r_history_monks, p)


def r_history_monks(s: State, picked, p: int) -> None:
    for h in picked:
        s.discard.remove(h)
        s.hand[p].append(h)
        s.seen[p] |= 1 << h
    if s.narrate:
        s.log("take", p, f"{COLOURS[p]} takes {', '.join(s.card[h] or '?' for h in picked)} from the discard pile",
              handles=tuple(picked))


# --- personalities ---------------------------------------------------------------------------------------


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
    s.pers_seen[p] |= 1 << new
    if s.narrate:
        s.log("zorgo", p, f"{COLOURS[p]} swaps personality with an unused one", handles=(new,))


def mrs_cake(s: State, p: int, h: int) -> None:
    s.request(PickRandom(tuple(s.unused_pers), 1, "mrs-cake"), r_cake_hidden, p)


def r_cake_hidden(s: State, picked, p: int) -> None:
    shown = tuple(x for x in s.unused_pers if x != picked[0])
    s.request(ShowCards("personality", shown, p), r_cake_shown, p, shown)


def r_cake_shown(s: State, ids, p: int, shown) -> None:
    for h, pid in zip(shown, ids):
        if pid is not None:
            s.pers[h] = pid
        s.pers_seen[p] |= 1 << h
    if s.narrate:
        s.log("look", p, f"{COLOURS[p]} looks at {len(shown)} unused personalities", handles=tuple(shown))



HAND_EFFECTS: dict[str, Effect] = {
    "take_loan": Effect(always, take_loan),
    "gain_money_per_trouble_marker": Effect(always, per_trouble),
    "gain_money_per_minion_in_area": Effect(always, per_minion_in_area),
    "gain_money_per_building_on_board": Effect(always, per_building),
    "gain_money_per_minion_in_chosen_trouble_area": Effect(
        lambda s, p, h: any(s.trouble), mr_slant),
    "steal_money_from_each_other_player": Effect(always, steal_each),
    "steal_money_from_player": Effect(always, steal_one),
    "force_payment_between_others": Effect(lambda s, p, h: s.players >= 3, hubert),
    "target_gives_cards": Effect(
        lambda s, p, h: any(s.hand[q] for q in others(s, p)), target_gives),
    "each_other_player_gives_money_or_card": Effect(always, sunshine),
    "give_card_receive_money": Effect(lambda s, p, h: bool(s.hand[p]), give_card_for_money),
    "take_random_cards_keep_one": Effect(
        lambda s, p, h: any(s.hand[q] for q in others(s, p)), stanley),
    "look_at_hand_discard_one": Effect(
        lambda s, p, h: any(s.hand[q] for q in others(s, p)), cable_street),
    "swap_hands": Effect(always, chair),
    "pay_or_receive_penalty_card": Effect(always, penalty_card),
    "draw_cards": Effect(always, draw_cards),
    "draw_cards_per_own_building": Effect(lambda s, p, h: bool(s.buildings_on_board(p)), gargoyles),
    "discard_cards": Effect(lambda s, p, h: bool(s.hand[p]), discard_one),
    "discard_any_for_money": Effect(lambda s, p, h: bool(s.hand[p]), discard_for_money),
    "discard_up_to_then_refill": Effect(always, alchemists),
    "draw_random_from_discard": Effect(lambda s, p, h: bool(s.discard), history_monks),
    "swap_personality_with_random_unused": Effect(lambda s, p, h: bool(s.unused_pers), zorgo),
    "view_unused_personalities": Effect(lambda s, p, h: len(s.unused_pers) > 1, mrs_cake),
}
