"""A joiner's frames lost with a dying link are sent again when it is back,
before anything newer: the host takes a seat's frames in order, so a newer
move sent first would read as a gap and an honest seat would be blamed."""
from __future__ import annotations

import asyncio
from pathlib import Path

from ankh.net.envelope import Identity
from ankh.net.io.node import HostNode, JoinNode

from .test_lobby_reconnect import Cutter
from .test_watch import bot_decide


class DyingLink(Cutter):
    """A TCP proxy on loopback.  ``lose()``: what the joiner sends from now on
    is lost (a link that is dying); ``cut()`` ends the connections; while
    ``holding``, what the host sends on a new connection once the link is up
    waits in the proxy until ``release()``."""

    def __init__(self, target: int):
        super().__init__(target)
        self.losing = False
        self.holding = False
        self.released = asyncio.Event()

    def _gate(self):
        held, chunks = self.holding, [0]

        async def carry(towards_host: bool) -> bool:
            if towards_host:
                return not self.losing
            chunks[0] += 1
            # The host's two handshake messages pass (the joiner answers each
            # before the host says more); what the host says after them waits.
            if held and chunks[0] > 2:
                await self.released.wait()
            return True
        return carry

    def lose(self) -> None:
        self.losing = True

    def cut(self) -> None:
        super().cut()
        self.losing = False

    def release(self) -> None:
        self.holding = False
        self.released.set()

    def close(self) -> None:
        self.release()
        super().close()


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


async def until(condition, timeout: float = 30) -> None:
    async def poll():
        while not condition():
            await asyncio.sleep(0.01)
    await asyncio.wait_for(poll(), timeout)


async def a_move_made_while_the_host_resends(tmp_path: Path):
    host = HostNode(Identity.generate(), "host", seats=2, bots=0, decide=bot_decide(21), report=lambda e: None,
                    save_root=tmp_path / "h", bind="127.0.0.1", advertise=False)
    link = DyingLink(await host.open())
    via = await link.open()
    gate = Gate(22)
    joiner = JoinNode(Identity.generate(), "joiner", decide=gate, report=lambda e: None, save_root=tmp_path / "j")
    game = asyncio.ensure_future(host.run())
    seat = asyncio.ensure_future(joiner.run("127.0.0.1", via))
    try:
        await until(lambda: joiner.peer is not None and joiner.peer.moves >= 6)
        gate.armed = True
        staged = False
        for _ in range(30):
            await until(gate.asked.is_set)  # the joiner at its own decision, all it sent delivered
            await until(lambda: host.hub.host.protocol.have()[1] == joiner.peer.protocol.have()[1])
            link.lose()
            gate.go.set()  # its move goes into the dying link
            moves = joiner.peer.moves
            await until(lambda: joiner.peer.moves > moves)
            await asyncio.sleep(0.2)
            if gate.asked.is_set():  # and its next decision is its own too: the case
                old = host.conns[1]
                link.holding = True
                link.cut()
                await until(lambda: 1 in host.conns and host.conns[1] is not old and not host.conns[1].closed)
                gate.go.set()  # a move made while the host's answer to its rejoin is on its way
                await until(lambda: joiner.peer.moves > moves + 1)
                await asyncio.sleep(0.3)
                link.release()
                staged = True
                break
            link.cut()  # the host waits for that seat now: it comes back, and we try again
        gate.armed = False
        gate.go.set()
        return staged, await asyncio.wait_for(asyncio.gather(game, seat), 60)
    finally:
        link.close()
        for task in (game, seat):
            task.cancel()


def test_a_move_made_while_the_host_resends_does_not_get_the_seat_blamed(tmp_path: Path) -> None:
    staged, (host_result, joiner_result) = asyncio.run(a_move_made_while_the_host_resends(tmp_path))
    assert staged
    assert "broke the rules" not in host_result.text, host_result.text
    assert host_result.finished and joiner_result.finished
    assert host_result.text == joiner_result.text and host_result.fair
