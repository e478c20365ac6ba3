"""Development tokens: a guard played (the robber moved, or an assassin
hired in phase C), a token dealt, and Vetinari tokens shown to win; the win
itself (the target reached, the game over).
"""
from __future__ import annotations

from ..game import COLOURS, DealCard, IllegalAction, Outcome, Reveal, fast_new
from .board import TARGET_VP
from .state import SETUP, State
from .seven import assassin_options, r_action_effect, robber_options


def play_guard(s: State, p: int, h: int, phase_a: bool) -> None:
    if s.guard_played or h not in s.dev[p] or s.dturn[h] >= s.turn:
        raise IllegalAction("that guard cannot be played now")
    s.push(t_guard_effect, p, phase_a)
    s.request(fast_new(Reveal, ("dev", (h,))), r_guard_shown, p, h)


def r_guard_shown(s: State, ids, p: int, h: int) -> None:
    if ids[0][0] != "g":
        raise IllegalAction(f"{ids[0]} is not a guard")
    s.dcard[h] = ids[0]
    s.dev[p] = tuple(x for x in s.dev[p] if x != h)
    s.gup[p] += 1
    s.guard_played = True
    s.log("guard", p, f"{COLOURS[p]} plays {ids[0]}", token=ids[0])


def t_guard_effect(s: State, p: int, phase_a: bool) -> None:
    opts = robber_options(s, p)
    if not phase_a:
        opts = opts + assassin_options(s, p)
    s.ask(p, "guard", opts, "the guard moves the robber" + ("" if phase_a else " or hires an assassin"),
          r_action_effect, p)


def deal_dev(s: State, p: int) -> None:
    h = s.dtop
    s.dtop = h + 1
    s.request(fast_new(DealCard, ("dev", (h,), p)), r_dealt, p, h)


def r_dealt(s: State, ids, p: int, h: int) -> None:
    s.dcard[h] = ids[0]
    s.dturn[h] = s.turn
    s.dev[p] = s.dev[p] + (h,)
    s.log("dev", p, f"{COLOURS[p]} takes a development token (#{h})", handle=h)


def claim_win(s: State, p: int) -> None:
    vets = s.known_vetinari(p)
    s.request(fast_new(Reveal, ("dev", vets)), r_win_shown, p, vets)


def r_win_shown(s: State, ids, p: int, vets) -> None:
    if any(i[0] != "v" for i in ids):
        raise IllegalAction("only Vetinari tokens are shown to win")
    for h, i in zip(vets, ids):
        s.dcard[h] = i
    s.dev[p] = tuple(x for x in s.dev[p] if x not in vets)
    s.vshown[p] += len(vets)
    s.log("vetinari", p, f"{COLOURS[p]} shows {len(vets)} Vetinari token(s)")
    if not check_win(s):
        raise IllegalAction(f"{COLOURS[p]} has fewer than {TARGET_VP} VP")


def check_win(s: State) -> bool:
    p = s.active
    if s.phase != SETUP and s.vp(p) >= TARGET_VP:
        end_game(s, p)
        return True
    return False


def end_game(s: State, p: int) -> None:
    scores = tuple(s.vp(q) for q in range(s.players))
    s.outcome = Outcome((p,), "points", f"{scores[p]} VP", scores)
    s.stack.clear()
    s.log("win", p, f"{COLOURS[p]} wins with {scores[p]} VP")


def win_options(s: State, p: int) -> list[tuple]:
    vets = s.known_vetinari(p)
    if vets and s.vp(p, len(vets)) >= TARGET_VP:
        return [("win",)]
    return []


def guard_options(s: State, p: int) -> list[tuple]:
    if s.guard_played:
        return []
    dc, dt, turn = s.dcard, s.dturn, s.turn
    return [("guard", h) for h in s.dev[p]
            if dt[h] < turn and (dc[h] is None or dc[h][0] == "g")]
