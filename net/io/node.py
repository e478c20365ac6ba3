"""A seat's process on the network: the lobby, the game over links, saves and
reconnects (asyncio).  Everything that decides anything is sans-I/O
(:mod:`ankh.net.lobby`, :mod:`ankh.net.peer`, :mod:`ankh.net.hub`); this
module only moves bytes, keeps time and writes files.

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
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from ...core.game import COLOURS, GAMES, Decision, get
from .. import home, journal
from ..admission import Door
from ..entropy import random_bytes
from ..envelope import HEADER_LEN, Identity, unpack_strict
from ..events import (
    Advertised, Alert, Away, Back, Chat, ChatHidden, Gone, HostKey, Listening, LobbySeats, NotAdvertised, Over,
    Paused, Played, Saving, Started, TableEvent, TranscriptSaved, Waiting, WatchLost, WatchMoved, WatchPointOpen,
    WatchWaiting,
)
from ..errors import LocalProtocolError, ProtocolError, RemoteProtocolError, Words
from ..leave import (
    GONE_AFTER, MOVE_CLOCK, News, OwnClock, Silence, Stop, check_agreement, describe_ending, own_wait, vote,
)
from ..lobby import PROTOCOL, Start, chat_message, check_chat, decode, encode, frames_message, watch_intro
from ..peer import AUDIT, Finished, GamePeer, Spectator, game_of
from ..seat import SeatProtocol
from ..secrets import SeatSecrets
from ..tablecore.effects import (
    Again, Announce, Broadcast, CheckPlayers, Close, CreateSave, Journal, JournalEnding, Renumber, Send, Think,
    WatchEnd, WatchIntro, WatchLog, WatchPoints, WatchSay, WatchSend, WriteAbandoned, WriteTranscript,
)
from ..tablecore.host import CLOSING, DONE, GAME_OVER, PAUSED, REFUSED, HostTable, Refused, Saved, Watcher
from ..tablecore.result import Result, aborted, outcome_result, stopped_result
from ..tablecore.save import check_header
from ..tablecore.seats import SeatCore
from ..tablecore.waits import ABANDON_AFTER
from ..transcript import DEFAULT_KIND, Roster
from .discovery import TableAdvert, TableBrowser
from .transport import (
    STRANGER_TIME, Connection, ConnectionClosed, close_server, connect, now as _now, open_files_limit, serve,
    server_port,
)
from .watchers import WATCH_ONLY, Watchers

PROLOGUE = PROTOCOL.encode()
RETRY_EVERY = 1.0
FEED_SLICE = 8  # frames a spectator checks between looks at its link (a shuffle proof is one frame)
LOBBY_PATIENCE = 30.0  # seconds a joiner whose link dropped before the game tries to get back
FAREWELL = 30.0  # seconds a finished seat waits for the others to hold the whole game too (see ``done``)

# decide(peer, decision) -> the option (a bot answers at once, a person when ready)
Decide = Callable[[GamePeer, Decision], Awaitable[tuple]]
Report = Callable[[TableEvent], None]


class SaveDir:
    """One seat's save of a networked game: its secrets (owner-only) and the journal."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._journal: Any = None

    @property
    def journal_path(self) -> Path:
        return self.path / "journal.ankh"

    def create(self, roster: Roster, info: dict[str, Any], secrets: dict[int, SeatSecrets]) -> None:
        home.make_dirs(self.path)
        for seat, s in secrets.items():
            _write_private(self.path / f"seat{seat}.secrets", s.to_bytes())
        fd = os.open(self.journal_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        self._journal = os.fdopen(fd, "wb")
        self._journal.write(journal.header(roster, info))
        self._journal.flush()

    def reopen(self) -> None:
        """Append to the journal again, after cutting off a last record that a
        crash left cut short (reading stops before it; appending after it would
        glue the next record to it)."""
        whole = journal.whole_length(self.journal_path.read_bytes())
        self._journal = open(self.journal_path, "r+b")
        self._journal.truncate(whole)
        self._journal.seek(whole)

    def append(self, frames: list[bytes]) -> None:
        self._journal.write(journal.step(frames))
        self._journal.flush()

    def ending(self, **record: Any) -> None:
        """How the table ended the game before its end (``journal.ending``): kept for ``ankh verify``."""
        if self._journal is not None:
            self._journal.write(journal.ending(**record))
            self._journal.flush()

    def load(self) -> tuple[Any, dict[str, Any], dict[int, SeatSecrets]]:
        """The journal's game, its header's info and this seat's secrets; a
        save that cannot be carried on raises :class:`DamagedSave` (saying
        why) and is left as it is."""
        try:
            transcript, info = journal.read(self.journal_path.read_bytes())
            if not transcript.end:  # (an ended game is over, whatever its header says)
                check_header(info, transcript.roster)
            secrets = {}
            for f in sorted(self.path.glob("seat*.secrets")):
                s = SeatSecrets.from_bytes(f.read_bytes())
                secrets[s.seat] = s
        except OSError as exc:
            raise DamagedSave(Words("{path} cannot be read: {why}", path=str(self.path),
                                    why=exc.strerror or str(exc))) from None
        except Exception as exc:  # whatever a damaged or doctored file holds, never a crash
            why = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            raise DamagedSave(Words("{path} is damaged and cannot be carried on ({why}); it was left as it is",
                                    path=str(self.path), why=why)) from None
        if transcript.end:
            raise DamagedSave(Words("that game is over: its seats ended it after a seat left"))
        if _retired_moves(transcript):
            raise DamagedSave(Words("the game in {path} was saved by an earlier version of ankh whose trades took "
                                    "several moves: this version cannot carry it on; it was left as it is",
                                    path=str(self.path)))
        return transcript, info, secrets

    def finish(self, transcript: Any) -> Path:
        """The complete game as a transcript for ``ankh verify``."""
        out = self.path / "game.ankh"
        _write_private(out, transcript.to_bytes())
        return out

    def close(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None


def _retired_moves(transcript: Any) -> bool:
    """Whether a move of the journal has a shape only an earlier version of its
    game's rules asked for (``Game.retired_move``)."""
    kind = transcript.roster.kind or DEFAULT_KIND
    if kind not in GAMES:
        return False    # (refused as it is read: a game this program does not know)
    game = get(kind)
    for frame in transcript.frames():
        try:
            obj = unpack_strict(frame[HEADER_LEN:])
            move = obj["body"]["move"] if obj["kind"] == "move" else None
        except (RemoteProtocolError, KeyError, TypeError):
            continue    # (what the table checks as it replays the journal)
        if move and game.retired_move(tuple(move)):
            return True
    return False


class DamagedSave(ValueError):
    """A save whose journal, header or secrets do not make a game to carry on."""


def _refuse(conn: Connection, why: str) -> None:
    """Turn a peer away on purpose: a ``bye`` saying why, then the link closes.
    (A link that closes without one failed, or was cut: a joiner tries again.)"""
    with contextlib.suppress(ConnectionClosed):
        conn.send_nowait(encode({"t": "bye", "why": (REFUSED + why)[:200]}))
    conn.close(why)


def _heard_the_end(conn: Connection) -> None:
    """A seat tells the host it heard how the table ended (``done``): the host
    need not wait for it to come back for the table's last words."""
    with contextlib.suppress(ConnectionClosed):
        conn.send_nowait(encode(DONE))


def _farewell(why: str) -> str:
    """The host's ``bye`` as a joiner tells it: a refusal keeps its reason apart, so a
    screen can say both in its player's language."""
    if why.startswith(REFUSED):
        return Words("refused: {why}", why=why.removeprefix(REFUSED))
    return why


def _write_private(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


class _Driver:
    """What both roles' processes do alike: carry out their core's effects
    (the screens, the save, the players' decisions)."""

    def __init__(self, *, report: Report, decide: dict[int, Decide] | Decide, save: SaveDir | None):
        self.report = report
        self._decide = decide
        self.save = save
        self.done = asyncio.Event()

    def decider(self, seat: int) -> Decide:
        return self._decide[seat] if isinstance(self._decide, dict) else self._decide

    @property
    def _core(self) -> SeatCore:  # pragma: no cover - each role says which
        raise NotImplementedError

    def _call(self, step: Callable[..., Any], *args: Any) -> Any:
        """One of the core's steps (whose effects a core of its own queues: see HostNode)."""
        return step(*args)

    def _carry_out(self, effect: Any) -> None:
        match effect:
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
        """Pin the identity of every person at the table on first meeting; a known
        name with another key is reported (the screens show it), never accepted silently."""
        try:
            known = home.KnownPlayers()
            for name, key in people:
                warning = known.warning(name, key)
                if warning is not None:
                    self.report(Alert(warning))
                elif known.check(name, key) == "new":
                    known.pin(name, key)
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
                          move_clock=move_clock, save_root=save_root, bind=bind, port=port, saved=saved)
        self.identity = identity
        self.name = name
        self.advertise = advertise
        self.advert: TableAdvert | None = None
        self.bind = bind
        self.conns: dict[int, Connection] = {}
        self.watchers = Watchers(report)
        self.watchers.chat = self.table.spectator_chat
        self.door = Door.for_descriptors(open_files_limit())
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

    hub = property(lambda self: self.table.hub)
    local = property(lambda self: self.table.local)
    lobby = property(lambda self: self.table.lobby)
    start = property(lambda self: self.table.start)
    roster = property(lambda self: self.table.roster)
    result = property(lambda self: self.table.result)
    bot_seats = property(lambda self: self.table.bot_seats)
    unconfirmed = property(lambda self: self.table.unconfirmed)
    port = property(lambda self: self.table.port)
    confirmed = property(lambda self: self.table.confirmed)

    @property
    def abandon_after(self) -> float:
        return self.table.abandon_after

    @abandon_after.setter
    def abandon_after(self, seconds: float) -> None:
        self.table.abandon_after = seconds

    @property
    def auto_agree(self) -> bool:
        return self.table.auto_agree

    @auto_agree.setter
    def auto_agree(self, on: bool) -> None:
        self.table.auto_agree = on

    @property
    def primary(self) -> int:
        return self.table.primary

    # -- what the person at the host does -------------------------------------------------------

    def set_ready(self, ready: bool) -> None:
        self._call(self.table.set_ready, ready)

    def confirm_fingerprint(self) -> None:
        self._call(self.table.confirm_fingerprint)

    def chat(self, text: str) -> None:
        self._call(self.table.chat, text)

    def agree(self) -> None:
        self._call(self.table.agree)

    def leave(self) -> None:
        self._call(self.table.leave)

    # -- carrying out the core's effects --------------------------------------------------------

    def _run(self) -> None:
        for effect in self.table.take():
            self._carry_out(effect)

    def _call(self, step: Callable[..., Any], *args: Any) -> Any:
        """One of the core's steps, then what it queued (even if the step failed half way)."""
        try:
            return step(*args)
        finally:
            self._run()

    def _carry_out(self, effect: Any) -> None:
        match effect:
            case Send(seat=seat, msg=msg):
                self._send(seat, msg)
            case Broadcast(msg=msg):
                self._broadcast(msg)
            case Close(seat=seat, why=why):
                if (conn := self.conns.get(seat)) is not None:
                    conn.close(why)
            case Renumber(keys=keys):
                self.conns = {keys.index(c.peer_key): c for c in self.conns.values()}
            case Announce(changes=changes):
                self._update_advert(**changes)
            case Again():
                asyncio.get_running_loop().call_soon(self._again)
            case WatchIntro(intro=intro):
                self.watchers.intro = intro
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
            case CreateSave(path=path, roster=roster, info=info, secrets=secrets):
                self.save = SaveDir(path)
                self.save.create(roster, info, secrets)
            case WriteAbandoned(text=text):
                if self.save is not None:
                    _write_private(self.save.path / "abandoned.txt", (text + "\n").encode())
            case _:
                super()._carry_out(effect)

    def _again(self) -> None:
        if self.table.hub is not None:
            self._call(self.table.flush)

    def _broadcast(self, msg: dict[str, Any]) -> None:
        for seat in list(self.conns):
            self._send(seat, msg)

    def _send(self, seat: int, msg: dict[str, Any] | bytes) -> None:
        conn = self.conns.get(seat)
        if conn is None:
            return
        try:
            conn.send_nowait(msg if isinstance(msg, bytes) else encode(msg))
        except ConnectionClosed:
            pass

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
            result = self.table.result
            if result is not None and (result.finished or self.table.last_words):
                await self._see_everyone_done()
            if result is not None and (result.finished or result.ending is not None or self.table.last_words):
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
        while not self.table.everyone_done() and _now() < deadline:
            await asyncio.sleep(0.05)

    async def _watch(self) -> None:
        while self.table.result is None:
            await asyncio.sleep(1.0)
            self._call(self.table.tick)

    async def _advertise(self) -> None:
        """Announce the table on the LAN (on the bound interface only, if one is given)."""
        interfaces = "all" if self.bind in ("0.0.0.0", "::", "") else [self.bind]
        kw = {} if interfaces == "all" else {"interfaces": interfaces, "addresses": [self.bind]}
        lobby = self.table.lobby
        try:
            self.advert = TableAdvert(port=self.table.port, table_id=lobby.table, host_key=self.identity.public_key,
                                      host_name=self.name, seats_taken=len(lobby.seats), seats_total=lobby.total,
                                      phase="lobby" if self.table.hub is None else "playing", game=lobby.kind, **kw)
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
        for conn in list(self.conns.values()):
            conn.close(last)
        await self.watchers.aclose(last)

    # -- the links ---------------------------------------------------------------------------

    async def _on_connection(self, conn: Connection) -> None:
        try:
            first = decode(await asyncio.wait_for(conn.recv(), STRANGER_TIME))
        except (ConnectionClosed, RemoteProtocolError, asyncio.TimeoutError) as exc:
            conn.close(Words("no greeting: {why}", why=getattr(exc, "reason", None) or getattr(exc, "message", None)
                                 or Words("timed out")))
            return
        if first["t"] in ("join", "rejoin"):
            self.door.sit(conn.ticket)
        elif first["t"] == "watch" and (refused := self.door.watch(conn.ticket)) is not None:
            _refuse(conn, refused)
            return
        self.table.sink = None  # (what a newcomer's arrival says goes out once its link is the seat's)
        try:
            arrival = self.table.arrive(conn.peer_key, conn.peer_address, first)
        except BaseException:
            self._run()
            raise
        finally:
            self.table.sink = self._carry_out
        if isinstance(arrival, Refused):
            _refuse(conn, arrival.why)
            return
        if isinstance(arrival, Watcher):
            await self.watchers.serve(conn, arrival.start, self.table.log)
            return
        old = self.conns.get(arrival)
        self.conns[arrival] = conn
        if old is not None and old is not conn:
            old.close(Words("replaced by a new connection"))
        self._run()
        await self._read(conn)

    def _seat_of(self, conn: Connection) -> int | None:
        return next((s for s, c in self.conns.items() if c is conn), None)

    async def _read(self, conn: Connection) -> None:
        seat = self._seat_of(conn)
        while True:  # (after the end too: a seat may say it holds the whole game, or heard how it ended)
            try:
                msg = decode(await conn.recv())
            except ConnectionClosed as exc:
                now = self._seat_of(conn)
                if now is not None:
                    seat = now
                    if self.table.result is None:
                        del self.conns[seat]
                if seat is not None:
                    self._call(self.table.lost, seat, exc.reason, now is not None)
                return
            except RemoteProtocolError as exc:
                conn.close(Words("malformed message: {why}", why=exc.message))
                continue
            seat = self._seat_of(conn)  # (a seat in the lobby moves up when one before it leaves)
            if seat is None:
                continue  # a link replaced by a newer one: what it still says is not the seat's
            if self._call(self.table.received, seat, msg):
                return


class JoinNode(SeatCore, _Driver):
    """Sits at a table by its address and plays one seat; reconnects when the link drops."""

    def __init__(self, identity: Identity, name: str, *, decide: Decide, report: Report,
                 save_root: Path | None, ready: bool = True, want: str | None = None, confirmed: bool = True):
        SeatCore.__init__(self)
        _Driver.__init__(self, report=report, decide=decide, save=None)
        self.want = want  # the game this seat came to play (None: whatever the table plays)
        self.game_kind = DEFAULT_KIND  # the game the table plays, from its lobby
        self.identity = identity
        self.name = name
        self.save_root = save_root
        self._nonce = random_bytes(16)
        self.ready = ready
        # False: this seat's key (which the deal waits for) is sent once the
        # person has compared the table fingerprint (confirm_fingerprint)
        self.confirmed = confirmed
        self.abandon_after = ABANDON_AFTER
        self.conn: Connection | None = None
        self.peer: GamePeer | None = None
        self.address: tuple[str, int] | None = None
        self.start: Start | None = None
        self.start_msg: dict[str, Any] = {}
        self.seat = -1
        self.secrets: SeatSecrets | None = None
        self._bot_keys: set[bytes] = set()
        self.bot_seats: tuple[int, ...] = ()  # the host's bots, by seat (their votes are the host's)
        self.table = b""
        self._seat_keys: list[bytes] = []
        self._seat_names: list[str] = []
        self._said = 0
        self.watchers = Watchers(report)
        self.door = Door.for_descriptors(open_files_limit())
        self.watch_server: asyncio.Server | None = None
        self.watch_port = 0
        self.host_done = False  # the host said it holds the whole game
        # Back on a new link: our frames wait for the host's ``have`` (some may have
        # been lost with the old link, and the host takes a seat's frames in order).
        self.awaiting_have = False
        self.farewell = FAREWELL
        self._ended_at = 0.0
        self.host_key: bytes | None = None  # the host's identity, pinned at the first link: every later one must prove it
        self._impostor_told = False
        self._audit_since: float | None = None  # when this seat's own log reached the audit
        self.news: News | None = None  # the host's last word on a seat away, and the offer to end
        self._voted: Stop | None = None
        self.clock = OwnClock()  # how long the game has waited for this seat, by our own clock
        self.silence = Silence(_now())  # how long our own log has heard nothing from each seat it waits for
        self._agreeing: Stop | None = None  # the offer the person agreed to, signed once our own clock agrees

    def _do(self, effect: Any) -> None:
        self._carry_out(effect)  # (the joiner's own logic is not yet a core of its own: at once)

    @property
    def saving(self) -> bool:
        return self.save is not None

    @property
    def _core(self) -> SeatCore:
        return self

    async def run(self, host: str, port: int) -> Result:
        self.address = (host, port)
        conn = await connect(host, port, self.identity, PROLOGUE)
        self.host_key = conn.peer_key
        self.conn = conn
        self.report(HostKey(conn.peer_key))  # proved by the handshake: an advert only claims one
        conn.send_nowait(encode({"t": "join", "name": self.name, "nonce": self._nonce, "ready": int(self.ready)}))
        await self._session(conn)
        await self._close_watch_point()
        assert self.result is not None
        return self.result

    def _settled(self) -> bool:
        """Nothing more to do here: the table ended, or the game is over on
        both ends of the link (each holds every seat's final signature), or
        the host did not say so within ``farewell`` seconds of our end."""
        return self.result is not None and (not self.result.finished or self.host_done
                                            or self._farewell_left() <= 0)

    def _farewell_left(self) -> float:
        return self._ended_at + self.farewell - _now()

    async def _session(self, conn: Connection) -> None:
        while not self._settled():
            try:
                await self._read(conn)
            except ConnectionClosed as exc:
                if self.result is not None:
                    if self._settled() or exc.reason.endswith(CLOSING):  # the host is done too
                        return
                    again = await self._deliver_the_end()
                    if again is None:
                        return
                    conn = self.conn = again
                    continue
                if self.peer is None:
                    again = await self._join_again(exc.reason)
                    if again is None:
                        return
                    conn = self.conn = again
                    continue
                if exc.reason.endswith(CLOSING):  # the host ended the table on purpose
                    self.end(Result(Words("the host closed the table before the game ended")))
                    return
                if exc.reason.endswith(PAUSED):
                    self.report(Paused(0))
                else:
                    self.report(Gone(0, exc.reason))
                self.clock.link(_now(), False)
                again = await self._reconnect()
                if again is None:
                    return
                conn = self.conn = again

    async def _join_again(self, reason: str) -> Connection | None:
        """The link dropped before the game began: back to the same seat (the
        same identity and nonce), unless the host closed the table or does not
        answer for ``LOBBY_PATIENCE`` seconds.  (A host turning this seat away
        says ``bye`` first; a link that failed — bytes that do not decrypt,
        silence, a cut — closes without one, whichever end noticed.)"""
        assert self.address is not None
        if reason.endswith(CLOSING):
            self.end(Result(Words("the table closed before the game began: {why}", why=reason)))
            return None
        self.report(Gone(0, reason))
        since = _now()
        while True:
            try:
                conn = await self._connect()
                break
            except ConnectionClosed as exc:
                if _now() - since >= LOBBY_PATIENCE:
                    self.end(Result(Words("the table closed before the game began: {why}", why=exc.reason)))
                    return None
                await asyncio.sleep(RETRY_EVERY)
        conn.send_nowait(encode({"t": "join", "name": self.name, "nonce": self._nonce, "ready": int(self.ready)}))
        if self.start is not None and self.secrets is not None and self.confirmed:  # our key may have been lost
            self._send_key(conn)
        self.report(Back(0))
        return conn

    async def _connect(self) -> Connection:
        """A new link to the table's address, which must be the host's: a link that
        does not prove the host's identity (pinned at the first link, or in the
        save's seats) ends in its handshake, before anything is said on it."""
        assert self.address is not None
        try:
            return await connect(*self.address, self.identity, PROLOGUE, timeout=3, expected_peer=self.host_key)
        except ConnectionClosed as exc:
            if self.host_key is not None and "not the expected" in exc.reason and not self._impostor_told:
                self._impostor_told = True
                self.report(Alert(exc.reason))
            raise

    def _rejoin(self) -> bytes:
        assert self.peer is not None
        self.awaiting_have = True
        return encode({"t": "rejoin", "game": self.peer.protocol.roster.game_id,
                       "have": list(self.peer.protocol.have())})

    async def _deliver_the_end(self) -> Connection | None:
        """The game is over here but the link dropped before the host said it
        is over there too (our last frames may have been lost with the link):
        connect again, quietly, for up to ``farewell`` seconds from the end."""
        assert self.address is not None and self.peer is not None
        while self._farewell_left() > 0:
            try:
                conn = await self._connect()
                conn.send_nowait(self._rejoin())  # (a link may end as soon as it is up: then try again)
                conn.send_nowait(encode(DONE))
            except ConnectionClosed:
                await asyncio.sleep(RETRY_EVERY)
                continue
            return conn
        return None

    async def _reconnect(self) -> Connection | None:
        assert self.address is not None and self.peer is not None
        since = _now()
        while True:
            try:
                conn = await self._connect()
                conn.send_nowait(self._rejoin())  # (a link may end as soon as it is up: then try again)
            except ConnectionClosed:
                gone = _now() - since
                self.report(Waiting((0,), {0: gone}))
                if gone >= self.abandon_after:
                    self.end(Result(Words("paused: {colour} (the host) did not come back within {secs:g} s; "
                                          "the game waits in your saves", colour=COLOURS[0],
                                          secs=self.abandon_after)))
                    return None
                await asyncio.sleep(RETRY_EVERY)
                continue
            self.clock.link(_now(), True)
            self.report(Back(0))
            await self._open_watch_point(conn)
            return conn

    async def _read(self, conn: Connection) -> None:
        while not self._settled():
            try:
                if self.result is None:
                    msg = decode(await conn.recv())
                else:  # the game is over here: we wait for the host's word a while only
                    msg = decode(await asyncio.wait_for(conn.recv(), self._farewell_left()))
            except asyncio.TimeoutError:
                conn.close(GAME_OVER)
                return
            except RemoteProtocolError as exc:
                conn.close(Words("malformed message: {why}", why=exc.message))
                continue
            t = msg["t"]
            if t == "done":
                self.host_done = True
                if self.result is not None:
                    conn.close(GAME_OVER)
                    return
            elif t == "have" and self.peer is not None:
                mine = self.peer.protocol.frames_after(msg["have"])  # those it lacks, held ones too
                for m in frames_message(mine):
                    conn.send_nowait(m)
                self.awaiting_have = False
            elif self.result is None:  # (the game over here: only what the host lacks still matters)
                step = self.STEPS.get(t)
                if step is not None and step(self, conn, msg):
                    return

    # -- what the host says, one step per kind of message (True: this link is done with) ---------

    def _step_chat(self, conn: Connection, msg: dict[str, Any]) -> bool:
        self._chat_in(msg)
        return False

    def _step_lobby(self, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.peer is not None:
            return False
        refusal = self._other_game(msg.get("kind", DEFAULT_KIND))
        if refusal is not None:
            self.end(Result(refusal))
            conn.send_nowait(encode({"t": "bye", "why": str(refusal)}))
            return True
        self.game_kind = msg.get("kind", DEFAULT_KIND)
        if not self._seat_keys:
            self._check_host(conn, msg)
        self.table = msg["table"]
        self._seat_keys = [s["key"] for s in msg["seats"]]
        self._seat_names = [s["name"] for s in msg["seats"]]
        self._bot_keys = {s["key"] for s in msg["seats"] if s["bot"]}
        self.report(LobbySeats.of_message(msg))
        return False

    def _step_start(self, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.start is None:
            self._on_start(msg)
        return False

    def _step_roster(self, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.peer is None and self.start is not None:
            try:
                self._on_roster(msg)
            except RemoteProtocolError as exc:
                self._abort(exc)
                return True
        return False

    def _step_points(self, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.peer is not None:
            assert self.address is not None
            points = [(p["host"], p["port"]) for p in msg["at"]]
            self.watchers.set_points([self.address] + [p for p in points if p != self.address])
        return False

    def _step_frames(self, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.peer is None:
            return False
        try:
            for frame in msg["f"]:
                self.emit(self.peer.me, self.peer.receive(frame, via=0, pump=False))
                self._heard(frame)
                self.send_out()
                self.go_on(self.peer, self.peer.pump)
        except ProtocolError as exc:
            self._abort(exc)
            return True
        self._flush()
        return False

    def _step_blame(self, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.peer is None:
            return False
        verdict = self.peer.judge(msg["f"])  # the host's word is not enough: our own log must say so
        if verdict is not None:
            self._blamed(list(msg["f"]))
            self.end(aborted(verdict))
            _heard_the_end(conn)
            return True
        return False

    def _step_away(self, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.peer is not None:
            self.news = News.from_message(msg)
            self.report(Away(self.news))
            self.watchers.send(encode(msg))
            if self.auto_agree or (self._agreeing is not None and self._agreeing == self.news.offer):
                self.agree()
        return False

    def _step_ended(self, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.peer is None:
            return False
        self._ended(msg["votes"])
        _heard_the_end(conn)
        return True

    def _step_bye(self, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.peer is None:
            self.end(Result(_farewell(msg["why"])))
        else:  # the game ended early: what our own log says, not the host's words
            if msg["why"].startswith(REFUSED):  # (a refusal too: shown as the host's word, not a result)
                self.report(Alert(_farewell(msg["why"])))
            self._stopped()
            _heard_the_end(conn)
        return True

    STEPS: dict[str, Callable[[JoinNode, Connection, dict[str, Any]], bool]] = {
        "chat": _step_chat, "lobby": _step_lobby, "start": _step_start, "roster": _step_roster,
        "points": _step_points, "frames": _step_frames, "blame": _step_blame, "away": _step_away,
        "ended": _step_ended, "bye": _step_bye,
    }

    def _blamed(self, evidence: list[bytes]) -> None:
        """The evidence of a cheat, kept in the journal and shown to the spectators
        watching through this seat (each checks it against its own log)."""
        if self.save is not None:
            if self.peer is not None:
                self.journal_steps(self.peer)  # every step finished before it, then the evidence
            self.save.ending(blame=evidence)
        self.watchers.send(encode({"t": "blame", "f": evidence}))

    def _stopped(self) -> None:
        """The host ended the game before its end: the result is what this seat's
        own log shows (the audit waiting for a seat that forfeits, or the step
        the game waited for), kept in the journal as such."""
        assert self.peer is not None
        # A seat that withheld its disclosure forfeits only once our own log waited
        # for it half the host's time (the host reached the audit a moment before us).
        waited = _now() - self._audit_since if self._audit_since is not None else 0.0
        result = stopped_result(self.peer, self.seat, forfeit=waited >= self.abandon_after / 2)
        if self.save is not None and result.text.startswith("forfeit"):
            waiting = [s for s in self.peer.waiting_for() if s != self.seat]
            self.journal_steps(self.peer)
            self.save.ending(pending=self.peer.protocol.transcript().pending, forfeit=waiting)
        self.end(result)

    def agree(self) -> None:
        """The person at this seat agrees to end the table on the host's offer
        (signed where this seat's own log stands, which must be the offer's)."""
        offer = self.news.offer if self.news is not None else None
        if offer is None or self.peer is None or self.result is not None or self.peer.me in offer.gone \
                or offer == self._voted or self.peer.phase == AUDIT:
            return  # (the game is over in its audit: a seat withholding its disclosure forfeits, not leaves)
        if self.peer.stop() != (offer.step, offer.basis):
            return  # not there yet: the host says it again every second
        if not set(offer.gone) <= set(self.peer.waiting_for()):
            return  # our log does not wait for them: the host's word alone is not this seat's to sign
        if not self._own_clock_agrees(offer):
            return
        self._voted = offer
        if self.conn is not None and not self.conn.closed:
            with contextlib.suppress(ConnectionClosed):
                self.conn.send_nowait(encode({"t": "vote", "v": vote(self.peer.protocol.secrets, offer)}))

    def _heard(self, frame: bytes) -> None:
        """A frame taken from the host's link: its signer was heard from (``Silence``)."""
        if frame and frame[0] != self.seat:
            self.silence.heard_from(frame[0], _now())

    def _own_clock_agrees(self, offer: Stop) -> bool:
        """Has this seat itself heard nothing from the seats ``offer`` names for
        the table's wait?  If not yet, it signs when it has (the host says the
        offer again every second), never on the host's count of the wait."""
        assert self.peer is not None and self.news is not None
        self._tick()
        first, self._agreeing = self._agreeing != offer, offer
        roster = self.peer.protocol.roster
        gone_after, move_clock = (self.start.gone_after, self.start.move_clock) if self.start is not None else (
            roster.gone_after, roster.move_clock)
        wait = own_wait(self.news, gone_after, move_clock)
        if self.silence.ready(offer, _now(), wait):
            return True
        if first and not self.auto_agree:
            self.report(Alert(Words("your agreement to end the table goes once this seat has itself heard nothing "
                                    "from {who} for {secs:g} s", who=" and ".join(COLOURS[s] for s in offer.gone),
                                    secs=wait)))
        return False

    def _ended(self, votes: list[bytes]) -> None:
        """The host ended the table on the seats' votes: checked here against this seat's own log."""
        assert self.peer is not None
        if self.result is not None:
            return  # the game is over here already (its log and result are final)
        step, basis = self.peer.stop()
        roster = self.peer.protocol.roster
        self._tick()
        try:
            if self.peer.phase == AUDIT:
                raise RemoteProtocolError("the game is over and in its audit: nobody leaves it, a seat forfeits")
            ending = check_agreement(roster, votes, step=step, basis=basis, waited=self.peer.waiting_for(),
                                     bots=self.bot_seats)
            if self.peer.me in ending.stop.gone:  # the votes say we left: our own clock says whether we did
                assert self.start is not None
                why = self.clock.contradicts(_now(), ending.stop, self.start.gone_after,
                                             self.start.move_clock)
                if why is not None:
                    raise RemoteProtocolError(f"they say this seat left, but {why}")
        except RemoteProtocolError as exc:
            self.end(Result(Words("aborted: the host ended the table without the seats' agreement: {why}",
                                  why=exc.message)))
            return
        self.watchers.end_with(encode({"t": "ended", "votes": list(ending.votes)}))  # to its watch point's
        self.record_ending(self.peer, ending)

    def _check_host(self, conn: Connection, msg: dict[str, Any]) -> None:
        """The host's seat in its first lobby: the key it shows must be the one its
        link proved, and a host met before must come with the key pinned for it."""
        if not msg["seats"]:
            return
        name, key = msg["seats"][0]["name"], msg["seats"][0]["key"]
        if key != conn.peer_key:
            self.report(Alert(Words("the host's seat shows a key other than the one its link proved")))
            return
        self.check_players([(name, key)])

    def _other_game(self, kind: str) -> Words | None:
        """Why this seat will not play the game ``kind`` (None: it will)."""
        if kind not in GAMES:
            return Words("refused: the table plays a game this program does not know ({kind})", kind=kind)
        if not game_of(kind).networked:
            return Words("refused: {game} cannot be played over the network yet", game=game_of(kind).name)
        if self.want is not None and kind != self.want:
            return Words("refused: the table plays {game}, not {wanted}", game=game_of(kind).name,
                         wanted=game_of(self.want).name)
        return None

    def _on_start(self, msg: dict[str, Any]) -> None:
        """The seats are final: make this seat's key for the game and send it, certified."""
        start, seat = Start.from_message(msg, my_key=self.identity.public_key, my_nonce=self._nonce,
                                         bots=self._bot_keys)  # a new table: its clocks and voices signed
        if start.kind != self.game_kind:
            raise RemoteProtocolError("start: not the game the table's lobby said it plays")
        if not home.first_time_for_game(start.game_id):
            self.end(Result(Words("refused: this table's game id was played before (an old table replayed?)")))
            return
        self.start, self.start_msg, self.seat = start, msg, seat
        self.primary = seat  # this player's row in the lobby from now on ("you"), before the deal
        self.report(Started(start))
        # (the host was checked when its link proved its key: see _check_host)
        self.check_players([(n, k) for s, (n, k) in enumerate(zip(start.names, start.identities))
                            if s not in (0, seat) and k not in self._bot_keys])
        self.bot_seats = tuple(s for s, key in enumerate(start.identities) if key in self._bot_keys)
        self.secrets = SeatSecrets.generate(start.game_id, seat, self.identity)
        assert self.conn is not None
        if self.confirmed:
            self._send_key(self.conn)

    def _send_key(self, conn: Connection) -> None:
        assert self.secrets is not None
        conn.send_nowait(encode({"t": "key", "key": self.secrets.identity.public_key, "cert": self.secrets.cert}))

    def confirm_fingerprint(self) -> None:
        """The person at this seat has compared the table fingerprint: send
        the seat's key, which the host deals once it has every seat's."""
        if self.confirmed:
            return
        self.confirmed = True
        if self.start is not None and self.secrets is not None and self.conn is not None:
            self._send_key(self.conn)

    def _on_roster(self, msg: dict[str, Any]) -> None:
        assert self.start is not None and self.secrets is not None
        roster = self.start.roster(msg["keys"], msg["certs"])
        if roster.keys[self.seat] != self.secrets.identity.public_key:
            raise RemoteProtocolError("roster: our key is not at our seat")
        if self.save_root is not None:
            self.save = SaveDir(self.save_root / f"net-{roster.game_id.hex()[:12]}")
            assert self.address is not None
            self.save.create(roster, {"role": "join", "host": self.address[0], "port": self.address[1],
                                      "nonce": self._nonce, "table": self.table, "bots": list(self.bot_seats),
                                      "start": {k: v for k, v in self.start_msg.items() if k != "t"}},
                             {self.seat: self.secrets})
            self.report(Saving(self.save.path))
        self._begin(roster, self.secrets)
        assert self.conn is not None
        task = asyncio.get_running_loop().create_task(self._open_watch_point(self.conn))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    def _begin(self, roster: Roster, secrets: SeatSecrets, frames: list[bytes] | None = None,
               journaled: int = 0) -> None:
        proto = SeatProtocol(roster, secrets, relay=0)
        self.peer = GamePeer.resume(proto, frames) if frames else GamePeer(proto)
        # Steps the peer finished on its own while taking up the game again
        # (one only this seat sends to) are not in the journal yet: they go
        # in with the next ones.
        self.saved_steps = journaled
        self.local = {secrets.seat: self.peer}
        self.primary = secrets.seat
        self.watchers.chat = self.start.spectator_chat if self.start is not None else True
        self.watchers.intro = watch_intro(self.table, self.start_msg, {"t": "roster", "keys": list(roster.keys),
                                                                       "certs": list(roster.certs)},
                                          self.bot_seats)
        self.emit(secrets.seat, self.peer.start())
        self._flush()

    def _flush(self) -> None:
        peer = self.peer
        assert peer is not None
        if self.result is not None:
            return
        self.send_out()
        self.note_setup(peer)
        self._tick()
        if peer.phase == AUDIT and self._audit_since is None:
            self._audit_since = _now()  # the game is over: from now on a withheld disclosure forfeits
        if peer.phase == "done":
            self._finish()
            return
        self.schedule_decisions()

    def _tick(self) -> None:
        """This seat's own count of how long the game waits for it (``OwnClock``)."""
        if self.peer is not None:
            self.clock.tick(_now(), self.peer.stop()[0], self.peer.me in self.peer.waiting_for())
            self.silence.tick(_now(), self.peer.stop()[0], self.peer.waiting_for())

    def send_out(self) -> None:
        """Save the finished steps, then send the host this seat's frames (saved
        first: a move sent and then lost in a crash would be decided again)."""
        peer = self.peer
        assert peer is not None
        out = self._outgoing(peer.data_to_send())
        self.journal_steps(peer)
        if out and self.conn is not None and not self.conn.closed and not self.awaiting_have:
            for m in frames_message(out):
                with contextlib.suppress(ConnectionClosed):
                    self.conn.send_nowait(m)
        self.watchers.flush(peer.protocol.ledger.log)

    # -- this seat's watch point ---------------------------------------------------------------

    async def _open_watch_point(self, conn: Connection) -> None:
        """Serve spectators too, on the address this seat reached the host from,
        and tell the host where (again after every reconnect: it may have restarted)."""
        if self.result is not None:
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
        with contextlib.suppress(ConnectionClosed):
            conn.send_nowait(encode({"t": "watchpoint", "port": self.watch_port}))

    async def _on_watcher(self, conn: Connection) -> None:
        """A spectator at this seat's watch point: it may only watch."""
        try:
            first = decode(await asyncio.wait_for(conn.recv(), STRANGER_TIME))
        except (ConnectionClosed, RemoteProtocolError, asyncio.TimeoutError):
            conn.close(Words("no greeting"))
            return
        if first["t"] != "watch" or self.peer is None:
            conn.close(WATCH_ONLY)
            return
        refused = self.door.watch(conn.ticket)
        if refused is not None:
            _refuse(conn, refused)
            return
        peer = self.peer
        await self.watchers.serve(conn, first["from"], lambda: peer.protocol.ledger.log)

    def end(self, result: Result) -> None:
        """The game is over here: the spectators watching through this seat hear
        why (a finished game they followed to its end), and the watch point closes."""
        super().end(result)
        if not result.finished and result.ending is None:
            self.watchers.send(encode({"t": "bye", "why": result.text[:200]}))
            self.watchers.close("the seat left")
        if self.watch_server is not None:
            self.watch_server.close()

    async def _close_watch_point(self) -> None:
        """The spectators watching through this seat take the game's last steps
        (a few seconds at most), then their links close."""
        if self.result is not None and (self.result.finished or self.result.ending is not None):
            await self.watchers.settle()
        await self.watchers.aclose(Words("game over"))
        if self.watch_server is not None:
            await close_server(self.watch_server)

    def set_ready(self, ready: bool) -> None:
        """Ready (or not) to begin: the deal waits for every person at the table."""
        self.ready = ready
        if self.conn is not None and not self.conn.closed and self.start is None:
            with contextlib.suppress(ConnectionClosed):
                self.conn.send_nowait(encode({"t": "ready", "ready": int(ready)}))

    def chat(self, text: str) -> None:
        """This seat's chat line, to everyone at the table (through the host)."""
        seat = self.seat if self.seat >= 0 else self._seat_keys.index(self.identity.public_key) \
            if self.identity.public_key in self._seat_keys else -1
        if seat < 0 or self.conn is None or self.conn.closed or not self.table:
            return
        self._said += 1
        msg = chat_message(self.identity, self.table, seat, self._said, text)
        if msg["text"]:
            with contextlib.suppress(ConnectionClosed):
                self.conn.send_nowait(encode(msg))
            self.said(seat, self._names()[seat], msg["text"])
            self.watchers.say(msg)

    def _names(self) -> list[str]:
        return list(self.start.names) if self.start is not None else self._seat_names

    def _chat_in(self, msg: dict[str, Any]) -> None:
        keys = list(self.start.identities) if self.start is not None else self._seat_keys
        seat = msg["seat"]
        if seat >= len(keys) or not self.table:
            return
        try:
            text = check_chat(msg, keys[seat], self.table)
        except RemoteProtocolError as exc:
            self.report(Alert(f"a chat line was refused: {exc.message}"))
            return
        self.said(seat, self._names()[seat], text)
        if self.peer is not None:
            self.watchers.say(msg)

    def _outgoing(self, frames: list[bytes]) -> list[bytes]:
        """The frames this seat sends (a seam where tests make a seat cheat)."""
        return frames

    def _apply(self, seat: int, option: tuple) -> None:
        assert self.peer is not None
        try:  # the move goes out before this seat works on what follows
            self.emit(seat, self.peer.choose(option, pump=False))
            self.send_out()
            self.go_on(self.peer, self.peer.pump)
        except ProtocolError as exc:
            self._abort(exc)
            return
        self._flush()

    def _finish(self) -> None:
        """The game is over here; the link stays up until the host says it is
        over there too (it may lack our last frames: see ``_deliver_the_end``)."""
        assert self.peer is not None
        self._ended_at = _now()
        self.finish_game(self.peer)
        if self.conn is not None and not self.conn.closed:
            with contextlib.suppress(ConnectionClosed):
                self.conn.send_nowait(encode(DONE))
            if self.host_done:
                self.conn.close(GAME_OVER)

    def _abort(self, exc: ProtocolError) -> None:
        """A broken rule ends the game here.  The cheater's signed frames go to the
        host first (it may not see the cheat itself: a wrong key in a private
        message opens for this seat alone), which checks them and passes them
        on to everyone; the journal keeps them for ``ankh verify``."""
        evidence = list(getattr(exc, "evidence", ()))[:2] if getattr(exc, "seat", None) is not None else []
        if evidence:
            self._blamed(evidence)
        self.end(aborted(exc))
        if self.conn is not None:
            with contextlib.suppress(ConnectionClosed):
                if evidence:
                    self.conn.send_nowait(encode({"t": "blame", "f": evidence}))
                self.conn.send_nowait(encode({"t": "bye", "why": "a seat broke the rules"}))

    @classmethod
    async def resume(cls, identity: Identity, save: SaveDir, *, decide: Decide, report: Report,
                     started: Callable[[JoinNode], None] | None = None, auto_agree: bool = False,
                     address: tuple[str, int] | None = None) -> Result:
        """Carry on a joined seat's save, at ``address`` (where the player found
        the host now), else at the address the save was joined at."""
        transcript, info, secrets = save.load()
        if info.get("role") != "join":
            raise LocalProtocolError("that save is not of a joined table")
        (mine,) = secrets.values()
        if mine.owner != identity.public_key:
            raise LocalProtocolError("that save belongs to another identity")
        node = cls(identity, transcript.roster.names[mine.seat], decide=decide, report=report, save_root=None)
        node.save, node.auto_agree = save, auto_agree
        node._nonce = info["nonce"]
        node.address = address or (info["host"], int(info["port"]))
        node.start_msg = {"t": "start", **info["start"]}
        node.start, node.seat = Start.from_message(node.start_msg, my_key=identity.public_key, my_nonce=node._nonce)
        node.table = info.get("table", b"")
        node.host_key = node.start.identities[0]  # the host sits first
        node.bot_seats = tuple(s for s in info.get("bots", ()) if type(s) is int)  # their votes are the host's
        node.secrets = mine
        save.reopen()
        node._begin(transcript.roster, mine, frames=transcript.frames(), journaled=len(transcript.ops))
        if started is not None:
            started(node)
        conn = await node._reconnect()
        if conn is not None:
            node.conn = conn
            await node._session(conn)
        await node._close_watch_point()
        assert node.result is not None
        return node.result


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
    """A spectator: follows a table's public log with its own public-only rules
    engine, checking every signature, proof and move; catches up at full
    speed, then follows live.  It watches through one seat's watch point
    (the host's, or a joiner's) and learns the others; when its watch point
    goes, it re-attaches to another (or the same, when it comes back) and
    carries on from the steps it holds."""

    def __init__(self, identity: Identity, *, report: Report):
        self.identity = identity
        self.report = report
        self.spectator: Spectator | None = None
        self.start: Start | None = None
        self.address: tuple[str, int] | None = None
        self.points: list[tuple[str, int]] = []  # every watch point heard of, the first given first
        self.result: Result | None = None
        self.received = 0  # bytes of link messages received (for tests that scan them)
        self.seen: list[bytes] = []  # every frame received, when ``keep`` is set
        self.raw: list[bytes] = []  # every link message received, when ``keep`` is set
        self.keep = False
        self.table = b""
        self.bot_keys: set[bytes] = set()  # the host's bots, as the watch point says (their votes are the host's)
        self.abandon_after = ABANDON_AFTER  # no watch point answered this long: the table is gone
        self.paused = False  # the host left: the game waits for it (told once, until it moves on)

    async def run(self, host: str, port: int) -> Result:
        self.points = [(host, port)]
        at, failed, since = 0, 0, None
        while self.result is None:
            address = self.points[at % len(self.points)]
            try:
                conn = await connect(*address, self.identity, PROLOGUE, timeout=3)
            except ConnectionClosed:
                if self.spectator is None and len(self.points) == 1:
                    raise
                at, failed = at + 1, failed + 1
                since = since if since is not None else _now()
                gone = _now() - since
                if gone >= self.abandon_after:
                    self.result = Result(Words("the table closed: no watch point answered for {secs:.0f} s", secs=gone))
                    self.report(Over(self.result))
                elif failed >= len(self.points):  # none answers now: wait, then try them all again
                    self.report(WatchWaiting(gone))
                    await asyncio.sleep(RETRY_EVERY)
                    failed = 0
                continue
            if self.address is not None and address != self.address:
                self.report(WatchMoved(address))
            self.address, failed, since = address, 0, None
            try:
                conn.send_nowait(encode({"t": "watch", "from": self.spectator.steps_followed if self.spectator else 0}))
                await self._follow(conn)
            except ConnectionClosed as exc:
                if self.result is None:
                    if exc.reason.endswith(CLOSING) or (self.spectator is None and len(self.points) == 1):
                        self.result = Result(Words("the table closed: {why}", why=exc.reason))
                        self.report(Over(self.result))
                    elif exc.reason.endswith(PAUSED):  # the game waits for the host to load its save
                        if not self.paused:
                            self.paused = True
                            self.report(Paused(0))
                        at += 1
                    else:
                        self.report(WatchLost(address, exc.reason))
                        at += 1  # another watch point first
            finally:
                conn.close(Words("done watching"))
        return self.result

    def _table(self, conn: Connection, msg: dict[str, Any]) -> None:
        """A watch point's ``start``: the table we watch, through one of its seats."""
        start = Start.of(msg)
        if self.start is not None and start.game_id != self.start.game_id:
            raise ConnectionClosed(Words("that watch point serves another game"))
        if conn.peer_key not in start.identities:
            conn.close(Words("not a seat of this table"))
            raise ConnectionClosed(Words("that watch point is not a seat of the table"))
        if self.start is None and not start.spectator_chat:
            self.report(ChatHidden())
        self.start = start

    async def _follow(self, conn: Connection) -> None:
        start: Start | None = None
        while self.result is None:
            data = await conn.recv()
            self.received += len(data)
            if self.keep:
                self.raw.append(data)
            try:
                msg = decode(data)
            except RemoteProtocolError as exc:
                conn.close(Words("malformed message: {why}", why=exc.message))
                raise ConnectionClosed(Words("malformed message")) from None
            t = msg["t"]
            if t == "lobby":
                self.table = msg["table"]
                self.bot_keys = {s["key"] for s in msg["seats"] if s["bot"]}
            elif t == "chat" and start is not None and self.table:
                try:
                    text = check_chat(msg, start.identities[msg["seat"]], self.table)
                except (RemoteProtocolError, IndexError):
                    continue
                self.report(Chat(msg["seat"], start.names[msg["seat"]], text))
            elif t == "start":
                self._table(conn, msg)
                start = self.start
            elif t == "points":
                for p in msg["at"]:
                    point = (p["host"], p["port"])
                    # Over SSH a table may not send this program anywhere: only to
                    # its own machine (or where the server's operator allows).
                    if point not in self.points and (point[0] == self.points[0][0]
                                                     or home.ssh_may_join(*point, [])):
                        self.points.append(point)
            elif t == "roster" and start is not None and self.spectator is None:
                self.spectator = Spectator(start.roster(msg["keys"], msg["certs"]))
                self.report(Started(start))
            elif t == "frames" and self.spectator is not None and start is not None:
                if self.keep:
                    self.seen += msg["f"]
                for i in range(0, len(msg["f"]), FEED_SLICE):
                    if i:  # catching up: let the link's keepalive (and the screen) breathe
                        await asyncio.sleep(0)
                    try:
                        events = self.spectator.feed(msg["f"][i:i + FEED_SLICE])
                    except ProtocolError as exc:
                        self.result = Result(f"aborted: the log does not check: {exc}")
                        self.report(Over(self.result))
                        return
                    if events and self.paused:  # the host is back: the game moves on
                        self.paused = False
                        self.report(Back(0))
                    for e in events:
                        self.report(Played(None, e))
                        if isinstance(e, Finished):
                            self.result = outcome_result(self.spectator)
                            self.report(Over(self.result))
                            return
            elif t == "blame" and self.spectator is not None:
                try:
                    verdict = self.spectator.judge(msg["f"])  # checked against the log we followed
                except ProtocolError:
                    verdict = None
                if verdict is not None:
                    self.result = aborted(verdict)
                    self.report(Over(self.result))
                    return
            elif t == "away" and self.spectator is not None:
                self.report(Away(News.from_message(msg)))
            elif t == "ended" and self.spectator is not None:
                # the seats' signed votes, checked against the log we followed, as verify checks them
                # (votes that do not hold say nothing: the table's close then says it ended early)
                assert start is not None   # (the spectator is made from it)
                bots = [s for s, key in enumerate(start.identities) if key in self.bot_keys]
                try:
                    ending = self.spectator.ending(msg["votes"], bots)
                except (ProtocolError, ValueError, TypeError):
                    continue
                points = self.spectator.game.scores(self.spectator.engine)
                self.result = Result(describe_ending(ending, points), ending=ending, scores=points)
                self.report(Over(self.result))
                return
            elif t == "bye":  # the words of whoever serves us are nobody's evidence
                self.result = Result(Words("the table ended the game before its end")) if self.spectator is not None \
                    else Result(Words("the table closed before the game began"))
                self.report(Over(self.result))
                return
