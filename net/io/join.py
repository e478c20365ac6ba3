"""A joined seat's process (:class:`JoinNode`): the link to the host, linked
again when it drops, the links to the other seats and this seat's watch
point, carrying out its :class:`~ankh.net.tablecore.join.JoinTable`, which
decides when to link again, what to say and what each link may do.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..files import home
from ..wire.envelope import Identity
from ..play.events import Alert, WatchPointOpen
from ..wire.errors import RemoteProtocolError, Words
from ..wire.lobby import decode, encode
from ..tablecore.effects import Close, KeepSeat, LetGoSeat, LinkSeat, OpenWatchPoint, Send, TellSeats
from ..tablecore.join import JoinTable
from ..tablecore.result import Result
from ..tablecore.seats import Refused, Saved
from .savedir import SaveDir, SeatTaken
from .seatlinks import SeatLinks
from ..tablecore.waits import RETRY_EVERY
from .driver import PROLOGUE, Decide, Driver, Report, core_attribute, refuse, send_quietly
from .transport import (
    Connection, ConnectionClosed, close_server, connect, now as _now, serve, server_port,
)
from .watchers import WATCH_ONLY


class JoinNode(Driver):
    """Sits at a table by its address and carries out its :class:`JoinTable`
    (one seat): the link to the host, reconnecting when it drops, the save and
    this seat's watch point.  A save carried on (``saved``, see :meth:`resume`)
    is seated again through the same constructor."""

    def __init__(self, identity: Identity, name: str, *, decide: Decide, report: Report,
                 save_root: Path | None, ready: bool = True, want: str | None = None, confirmed: bool = True,
                 core: type[JoinTable] = JoinTable, save: SaveDir | None = None, saved: Saved | None = None,
                 address: tuple[str, int] | None = None):
        super().__init__(report=report, decide=decide, save=None)
        self.core = core(identity, name, clock=_now, fresh=lambda game_id: home.first_time_for_game(game_id),
                         save_root=save_root, ready=ready, want=want, confirmed=confirmed, address=address,
                         saved=saved, door=self.door)
        self.identity = identity
        self.taken: SeatTaken | None = None  # the seat kept before its game's save exists
        self.conn: Connection | None = None
        self.watch_server: asyncio.Server | None = None
        self.watch_port = 0
        self.seats = SeatLinks(identity, lambda seat, msg: self._call(self.core.seat_said, seat, msg), self._here,
                               lambda seat, out: self._call(self.core.seat_reached, seat, out),
                               lambda seat: self._call(self.core.seat_took, seat))
        if save is not None:  # a save carried on: appended to from where its journal stops
            self.save = save
            save.reopen()
        self._run()
        self.core.sink = self._carry_out  # from now on each effect is carried out as it comes

    @classmethod
    async def resume(cls, identity: Identity, save: SaveDir, *, decide: Decide, report: Report,
                     started: Callable[[JoinNode], None] | None = None, auto_agree: bool = False,
                     address: tuple[str, int] | None = None, core: type[JoinTable] = JoinTable) -> Result:
        """Carry on a joined seat's save, at ``address`` (where the player found
        the host now), else at the address the save was joined at."""
        transcript, info, secrets = save.load()
        node = cls(identity, "", decide=decide, report=report, save_root=None, core=core, save=save,
                   saved=Saved(transcript, info, secrets, save.path), address=address)
        node.auto_agree = auto_agree
        if started is not None:
            started(node)
        node._call(node.core.resumed)
        conn = await node._relink()
        if conn is not None:
            await node._session(conn)
        await node._close_watch_point()
        assert node.result is not None
        return node.result

    # -- the core's state, as the screens and tests read it -------------------------------------

    @property
    def _core(self) -> JoinTable:
        return self.core

    name = core_attribute("name")
    want = core_attribute("want")
    game_kind = core_attribute("game_kind")
    save_root = core_attribute("save_root")
    ready = core_attribute("ready")
    confirmed = core_attribute("confirmed")
    address = core_attribute("address")
    peer = core_attribute("peer")
    start = core_attribute("start")
    start_msg = core_attribute("start_msg")
    seat = core_attribute("seat")
    secrets = core_attribute("secrets")
    bot_seats = core_attribute("bot_seats")
    table = core_attribute("table")
    host_done = core_attribute("host_done")
    awaiting_have = core_attribute("awaiting_have")
    farewell = core_attribute("farewell")
    host_key = core_attribute("host_key")
    news = core_attribute("news")
    abandon_after = core_attribute("abandon_after")
    auto_agree = core_attribute("auto_agree")
    primary = core_attribute("primary")
    local = core_attribute("local")
    result = core_attribute("result")
    saved_steps = core_attribute("saved_steps")

    # -- carrying out the core's effects --------------------------------------------------------

    def _carry_out(self, effect: Any) -> None:
        match effect:
            case Send(msg=msg, or_stop=True):
                if self.conn is not None:
                    self.conn.send_nowait(encode(msg) if isinstance(msg, dict) else msg)
            case Send(msg=msg):
                if self.conn is not None and not self.conn.closed:
                    send_quietly(self.conn, msg)
            case Close(why=why):
                if self.conn is not None:
                    self.conn.close(why)
            case LinkSeat(seat=seat, address=address, key=key):
                self.seats.seat = self.core.seat
                self.seats.link(seat, address, key)
            case TellSeats(msg=msg, keep=keep):
                self.seats.tell(msg, keep)
            case KeepSeat(nonce=nonce, secrets=secrets):
                if self.taken is not None:
                    self.taken.keep(nonce, secrets)
            case LetGoSeat():
                if self.taken is not None:
                    self.taken.let_go()
            case OpenWatchPoint(at=at):
                opening = self._open_watch_point(self.conn) if at is None else self._serve_watch_point(*at)
                task = asyncio.get_running_loop().create_task(opening)
                task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
            case _:
                super()._carry_out(effect)

    # -- the link to the host -------------------------------------------------------------------

    async def run(self, host: str, port: int) -> Result:
        self.core.address = (host, port)
        try:
            conn = await connect(host, port, self.identity, PROLOGUE)
            self.conn = conn
            kept = None
            if self.save_root is not None:
                self.taken = SeatTaken(self.save_root, conn.peer_key)
                kept = self.taken.hold()
            self._call(self.core.connected, conn.peer_key, kept)
            await self._session(conn)
            await self._close_watch_point()
        finally:
            if self.taken is not None:
                self.taken.close()
            if self.save is not None:
                self.save.close()  # (its lock too: the save may be carried on again, by this program or another)
        assert self.result is not None
        return self.result

    async def _session(self, conn: Connection) -> None:
        while not self.core.settled():
            try:
                await self._read(conn)
            except ConnectionClosed as exc:
                if self._call(self.core.lost, exc.reason) is None:
                    return
                again = await self._relink()
                if again is None:
                    return
                conn = again

    async def _read(self, conn: Connection) -> None:
        core = self.core
        while not core.settled():
            try:
                if core.result is None:
                    msg = decode(await conn.recv())
                else:  # the game is over here: we wait for the host's word a while only
                    msg = decode(await asyncio.wait_for(conn.recv(), core.farewell_left()))
            except asyncio.TimeoutError:
                self._call(core.farewell_over)
                return
            except RemoteProtocolError as exc:
                if self._call(core.malformed, exc.message):
                    return
                continue
            if self._call(core.received, msg):
                return

    async def _relink(self) -> Connection | None:
        """Link to the host again, as the core says once the link dropped
        (``JoinTable.lost``, or ``resumed`` for a save carried on): a try every
        ``RETRY_EVERY`` seconds while it says so, its opening said on each new
        link, until one is up (the seat's link from then on) or it gives up
        (None).  Whether to try, what to say and when to stop are the core's."""
        core = self.core
        while core.relink_due():
            try:
                conn = await self._connect()
                for msg in self._call(core.relink_opening):
                    conn.send_nowait(encode(msg))  # (a link may end as soon as it is up)
            except ConnectionClosed as exc:
                if self._call(core.relink_failed, exc.reason):
                    return None
                await asyncio.sleep(RETRY_EVERY)
                continue
            self.conn = conn
            if self._call(core.relinked):
                await self._open_watch_point(conn)
            return conn
        return None

    async def _connect(self) -> Connection:
        """A new link to the table's address, which must be the host's: a link that
        does not prove the host's identity (pinned at the first link, or in the
        save's seats) ends in its handshake, before anything is said on it."""
        assert self.address is not None
        return await connect(*self.address, self.identity, PROLOGUE, timeout=3, expected_peer=self.host_key)

    def _here(self) -> float:
        """This seat says on its direct links that it is here; the seconds until it says so again."""
        self._call(self.core.say_here)
        return self.core.here_every()

    # -- this seat's watch point ---------------------------------------------------------------

    async def _open_watch_point(self, conn: Connection | None) -> None:
        """Serve spectators too, on the address this seat reached the host from,
        and tell the host where (again after every reconnect: it may have restarted)."""
        if conn is None or not self.core.opens_watch_point():
            return
        if conn.local_address is None or not await self._serve_watch_point(conn.local_address[0], 0):
            return
        send_quietly(conn, self.core.watch_point(self.watch_port, conn.local_address[0]))

    async def _serve_watch_point(self, host: str, port: int) -> bool:
        """This seat's watch point open on ``host`` (``port``: any free one if 0); False
        when it cannot be (an alert says why)."""
        if self.watch_server is not None:
            return True
        try:
            self.watch_server = await serve(host, port, self.identity, PROLOGUE, self._on_watcher, door=self.door)
        except OSError as exc:
            if port:   # where the others' links to this seat started again would come back
                self.report(Alert(Words("this seat cannot open its watch point again at {host}:{port} ({why}): the "
                                        "other seats cannot link to it, so it names none of them for a disclosure "
                                        "it did not hear", host=host, port=port, why=str(exc))))
            else:
                self.report(Alert(f"spectators cannot watch through this seat: {exc}"))
            return False
        self.watch_port = server_port(self.watch_server)
        self.report(WatchPointOpen(host, self.watch_port))
        return True

    async def _on_watcher(self, conn: Connection) -> None:
        """A spectator at this seat's watch point: it may only watch."""
        try:
            first = decode(await self.watchers.first_word(conn))
        except (ConnectionClosed, RemoteProtocolError, asyncio.TimeoutError):
            conn.close(Words("no greeting"))
            return
        peer, arrival = self.core.peer, self.core.at_watch_point(first, conn.peer_key, conn.ticket)
        if isinstance(arrival, int):
            await self.seats.serve(conn, arrival)  # another seat, around the host
        elif arrival is None:
            conn.close(WATCH_ONLY)
        elif isinstance(arrival, Refused):
            refuse(conn, arrival.why)
        else:
            await self.watchers.serve(conn, arrival.start, lambda: peer.protocol.ledger.log)

    async def _close_watch_point(self) -> None:
        """The spectators watching through this seat take the game's last steps
        (a few seconds at most), then their links close; the seats' links first
        carry a cheat's evidence, either way (``JoinTable.late_left``, ``closing``, ``deliver_left``)."""
        await self._while(self.core.late_left)
        if self._call(self.core.closing):
            await self.watchers.settle()
        await self.watchers.aclose(Words("game over"))
        await self._while(self.core.deliver_left)
        await self.seats.aclose()
        if self.watch_server is not None:
            await close_server(self.watch_server)
