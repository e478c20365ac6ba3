"""Card texts about the board: placing, moving and removing minions, trouble,
buildings and die rolls.  :data:`BOARD_EFFECTS` maps each effect kind of
:mod:`ankh.core.morpork.catalog` to its :class:`~ankh.core.morpork.effects_common.Effect`.
"""
from __future__ import annotations

from .model import ADJ, AREA_IDS, CARD, COLOURS, COST, NUM_AREAS, RollDie, UNREAL_ESTATE
from .state import NOBODY, State
from .board import (
    arrive, assassination_options, build, build_options, depart, pay, pick_options,
    place_minion, placement_options, put_building, remove_building, t_gain, targets_in, who_name,
)
from .effects_common import Effect, always, ask_target, ask_victim, guard_text, others, params, text
from .effects_hands import r_steal_one
from .windows import move_minion, remove_minion, t_guard


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


def move_other(s: State, p: int, h: int) -> None:
    s.ask(p, "move", other_move_options(s, p), f"{s.card[h]}: move another player's minion",
          r_move, p)


def hobsons(s: State, p: int, h: int) -> None:
    ask_target(s, p, others(s, p), "Give $2 to whom?", r_hobsons)


def r_hobsons(s: State, opt, p: int) -> None:
    pay(s, p, opt[1], 2)
    opts = [("move", f, p, t) for f in s.own_areas(p) for t in range(NUM_AREAS) if t != f]
    s.ask(p, "move", opts, "Move one of your minions anywhere", r_move, p)


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
    if not s.pieces_of(w1, a1) or not s.pieces_of(w2, a2):
        return
    depart(s, a1, w1)
    depart(s, a2, w2)
    arrive(s, a2, w1)
    arrive(s, a1, w2)
    if s.narrate:
        s.log("swap", None, f"{who_name(w1)} {AREA_IDS[a1]} <-> {who_name(w2)} {AREA_IDS[a2]}",
              who=w1, source=a1, target=w2, area=a2)


# --- removing minions ------------------------------------------------------------------------------------


def remove_by(s: State, a: int, who, p: int) -> None:
    """``p``'s card text removes a minion (A8: no window against your own choice)."""
    remove_minion(s, a, who, text(p))


def the_dean(s: State, p: int, h: int) -> None:
    s.ask(p, "pick", pick_options(s, [UNREAL_ESTATE]), "The Dean: remove a minion from Unreal Estate",
          r_remove_pick, p)


def r_remove_pick(s: State, opt, p: int) -> None:
    remove_by(s, opt[1], opt[2], p)


def carcer(s: State, p: int, h: int) -> None:
    s.push(t_carcer_roll, p)
    s.push(t_carcer_roll, p)


def t_carcer_roll(s: State, p: int) -> None:
    s.request(RollDie("carcer"), r_carcer_rolled, p)


def r_carcer_rolled(s: State, roll: int, p: int) -> None:
    a = roll - 1
    if s.narrate:
        s.log("roll", p, f"roll {roll}: {AREA_IDS[a]}", roll=roll, area=a, card="carcer")
    opts = pick_options(s, [a])
    if opts:  # A10: compulsory when a minion is there; any owner, yours included
        s.ask(p, "pick", opts, f"Carcer: remove a minion from {AREA_IDS[a]}", r_carcer_pick, p,
              all(o[2] == p for o in opts))


def r_carcer_pick(s: State, opt, p: int, forced: bool) -> None:
    # A8: when only your own minions are there the removal is forced on you, and
    # Susan, Igor or Fresh Start Club may answer it; picking your own is not.
    remove_minion(s, opt[1], opt[2], ("forced", p) if forced else text(p))


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


def cosmo_lavish(s: State, p: int, h: int) -> None:
    ask_victim(s, p, others(s, p), "Give $2 to whom (they must remove a minion)?", t_cosmo)


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


def burleigh(s: State, p: int, h: int) -> None:
    ask_target(s, p, others(s, p), "Give $2 to whom?", r_burleigh)


def r_burleigh(s: State, opt, p: int) -> None:
    pay(s, p, opt[1], 2)
    opts = assassination_options(s, p)
    if opts:
        s.ask(p, "pick", opts, "Assassinate a minion", r_burleigh_kill, p)


