"""The host's process (:class:`HostNode`): it listens, carries out its
:class:`~ankh.net.tablecore.host.HostTable` on the seats' links, tells it
each second that went by, keeps its advert on the LAN, and serves the spectators.
Which link is whose, what a new link may do and what each says is the core's.
"""
from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from ..wire.envelope import Identity
from ..play.events import Advertised, Alert, Listening, NotAdvertised
from ..wire.errors import RemoteProtocolError, Words
from ..wire.lobby import decode
from ..tablecore.effects import Again, Announce, Broadcast, Close, Send, Unlink, WriteAbandoned
from ..tablecore.host import HostTable
from ..tablecore.result import Result
from ..tablecore.seats import Refused, Saved, Watcher
from ..files.transcript import DEFAULT_KIND, GONE_AFTER, MOVE_CLOCK
from .discovery import TableAdvert
from .savedir import SaveDir, write_private
from .driver import PROLOGUE, Decide, Driver, Report, core_attribute, refuse, send_quietly
from .transport import Connection, ConnectionClosed, close_server, now as _now, serve, server_port


class HostNode(Driver):
    """Opens a table on a port and carries out its :class:`HostTable`: links,
    timers, the advert, the save and the spectators."""

    def __init__(self, identity: Identity, name: str, *, seats: int = 2, bots: int = 0,
                 decide: dict[int, Decide] | Decide, report: Report, save_root: Path | None = None,
                 bind: str = "0.0.0.0", port: int = 0, advertise: bool = True, ready: bool = True,
                 spectator_chat: bool = True, kind: str = DEFAULT_KIND, confirmed: bool = True,
                 gone_after: int = GONE_AFTER, move_clock: int = MOVE_CLOCK, core: type[HostTable] = HostTable,
                 save: SaveDir | None = None, saved: Saved | None = None):
        super().__init__(report=report, decide=decide, save=None)
        self.table = core(identity, name, clock=_now, seats=seats, bots=bots, kind=kind,
                          spectator_chat=spectator_chat, ready=ready, confirmed=confirmed, gone_after=gone_after,
                          move_clock=move_clock, save_root=save_root, bind=bind, port=port, saved=saved,
                          door=self.door)
        self.identity = identity
        self.name = name
        self.advertise = advertise
        self.advert: TableAdvert | None = None
        self.bind = bind
        self.watchers.chat = self.table.spectator_chat
        self.server: asyncio.Server | None = None
        if save is not None:  # a save carried on: appended to from where its journal stops
            self.save = save
            save.reopen()
        self._run()
        self.table.sink = self._carry_out  # from now on each effect is carried out as it comes

    @classmethod
    async def resume(cls, identity: Identity, save: SaveDir, *, decide: dict[int, Decide] | Decide, report: Report,
                     bind: str = "0.0.0.0", core: type[HostTable] = HostTable) -> HostNode:
        """The table of a save, seated again where its journal stops, waiting for its joiners."""
        transcript, info, secrets = save.load()
        return cls(identity, transcript.roster.names[0], decide=decide, report=report, bind=bind, advertise=False,
                   core=core, save=save, saved=Saved(transcript, info, secrets, save.path))

    # -- the core's state, as the screens and tests read it -------------------------------------

    @property
    def _core(self) -> HostTable:
        return self.table

    hub = core_attribute("hub")
    local = core_attribute("local")
    lobby = core_attribute("lobby")
    start = core_attribute("start")
    roster = core_attribute("roster")
    result = core_attribute("result")
    bot_seats = core_attribute("bot_seats")
    unconfirmed = core_attribute("unconfirmed")
    port = core_attribute("port")
    confirmed = core_attribute("confirmed")
    primary = core_attribute("primary")
    abandon_after = core_attribute("abandon_after")
    auto_agree = core_attribute("auto_agree")
    farewell = core_attribute("farewell")

    @property
    def conns(self) -> dict[int, Connection]:
        """Each seat's link now (the core's: which link a seat has is its business)."""
        return self.table.links

    def leave(self) -> None:
        self._call(self.table.leave)

    # -- carrying out the core's effects --------------------------------------------------------

    def _carry_out(self, effect: Any) -> None:
        match effect:
            case Send(seat=seat, msg=msg):
                self._send(seat, msg)
            case Broadcast(msg=msg):
                self._broadcast(msg)
            case Close(seat=seat, why=why):
                if (conn := self.conns.get(seat)) is not None:
                    conn.close(why)
            case Unlink(link=conn, why=why):
                conn.close(why)
            case Announce(changes=changes):
                self._update_advert(**changes)
            case Again():
                asyncio.get_running_loop().call_soon(self._call, self.table.again)
            case WriteAbandoned(text=text):
                if self.save is not None:
                    write_private(self.save.path / "abandoned.txt", (text + "\n").encode())
            case _:
                super()._carry_out(effect)

    def _broadcast(self, msg: dict[str, Any]) -> None:
        for seat in list(self.conns):
            self._send(seat, msg)

    def _send(self, seat: int, msg: dict[str, Any] | bytes) -> None:
        conn = self.conns.get(seat)
        if conn is not None:
            send_quietly(conn, msg)

    # -- running -------------------------------------------------------------------------

    async def open(self) -> int:
        self.server = await serve(self.bind, self.table.port, self.identity, PROLOGUE, self._on_connection,
                                  door=self.door)
        self.table.port = server_port(self.server)
        self.report(Listening(self.table.port))
        if self.advertise:
            self._advertising = asyncio.get_running_loop().create_task(self._advertise())
        self._call(self.table.opened)
        return self.table.port

    async def run(self) -> Result:
        if self.server is None:
            await self.open()
        watch = asyncio.create_task(self._watch())
        try:
            await self.done.wait()
            if self.table.waits_for_seats():  # until every other seat holds the whole game, or heard
                await self._while(self.table.farewell_left)  # how it ended (its link may come back for it)
            if self.table.spectators_settle():
                await self.watchers.settle()
            await asyncio.sleep(0.3)  # let the last frames and goodbyes go out
        finally:
            watch.cancel()
            await self.close()
        assert self.table.result is not None
        return self.table.result

    async def _watch(self) -> None:
        while self.table.result is None:
            await asyncio.sleep(1.0)
            self._call(self.table.tick)

    async def _advertise(self) -> None:
        """Announce the table on the LAN (on the bound interface only, if one is given)."""
        interfaces = "all" if self.bind in ("0.0.0.0", "::", "") else [self.bind]
        kw = {} if interfaces == "all" else {"interfaces": interfaces, "addresses": [self.bind]}
        try:
            self.advert = TableAdvert(**self.table.advert(), **kw)
            await self.advert.start()
            self.report(Advertised(self.advert.service))
        except Exception as exc:  # no multicast here: HOST:PORT still works
            self.advert = None
            self.report(NotAdvertised(str(exc) or type(exc).__name__))

    def _update_advert(self, **kw: Any) -> None:
        if self.advert is not None:
            task = asyncio.get_running_loop().create_task(self.advert.update(**kw))
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def close(self) -> None:
        if self.save is not None:  # the table is left: its save (and the lock on it) is free to carry on again
            self.save.close()
        if self.server is not None:   # first: no link is accepted while the table closes
            await close_server(self.server)
        task = getattr(self, "_advertising", None)
        if task is not None and not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        if self.advert is not None:
            with contextlib.suppress(Exception):
                await self.advert.close()
            self.advert = None
        last = self.table.last_word()
        conns = list(self.conns.values())
        for conn in conns:
            conn.close(last)
        await asyncio.gather(*(conn.left() for conn in conns))  # the seats hear why (paused, closed)
        await self.watchers.aclose(last)

    # -- the links ---------------------------------------------------------------------------

    async def _on_connection(self, conn: Connection) -> None:
        try:
            first = decode(await self.watchers.first_word(conn))
        except (ConnectionClosed, RemoteProtocolError, asyncio.TimeoutError) as exc:
            conn.close(Words("no greeting: {why}", why=getattr(exc, "reason", None) or getattr(exc, "message", None)
                                 or Words("timed out")))
            return
        try:
            # (a step of the table as any other: what waits on it asks again, as the end's wait for the seats)
            arrival = self._call(self.table.arrive, conn.peer_key, conn.peer_address, first, conn, conn.ticket)
        except Exception as exc:  # (a bug: the newcomer is let go, saying why, and the table goes on)
            why = Words("the table failed to take this link: {why}", why=str(exc) or type(exc).__name__)
            conn.close(why)
            self.report(Alert(why))
            return
        if isinstance(arrival, Refused):
            refuse(conn, arrival.why)
        elif isinstance(arrival, Watcher):
            await self.watchers.serve(conn, arrival.start, self.table.log)
        else:
            await self._read(conn)

    async def _read(self, conn: Connection) -> None:
        while True:  # (after the end too: a seat may say it holds the whole game, or heard how it ended)
            try:
                msg = decode(await conn.recv())
            except ConnectionClosed as exc:
                self._call(self.table.closed, conn, exc.reason)
                return
            except RemoteProtocolError as exc:
                self._call(self.table.garbled, conn, exc.message)
                continue
            if self._call(self.table.heard, conn, msg):
                return
