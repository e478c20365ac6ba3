"""A turn: its start, phase A (roll, set the dice with parchments, or
first play a guard or win), the total resolved into the tasks of phase B
(:mod:`.districts`, :mod:`.seven`), and phase C's menu and the actions it
pays for (trades with players go to :mod:`.trading`).
"""
from __future__ import annotations

from ..game import COLOURS, IllegalAction, RollDie, fast_new
from .board import (
    COST_DEV, COST_FOUNDATION, COST_HOUSE, COST_VILLA, DEV_IDS, NUM_VERTICES, PARCH_CARD,
    PARCH_DEV, PARCH_DICE, PARCH_HOUSE, PARCH_VILLA, RESOURCES, VERTEX_IDS,
)
from .state import (
    CAPTAIN, FOUNDATION, HOUSE, LIEUTENANT, NO_RANK, PHASE_A, PHASE_B, PHASE_C, State, VILLA,
)
from .pieces import ONE, R, add_gp, foundation_sites, gain, pay, put_building, settle
from .districts import t_alchemists, t_arrest, t_beggars, t_palace, t_production, t_university
from .seven import t_discard, t_seven
from .guards import check_win, claim_win, deal_dev, guard_options, play_guard, win_options
from .trading import make_offer, offer_space


# --- the turn, phase A, phase B's order --------------------------------------------------------

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
    s.gave = (0,) * s.players
    s.trade = None
    s.log("turn", p, f"turn {s.turn}: {COLOURS[p]}")
    s.push(t_phase_a)


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
O_END, O_DEV, O_PDEV, O_PROMOTE = ("end",), ("dev",), ("p-dev",), ("promote",)
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
    if s.dev[p]:
        opts += win_options(s, p)   # always last (bots look there)
    return opts


def t_phase_c(s: State) -> None:
    if check_win(s):
        return
    p = s.active
    # trade offers are too many to list: the decision's space allows them (.offers)
    s.ask_space(offer_space(s, p), p, "action", phase_c_options(s, p), "trade, build, or end your turn",
                r_phase_c)


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
    elif verb == "offer":
        make_offer(s, p, opt)
    elif verb in ("p-card", "p-dev", "p-house", "p-villa"):
        parchment_action(s, p, opt)
    else:
        # everything else pays resource cards: hidden cards are shown first
        # where the face-up ones do not cover the price
        s.push(t_pay_action, p, opt)
        settle(s, p, action_cost(s, p, opt))


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
    took = f" for {RESOURCES[opt[1]]}" if verb == "p-card" else ""   # (the rest is told as it is built or dealt)
    s.log("parchments", p, f"{COLOURS[p]} spends {price} parchments{took}")
    if verb == "p-card":
        gain(s, p, opt[1], 1)
    elif verb == "p-dev":
        deal_dev(s, p)
    else:
        put_building(s, p, opt[1], HOUSE if verb == "p-house" else VILLA)


def action_cost(s: State, p: int, opt) -> tuple[int, ...]:
    """What a paid action of phase C costs ``p`` in resource cards."""
    verb = opt[0]
    if verb == "bank" or verb == "gp":
        cost = [0] * 5
        cost[opt[1]] = s.rate(p, opt[1]) if verb == "bank" else gp_price(s, opt[1])
        return tuple(cost)
    if verb == "refresh":
        return ONE[opt[1]]
    costs = {"found": COST_FOUNDATION, "house": COST_HOUSE, "villa": COST_VILLA, "dev": COST_DEV}
    if verb not in costs:
        raise IllegalAction(f"unknown action {verb!r}")
    return tuple(costs[verb])


def t_pay_action(s: State, p: int, opt) -> None:
    verb = opt[0]
    cost = action_cost(s, p, opt)
    if verb == "bank":
        give, get = opt[1], opt[2]
        if give == get or not s.bank[get]:
            raise IllegalAction("no such bank trade")
        pay(s, p, cost)
        gain(s, p, get, 1)
        s.log("bank", p, f"{COLOURS[p]} trades {cost[give]} {RESOURCES[give]} for {RESOURCES[get]}",
              paid=cost[give])
    elif verb == "gp":
        g = opt[1]
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
        pay(s, p, cost)
        put_foundation(s, p, v)
    elif verb == "house" or verb == "villa":
        v = opt[1]
        piece = HOUSE if verb == "house" else VILLA
        if s.occ[v] != p * 3 + piece - 1 or not s.sup[p * 3 + piece]:
            raise IllegalAction(f"no {verb} on {VERTEX_IDS[v]}")
        pay(s, p, cost)
        put_building(s, p, v, piece)
    elif verb == "dev":
        if s.dtop >= len(DEV_IDS):
            raise IllegalAction("the development stack is empty")
        pay(s, p, cost)
        deal_dev(s, p)
    else:  # refresh
        if s.rcpt[p] >= 2:
            raise IllegalAction("both receipts are face up")
        pay(s, p, cost)
        s.rcpt[p] = 2
        s.log("refresh", p, f"{COLOURS[p]} turns both receipts face up")


def put_foundation(s: State, p: int, v: int) -> None:
    s.sup[p * 3 + FOUNDATION] -= 1
    s.occ[v] = p * 3 + FOUNDATION
    s.log("build", p, f"{COLOURS[p]} lays a foundation on {VERTEX_IDS[v]}", vertex=VERTEX_IDS[v])
