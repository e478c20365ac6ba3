"""A new game of the guild variant (:func:`new_state`) and its setup: the
first player, two rounds of houses and a third, the start cards; on top of
the turn (:mod:`.turn`).  The package's docstring tells how the rules are
laid out and run.
"""
from __future__ import annotations

from ..game import COLOURS, IllegalAction, PickRandom, fast_new
from .board import NUM_VERTICES, RESOURCES, VERTEX_GUILDS, VERTEX_IDS
from .state import EMPTY, HOUSE, State
from .pieces import R, gain, put_building
from .turn import t_turn_start


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
