"""Links over real TCP sockets on loopback: connect/serve, the handshake's failures,
garbage written into a live connection; keepalive and a silent peer (on the
simulator's virtual clock)."""
from __future__ import annotations

import asyncio

import pytest

from ankh.net.wire.envelope import Identity
from ankh.net.io import sim
from ankh.net.io.transport import DEAD_AFTER, Connection, ConnectionClosed, connect, serve, server_port
from ankh.net.wire.link import MAX_MESSAGE

PROLOGUE = b"ankh/1 table=feedfacecafebeef"
HOST_ID = Identity.from_seed(b"H" * 32)
GUEST_ID = Identity.from_seed(b"G" * 32)


class Host:
    """A server that echoes every message back, upper-cased, and records refusals."""

    def __init__(self) -> None:
        self.conns: list[Connection] = []
        self.refused: list[str] = []
        self.server: asyncio.Server | None = None

    async def start(self, prologue=PROLOGUE, **kw) -> int:
        self.server = await serve("127.0.0.1", 0, HOST_ID, prologue, self.on_connection,
                                  on_refused=lambda addr, why: self.refused.append(why), **kw)
        return server_port(self.server)

    async def on_connection(self, conn: Connection) -> None:
        self.conns.append(conn)
        try:
            while True:
                conn.send_nowait((await conn.recv()).upper())
        except ConnectionClosed:
            pass

    async def stop(self) -> None:
        for c in self.conns:
            await c.aclose("server stopping")
        self.server.close()
        await self.server.wait_closed()


@pytest.fixture
async def host():
    h = Host()
    yield h
    await h.stop()


