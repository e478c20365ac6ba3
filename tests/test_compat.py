"""Files written by an earlier version of the program still work: records
replay to the same log and the same final state, a saved game against bots
loads from the Load list and plays on exactly as it would have, a networked
game's transcript verifies fair with the same report, and every seat of a
networked game killed mid-game carries on from its save to a fair end.

The files are in ``tests/fixtures/compat/`` (see its README): they were
written once by that version and are never written again."""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .net.procs import Peers

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "compat"
EXPECTED = FIXTURES / "expected"
SEATS = ("host", "join1", "join2")


def ankh(*args: str, home: Path) -> subprocess.CompletedProcess:
    """The ``ankh`` command, in English, with its own home."""
    env = dict(os.environ, ANKH_HOME=str(home), LC_ALL="C.UTF-8", LANG="C.UTF-8")
    env.pop("LANGUAGE", None)
    return subprocess.run([sys.executable, "-m", "ankh.tui.cli", *args], capture_output=True, text=True, env=env,
                          cwd=FIXTURES, timeout=300)


def expected(name: str) -> str:
    return (EXPECTED / name).read_text(encoding="utf-8")


def report_and_keys(stdout: str, transcript) -> str:
    """``ankh verify``'s report, after checking the lines that follow it name
    every seat's key (printed since that version: the report itself is as it was)."""
    lines = stdout.splitlines(keepends=True)
    keys = [f"  seat {s}: {n}, key {transcript.roster.fingerprint(s)}\n" for s, n in enumerate(transcript.roster.names)]
    assert lines[-len(keys):] == keys, stdout
    return "".join(lines[:-len(keys)])


@pytest.mark.parametrize("record", ["record-midgame", "record-finished", "local-save"])
@pytest.mark.parametrize("form", ["txt", "json"])
def test_an_old_record_replays_to_the_same_log_and_state(tmp_path: Path, record: str, form: str) -> None:
    r = ankh("replay", f"{record}.ankh", *(["--json"] if form == "json" else []), home=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert r.stdout == expected(f"{record}.replay.{form}")


def test_an_old_finished_transcript_verifies_fair_with_the_same_report(tmp_path: Path) -> None:
    from ankh.net.transcript import Transcript
    r = ankh("verify", "net-game.ankh", home=tmp_path)
    stdout = report_and_keys(r.stdout, Transcript.load(FIXTURES / "net-game.ankh"))
    assert (r.returncode, stdout) == (0, expected("net-game.verify.txt")), r.stderr
    from ankh.net.verify import verify_transcript
    report = verify_transcript(FIXTURES / "net-game.ankh")
    assert report.status == "fair" and report.fair and not report.violations
    assert str(report) + "\n" == expected("net-game.verify.txt")


@pytest.mark.parametrize("seat", SEATS)
def test_an_old_journal_verifies_as_the_same_game_in_progress(tmp_path: Path, seat: str) -> None:
    from ankh.net import journal
    r = ankh("verify", f"net-midgame/{seat}/save/journal.ankh", home=tmp_path)
    transcript = journal.read((FIXTURES / f"net-midgame/{seat}/save/journal.ankh").read_bytes())[0]
    stdout = report_and_keys(r.stdout, transcript)
    assert (r.returncode, stdout) == (3, expected(f"net-midgame-{seat}.verify.txt")), r.stderr


def _header_and_moves(text: str) -> tuple[set[str], str]:
    header, _sep, moves = text.partition("\n\n")
    return set(header.splitlines()), moves


def test_an_old_save_loads_from_the_load_list_and_plays_on_as_it_would_have(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANKH_HOME", str(tmp_path))
    from ankh.net.home import saves_dir
    from ankh.tui.bots import make_bot
    from ankh.tui.i18n import set_language
    from ankh.tui.session import GameSession, list_saves

    set_language("en")
    saves_dir().mkdir(parents=True)
    path = saves_dir() / "2026-11-26-120000.ankh"
    shutil.copy(FIXTURES / "local-save.ankh", path)

    (listed,) = list_saves()
    assert (listed.path, listed.ok, listed.summary) == (path, True, "3 players · you: red · turn 12")

    session = GameSession.load(path)
    assert session.people == [0] and {s: b.kind for s, b in session.bots.items()} == {1: "heuristic",
                                                                                   2: "heuristic"}
    assert [e.text + "\n" for e in session.log] == expected("local-save.replay.txt").splitlines(keepends=True)

    # Played on as the game screen plays (bots think on a copy, the save is
    # written after every change), with the person choosing as when the save
    # was made: the game ends exactly as the original did.
    while (nxt := session.next()).kind != "over":
        if nxt.kind == "bot":
            assert session.apply_bot(nxt, session.think_job(nxt)())
        else:
            person = make_bot("random", random.Random(f"person:{session.ply}"))
            session.choose(person.choose(session.game.state, nxt.decision))
        session.save()
    old_header, old_moves = _header_and_moves((FIXTURES / "local-save.ankh").read_text(encoding="utf-8"))
    header, moves = _header_and_moves(path.read_text(encoding="utf-8"))
    want_header, want_moves = _header_and_moves(expected("local-save.finished.ankh"))
    assert header >= old_header and moves.startswith(old_moves) and moves == want_moves
    r = ankh("replay", str(path), "--json", home=tmp_path)
    assert r.returncode == 0 and r.stdout == expected("local-save.finished.replay.json"), r.stderr


def test_old_seats_killed_mid_game_carry_on_from_their_saves_to_a_fair_end(tmp_path: Path) -> None:
    """Each seat's home holds only its identity and its save folder, as the
    old version left them after ``kill -9``; the table resumes on its old port."""
    from ankh.net import journal

    saves = {}
    for seat in SEATS:
        home = tmp_path / seat
        home.mkdir(mode=0o700)
        shutil.copy(FIXTURES / "net-midgame" / seat / "identity.key", home / "identity.key")
        saves[seat] = home / "saves" / "net-compat"
        shutil.copytree(FIXTURES / "net-midgame" / seat / "save", saves[seat])
        for f in [home / "identity.key", *saves[seat].iterdir()]:
            f.chmod(0o600)
    before = {seat: journal.read((saves[seat] / "journal.ankh").read_bytes())[0] for seat in SEATS}

    peers = Peers()
    try:
        host = peers.start(["host", "--headless", "--bot", "random", "--seed", "7", "--bind", "127.0.0.1",
                            "--load", str(saves["host"])], tmp_path / "host")
        joiners = [peers.start(["join", "--headless", "--bot", "random", "--seed", str(7 + i),
                                "--load", str(saves[seat])], tmp_path / seat) for i, seat in enumerate(SEATS[1:], 1)]
        everyone = [host, *joiners]
        assert [p.finish() for p in everyone] == [0, 0, 0], [p.lines[-5:] for p in everyone]
        assert len({p.result for p in everyone}) == 1
        for seat, p in zip(SEATS, everyone):
            transcript = p.value("transcript:")
            assert Path(transcript).parent == saves[seat]
            r = ankh("verify", transcript, home=tmp_path)
            assert r.returncode == 0 and r.stdout.startswith("fair: 3 seats (host, joiner 1, joiner 2); "), r.stdout
            # the same game carried on: the journal kept every old step, in order, and went on
            after = journal.read((saves[seat] / "journal.ankh").read_bytes())[0]
            old = before[seat]
            assert after.roster == old.roster
            assert len(after.ops) > len(old.ops) and after.ops[:len(old.ops)] == old.ops
    finally:
        peers.stop_all()
