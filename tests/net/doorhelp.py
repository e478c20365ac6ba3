"""Floods at a door, on loopback: sockets that never send a byte, and a slow
road for a real client (its first bytes pass, then nothing until released),
so that a test can hold a player mid-handshake while a flood arrives."""
from __future__ import annotations

import asyncio
import contextlib


async def until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.02)


class Idle(asyncio.Protocol):
    """A TCP connection that never sends a byte, and knows when the server hung up."""
    closed = False

    def connection_made(self, transport) -> None:
        self.transport = transport

    def eof_received(self) -> bool:
        self.closed = True
        return False

    def connection_lost(self, exc) -> None:
        self.closed = True


async def idle_sockets(port: int, n: int, source: str | None = None) -> list[Idle]:
    """``n`` idle connections to ``port`` on 127.0.0.1, from ``source`` (a loopback address)."""
    loop = asyncio.get_running_loop()
    local = (source, 0) if source else None
    return [(await loop.create_connection(Idle, "127.0.0.1", port, local_addr=local))[1] for _ in range(n)]


class SlowRoad:
    """A relay on 127.0.0.1 to a server's ``port``, leaving from ``source``:
    the client's first bytes go through at once, the rest of what it says
    waits for :meth:`release` (what the server says passes all along).  When
    the server hangs up, so does the relay."""

    def __init__(self, port: int, source: str) -> None:
        self.target = port
        self.source = source
        self.first_passed = asyncio.Event()
        self.released = asyncio.Event()
        self._tasks: set[asyncio.Task] = set()
        self._server: asyncio.Server | None = None

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return self._server.sockets[0].getsockname()[1]

    def release(self) -> None:
        self.released.set()

    async def _relay(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target, local_addr=(self.source, 0))

        async def upstream() -> None:
            first = True
            while data := await client_r.read(65536):
                if not first:
                    await self.released.wait()
                server_w.write(data)
                first = False
                self.first_passed.set()
            server_w.close()

        async def downstream() -> None:
            while data := await server_r.read(65536):
                client_w.write(data)
            client_w.close()

        tasks = [asyncio.ensure_future(upstream()), asyncio.ensure_future(downstream())]
        self._tasks.update(tasks)
        with contextlib.suppress(ConnectionError, OSError):
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        for writer in (client_w, server_w):
            writer.close()

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._server is not None:
            self._server.close()
