"""Board primitives: minions arriving and leaving, buildings, money, and cards
moving between the draw pile, hands and the discard pile.

These are the bottom of the rules machine: they change the state, and some
queue a request (a card shown, a card passed), but never open an interrupt
window nor know about cards' texts, events or the turn.
"""
from __future__ import annotations

from .model import (
    AREA_IDS, COLOURS, COST, DEMON, DealCard, NUM_AREAS, PassCard, Reveal, TROLL, fast_new,
)
from .state import NOBODY, REMOVED, State
from .scoring import end_game


# --- naming helpers for the log ----------------------------------------------------------


def who_name(who) -> str:
    return who if isinstance(who, str) else COLOURS[who]


def card_name(s: State, h: int) -> str:
    return s.card[h] or f"#{h}"


def discard_from_draw(s: State, handles, ids) -> None:
    """Cards turned face up from the draw pile onto the discard pile."""
    for h, cid in zip(handles, ids):
        reveal(s, h, cid)
        s.draw.remove(h)
        s.discard.append(h)


# --- drawing cards ---------------------------------------------------------------------------


def t_draw(s: State, p: int, k: int) -> None:
    """Draw ``k`` cards from the draw pile into ``p``'s hand (one request)."""
    k = min(k, len(s.draw))
    if k <= 0:
        return
    s.request(fast_new(DealCard, ("player", tuple(s.draw[-1:-k - 1:-1]), p)), r_drawn, p)


def r_drawn(s: State, ids, p: int) -> None:
    hand, draw = s.hand[p], s.draw
    seen = s.seen[p]
    for cid in ids:
        h = draw.pop()
        if cid is not None:
            s.card[h] = cid
        hand.append(h)
        seen |= 1 << h
    s.seen[p] = seen
    if s.turn:
        if s.narrate:
            s.log("draw", p, f"{COLOURS[p]} draws {len(ids)} ({len(draw)} left)", amount=len(ids))
    if not draw and s.turn:
        # A4: the game ends as soon as the last card of the draw pile is taken.
        end_game(s, "draw-pile")


def learn(s: State, h: int, cid: str) -> None:
    s.card[h] = cid


def reveal(s: State, h: int, cid: str) -> None:
    """A card shown to everybody: every seat now knows it."""
    s.card[h] = cid
    bit = 1 << h
    s.seen = [x | bit for x in s.seen]


def t_gain(s: State, p: int, n: int) -> None:
    s.money[p] += n
    if s.narrate:
        s.log("money", p, f"{COLOURS[p]} takes ${n}", amount=n)


def t_discard_one(s: State, p: int, prompt: str) -> None:
    """``p`` discards one card of their choice from hand (face up: revealed)."""
    if not s.hand[p]:
        return
    s.ask(p, "discard", [("discard", h) for h in s.hand[p]], prompt, r_discard, p)


def r_discard(s: State, opt, p: int) -> None:
    discard_card(s, p, opt[1])


def discard_card(s: State, p: int, h: int) -> None:
    s.request(fast_new(Reveal, ("player", (h,))), r_discard_revealed, p, h)


def r_discard_revealed(s: State, ids, p: int, h: int) -> None:
    reveal(s, h, ids[0])
    s.hand[p].remove(h)
    s.discard.append(h)
    if s.narrate:
        s.log("discard", p, f"{COLOURS[p]}: discard {ids[0]}", card=ids[0])


# --- placing, building, removing, moving ---------------------------------------------------------


def placement_options(s: State, p: int, allowed) -> list[tuple]:
    """``("minion", to)``, or ``("minion", to, from)`` when all 12 minions are on
    the board: A5, the minion comes off first (the area it leaves loses its
    trouble) and the destination is computed after, never the area it left."""
    if s.supply[p] > 0:
        return [("minion", a) for a in sorted(allowed(s))]
    out = []
    for f in s.own_areas(p):
        s.add_minions(f, p, -1)
        to = allowed(s) - {f}
        s.add_minions(f, p, 1)
        out += [("minion", a, f) for a in sorted(to)]
    return out


def ask_placement(s: State, p: int, allowed, prompt: str, trouble: bool = True) -> None:
    opts = placement_options(s, p, allowed)
    if opts:
        s.ask(p, "place", opts, prompt, r_place, p, trouble)


def r_place(s: State, opt, p: int, trouble: bool) -> None:
    place_minion(s, p, opt[1], opt[2] if len(opt) > 2 else None, trouble)


