"""The rules of the guild variant as tasks on a state's stack (see
docs/guilds.md for the rules in words and the readings R1-R40 of the spec).

A task is ``fn(s, *args)``; a continuation is ``fn(s, answer, *args)`` and
checks before it changes anything.  Tasks are pushed in reverse order of
running (the stack is last in, first out).
"""
from __future__ import annotations

from ..game import (
    COLOURS, DealCard, IllegalAction, Outcome, PickRandom, Reveal, RollDie, StealRandom, fast_new,
)
from .board import (
    BEGGARS, COST_DEV, COST_FOUNDATION, COST_HOUSE, COST_VILLA, DEV_IDS,
    DISTRICT_VERTICES, D_ALCH, D_BEGGARS, D_PALACE, D_UU, KINDS, LABORATORY,
    LIBRARY, NUM_VERTICES, ORE, PALACE, PARCHMENT, PARCH_CARD, PARCH_DEV, PARCH_DICE, PARCH_HOUSE,
    PARCH_VILLA, RESOURCES, ROBBER_SPOTS, ROLL_TOKENS, SHADES_SPOT, SPOT_IDS, TARGET_VP, TOKENS,
    TRACK, TRACK_BIT, TRACK_FULL, UNIVERSITY, VERTEX_GUILDS, VERTEX_IDS, WITHIN, D_KIND, D_RESOURCE,
    LICENCE_VERTICES,
)
from .state import (
    CAPTAIN, EMPTY, FOUNDATION, HOUSE, LIEUTENANT, NO_RANK, PHASE_A, PHASE_B, PHASE_C, SETUP,
    VILLA, State,
)

R = range(5)
MAX_OFFERS = 3          # trade offers per turn (ours: keeps every turn finite)


def new_state(players: int, position=None) -> State:
    """A new game waiting for its first request (the first player), or, with
    a position (:class:`~ankh.core.guilds.record.Position`), at the start of
    the position's turn."""
    s = State.blank(players)
    if position is not None and not position.is_empty():
        position.apply(s)
        s.push(t_turn_start, s.active, False)
    else:
        s.request(fast_new(PickRandom, (tuple(range(players)), 1, "first player")), r_first)
    s.run()
    return s


# --- setup ---------------------------------------------------------------------------------

def setup_order(players: int, first: int) -> list[int]:
    clockwise = [(first + i) % players for i in range(players)]
    return clockwise + clockwise[::-1] + clockwise


def r_first(s: State, answer) -> None:
    s.first = answer[0]
    s.log("first", s.first, f"{COLOURS[s.first]} plays first")
    s.push(t_start_cards)
    order = setup_order(s.players, s.first)
    for i in range(len(order) - 1, -1, -1):
        s.push(t_setup_place, order[i], i >= 2 * s.players)


def t_setup_place(s: State, p: int, third: bool) -> None:
    occ = s.occ
    opts = [("place", v) for v in range(NUM_VERTICES) if occ[v] == EMPTY]
    s.ask(p, "setup", opts, "place a house on any free vertex", r_setup_place, p, third)


def r_setup_place(s: State, opt, p: int, third: bool) -> None:
    v = opt[1]
    if s.occ[v] != EMPTY:
        raise IllegalAction(f"{VERTEX_IDS[v]} is taken")
    if third:
        s.third[p] = v
    put_building(s, p, v, HOUSE)


def t_start_cards(s: State) -> None:
    n = s.players
    s.push(t_turn_start, s.first, True)
    for i in range(n - 1, -1, -1):
        s.push(t_start_card, (s.first + i) % n)


def t_start_card(s: State, p: int) -> None:
    guilds = VERTEX_GUILDS[s.third[p]] if s.third[p] >= 0 else ()
    if guilds:
        for g in guilds:
            if s.bank[g]:
                gain(s, p, g, 1)
        s.log("start", p, f"{COLOURS[p]} starts with " + " ".join(RESOURCES[g] for g in guilds))
        return
    opts = [("take", r) for r in R if s.bank[r]]
    if opts:
        s.ask(p, "start-card", opts, "take a resource card of your choice", r_start_take, p)


