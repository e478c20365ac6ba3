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
    Advertised, Alert, Away, Back, Chat, ChatHidden, ChatRefused, Confirming, Decided, Gone, HostKey, Joined,
    Listening, LobbySeats, NotAdvertised, Over, Paused, Played, Saving, SetupOver, Started, TableEvent,
    TranscriptSaved, Waiting, WatchLost, WatchMoved, WatchPointOpen, WatchWaiting,
)
from ..errors import LocalProtocolError, ProtocolError, RemoteProtocolError, Words
from ..hub import Hub
from ..leave import (
    GONE_AFTER, MOVE_CLOCK, Ending, News, OwnClock, Patience, Stop, check_agreement, check_votes, describe_ending, vote,
)
from ..lobby import (
    PROTOCOL, Lobby, Start, chat_message, check_chat, decode, encode, frames_message,
    points_message, watch_intro,
)
from ..peer import AUDIT, SETUP, Finished, GamePeer, Spectator, YourMove, game_of
from ..seat import ANY_LINK, SeatProtocol
from ..secrets import SeatSecrets
from ..tablecore.chat import ChatLimit
from ..tablecore.result import Result, aborted, forfeit_result, outcome_result, stopped_result
from ..tablecore.save import check_header
from ..tablecore.waits import ABANDON_AFTER, abandoned_words, late_seats
from ..transcript import DEFAULT_KIND, Roster
from .discovery import TableAdvert, TableBrowser
from .transport import (
    STRANGER_TIME, Connection, ConnectionClosed, close_server, connect, now as _now, open_files_limit, serve,
    server_port,
)
from .watchers import WATCH_ONLY, Watchers

PROLOGUE = PROTOCOL.encode()
DONE = {"t": "done"}  # "this seat holds the whole game, every seat's final signature"
GAME_OVER = Words("game over")  # a joiner's last word, once it holds the whole game
RETRY_EVERY = 1.0
SLICE = 0.02  # seconds of local work (the host's bots) between looks at the links
FEED_SLICE = 8  # frames a spectator checks between looks at its link (a shuffle proof is one frame)
REFUSED = "refused: "  # how the host's bye starts when it turns a joiner away
CLOSING = Words("the table closed")  # the host's last word on every link
PAUSED = Words("the host left; the game is paused")  # the host's last word when it leaves a game under way
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


