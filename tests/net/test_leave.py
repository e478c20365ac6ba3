"""A seat that leaves for good (on the simulator; a host that pauses, between real ``ankh`` processes):
nobody can take over its secret cards, so the seats still there end the table
by their signed agreement (a majority of them), the end is saved with the
log, and ``ankh verify`` says the game was abandoned, who left and who ended
it, with the scores as they stood."""
from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

from ankh.net.play.events import Joined, Saving, WatchPointOpen
from ankh.net.io import sim
from ankh.net.tablecore import host as table_core

from . import simtable
from .procs import Peers
from .simtable import away, decided, exit_status, offered, said, transcript, verify
from .test_lan import peers  # noqa: F401  (the fixture that stops every process)


def hosted(peers: Peers, tmp_path: Path, seed: int):
    """A real ``ankh host`` of three seats that agrees at once to end a table a seat left."""
    host = peers.start(["host", "--headless", "--bot", "random", "--seats", "3", "--bind", "127.0.0.1",
                        "--no-advertise", "--seed", str(seed), "--name", "host", "--agree-to-end"],
                       tmp_path / "host")
    port = host.value("listening on port")
    return host, port


def joined(peers: Peers, tmp_path: Path, host, port: str, n: int, seed: int):
    """Real joiner ``n`` sits at seat ``n`` (the next one starts once it sat)."""
    joiner = peers.start(["join", f"127.0.0.1:{port}", "--headless", "--bot", "random", "--seed", str(seed),
                          "--name", f"joiner {n}", "--agree-to-end"], tmp_path / f"join{n}")
    host.wait_for(lambda l: l.startswith(f"joiner {n} sits at seat {n + 1}"), timeout=60)
    return joiner


def check_abandoned(t: sim.Scene, everyone: list[str], results: list, gone: str) -> None:
    """Every seat still there ends alike, saves the end, and the transcript and
    the journal both verify as abandoned, naming who left and who ended it."""
    assert [exit_status(r) for r in results] == [1] * len(everyone)
    texts = {r.text for r in results}
    assert len(texts) == 1, texts
    (text,) = texts
    assert text.startswith(f"abandoned: red and yellow say {gone} left the game, and ended the table; "
                           "scores as they stand: red "), text
    for name in everyone:
        path = transcript(t, name)
        rc, out = verify(path)
        assert rc == 4, out
        assert out.startswith("abandoned: host (seat 0, "), out
        assert " and joiner 1 (seat 1, " in out and " say joiner 2 (seat 2, " in out, out
        assert "left the game at step" in out and "and ended the table (2 of the 2 voices left, 2 needed)" in out, out
        assert "scores as they stand: red " in out and "rules replayed:" in out, out
        assert verify(path.with_name("journal.ankh")) == (4, out)


async def table_of_three(t: sim.Scene, *, two: Callable | None = None, **options) -> None:
    """A host that agrees at once to end a table a seat left, and two joiners
    that do too, ``joiner 2`` played by ``two`` (the next one joins once one sat)."""
    await t.host(seats=3, **options)
    for n in (1, 2):
        t.join(f"joiner {n}", decide=two if n == 2 else None)
        await t.until("host", lambda e, n=n: isinstance(e, Joined) and e.name == f"joiner {n}" and e.seat == n)


def test_a_seat_killed_for_good_is_ended_by_the_others_agreement(tmp_path: Path) -> None:
    """... and spectators, through the host and through a joiner's watch point,
    are sent the votes after the whole log, check them against the log they
    followed and say the same."""
    async def script(t: sim.Scene) -> list:
        await table_of_three(t, gone_after=3)
        point = await t.until("joiner 1", lambda e: isinstance(e, WatchPointOpen))
        t.watch("watch0")
        t.watch("watch1", at=(point.host, point.port))
        await t.until("joiner 2", decided(1))
        await t.kill("joiner 2")  # for good: it never comes back
        await t.until("host", away(2, link=False))
        await t.until("joiner 1", away(2, link=False))
        await t.until("host", offered(2))
        return await t.results("host", "joiner 1", "watch0", "watch1")

    t = simtable.scene(5, tmp_path)
    *seats, one, two = t.run(script)
    check_abandoned(t, ["host", "joiner 1"], seats, "green")
    watchers = [one, two]
    assert [exit_status(w) for w in watchers] == [1, 1]   # no finished game: the table ended it
    assert [w.text for w in watchers] == [said(t, "host")] * 2


def test_a_connected_seat_that_stops_moving_is_ended_on_the_move_clock(tmp_path: Path) -> None:
    async def script(t: sim.Scene) -> list:
        # A hung (or hostile) program: it keeps its link up and answers every step
        # of the protocol, but never makes a move again after its first.
        await table_of_three(t, two=t.bot(still_after=1), move_clock=4)
        await t.until("host", away(2, link=True))
        await t.until("joiner 1", away(2, link=True))
        return await t.results("host", "joiner 1", "joiner 2")

    t = simtable.scene(8, tmp_path)
    *seats, two = t.run(script)
    check_abandoned(t, ["host", "joiner 1"], seats, "green")
    assert exit_status(two) == 1 and two.text == said(t, "joiner 1")  # the silent seat hears the end too


def test_the_host_leaving_pauses_the_table_and_its_return_carries_the_game_on(peers: Peers, tmp_path: Path) -> None:
    host, port = hosted(peers, tmp_path, seed=11)
    joiners = [joined(peers, tmp_path, host, port, 1, 12), joined(peers, tmp_path, host, port, 2, 13)]
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


def test_a_host_and_its_bot_cannot_end_the_table_against_the_person_thinking(tmp_path: Path, monkeypatch) -> None:
    """Red hosts with a bot at Yellow and counts Green, the only other person,
    as gone after 3 s of thinking, though the table's start (which Green
    checked) says 300 s: Red and its bot sign the end.  Green's own clock
    contradicts it, so Green records no departure of its own: its result says
    the host ended the table without the seats' agreement, and its save is no
    abandoned game."""
    class Hasty(table_core.Patience):  # the host's own move clock, shorter than the one the start told every seat
        def __init__(self, roster, *, gone_after: float, move_clock: float, **kw):
            super().__init__(roster, gone_after=gone_after, move_clock=3, **kw)

    monkeypatch.setattr(table_core, "Patience", Hasty)  # (the host's table counts the waits)

    async def script(t: sim.Scene) -> list:
        await t.host(seats=3, bots=1)
        t.join("thinker", decide=t.bot(still_after=0), auto_agree=False)  # it thinks, and thinks
        return await t.results("host", "thinker")

    t = simtable.scene(15, tmp_path)
    host, human = t.run(script)
    assert exit_status(host) == 1 and host.text.startswith("abandoned: red and yellow say green left")
    assert exit_status(human) == 1
    assert human.text.startswith("aborted: the host ended the table without the seats' agreement: "
                                 "they say this seat left, but the game had waited "), human.text
    (save,) = [e.path for e in t.told["thinker"] if isinstance(e, Saving)]
    rc, out = verify(save / "journal.ankh")
    assert rc == 3 and out.startswith("incomplete: "), out
