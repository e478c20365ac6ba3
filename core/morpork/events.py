"""The twelve random events.

A random event threatens a player's own pieces; the owner of Small Gods may
pay $3 a piece (A9), and Susan, Igor and Fresh Start Club answer minion
removals.  Gaspode and Wallace Sonky never answer events (A7).  Players are
asked in turn order starting with the player who drew the event.

:data:`EVENT_HANDLERS` maps each event id to its handler.
"""
from __future__ import annotations

from typing import Callable, Final

from .model import ADJ, AREA_IDS, COLOURS, DEMON, RIVER, Reveal, RollDie, TROLL
from .state import NOBODY, REMOVED, State
from .board import arrive, depart, discard_from_draw, pick_options, remove_building
from .scoring import end_game
from .windows import remove_minion, t_do_remove, t_guard


EVENT_CAUSE: Final = ("event", None)


def in_turn_order(s: State, p: int) -> list[int]:
    return [(p + i) % s.players for i in range(s.players)]


def roll(s: State, purpose: str, fn, *args) -> None:
    s.request(RollDie(purpose), fn, *args)


def logroll(s: State, value: int, what: str, eid: str, seat: int | None = None) -> int:
    a = value - 1
    if s.narrate:
        s.log("roll", None, f"{what}: roll {value} ({AREA_IDS[a]})", roll=value, area=a, event=eid, target=seat)
    return a


def t_lose_building(s: State, a: int) -> None:
    if s.building[a] != NOBODY:
        q = s.building[a]
        remove_building(s, a)
        if s.narrate:
            s.log("building-lost", q, f"{COLOURS[q]}'s building in {AREA_IDS[a]} is destroyed", area=a)


def threaten_building(s: State, a: int) -> None:
    """Queue the loss of the building in ``a``, guarded by its owner's Small Gods."""
    q = s.building[a]
    if q == NOBODY:
        return
    s.push(t_lose_building, a)
    s.push(t_guard, q, "building", EVENT_CAUSE, a)


# --- the events --------------------------------------------------------------------------------


def the_dragon(s: State, p: int) -> None:
    roll(s, "the-dragon", r_dragon, p)


def r_dragon(s: State, value: int, p: int) -> None:
    a = logroll(s, value, "The Dragon", "the-dragon")
    s.push(t_clear_trouble, a)
    threaten_building(s, a)
    for _ in range(s.demons[a]):
        s.push(t_do_remove, a, DEMON)
    for _ in range(s.trolls[a]):
        s.push(t_do_remove, a, TROLL)
    for q in reversed(in_turn_order(s, p)):
        for _ in range(s.minions[a][q]):
            remove_minion(s, a, q, EVENT_CAUSE)


def t_clear_trouble(s: State, a: int) -> None:
    s.trouble[a] = False


def flood(s: State, p: int) -> None:
    roll(s, "flood", r_flood_first, p)


def r_flood_first(s: State, value: int, p: int) -> None:
    a = logroll(s, value, "Flood", "flood")
    roll(s, "flood", r_flood_second, p, a)


def r_flood_second(s: State, value: int, p: int, first: int) -> None:
    b = logroll(s, value, "Flood", "flood")
    flooded = frozenset(x for x in (first, b) if RIVER[x])
    for q in reversed(in_turn_order(s, p)):
        for a in sorted(flooded, reverse=True):
            for _ in range(s.minions[a][q]):
                s.push(t_flood_move, q, a, flooded)
                s.push(t_guard, q, "move", EVENT_CAUSE, a)


def t_flood_move(s: State, q: int, a: int, flooded) -> None:
    if not s.minions[a][q]:
        return
    # A22: any neighbour not flooded by this event, a rolled dry area included.
    dests = sorted(ADJ[a] - flooded)
    s.ask(q, "move", [("move", a, q, t) for t in dests],
          f"Flood: move your minion out of {AREA_IDS[a]}", r_flood_move, q)


def r_flood_move(s: State, opt, q: int) -> None:
    _, a, who, t = opt
    depart(s, a, who)
    arrive(s, t, who)
    if s.narrate:
        s.log("move", q, f"{COLOURS[q]} minion moves {AREA_IDS[a]} -> {AREA_IDS[t]}", area=t, source=a, who=q)


def fire(s: State, p: int) -> None:
    roll(s, "fire", r_fire, None)


def r_fire(s: State, value: int, last) -> None:
    a = logroll(s, value, "Fire", "fire")
    if (last is None or a in ADJ[last]) and s.building[a] != NOBODY:
        # A23: the next roll must border this site; a building saved by Small Gods
        # still lets the fire spread (A9).
        s.push(t_fire_roll, a)
        threaten_building(s, a)
    else:
        if s.narrate:
            s.log("event", None, "the fire dies out", event="fire", outcome="dies-out")


def t_fire_roll(s: State, last: int) -> None:
    roll(s, "fire", r_fire, last)


def fog(s: State, p: int) -> None:
    top = tuple(reversed(s.draw[-5:]))
    if top:
        s.request(Reveal("player", top), r_fog, top)


def r_fog(s: State, ids, top) -> None:
    discard_from_draw(s, top, ids)
    if s.narrate:
        s.log("fog", None, "fog discards " + ", ".join(ids), cards=tuple(ids), event="fog")
    if not s.draw:
        end_game(s, "draw-pile")  # A4: Fog taking the last card ends the game too


def riots(s: State, p: int) -> None:
    if s.trouble_count() >= 8:
        end_game(s, "riots")
    else:
        if s.narrate:
            s.log("event", None, f"only {s.trouble_count()} trouble markers: no riot", event="riots",
                  outcome="no-riot", amount=s.trouble_count())


