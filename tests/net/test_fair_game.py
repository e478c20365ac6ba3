"""Whole games of random bots through the fairness protocol, in memory: every
seat runs its own rules engine, the engines agree on every question, and each
seat's keys unlock exactly the cards the rules show it."""
from __future__ import annotations

import random

import pytest

from ankh.core.bots.random_bot import RandomBot
from ankh.core.model import Decision
from ankh.net import verify
from ankh.net.fair_game import FairGame

DECKS = ("player", "personality", "event")


def check_knowledge(g: FairGame) -> None:
    t = g.table
    for s, engine in enumerate(g.engines):
        # The engine knows a card exactly when the seat's own keys unlock it.
        for h, cid in enumerate(engine.card):
            assert t.known(s, "player", h) == cid, (s, h)
        for h, pid in enumerate(engine.pers):
            assert t.known(s, "personality", h) == pid, (s, h)
        # ... and that is what the rules allow: the draw pile is secret from all,
        # another hand only where this seat was shown the card.
        for h in engine.draw:
            assert t.known(s, "player", h) is None
        for q, hand in enumerate(engine.hand):
            for h in hand:
                if q == s:
                    assert t.known(s, "player", h) is not None, "a seat can read its own hand"
                elif t.known(s, "player", h) is not None:
                    assert engine.sees(s, h), "a seat decrypted a card the rules never showed it"
        if engine.outcome is None:
            for q in range(g.players):
                ph = engine.personality[q]
                if q != s and not engine.sees_personality(s, ph):
                    assert t.known(s, "personality", ph) is None, "a personality leaked"
        for h in engine.event_deck:
            assert t.known(s, "event", h) is None, "the event deck order leaked"


def play_checked(players: int, seed: int) -> FairGame:
    g = FairGame(players, seed=b"test-%d-%d" % (players, seed))
    g.play([RandomBot(random.Random(seed * 10 + p)) for p in range(players)],
           after_step=check_knowledge)
    return g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games_through_the_protocol(players, tmp_path):
    g = play_checked(players, seed=1)
    outcomes = {e.outcome for e in g.engines}
    assert len(outcomes) == 1, "every seat's engine reaches the same end"
    audit = g.table.audit()
    assert audit.fair and not audit.violations
    # the public transcript, saved and audited offline, is fair too
    path = tmp_path / "game.ankh"
    g.table.transcript().save(path)
    assert verify.main([str(path)]) == 0


def test_each_seat_decides_with_its_own_knowledge_only():
    g = FairGame(3, seed=b"own-knowledge")
    while not isinstance(g.pending, Decision) or g.pending.kind != "turn":
        d = g.pending
        if isinstance(d, Decision):
            g.choose(d.options[0])
        else:
            g.fulfil()
    seat = g.pending.seat
    own = g.engines[seat].pending
    other = g.engines[(seat + 1) % 3].pending
    # the player to move sees card names; the others see only handles, plus "pass"
    assert all(g.engines[seat].card[o[1]] is not None for o in own.options if o[0] == "play")
    assert ("pass",) in other.options
    assert all(g.engines[(seat + 1) % 3].card[o[1]] is None for o in other.options if o[0] == "play")


def test_ankh_verify_audits_a_saved_game(tmp_path):
    import subprocess
    import sys
    g = FairGame(2, seed=b"cli")
    g.play([RandomBot(random.Random(p)) for p in range(2)])
    g.table.audit()
    path = tmp_path / "game.ankh"
    g.table.transcript().save(path)
    out = subprocess.run([sys.executable, "-m", "ankh.tui.cli", "verify", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.startswith("fair"), out.stdout + out.stderr
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x40
    path.write_bytes(bytes(data))
    out = subprocess.run([sys.executable, "-m", "ankh.tui.cli", "verify", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert out.stdout.startswith("violation:") and "seat 1" in out.stdout