class _Seatkeeper:
    """What both roles share: local peers, their decisions, their saves."""

    def __init__(self, *, report: Report, decide: dict[int, Decide] | Decide, save: SaveDir | None):
        self.report = report
        self._decide = decide
        self.save = save
        self.local: dict[int, GamePeer] = {}
        self.saved_steps = 0
        self.result: Result | None = None
        self.done = asyncio.Event()
        self._thinking: set[int] = set()
        self._set_up = False
        self.primary = 0  # the seat whose person (or headless bot) this process serves
        self.auto_agree = False  # agree at once to end a table a seat left (a headless seat)

    def decider(self, seat: int) -> Decide:
        return self._decide[seat] if isinstance(self._decide, dict) else self._decide

    def journal_steps(self, peer: GamePeer) -> None:
        log = peer.protocol.ledger.log
        if self.save is not None:
            for _, frames in log[self.saved_steps:]:
                self.save.append(frames)
        self.saved_steps = len(log)

    def emit(self, seat: int, events: list[Any]) -> None:
        """Report what this process's own seat saw (bots' seats see the same public log)."""
        if seat != self.primary:
            return
        for e in events:
            if not isinstance(e, YourMove):
                self.report(Played(seat, e))

    def go_on(self, peer: GamePeer, pump: Callable[..., list[Any]]) -> None:
        """Let ``peer`` go as far as it can, sending each of its moves as soon as it is made."""
        while True:
            moves = peer.moves
            self.emit(peer.me, pump(until_move=True))
            if peer.moves == moves:
                return
            self.send_out()

    def send_out(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def note_setup(self, peer: GamePeer) -> None:
        """Report once that the setup is over (every deck shuffled, proven and locked): the deal begins."""
        if not self._set_up and peer.phase != SETUP:
            self._set_up = True
            self.report(SetupOver(peer.me))

    def schedule_decisions(self, apply: Callable[[int, tuple], None]) -> None:
        for seat, peer in self.local.items():
            d = peer.decision
            if d is not None and seat not in self._thinking:
                self._thinking.add(seat)
                asyncio.create_task(self._think(seat, peer, d, apply))

    async def _think(self, seat: int, peer: GamePeer, d: Decision, apply: Callable[[int, tuple], None]) -> None:
        try:
            option = await self.decider(seat)(peer, d)
        finally:
            self._thinking.discard(seat)
        if peer.decision == d and self.result is None:
            self.report(Decided(seat, peer.moves))
            apply(seat, option)

    def said(self, seat: int, name: str, text: str) -> None:
        self.report(Chat(seat, name, text))

    def check_players(self, people: list[tuple[str, bytes]]) -> None:
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

    def finish_game(self, peer: GamePeer) -> None:
        """The game is over and every seat signed the final log: save the
        transcript for ``ankh verify`` and say the result."""
        path = self.save.finish(peer.protocol.transcript()) if self.save is not None else None
        if path is not None:
            self.report(TranscriptSaved(path))
        self.end(outcome_result(peer))

    def record_ending(self, peer: GamePeer, ending: Ending) -> None:
        """The seats still there ended the table (their votes checked): save the
        votes with the log, write the transcript, and say who left and the scores."""
        if self.save is not None:
            self.journal_steps(peer)
            transcript = peer.protocol.transcript()
            self.save.ending(pending=transcript.pending, end=list(ending.votes))
            transcript.end = list(ending.votes)
            self.report(TranscriptSaved(self.save.finish(transcript)))
        points = peer.game.scores(peer.engine)
        self.end(Result(describe_ending(ending, points), ending=ending, scores=points))

    def end(self, result: Result) -> None:
        if self.result is None:
            self.result = result
            self.report(Over(result))
            if self.save is not None:
                self.save.close()
            self.done.set()


class HostNode(_Seatkeeper):
    """Opens a table, seats joiners and bots, relays the game, and plays its own seat."""

    def __init__(self, identity: Identity, name: str, *, seats: int, bots: int, decide: dict[int, Decide] | Decide,
                 report: Report, save_root: Path | None, bind: str = "0.0.0.0", port: int = 0,
                 advertise: bool = True, ready: bool = True, spectator_chat: bool = True,
                 kind: str = DEFAULT_KIND, confirmed: bool = True, gone_after: int = GONE_AFTER,
                 move_clock: int = MOVE_CLOCK):
        super().__init__(report=report, decide=decide, save=None)
        game = game_of(kind)
        if not game.networked:
            raise LocalProtocolError(f"{game.name} cannot be played over the network yet: only against bots")
        seat_range = game.seats
        if seats not in seat_range:
            raise LocalProtocolError(f"{game.name} seats {seat_range[0]} to {seat_range[-1]}, not {seats}")
        # False: the deal waits until this seat's person has compared the table
        # fingerprint (confirm_fingerprint); the joiners confirm by sending their key
        self.confirmed = confirmed
        self.chat_limit = ChatLimit()
        self._said = 0
        self.abandon_after = ABANDON_AFTER
        self.advertise = advertise
        self.advert: TableAdvert | None = None
        self.name = name
        self.identity = identity
        self.lobby = Lobby(random_bytes(16), seats, spectator_chat=spectator_chat, kind=kind, gone_after=gone_after,
                           move_clock=move_clock)
        self.save_root = save_root
        self.bind, self.port = bind, port
        self._nonce = random_bytes(16)
        self.lobby.sit(name, identity.public_key, self._nonce, ready=ready)
        self._bots: dict[int, Identity] = {}
        self._bot_nonces: dict[bytes, bytes] = {}
        for i in range(bots):
            ident = Identity.generate()
            nonce = random_bytes(16)
            seat = self.lobby.sit(f"bot {i + 1}", ident.public_key, nonce, bot=True)
            self._bots[seat] = ident
        self.bot_seats: tuple[int, ...] = tuple(sorted(self._bots))  # (their votes are the host's)
        self.conns: dict[int, Connection] = {}
        self.pending: list[tuple[Connection, str]] = []  # joiners not seated (table full...)
        self.watchers = Watchers(report)
        self.watchers.chat = spectator_chat
        self.door = Door.for_descriptors(open_files_limit())
        self.points: dict[int, tuple[str, int]] = {}  # each joiner's watch point
        self.hub: Hub | None = None
        self.roster: Roster | None = None
        self.start: Start | None = None
        self.start_msg: dict[str, Any] | None = None
        self._keys: dict[int, tuple[bytes, bytes]] = {}
        self._secrets: dict[int, SeatSecrets] = {}
        self._flush_queued = False
        self.server: asyncio.Server | None = None
        self.gone_since: dict[int, float] = {}
        self.patience: Patience | None = None  # who the game waits for, how long; the offer to end
        self.on_lobby: Callable[[Lobby], None] | None = None
        self.seats_done: set[int] = set()  # remote seats that said they hold the whole game
        self.farewell = FAREWELL

    # -- running -------------------------------------------------------------------------

    async def open(self) -> int:
        self.server = await serve(self.bind, self.port, self.identity, PROLOGUE, self._on_connection, door=self.door)
        self.port = server_port(self.server)
        self.report(Listening(self.port))
        if self.advertise:
            self._advertising = asyncio.get_running_loop().create_task(self._advertise())
        self.report(LobbySeats.of(self.lobby))
        if self.lobby.ready and self.start_msg is None:  # bots fill every seat
            self._start()
        return self.port

    async def run(self) -> Result:
        if self.server is None:
            await self.open()
        watch = asyncio.create_task(self._watch())
        try:
            await self.done.wait()
            if self.result is not None and self.result.finished:
                await self._see_everyone_done()
            if self.result is not None and (self.result.finished or self.result.ending is not None):
                await self.watchers.settle()
            await asyncio.sleep(0.3)  # let the last frames and goodbyes go out
        finally:
            watch.cancel()
            await self.close()
        assert self.result is not None
        return self.result

    def _remote_seats(self) -> set[int]:
        return set(range(self.hub.size)) - set(self.local) if self.hub is not None else set()

    async def _see_everyone_done(self) -> None:
        """The game is over here: the table stays open until every other seat
        holds the whole game too (its last frames may have been lost with a
        link; it comes back for them), or ``farewell`` seconds pass."""
        deadline = _now() + self.farewell
        while not self._remote_seats() <= self.seats_done and _now() < deadline:
            await asyncio.sleep(0.05)

    async def _advertise(self) -> None:
        """Announce the table on the LAN (on the bound interface only, if one is given)."""
        interfaces = "all" if self.bind in ("0.0.0.0", "::", "") else [self.bind]
        kw = {} if interfaces == "all" else {"interfaces": interfaces, "addresses": [self.bind]}
        try:
            self.advert = TableAdvert(port=self.port, table_id=self.lobby.table, host_key=self.identity.public_key,
                                      host_name=self.name, seats_taken=len(self.lobby.seats),
                                      seats_total=self.lobby.total, phase="lobby" if self.hub is None else "playing",
                                      game=self.lobby.kind, **kw)
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
        last = PAUSED if self.hub is not None and (self.result is None or self._pausing) else CLOSING
        for conn in list(self.conns.values()):
            conn.close(last)
        await self.watchers.aclose(last)

    # -- the lobby -----------------------------------------------------------------------------

    async def _on_connection(self, conn: Connection) -> None:
        try:
            first = decode(await asyncio.wait_for(conn.recv(), STRANGER_TIME))
        except (ConnectionClosed, RemoteProtocolError, asyncio.TimeoutError) as exc:
            conn.close(Words("no greeting: {why}", why=getattr(exc, "reason", None) or getattr(exc, "message", None)
                                 or Words("timed out")))
            return
        if first["t"] in ("join", "rejoin"):
            self.door.sit(conn.ticket)
        if first["t"] == "join" and (back := self._seated_again(conn, first)) is not None:
            seat = back
            self._reattach(seat, conn)
        elif first["t"] == "join":
            if self.hub is not None or self.lobby.full:
                _refuse(conn, Words("the table is full"))
                return
            try:
                seat = self.lobby.sit(first["name"], conn.peer_key, first["nonce"], ready=bool(first.get("ready", 1)))
            except RemoteProtocolError as exc:
                _refuse(conn, exc.message)
                return
            self.conns[seat] = conn
            self.report(Joined(seat, self.lobby.seats[seat].name, self.lobby.seats[seat].fingerprint))
            self._update_advert(seats_taken=len(self.lobby.seats))
            self._broadcast(self.lobby.message())
            self.report(LobbySeats.of(self.lobby))
            if self.lobby.ready:
                self._start()
        elif first["t"] == "rejoin":
            if self.roster is None or first["game"] != self.roster.game_id \
                    or conn.peer_key not in self.roster.identities:
                _refuse(conn, Words("not a seat of this game"))
                return
            seat = self.roster.identities.index(conn.peer_key)
            if seat in self.local:
                _refuse(conn, Words("that seat plays here"))
                return
            old = self.conns.get(seat)
            if old is not None:
                old.close(Words("replaced by a new connection"))
            self.conns[seat] = conn
            self.gone_since.pop(seat, None)
            assert self.hub is not None
            self.hub.catch_up(seat, first["have"])
            self._send(seat, {"t": "have", "have": list(self.hub.host.protocol.have())})
            if self.result is not None:  # the game is over here: what this seat lacks, and that we are done
                self._send_outbox(seat)
                self._send(seat, DONE)
            else:
                self.report(Back(seat))
                self._flush()
        elif first["t"] == "watch":
            refused = self.door.watch(conn.ticket)
            if refused is not None:
                _refuse(conn, refused)
                return
            await self.watchers.serve(conn, first["from"], self._log)
            return
        else:
            _refuse(conn, Words("expected join, rejoin or watch"))
            return
        await self._read(seat, conn)

    async def _read(self, seat: int, conn: Connection) -> None:
        while self.result is None or self.result.finished:
            try:
                msg = decode(await conn.recv())
            except ConnectionClosed as exc:
                if exc.reason.endswith(GAME_OVER):  # a seat leaves once it holds the whole game
                    self.seats_done.add(seat)
                if self.result is not None:
                    return
                if self.conns.get(seat) is conn:
                    del self.conns[seat]
                    if self.start_msg is None:
                        self.lobby.leave(conn.peer_key)
                        keys = [s.key for s in self.lobby.seats]
                        self.conns = {keys.index(c.peer_key): c for c in self.conns.values()}
                        self._update_advert(seats_taken=len(self.lobby.seats))
                        self._broadcast(self.lobby.message())
                        self.report(LobbySeats.of(self.lobby))
                    else:
                        self.gone_since[seat] = _now()
                        self.report(Gone(seat, exc.reason))
                return
            except RemoteProtocolError as exc:
                conn.close(Words("malformed message: {why}", why=exc.message))
                continue
            if msg["t"] == "done":
                self.seats_done.add(seat)
            elif self.result is None:  # (the game over here: only who else is done still matters)
                step = self.STEPS.get(msg["t"])
                if step is not None and step(self, seat, conn, msg):
                    return

    # -- what a seat says, one step per kind of message (True: the link is done with) --------

    def _on_frames(self, seat: int, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.hub is None:
            return False
        try:
            for frame in msg["f"]:
                # Checked, then passed on at once; then the host's own part.
                self.emit(0, self.hub.from_seat(seat, frame, pump=False))
                self.send_out()
                self.go_on(self.hub.host, self.hub.pump)
        except ProtocolError as exc:
            self._abort(exc)
            return True
        self._flush()
        return False

    def _on_chat(self, seat: int, conn: Connection, msg: dict[str, Any]) -> bool:
        self._chat_from(seat, conn, msg)
        return False

    def _on_ready(self, seat: int, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.start_msg is None:
            self.lobby.set_ready(conn.peer_key, bool(msg["ready"]))
            self._lobby_changed()
        return False

    def _on_key(self, seat: int, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.start is not None and self.hub is None and seat not in self._keys:
            self._keys[seat] = (msg["key"], msg["cert"])
            self._roster_if_ready()
        return False

    def _on_watchpoint(self, seat: int, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.hub is not None:
            self._watch_point(seat, conn, msg["port"])
        return False

    def _on_blame(self, seat: int, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.hub is None:
            return False
        verdict = self.hub.host.judge(msg["f"])  # checked against our own log: its word is not enough
        if verdict is not None:
            self._abort(verdict)
            return True
        return False

    def _on_vote(self, seat: int, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.patience is not None and self.patience.add(msg["v"], seat):
            self._tell_away()
        return False

    def _on_bye(self, seat: int, conn: Connection, msg: dict[str, Any]) -> bool:
        conn.close(Words("left"))
        return False

    STEPS: dict[str, Callable[[HostNode, int, Connection, dict[str, Any]], bool]] = {
        "frames": _on_frames, "chat": _on_chat, "ready": _on_ready, "key": _on_key,
        "watchpoint": _on_watchpoint, "blame": _on_blame, "vote": _on_vote, "bye": _on_bye,
    }

    def _seated_again(self, conn: Connection, first: dict[str, Any]) -> int | None:
        """The seat of a joiner back before its game began (its link dropped in
        the lobby or while the seats made their keys): the same identity with
        the same nonce.  None for anyone else."""
        if self.start is not None:
            keys, nonces = list(self.start.identities), list(self.start.nonces)
        else:
            keys, nonces = [s.key for s in self.lobby.seats], [s.nonce for s in self.lobby.seats]
        if conn.peer_key not in keys:
            return None
        seat = keys.index(conn.peer_key)
        if nonces[seat] != first["nonce"] or seat in self.local or seat in self._bots:
            return None
        return seat

    def _reattach(self, seat: int, conn: Connection) -> None:
        """A seat back before its game began takes its place again: the table as
        it stands is sent again (and the game so far, if it began meanwhile)."""
        old = self.conns.get(seat)
        self.conns[seat] = conn
        if old is not None and old is not conn:
            old.close(Words("replaced by a new connection"))
        self.gone_since.pop(seat, None)
        self.report(Back(seat))
        self._send(seat, self.lobby.message())
        if self.start_msg is not None:
            self._send(seat, self.start_msg)
        if self.hub is not None:
            self._send(seat, self.roster_msg)
            self.hub.catch_up(seat, [0] * self.hub.size)
            self._flush()

    def set_ready(self, ready: bool) -> None:
        """The host's own seat is ready (or not) to begin."""
        if self.start_msg is None:
            self.lobby.set_ready(self.identity.public_key, ready)
            self._lobby_changed()

    def _lobby_changed(self) -> None:
        self._broadcast(self.lobby.message())
        self.report(LobbySeats.of(self.lobby))
        if self.lobby.ready and self.start_msg is None:
            self._start()

    def _seat_name(self, seat: int) -> str:
        if self.start is not None:
            return self.start.names[seat]
        return self.lobby.seats[seat].name if seat < len(self.lobby.seats) else "?"

    def _chat_from(self, seat: int, conn: Connection, msg: dict[str, Any]) -> None:
        """A seat's chat line: checked, rate-limited, passed on to everyone."""
        if msg["seat"] != seat:
            conn.close(Words("a chat line for another seat"))
            return
        try:
            text = check_chat(msg, conn.peer_key, self.lobby.table)
        except RemoteProtocolError as exc:
            conn.close(exc.message)
            return
        if not self.chat_limit.allow(seat, _now()):
            # Refused: the sender hears why, from the host, and nobody else hears it at all.
            self._send(seat, chat_message(self.identity, self.lobby.table, 0, self._next_said(),
                                          self.chat_limit.refusal(self._seat_name(seat))))
            self.report(ChatRefused(seat))
            return
        self._pass_chat(msg, exclude=seat)
        self.said(seat, self._seat_name(seat), text)

    def _next_said(self) -> int:
        self._said += 1
        return self._said

    def chat(self, text: str) -> None:
        """The host's own chat line."""
        msg = chat_message(self.identity, self.lobby.table, 0, self._next_said(), text)
        if not msg["text"]:
            return
        self._pass_chat(msg, exclude=0)
        self.said(0, self._seat_name(0), msg["text"])

    def _pass_chat(self, msg: dict[str, Any], exclude: int) -> None:
        for s in list(self.conns):
            if s != exclude:
                self._send(s, msg)
        self.watchers.say(msg)

    def _log(self) -> list:
        return self.hub.host.protocol.ledger.log if self.hub is not None else []

    def _tell_watchers(self) -> None:
        self.watchers.intro = watch_intro(self.lobby.table, self.start_msg, self.roster_msg, self.bot_seats)

    def _serve_watchers(self) -> None:
        self.watchers.flush(self._log())

    def _watch_point(self, seat: int, conn: Connection, port: int) -> None:
        """A joiner serves spectators too: every spectator learns where."""
        if conn.peer_address is None:
            return
        self.points[seat] = (conn.peer_address[0], port)
        points = [self.points[s] for s in sorted(self.points)]
        if self.bind not in ("0.0.0.0", "::", ""):
            points.insert(0, (self.bind, self.port))
        self.watchers.set_points(points)
        self._broadcast(points_message(points))

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

    # -- the game ------------------------------------------------------------------------------

    def _start(self) -> None:
        """The seats are final: every seat makes its key for this game (certified by its identity)."""
        self.start_msg = self.lobby.start_message()
        start, me = Start.from_message(self.start_msg, my_key=self.identity.public_key, my_nonce=self._nonce)
        self.start = start
        self._broadcast(self.start_msg)
        self.report(Started(start))
        bots = {ident.public_key for ident in self._bots.values()}
        self.check_players([(n, k) for n, k in zip(start.names[1:], start.identities[1:]) if k not in bots])
        self._secrets = {0: SeatSecrets.generate(start.game_id, 0, self.identity)}
        for seat, ident in self._bots.items():
            self._secrets[seat] = SeatSecrets.generate(start.game_id, seat, ident)
        self._keys = {seat: (s.identity.public_key, s.cert) for seat, s in self._secrets.items()}
        self._update_advert(seats_taken=len(self.lobby.seats), phase="playing")
        self._roster_if_ready()

    def confirm_fingerprint(self) -> None:
        """The person at the host's seat has compared the table fingerprint:
        the deal may begin once every joiner has too."""
        self.confirmed = True
        if self.start is not None:
            self._roster_if_ready()

    @property
    def unconfirmed(self) -> list[int]:
        """The seats whose players have not confirmed the table fingerprint yet."""
        if self.start is None or self.hub is not None:
            return []
        return [s for s in range(len(self.start.names)) if s not in self._keys or (s == 0 and not self.confirmed)]

    def _roster_if_ready(self) -> None:
        start = self.start
        if self.hub is not None or not self.confirmed or len(self._keys) < len(start.names):
            self.report(Confirming(tuple(self.unconfirmed)))
            return
        keys = [self._keys[s][0] for s in range(len(start.names))]
        certs = [self._keys[s][1] for s in range(len(start.names))]
        try:
            roster = start.roster(keys, certs)
        except RemoteProtocolError as exc:
            self._abort(exc)
            return
        self.roster = roster
        self.roster_msg = {"t": "roster", "keys": keys, "certs": certs}
        self._broadcast(self.roster_msg)
        self._tell_watchers()
        if self.save_root is not None:
            self.save = SaveDir(self.save_root / f"net-{roster.game_id.hex()[:12]}")
            self.save.create(roster, {"role": "host", "port": self.port, "bots": sorted(self._bots),
                                      "table": self.lobby.table,
                                      "start": {k: v for k, v in self.start_msg.items() if k != "t"}},
                             self._secrets)
            self.report(Saving(self.save.path))
        self._begin(roster, self._secrets, frames=[])

    def _begin(self, roster: Roster, secrets: dict[int, SeatSecrets], frames: list[bytes],
               journaled: int = 0) -> None:
        """Seat the local peers, fresh or following the ``journaled`` steps of
        their save (``frames``).  A step that a seat finishes on its own as it
        carries on (one only it sends to) is journaled with the later ones."""
        for seat, s in secrets.items():
            proto = SeatProtocol(roster, s, relay=ANY_LINK if seat == 0 else 0)
            self.local[seat] = GamePeer.resume(proto, frames) if frames else GamePeer(proto)
        self.saved_steps = journaled
        self.hub = Hub(self.local[0])
        assert self.start is not None  # its clocks are the table's, which every seat checked
        self.patience = Patience(roster, gone_after=self.start.gone_after, move_clock=self.start.move_clock)
        try:
            self.emit(0, self.hub.start())
            for seat, peer in self.local.items():
                if seat != 0:
                    self.emit(seat, peer.start())
            self._flush()
        except ProtocolError as exc:
            self._abort(exc)

    def _flush(self) -> None:
        """Deliver everything queued, locally and on the links; save; schedule decisions."""
        hub = self.hub
        assert hub is not None
        if self.result is not None:
            return
        self._flush_queued = False
        deadline = _now() + SLICE
        more = False
        try:
            moved = True
            while moved and not more:
                moved = False
                for seat, peer in self.local.items():
                    if seat == 0:
                        continue
                    for frame in peer.data_to_send():
                        self.emit(0, hub.from_seat(seat, frame))
                        moved = True
                    frames = hub.outbox(seat)
                    for i, frame in enumerate(frames):
                        self.emit(seat, peer.receive(frame, via=0))
                        moved = True
                        if _now() > deadline:  # let the links breathe, then go on
                            hub.requeue(seat, frames[i + 1:])
                            more = True
                            break
                    if more:
                        break
        except ProtocolError as exc:
            self._abort(exc)
            return
        if more and not self._flush_queued:
            self._flush_queued = True
            asyncio.get_running_loop().call_soon(self._flush)
        self.send_out()
        self.note_setup(hub.host)
        if hub.host.phase == "done":
            self._finish()
            return
        self.schedule_decisions(self._apply)

    def send_out(self) -> None:
        """Save the finished steps, then send the links and the spectators what is
        queued for them (saved first: a move sent and then lost in a crash would
        be decided again)."""
        hub = self.hub
        assert hub is not None
        self.journal_steps(hub.host)
        for seat in range(hub.size):
            if seat in self.local:
                continue
            self._send_outbox(seat)
        self._serve_watchers()

    def _send_outbox(self, seat: int) -> None:
        assert self.hub is not None
        frames = self.hub.outbox(seat)
        if frames and seat in self.conns:
            for m in frames_message(frames):
                self._send(seat, m)

    def _apply(self, seat: int, option: tuple) -> None:
        assert self.hub is not None
        try:
            if seat == 0:  # the move goes out before the host works on what follows
                self.emit(0, self.hub.host_choose(option, pump=False))
                self.send_out()
                self.go_on(self.hub.host, self.hub.pump)
            else:
                self.emit(seat, self.local[seat].choose(option))
        except ProtocolError as exc:
            self._abort(exc)
            return
        self._flush()

    def _finish(self) -> None:
        self.finish_game(self.hub.host)  # type: ignore[union-attr]
        self._broadcast(DONE)

    def _abort(self, exc: ProtocolError) -> None:
        """A broken rule ends the game.  Every seat and spectator is sent what was
        checked before it and then the cheater's signed frames, which each
        checks against its own log before it names anyone (the host's word
        alone is nobody's evidence); the journal keeps them for ``ankh verify``."""
        result = aborted(exc)
        evidence = list(getattr(exc, "evidence", ()))[:2] if getattr(exc, "seat", None) is not None else []
        if self.hub is not None:
            self.hub.relay()
            self.send_out()
        if evidence:
            blame = {"t": "blame", "f": evidence}
            self._broadcast(blame)
            self.watchers.send(encode(blame))
            if self.save is not None:
                self.save.ending(blame=evidence)
        self._goodbye(result.text)
        self.end(result)

    def _goodbye(self, why: str) -> None:
        """The table ends the game before its end: every seat and spectator is told."""
        bye = {"t": "bye", "why": why[:200]}
        self._broadcast(bye)
        self.watchers.send(encode(bye))

    async def _watch(self) -> None:
        audit_since: float | None = None
        while self.result is None:
            await asyncio.sleep(1.0)
            if self.hub is None:
                continue
            host = self.hub.host
            waiting = host.waiting_for()
            gone = {s: _now() - t for s, t in self.gone_since.items()}
            self.report(Waiting(tuple(waiting), gone))
            if host.phase == AUDIT and waiting:  # the game is over: a seat that keeps its disclosure forfeits
                audit_since = audit_since if audit_since is not None else _now()
                if _now() - audit_since >= self.abandon_after:
                    self._forfeit(waiting)
                self._count_the_wait(())  # no ending by agreement over the audit: the offer, if any, is withdrawn
                continue
            self._count_the_wait(waiting)
            if self.result is not None:
                return
            late = late_seats(self.gone_since, waiting, _now(), self.abandon_after)
            if late:
                text = abandoned_words(late, self.abandon_after)
                self._goodbye(text)
                if self.save is not None:
                    _write_private(self.save.path / "abandoned.txt", (text + "\n").encode())
                self.end(Result(text))

    def _forfeit(self, seats: tuple[int, ...]) -> None:
        """The audit waited ``abandon_after`` seconds for ``seats``: they forfeit.
        The journal keeps the disclosures that came and who withheld theirs, so
        that ``ankh verify`` says the same; every seat sees the same wait in
        its own log and says it in its own words."""
        host = self.hub.host  # type: ignore[union-attr]
        result = forfeit_result(host, seats)
        if self.save is not None:
            self.journal_steps(host)
            self.save.ending(pending=host.protocol.transcript().pending, forfeit=list(seats))
        self._goodbye(result.text)
        self.end(result)

    def _count_the_wait(self, waiting: tuple[int, ...]) -> None:
        """Who the game waits for and how long, told to every seat; past the
        wait, the offer to end the table (this process's seats agree at once
        if it plays unattended)."""
        p, host = self.patience, self.hub.host  # type: ignore[union-attr]
        if p is None:
            return
        step, basis = host.stop()
        if p.tick(_now(), step, basis, waiting, self.gone_since, self.local) and self.auto_agree:
            self.agree()
        self._tell_away()

    def _tell_away(self) -> None:
        p = self.patience
        assert p is not None
        news = News.of(p)
        if news.away or news.offer is not None or self._told_away:
            self._told_away = bool(news.away) or news.offer is not None
            self._broadcast(news.message())
            self.watchers.send(encode(news.message()))  # (the spectators see who the game waits for too)
            self.report(Away(news))
        if p.agreed():
            self._end_by_agreement()

    _told_away = False
    _pausing = False

    def leave(self) -> None:
        """The person at the host leaves a game under way: every seat is told the
        game is paused (it waits for the host to load its save again)."""
        if self.result is None and (self.hub is None or self.save is None):
            self.end(Result(CLOSING))
        elif self.result is None:
            self._pausing = True
            self.end(Result(Words("paused: you left the table; the game is saved in {path}", path=self.save.path)))

    def agree(self) -> None:
        """The person at the host agrees to end the table on the offer standing
        (the host's bots agree with it)."""
        p = self.patience
        if p is None or p.offer is None or self.result is not None:
            return
        for seat, peer in self.local.items():
            if seat not in p.offer.gone:
                p.add(vote(peer.protocol.secrets, p.offer))
        self._tell_away()

    def _end_by_agreement(self) -> None:
        p, host = self.patience, self.hub.host  # type: ignore[union-attr]
        assert p is not None and self.result is None
        step, basis = host.stop()
        try:
            ending = check_votes(host.protocol.roster, p.votes.values(), step=step, basis=basis,
                                 waited=host.waiting_for())
        except RemoteProtocolError as exc:  # the game moved on meanwhile: the offer starts again
            self.report(Alert(f"the votes to end the table do not hold: {exc}"))
            p.votes.clear()
            return
        self._broadcast({"t": "ended", "votes": list(ending.votes)})
        self.watchers.end_with(encode({"t": "ended", "votes": list(ending.votes)}))
        self.record_ending(host, ending)

    @classmethod
    async def resume(cls, identity: Identity, save: SaveDir, *, decide: dict[int, Decide] | Decide, report: Report,
                     bind: str = "0.0.0.0") -> HostNode:
        transcript, info, secrets = save.load()
        if info.get("role") != "host":
            raise LocalProtocolError("that save is not of a hosted table")
        start_msg = {"t": "start", **info["start"]}
        node = cls.__new__(cls)
        _Seatkeeper.__init__(node, report=report, decide=decide, save=save)
        node.identity = identity
        node.save_root = None
        node.bind, node.port = bind, int(info["port"])
        node.conns, node.pending, node.gone_since, node.points = {}, [], {}, {}
        node.watchers = Watchers(report)
        node.watchers.chat = bool(start_msg.get("chat", 1))
        node.door = Door.for_descriptors(open_files_limit())
        node.abandon_after = ABANDON_AFTER
        node.patience = None
        node.seats_done, node.farewell = set(), FAREWELL
        node.start_msg = start_msg
        node.roster_msg = {"t": "roster", "keys": list(transcript.roster.keys),
                           "certs": list(transcript.roster.certs)}
        node.start, _ = Start.from_message(start_msg, my_key=identity.public_key,
                                           my_nonce=start_msg["nonces"][0])
        node._keys, node._secrets, node._flush_queued = {}, secrets, False
        node.roster = transcript.roster
        node.server = None
        node.on_lobby = None
        node.advertise, node.advert, node.name = False, None, transcript.roster.names[0]
        node._bots = {}
        node.bot_seats = tuple(s for s in info.get("bots", ()) if type(s) is int)
        node.lobby = Lobby(info.get("table") or random_bytes(16), transcript.roster.size,
                           spectator_chat=node.watchers.chat, kind=transcript.roster.kind)
        node.chat_limit, node._said = ChatLimit(), 0
        if secrets.get(0) is None or secrets[0].owner != identity.public_key:
            raise LocalProtocolError("that save belongs to another identity")
        for seat in range(1, transcript.roster.size):
            if seat not in secrets:
                node.gone_since[seat] = _now()
        save.reopen()
        node._tell_watchers()
        node._begin(transcript.roster, secrets, transcript.frames(), journaled=len(transcript.ops))
        return node


class JoinNode(_Seatkeeper):
    """Sits at a table by its address and plays one seat; reconnects when the link drops."""

    def __init__(self, identity: Identity, name: str, *, decide: Decide, report: Report,
                 save_root: Path | None, ready: bool = True, want: str | None = None, confirmed: bool = True):
        super().__init__(report=report, decide=decide, save=None)
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
            return True
        return False

    def _step_away(self, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.peer is not None:
            self.news = News.from_message(msg)
            self.report(Away(self.news))
            self.watchers.send(encode(msg))
            if self.auto_agree:
                self.agree()
        return False

    def _step_ended(self, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.peer is None:
            return False
        self._ended(msg["votes"])
        return True

    def _step_bye(self, conn: Connection, msg: dict[str, Any]) -> bool:
        if self.peer is None:
            self.end(Result(_farewell(msg["why"])))
        else:  # the game ended early: what our own log says, not the host's words
            if msg["why"].startswith(REFUSED):  # (a refusal too: shown as the host's word, not a result)
                self.report(Alert(_farewell(msg["why"])))
            self._stopped()
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
        self._voted = offer
        if self.conn is not None and not self.conn.closed:
            with contextlib.suppress(ConnectionClosed):
                self.conn.send_nowait(encode({"t": "vote", "v": vote(self.peer.protocol.secrets, offer)}))

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
        start, seat = Start.from_message(msg, my_key=self.identity.public_key, my_nonce=self._nonce)
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
        self.schedule_decisions(self._apply)

    def _tick(self) -> None:
        """This seat's own count of how long the game waits for it (``OwnClock``)."""
        if self.peer is not None:
            self.clock.tick(_now(), self.peer.stop()[0], self.peer.me in self.peer.waiting_for())

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
