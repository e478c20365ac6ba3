"""A seat's process on the network: the lobby, the game over links, saves and
reconnects (asyncio).  Everything that decides anything is sans-I/O: each
role's table is a core in :mod:`ankh.net.tablecore` (the host's
``HostTable``, a joiner's ``JoinTable``, a spectator's ``WatchTable``), which
this module drives: it only moves bytes, keeps time and writes files.

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
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from ...core.game import Decision
from .. import home
from ..admission import Door
from ..envelope import Identity
from ..events import Advertised, Alert, Listening, NotAdvertised, Over, TableEvent, TranscriptSaved, WatchPointOpen
from ..errors import RemoteProtocolError, Words
from ..lobby import PROTOCOL, decode, encode
from ..peer import GamePeer
from ..tablecore.effects import (
    Again, Announce, Broadcast, CheckPlayers, Close, CreateSave, Journal, JournalEnding, LinkSeat, OpenWatchPoint,
    Send, TellSeats, Unlink, Think, WatchClose, WatchEnd, WatchIntro, WatchLog, WatchPoints, WatchSay, WatchSend,
    WriteAbandoned, WriteTranscript,
)
from ..tablecore.host import HostTable
from ..tablecore.join import JoinTable
from ..tablecore.result import Result
from ..tablecore.seats import FAREWELL, REFUSED, Refused, Saved, SeatCore, Watcher, pin_people
from ..tablecore.watch import WatchTable
from ..transcript import DEFAULT_KIND, GONE_AFTER, MOVE_CLOCK
from .discovery import TableAdvert, TableBrowser
from .savedir import SaveDir, write_private
from .seatlinks import SeatLinks
from .transport import (
    HANDSHAKE_TIMEOUT, STRANGER_TIME, Connection, ConnectionClosed, close_server, connect, now as _now,
    open_files_limit, serve, server_port,
)
from .watchers import WATCH_ONLY, Watchers

PROLOGUE = PROTOCOL.encode()
RETRY_EVERY = 1.0  # seconds between two tries to link to the host again

# decide(peer, decision) -> the option (a bot answers at once, a person when ready)
Decide = Callable[[GamePeer, Decision], Awaitable[tuple]]
Report = Callable[[TableEvent], None]


def _refuse(conn: Connection, why: str) -> None:
    """Turn a peer away on purpose: a ``bye`` saying why, then the link closes.
    (A link that closes without one failed, or was cut: a joiner tries again.)"""
    with contextlib.suppress(ConnectionClosed):
        conn.send_nowait(encode({"t": "bye", "why": (REFUSED + why)[:200]}))
    conn.close(why)


def _send(conn: Connection, msg: dict[str, Any] | bytes) -> None:
    """``msg`` on ``conn``, unless it closed meanwhile (its reader finds out)."""
    with contextlib.suppress(ConnectionClosed):
        conn.send_nowait(msg if isinstance(msg, bytes) else encode(msg))


def _core_attribute(name: str) -> property:
    """One of the core's attributes, as the screens and tests read (and set) it on its driver."""
    return property(lambda self: getattr(self._core, name),
                    lambda self, value: setattr(self._core, name, value))