class Proxy:
    """A TCP relay between a guest and the host that can freeze or inject bytes."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.frozen = False
        self.writers: list[asyncio.StreamWriter] = []
        self.to_host: asyncio.StreamWriter | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _accept(self, r1, w1) -> None:
        r2, w2 = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.to_host = w2
        self.writers += [w1, w2]
        await asyncio.gather(self._pipe(r1, w2), self._pipe(r2, w1), return_exceptions=True)

    async def _pipe(self, reader, writer) -> None:
        while data := await reader.read(65536):
            if not self.frozen:
                writer.write(data)
        writer.close()

    async def stop(self) -> None:
        for w in self.writers:
            w.close()
        self.server.close()
        await self.server.wait_closed()


async def test_connect_and_serve_on_an_ephemeral_port_carry_messages_both_ways(host):
    port = await host.start()
    assert port > 0
    conn = await connect("127.0.0.1", port, GUEST_ID, PROLOGUE)
    try:
        assert conn.peer_key == HOST_ID.public_key
        await conn.send(b"hello")
        conn.send_nowait(b"again")
        assert await conn.recv() == b"HELLO"
        assert await conn.recv() == b"AGAIN"
        assert host.conns[0].peer_key == GUEST_ID.public_key
        assert host.conns[0].handshake_hash == conn.handshake_hash
        big = bytes(range(256)) * (MAX_MESSAGE // 256)
        await conn.send(big)
        assert await asyncio.wait_for(conn.recv(), 10) == big.upper()
    finally:
        await conn.aclose()


async def test_closing_tells_the_peer_why(host):
    port = await host.start()
    conn = await connect("127.0.0.1", port, GUEST_ID, PROLOGUE)
    await conn.send(b"x")
    assert await conn.recv() == b"X"
    await conn.aclose("leaving the table")
    await asyncio.wait_for(host.conns[0].wait_closed(), 5)
    assert host.conns[0].reason == "the peer closed the link: leaving the table"
    with pytest.raises(ConnectionClosed, match="leaving the table"):
        await conn.recv()
    with pytest.raises(ConnectionClosed):
        await conn.send(b"late")


async def test_a_peer_for_another_table_is_refused_on_both_sides(host):
    port = await host.start()
    with pytest.raises(ConnectionClosed, match="handshake failed"):
        await connect("127.0.0.1", port, GUEST_ID, b"ankh/1 table=another")
    await asyncio.sleep(0.1)
    assert host.conns == []
    assert len(host.refused) == 1


async def test_an_unexpected_identity_is_refused(host):
    port = await host.start()
    with pytest.raises(ConnectionClosed, match="not the expected"):
        await connect("127.0.0.1", port, GUEST_ID, PROLOGUE, expected_peer=GUEST_ID.public_key)


async def test_nobody_listening_is_a_clear_error():
    probe = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server_port(probe)
    probe.close()
    await probe.wait_closed()
    with pytest.raises(ConnectionClosed, match=f"could not reach 127.0.0.1 port {port}"):
        await connect("127.0.0.1", port, GUEST_ID, PROLOGUE, timeout=2)


async def test_garbage_and_silence_at_the_door_are_refused_and_the_host_carries_on(host):
    port = await host.start(timeout=0.5)
    # Garbage instead of a handshake.
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(b"\x00\x05GET / HTTP/1.1\r\n\r\n" * 50)
    assert await asyncio.wait_for(r.read(), 5) == b""  # the host hung up
    w.close()
    # A client that never says anything.
    r, w = await asyncio.open_connection("127.0.0.1", port)
    assert await asyncio.wait_for(r.read(), 5) == b""
    w.close()
    assert any("handshake failed" in why for why in host.refused)
    assert any("timed out" in why for why in host.refused)
    # An honest guest still gets in.
    conn = await connect("127.0.0.1", port, GUEST_ID, PROLOGUE)
    await conn.send(b"still here")
    assert await conn.recv() == b"STILL HERE"
    await conn.aclose()


async def test_bytes_injected_into_a_live_connection_end_it_and_both_sides_know_why(host):
    port = await host.start()
    proxy = Proxy(port)
    conn = await connect("127.0.0.1", await proxy.start(), GUEST_ID, PROLOGUE)
    try:
        await conn.send(b"one")
        assert await conn.recv() == b"ONE"
        proxy.to_host.write(b"\x00\x20" + b"\x13" * 32)  # a well-framed record of nonsense
        await conn.send(b"two")
        with pytest.raises(ConnectionClosed, match="failed to decrypt"):
            await asyncio.wait_for(conn.recv(), 5)
        await asyncio.wait_for(host.conns[0].wait_closed(), 5)
        assert "failed to decrypt" in host.conns[0].reason
    finally:
        await conn.aclose()
        await proxy.stop()


def test_an_idle_link_stays_up_and_a_silent_peer_is_noticed(tmp_path) -> None:
    """(On the simulator's virtual clock and in-memory network, with the link's own
    keepalive and patience: nothing a loaded machine does can make the peer look silent.)"""
    host = Host()

    async def script(t: sim.Scene) -> None:
        listening: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def hosting() -> None:  # a program that serves until it is stopped
            listening.set_result(await host.start())
            await asyncio.Event().wait()

        t.start("host", hosting)
        port = await listening

        async def guest() -> None:
            loop = asyncio.get_running_loop()
            conn = await connect("127.0.0.1", port, GUEST_ID, PROLOGUE)
            await asyncio.sleep(4 * DEAD_AFTER)  # idle, but keepalives flow
            await conn.send(b"awake")
            assert await conn.recv() == b"AWAKE"
            t.darken("guest", "host")
            t.darken("host", "guest")  # the network goes dark without closing anything
            t0 = loop.time()
            with pytest.raises(ConnectionClosed, match="no word from the peer"):
                await asyncio.wait_for(conn.recv(), 10 * DEAD_AFTER)
            assert loop.time() - t0 < 4 * DEAD_AFTER
            # The host noticed too (on its own clock, or when the guest hung up on it).
            await asyncio.wait_for(host.conns[0].wait_closed(), DEAD_AFTER)

        await t.start("guest", guest)

    sim.Scene(0, tmp_path).run(script)


async def test_a_peer_sending_faster_than_we_read_is_held_back_and_loses_nothing():
    from ankh.net.io import transport

    got: asyncio.Future = asyncio.get_running_loop().create_future()
    server = await serve("127.0.0.1", 0, HOST_ID, PROLOGUE, got.set_result)
    conn = await connect("127.0.0.1", server_port(server), GUEST_ID, PROLOGUE)
    try:
        receiver = await got
        flood = [i.to_bytes(4, "big") * 250 for i in range(600)]  # 600 messages of 1000 bytes

        async def send_all():
            for m in flood:
                await conn.send(m)

        sending = asyncio.create_task(send_all())
        await asyncio.sleep(1.0)
        # Nobody called recv: the receiver stopped reading after a bounded number of messages.
        assert receiver._inbox.qsize() <= transport.MAX_UNREAD + transport.READ_SIZE // 1000 + 1
        assert not receiver.closed
        got_back = [await asyncio.wait_for(receiver.recv(), 5) for _ in flood]
        assert got_back == flood
        await sending
    finally:
        await conn.aclose()
        await receiver.aclose()
        server.close()
        await server.wait_closed()


async def test_a_host_that_never_answers_the_handshake_times_out():
    held = []
    mute = await asyncio.start_server(lambda r, w: held.append(w), "127.0.0.1", 0)
    try:
        with pytest.raises(ConnectionClosed, match="handshake timed out after 0.5 s"):
            await connect("127.0.0.1", server_port(mute), GUEST_ID, PROLOGUE, timeout=0.5)
    finally:
        for w in held:
            w.close()
        mute.close()
        await mute.wait_closed()


async def test_serving_on_every_address_uses_one_port_for_ipv4_and_ipv6():
    got: asyncio.Queue = asyncio.Queue()
    server = await serve(None, 0, HOST_ID, PROLOGUE, got.put_nowait)
    try:
        assert len({s.getsockname()[1] for s in server.sockets}) == 1
        for address in ("127.0.0.1", "::1"):
            conn = await connect(address, server_port(server), GUEST_ID, PROLOGUE)
            assert conn.peer_key == HOST_ID.public_key
            await conn.aclose()
            await (await got.get()).aclose()
    finally:
        server.close()
        await server.wait_closed()
