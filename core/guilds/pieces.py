"""The guild variant's primitives, on which every other part of a turn is
built: pieces put on the board, resource cards between the bank and the
hands, guild points and the presidencies they win (R13), who owns what at a
district, and the hidden cards of a steal settled (revealed into the public
counts) before a seat pays or shows.
"""
from __future__ import annotations

from ..game import COLOURS, IllegalAction, Reveal, fast_new
from .board import (
    DISTRICT_VERTICES, LICENCE_VERTICES, NUM_VERTICES, RESOURCES, VERTEX_GUILDS, VERTEX_IDS,
    WITHIN,
)
from .state import EMPTY, HOUSE, State, VILLA


R = range(5)


# --- pieces, cards, guild points ------------------------------------------------------------

def gain(s: State, p: int, r: int, k: int) -> None:
    s.res[p * 5 + r] += k
    s.bank[r] -= k


def put_building(s: State, p: int, v: int, piece: int) -> None:
    """Put a house or villa of ``p`` on ``v`` (from supply; what stood there,
    ``p``'s foundation or house, goes back) and score its guild points."""
    old = s.occ[v]
    if old != EMPTY:
        s.sup[old] += 1
    s.sup[p * 3 + piece] -= 1
    s.occ[v] = p * 3 + piece
    s.log("build", p, f"{COLOURS[p]} builds a {('foundation', 'house', 'villa')[piece]} "
          f"on {VERTEX_IDS[v]}", vertex=VERTEX_IDS[v])
    for g in VERTEX_GUILDS[v]:
        add_gp(s, p, g, 1)


def add_gp(s: State, p: int, g: int, k: int) -> None:
    """``p`` gains ``k`` points in guild ``g`` alone (not a Palace batch)."""
    i = p * 5 + g
    s.gp[i] += k
    if s.lock[g]:
        return
    pres = s.pres[g]
    mine = s.gp[i]
    if pres == p:
        pass
    elif pres < 0:
        if mine >= 3 and all(s.gp[q * 5 + g] < mine for q in range(s.players) if q != p):
            set_president(s, g, p)
    elif mine > s.gp[pres * 5 + g]:
        set_president(s, g, p)
    check_lock(s, g)


def set_president(s: State, g: int, p: int) -> None:
    s.pres[g] = p
    s.log("president", p, f"{COLOURS[p]} presides the {RESOURCES[g]} guild")


def check_lock(s: State, g: int) -> None:
    p = s.pres[g]
    if p >= 0 and not s.lock[g] and s.gp[p * 5 + g] >= 9:
        s.lock[g] = True
        s.log("lock", p, f"the {RESOURCES[g]} presidency is locked for {COLOURS[p]}")


def batch_presidency(s: State, g: int) -> None:
    """After a simultaneous batch: the presidency moves only to one single
    strict leader (R13); a vacant one goes to a single leader with >= 3."""
    if s.lock[g]:
        return
    pts = [s.gp[q * 5 + g] for q in range(s.players)]
    top = max(pts)
    if pts.count(top) == 1:
        leader = pts.index(top)
        pres = s.pres[g]
        if leader != pres and top >= 3 and (pres < 0 or top > pts[pres]):
            set_president(s, g, leader)
    check_lock(s, g)


def owner_order(s: State, d: int) -> list[int]:
    """The seats of the buildings at district ``d``, one entry per building,
    the active player's first, then clockwise."""
    occ = s.occ
    out = []
    n = s.players
    for i in range(n):
        p = (s.active + i) % n
        lo, hi = p * 3 + HOUSE, p * 3 + VILLA
        for v in DISTRICT_VERTICES[d]:
            if lo <= occ[v] <= hi:
                out.append(p)
    return out


def foundation_sites(s: State, p: int) -> list[int]:
    """Free vertices within reach (1 + memberships) of one of ``p``'s buildings."""
    reach = min(1 + s.memberships(p), 6)
    mask = 0
    w = WITHIN[reach]
    lo, hi = p * 3 + HOUSE, p * 3 + VILLA
    occ = s.occ
    for v in range(NUM_VERTICES):
        if lo <= occ[v] <= hi:
            mask |= w[v]
    return [v for v in range(NUM_VERTICES) if mask >> v & 1 and occ[v] == EMPTY]


def has_licence(s: State, p: int) -> bool:
    lo, hi = p * 3 + HOUSE, p * 3 + VILLA
    occ = s.occ
    for v in LICENCE_VERTICES:
        if lo <= occ[v] <= hi:
            return True
    return False


# --- hidden cards: settling before a seat pays or shows ---------------------------------------

def settle(s: State, p: int) -> None:
    """If ``p`` holds or owes hidden handles, ask their reveal; the answer
    folds them into the public counts.  (Pushed work runs after.)"""
    if s.hid[p] or s.owe[p]:
        s.request(fast_new(Reveal, ("res", s.hid[p] + s.owe[p])), r_settled, p)


def t_settle(s: State, p: int) -> None:
    settle(s, p)


def r_settled(s: State, ids, p: int) -> None:
    hid, owe = s.hid[p], s.owe[p]
    for h, c in zip(hid + owe, ids):
        s.rcard[h] = c
    b = p * 5
    for h in hid:
        s.res[b + s.rcard[h]] += 1
    for h in owe:
        s.res[b + s.rcard[h]] -= 1
    s.hid[p] = s.owe[p] = ()
    if min(s.res[b:b + 5]) < 0:
        raise IllegalAction(f"{COLOURS[p]}'s revealed cards do not match the hand")


def affordable(s: State, p: int, cost) -> bool:
    h = s.hand(p)
    return all(h[r] >= cost[r] for r in R)


def pay(s: State, p: int, cost) -> None:
    """Pay ``cost`` from ``p``'s public cards (settled first) to the bank."""
    b = p * 5
    res = s.res
    for r in R:
        if res[b + r] < cost[r]:
            raise IllegalAction(f"{COLOURS[p]} cannot pay {RESOURCES[r]}")
    for r in R:
        if cost[r]:
            res[b + r] -= cost[r]
            s.bank[r] += cost[r]


def one(r: int) -> tuple[int, ...]:
    c = [0, 0, 0, 0, 0]
    c[r] = 1
    return tuple(c)


ONE = tuple(one(r) for r in R)
