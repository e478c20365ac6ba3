"""The thief's evidence against the key of its stolen card at whole tables on
the simulator (``ankh.net.io.sim``): a host and two joiners (each the tiny
game's random bot) and a spectator.  A victim's wrong key is named at every
seat, at the spectator and in each seat's saved game; a host that hands on
made-up evidence, or the victim's honest message again, before the step,
names nobody and the game ends fair.  (Over real sockets:
``test_steal_blame_sockets``.)"""
from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from ankh.net.fair import steal
from ankh.net.io import sim
from ankh.net.wire.lobby import encode
from ankh.net.fair.seal import Boxes
from ankh.net.tablecore.effects import Send, WatchSend
from ankh.net.tablecore.host import HostTable
from ankh.net.files.verify import verify_transcript

from . import simtable
from .test_steal_blame import wrong_key
from .nethelp import decode
from .test_steal_blame_sockets import RelayingHost, steal_open

NAMES = ("host", "j1", "j2", "watch")


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


def journals(where: Path) -> list[Path]:
    return sorted(where.glob("*/net-*/journal.ankh"))


def play_until(where: Path, happened, core: type[HostTable] = HostTable, tries: int = 10) -> tuple[Any, list, Path]:
    """Tables (seed after seed) until ``happened(host's core)``: not every game has a
    steal, or one by a joiner; the last table's host node, how each of ``NAMES``
    ended, and the folder it saved under."""
    for seed in range(tries):
        async def script(t: sim.Scene) -> tuple[Any, list]:
            host = await t.host(seats=3, core=core)
            t.join("j1")
            t.join("j2")
            t.watch("watch")
            await asyncio.wait([t.tasks[n] for n in NAMES])
            return host, [t.tasks[n].result() for n in NAMES]

        host, results = simtable.scene(seed, where / str(seed)).run(script)
        if happened(host.table):
            return host, results, where / str(seed)
    pytest.fail(f"{tries} tables without the steal the test needs")


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
    host, results, where = play_until(tmp_path, lambda host: cheated)
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


def test_made_up_evidence_from_the_host_names_nobody_and_the_game_ends_fair(tmp_path: Path) -> None:
    host, results, where = play_until(tmp_path, lambda host: host.lies, LyingHost)
    texts = {str(r.text) for r in results}
    assert len(texts) == 1 and all(r.fair for r in results), texts
    saved = journals(where)
    assert len(saved) == 3
    for path in saved:
        assert verify_transcript(path).status == "fair"
