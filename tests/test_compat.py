"""Files written by an earlier version of the program still work: records
replay to the same log and the same final state, a saved game against bots
loads from the Load list and plays on exactly as it would have, a networked
game's transcript verifies fair with the same report, and every seat of a
networked game killed mid-game carries on from its save to a fair end.
Logs of games whose end turned face up only the personalities some seat had
not seen (``vimes-*``) are read with the reveal they lack taken from their
audit: they verify with the same report, but for the result, which is now
the seats' own.

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


@pytest.mark.parametrize("record", ["record-midgame", "record-finished", "local-save", "vimes-record"])
@pytest.mark.parametrize("form", ["txt", "json"])
def test_an_old_record_replays_to_the_same_log_and_state(tmp_path: Path, record: str, form: str) -> None:
    r = ankh("replay", f"{record}.ankh", *(["--json"] if form == "json" else []), home=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert r.stdout == expected(f"{record}.replay.{form}")


def test_an_old_finished_transcript_verifies_fair_with_the_same_report(tmp_path: Path) -> None:
    from ankh.net.files.transcript import Transcript
    r = ankh("verify", "net-game.ankh", home=tmp_path)
    stdout = report_and_keys(r.stdout, Transcript.load(FIXTURES / "net-game.ankh"))
    assert (r.returncode, stdout) == (0, expected("net-game.verify.txt")), r.stderr
    from ankh.net.files.verify import verify_transcript
    report = verify_transcript(FIXTURES / "net-game.ankh")
    assert report.status == "fair" and report.fair and not report.violations
    assert str(report) + "\n" == expected("net-game.verify.txt")


@pytest.mark.parametrize("seat", SEATS)
def test_an_old_journal_verifies_as_the_same_game_in_progress(tmp_path: Path, seat: str) -> None:
    from ankh.net.files import journal
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
    from ankh.net.files.home import saves_dir
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
            session.choose(person.choose(session.game.state, nxt.decision), nxt.decision)
        session.save()
    old_header, old_moves = _header_and_moves((FIXTURES / "local-save.ankh").read_text(encoding="utf-8"))
    header, moves = _header_and_moves(path.read_text(encoding="utf-8"))
    want_header, want_moves = _header_and_moves(expected("local-save.finished.ankh"))
    assert header >= old_header and moves.startswith(old_moves) and moves == want_moves
    r = ankh("replay", str(path), "--json", home=tmp_path)
    assert r.returncode == 0 and r.stdout == expected("local-save.finished.replay.json"), r.stderr


def test_old_seats_killed_mid_game_carry_on_from_their_saves_to_a_fair_end(tmp_path: Path) -> None:
    """Each seat's home holds only its identity and its save folder, as the
    old version left them after ``kill -9``; the table resumes on its old port.
    (On the simulator: the real host and joiners, each loading its save as
    ``ankh host/join --load`` does.)"""
    from ankh.net.files import journal
    from ankh.net.io import sim

    from .net.simtable import exit_status, transcript, verify

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

    async def script(t: sim.Scene) -> list:
        await t.resume("host", saves["host"], bind="127.0.0.1")   # where the old table was
        for seat in SEATS[1:]:
            await t.resume(seat, saves[seat])
        return await t.results(*SEATS)

    t = sim.Scene(7, tmp_path / "sim", "morpork")
    t.homes.update({seat: tmp_path / seat for seat in SEATS})
    results = t.run(script)
    assert [exit_status(r) for r in results] == [0, 0, 0], [t.told[seat][-5:] for seat in SEATS]
    assert len({r.text for r in results}) == 1
    for seat in SEATS:
        path = transcript(t, seat)
        assert path.parent == saves[seat]
        rc, out = verify(path)
        assert rc == 0 and out.startswith("fair: 3 seats (host, joiner 1, joiner 2); "), out
        # the same game carried on: the journal kept every old step, in order, and went on
        after = journal.read((saves[seat] / "journal.ankh").read_bytes())[0]
        old = before[seat]
        assert after.roster == old.roster
        assert len(after.ops) > len(old.ops) and after.ops[:len(old.ops)] == old.ops


# -- games that ended before every personality the table had not seen was revealed ---------

VIMES_SEED = b"vimes45"  # the in-memory table's seat secrets (make_vimes.py)


def seats_result() -> str:
    return expected("vimes-net-game.result.txt").strip()


def as_the_seats_saw_it(old_report: str) -> str:
    """The old version's report with its result (decided on points: the public
    log never turned Commander Vimes face up) replaced by the seats' result."""
    wrong = "yellow wins on points, the draw pile ran out (red 75, yellow 88)"
    assert wrong in old_report and seats_result() == "red wins: Commander Vimes, the draw pile ran out"
    return old_report.replace(wrong, seats_result())


