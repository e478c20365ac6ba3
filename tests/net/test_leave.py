"""A seat that leaves for good, between real ``ankh`` processes on loopback:
nobody can take over its secret cards, so the seats still there end the table
by their signed agreement (a majority of them), the end is saved with the
log, and ``ankh verify`` says the game was abandoned, who left and who ended
it, with the scores as they stood."""
from __future__ import annotations

import signal
import sys
from pathlib import Path

from .procs import Peers
from .test_lan import peers, verify  # noqa: F401  (the fixture that stops every process, and ankh verify)


def table_of_three(peers: Peers, tmp_path: Path, *waits: str, seed: int = 5):
    host = peers.start(["host", "--headless", "--bot", "random", "--seats", "3", "--bind", "127.0.0.1",
                        "--no-advertise", "--seed", str(seed), "--name", "host", "--agree-to-end", *waits],
                       tmp_path / "host")
    port = host.value("listening on port")
    return host, port


def join(peers: Peers, tmp_path: Path, host, port: str, n: int, seed: int, *, prefix: list[str] | None = None):
    """Joiner ``n`` sits at seat ``n`` (the next one starts once it sat)."""
    joiner = peers.start(["join", f"127.0.0.1:{port}", "--headless", "--bot", "random", "--seed", str(seed),
                          "--name", f"joiner {n}", "--agree-to-end"], tmp_path / f"join{n}", prefix=prefix)
    host.wait_for(lambda l: l.startswith(f"joiner {n} sits at seat {n + 1}"), timeout=60)
    return joiner


def check_abandoned(everyone, gone: str) -> None:
    """Every seat still there ends alike, saves the end, and the transcript and
    the journal both verify as abandoned, naming who left and who ended it."""
    assert [p.finish() for p in everyone] == [1] * len(everyone)
    results = {p.result for p in everyone}
    assert len(results) == 1, results
    (result,) = results
    assert result.startswith(f"result: abandoned: red and yellow say {gone} left the game, and ended the table; "
                             "scores as they stand: red "), result
    for p in everyone:
        transcript = p.value("transcript:")
        report = verify(transcript)
        assert report.returncode == 4, report.stdout + report.stderr
        out = report.stdout
        assert out.startswith("abandoned: host (seat 0, "), out
        assert " and joiner 1 (seat 1, " in out and " say joiner 2 (seat 2, " in out, out
        assert "left the game at step" in out and "and ended the table (2 of the 2 seats left, 2 needed)" in out, out
        assert "scores as they stand: red " in out and "rules replayed:" in out, out
        journal = verify(str(Path(transcript).with_name("journal.ankh")))
        assert journal.returncode == 4 and journal.stdout == out, journal.stdout


def test_a_seat_killed_for_good_is_ended_by_the_others_agreement(peers: Peers, tmp_path: Path) -> None:
    """... and spectators, through the host and through a joiner's watch point,
    are sent the votes after the whole log, check them against the log they
    followed and say the same."""
    host, port = table_of_three(peers, tmp_path, "--gone-after", "3")
    one, two = join(peers, tmp_path, host, port, 1, 6), join(peers, tmp_path, host, port, 2, 7)
    watchers = [peers.start(["watch", at, "--headless"], tmp_path / f"watch{i}")
                for i, at in enumerate((f"127.0.0.1:{port}", one.value("spectators can watch through")))]
    two.wait_for(lambda l: l.startswith("turn 3:"), timeout=180)
    two.kill()  # for good: it never comes back
    host.wait_for(lambda l: l.startswith("away: green (link down"), timeout=60)
    one.wait_for(lambda l: l.startswith("away: green (link down"), timeout=60)
    host.wait_for(lambda l: l.startswith("offer: end the table without green"), timeout=60)
    check_abandoned([host, one], "green")
    assert [w.finish() for w in watchers] == [1, 1]   # no finished game: the table ended it
    assert [w.result for w in watchers] == [host.result] * 2


