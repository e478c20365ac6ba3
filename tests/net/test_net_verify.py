"""Offline verification of saved games: ``verify_transcript`` and ``main``."""

from __future__ import annotations

from pathlib import Path

import pytest
from ankh.net.files import verify
from ankh.net.play.ops import Roll
from ankh.net.files.transcript import Transcript

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


def test_verify_names_the_key_of_every_seat(finished: tuple, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A game made up by someone else, with the same names but signed with
    fresh keys, verifies as fair too: what tells it apart is the key each seat
    signed with, which ``ankh verify`` prints by seat."""
    t, transcript = finished
    forged = table(3, seed=b"made up", decks=small_decks())
    for s in range(3):
        forged.deal("player", s, 2)
    forged.audit()
    assert forged.names == t.names
    printed = []
    for name, tr in (("real", transcript), ("forged", forged.transcript())):
        path = tmp_path / f"{name}.ankh"
        tr.save(path)
        assert verify.main([str(path)]) == 0
        out = capsys.readouterr().out
        assert out.startswith("fair: ")
        printed.append(out)
        for seat, who in enumerate(tr.roster.names):
            assert f"seat {seat}: {who}, key {tr.roster.fingerprint(seat)}" in out
    real_keys = {transcript.roster.fingerprint(s) for s in range(3)}
    assert not any(fp in printed[1] for fp in real_keys)


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
    assert capsys.readouterr().out.startswith(f"violation: Ann (seat 0, {t.roster.fingerprint(0)}): message")


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


def test_game_saved_in_the_middle_of_a_step_is_incomplete_not_fair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = table(3, seed=b"verify-stall", decks=small_decks())
    t.wire = lambda f, s, r: None if s == 1 else f  # Bob's part never arrives
    for s in t.seats:
        s.request(Roll("never settled"))
    t._pump()
    transcript = t.transcript(0)
    assert len(transcript.pending) == 2  # Ann's and Cat's parts are saved
    path = tmp_path / "mid-step.ankh"
    transcript.save(path)
    report = verify.verify_transcript(path)
    assert report.violations == () and not report.fair and report.status == "incomplete"
    assert "waits for Bob (seat 1" in str(report) and str(report).startswith("incomplete: ")
    assert verify.main([str(path)]) == 3
    assert capsys.readouterr().out.startswith("incomplete: 3 seats")
    # a pending frame is checked like any other
    bad = Transcript(t.roster, transcript.ops, [transcript.pending[0], transcript.pending[0]])
    assert verify.verify_transcript(bad.to_bytes()).status == "violation"


def test_clean_game_without_its_audit_is_incomplete(finished: tuple, tmp_path: Path) -> None:
    t, transcript = finished
    path = tmp_path / "unaudited.ankh"
    Transcript(t.roster, transcript.ops[:-1]).save(path)
    report = verify.verify_transcript(path)
    assert report.violations == () and not report.audited and report.status == "incomplete"
    assert "no end-of-game audit" in str(report)
    assert verify.main([str(path)]) == 3


def test_garbage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for data in (b"", b"\x00" * 100, b"not msgpack at all", Transcript.__name__.encode()):
        report = verify.verify_transcript(data)
        assert not report.fair and "unreadable" in report.violations[0].message
    assert verify.main([str(tmp_path / "missing.ankh")]) == 2
    assert verify.main([]) == 2
    capsys.readouterr()


def test_verifier_reads_a_huge_file_in_bounded_memory(finished: tuple, tmp_path: Path) -> None:
    import tracemalloc

    t, transcript = finished
    path = tmp_path / "huge.ankh"
    junk = b"\x00" * 600
    # 100,000 steps of junk: 60 MB that a whole-file decoder would hold at once
    header = Transcript(t.roster, []).to_bytes()
    body = header[: header.index(b"\xa3ops") + 4]
    with open(path, "wb") as fh:
        fh.write(body + b"\xdd" + (100_000).to_bytes(4, "big"))
        step = b"\x91\xc5" + len(junk).to_bytes(2, "big") + junk
        for _ in range(100):
            fh.write(step * 1000)
        fh.write(b"\xa1v\x01")
    assert path.stat().st_size > 60_000_000
    tracemalloc.start()
    try:
        report = verify.verify_transcript(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.status == "violation" and "not authentic" in report.violations[0].message
    assert peak < 4_000_000, peak


COMPAT = Path(__file__).resolve().parents[1] / "fixtures" / "compat"


@pytest.mark.parametrize("data", [b"", b"\x00" * 100, b"game: morpork\nplayers: 3\n", bytes(range(256))])
def test_a_file_that_is_no_transcript_cannot_be_read(data: bytes, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.ankh"
    path.write_bytes(data)
    assert verify.main([str(path)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_save_folder_is_verified_as_its_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "finished").mkdir()
    (tmp_path / "finished" / "game.ankh").write_bytes((COMPAT / "net-game.ankh").read_bytes())
    assert verify.main([str(tmp_path / "finished")]) == 0
    assert capsys.readouterr().out.startswith("fair:")
    journal = COMPAT / "net-midgame" / "host" / "save" / "journal.ankh"
    (tmp_path / "playing").mkdir()
    (tmp_path / "playing" / "journal.ankh").write_bytes(journal.read_bytes())
    assert verify.main([str(tmp_path / "playing")]) == 3
    assert capsys.readouterr().out.startswith("incomplete:")


def test_a_journal_cut_short_says_so_and_is_read_to_its_last_whole_step(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole = (COMPAT / "net-midgame" / "host" / "save" / "journal.ankh").read_bytes()
    path = tmp_path / "journal.ankh"
    path.write_bytes(whole)
    assert verify.main([str(path)]) == 3
    assert "cut short" not in capsys.readouterr().out
    path.write_bytes(whole[:-7])
    assert verify.main([str(path)]) == 3
    out = capsys.readouterr().out
    assert "ends in a record cut short" in out and out.splitlines()[1].startswith("incomplete:")
