"""What one seat may see: :func:`view_for` is the only road from a
:class:`~ankh.core.morpork.state.State` to an interface or a bot that must not cheat.
A spectator's view (``viewer=None``) holds public information only.
"""
from __future__ import annotations

from dataclasses import dataclass

from .model import (
    AREA_IDS, AREA_NAMES, COLOURS, COST, NUM_AREAS, Decision, Outcome,
)
from .scoring import personality_progress, score, score_parts
from .notation import format_option
from .state import NOBODY, REMOVED, State


@dataclass(frozen=True, slots=True)
class AreaView:
    index: int
    id: str
    name: str
    cost: int
    minions: tuple[int, ...]      # per seat
    trolls: int
    demons: int
    trouble: bool
    building: int | None          # seat
    card: str                     # "display", "removed", or a colour (who holds the City Area card)
    controller: int | None


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    colour: str
    money: int
    minions_left: int
    buildings_left: int
    hand_size: int
    city_cards: tuple[int, ...]   # area indices
    loans: tuple[str, ...]
    penalties: tuple[str, ...]
    personality: str | None       # known to the viewer (own, revealed, or looked at)
    known_hand: tuple[str, ...]   # cards of this hand the viewer knows
    progress: tuple[int, int | None] | None  # (have, need) toward the known personality's win
    score: tuple[int, int, int, int]         # points now: minions, buildings, money, loans


@dataclass(frozen=True, slots=True)
class PlayerView:
    viewer: int | None
    players: int
    turn: int
    current: int
    areas: tuple[AreaView, ...]
    seats: tuple[SeatView, ...]
    hand: tuple[tuple[int, str], ...]          # (handle, card id) of the viewer's hand
    personality: str | None
    draw_size: int
    discard: tuple[str, ...]                   # top last
    events_left: int
    events_done: tuple[str, ...]
    decision: Decision | None                  # pending decision, if it is the viewer's
    option_texts: tuple[str, ...]              # the decision's options in record notation
    waiting_for: str                           # who or what the game waits for, in words
    outcome: Outcome | None
    unused_seen: tuple[str, ...] = ()          # unused personalities the viewer has looked at
    in_play: tuple[str, ...] = ()              # cards being played now, face up (last is the newest)

    def area(self, area_id: str) -> AreaView:
        return self.areas[AREA_IDS.index(area_id)]


def _known(s: State, viewer: int | None, h: int) -> str | None:
    if viewer is None:
        return None
    return s.card[h] if s.sees(viewer, h) else None


def view_for(s: State, viewer: int | None) -> PlayerView:
    n = s.players
    areas = []
    for a in range(NUM_AREAS):
        b = s.building[a]
        owner = s.city_owner[a]
        card = "removed" if owner == REMOVED else ("display" if owner == NOBODY else COLOURS[owner])
        c = s.controller(a)
        areas.append(AreaView(a, AREA_IDS[a], AREA_NAMES[a], COST[a], tuple(s.minions[a]),
                              s.trolls[a], s.demons[a], s.trouble[a],
                              None if b == NOBODY else b, card, None if c == NOBODY else c))
    seats = []
    for q in range(n):
        ph = s.personality[q]
        pid = s.pers[ph] if (viewer is not None and s.sees_personality(viewer, ph)) or all(
            s.sees_personality(x, ph) for x in range(n)) else None
        if viewer != q:
            known = tuple(c for c in (_known(s, viewer, h) for h in s.hand[q]) if c)
        else:
            known = tuple(s.card[h] or "?" for h in s.hand[q])
        seats.append(SeatView(q, COLOURS[q], s.money[q], s.supply[q], s.buildings_left[q],
                              len(s.hand[q]),
                              tuple(a for a in range(NUM_AREAS) if s.city_owner[a] == q),
                              tuple(s.card[h] or "?" for h in s.loans[q]),
                              tuple(s.card[h] or "?" for h in s.penalties[q]), pid, known,
                              personality_progress(s, q, pid) if pid else None,
                              score_parts(s, q)))
    hand = tuple((h, s.card[h] or "?") for h in s.hand[viewer]) if viewer is not None else ()
    d = s.pending
    mine = d if isinstance(d, Decision) and d.seat == viewer else None
    if s.outcome is not None:
        waiting = "the game is over"
    elif isinstance(d, Decision):
        waiting = f"{COLOURS[d.seat]}: {d.prompt}"
    else:
        waiting = "the table"
    return PlayerView(
        viewer=viewer, players=n, turn=s.turn, current=s.current, areas=tuple(areas),
        seats=tuple(seats), hand=hand,
        personality=seats[viewer].personality if viewer is not None else None,
        draw_size=len(s.draw), discard=tuple(s.card[h] or "?" for h in s.discard),
        events_left=len(s.event_deck),
        events_done=tuple(s.event[h] or "?" for h in s.events_done),
        decision=mine,
        option_texts=tuple(format_option(s, o) for o in mine.options) if mine else (),
        waiting_for=waiting, outcome=s.outcome,
        unused_seen=tuple(s.pers[h] for h in s.unused_pers
                          if viewer is not None and s.sees_personality(viewer, h) and s.pers[h]),
        in_play=tuple(s.card[h] or "?" for h in s.in_play),
    )


