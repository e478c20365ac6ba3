"""A flood at a table's door keeps no player out (issue: 4,000 connects a
second from 32 addresses pushed out joiners whose handshake was done), not
even a flood from the player's own address."""
from __future__ import annotations

import asyncio
import errno
import multiprocessing
import socket
import time

from ankh.net.wire.admission import Door
from ankh.net.wire.envelope import Identity
from ankh.net.io.node import PROLOGUE
from ankh.net.io.transport import Connection, connect, serve, server_port

from .doorhelp import SlowRoad, idle_sockets, until

FLOOD_ADDRESSES = [f"127.0.0.{2 + i}" for i in range(32)]


def _flood(port: int, rate: int, seconds: float, made) -> None:
    """Raw connects that never send a byte, ``rate`` a second, each held two seconds."""
    held: list[tuple[float, socket.socket]] = []
    start = time.monotonic()
    n = 0
    while (now := time.monotonic()) - start < seconds:
        while n < int((now - start) * rate):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            s.bind((FLOOD_ADDRESSES[n % len(FLOOD_ADDRESSES)], 0))
            if s.connect_ex(("127.0.0.1", port)) in (0, errno.EINPROGRESS):
                held.append((now, s))
            else:
                s.close()
            n += 1
        while held and now - held[0][0] > 2.0:
            held.pop(0)[1].close()
        time.sleep(0.001)
    for _t, s in held:
        s.close()
    made.value = n


async def _greet(conn: Connection) -> None:
    # A joiner's first message, answered: the host read what it said.
    said = await asyncio.wait_for(conn.recv(), 60)
    await conn.send(b"welcome " + said)


def test_joiners_get_in_through_4000_connects_a_second_from_32_addresses() -> None:
    async def main() -> tuple[int, int, list[str]]:
        server = await serve("127.0.0.1", 0, Identity.generate(), PROLOGUE, _greet)
        port = server_port(server)
        made = multiprocessing.Value("i", 0)
        flood = multiprocessing.Process(target=_flood, args=(port, 4000, 5.0, made), daemon=True)
        flood.start()
        failures: list[str] = []
        ok = 0
        try:
            await asyncio.sleep(0.5)  # the door is full of the flood's links
            for i in range(8):
                try:
                    conn = await connect("127.0.0.1", port, Identity.generate(), PROLOGUE, timeout=60)
                    await conn.send(b"join %d" % i)
                    answer = await asyncio.wait_for(conn.recv(), 60)
                    ok += answer == b"welcome join %d" % i
                    conn.close("done")
                except Exception as exc:  # a refused or cut join is what the test counts
                    failures.append(f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}")
        finally:
            await asyncio.get_running_loop().run_in_executor(None, flood.join, 30)
            server.close()
        return ok, made.value, failures

    ok, made, failures = asyncio.run(main())
    assert made > 4000        # the flood was real
    assert ok == 8, failures


def test_a_joiner_mid_handshake_outlives_idle_links_from_its_own_address() -> None:
    """The joiner and a flood share one address (a NAT): the joiner's first
    handshake bytes are in (the rest delayed by a slow network) when 40
    sockets that never send a byte arrive from that address, 4 at most held
    at once; the idle sockets make way, and the joiner gets in."""
    async def main() -> bytes:
        door = Door(spectators=4, pending=8, pending_per_address=4, pending_per_prefix=6)
        server = await serve("127.0.0.1", 0, Identity.generate(), PROLOGUE, _greet, door=door, timeout=60)
        road = SlowRoad(server_port(server), "127.0.0.7")
        flood: list = []
        try:
            joining = asyncio.ensure_future(
                connect("127.0.0.1", await road.start(), Identity.generate(), PROLOGUE, timeout=60))
            await asyncio.wait_for(road.first_passed.wait(), 30)
            flood = await idle_sockets(server_port(server), 40, source="127.0.0.7")
            await asyncio.wait_for(until(lambda: sum(c.closed for c in flood) >= 40 - 4), 30)
            road.release()
            conn = await asyncio.wait_for(joining, 30)
            await conn.send(b"join")
            answer = await asyncio.wait_for(conn.recv(), 30)
            conn.close("done")
            return answer
        finally:
            for c in flood:
                c.transport.close()
            await road.close()
            server.close()

    assert asyncio.run(main()) == b"welcome join"
