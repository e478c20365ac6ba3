"""Offline verification of saved games: ``verify_transcript`` and ``main``."""

from __future__ import annotations

from pathlib import Path

import pytest
from ankh.net import verify
from ankh.net.ops import Roll
from ankh.net.transcript import Transcript

from .nethelp import decode, identity, resign, small_decks, swap_scalar, table


@pytest.fixture(scope="module")
def finished() -> tuple:
    t = table(3, seed=b"verify", decks=small_decks())
    for s in range(3):
        t.deal("player", s, 2)
    t.roll("fire")
    t.pick(1, 2, "steal")
    t.reveal("player", [0])
    t.draw("personalities")
    t.look("player", [1], 0)
    t.audit()
    return t, t.transcript()


def test_fair_game(finished: tuple, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t, transcript = finished
    report = verify.verify_transcript(transcript.to_bytes())
    assert report.fair and report.audited
    assert (report.seats, report.rolls, report.dealt, report.revealed) == (t.names, 2, 6, 2)
    assert report.decks == (("player", 12), ("personalities", 7))
    path = tmp_path / "game.ankh"
    transcript.save(path)
    assert verify.verify_transcript(path) == report
    assert verify.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("fair: 3 seats (Ann, Bob, Cat)") and "2 rolls" in out and "player (12)" in out


def test_tampered_key_is_named(finished: tuple, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t, transcript = finished
    ops = [list(op) for op in transcript.ops]
    # find the reveal step and give Bob's key a wrong value, signed by Bob
    index = next(i for i, op in enumerate(ops) if decode(op[0])["body"]["op"]["t"] == "reveal")
    frame = ops[index][0]
    assert decode(frame)["from"] == 0
    ops[index][0] = resign(frame, identity(t, 0), lambda b: b.__setitem__("k", swap_scalar(b["k"], 0, 42)))
    report = verify.verify_transcript(Transcript(t.roster, ops).to_bytes())
    assert not report.fair
    assert [(v.seat, v.name) for v in report.violations] == [(0, "Ann")]
    assert "wrong key" in report.violations[0].message
    path = tmp_path / "bad.ankh"
    Transcript(t.roster, ops).save(path)
    assert verify.main([str(path)]) == 1
    assert capsys.readouterr().out.startswith("violation: Ann (seat 0): message")


def test_forged_or_reordered_messages(finished: tuple) -> None:
    t, transcript = finished
    ops = [list(op) for op in transcript.ops]
    flipped = bytearray(ops[2][1])  # a frame of the first challenge round
    flipped[20] ^= 1
    ops[2][1] = bytes(flipped)
    report = verify.verify_transcript(Transcript(t.roster, ops).to_bytes())
    assert not report.fair and report.violations[0].seat is None
    assert "not authentic" in report.violations[0].message
    ops = [list(op) for op in transcript.ops]
    ops[2], ops[3] = ops[3], ops[2]
    report = verify.verify_transcript(Transcript(t.roster, ops).to_bytes())
    assert not report.fair and report.violations[0].seat is None
    assert "out of place" in report.violations[0].message


def test_unfinished_step_names_the_stalled_seat() -> None:
    t = table(3, seed=b"verify-stall", decks=small_decks())
    for s in t.seats:
        s.request(Roll("never settled"))
    frames = [f for s in (0, 2) for f in t.seats[s].data_to_send()]
    transcript = t.transcript()
    transcript.ops.append(frames)
    report = verify.verify_transcript(transcript.to_bytes())
    assert [(v.seat, v.name) for v in report.violations] == [(1, "Bob")]
    assert "stalled" in report.violations[0].message
    assert not report.audited and "no end-of-game audit" in report.summary()


def test_garbage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for data in (b"", b"\x00" * 100, b"not msgpack at all", Transcript.__name__.encode()):
        report = verify.verify_transcript(data)
        assert not report.fair and "unreadable" in report.violations[0].message
    assert verify.main([str(tmp_path / "missing.ankh")]) == 2
    assert verify.main([]) == 2
    capsys.readouterr()
