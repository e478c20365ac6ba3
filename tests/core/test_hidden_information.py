"""The engine is shaped for hidden information: an engine that knows only
one seat's cards asks the same questions in the same order as an engine
that knows everything, offers that seat the same options, and learns a
card only when the rules show it to that seat."""
from __future__ import annotations

import functools
import operator
import random

import pytest

from ankh.core.morpork.bots.random_bot import RandomBot
from ankh.core.morpork.setup import new_game
from ankh.core.morpork.model import Decision
from ankh.core.morpork.state import handles
from ankh.net.play.local import LocalTable

from .helpers import masked_answer


def play_pair(players: int, seed: int, viewer: int, watch=None):
    """Play one game twice over, the second engine knowing only what ``viewer``
    (a seat, or no seat: a spectator) is shown; ``watch(truth, seat)`` sees
    both engines before every step."""
    truth = new_game(players)
    seat = new_game(players)
    table = LocalTable(players, seed)
    bot = RandomBot(random.Random(seed))
    steps = 0
    while truth.outcome is None:
        if watch is not None:
            watch(truth, seat)
        d = truth.pending
        e = seat.pending
        if isinstance(d, Decision):
            assert isinstance(e, Decision), (steps, d, e)
            assert (e.seat, e.kind) == (d.seat, d.kind), (steps, d, e)
            if d.seat == viewer:
                assert e.options == d.options, "the seat's own options must not depend on others' cards"
            opt = bot.choose(truth, d)
            assert opt in e.options
            truth.choose(opt)
            seat.choose(opt)
        else:
            assert type(e) is type(d) and e == d, (steps, d, e)
            full = table.answer(d)
            truth.fulfil(full)
            seat.fulfil(masked_answer(d, full, viewer))
        steps += 1
        check_knowledge(truth, seat, viewer)
    assert seat.outcome == truth.outcome
    return truth, seat


def check_knowledge(truth, seat, viewer):
    # The seat's engine knows a card only if the viewer has seen it or it is public.
    public = set(seat.discard) | set(seat.in_play)
    for q in range(seat.players):
        public |= set(seat.loans[q]) | set(seat.penalties[q])
    for h, cid in enumerate(seat.card):
        if cid is not None:
            assert cid == truth.card[h]
    is_seat = viewer < seat.players
    seen = set(handles(truth.seen[viewer] if is_seat else functools.reduce(operator.and_, truth.seen)))
    if is_seat:
        for h in seat.hand[viewer]:
            assert seat.card[h] == truth.card[h], "a seat always knows its own hand"
    for q in range(seat.players):
        if q == viewer:
            continue
        for h in seat.hand[q]:
            if seat.card[h] is not None:
                assert h in seen, "the engine knows a card its viewer never saw"
    for h in seat.draw:
        assert seat.card[h] is None, "nobody knows the draw pile"
    for q in range(seat.players):
        ph = seat.personality[q]
        if (q != viewer and seat.outcome is None
                and not (is_seat and truth.sees_personality(viewer, ph))
                and not all(truth.sees_personality(x, ph) for x in range(seat.players))):
            assert seat.pers[ph] is None, "another seat's personality leaked"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seat_engine_asks_the_same_questions(players):
    for seed in range(12):
        play_pair(players, seed, viewer=seed % players)


def test_all_hidden_cards_stay_hidden_from_a_spectator_engine():
    # viewer 9 is no seat: a spectator learns only public cards.
    for seed in range(6):
        play_pair(3, seed, viewer=9)  # check_knowledge runs at every step


def test_a_spectator_engine_learns_at_the_end_the_personalities_every_seat_saw_privately():
    """Red looks at the unused personalities (Mrs Cake) and sees Commander
    Vimes; yellow then takes Vimes (Zorgo): each seat has seen Vimes, one by
    one, and the table never has.  The end of the game turns it face up, so a
    spectator's engine, and a replay of the public log, decide the same winner
    as the seats."""
    before_end = {}

    def watch(truth, spectator):
        if not truth.ending:
            vimes = truth.pers.index("commander-vimes") if "commander-vimes" in truth.pers else None
            before_end.update(vimes=vimes, seen=truth.pers_seen[:], held=truth.personality[:],
                              public=spectator.pers[vimes] if vimes is not None else None)

    truth, spectator = play_pair(2, 431, viewer=9, watch=watch)
    vimes = before_end["vimes"]
    assert vimes in before_end["held"] and all(mask >> vimes & 1 for mask in before_end["seen"])
    assert before_end["public"] is None  # seen by every seat, and never by the table
    assert truth.outcome.reason == "vimes" and spectator.outcome == truth.outcome
    assert spectator.pers[vimes] == "commander-vimes"
