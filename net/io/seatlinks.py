"""A joined seat's direct links to the other people's seats, around the host.

Every joined seat serves spectators on a watch point of its own.  A seat
also links to each other person's watch point (the host says where, by
seat, in its ``points``) and says which seat it is (``seat``); the link's
handshake proves that seat's identity key, and a link where another key
answers is dropped, so a host can keep a seat from another's watch point
(by saying nothing, or a wrong address) but cannot stand in for it.  What
only the seats' own links may carry goes out on every such link: the
evidence of a cheat, which the host, when it is the cheat, would not pass
on.  Each link is tried again while the game lasts; the seats' messages
on it are handed to the seat's table (``JoinTable.seat_said``), which
checks them against its own log.  Every few seconds the table says on them
that it is here (``beat``: ``JoinTable.say_here``).
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from ..wire.envelope import Identity
from ..wire.errors import RemoteProtocolError, Words
from ..wire.lobby import PROTOCOL, decode, encode
from .transport import Connection, ConnectionClosed, connect

PROLOGUE = PROTOCOL.encode()
AGAIN = 2.0  # seconds between tries of a seat's watch point that did not answer
DRAIN = 2.0  # seconds the last words on the seats' links may take to leave, at the end
KEPT = 8  # messages kept for a seat linked later (each is evidence: a few at most)

Heard = Callable[[int, dict[str, Any]], None]


class SeatLinks:
    """This seat's links to the other seats' watch points (out) and theirs to its own (in)."""

    def __init__(self, identity: Identity, heard: Heard, beat: Callable[[], float],
                 reached: Callable[[int, bool], None] = lambda seat, out: None,
                 took: Callable[[int], None] = lambda seat: None):
        self.identity = identity
        self.reached = reached  # a link to (out) or from that seat is up, its identity proved
        self.took = took  # that seat said it took what we told it
        self.heard = heard  # a seat's message on a link in: to the table, which judges it
        self.beat = beat  # the table says it is here; returns the seconds until it says so again
        self._beating: asyncio.Task | None = None
        self.seat = -1  # this seat's, once it is seated
        self.out: dict[int, Connection] = {}  # seat -> our link to its watch point, while up
        self.told: list[bytes] = []  # what every seat is told, also those linked later
        self.where: dict[int, tuple[tuple[str, int], bytes]] = {}  # seat -> its watch point, the key there
        self._tasks: dict[int, asyncio.Task] = {}
        self._in: set[Connection] = set()

    def link(self, seat: int, address: tuple[str, int], key: bytes) -> None:
        """Keep a link to ``seat``'s watch point at ``address`` (where ``key`` must answer).
        A link that is up stays up: the host's word on where a watch point is counts
        only once it drops (a host may not move the seats' links away from each other)."""
        self.where[seat] = (address, key)
        if seat not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._keep(seat))
            task.add_done_callback(_quiet)
            self._tasks[seat] = task
        if self._beating is None:
            self._beating = asyncio.get_running_loop().create_task(self._beat())
            self._beating.add_done_callback(_quiet)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.beat())

    def tell(self, msg: dict[str, Any], keep: bool = True) -> None:
        """``msg`` to every seat linked now (``keep``: and to those linked later)."""
        data = encode(msg)
        if keep and len(self.told) < KEPT:
            self.told.append(data)
        for conn in list(self.out.values()):
            with contextlib.suppress(ConnectionClosed):
                conn.send_nowait(data)

    async def _keep(self, seat: int) -> None:
        while True:
            address, key = self.where[seat]
            try:  # the handshake fails where another key answers: the host's word was wrong
                conn = await connect(address[0], address[1], self.identity, PROLOGUE, expected_peer=key)
            except ConnectionClosed:
                await asyncio.sleep(AGAIN)
                continue
            try:
                conn.send_nowait(encode({"t": "seat", "seat": self.seat}))
                for data in self.told:
                    conn.send_nowait(data)
                self.out[seat] = conn
                self.reached(seat, True)
                while True:
                    if decode(await conn.recv())["t"] == "heard":  # (all its watch point says to a seat)
                        self.took(seat)
            except (ConnectionClosed, RemoteProtocolError):
                pass
            finally:
                if self.out.get(seat) is conn:
                    del self.out[seat]
                conn.close(Words("left"))
            await asyncio.sleep(AGAIN)

    async def serve(self, conn: Connection, seat: int) -> None:
        """Seat ``seat`` linked to this seat's watch point: what it says, until it goes."""
        self._in.add(conn)
        self.reached(seat, False)
        try:
            while True:
                msg = decode(await conn.recv())
                self.heard(seat, msg)
                if msg["t"] == "blame":
                    conn.send_nowait(encode({"t": "heard"}))
        except RemoteProtocolError:
            conn.close(Words("malformed message from a seat"))
        except ConnectionClosed:
            pass
        finally:
            self._in.discard(conn)

    async def aclose(self) -> None:
        """The game is over here: what we told the seats leaves (a moment at most), then every link closes."""
        for conn in list(self.out.values()):
            with contextlib.suppress(ConnectionClosed):
                await conn.drained(DRAIN)
        tasks = list(self._tasks.values()) + ([self._beating] if self._beating is not None else [])
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        self._beating = None
        for conn in list(self.out.values()) + list(self._in):
            conn.close(Words("game over"))


def _quiet(task: asyncio.Task) -> None:
    """A task's end, its exception taken (a link's end is no error)."""
    if not task.cancelled():
        task.exception()