STILL = Path(__file__).with_name("stillpeer.py")


def test_a_connected_seat_that_stops_moving_is_ended_on_the_move_clock(peers: Peers, tmp_path: Path) -> None:
    host, port = table_of_three(peers, tmp_path, "--move-clock", "4", seed=8)
    one = join(peers, tmp_path, host, port, 1, 9)
    # A hung (or hostile) program: it keeps its link up and answers every step
    # of the protocol, but never makes a move again after its third.
    two = join(peers, tmp_path, host, port, 2, 10, prefix=[sys.executable, str(STILL), "3", "--"])
    two.wait_for(lambda l: l.startswith("stops moving"), timeout=240)
    host.wait_for(lambda l: l.startswith("away: green (connected, no move"), timeout=60)
    one.wait_for(lambda l: l.startswith("away: green (connected, no move"), timeout=60)
    check_abandoned([host, one], "green")
    assert two.finish() == 1 and two.result == one.result  # the silent seat hears the end too


def test_the_host_leaving_pauses_the_table_and_its_return_carries_the_game_on(peers: Peers, tmp_path: Path) -> None:
    host, port = table_of_three(peers, tmp_path, seed=11)
    joiners = [join(peers, tmp_path, host, port, 1, 12), join(peers, tmp_path, host, port, 2, 13)]
    save = host.value("saving to")
    host.wait_for(lambda l: l.startswith("turn 4:"), timeout=180)
    host.proc.send_signal(signal.SIGINT)  # the host leaves on purpose
    assert host.finish() == 1
    assert host.result == f"result: paused: you left the table; the game is saved in {save}"
    for j in joiners:  # told it is a pause, by whom: not the end
        j.wait_for(lambda l: l == "paused: red (the host) left the table; waiting for it to come back", timeout=30)
        assert not any(l.startswith("result:") for l in j.lines)
    again = peers.start(["host", "--headless", "--bot", "random", "--seed", "14", "--load", save,
                         "--bind", "127.0.0.1", "--no-advertise"], tmp_path / "host")
    assert again.finish() == 0 and [j.finish() for j in joiners] == [0, 0]
    assert len({again.result, *(j.result for j in joiners)}) == 1


LYING = Path(__file__).with_name("lyinghost.py")


def test_a_host_and_its_bot_cannot_end_the_table_against_the_person_thinking(peers: Peers, tmp_path: Path) -> None:
    """Red hosts with a bot at Yellow and counts Green, the only other person,
    as gone after 3 s of thinking, though the table's start (which Green
    checked) says 300 s: Red and its bot sign the end.  Green's own clock
    contradicts it, so Green records no departure of its own: its result says
    the host ended the table without the seats' agreement, and its save is no
    abandoned game."""
    host = peers.start(["host", "--headless", "--bot", "random", "--seats", "3", "--bots", "1",
                        "--bind", "127.0.0.1", "--no-advertise", "--seed", "15", "--name", "host", "--agree-to-end"],
                       tmp_path / "host", prefix=[sys.executable, str(LYING), "3", "--"])
    port = host.value("listening on port")
    human = peers.start(["join", f"127.0.0.1:{port}", "--headless", "--bot", "random", "--seed", "16",
                         "--name", "thinker"], tmp_path / "human", prefix=[sys.executable, str(STILL), "2", "--"])
    human.wait_for(lambda l: l.startswith("stops moving"), timeout=240)
    assert host.finish() == 1 and host.result.startswith("result: abandoned: red and yellow say green left")
    assert human.finish() == 1
    assert human.result.startswith("result: aborted: the host ended the table without the seats' agreement: "
                                   "they say this seat left, but the game had waited "), human.result
    save = Path(human.value("saving to"))
    report = verify(str(save / "journal.ankh"))
    assert report.returncode == 3 and report.stdout.startswith("incomplete: "), report.stdout
