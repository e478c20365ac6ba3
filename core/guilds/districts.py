"""Phase B on any total but 7 (section B1): production with the bank's
shortage rule, then the special districts in their order -- the Beggars'
Guild, the Alchemists' fire (the Library and the Laboratory), the Palace's
guild points (a simultaneous batch, R13), the Unseen University's
parchments, and a guard's arrest of an assassin on the total.
"""
from __future__ import annotations

from ..game import COLOURS, IllegalAction
from .board import (
    BEGGARS, DISTRICT_VERTICES, D_ALCH, D_BEGGARS, D_KIND, D_PALACE, D_RESOURCE, D_UU, LIBRARY,
    PALACE, RESOURCES, ROLL_TOKENS, TOKENS, TRACK_BIT, UNIVERSITY,
)
from .state import State
from .pieces import ONE, R, batch_presidency, gain, owner_order, pay, settle


def share_out(s: State, r: int, owed: list[int]) -> None:
    """Give ``owed[q]`` cards of ``r`` from the bank, with the shortage rule."""
    total = sum(owed)
    if not total:
        return
    if total > s.bank[r]:
        takers = [q for q in range(s.players) if owed[q]]
        if len(takers) > 1:
            s.log("shortage", None, f"the bank is short of {RESOURCES[r]}: nobody takes any")
            return
        owed = owed[:]
        owed[takers[0]] = s.bank[r]
    for q in range(s.players):
        if owed[q]:
            gain(s, q, r, owed[q])
            s.log("produce", q, f"{COLOURS[q]} takes {owed[q]} {RESOURCES[r]}")


def t_production(s: State, t: int) -> None:
    occ = s.occ
    for tok in ROLL_TOKENS[t]:
        d = TOKENS[tok][0]
        r = D_RESOURCE[d]
        if r is None or s.robber == tok:
            continue
        owed = [0] * s.players
        for v in DISTRICT_VERTICES[d]:
            o = occ[v]
            if o >= 0 and o % 3:
                owed[o // 3] += o % 3
        share_out(s, r, owed)


def live_token(s: State, t: int, kind: int) -> int:
    """The token of a district of ``kind`` that total ``t`` fires (not under
    the robber), else -1."""
    for tok in ROLL_TOKENS[t]:
        if D_KIND[TOKENS[tok][0]] == kind and s.robber != tok:
            return tok
    return -1


def t_beggars(s: State, t: int) -> None:
    if live_token(s, t, BEGGARS) < 0 or not owner_order(s, D_BEGGARS):
        return
    n = s.players
    best, richest = 0, -1
    for i in range(n):
        q = (s.active + i) % n
        k = s.hand_size(q)
        if k > best:
            best, richest = k, q
    if richest < 0:
        return
    s.push(t_beggars_ask, richest)
    settle(s, richest)


def t_beggars_ask(s: State, q: int) -> None:
    b = q * 5
    opts = [("show", r) for r in R if s.res[b + r]]
    s.ask(q, "show", opts, "show one of your cards to the Beggars' Guild", r_beggars_show, q)


def r_beggars_show(s: State, opt, q: int) -> None:
    r = opt[1]
    if not s.res[q * 5 + r]:
        raise IllegalAction(f"{COLOURS[q]} holds no {RESOURCES[r]}")
    s.log("show", q, f"{COLOURS[q]} shows {RESOURCES[r]}")
    owed = [0] * s.players
    for p in owner_order(s, D_BEGGARS):
        owed[p] += 1
    share_out(s, r, owed)


def t_alchemists(s: State, t: int) -> None:
    if t != 5 and t != 10:
        return
    if s.fire:
        s.fire = False
        s.log("fire", None, "the fire at the Alchemists' Guild is put out")
        return
    # the Library's swaps (on a 5) or the Laboratory's cards (on a 10) first, then the
    # Laboratory blows up, "dans tous les cas" (R17): told in that order
    s.push(t_blow_up)
    if t == 5 and s.robber == LIBRARY:
        return
    owners = owner_order(s, D_ALCH)
    for i in range(len(owners) - 1, -1, -1):
        s.push(t_library if t == 5 else t_laboratory, owners[i])


def t_blow_up(s: State) -> None:
    s.fire = True
    s.log("fire", None, "the Alchemists' Laboratory blows up")


def t_library(s: State, p: int) -> None:
    if s.hand_size(p):
        s.push(t_library_ask, p)
        settle(s, p)


def t_library_ask(s: State, p: int) -> None:
    b = p * 5
    opts = [("swap", r) for r in R if s.res[b + r]] + [("keep",)]
    s.ask(p, "library", opts, "give a card for 2 parchments at the Library?", r_library, p)


def r_library(s: State, opt, p: int) -> None:
    if opt[0] == "swap":
        pay(s, p, ONE[opt[1]])
        s.parch[p] += 2
        s.log("library", p, f"{COLOURS[p]} gives {RESOURCES[opt[1]]} for 2 parchments")


def t_laboratory(s: State, p: int) -> None:
    opts = [("take", r) for r in R if s.bank[r]]
    if opts:
        s.ask(p, "laboratory", opts, "take a resource of your choice from the Laboratory",
              r_laboratory, p)


def r_laboratory(s: State, opt, p: int) -> None:
    if not s.bank[opt[1]]:
        raise IllegalAction(f"the bank has no {RESOURCES[opt[1]]}")
    gain(s, p, opt[1], 1)
    s.log("laboratory", p, f"{COLOURS[p]} takes {RESOURCES[opt[1]]} from the Laboratory")


def t_palace(s: State, t: int) -> None:
    if live_token(s, t, PALACE) < 0:
        return
    owners = owner_order(s, D_PALACE)
    if not owners:
        return
    s.palace = []
    s.push(t_palace_apply)
    for i in range(len(owners) - 1, -1, -1):
        s.push(t_palace_ask, owners[i])


def t_palace_ask(s: State, p: int) -> None:
    mine = [g for q, g in s.palace if q == p]
    opts = [("gp", g) for g in R if mine.count(g) < 2]
    s.ask(p, "palace", opts, "choose a guild for a Palace point", r_palace, p)


def r_palace(s: State, opt, p: int) -> None:
    if sum(1 for q, g in s.palace if q == p and g == opt[1]) >= 2:
        raise IllegalAction("at most 2 Palace points in one guild")
    s.palace.append((p, opt[1]))


def t_palace_apply(s: State) -> None:
    touched = set()
    for p, g in s.palace:
        s.gp[p * 5 + g] += 1
        touched.add(g)
        s.log("palace", p, f"{COLOURS[p]} gains a point in the {RESOURCES[g]} guild")
    s.palace = []
    for g in sorted(touched):
        batch_presidency(s, g)


def t_university(s: State, t: int) -> None:
    if live_token(s, t, UNIVERSITY) < 0:
        return
    for p in owner_order(s, D_UU):
        s.parch[p] += 1
        s.log("parchment", p, f"{COLOURS[p]} takes a parchment")


def t_arrest(s: State, t: int) -> None:
    p = s.active
    bit = TRACK_BIT[t]
    if s.track & bit and s.gup[p] and not s.arrested:
        s.track &= ~bit
        s.gup[p] -= 1
        s.arrests[p] += 1
        s.arrested = True
        s.log("arrest", p, f"{COLOURS[p]}'s guard arrests the assassin on {t}")
