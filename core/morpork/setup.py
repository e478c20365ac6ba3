"""Starting a game: the personalities dealt, the starting hands drawn, the first
player picked, and a scenario's position (:class:`ankh.core.morpork.record.Position`)
laid out.  Work still to do lives on ``State.stack`` (see :mod:`ankh.core.morpork.state`).
"""
from __future__ import annotations

from .model import CARD, COLOURS, DealCard, EVENT, MalformedAction, PickRandom, Reveal
from .record import check_position
from .state import NOBODY, REMOVED, State
from .board import discard_from_draw, put_building, remove_building, reveal, t_draw
from .turn import t_start_turn


# --- starting a game ------------------------------------------------------------------------


def new_game(players: int, position=None) -> State:
    """A new game, waiting for its first setup request (personality deal).

    ``position`` (a :class:`ankh.core.morpork.record.Position`) replaces the
    rulebook's starting position once the cards are dealt: scenarios."""
    if position is not None:
        problem = check_position(position, players)
        if problem:
            raise MalformedAction(f"impossible position: {problem}")
    s = State.new(players)
    s.push(t_first_player, position)
    sizes = position.hand_sizes if position is not None else {}
    for p in reversed(range(players)):
        s.push(t_draw, p, sizes.get(p, 5))
    s.push(t_deal_personality, 0)
    s.run()
    return s


def t_deal_personality(s: State, i: int) -> None:
    if i >= s.players:
        return
    s.push(t_deal_personality, i + 1)
    s.request(DealCard("personality", (s.personality[i],), i), r_personality_dealt, i)


def r_personality_dealt(s: State, ids, i: int) -> None:
    h = s.personality[i]
    if ids[0] is not None:
        s.pers[h] = ids[0]
    s.pers_seen[i] |= 1 << h


def t_first_player(s: State, position) -> None:
    s.request(PickRandom(tuple(range(s.players)), 1, "first player"), r_first_player, position)


def r_first_player(s: State, picked, position) -> None:
    first = picked[0]
    if s.narrate:
        s.log("setup", first, f"{COLOURS[first]} goes first")
    s.push(t_start_turn, first)
    if position is not None and not position.is_empty():
        s.push(t_position, position)


def t_position(s: State, pos) -> None:
    """Set up a scenario's position (areas listed replace their content)."""
    for a, st in pos.areas.items():
        for q in range(s.players):
            s.supply[q] += s.minions[a][q] - st.minions[q]
        s.minions[a] = tuple(st.minions[q] for q in range(s.players))
        s.trolls[a], s.demons[a], s.trouble[a] = st.trolls, st.demons, st.trouble
        if s.building[a] != NOBODY:
            remove_building(s, a)
        if st.building is not None:
            put_building(s, st.building, a)
    for a in pos.out_of_play:
        s.city_owner[a] = REMOVED
    s.gained = 0
    for q, m in pos.money.items():
        s.money[q] = m
    s.push(t_position_trim, pos)
    s.push(t_position_events, pos)
    s.push(t_position_cards, pos)


def t_position_cards(s: State, pos) -> None:
    """Cards in front of players (loans, penalty cards), then the discard pile,
    face up from the top of the draw pile."""
    k = min(len(pos.cards_from_draw()), len(s.draw))
    if k:
        taken = tuple(s.draw[-1:-k - 1:-1])
        s.request(Reveal("player", taken), r_position_cards, pos, taken)


def r_position_cards(s: State, ids, pos, taken) -> None:
    owners = [q for q in sorted(pos.front) for _ in pos.front[q]]
    for i, (h, cid) in enumerate(zip(taken, ids)):
        reveal(s, h, cid)
        s.draw.remove(h)
        if i >= len(owners):
            s.discard.append(h)
        elif CARD[cid].get("effect") == "take_loan":
            s.loans[owners[i]] += (h,)
        else:
            s.penalties[owners[i]] += (h,)


def t_position_events(s: State, pos) -> None:
    k = min(len(pos.events_drawn), len(s.event_deck))
    if k:
        s.request(Reveal("event", tuple(s.event_deck[-1:-k - 1:-1])), r_position_events)


def r_position_events(s: State, ids) -> None:
    """Random events drawn before the position: face up, not carried out again."""
    for eid in ids:
        if eid not in EVENT:
            raise MalformedAction(f"unknown event {eid!r}")
        h = s.event_deck.pop()
        s.event[h] = eid
        s.events_done.append(h)


def t_position_trim(s: State, pos) -> None:
    if pos.draw_pile is not None and len(s.draw) > pos.draw_pile:
        gone = tuple(reversed(s.draw[:len(s.draw) - pos.draw_pile]))
        s.request(Reveal("player", gone), r_position_discard, gone)


def r_position_discard(s: State, ids, gone) -> None:
    discard_from_draw(s, gone, ids)