@pytest.mark.parametrize("name", ["vimes-net-game", "vimes-net-journal"])
def test_an_old_log_where_every_seat_saw_vimes_verifies_with_the_seats_result(tmp_path: Path, name: str) -> None:
    """Nothing else changes: the same steps, rolls, cards and keys."""
    r = ankh("verify", f"{name}.ankh", home=tmp_path)
    assert (r.returncode, r.stdout) == (0, as_the_seats_saw_it(expected(f"{name}.verify.old.txt"))), r.stderr


def test_an_old_log_where_every_seat_saw_vimes_gives_a_spectator_the_seats_result() -> None:
    from ankh.net.play.peer import Spectator, describe_outcome, replay
    from ankh.net.files.transcript import Transcript

    transcript = Transcript.load(FIXTURES / "vimes-net-game.ankh")
    public = replay(transcript.roster, transcript.frames())
    spectator = Spectator(transcript.roster)
    spectator.feed(transcript.frames())
    assert spectator.phase == "done"
    for engine in (public.engine, spectator.engine):
        assert describe_outcome(engine.outcome) == seats_result()
        assert engine.outcome.personalities == ("commander-vimes", "lord-selachii")


def test_seats_whose_old_journals_end_after_the_audit_agree_on_the_seats_result() -> None:
    """Both seats come back from the journal of a game whose audit is done (the
    final agreement on the log is all that is left) and finish it together."""
    from ankh.net.files import journal
    from ankh.net.play.peer import GamePeer, describe_outcome
    from ankh.net.play.seat import ANY_LINK, SeatProtocol

    from .net.star import Star, seat_secrets

    saved, _info = journal.read((FIXTURES / "vimes-net-journal.ankh").read_bytes())
    roster, secrets = seat_secrets(2, VIMES_SEED)
    assert roster == saved.roster
    peers = [GamePeer.resume(SeatProtocol(roster, s, relay=ANY_LINK if s.seat == 0 else 0), saved.frames())
             for s in secrets]
    assert all(p.audit is not None and p.audit.fair for p in peers)
    star = Star(peers)
    star.rejoin(1, peers[1])  # yellow comes back to the host: each hands the other what it lacks
    star.play([None, None])  # nothing is left to decide
    assert all(describe_outcome(p.engine.outcome) == seats_result() for p in peers)
    assert len({p.final_hash for p in peers}) == 1 and None not in {p.final_hash for p in peers}


@pytest.mark.parametrize("lang, says", [
    ("en", "was saved by an earlier version of ankh whose trades took several moves: this version cannot carry it on"),
    ("fr", "a été enregistrée par une version antérieure d'ankh, où un échange prenait plusieurs coups"),
])
def test_an_unfinished_guild_save_with_the_old_trade_moves_is_refused_with_a_clear_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, says: str) -> None:
    """A networked guild game saved when an offer took four moves (trade,
    give, want, to): today's rules read those moves as illegal and named a
    bot seat a cheat; the save is refused, saying why, and left as it is."""
    monkeypatch.setenv("ANKH_HOME", str(tmp_path))
    from ankh.net.io.savedir import DamagedSave, SaveDir
    from ankh.tui.i18n import set_language, translated
    from ankh.tui.session import list_saves, saves_dir

    set_language(lang)
    src = FIXTURES / "guilds-old-trades"
    folder = saves_dir() / "net-a79ceea38598"
    shutil.copytree(src / "save", folder)
    before = {f.name: f.read_bytes() for f in folder.iterdir()}
    (listed,) = list_saves()
    assert listed.path == folder and listed.game == ("The Guilds of Ankh-Morpork" if lang == "en"
                                                     else "Les Guildes d'Ankh-Morpork")
    with pytest.raises(DamagedSave) as refused:
        SaveDir(folder).load()
    try:
        assert says in translated(refused.value.args[0]), translated(refused.value.args[0])
    finally:
        set_language("en")
    assert {f.name: f.read_bytes() for f in folder.iterdir()} == before
