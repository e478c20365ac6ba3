"""Attacks on an ending no voter can bend (issue 26, breaks 1-3): a host, a
seat or a spectator's source that cheats to end a table against a present
person, shorten a clock, or get an honest seat named as gone.  Each test
asserts what an honest person at the table needs."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from ankh.net.play.events import LobbySeats, Started
from ankh.net.io import sim
from ankh.net.play.peer import AUDIT
from ankh.net.tablecore.host import HostTable

from . import simtable
from .simtable import exit_status


def thinker(t: sim.Scene, after: int, secs: float):
    """A seat's bot that thinks ``secs`` seconds over its ``after``-th decision, its link up."""
    bot, count = t.bot(), [0]

    async def decide(peer, decision):
        count[0] += 1
        if count[0] == after:
            await asyncio.sleep(secs)
        return await bot(peer, decision)
    return decide


class LinkLiar(HostTable):
    """While the game waits for green, connected and thinking, the host says
    green's link is down since it began to wait: the offer's wait becomes the
    gone-wait (60 s) where green is owed the move clock (300 s).  It drops
    no frame: green sends none while it thinks."""

    lied = False
    voters: set

    def received(self, seat: int, msg: dict) -> bool:
        if msg["t"] == "vote":
            self.voters.add(seat)
        return super().received(seat, msg)

    def tick(self) -> None:
        if self.hub is not None and self.result is None and self.patience is not None:
            host = self.hub.host
            if host.phase != AUDIT and host.protocol.ledger.index >= 8 and 2 in host.waiting_for():
                stuck = self.patience.stuck.get(2)
                if stuck is not None and self.clock() - stuck[1] > 2:
                    if not self.lied:
                        self.lied, self.voters = True, set()
                    self.gone_since.setdefault(2, stuck[1])  # "green's link is down since then"
            elif self.lied and 2 not in host.waiting_for():
                self.gone_since.pop(2, None)
        super().tick()


@pytest.mark.parametrize("seed", [5, 13])
def test_a_host_cannot_turn_the_move_clock_into_the_gone_wait_for_a_person_thinking(tmp_path: Path,
                                                                                   seed: int) -> None:
    """Green thinks 120 s over a move (the move clock is 300 s), its link up.
    The host says green's link is down: yellow must not sign that green
    left on its silence alone after the 60 s gone-wait, and the table goes on."""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=3, core=LinkLiar)
        t.join("joiner 1")
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2", decide=thinker(t, 1, 120.0))
        await t.until("host", lambda e: getattr(e, "seat", None) == 2)
        t.watch("watch0")
        return await t.results("host", "joiner 1", "joiner 2", "watch0")

    t = simtable.scene(seed, tmp_path)
    results = t.run(script)
    core = t.nodes["host"].table
    assert core.lied  # the lie was told
    texts = {r.text for r in results}
    assert 1 not in core.voters, texts  # yellow heard green less than the move clock ago, its link up
    assert len(texts) == 1 and all(exit_status(r) == 0 for r in results), texts



class ClocksAfterTheLobby(HostTable):
    """Its lobby shows the usual clocks; the start it sends says 1 s for both,
    so that a joiner who thinks 10 s would be named gone by the host alone."""

    def _start(self) -> None:
        self.lobby.gone_after = self.lobby.move_clock = 1
        super()._start()


def test_a_start_whose_clocks_the_lobby_did_not_show_is_refused_before_the_deal(tmp_path: Path) -> None:
    """The clocks a joiner sits at are those its lobby showed its person before
    anyone was ready: a start that says others is refused, and no game begins."""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=2, core=ClocksAfterTheLobby)
        t.join("joiner 1")
        return await t.results("joiner 1")

    t = simtable.scene(7, tmp_path)
    (green,) = t.run(script)
    assert green.text.startswith("refused: start: the table's clocks are not the ones its lobby showed "
                                 "(60 s gone, 300 s to move: the start says 1 s and 1 s)"), green.text
    assert not any(isinstance(e, Started) for e in t.told["joiner 1"])
    assert t.nodes["joiner 1"].peer is None  # no key sent, nothing dealt


def test_a_joiner_is_shown_the_clocks_before_it_is_ready_and_sits_at_those(tmp_path: Path) -> None:
    """An honest host's short clocks (20 s gone, 45 s to move) reach the joiner's
    lobby before the start, and the start and the roster every seat signs carry them."""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=2, gone_after=20, move_clock=45)
        t.join("joiner 1")
        return await t.results("host", "joiner 1")

    t = simtable.scene(7, tmp_path)
    host, green = t.run(script)
    told = t.told["joiner 1"]
    first_lobby = next(i for i, e in enumerate(told) if isinstance(e, LobbySeats))
    started = next(i for i, e in enumerate(told) if isinstance(e, Started))
    assert first_lobby < started and told[first_lobby].clocks == (20, 45)
    assert told[started].start.clocks == (20, 45) and told[started].start.charter.move_clock == 45
    assert green.text == host.text and exit_status(green) == 0