def place_minion(s: State, p: int, a: int, f: int | None = None, trouble: bool = True) -> None:
    if f is not None:
        s.add_minions(f, p, -1)
        s.supply[p] += 1
        s.trouble[f] = False
        if s.narrate:
            s.log("minion", p, f"{COLOURS[p]}: minion {AREA_IDS[a]} from {AREA_IDS[f]}", area=a, source=f)
    else:
        if s.narrate:
            s.log("minion", p, f"{COLOURS[p]}: minion {AREA_IDS[a]}", area=a)
    s.supply[p] -= 1
    arrive(s, a, p, trouble)


def arrive(s: State, a: int, who, trouble: bool = True) -> None:
    """A minion (a seat's, a troll or a demon) arrives in area ``a``: trouble if the
    area already held a minion; a demon always brings trouble."""
    occupied = s.minion_total(a) > 0
    if who == TROLL:
        s.trolls[a] += 1
    elif who == DEMON:
        s.demons[a] += 1
        occupied = True
    else:
        s.add_minions(a, who, 1)
    if trouble and occupied:
        s.trouble[a] = True


def depart(s: State, a: int, who) -> None:
    if who == TROLL:
        s.trolls[a] -= 1
    elif who == DEMON:
        s.demons[a] -= 1
    else:
        s.add_minions(a, who, -1)
    s.trouble[a] = False


def build_options(s: State, p: int, factor: float = 1) -> list[tuple]:
    cands = [a for a in range(NUM_AREAS)
             if s.minions[a][p] and s.building[a] == NOBODY and not s.trouble[a]
             and s.money[p] >= int(COST[a] * factor)]
    if s.buildings_left[p] > 0:
        return [("build", a) for a in cands]
    own = s.buildings_on_board(p)
    return [("build", a, f) for a in cands for f in own]


def build(s: State, p: int, a: int, f: int | None = None, factor: float = 1) -> None:
    if f is not None:
        remove_building(s, f)
    cost = int(COST[a] * factor)
    s.money[p] -= cost
    put_building(s, p, a)
    if s.narrate:
        s.log("build", p, f"{COLOURS[p]}: build {AREA_IDS[a]}" + (f" from {AREA_IDS[f]}" if f is not None else "")
              + f" (${cost})", area=a, source=f, amount=cost)


def put_building(s: State, p: int, a: int) -> None:
    s.building[a] = p
    s.buildings_left[p] -= 1
    if s.city_owner[a] != REMOVED:
        s.city_owner[a] = p
        s.gained |= 1 << a


def remove_building(s: State, a: int) -> None:
    p = s.building[a]
    s.building[a] = NOBODY
    s.buildings_left[p] += 1
    if s.city_owner[a] != REMOVED:
        s.city_owner[a] = NOBODY


def assassination_options(s: State, p: int, exclude=None) -> list[tuple]:
    out = []
    for a in range(NUM_AREAS):
        if not s.trouble[a]:
            continue
        out += [("assassinate", a, w) for w in targets_in(s, a, exclude=p)]
    return out


def targets_in(s: State, a: int, exclude=None) -> list:
    """Minions in ``a`` by owner: seats (but ``exclude``), then troll, demon."""
    row = s.minions[a]
    out: list = [q for q in range(s.players) if row[q] and q != exclude]
    if s.trolls[a]:
        out.append(TROLL)
    if s.demons[a]:
        out.append(DEMON)
    return out


def pay(s: State, payer: int, payee: int | None, amount: int) -> int:
    """Move up to ``amount`` from ``payer`` (A18: short payers give what they have)."""
    n = min(amount, s.money[payer])
    s.money[payer] -= n
    if payee is not None:
        s.money[payee] += n
    if s.narrate:
        s.log("pay", payer, f"{COLOURS[payer]} pays ${n}" + (f" to {COLOURS[payee]}" if payee is not None else ""),
              amount=n, target=payee)
    return n


def t_pay(s: State, payer: int, payee: int, amount: int) -> None:
    pay(s, payer, payee, amount)


# --- passing hidden cards between hands --------------------------------------------------------


def t_pass_card(s: State, h: int, giver: int, receiver: int) -> None:
    if h not in s.hand[giver]:
        return
    s.request(fast_new(PassCard, (h, giver, receiver, "player")), r_passed, h, giver, receiver)


def r_passed(s: State, cid, h: int, giver: int, receiver: int) -> None:
    if cid is not None:
        learn(s, h, cid)
    s.hand[giver].remove(h)
    s.hand[receiver].append(h)
    s.seen[receiver] |= 1 << h
    if s.narrate:
        s.log("give", giver, f"{COLOURS[giver]} gives a card to {COLOURS[receiver]}", target=receiver, handles=(h,))


def pick_options(s: State, areas, exclude=None) -> list[tuple]:
    return [("pick", a, w) for a in areas for w in targets_in(s, a, exclude=exclude)]
