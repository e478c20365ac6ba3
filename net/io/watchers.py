"""Serving spectators from a seat's process: the host's, or a joiner's own
watch point (a listening socket for spectators only).

A spectator gets the table (``lobby``, ``start``, ``roster``), then the
public log from the step it asked for, then each step as it finishes, and
the table's chat if the table allows it.  It is never waited for: each
spectator has its own feeder, which sends a batch of steps (each batch
encoded once for every spectator at the same place in the log) only when
the spectator took the batch before, and otherwise waits.  So a spectator
that does not read costs the table one batch and a socket's buffer, and one
that has not taken its batch within ``PATIENCE`` seconds is cut off.  The
kernel's buffer for a spectator is kept small (``SEND_BUFFER``): left to
itself it grows to megabytes per link, and a crowd that does not read would
take the machine's TCP memory from the seats' own links.  A
spectator sends nothing but a goodbye; anything else cuts it off.
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import Any

from ..wire.errors import RemoteProtocolError, Words
from ..play.events import TableEvent, WatcherCame, WatcherLeft
from ..wire.lobby import decode, encode, points_message, steps_messages
from .transport import STRANGER_TIME, Connection, ConnectionClosed

BATCH = 128 * 1024    # bytes of steps sent to a spectator before waiting for it to take them
SEND_BUFFER = 64 * 1024  # bytes the kernel may hold for a spectator (not megabytes: see below)
PATIENCE = 5.0        # seconds a spectator may take to read a batch before it is cut off
SETTLE = 3.0          # seconds the spectators have, once the game is over, to take its last steps
COME_BACK = 10.0      # seconds a spectator whose link dropped before it took them has to come back for them
WATCH_ONLY = "this port is for spectators only"
TOO_SLOW = Words("too far behind: the table does not wait for spectators")

Log = Callable[[], Sequence[tuple[Any, list[bytes]]]]


class Watchers:
    """The spectators of one seat's process and what they were sent."""

    def __init__(self, report: Callable[[TableEvent], None], handshaking: Callable[[], int] = lambda: 0):
        self.report = report
        self.handshaking = handshaking  # links to this process whose handshake is under way
        self.sent: dict[Connection, int | None] = {}  # steps of the log sent (None: not told the table yet)
        self.intro: list[bytes] = []  # the table, encoded once: set when the roster is known
        self.points: bytes | None = None  # the table's other watch points, encoded
        self.chat = True  # the table's chat reaches spectators
        self.patience = PATIENCE
        self._serving: set[asyncio.Task] = set()
        self._news: asyncio.Event | None = None  # set when the log grew (or the table became known)
        self._seen: tuple[bool, int] = (False, 0)
        self._batches: dict[tuple[int, int], list[bytes]] = {}  # (from, to) steps -> messages, shared
        self._log: Log = lambda: ()
        self.last: list[bytes] = []  # the table's last words, after the whole log (the votes or evidence that ended it)
        self._told_last: set[Connection] = set()
        self._dropped: dict[bytes, float] = {}  # spectators whose link dropped (they did not leave): since when
        self._arriving: set[Connection] = set()  # links up that have not said what they want yet

    def __len__(self) -> int:
        return len(self.sent)

    async def first_word(self, conn: Connection) -> bytes:
        """The first message of a new link to this watch point (``STRANGER_TIME`` seconds at
        most).  Until it comes the link may be a spectator's, coming (or back) for the end: the
        game's end waits for it as for one watching (:meth:`settle`)."""
        self._arriving.add(conn)
        try:
            return await asyncio.wait_for(conn.recv(), STRANGER_TIME)
        finally:
            self._arriving.discard(conn)

    async def serve(self, conn: Connection, start: int, log: Log) -> None:
        """One spectator, from step ``start``, until it leaves or is cut off."""
        task = asyncio.current_task()
        if task is not None:
            self._serving.add(task)
        self.sent[conn] = None
        self._log = log
        conn.cap_send_buffer(SEND_BUFFER)
        self.report(WatcherCame(len(self.sent)))
        feeder = asyncio.create_task(self._feed(conn, start, log))
        left = False
        try:
            while True:
                msg = decode(await conn.recv())
                left = msg["t"] == "bye"
                conn.close(Words("left") if left else Words("spectators only watch"))
        except RemoteProtocolError:
            conn.close(Words("malformed message from a spectator"))
        except ConnectionClosed:
            pass
        finally:
            feeder.cancel()
            await asyncio.gather(feeder, return_exceptions=True)
            if not left and conn.peer_key is not None:  # (the log may grow before it is back)
                now = asyncio.get_running_loop().time()
                self._dropped = {key: at for key, at in self._dropped.items() if now - at < COME_BACK}
                self._dropped.setdefault(conn.peer_key, now)  # (since the first drop it has not made up for)
            self.sent.pop(conn, None)
            self._told_last.discard(conn)
            self._serving.discard(task)
            self.report(WatcherLeft(conn.reason))

    async def _feed(self, conn: Connection, start: int, log: Log) -> None:
        """Send the spectator the table, then the log, one batch at a time, each
        once it took the one before; cut it off if it does not."""
        sent: int | None = None
        while not conn.closed:
            steps = log()
            messages: list[bytes] = []
            if sent is None and self.intro:
                messages += self.intro + ([self.points] if self.points else [])
                sent = min(start, len(steps))
            if sent is not None and sent < len(steps):
                batch, sent = self._batch(steps, sent)
                messages += batch
            if sent is not None and sent == len(steps) and self.last and conn not in self._told_last:
                messages += self.last   # after every step they speak of
                self._told_last.add(conn)
            if sent is not None and conn.peer_key is not None and not self._lacks(conn, sent):
                self._dropped.pop(conn.peer_key, None)  # back, and told it all
            if not messages:
                await self._wait_news()
                continue
            self.sent[conn] = sent
            try:
                for m in messages:
                    conn.send_nowait(m)
            except ConnectionClosed:
                return
            if not await conn.drained(self.patience):
                conn.close(TOO_SLOW)
                return

    def _batch(self, steps: Sequence[tuple[Any, list[bytes]]], sent: int) -> tuple[list[bytes], int]:
        """The messages for the steps from ``sent`` on, about ``BATCH`` bytes (at
        least one step), encoded once for every spectator asking for the same."""
        end, size = sent, 0
        while end < len(steps) and (end == sent or size < BATCH):
            size += sum(map(len, steps[end][1]))
            end += 1
        key = (sent, end)
        if key not in self._batches:
            if len(self._batches) > 64:
                self._batches.clear()
            self._batches[key] = steps_messages([step for _, step in steps[sent:end]])
        return self._batches[key], end

    async def _wait_news(self) -> None:
        if self._news is None:
            self._news = asyncio.Event()
        await self._news.wait()

    def flush(self, log: Sequence[tuple[Any, list[bytes]]]) -> None:
        """The log (or the table) changed: every spectator's feeder sends what it lacks."""
        seen = (bool(self.intro), len(log))
        if seen == self._seen:
            return
        self._seen = seen
        self._wake()

    def _wake(self) -> None:
        """Every feeder waiting for news looks again."""
        if self._news is not None:
            self._news.set()
            self._news = None

    def end_with(self, *messages: bytes) -> None:
        """The table's last words (the signed votes that ended it, or a cheat's
        evidence and the goodbye): each spectator, one watching now or one that
        comes back for them, gets them once it holds the whole log, which they
        are checked against."""
        self.last = list(messages)
        self._wake()

    def _lacks(self, conn: Connection, sent: int | None) -> bool:
        """Whether the spectator on ``conn``, sent ``sent`` steps, has not been sent the
        whole log yet (and the table's last word, if any)."""
        return sent != len(self._log()) or (bool(self.last) and conn not in self._told_last)

    async def settle(self, within: float = SETTLE, come_back: float = COME_BACK) -> None:
        """The game is over: until every spectator took the whole log (and the
        table's last word, if any) and hung up, or for ``within`` seconds at most
        (the table never waits longer for them), a link up that has not said what it
        wants yet counting as one, and so a link whose handshake is under way (a spectator
        whose watch point went in the game's last second may be coming here for the end:
        seeds 55279, 58963, 63276, the handshake slow on a slow network); and until a
        spectator whose link dropped before it took them came back for them,
        ``come_back`` seconds after it dropped at most (one cut off in the game's last seconds would otherwise
        find every watch point closed, and never learn how the game ended).  Only
        a link that dropped within those ``within`` seconds counts: one that drops
        later (again and again, say, each time it came back) keeps the table no
        longer, which never waits more than ``within`` and ``come_back`` together."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        cut = False
        while self.intro:
            now = loop.time()
            if not cut and now >= deadline:
                # a spectator that has not hung up may not hold the end: its link may have stalled
                # where it cannot tell yet (a record whose length came corrupted waits for bytes
                # that never come); the link is cut, and it may come back as one whose link dropped
                cut = True
                for conn in [c for c in list(self.sent) if not c.closed]:
                    if conn.peer_key is not None:
                        self._dropped[conn.peer_key] = deadline - 0.001
                    conn.close(TOO_SLOW)
            # (a spectator hangs up once it holds the end, saying ``bye``: what was sent may yet be lost)
            if not (now < deadline and (any(not conn.closed for conn in [*self.sent, *self._arriving])
                                        or self.handshaking() > 0)
                    or any(at < deadline and now - at < come_back for at in self._dropped.values())):
                return
            await asyncio.sleep(0.05)

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
