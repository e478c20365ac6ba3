"""Links over TCP with asyncio: :func:`connect`, :func:`serve` and :class:`Connection`.

A :class:`Connection` is a :class:`ankh.net.wire.link.Link` driven by a socket: a
reader task feeds it what arrives, whole messages wait in a queue for
:meth:`Connection.recv`, and a keepalive task sends a ``PING`` record when
we have been quiet for ``keepalive`` seconds and ends the connection when
nothing at all arrived for ``dead_after`` seconds, so a peer that vanished
(cable pulled, laptop closed, ``kill -9`` behind a NAT) is noticed within a
few seconds.  When more than ``MAX_UNREAD`` messages wait for ``recv``, the
connection stops reading, so a peer cannot fill our memory faster than we
use it: TCP makes it wait instead.

Every way a connection ends — a fault in the peer's bytes, its goodbye, a
reset, silence, our own :meth:`Connection.close` — becomes one reason, raised
by ``recv`` and ``send`` as :class:`ConnectionClosed` (``connect`` raises it
too when the peer cannot be reached or the handshake fails or times out).
"""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import errno
import inspect
import resource
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ..wire.admission import ACCEPT_BURST, Door
from ..wire.envelope import Identity
from ..wire.errors import Words
from ..wire.link import Link, LinkClosed, LinkUp, Message

HANDSHAKE_TIMEOUT = 10.0
STRANGER_TIME = 5.0  # seconds a server gives a new link to prove its key (then as long to say what it wants)
WRITE_HIGH_WATER = 64 * 1024  # asyncio's default: past it a writer waits for the buffer to drain
CLOSE_GRACE = 2.0    # seconds a closed link's last bytes may take to leave; then the socket is dropped
CONNECT_TRY = 1.0    # seconds one TCP connect has before a fresh one is sent (see connect)
KEEPALIVE = 1.0
DEAD_AFTER = 5.0
READ_SIZE = 65536
MAX_UNREAD = 64      # messages received but not yet taken by recv(): then we stop reading
ACCEPT_TURNS = 8     # turns of the event loop a link accepted by a closing server takes to start


