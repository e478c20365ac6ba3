"""A bot that holds a seat at a networked table (``ankh join --bot`` and a
hosted table's bot seats) is asked every decision that is a choice: an
answer to a trade offer whose one listed option is ``decline`` still allows
a counter (its decision carries a space of moves), so the bot decides it."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace

from ankh.core.game import Decision
from ankh.core.guilds.offers import OfferSpace, counter_option
from ankh.tui import headless, netplay

COUNTER = counter_option((0, 0, 0, 1, 0, 0), (1, 0, 0, 0, 0, 0))
SPACE = OfferSpace(1, "counter", (0, 0, 0, 1, 0, 0), (1, 0, 0, 0, 0, 0), (0,), (),
                   (0, (1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0)), 0)
ANSWER = Decision(1, "answer", (("decline",),), "red offers 1 brick for 1 ore", SPACE)
ONLY = Decision(1, "answer", (("decline",),), "red offers 1 brick for 1 ore")


class Counters:
    def choose(self, state, decision):
        return COUNTER


def peer():
    return SimpleNamespace(me=1, game=None, engine=SimpleNamespace(copy=lambda: None))


def test_a_headless_bot_seat_counters_where_only_decline_is_listed(monkeypatch):
    monkeypatch.setattr(headless, "make_bot", lambda kind, rng, game=None: Counters())
    decide = headless._bot_decider("heuristic", 1)
    assert asyncio.run(decide(peer(), ANSWER)) == COUNTER
    assert asyncio.run(decide(peer(), ONLY)) == ("decline",)       # forced: no space


def test_a_hosted_table_s_bot_seat_counters_where_only_decline_is_listed(monkeypatch):
    monkeypatch.setattr(netplay, "make_bot", lambda kind, rng, game=None: Counters())
    session = netplay.NetSession(advertise=False)
    assert asyncio.run(session._bot(peer(), ANSWER)) == COUNTER
    assert asyncio.run(session._bot(peer(), ONLY)) == ("decline",)