def explosion(s: State, p: int) -> None:
    roll(s, "explosion", r_explosion)


def r_explosion(s: State, value: int) -> None:
    threaten_building(s, logroll(s, value, "Explosion", "explosion"))


def earthquake(s: State, p: int) -> None:
    roll(s, "earthquake", r_quake_first)


def r_quake_first(s: State, value: int) -> None:
    roll(s, "earthquake", r_quake_second, logroll(s, value, "Earthquake", "earthquake"))


def r_quake_second(s: State, value: int, first: int) -> None:
    b = logroll(s, value, "Earthquake", "earthquake")
    for a in sorted({first, b}, reverse=True):
        threaten_building(s, a)


def murders(s: State, p: int) -> None:
    for q in reversed(in_turn_order(s, p)):
        s.push(t_murder_roll, q)


def t_murder_roll(s: State, q: int) -> None:
    roll(s, "mysterious-murders", r_murder, q)


def r_murder(s: State, value: int, q: int) -> None:
    a = logroll(s, value, f"Mysterious Murders ({COLOURS[q]})", "mysterious-murders", q)
    opts = pick_options(s, [a])
    if opts:  # A24: any minion, the roller's own included; compulsory
        s.ask(q, "pick", opts, f"Mysterious Murders: remove a minion from {AREA_IDS[a]}",
              r_murder_pick, q)


def r_murder_pick(s: State, opt, q: int) -> None:
    _, a, who = opt
    if s.narrate:
        s.log("pick", q, f"{COLOURS[q]}: pick {AREA_IDS[a]} {who if isinstance(who, str) else COLOURS[who]}",
              area=a, who=who, event="mysterious-murders")
    if isinstance(who, str):
        s.push(t_do_remove, a, who)
    else:
        s.push(t_do_remove, a, who)
        s.push(t_guard, who, "remove", EVENT_CAUSE, a)


def _landing(s: State, p: int, piece: str, purpose: str, fn) -> None:
    roll(s, purpose, fn, p)


def t_land(s: State, a: int, piece: str) -> None:
    arrive(s, a, piece)
    if s.narrate:
        s.log("land", None, f"a {piece} lands in {AREA_IDS[a]}", area=a, who=piece)


def guard_landing(s: State, p: int, a: int, piece: str) -> None:
    """A9: a player with a piece there may pay Small Gods to keep the demon off
    the board (official FAQ) or the troll (not covered officially; the
    reference recommends the same treatment in A9 and events.json, against
    a contrary remark in its list of another implementation's deviations)."""
    s.push(t_land, a, piece)
    for q in reversed(in_turn_order(s, p)):
        if s.minions[a][q] or s.building[a] == q:
            s.push(t_guard, q, "land", EVENT_CAUSE, a)


def demons(s: State, p: int) -> None:
    for _ in range(4):
        s.push(t_neutral_roll, p, DEMON)


def trolls(s: State, p: int) -> None:
    for _ in range(3):
        s.push(t_neutral_roll, p, TROLL)


def t_neutral_roll(s: State, p: int, piece: str) -> None:
    roll(s, piece, r_neutral, p, piece)


def r_neutral(s: State, value: int, p: int, piece: str) -> None:
    guard_landing(s, p, logroll(s, value, piece.capitalize(), "trolls" if piece == TROLL else "demons-from-the-dungeon-dimensions"), piece)


def subsidence(s: State, p: int) -> None:
    for q in reversed(in_turn_order(s, p)):
        s.push(t_subsidence, q)


def t_subsidence(s: State, q: int) -> None:
    """A13: paying $2 a building is compulsory while affordable; the owner picks
    which unpaid buildings go."""
    owned = s.buildings_on_board(q)
    if not owned:
        return
    paid = min(len(owned), s.money[q] // 2)
    s.money[q] -= 2 * paid
    if s.narrate:
        s.log("pay", q, f"{COLOURS[q]} pays ${2 * paid} for subsidence", amount=2 * paid, event="subsidence")
    for _ in range(len(owned) - paid):
        s.push(t_subsidence_lose, q)


def t_subsidence_lose(s: State, q: int) -> None:
    s.ask(q, "area", [("area", a) for a in s.buildings_on_board(q)],
          "Subsidence: which building do you lose?", r_subsidence_lose)


def r_subsidence_lose(s: State, opt) -> None:
    t_lose_building(s, opt[1])


def bsj(s: State, p: int) -> None:
    roll(s, "bloody-stupid-johnson", r_bsj)


def r_bsj(s: State, value: int) -> None:
    a = logroll(s, value, "Bloody Stupid Johnson", "bloody-stupid-johnson")
    q = s.building[a]
    if q == NOBODY:
        return
    if s.minions[a][q]:
        remove_minion(s, a, q, EVENT_CAUSE)
    if s.city_owner[a] == q:
        s.push(t_bsj_card, a)
        s.push(t_guard, q, "card", EVENT_CAUSE, a)


def t_bsj_card(s: State, a: int) -> None:
    q = s.city_owner[a]
    s.city_owner[a] = REMOVED
    if s.narrate:
        s.log("card-lost", None, f"the {AREA_IDS[a]} City Area card leaves the game", area=a, target=q)



EVENT_HANDLERS: dict[str, Callable[[State, int], None]] = {
    "the-dragon": the_dragon,
    "flood": flood,
    "fire": fire,
    "fog": fog,
    "riots": riots,
    "explosion": explosion,
    "earthquake": earthquake,
    "mysterious-murders": murders,
    "demons-from-the-dungeon-dimensions": demons,
    "trolls": trolls,
    "subsidence": subsidence,
    "bloody-stupid-johnson": bsj,
}