def r_burleigh_kill(s: State, opt, p: int) -> None:
    if s.narrate:
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


def place_trouble(s: State, p: int, h: int) -> None:
    s.ask(p, "area", [("area", a) for a in trouble_targets(s, h)],
          f"{s.card[h]}: place a trouble marker", r_place_trouble_text, p)


def r_place_trouble_text(s: State, opt, p: int) -> None:
    s.trouble[opt[1]] = True
    if s.narrate:
        s.log("trouble", p, f"{COLOURS[p]}: trouble {AREA_IDS[opt[1]]}", area=opt[1])


# --- buildings -------------------------------------------------------------------------------------------


def wee_mad_arthur(s: State, p: int, h: int) -> None:
    s.ask(p, "build", build_options(s, p, 0.5), "Build at half price", r_half_build, p)


def r_half_build(s: State, opt, p: int) -> None:
    build(s, p, opt[1], opt[2] if len(opt) > 2 else None, 0.5)


def takeover_areas(s: State, p: int, h: int) -> list[int]:
    want_trouble = params(s, h)["area_trouble"] == "must_be_present"
    return [a for a in range(NUM_AREAS)
            if s.building[a] not in (NOBODY, p) and s.trouble[a] == want_trouble
            and s.money[p] >= COST[a]]


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
    if s.narrate:
        s.log("build", p, f"{COLOURS[p]} takes over the building in {AREA_IDS[a]}", area=a, over=True)


def r_take_over_from(s: State, opt, p: int, a: int) -> None:
    remove_building(s, opt[1])
    put_building(s, p, a)
    if s.narrate:
        s.log("build", p, f"{COLOURS[p]} takes over the building in {AREA_IDS[a]}", area=a, over=True)


# --- die rolls on cards ------------------------------------------------------------------------------------


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
    if s.narrate:
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


def fire_brigade(s: State, p: int, h: int) -> None:
    ask_victim(s, p, [q for q in others(s, p) if s.buildings_on_board(q)],
               "The Fire Brigade: threaten whose buildings?", t_fire_brigade)


def t_fire_brigade(s: State, p: int, q: int) -> None:
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
        if s.narrate:
            s.log("building-lost", q, f"{COLOURS[p]} removes {COLOURS[q]}'s building in {AREA_IDS[opt[1]]}",
                  area=opt[1], by=p)



BOARD_EFFECTS: dict[str, Effect] = {
    "place_minion": Effect(
        lambda s, p, h: bool(placement_options(s, p, _placement_rule(s, p, h))), place_by_text),
    "move_own_minion": Effect(lambda s, p, h: bool(own_move_options(s, p, h)), move_own),
    "move_other_minion": Effect(lambda s, p, h: bool(other_move_options(s, p)), move_other),
    "pay_player_then_move_own_minion": Effect(
        lambda s, p, h: s.money[p] >= 2 and bool(s.own_areas(p)), hobsons),
    "swap_two_minions": Effect(
        lambda s, p, h: sum(1 for a in range(NUM_AREAS) if s.minion_total(a)) >= 2, bursar),
    "remove_minion": Effect(lambda s, p, h: s.minion_total(UNREAL_ESTATE) > 0, the_dean),
    "roll_areas_remove_minions": Effect(always, carcer),
    "others_remove_own_minion": Effect(always, auditors),
    "pay_player_who_removes_minion": Effect(lambda s, p, h: s.money[p] >= 2, cosmo_lavish),
    "pay_player_then_assassinate": Effect(
        lambda s, p, h: s.money[p] >= 2 and bool(assassination_options(s, p)), burleigh),
    "place_trouble": Effect(lambda s, p, h: bool(trouble_targets(s, h)), place_trouble),
    "build_at_discount": Effect(lambda s, p, h: bool(build_options(s, p, 0.5)), wee_mad_arthur),
    "take_over_building": Effect(lambda s, p, h: bool(takeover_areas(s, p, h)), take_over),
    "roll_die": Effect(always, roll_card),
    "pay_or_lose_building": Effect(
        lambda s, p, h: any(s.buildings_on_board(q) for q in others(s, p)), fire_brigade),
}
