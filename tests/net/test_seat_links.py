"""No seat is the only road for a cheat's evidence (issue 26, part 1): the
seats link to each other's watch points, around the host, and a seat that
catches the host cheating hands its evidence to the others directly.  A
host that drops the evidence against itself, then votes its victim gone,
gets the other seats, their spectators and ``ankh verify`` to name it,
never the seat that caught it."""
from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from ankh.net.fair import steal
from ankh.net.play.events import WatchPointOpen
from ankh.net.io import sim
from ankh.net.play.peer import AUDIT
from ankh.net.fair.seal import Boxes
from ankh.net.tablecore.effects import TellSeats
from ankh.net.tablecore.host import HostTable
from ankh.net.tablecore.join import JoinTable

from . import simtable
from .simtable import verify as verify_cli
from .test_steal_blame import wrong_key


class DropsTheThiefsWord(HostTable):
    """Drops what a seat says once a steal from the host went wrong for it (its
    evidence and its goodbye): on the star the host is that seat's only road."""

    dropped = 0
    robbed: set

    def received(self, seat: int, msg: dict) -> bool:
        if seat in self.robbed and msg["t"] in ("blame", "bye"):
            self.dropped += 1
            return False
        return super().received(seat, msg)


def the_host_cheats_when_robbed(monkeypatch: pytest.MonkeyPatch, host: DropsTheThiefsWord) -> None:
    """The host's key for a card stolen from it opens the picked slot to no card:
    only the thief, who alone can open it, sees that."""
    real = steal.make_open

    def make_open(st: Any, keys: Any, master: bytes, boxes: Boxes, seq: int, box: bytes, eph: bytes) -> dict:
        body = real(st, keys, master, boxes, seq, box, eph)
        if st.victim != 0:
            return body
        host.robbed.add(st.thief)
        return wrong_key(body, st, boxes, seq, box, eph)
    monkeypatch.setattr(steal, "make_open", make_open)


