"""A joiner whose link drops before the game begins comes back to its seat
(the same identity and nonce) instead of ending with "the table closed"
(on the simulator); a joiner turned away by a full table hears why."""
from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from ankh.net.play.events import Back, Gone
from ankh.net.wire.envelope import Identity
from ankh.net.io import sim
from ankh.net.io.node import HostNode, JoinNode

from . import simtable
from .test_watch import bot_decide


class Cutter:
    """A TCP proxy on loopback whose connections can be cut (both ends at once)."""

    def __init__(self, target: int):
        self.target = target
        self.writers: list[asyncio.StreamWriter] = []
        self.connections = 0

    async def open(self) -> int:
        self.server = await asyncio.start_server(self._carry, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _carry(self, reader, writer) -> None:
        self.connections += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self.writers += [writer, up_writer]
        carry = self._gate()

        async def pipe(src, dst, towards_target: bool):
            with contextlib.suppress(OSError):
                while data := await src.read(65536):
                    if await carry(towards_target):
                        dst.write(data)
                        await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer, True), pipe(up_reader, writer, False))

    def _gate(self):
        """For each connection: ``await carry(towards_target)``, whether to pass a chunk on."""
        async def carry(towards_target: bool) -> bool:
            return True
        return carry

    def inject(self, data: bytes) -> None:
        """Bytes written into every connection's stream towards the target."""
        for w in self.writers[1::2]:
            w.write(data)

    def cut(self) -> None:
        for w in self.writers:
            w.transport.abort()
        self.writers = []

    def close(self) -> None:
        self.cut()
        self.server.close()


def cut_in_the_lobby(tmp_path: Path, how: str = "cut"):
    """(On the simulator: the real host and joiner, the link between them cut, or
    tampered with, once the joiner sat.)"""
    async def script(t: sim.Scene):
        host = await t.host(seats=2, ready=False)
        t.join("joiner")
        await t.when(lambda: len(host.lobby.seats) == 2 and bool(t.nodes["joiner"].core._seat_keys))
        key = host.lobby.seats[1].key
        old = host.conns[1]
        if how == "cut":
            t.cut("host", "joiner")                     # the cable, pulled in the lobby
        else:  # a record that does not decrypt: the host's end of the link fails (and says why)
            t.inject("joiner", "host", b"\x00\x20" + bytes(32))

        def back() -> bool:
            joiner = t.nodes["joiner"]
            assert joiner.result is None, joiner.result.text
            return 1 in host.conns and host.conns[1] is not old and not host.conns[1].closed

        await t.when(back)
        seated = [s.key for s in host.lobby.seats]
        t.do("host", lambda: host.set_ready(True))     # the deal begins with the joiner back in its seat
        return await t.results("host", "joiner"), key, seated, t.told["joiner"]

    return simtable.scene(7, tmp_path).run(script)


def test_a_joiner_cut_off_in_the_lobby_comes_back_to_its_seat(tmp_path: Path) -> None:
    (host_result, joiner_result), key, seated, said = cut_in_the_lobby(tmp_path)
    assert seated[1] == key and len(seated) == 2
    assert Back(0) in said
    assert joiner_result.finished and joiner_result.text == host_result.text and host_result.fair


def test_a_joiner_whose_link_the_host_finds_tampered_in_the_lobby_comes_back(tmp_path: Path) -> None:
    # The host's end notices first and closes the link saying why; that is a
    # failed link, not the host turning the seat away: the joiner comes back.
    (host_result, joiner_result), key, seated, said = cut_in_the_lobby(tmp_path, "garbage")
    gone = [e.why for e in said if isinstance(e, Gone)]
    assert gone and gone[0].startswith("the peer closed the link: a record failed to decrypt"), gone
    assert seated[1] == key and len(seated) == 2 and Back(0) in said
    assert joiner_result.finished and joiner_result.text == host_result.text and host_result.fair


def test_a_joiner_turned_away_by_a_full_table_hears_why_and_stops(tmp_path: Path) -> None:
    async def main():
        host = HostNode(Identity.generate(), "host", seats=2, bots=1, decide=bot_decide(3),
                        report=lambda e: None, save_root=None, bind="127.0.0.1", advertise=False)
        port = await host.open()
        game = asyncio.ensure_future(host.run())
        said: list = []
        joiner = JoinNode(Identity.generate(), "late", decide=bot_decide(4), report=said.append,
                          save_root=tmp_path / "j")
        try:
            return await asyncio.wait_for(joiner.run("127.0.0.1", port), 20), said
        finally:
            game.cancel()
            await asyncio.gather(game, return_exceptions=True)

    result, said = asyncio.run(main())
    assert result.text == "refused: the table is full" and not result.finished
    assert not any(isinstance(e, Back) for e in said)  # not tried again


def test_a_joiner_killed_once_the_seats_are_set_and_started_again_sits_at_its_seat(tmp_path: Path) -> None:
    """The host set the seats (its start holds each seat's nonce, its roster will hold each
    seat's key) and waits for its own person to confirm the fingerprint; the joiner, its key
    sent, is killed before its game's save exists, and the person runs the same join again.
    It comes back with the nonce and the secrets its first run kept, to the same seat (with a
    new nonce it was refused "the table is full", and the host waited for it for ever)."""
    async def script(t: sim.Scene):
        host = await t.host(seats=2, confirmed=False)
        t.join("joiner")
        await t.when(lambda: host.unconfirmed == [0])  # every key in: the roster waits for the host's person
        first = t.nodes["joiner"]
        assert await t.kill("joiner") is None  # no save yet
        await t.until("host", lambda e: isinstance(e, Gone))
        t.join("joiner", identity=first.identity)
        await t.until("host", lambda e: isinstance(e, Back))
        t.do("host", host.confirm_fingerprint)
        return await t.results("host", "joiner")

    host_result, joiner_result = simtable.scene(7, tmp_path).run(script)
    assert joiner_result.finished and joiner_result.text == host_result.text and host_result.fair
