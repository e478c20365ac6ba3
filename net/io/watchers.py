"""Serving spectators from a seat's process: the host's, or a joiner's own
watch point (a listening socket for spectators only).

A spectator gets the table (``lobby``, ``start``, ``roster``), then the
public log from the step it asked for, then each step as it finishes, and
the table's chat if the table allows it.  It is never waited for: every
step is encoded once for all the spectators at the same place in the log,
written without waiting, and a spectator that leaves more than
``BACKLOG`` bytes unread is cut off, so the table never slows for one.  A
spectator sends nothing but a goodbye; anything else cuts it off.
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import RemoteProtocolError, Words
from ..lobby import decode, encode, points_message, steps_messages
from .transport import Connection, ConnectionClosed

BACKLOG = 4 * 1024 * 1024  # bytes a spectator may leave unread before it is cut off
WATCH_ONLY = "this port is for spectators only"


class Watchers:
    """The spectators of one seat's process and what they were sent."""

    def __init__(self, report: Callable[[str, Any], None]):
        self.report = report
        self.sent: dict[Connection, int | None] = {}  # steps of the log sent (None: not told the table yet)
        self.starts: dict[Connection, int] = {}  # the step each spectator asked to start from
        self.intro: list[bytes] = []  # the table, encoded once: set when the roster is known
        self.points: bytes | None = None  # the table's other watch points, encoded
        self.chat = True  # the table's chat reaches spectators
        self._serving: set[asyncio.Task] = set()

    def __len__(self) -> int:
        return len(self.sent)

    async def serve(self, conn: Connection, start: int, log: Callable[[], Sequence[tuple[Any, list[bytes]]]]) -> None:
        """One spectator, from step ``start``, until it leaves or is cut off."""
        task = asyncio.current_task()
        if task is not None:
            self._serving.add(task)
        self.sent[conn] = None
        self.starts[conn] = start
        self.report("watcher", len(self.sent))
        self.flush(log())
        try:
            while True:
                msg = decode(await conn.recv())
                conn.close(Words("left") if msg["t"] == "bye" else Words("spectators only watch"))
        except RemoteProtocolError:
            conn.close(Words("malformed message from a spectator"))
        except ConnectionClosed:
            pass
        finally:
            self.sent.pop(conn, None)
            self.starts.pop(conn, None)
            self._serving.discard(task)

    def flush(self, log: Sequence[tuple[Any, list[bytes]]]) -> None:
        """Send every spectator the steps of ``log`` it lacks (each run of steps encoded once)."""
        if not self.intro:
            return
        encoded: dict[int, list[bytes]] = {}
        for conn, sent in list(self.sent.items()):
            if conn.closed:
                self.sent.pop(conn, None)
                continue
            if conn.buffered() > BACKLOG:
                conn.close(Words("too far behind: the table does not wait for spectators"))
                self.sent.pop(conn, None)
                continue
            messages = []
            if sent is None:
                messages += self.intro + ([self.points] if self.points else [])
                sent = self.starts.get(conn, 0)
            if sent < len(log):
                if sent not in encoded:
                    encoded[sent] = steps_messages([step for _, step in log[sent:]])
                messages += encoded[sent]
                sent = len(log)
            self.sent[conn] = sent
            with contextlib.suppress(ConnectionClosed):
                for m in messages:
                    conn.send_nowait(m)

    def send(self, message: bytes) -> None:
        """A message for every spectator told the table already (chat, watch points)."""
        for conn, sent in list(self.sent.items()):
            if sent is not None and not conn.closed:
                with contextlib.suppress(ConnectionClosed):
                    conn.send_nowait(message)

    def say(self, msg: dict[str, Any]) -> None:
        """A chat line, if the table lets spectators hear it."""
        if self.chat:
            self.send(encode(msg))

    def set_points(self, points: list[tuple[str, int]]) -> None:
        self.points = encode(points_message(points))
        self.send(self.points)

    def close(self, reason: str) -> None:
        for conn in list(self.sent):
            conn.close(reason)

    async def aclose(self, reason: str) -> None:
        """Close every spectator's link and let each one's service end."""
        self.close(reason)
        await asyncio.gather(*[t for t in self._serving if t is not asyncio.current_task()], return_exceptions=True)