def now() -> float:
    """The clock the links' and the table's timers read: the running event
    loop's (``time.monotonic`` under asyncio's own loop, a virtual clock
    under the simulator's), or ``time.monotonic`` outside a loop."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


Accept = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


class Network(Protocol):
    """Where links go instead of TCP (the simulator's in-memory network):
    streams like asyncio's, for :func:`connect` and :func:`serve`."""

    async def open_connection(self, host: str, port: int, local_addr: tuple | None) -> tuple[Any, Any]: ...

    async def start_server(self, accept: Accept, host: str | None, port: int) -> Any: ...


_NETWORK: contextvars.ContextVar[Network | None] = contextvars.ContextVar("ankh_network", default=None)


def set_network(network: Network | None) -> None:
    """From now on in the current context, links go over ``network`` (None: TCP)."""
    _NETWORK.set(network)


class ConnectionClosed(Exception):
    """The connection has ended; ``reason`` says why, in words for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Connection:
    """An authenticated, encrypted TCP connection to one peer."""

    def __init__(self, link: Link, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *,
                 keepalive: float = KEEPALIVE, dead_after: float = DEAD_AFTER) -> None:
        self.link = link
        self._reader = reader
        self._writer = writer
        self._keepalive = keepalive
        self._dead_after = dead_after
        self._inbox: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._taken = asyncio.Event()         # recv() made room in the inbox
        self._paused = False                  # not reading: the inbox is full
        self._up = asyncio.get_running_loop().create_future()
        self._closed = asyncio.Event()
        self.reason: str | None = None
        self.last_heard = now()
        self._last_sent = now()
        peer = writer.get_extra_info("peername")
        self.peer_address: tuple | None = tuple(peer) if peer else None
        local = writer.get_extra_info("sockname")
        self.local_address: tuple | None = tuple(local) if local else None
        self.ticket: object = None  # how a server's door knows this link (see serve)
        self.on_first_bytes: Callable[[], None] | None = None  # told once, when the peer first sends
        self._tasks = [asyncio.create_task(self._read_loop()), asyncio.create_task(self._keepalive_loop())]
        self._flush()

    # -- what callers use ---------------------------------------------------------------

    @property
    def peer_key(self) -> bytes | None:
        return self.link.peer_key

    @property
    def handshake_hash(self) -> bytes | None:
        return self.link.handshake_hash

    @property
    def closed(self) -> bool:
        return self.reason is not None

    async def recv(self) -> bytes:
        """The next message from the peer; raises ConnectionClosed once the connection ended."""
        if self._inbox.empty() and self.reason is not None:
            raise ConnectionClosed(self.reason)
        item = await self._inbox.get()
        self._taken.set()
        if item is None:
            self._inbox.put_nowait(None)  # every later recv sees the end too
            assert self.reason is not None
            raise ConnectionClosed(self.reason)
        return item

    def send_nowait(self, message: bytes) -> None:
        """Queue one message for the peer (raises ConnectionClosed if the connection ended)."""
        if self.reason is not None:
            raise ConnectionClosed(self.reason)
        self.link.send(message)
        self._flush()

    async def send(self, message: bytes) -> None:
        """Send one message, waiting while the socket's buffer is full."""
        self.send_nowait(message)
        try:
            await self._writer.drain()
        except (ConnectionError, OSError) as exc:
            self._end(Words("connection lost: {why}", why=exc.strerror or type(exc).__name__))
            raise ConnectionClosed(self.reason or Words("connection lost")) from None

    async def drained(self, patience: float) -> bool:
        """Wait until the peer took what was written (down to the socket's low-water
        mark); False when it did not within ``patience`` seconds or the link ended."""
        if self.reason is not None:
            return False
        if self.buffered() < WRITE_HIGH_WATER:  # the socket takes what we write: nothing to wait for
            return True
        try:
            await asyncio.wait_for(self._writer.drain(), patience)
        except (asyncio.TimeoutError, ConnectionError, OSError):
            return False
        return self.reason is None

    def cap_send_buffer(self, nbytes: int) -> None:
        """Let the kernel hold at most about ``nbytes`` for this peer (instead of
        growing its buffer to megabytes): what a peer does not read then waits
        on our side, where it is seen and bounded (see :meth:`buffered`)."""
        sock = self._writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, nbytes)

    def buffered(self) -> int:
        """Bytes written but not yet taken by the peer's socket (a slow reader's backlog)."""
        transport = self._writer.transport
        return transport.get_write_buffer_size() if transport is not None else 0

    def close(self, reason: str = "closed") -> None:
        """End the connection, telling the peer ``reason`` (sent before the socket closes)."""
        if self.reason is None:
            self.link.close(reason)
            self._flush()
            self._end(reason)

    async def wait_closed(self) -> None:
        await self._closed.wait()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def left(self) -> None:
        """After :meth:`close`: until its last bytes (the reason among them) left and
        the socket closed, ``CLOSE_GRACE`` seconds at most.  A process that ends
        sooner drops them: the peer then sees a cut, not why."""
        with contextlib.suppress(asyncio.TimeoutError, ConnectionError, OSError):
            await asyncio.wait_for(self._writer.wait_closed(), CLOSE_GRACE)

    async def aclose(self, reason: str = "closed") -> None:
        self.close(reason)
        await self.wait_closed()

    async def wait_up(self) -> None:
        """Until the peer proved its identity; raises ConnectionClosed if it did not."""
        await asyncio.shield(self._up)

    # -- the machinery ------------------------------------------------------------------

    def _flush(self) -> None:
        data = self.link.data_to_send()
        if data and not self._writer.is_closing():
            self._writer.write(data)
            self._last_sent = now()

    def _handle(self, events) -> None:
        for event in events:
            if isinstance(event, Message):
                self._inbox.put_nowait(event.data)
            elif isinstance(event, LinkUp):
                if not self._up.done():
                    self._up.set_result(None)
            elif isinstance(event, LinkClosed):
                self._flush()  # the goodbye record, if the link wrote one
                self._end(event.reason)

    def _end(self, reason: str) -> None:
        if self.reason is not None:
            return
        self.reason = reason
        if not self._up.done():
            self._up.set_exception(ConnectionClosed(reason))
            self._up.exception()  # retrieved: nobody may be waiting
        self._inbox.put_nowait(None)
        with contextlib.suppress(Exception):
            self._writer.close()
        transport = self._writer.transport
        if transport is not None and transport.get_write_buffer_size():
            # A peer that does not read would keep the socket, and what waits for
            # it, for ever: the goodbye has a moment to leave, then the socket goes.
            asyncio.get_running_loop().call_later(CLOSE_GRACE, transport.abort)
        current = asyncio.current_task()
        for task in self._tasks:
            if task is not current:
                task.cancel()
        self._closed.set()

    async def _read_loop(self) -> None:
        while self.reason is None:
            try:
                data = await self._reader.read(READ_SIZE)
            except (ConnectionError, OSError) as exc:
                self._end(Words("connection lost: {why}", why=exc.strerror or type(exc).__name__))
                return
            if data and self.on_first_bytes is not None:
                told, self.on_first_bytes = self.on_first_bytes, None
                told()
            before = self.link.records_in
            self._handle(self.link.receive_data(data))
            if self.link.records_in != before:  # a whole authentic record: the peer is alive
                self.last_heard = now()
            self._flush()
            # A peer sending faster than we take messages waits (TCP pushes back on it).
            while self._inbox.qsize() > MAX_UNREAD and self.reason is None:
                self._paused = True
                self._taken.clear()
                await self._taken.wait()
            if self._paused:
                self._paused = False
                self.last_heard = now()  # we were not listening, not the peer silent
            if not data and self.reason is None:  # the link reports EOF; belt and braces
                self._end(Words("connection closed by the peer"))

    async def _keepalive_loop(self) -> None:
        tick = min(self._keepalive, self._dead_after) / 2
        while self.reason is None:
            await asyncio.sleep(tick)
            t = now()
            if not self._paused and t - self.last_heard > self._dead_after:
                self.close(Words("no word from the peer for {secs:g} s", secs=self._dead_after))
                return
            if self.link.up and t - self._last_sent >= self._keepalive:
                self.link.ping()
                self._flush()