def r_start_take(s: State, opt, p: int) -> None:
    gain(s, p, opt[1], 1)
    s.log("start", p, f"{COLOURS[p]} starts with {RESOURCES[opt[1]]}")


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

# --- turns -----------------------------------------------------------------------------------


def t_turn_start(s: State, p: int, first: bool = False) -> None:
    s.active = p
    s.turn += 1
    s.phase = PHASE_A
    s.fixed = 0
    s.guard_played = False
    s.pacts = 0
    s.bought = (0, 0, 0, 0, 0)
    s.arrested = False
    s.offers = 0
    s.trade = None
    s.log("turn", p, f"turn {s.turn}: {COLOURS[p]}")
    s.push(t_phase_a)


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


def t_phase_a(s: State) -> None:
    if check_win(s):
        return
    p = s.active
    opts: list[tuple] = [("roll",)]
    if not s.fixed and s.pacts < 2 and s.parch[p] >= PARCH_DICE:
        opts += [("fix", t) for t in range(2, 13)]
    opts += guard_options(s, p)
    opts += win_options(s, p)
    s.ask(p, "before-roll", opts, "roll, or first play a guard or set the dice", r_phase_a)


def r_phase_a(s: State, opt) -> None:
    verb = opt[0]
    p = s.active
    if verb == "roll":
        if s.fixed:
            s.phase = PHASE_B
            s.push(t_resolve, s.fixed)
        else:
            s.request(fast_new(RollDie, ("turn", 6, 2)), r_rolled)
        return
    if verb == "fix":
        s.parch[p] -= PARCH_DICE
        s.pacts += 1
        s.fixed = opt[1]
        s.log("fix", p, f"{COLOURS[p]} sets the dice to {opt[1]}")
        s.push(t_phase_a)
    elif verb == "guard":
        s.push(t_phase_a)
        play_guard(s, p, opt[1], True)
    elif verb == "win":
        claim_win(s, p)


def r_rolled(s: State, dice) -> None:
    s.phase = PHASE_B
    t = dice[0] + dice[1]
    s.log("roll", s.active, f"{COLOURS[s.active]} rolls {dice[0]}+{dice[1]} = {t}", dice=list(dice))
    t_resolve(s, t)


def t_resolve(s: State, t: int) -> None:
    push = s.push
    push(t_phase_c_start)
    if t == 7:
        push(t_seven)
        n = s.players
        for i in range(n - 1, -1, -1):
            push(t_discard, (s.active + i) % n)
        return
    push(t_arrest, t)
    push(t_university, t)
    push(t_palace, t)
    push(t_alchemists, t)
    push(t_beggars, t)
    push(t_production, t)


# --- B1: production and the special districts ----------------------------------------------------

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
    s.fire = True
    s.log("fire", None, "the Alchemists' Laboratory blows up")
    if t == 5 and s.robber == LIBRARY:
        return
    owners = owner_order(s, D_ALCH)
    for i in range(len(owners) - 1, -1, -1):
        s.push(t_library if t == 5 else t_laboratory, owners[i])


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
    s.log("laboratory", p, f"{COLOURS[p]} takes {RESOURCES[opt[1]]}")


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


# --- B2: a seven ------------------------------------------------------------------------------------

