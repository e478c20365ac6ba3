"""A joiner's frames lost with a dying link are sent again when it is back,
before anything newer: the host takes a seat's frames in order, so a newer
move sent first would read as a gap and an honest seat would be blamed."""
from __future__ import annotations

import asyncio
from pathlib import Path

from ankh.net.play.events import Started
from ankh.net.io import sim
from ankh.net.io.node import JoinNode

from . import simtable
from .test_watch import bot_decide


class Gate:
    """A bot whose decisions, while ``armed``, wait for ``go``."""

    def __init__(self, seed: int):
        self.bot = bot_decide(seed)
        self.armed = False
        self.asked = asyncio.Event()
        self.go = asyncio.Event()

    async def __call__(self, peer, decision):
        if self.armed:
            self.asked.set()
            await self.go.wait()
            self.go.clear()
            self.asked.clear()
        return await self.bot(peer, decision)


def a_move_made_while_the_host_resends(tmp_path: Path):
    """(On the simulator: the real host and joiner; the link the joiner's move goes
    into is dying (what it writes is lost) and is then cut; on the new link what
    the host says after its two handshake messages waits on the wire until released.)"""
    gate = Gate(22)

    async def script(t: sim.Scene):
        host = await t.host(seats=2, decide=bot_decide(21))
        t.join("joiner", decide=gate)

        def joiner() -> JoinNode:
            return t.nodes["joiner"]

        def cut() -> None:
            t.cut("host", "joiner")
            t.darken("joiner", "host", False)

        await t.until("joiner", lambda e: isinstance(e, Started))
        await t.when(lambda: joiner().peer is not None and joiner().peer.moves >= 6)
        gate.armed = True
        staged = False
        for _ in range(30):
            await t.when(gate.asked.is_set)  # the joiner at its own decision, all it sent delivered
            await t.when(lambda: host.hub.host.protocol.have()[1] == joiner().peer.protocol.have()[1])
            t.darken("joiner", "host")
            gate.go.set()  # its move goes into the dying link
            moves = joiner().peer.moves
            await t.when(lambda: joiner().peer.moves > moves)
            await asyncio.sleep(0.2)
            if gate.asked.is_set():  # and its next decision is its own too: the case
                old = host.conns[1]
                t.hold("host", "joiner", after=2)
                cut()
                await t.when(lambda: 1 in host.conns and host.conns[1] is not old and not host.conns[1].closed)
                assert joiner().awaiting_have  # back on the new link, the host's answer not come yet
                gate.go.set()  # a move made while the host's answer to its rejoin is on its way
                await t.when(lambda: joiner().peer.moves > moves + 1)
                await asyncio.sleep(0.3)
                assert t.release("host", "joiner") > 0
                staged = True
                break
            cut()  # the host waits for that seat now: it comes back, and we try again
        gate.armed = False
        gate.go.set()
        return staged, await t.results("host", "joiner")

    return simtable.scene(21, tmp_path, "morpork").run(script)


def test_a_move_made_while_the_host_resends_does_not_get_the_seat_blamed(tmp_path: Path) -> None:
    staged, (host_result, joiner_result) = a_move_made_while_the_host_resends(tmp_path)
    assert staged
    assert "broke the rules" not in host_result.text, host_result.text
    assert host_result.finished and joiner_result.finished
    assert host_result.text == joiner_result.text and host_result.fair