@pytest.mark.parametrize("seed", [3, 5, 6])
def test_a_host_that_drops_the_evidence_against_itself_is_named_by_every_other_seat(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    async def script(t: sim.Scene) -> list:
        host = await t.host(seats=3, core=DropsTheThiefsWord)
        host.table.robbed = set()
        the_host_cheats_when_robbed(monkeypatch, host.table)
        t.join("joiner 1")                                    # each joiner agrees to end the table once offered
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2")
        await t.until("host", lambda e: getattr(e, "seat", None) == 2)
        points = {name: await t.until(name, lambda e: isinstance(e, WatchPointOpen)) for name in ("joiner 1", "joiner 2")}
        for name, point in points.items():                   # a spectator watching through each joiner
            t.watch(f"watch {name}", at=(point.host, point.port))
        return await t.results("joiner 1", "joiner 2", "watch joiner 1", "watch joiner 2")

    t = simtable.scene(seed, tmp_path)
    results = t.run(script)
    host = t.nodes["host"].table
    if not host.robbed:
        pytest.fail("nobody stole from the host in this game: the seed cannot test this")
    (thief,) = host.robbed
    assert host.dropped >= 1  # the thief's evidence went nowhere through the host
    texts = [r.text for r in results]
    assert all(text.startswith("aborted: ") and "(host) broke the rules" in text for text in texts), texts
    for name in ("joiner 1", "joiner 2"):
        save = t.nodes[name].save
        code, out = verify_cli(save.path)
        assert code != 0 and "host" in out, out


class Slanderer(JoinTable):
    """Hands the other seats, directly, made-up "evidence" against the host with
    every batch of frames: a frame the host signed, with random bytes as its
    disclosure, or alone, again and again."""

    told = 0

    def received(self, msg: dict) -> bool:
        done = super().received(msg)
        if msg["t"] == "frames" and self.result is None and self.start is not None:
            host_frames = [f for f in msg["f"] if f[0] == 0]
            if host_frames:
                for evidence in ([host_frames[-1], os.urandom(32)], [host_frames[-1]]):
                    self._do(TellSeats({"t": "blame", "f": evidence}))
                    self.told += 1
        return done


def test_made_up_evidence_handed_on_directly_names_nobody_and_the_game_ends_fair(tmp_path: Path) -> None:
    async def script(t: sim.Scene) -> list:
        await t.host(seats=3)
        t.join("joiner 1", core=Slanderer)
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2")
        return await t.results("host", "joiner 1", "joiner 2")

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert t.nodes["joiner 1"].core.told >= 4
    assert t.nodes["joiner 2"].core._handed.get(1, 0) >= 1  # it reached green, around the host
    texts = {r.text for r in results}
    assert len(texts) == 1 and all(r.finished and r.fair for r in results), texts


class DeafToGreen(HostTable):
    """Once a step waits for green, the host takes nothing more from green (its
    link stays up): green has moved, but nobody hears it through the host,
    and after the move clock the host offers to end the table without it."""

    deaf_since: float | None = None
    voters: set

    def received(self, seat: int, msg: dict) -> bool:
        if self.hub is not None and self.result is None and self.deaf_since is None:
            host = self.hub.host
            if host.phase != AUDIT and host.protocol.ledger.index >= 12 and 2 in host.waiting_for():
                self.deaf_since, self.voters = self.clock(), set()
        if self.deaf_since is not None and seat == 2:
            return False
        if msg["t"] == "vote" and self.deaf_since is not None:
            self.voters.add(seat)
        return super().received(seat, msg)


def deaf_to_green(core: type = DeafToGreen) -> Any:
    """A table whose host (``core``, a ``DeafToGreen``) takes nothing more from
    green once a step waits for it, played on for three move clocks: the host's table."""
    async def script(t: sim.Scene) -> Any:
        host = await t.host(seats=3, core=core)
        t.join("joiner 1")
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2")
        await t.when(lambda: host.table.deaf_since is not None)
        await asyncio.sleep(3 * 300)                               # three move clocks, virtual
        return host.table
    return script


class DeafToGreenWhoeverBringsIt(DeafToGreen):
    """The same host, deaf too to green's frames that yellow hands on (``theirs``)."""

    def received(self, seat: int, msg: dict) -> bool:
        if self.deaf_since is not None and msg["t"] == "theirs":
            return False
        return super().received(seat, msg)


def test_a_host_deaf_to_a_seat_whoever_brings_its_moves_gets_nobody_to_sign_that_it_left(tmp_path: Path) -> None:
    """Green's moves reach the host neither on its link nor handed on by yellow: the
    game waits (saved), and yellow, hearing green on its direct link, signs nothing."""
    t = simtable.scene(3, tmp_path)
    host = t.run(deaf_to_green(DeafToGreenWhoeverBringsIt))
    assert host.deaf_since is not None and host.patience is not None
    assert 1 not in host.voters
    assert t.nodes["joiner 1"].result is None and t.nodes["joiner 2"].result is None
    assert host.result is None or "left" not in host.result.text


@pytest.mark.parametrize("seed", [3, 11])
def test_a_host_that_keeps_back_what_a_seat_sends_cannot_get_the_others_to_sign_that_it_left(
        tmp_path: Path, seed: int) -> None:
    """Yellow agrees to end the table as soon as its own clock allows; green's
    last frames, on its direct link to yellow, are ones the host never passed
    on: yellow hears green there, and never signs that green left.  It hands
    them on to the host (``theirs``), which takes them as green's: the game
    goes on around the host's deaf ear, to its end."""
    t = simtable.scene(seed, tmp_path)
    host = t.run(deaf_to_green())
    assert host.deaf_since is not None and host.patience is not None
    assert 1 not in host.voters                                   # yellow signed nothing
    results = [t.nodes[n].result for n in ("joiner 1", "joiner 2")]
    assert all(r is not None and r.finished and r.fair for r in results), results
    assert host.result is not None and {r.text for r in results} == {host.result.text}