def _progress_json(s: State, q: int) -> dict | None:
    """Seat ``q``'s progress toward its personality's goal (Commander Vimes:
    the cards left in the draw pile, with no threshold)."""
    pid = s.pers[s.personality[q]]
    if pid is None:
        return None
    have, need = personality_progress(s, q, pid)
    return {"personality": pid, "have": have, "need": need}


def state_json(s: State, running_scores=()) -> dict:
    """The full state as plain data (``ankh replay --json``): everything this
    engine knows, hidden cards included; ``running_scores`` are ``(turn, seat
    or None at the end, scores)`` as the game went."""
    n = s.players
    areas = {}
    for a in range(NUM_AREAS):
        areas[AREA_IDS[a]] = {
            "minions": {COLOURS[q]: s.minions[a][q] for q in range(n) if s.minions[a][q]},
            "trolls": s.trolls[a], "demons": s.demons[a], "trouble": s.trouble[a],
            "building": None if s.building[a] == NOBODY else COLOURS[s.building[a]],
            "city_card": ("removed" if s.city_owner[a] == REMOVED else
                          None if s.city_owner[a] == NOBODY else COLOURS[s.city_owner[a]]),
            "controller": None if s.controller(a) == NOBODY else COLOURS[s.controller(a)],
        }
    players = {}
    for q in range(n):
        players[COLOURS[q]] = {
            "money": s.money[q],
            "hand": [s.card[h] or f"#{h}" for h in s.hand[q]],
            "personality": s.pers[s.personality[q]],
            "city_area_cards": [AREA_IDS[a] for a in range(NUM_AREAS) if s.city_owner[a] == q],
            "loans": [s.card[h] or f"#{h}" for h in s.loans[q]],
            "penalty_cards": [s.card[h] or f"#{h}" for h in s.penalties[q]],
            "minions_in_supply": s.supply[q],
            "buildings_in_supply": s.buildings_left[q],
            "progress": _progress_json(s, q),
            "score": score(s, q),
        }
    d = s.pending
    return {
        "players": n,
        "turn": s.turn,
        "current": COLOURS[s.current],
        "areas": areas,
        "seats": players,
        "draw_pile": len(s.draw),
        "discard_pile": len(s.discard),
        "discard": [s.card[h] or f"#{h}" for h in s.discard],
        "events_left": len(s.event_deck),
        "events_done": [s.event[h] for h in s.events_done],
        "waiting_for": None if s.outcome is not None else (
            {"seat": COLOURS[d.seat], "decision": d.kind,
             "options": [format_option(s, o) for o in d.options]}
            if isinstance(d, Decision) else {"request": type(d).__name__}),
        "outcome": s.outcome.to_json() if s.outcome else None,
        "running_scores": [
            {"turn": t, "current": None if q is None else COLOURS[q],
             "scores": {COLOURS[p]: x for p, x in enumerate(sc)}}
            for t, q, sc in running_scores],
    }