class _Driver:
    """What both roles' processes do alike: carry out their core's effects
    (the screens, the save, the players' decisions)."""

    def __init__(self, *, report: Report, decide: dict[int, Decide] | Decide, save: SaveDir | None):
        self.report = report
        self._decide = decide
        self.save = save
        self.done = asyncio.Event()
        self.stirred = asyncio.Event()  # the core took a step (a driver waiting on its word asks again)
        self.watchers = Watchers(report)  # the spectators this process serves
        self.door = Door.for_descriptors(open_files_limit())

    def decider(self, seat: int) -> Decide:
        return self._decide[seat] if isinstance(self._decide, dict) else self._decide

    @property
    def _core(self) -> SeatCore:  # pragma: no cover - each role says which
        raise NotImplementedError

    # -- what the person at this seat does (every role's core takes it) ------------------------

    def set_ready(self, ready: bool) -> None:
        self._call(self._core.set_ready, ready)

    def confirm_fingerprint(self) -> None:
        self._call(self._core.confirm_fingerprint)

    def chat(self, text: str) -> None:
        self._call(self._core.chat, text)

    def agree(self) -> None:
        self._call(self._core.agree)

    def _run(self) -> None:
        for effect in self._core.take():
            self._carry_out(effect)

    def _call(self, step: Callable[..., Any], *args: Any) -> Any:
        """One of the core's steps, then what it queued (even if the step failed half way;
        nothing once its ``sink`` carries each effect out as it comes)."""
        try:
            return step(*args)
        finally:
            self._run()
            self.stirred.set()

    async def _while(self, left: Callable[[], float]) -> None:
        """Wait while the core says so: ``left()`` seconds at most, asked again after each of its steps."""
        while (secs := left()) > 0:
            self.stirred.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.stirred.wait(), secs)

    def _carry_out(self, effect: Any) -> None:
        match effect:
            case WatchIntro(intro=intro, chat=chat):
                self.watchers.intro = intro
                if chat is not None:
                    self.watchers.chat = chat
            case WatchLog(log=log):
                self.watchers.flush(log)
            case WatchSay(msg=msg):
                self.watchers.say(msg)
            case WatchSend(data=data):
                self.watchers.send(data)
            case WatchEnd(messages=messages):
                self.watchers.end_with(*messages)
            case WatchPoints(points=points):
                self.watchers.set_points(points)
            case WatchClose(why=why):
                self.watchers.close(why)
            case CreateSave(path=path, roster=roster, info=info, secrets=secrets):
                self.save = SaveDir(path)
                self.save.create(roster, info, secrets)
            case TableEvent():
                self.report(effect)
                if isinstance(effect, Over):
                    if self.save is not None:
                        self.save.close()
                    self.done.set()
            case Journal(steps=steps):
                if self.save is not None:
                    for frames in steps:
                        self.save.append(frames)
            case JournalEnding(record=record):
                if self.save is not None:
                    self.save.ending(**record)
            case WriteTranscript(transcript=transcript):
                if self.save is not None:
                    self.report(TranscriptSaved(self.save.finish(transcript)))
            case Think(seat=seat, peer=peer, decision=decision):
                asyncio.create_task(self._think(seat, peer, decision))
            case CheckPlayers(people=people):
                self._check_players(people)
            case _:
                raise TypeError(f"no driver for {effect!r}")

    async def _think(self, seat: int, peer: GamePeer, d: Decision) -> None:
        try:
            option = await self.decider(seat)(peer, d)
        except BaseException:
            self._core.forget(seat)
            raise
        self._call(self._core.decided, seat, d, option)

    def _check_players(self, people: tuple[tuple[str, bytes], ...]) -> None:
        """The people at the table, pinned in this player's known players (``pin_people``)."""
        try:
            for alert in pin_people(home.KnownPlayers(), people):
                self.report(alert)
        except (home.HomeError, OSError, ValueError) as exc:
            self.report(Alert(f"known players could not be checked: {exc}"))


class HostNode(_Driver):
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
        self.farewell = FAREWELL
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

    hub = _core_attribute("hub")
    local = _core_attribute("local")
    lobby = _core_attribute("lobby")
    start = _core_attribute("start")
    roster = _core_attribute("roster")
    result = _core_attribute("result")
    bot_seats = _core_attribute("bot_seats")
    unconfirmed = _core_attribute("unconfirmed")
    port = _core_attribute("port")
    confirmed = _core_attribute("confirmed")
    primary = _core_attribute("primary")
    abandon_after = _core_attribute("abandon_after")
    auto_agree = _core_attribute("auto_agree")

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
            _send(conn, msg)

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
            if self.table.waits_for_seats():
                await self._see_everyone_done()
            if self.table.spectators_settle():
                await self.watchers.settle()
            await asyncio.sleep(0.3)  # let the last frames and goodbyes go out
        finally:
            watch.cancel()
            await self.close()
        assert self.table.result is not None
        return self.table.result

    async def _see_everyone_done(self) -> None:
        """The game is over here: the table stays open until every other seat
        holds the whole game too, or heard how the table ended before it (its
        link may have been down: it comes back for them), or ``farewell``
        seconds pass."""
        deadline = _now() + self.farewell
        await self._while(lambda: 0.0 if self.table.everyone_done() else deadline - _now())

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
            first = decode(await asyncio.wait_for(conn.recv(), STRANGER_TIME))
        except (ConnectionClosed, RemoteProtocolError, asyncio.TimeoutError) as exc:
            conn.close(Words("no greeting: {why}", why=getattr(exc, "reason", None) or getattr(exc, "message", None)
                                 or Words("timed out")))
            return
        arrival = self._call(self.table.arrive, conn.peer_key, conn.peer_address, first, conn, conn.ticket)
        if isinstance(arrival, Refused):
            _refuse(conn, arrival.why)
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