def _tune(writer: asyncio.StreamWriter) -> None:
    sock = writer.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


async def _handshake(conn: Connection, timeout: float) -> Connection:
    try:
        await asyncio.wait_for(conn.wait_up(), timeout)
    except asyncio.TimeoutError:
        conn.close(Words("handshake timed out after {secs:g} s", secs=timeout))
        await conn.wait_closed()
        raise ConnectionClosed(conn.reason or Words("handshake timed out")) from None
    except ConnectionClosed:
        await conn.wait_closed()
        raise
    return conn


_UNREACHABLE = {
    errno.ECONNREFUSED: Words("nothing listens there"),
    errno.ETIMEDOUT: Words("timed out"),
    errno.EHOSTUNREACH: Words("no route to that machine"),
    errno.ENETUNREACH: Words("that network cannot be reached"),
    errno.EADDRNOTAVAIL: Words("that address is not available here"),
}


def unreachable(exc: BaseException) -> str:
    """Why a connection could not be made, in words for a person."""
    if isinstance(exc, socket.gaierror):
        return Words("no machine has that name")
    code = getattr(exc, "errno", None)
    if code in _UNREACHABLE:
        return _UNREACHABLE[code]
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


async def connect(host: str, port: int, identity: Identity, prologue: bytes, *,
                  timeout: float = HANDSHAKE_TIMEOUT, expected_peer: bytes | None = None,
                  keepalive: float = KEEPALIVE, dead_after: float = DEAD_AFTER,
                  source: str | None = None) -> Connection:
    """Connect to a peer (from the local address ``source``, if given) and complete
    the handshake, or raise ConnectionClosed."""
    try:
        reader, writer = await _open(host, port, (source, 0) if source is not None else None, timeout)
    except asyncio.TimeoutError:
        _cancelled_meanwhile()
        raise ConnectionClosed(Words("could not reach {host} port {port}: {why}", host=host, port=port,
                                     why=Words("timed out"))) from None
    except (OSError, ValueError) as exc:
        _cancelled_meanwhile()
        raise ConnectionClosed(Words("could not reach {host} port {port}: {why}", host=host, port=port,
                                     why=unreachable(exc))) from None
    _tune(writer)
    link = Link(True, identity, prologue, expected_peer=expected_peer)
    conn = Connection(link, reader, writer, keepalive=keepalive, dead_after=dead_after)
    try:
        return await _handshake(conn, timeout)
    except ConnectionClosed:
        _cancelled_meanwhile()
        raise


