"""Phase B on a 7 (section B2): discards, then the robber moved (only to
the Shades without a licence) and its steal (R19, R20), or an assassin
hired and its contract rolled.  A guard's effect reuses the robber and the
assassin (``r_action_effect``).
"""
from __future__ import annotations

from ..game import COLOURS, IllegalAction, RollDie, ShowCards, StealRandom, fast_new
from .board import (
    DISTRICT_VERTICES, LABORATORY, NUM_VERTICES, ORE, RESOURCES, ROBBER_SPOTS, SHADES_SPOT,
    SPOT_IDS, TOKENS, TRACK, TRACK_BIT, TRACK_FULL, VERTEX_IDS,
)
from .state import EMPTY, HOUSE, State, VILLA
from .pieces import ONE, R, has_licence, pay, put_building, settle


def t_discard(s: State, p: int) -> None:
    k = s.hand_size(p)
    if s.rcpt[p] == 0 and k > 7:
        s.push(t_discard_ask, p, k // 2, k // 2)
        settle(s, p)


def t_discard_ask(s: State, p: int, k: int, total: int) -> None:
    """One card of the ``k`` still to discard, of the ``total`` the 7 asked
    (the prompt says both: "discard 2 cards of 4")."""
    b = p * 5
    opts = [("discard", r) for r in R if s.res[b + r]]
    s.ask(p, "discard", opts, f"discard {k} card{'s' if k > 1 else ''} of {total}", r_discard, p, k, total)


def r_discard(s: State, opt, p: int, k: int, total: int) -> None:
    pay(s, p, ONE[opt[1]])
    s.log("discard", p, f"{COLOURS[p]} discards {RESOURCES[opt[1]]}")
    if k > 1:
        s.push(t_discard_ask, p, k - 1, total)


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
    else:
        s.log("pass", p, f"{COLOURS[p]} neither moves the robber nor hires an assassin")


def move_robber(s: State, p: int, spot: int) -> None:
    if spot != SHADES_SPOT and not has_licence(s, p):
        raise IllegalAction("without a licence the robber only goes to the Shades")
    if spot == LABORATORY or (spot == s.robber and spot != SHADES_SPOT):
        raise IllegalAction(f"the robber cannot go to {SPOT_IDS[spot]}")
    if spot == s.robber:        # the Shades, where it stands: the move does nothing (section 4.6)
        s.log("robber", p, f"{COLOURS[p]} leaves the robber on {SPOT_IDS[spot]}", spot=SPOT_IDS[spot])
    else:
        s.log("robber", p, f"{COLOURS[p]} moves the robber to {SPOT_IDS[spot]}", spot=SPOT_IDS[spot])
    s.robber = spot
    vs = victims(s, p)
    if vs:
        s.ask(p, "victim", [("rob", q) for q in vs] + [("no-steal",)], "steal from whom?",
              r_rob, p)
    elif spot != SHADES_SPOT:       # the log says why nothing is stolen
        full = s.hand_size(p) >= 7
        s.log("no-steal", p, f"{COLOURS[p]} steals nothing ("
              + ("7 or more cards in hand" if full else "nobody to rob there") + ")",
              why="full" if full else "nobody")


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
    else:
        s.log("no-steal", p, f"{COLOURS[p]} steals nothing (by choice)", why="choice")


def steal(s: State, p: int, q: int) -> None:
    """``p`` takes a card at random from ``q``'s whole hand: its public cards
    and its hidden handles go into the steal, and come out as fresh handles,
    one the thief's, the others hidden cards of the victim (docs/guilds.md)."""
    b = q * 5
    cards = tuple([r for r in R for _ in range(s.res[b + r])])
    hand = s.hid[q]
    n = len(cards) + len(hand)
    base = s.rnext
    s.rnext = base + n
    handles = tuple(range(base, base + n))
    s.request(fast_new(StealRandom, ("res", handles, q, p, "robber", hand, cards)), r_stolen, p, q, hand, cards)


def r_stolen(s: State, answer, p: int, q: int, hand: tuple[int, ...], cards: tuple[int, ...]) -> None:
    h, card = answer
    rc = s.rcard
    olds = [rc[x] for x in hand]
    # The victim's cards by kind, where this engine knows them all (the
    # victim's own, a table's that sees all): the kept cards are laid out in
    # that order until the victim's order is known (``r_kept``).
    full = None if None in olds else sorted(cards + tuple(olds))
    if full is not None and card is not None:
        if card not in full:
            raise IllegalAction(f"{COLOURS[q]} holds no {RESOURCES[card]} to steal")
        full.remove(card)
    else:
        full = None
    for x in hand:
        del rc[x]
        s.rfrom.pop(x, None)
    b = q * 5
    for r in R:
        s.res[b + r] = 0
    base = s.rnext - len(cards) - len(hand)
    kept = tuple([x for x in range(base, s.rnext) if x != h])
    for i, x in enumerate(kept):
        rc[x] = full[i] if full is not None else None
    rc[h] = card
    s.rfrom[h] = q
    s.hid[q] = kept
    s.hid[p] = s.hid[p] + (h,)
    s.log("steal", p, f"{COLOURS[p]} steals a card from {COLOURS[q]} (#{h})", handle=h, victim=q)
    if kept:
        s.request(fast_new(ShowCards, ("res", kept, q)), r_kept, q)


def r_kept(s: State, ids, q: int) -> None:
    """The victim's hidden cards in its new order: its engine learns them, the
    others' learn nothing (None)."""
    for x, c in zip(s.hid[q], ids):
        s.rcard[x] = c


def hire(s: State, p: int, a: int, b: int) -> None:
    if a == b or ORE in (a, b) or not can_hire(s, p):
        raise IllegalAction("an assassin costs two different resources, not ore")
    cost = [0] * 5
    cost[a] = cost[b] = 1
    s.push(t_hire, p, tuple(cost))
    settle(s, p, cost)


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
