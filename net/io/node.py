"""A seat's process on the network: the lobby, the game over links, saves and
reconnects (asyncio).  Everything that decides anything is sans-I/O: each
role's table is a core in :mod:`ankh.net.tablecore` (the host's
``HostTable``, a joiner's ``JoinTable``, a spectator's ``WatchTable``), which
its driver carries out: it only moves bytes, keeps time and writes files.
The host's is :class:`~ankh.net.io.host.HostNode`, a joiner's
:class:`~ankh.net.io.join.JoinNode` (what both do alike:
:mod:`~ankh.net.io.driver`), a spectator's :class:`WatchNode`, here.

The host listens and relays (a star): joiners talk to the host only, which
works across routed networks, VPNs and SSH tunnels where only the host is
reachable.  Bots the host seats run in its process, each as its own peer with
its own secrets (kept on the host's machine).

A seat whose link drops is waited for; a joiner reconnects by itself and the
two sides send each other whatever the other lacks from the signed log.  A
process killed outright is restarted with its save (``resume``): it follows
its journal with its engine and carries on.
"""
from __future__ import annotations

import asyncio
from typing import Any

from ..files import home
from ..wire.envelope import Identity
from ..wire.errors import RemoteProtocolError, Words
from ..play.events import TableEvent
from ..wire.lobby import decode, encode
from ..tablecore.effects import Close, GiveUp, Send, Wait
from ..tablecore.result import Result
from ..tablecore.watch import WatchTable
from .discovery import TableBrowser
from ..tablecore.waits import RETRY_EVERY
from .driver import PROLOGUE, Decide, Report, core_attribute as _core_attribute, send_quietly as _send
from .host import HostNode
from .join import JoinNode
from .transport import HANDSHAKE_TIMEOUT, Connection, ConnectionClosed, connect, now as _now

__all__ = ["PROLOGUE", "RETRY_EVERY", "Decide", "HostNode", "JoinNode", "Report", "Result", "WatchNode", "find_table"]


async def find_table(timeout: float = 10.0, *, interfaces: list[str] | None = None,
                     open_only: bool = True) -> tuple[str, int]:
    """The address of the first open table (or any table) heard of on the LAN."""
    kw = {} if interfaces is None else {"interfaces": interfaces}
    async with TableBrowser(**kw) as browser:
        async def first() -> tuple[str, int]:
            async for event in browser.events():
                t = event.table
                if event.change != "removed" and (t.open or not open_only) and t.addresses:
                    return t.addresses[0], t.port
            raise ConnectionClosed(Words("stopped looking"))

        try:
            return await asyncio.wait_for(first(), timeout)
        except asyncio.TimeoutError:
            raise ConnectionClosed(Words("no open table found on the LAN in {secs:g} s; give the table's HOST:PORT",
                                         secs=timeout)) from None


class WatchNode:
    """A spectator: carries out its :class:`WatchTable` on a link to one of the
    table's watch points (the host's, or a joiner's), moving to another when
    that one goes; it catches up at full speed, then follows live."""

    def __init__(self, identity: Identity, *, report: Report, core: type[WatchTable] = WatchTable):
        self.identity = identity
        self.report = report
        self.core = core(clock=_now, may_go=lambda host, port: home.ssh_may_join(host, port, []))
        self.core.sink = self._carry_out
        self.conn: Connection | None = None
        self.received = 0  # bytes of link messages received (for tests that scan them)
        self.raw: list[bytes] = []  # every link message received, when ``keep`` is set

    @property
    def _core(self) -> WatchTable:
        return self.core

    spectator = _core_attribute("spectator")
    start = _core_attribute("start")
    points = _core_attribute("points")
    result = _core_attribute("result")
    seen = _core_attribute("seen")
    keep = _core_attribute("keep")
    table = _core_attribute("table")
    abandon_after = _core_attribute("abandon_after")

    def _carry_out(self, effect: Any) -> None:
        match effect:
            case Send(msg=msg):
                if self.conn is not None:
                    _send(self.conn, msg)
            case Close(why=why):
                if self.conn is not None:
                    self.conn.close(why)
            case TableEvent():
                self.report(effect)
            case _:
                raise TypeError(f"no driver for {effect!r}")

    async def run(self, host: str, port: int) -> Result:
        """Watch the table at ``host:port`` to its end (its result), linking where the core
        says and waiting or giving up as it says (``WatchTable.dial``, ``unreachable``); a
        first link that fails with nothing else to try raises its ``ConnectionClosed``."""
        core = self.core
        core.watch(host, port)
        while core.result is None:
            dial = core.dial()
            try:
                conn = await connect(*dial.address, self.identity, PROLOGUE,
                                     timeout=HANDSHAKE_TIMEOUT if dial.timeout is None else dial.timeout)
            except ConnectionClosed as exc:
                match core.unreachable(exc.reason):
                    case GiveUp():
                        raise
                    case Wait(secs=secs):
                        await asyncio.sleep(secs)
                continue
            self.conn = conn
            try:
                conn.send_nowait(encode(core.linked(dial.address, conn.peer_key)))
                await self._follow(conn)
            except ConnectionClosed as exc:
                core.lost(exc.reason)
            finally:
                core.unlinking()
        return core.result

    async def _follow(self, conn: Connection) -> None:
        core = self.core
        while core.result is None:
            data = await conn.recv()
            self.received += len(data)
            if core.keep:
                self.raw.append(data)
            try:
                msg = decode(data)
            except RemoteProtocolError as exc:
                raise ConnectionClosed(core.malformed(exc.message)) from None
            for i, piece in enumerate(core.pieces(msg)):
                if i:  # catching up: let the link's keepalive (and the screen) breathe
                    await asyncio.sleep(0)
                why = core.received(piece)
                if why is not None:
                    raise ConnectionClosed(why)
                if core.result is not None:
                    return