async def _open(host: str, port: int, local: tuple[str, int] | None,
                timeout: float) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection within ``timeout`` seconds (or asyncio.TimeoutError).

    A host whose queue of connections not yet accepted is full (a flood at
    its door, on a loaded machine) drops the opening packet, and TCP sends it
    again only after 1, 2, then 4 s: over a real network a connect that has
    no answer within ``CONNECT_TRY`` is dropped and a fresh one sent, so a
    player's chance to be let in comes every second, not three times in
    seven.  (The simulator's links are opened once.)"""
    network = _NETWORK.get()
    if network is not None:
        return await asyncio.wait_for(network.open_connection(host, port, local), timeout)
    deadline = now() + timeout
    while True:
        left = deadline - now()
        try:
            return await asyncio.wait_for(asyncio.open_connection(host, port, local_addr=local),
                                          max(min(CONNECT_TRY, left), 0))
        except asyncio.TimeoutError:
            if left <= CONNECT_TRY:
                raise


def _cancelled_meanwhile() -> None:
    """Python 3.11's ``wait_for`` loses a cancellation that arrives as the awaited
    connection fails: a caller that would try again (a spectator looking for a
    watch point) must still stop, so a task being cancelled is cancelled."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


OnConnection = Callable[[Connection], "Awaitable[None] | None"]


def open_files_limit() -> int:
    """How many files this process may have open (its soft RLIMIT_NOFILE)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


async def serve(host: str | None, port: int, identity: Identity, prologue: bytes,
                on_connection: OnConnection, *, timeout: float = STRANGER_TIME,
                on_refused: Callable[[tuple | None, str], None] | None = None,
                keepalive: float = KEEPALIVE, dead_after: float = DEAD_AFTER,
                door: Door | None = None) -> asyncio.Server:
    """Accept peers on ``host``:``port`` (0 picks a free port: see :func:`server_port`).

    ``host`` None (or ``""``, ``"::"``) listens on every address, IPv6 and IPv4,
    with one socket and so one port.

    ``door`` (default: one sized to this process's limit of open files) says
    which links make way for a newcomer (strangers from the busiest address,
    those that have sent nothing before those that have, the oldest first; a
    link whose handshake is done is out of the strangers' reach).
    Each connection's ``ticket`` is its place at the door; the callee tells
    the door what the peer turned out to be (``door.watch``, ``door.sit``),
    and the door forgets it when ``on_connection`` returns.

    ``on_connection(conn)`` is called (and awaited when it is a coroutine) for
    each peer once its identity is proved; the callee owns the connection.
    Peers that fail the handshake within ``timeout`` seconds are dropped, and
    ``on_refused(address, reason)`` hears about them.
    """
    door = door if door is not None else Door.for_descriptors(open_files_limit())
    links: dict[object, Connection] = {}  # by ticket, until on_connection returns

    def make_way(evicted: list[object]) -> None:
        for old in evicted:
            if old in links:
                links.pop(old).close(Words("made way for a newer connection"))

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        ticket = object()
        peer = writer.get_extra_info("peername")
        make_way(door.arrive(ticket, peer[0] if peer else None))
        _tune(writer)
        link = Link(False, identity, prologue)
        conn = Connection(link, reader, writer, keepalive=keepalive, dead_after=dead_after)
        conn.ticket = ticket
        conn.on_first_bytes = lambda: door.heard(ticket)
        links[ticket] = conn
        try:
            try:
                await _handshake(conn, timeout)
            except ConnectionClosed as exc:
                if on_refused is not None:
                    on_refused(conn.peer_address, exc.reason)
                return
            except asyncio.CancelledError:
                conn.close(Words("shutting down"))
                return
            make_way(door.proven(ticket))
            result = on_connection(conn)
            if inspect.isawaitable(result):
                try:
                    await result
                except asyncio.CancelledError:
                    # The program is ending (its event loop cancels what is left): end this
                    # connection quietly, where asyncio's stream server (Python 3.11) would
                    # print the cancellation as an error.
                    conn.close(Words("shutting down"))
        finally:
            links.pop(ticket, None)
            door.leave(ticket)

    network = _NETWORK.get()
    if network is not None:
        return await network.start_server(accept, host, port)
    if host in (None, "", "::"):
        return await asyncio.start_server(accept, sock=_any_address_socket(port), backlog=ACCEPT_BURST)
    return await asyncio.start_server(accept, host, port, backlog=ACCEPT_BURST)


async def close_server(server: asyncio.Server) -> None:
    """Stop accepting links, first: a link accepted as the program ends would
    have its task cancelled before it starts, which asyncio's stream server
    (Python 3.11) prints as an error.  The connections accepted just before
    take their first step (a few turns of the loop: accepted, connected,
    started), where a cancellation ends them quietly."""
    server.close()
    for _ in range(ACCEPT_TURNS):
        await asyncio.sleep(0)
    with contextlib.suppress(Exception):
        await server.wait_closed()


def _any_address_socket(port: int) -> socket.socket:
    """One listening socket for IPv6 and IPv4 alike (so port 0 gives one port, not one per
    family); IPv4 alone where this machine has no IPv6."""
    for family, address in ((socket.AF_INET6, "::"), (socket.AF_INET, "0.0.0.0")):
        try:
            sock = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            sock.bind((address, port))
        except OSError:
            sock.close()
            if family == socket.AF_INET:
                raise
            continue
        return sock
    raise OSError("no TCP socket can be made here")


def server_port(server: asyncio.Server) -> int:
    """The TCP port a server from :func:`serve` listens on."""
    return server.sockets[0].getsockname()[1]
