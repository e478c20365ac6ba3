"""The thief's evidence against the key of its stolen card over real sockets
on loopback: a host and two joiners (bots play the tiny game) and a
spectator.  A host that withholds the private part and leaves (its goodbye,
then its links closed) makes neither thief nor victim blame the other.  (A
victim's wrong key named everywhere, and a host's made-up evidence naming
nobody, are played on the simulator: ``test_steal_blame_tables``.)"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from ankh.net.wire.envelope import Identity
from ankh.net.wire.errors import Words
from ankh.net.io.node import HostNode, JoinNode, WatchNode
from ankh.net.wire.lobby import frames_message
from ankh.net.tablecore.effects import Broadcast, Send
from ankh.net.tablecore.host import HostTable
from ankh.net.tablecore.result import Result
from ankh.net.play.ops import StealOpen, from_wire

from tests import tinygame

from .nethelp import decode
from .test_tinygame_steal import bot_decide

tinygame.install()


@pytest.fixture(autouse=True)
def two_joiners_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both joiners run here, with one home: each would find the game id the other noted."""
    from ankh.net.files import home

    monkeypatch.setattr(home, "first_time_for_game", lambda game_id: True)


def steal_open(frames: list[bytes]) -> tuple[bytes, StealOpen] | None:
    for f in frames:
        if decode(f)["kind"] == "steal-open":
            _, op = from_wire(decode(f)["body"]["op"])
            return f, op
    return None


async def table(where: Path, core: type[HostTable] = HostTable) -> tuple[HostNode, list[JoinNode], WatchNode, list[Any]]:
    """A tiny game of three seats (the host's and two joiners'), and a spectator, played to its end."""
    host = HostNode(Identity.generate(), "host", seats=3, bots=0, decide=bot_decide(1), report=lambda e: None,
                    save_root=where / "h", bind="127.0.0.1", advertise=False, kind="tiny", core=core)
    port = await host.open()
    joiners = [JoinNode(Identity.generate(), f"j{k}", decide=bot_decide(2 + k), report=lambda e: None,
                        save_root=where / f"j{k}") for k in (1, 2)]
    watcher = WatchNode(Identity.generate(), report=lambda e: None)
    running = [asyncio.ensure_future(host.run())]
    for j in joiners:
        running.append(asyncio.ensure_future(j.run("127.0.0.1", port)))
        while len(host.conns) < joiners.index(j) + 1:
            await asyncio.sleep(0.01)
    running.append(asyncio.ensure_future(watcher.run("127.0.0.1", port)))
    await asyncio.wait(running, timeout=120)
    for task in running:
        task.cancel()  # only what did not end (a host that left, and then its spectator)
    return host, joiners, watcher, [t.result() if t.done() and not t.cancelled() else None for t in running]


def play_until(where: Path, happened, core: type[HostTable] = HostTable, tries: int = 10):
    """Tiny games until ``happened(table)`` (not every game has a steal, or one by a
    joiner; ``table`` is the host's core); the last game's ``table`` and the folder it saved under."""
    for game in range(tries):
        played = asyncio.run(table(where / str(game), core))
        if happened(played[0].table):
            return played, where / str(game)
    pytest.fail(f"{tries} games without the steal the test needs")


class RelayingHost(HostTable):
    """A host that may do something of its own with the frames it is about to pass on."""

    def _send_outbox(self, seat: int) -> None:
        assert self.hub is not None
        frames = self.hub.outbox(seat)
        if self.passes_on(seat, frames) and frames and seat in self.linked:
            for m in frames_message(frames):
                self._do(Send(seat, m))

    def passes_on(self, seat: int, frames: list[bytes]) -> bool:
        return True


class LeavingHost(RelayingHost):
    """Holds back the victim's ``steal-open`` from the thief, then says bye."""

    left = False

    def passes_on(self, seat: int, frames: list[bytes]) -> bool:
        found = steal_open(frames)
        if not self.left and found is not None and found[1].thief == seat:
            self.left = True
            self._do(Broadcast({"t": "bye", "why": "closing"}))
            self.end(Result(Words("the host left")))
        return not self.left


def test_a_host_that_leaves_holding_back_the_private_part_makes_no_seat_blame_another(tmp_path: Path) -> None:
    (host, joiners, watcher, results), _ = play_until(tmp_path, lambda host: host.left, LeavingHost)
    texts = [str(j.result.text) for j in joiners]
    assert not any(t.startswith(("aborted", "forfeit")) for t in texts), texts
    assert any(t.startswith("the table ended the game while it waited for") for t in texts), texts
