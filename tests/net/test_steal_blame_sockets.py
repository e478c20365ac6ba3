"""The thief's evidence against the key of its stolen card over real sockets
on loopback: a host and two joiners (bots play the tiny game) and a
spectator.  A victim's wrong key is named at every seat, at the spectator and
in each seat's saved game; a host that hands on made-up evidence, or the
victim's honest message again, before the step, names nobody and the game
ends fair; a host that withholds the private part and leaves makes neither
thief nor victim blame the other."""
from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from ankh.net import steal
from ankh.net.envelope import Identity
from ankh.net.errors import Words
from ankh.net.io.node import HostNode, JoinNode, WatchNode
from ankh.net.lobby import frames_message
from ankh.net.tablecore.effects import Broadcast, Send, WatchSend
from ankh.net.tablecore.host import HostTable
from ankh.net.tablecore.result import Result
from ankh.net.lobby import encode
from ankh.net.ops import StealOpen, from_wire
from ankh.net.seal import Boxes
from ankh.net.verify import verify_transcript

from tests import tinygame

from .nethelp import decode
from .test_steal_blame import wrong_key
from .test_tinygame_steal import bot_decide

tinygame.install()


@pytest.fixture(autouse=True)
def two_joiners_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both joiners run here, with one home: each would find the game id the other noted."""
    from ankh.net import home

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


def journals(where: Path) -> list[Path]:
    return sorted(where.glob("*/net-*/journal.ankh"))


def test_a_victims_wrong_key_is_named_at_every_seat_the_spectator_and_in_every_saved_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a steal whose thief is a joiner cheats: its evidence goes through the host."""
    real = steal.make_open
    cheated: list[tuple[int, int]] = []

    def make_open(st: Any, keys: Any, master: bytes, boxes: Boxes, seq: int, box: bytes, eph: bytes) -> dict:
        body = real(st, keys, master, boxes, seq, box, eph)
        if st.thief == 0:
            return body
        cheated.append((st.victim, st.thief))
        return wrong_key(body, st, boxes, seq, box, eph)

    monkeypatch.setattr(steal, "make_open", make_open)
    (host, joiners, watcher, results), where = play_until(tmp_path, lambda host: cheated)
    victim, thief = cheated[0]
    name = host.hub.host.ledger().roster.names[victim]
    texts = [str(r.text) for r in results]
    assert all(t.startswith("aborted: ") and f"({name}) broke the rules" in t for t in texts), texts
    assert all("does not open the picked slot" in t for t in texts), texts
    saved = journals(where)
    assert len(saved) == 3
    for path in saved:
        report = verify_transcript(path)
        assert [v.seat for v in report.violations] == [victim], (path, str(report))


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


class LyingHost(RelayingHost):
    """Hands every joiner and spectator made-up evidence against the victim of each
    steal before the step: the victim's honest ``steal-open`` with a disclosure
    under a box key of its own making, then that message alone, again."""

    lies = 0

    def passes_on(self, seat: int, frames: list[bytes]) -> bool:
        found = steal_open(frames)
        if found is not None:
            frame, _ = found
            eph = decode(frame)["body"]["eph"]
            made_up = Boxes(os.urandom(32), self.hub.host.ledger().roster.game_id).disclose(eph)
            for evidence in ([frame, made_up], [frame]):
                blame = {"t": "blame", "f": evidence}
                self._do(Send(seat, blame))
                self._do(WatchSend(encode(blame)))
            self.lies += 1
        return True


def test_made_up_evidence_from_the_host_names_nobody_and_the_game_ends_fair(tmp_path: Path) -> None:
    (host, joiners, watcher, results), where = play_until(tmp_path, lambda host: host.lies, LyingHost)
    texts = {str(r.text) for r in results}
    assert len(texts) == 1 and all(r.fair for r in results), texts
    for path in journals(where):
        assert verify_transcript(path).status == "fair"


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