def t_discard(s: State, p: int) -> None:
    k = s.hand_size(p)
    if s.rcpt[p] == 0 and k > 7:
        s.push(t_discard_ask, p, k // 2)
        settle(s, p)


def t_discard_ask(s: State, p: int, k: int) -> None:
    b = p * 5
    opts = [("discard", r) for r in R if s.res[b + r]]
    s.ask(p, "discard", opts, f"discard {k} card{'s' if k > 1 else ''}", r_discard, p, k)


def r_discard(s: State, opt, p: int, k: int) -> None:
    pay(s, p, ONE[opt[1]])
    s.log("discard", p, f"{COLOURS[p]} discards {RESOURCES[opt[1]]}")
    if k > 1:
        s.push(t_discard_ask, p, k - 1)


def robber_options(s: State, p: int) -> list[tuple]:
    if not has_licence(s, p):
        return [("robber", SHADES_SPOT)]
    here = s.robber
    return [("robber", x) for x in ROBBER_SPOTS if x != here]


def can_hire(s: State, p: int) -> bool:
    return (s.sup[p * 3 + HOUSE] > 0 and s.track != TRACK_FULL
            and EMPTY in s.occ)


def assassin_options(s: State, p: int) -> list[tuple]:
    if not can_hire(s, p):
        return []
    h = s.hand(p)
    have = [r for r in R if r != ORE and h[r]]
    return [("assassin", a, b) for i, a in enumerate(have) for b in have[i + 1:]]


def t_seven(s: State) -> None:
    p = s.active
    opts = robber_options(s, p) + assassin_options(s, p) + [("pass",)]
    s.ask(p, "seven", opts, "move the robber, hire an assassin, or neither", r_action_effect, p)


def r_action_effect(s: State, opt, p: int) -> None:
    """The robber or the assassin (a seven, or a guard)."""
    if opt[0] == "robber":
        move_robber(s, p, opt[1])
    elif opt[0] == "assassin":
        hire(s, p, opt[1], opt[2])


def move_robber(s: State, p: int, spot: int) -> None:
    if spot != SHADES_SPOT and not has_licence(s, p):
        raise IllegalAction("without a licence the robber only goes to the Shades")
    if spot == LABORATORY or (spot == s.robber and spot != SHADES_SPOT):
        raise IllegalAction(f"the robber cannot go to {SPOT_IDS[spot]}")
    s.robber = spot
    s.log("robber", p, f"{COLOURS[p]} moves the robber to {SPOT_IDS[spot]}", spot=SPOT_IDS[spot])
    vs = victims(s, p)
    if vs:
        s.ask(p, "victim", [("rob", q) for q in vs] + [("no-steal",)], "steal from whom?",
              r_rob, p)


def victims(s: State, p: int) -> list[int]:
    """Who ``p`` may rob where the robber stands (R19, R20)."""
    spot = s.robber
    if spot == SHADES_SPOT or s.hand_size(p) >= 7:
        return []
    d = TOKENS[spot][0]
    occ = s.occ
    out = []
    for q in range(s.players):
        if q == p or s.rcpt[q] or not s.hand_size(q):
            continue
        lo, hi = q * 3 + HOUSE, q * 3 + VILLA
        if any(lo <= occ[v] <= hi for v in DISTRICT_VERTICES[d]):
            out.append(q)
    return out


def r_rob(s: State, opt, p: int) -> None:
    if opt[0] == "rob":
        steal(s, p, opt[1])


def steal(s: State, p: int, q: int) -> None:
    n = s.hand_size(q)
    base = s.rnext
    s.rnext = base + n
    handles = tuple(range(base, base + n))
    s.request(fast_new(StealRandom, ("res", handles, q, p, "robber", ())), r_stolen, p, q)


def r_stolen(s: State, answer, p: int, q: int) -> None:
    h, card = answer
    s.rcard[h] = card
    s.hid[p] = s.hid[p] + (h,)
    s.owe[q] = s.owe[q] + (h,)
    s.log("steal", p, f"{COLOURS[p]} steals a card from {COLOURS[q]} (#{h})", handle=h)


def hire(s: State, p: int, a: int, b: int) -> None:
    if a == b or ORE in (a, b) or not can_hire(s, p):
        raise IllegalAction("an assassin costs two different resources, not ore")
    cost = [0] * 5
    cost[a] = cost[b] = 1
    s.push(t_hire, p, tuple(cost))
    settle(s, p)


def t_hire(s: State, p: int, cost) -> None:
    pay(s, p, cost)
    for t in reversed(TRACK):
        if not s.track & TRACK_BIT[t]:
            s.track |= TRACK_BIT[t]
            s.log("assassin", p, f"{COLOURS[p]} hires an assassin (track {t})", space=t)
            break
    s.request(fast_new(RollDie, ("assassin", 6, 1)), r_assassin, p)


def r_assassin(s: State, die: int, p: int) -> None:
    need = max(2, 5 - s.thieves_count(p))
    if die < need:
        s.log("contract", p, f"the contract fails ({die})", die=die)
        return
    s.log("contract", p, f"the contract succeeds ({die})", die=die)
    opts = [("place", v) for v in range(NUM_VERTICES) if s.occ[v] == EMPTY]
    s.ask(p, "assassin-house", opts, "place a house on any free vertex", r_assassin_house, p)


def r_assassin_house(s: State, opt, p: int) -> None:
    if s.occ[opt[1]] != EMPTY:
        raise IllegalAction(f"{VERTEX_IDS[opt[1]]} is taken")
    put_building(s, p, opt[1], HOUSE)


# --- guards, development tokens, winning ----------------------------------------------------------

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


# --- phase C -------------------------------------------------------------------------------------

def t_phase_c_start(s: State) -> None:
    s.phase = PHASE_C
    p = s.active
    if s.rcpt[p]:
        s.rcpt[p] -= 1
        s.log("receipt", p, f"{COLOURS[p]} turns a receipt face down")
    s.push(t_phase_c)


def gp_price(s: State, g: int) -> int:
    return 1 if s.bought[g] < 2 else 2


# The options as constants (built once: the menu is made at every step).
O_END, O_DEV, O_PDEV, O_PROMOTE, O_TRADE = ("end",), ("dev",), ("p-dev",), ("promote",), ("trade",)
O_BANK = tuple(tuple(("bank", r, x) for x in R) for r in R)
O_GP = tuple(("gp", g) for g in R)
O_PCARD = tuple(("p-card", r) for r in R)
O_REFRESH = tuple(("refresh", r) for r in R)
O_AT = {verb: tuple((verb, v) for v in range(NUM_VERTICES))
        for verb in ("found", "house", "villa", "p-house", "p-villa")}
O_PAID = {HOUSE: O_AT["house"], VILLA: O_AT["villa"]}
O_PARCH = {HOUSE: O_AT["p-house"], VILLA: O_AT["p-villa"]}


def phase_c_options(s: State, p: int) -> list[tuple]:
    """The active seat's menu in phase C (from what its engine can see)."""
    h = s.hand(p)
    bank = s.bank
    sup = s.sup
    occ = s.occ
    gp = s.gp
    pres = s.pres
    b5 = p * 5
    opts: list[tuple] = [O_END]
    for r in R:
        k = h[r]
        if k >= 2 and k >= (2 if pres[r] == p else 3 if gp[b5 + r] >= 3 else 4):
            row = O_BANK[r]
            opts += [row[x] for x in R if x != r and bank[x]]
    bought = s.bought
    for g in R:
        if h[g] >= (1 if bought[g] < 2 else 2):
            opts.append(O_GP[g])
    b3 = p * 3
    parch = s.parch[p]
    free_acts = s.pacts < 2
    if h[0] and h[1] and sup[b3]:
        at = O_AT["found"]
        opts += [at[v] for v in foundation_sites(s, p)]
    # a house on your foundation, a villa on your house: paid in cards or parchments
    for piece, can_pay, price in ((HOUSE, h[0] and h[1] and h[2] and h[3], PARCH_HOUSE),
                                  (VILLA, h[3] >= 2 and h[4] >= 3, PARCH_VILLA)):
        if not sup[b3 + piece]:
            continue
        can_parch = free_acts and parch >= price
        if can_pay or can_parch:
            under = b3 + piece - 1
            sites = [v for v in range(NUM_VERTICES) if occ[v] == under]
            if can_pay:
                at = O_PAID[piece]
                opts += [at[v] for v in sites]
            if can_parch:
                at = O_PARCH[piece]
                opts += [at[v] for v in sites]
    deck_left = s.dtop < len(DEV_IDS)
    if deck_left and h[2] and h[3] and h[4]:
        opts.append(O_DEV)
    if free_acts and parch >= PARCH_CARD:
        opts += [O_PCARD[r] for r in R if bank[r]]
        if deck_left and parch >= PARCH_DEV:
            opts.append(O_PDEV)
    if s.dev[p]:
        opts += guard_options(s, p)
    if s.rcpt[p] < 2:
        opts += [O_REFRESH[r] for r in R if h[r]]
    if s.gup[p] >= 3 and not s.arrested and s.rank[p] == NO_RANK:
        opts.append(O_PROMOTE)
    if s.offers < MAX_OFFERS and (parch or s.hand_size(p)):
        opts.append(O_TRADE)
    if s.dev[p]:
        opts += win_options(s, p)   # always last (bots look there)
    return opts


def t_phase_c(s: State) -> None:
    if check_win(s):
        return
    p = s.active
    s.ask(p, "action", phase_c_options(s, p), "trade, build, or end your turn", r_phase_c)


def r_phase_c(s: State, opt) -> None:
    p = s.active
    verb = opt[0]
    if verb == "end":
        s.push(t_turn_start, (p + 1) % s.players, False)
        return
    s.push(t_phase_c)
    if verb == "win":
        claim_win(s, p)
    elif verb == "guard":
        play_guard(s, p, opt[1], False)
    elif verb == "promote":
        if s.gup[p] < 3 or s.arrested or s.rank[p] != NO_RANK:
            raise IllegalAction("no promotion now")
        s.gup[p] -= 3
        s.rank[p] = LIEUTENANT if CAPTAIN in s.rank else CAPTAIN
        s.log("promote", p, f"{COLOURS[p]} becomes {('', 'Captain', 'Lieutenant')[s.rank[p]]}")
    elif verb == "trade":
        s.offers += 1
        s.push(t_trade_give, p)
    elif verb in ("p-card", "p-dev", "p-house", "p-villa"):
        parchment_action(s, p, opt)
    else:
        # everything else pays resource cards: settle hidden cards first
        s.push(t_pay_action, p, opt)
        settle(s, p)


def parchment_action(s: State, p: int, opt) -> None:
    verb = opt[0]
    price = {"p-card": PARCH_CARD, "p-dev": PARCH_DEV, "p-house": PARCH_HOUSE,
             "p-villa": PARCH_VILLA}[verb]
    if s.pacts >= 2 or s.parch[p] < price:
        raise IllegalAction("no parchment action now")
    if verb == "p-card":
        if not s.bank[opt[1]]:
            raise IllegalAction(f"the bank has no {RESOURCES[opt[1]]}")
    elif verb == "p-dev":
        if s.dtop >= len(DEV_IDS):
            raise IllegalAction("the development stack is empty")
    else:
        piece = HOUSE if verb == "p-house" else VILLA
        if s.occ[opt[1]] != p * 3 + piece - 1 or not s.sup[p * 3 + piece]:
            raise IllegalAction("nothing to build there")
    s.parch[p] -= price
    s.pacts += 1
    s.log("parchments", p, f"{COLOURS[p]} spends {price} parchments")
    if verb == "p-card":
        gain(s, p, opt[1], 1)
    elif verb == "p-dev":
        deal_dev(s, p)
    else:
        put_building(s, p, opt[1], HOUSE if verb == "p-house" else VILLA)


def t_pay_action(s: State, p: int, opt) -> None:
    verb = opt[0]
    if verb == "bank":
        give, get = opt[1], opt[2]
        if give == get or not s.bank[get]:
            raise IllegalAction("no such bank trade")
        k = s.rate(p, give)
        cost = [0] * 5
        cost[give] = k
        pay(s, p, cost)
        gain(s, p, get, 1)
        s.log("bank", p, f"{COLOURS[p]} trades {k} {RESOURCES[give]} for {RESOURCES[get]}")
    elif verb == "gp":
        g = opt[1]
        price = gp_price(s, g)
        cost = [0] * 5
        cost[g] = price
        pay(s, p, cost)
        b = list(s.bought)
        b[g] += 1
        s.bought = tuple(b)
        s.log("buy-gp", p, f"{COLOURS[p]} buys a point in the {RESOURCES[g]} guild")
        add_gp(s, p, g, 1)
    elif verb == "found":
        v = opt[1]
        if not s.sup[p * 3 + FOUNDATION] or v not in foundation_sites(s, p):
            raise IllegalAction(f"no foundation on {VERTEX_IDS[v]}")
        pay(s, p, COST_FOUNDATION)
        put_foundation(s, p, v)
    elif verb == "house" or verb == "villa":
        v = opt[1]
        piece = HOUSE if verb == "house" else VILLA
        if s.occ[v] != p * 3 + piece - 1 or not s.sup[p * 3 + piece]:
            raise IllegalAction(f"no {verb} on {VERTEX_IDS[v]}")
        pay(s, p, COST_HOUSE if piece == HOUSE else COST_VILLA)
        put_building(s, p, v, piece)
    elif verb == "dev":
        if s.dtop >= len(DEV_IDS):
            raise IllegalAction("the development stack is empty")
        pay(s, p, COST_DEV)
        deal_dev(s, p)
    elif verb == "refresh":
        if s.rcpt[p] >= 2:
            raise IllegalAction("both receipts are face up")
        pay(s, p, ONE[opt[1]])
        s.rcpt[p] = 2
        s.log("refresh", p, f"{COLOURS[p]} turns both receipts face up")
    else:
        raise IllegalAction(f"unknown action {verb!r}")


def put_foundation(s: State, p: int, v: int) -> None:
    s.sup[p * 3 + FOUNDATION] -= 1
    s.occ[v] = p * 3 + FOUNDATION
    s.log("build", p, f"{COLOURS[p]} lays a foundation on {VERTEX_IDS[v]}", vertex=VERTEX_IDS[v])


# --- trading between players -----------------------------------------------------------------------
# s.trade = (offerer, give_kind, give_n, want_kind, want_n, asked seats, answers)
# where answers[i] is None (declined), "accept", or (kind, n) a counter.

def holdings(s: State, p: int) -> list[int]:
    """What ``p`` may trade, by kind: its resources (as this engine knows
    them) and its parchments."""
    h = s.hand(p)
    h.append(s.parch[p])
    return h


O_GIVE = tuple(tuple(("give", k, n) for n in (1, 2)) for k in range(6))
O_COUNTER = tuple(tuple(("counter", k, n) for n in (1, 2)) for k in range(6))
O_CANCEL = ("cancel",)


def t_trade_give(s: State, p: int) -> None:
    have = holdings(s, p)
    opts: list[tuple] = [o for k in range(6) for o in O_GIVE[k][:min(2, have[k])]]
    opts.append(O_CANCEL)
    s.ask(p, "offer", opts, "offer which cards?", r_trade_give, p)


def r_trade_give(s: State, opt, p: int) -> None:
    if opt[0] == "give":
        s.push(t_trade_want, p, opt[1], opt[2])


def t_trade_want(s: State, p: int, gk: int, gn: int) -> None:
    opts = [("want", k, n) for k in range(6) if k != gk for n in (1, 2)]
    s.ask(p, "offer", opts, "ask for which cards?", r_trade_want, p, gk, gn)


def r_trade_want(s: State, opt, p: int, gk: int, gn: int) -> None:
    if opt[1] == gk:
        raise IllegalAction("no like-for-like trades")
    others = [q for q in range(s.players) if q != p]
    opts = [("to", q) for q in others] + [("to-all",)]
    s.ask(p, "offer", opts, "offer to whom?", r_trade_to, p, gk, gn, opt[1], opt[2])


def r_trade_to(s: State, opt, p: int, gk: int, gn: int, wk: int, wn: int) -> None:
    n = s.players
    asked: list[int] = [opt[1]] if opt[0] == "to" else [(p + i) % n for i in range(1, n)]
    s.trade = [p, gk, gn, wk, wn, asked, []]
    s.log("offer", p, f"{COLOURS[p]} offers {gn} {KINDS[gk]} for {wn} {KINDS[wk]} to "
          + (COLOURS[asked[0]] if len(asked) == 1 else "all"))
    s.push(t_trade_choose)
    for q in reversed(asked):
        s.push(t_trade_answer, q)


def t_trade_answer(s: State, q: int) -> None:
    p, gk, gn, wk, wn, asked, answers = s.trade
    have = holdings(s, q)
    opts: list[tuple] = [("decline",)]
    if have[wk] >= wn:
        opts.append(("accept",))
    opts += [o for k in range(6) if k != gk for o in O_COUNTER[k][:min(2, have[k])]
             if o[1:] != (wk, wn)]
    s.ask(q, "answer", opts, f"{COLOURS[p]} offers {gn} {KINDS[gk]} for {wn} {KINDS[wk]}",
          r_trade_answer, q)


def r_trade_answer(s: State, opt, q: int) -> None:
    verb = opt[0]
    if verb == "accept":
        s.trade[6] = s.trade[6] + [(q, s.trade[3], s.trade[4])]
    elif verb == "counter":
        s.trade[6] = s.trade[6] + [(q, opt[1], opt[2])]
    s.log("answer", q, f"{COLOURS[q]} " + ("declines" if verb == "decline" else "accepts"
                                            if verb == "accept" else
                                            f"asks to give {opt[2]} {KINDS[opt[1]]} instead"))


def t_trade_choose(s: State) -> None:
    p = s.trade[0]
    deals = s.trade[6]
    if not deals:
        s.trade = None
        return
    opts = [("deal", q, k, n) for q, k, n in deals] + [("cancel",)]
    s.ask(p, "deal", opts, "trade with whom?", r_trade_choose, p)


def r_trade_choose(s: State, opt, p: int) -> None:
    if opt[0] == "cancel":
        s.trade = None
        return
    q, wk, wn = opt[1], opt[2], opt[3]
    gk, gn = s.trade[1], s.trade[2]
    s.trade = None
    s.push(t_trade_exec, p, q, gk, gn, wk, wn)
    s.push(t_settle, q)
    settle(s, p)


def move_kind(s: State, a: int, b: int, kind: int, n: int) -> None:
    if kind == PARCHMENT:
        if s.parch[a] < n:
            raise IllegalAction(f"{COLOURS[a]} has too few parchments")
        s.parch[a] -= n
        s.parch[b] += n
    else:
        if s.res[a * 5 + kind] < n:
            raise IllegalAction(f"{COLOURS[a]} has too few {RESOURCES[kind]}")
        s.res[a * 5 + kind] -= n
        s.res[b * 5 + kind] += n


def t_trade_exec(s: State, p: int, q: int, gk: int, gn: int, wk: int, wn: int) -> None:
    move_kind(s, p, q, gk, gn)
    move_kind(s, q, p, wk, wn)
    s.log("trade", p, f"{COLOURS[p]} gives {gn} {KINDS[gk]} to {COLOURS[q]} for {wn} {KINDS[wk]}")