class JoinNode(_Driver):
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

    name = _core_attribute("name")
    want = _core_attribute("want")
    game_kind = _core_attribute("game_kind")
    save_root = _core_attribute("save_root")
    ready = _core_attribute("ready")
    confirmed = _core_attribute("confirmed")
    address = _core_attribute("address")
    peer = _core_attribute("peer")
    start = _core_attribute("start")
    start_msg = _core_attribute("start_msg")
    seat = _core_attribute("seat")
    secrets = _core_attribute("secrets")
    bot_seats = _core_attribute("bot_seats")
    table = _core_attribute("table")
    host_done = _core_attribute("host_done")
    awaiting_have = _core_attribute("awaiting_have")
    farewell = _core_attribute("farewell")
    host_key = _core_attribute("host_key")
    news = _core_attribute("news")
    abandon_after = _core_attribute("abandon_after")
    auto_agree = _core_attribute("auto_agree")
    primary = _core_attribute("primary")
    local = _core_attribute("local")
    result = _core_attribute("result")
    saved_steps = _core_attribute("saved_steps")

    def chat(self, text: str) -> None:
        if self.conn is not None and not self.conn.closed:  # (a line said with no link up is not kept)
            super().chat(text)

    # -- carrying out the core's effects --------------------------------------------------------

    def _carry_out(self, effect: Any) -> None:
        match effect:
            case Send(msg=msg, or_stop=True):
                if self.conn is not None:
                    self.conn.send_nowait(encode(msg) if isinstance(msg, dict) else msg)
            case Send(msg=msg):
                if self.conn is not None and not self.conn.closed:
                    _send(self.conn, msg)
            case Close(why=why):
                if self.conn is not None:
                    self.conn.close(why)
            case LinkSeat(seat=seat, address=address, key=key):
                self.seats.seat = self.core.seat
                self.seats.link(seat, address, key)
            case TellSeats(msg=msg, keep=keep):
                self.seats.tell(msg, keep)
            case OpenWatchPoint():
                assert self.conn is not None
                task = asyncio.get_running_loop().create_task(self._open_watch_point(self.conn))
                task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
            case _:
                super()._carry_out(effect)

    # -- the link to the host -------------------------------------------------------------------

    async def run(self, host: str, port: int) -> Result:
        self.core.address = (host, port)
        conn = await connect(host, port, self.identity, PROLOGUE)
        self.conn = conn
        self._call(self.core.connected, conn.peer_key)
        await self._session(conn)
        await self._close_watch_point()
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
                conn.close(Words("malformed message: {why}", why=exc.message))
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

    async def _open_watch_point(self, conn: Connection) -> None:
        """Serve spectators too, on the address this seat reached the host from,
        and tell the host where (again after every reconnect: it may have restarted)."""
        if not self.core.opens_watch_point():
            return
        if self.watch_server is None:
            if conn.local_address is None:
                return
            try:
                self.watch_server = await serve(conn.local_address[0], 0, self.identity, PROLOGUE, self._on_watcher,
                                                door=self.door)
            except OSError as exc:
                self.report(Alert(f"spectators cannot watch through this seat: {exc}"))
                return
            self.watch_port = server_port(self.watch_server)
            self.report(WatchPointOpen(conn.local_address[0], self.watch_port))
        _send(conn, self.core.watch_point(self.watch_port))

    async def _on_watcher(self, conn: Connection) -> None:
        """A spectator at this seat's watch point: it may only watch."""
        try:
            first = decode(await asyncio.wait_for(conn.recv(), STRANGER_TIME))
        except (ConnectionClosed, RemoteProtocolError, asyncio.TimeoutError):
            conn.close(Words("no greeting"))
            return
        peer, arrival = self.core.peer, self.core.at_watch_point(first, conn.peer_key, conn.ticket)
        if isinstance(arrival, int):
            await self.seats.serve(conn, arrival)  # another seat, around the host
        elif arrival is None:
            conn.close(WATCH_ONLY)
        elif isinstance(arrival, Refused):
            _refuse(conn, arrival.why)
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
            case Close(why=why):
                if self.conn is not None:
                    self.conn.close(why)
            case TableEvent():
                self.report(effect)
            case _:
                raise TypeError(f"no driver for {effect!r}")

    async def run(self, host: str, port: int) -> Result:
        core = self.core
        core.watch(host, port)
        while core.result is None:
            address = core.point()
            alone = core.alone()
            try:
                # the only address it knows gets the whole handshake's time (a host busy dealing
                # may answer late); with others to try, a silent one is left sooner
                conn = await connect(*address, self.identity, PROLOGUE,
                                     timeout=HANDSHAKE_TIMEOUT if alone else 3)
            except ConnectionClosed:
                if alone:
                    raise
                if core.unreachable():
                    await asyncio.sleep(RETRY_EVERY)
                continue
            self.conn = conn
            try:
                conn.send_nowait(encode(core.linked(address, conn.peer_key)))
                await self._follow(conn)
            except ConnectionClosed as exc:
                core.lost(exc.reason)
            finally:
                if core.result is not None:  # it holds the end: the watch point need not wait for it to come back
                    _send(conn, {"t": "bye", "why": "done watching"})
                conn.close(Words("done watching"))
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
                conn.close(Words("malformed message: {why}", why=exc.message))
                raise ConnectionClosed(Words("malformed message")) from None
            for i, piece in enumerate(core.pieces(msg)):
                if i:  # catching up: let the link's keepalive (and the screen) breathe
                    await asyncio.sleep(0)
                why = core.received(piece)
                if why is not None:
                    raise ConnectionClosed(why)
                if core.result is not None:
                    return
