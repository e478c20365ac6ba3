"""The host's table, sans-I/O: the lobby, the seats' keys, the relay of the
game between the seats, the waits, the votes to end and the blame.

It holds no socket, file or timer.  Its driver (``HostNode`` in
``net/io/host.py``) tells it who arrives, what each link says, when a link
is lost and that a second went by (:meth:`HostTable.tick`); it answers with
:mod:`effects <ankh.net.tablecore.effects>` to carry out in order, taken with
:meth:`HostTable.take` (or handed to its ``sink`` as they come).  Its clock is given (``clock``), so that it runs the
same on a virtual one.

A seat is a number, and the core knows which seats have a link now and
which link that is: the driver's handle of it (``link``), opaque here.  So
the core decides what a new link may do (:meth:`HostTable.arrive`: sit,
come back, watch, or be refused, the process's :class:`~ankh.net.wire.admission.Door`
asked), which seat a link speaks for (:meth:`HostTable.heard`: none once a
newer link took its seat) and what its closing means (:meth:`HostTable.closed`).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..wire.admission import Door
from ..fair.entropy import random_bytes
from ..wire.envelope import Identity, seq_of, signed_slot
from ..wire.errors import LocalProtocolError, ProtocolError, RemoteProtocolError, Words
from ..play.events import (
    Alert, Away, Back, ChatRefused, Confirming, Gone, Joined, LobbySeats, Saving, Started, Waiting,
)
from ..play.hub import Hub
from ..play.leave import News, Patience, check_votes, vote
from ..wire.lobby import Lobby, Start, chat_message, check_chat, encode, frames_message, points_message, watch_intro
from ..play.peer import AUDIT, GamePeer, game_of
from ..play.seat import ANY_LINK, SeatProtocol
from ..files.secrets import SeatSecrets
from ..files.transcript import DEFAULT_KIND, GONE_AFTER, MOVE_CLOCK, Roster
from .chat import ChatLimit
from .effects import (
    Again, Announce, Broadcast, Close, CreateSave, JournalEnding, Send, Unlink, WatchEnd, WatchIntro, WatchLog,
    WatchPoints, WatchSay, WatchSend, WriteAbandoned,
)
from .result import Result, aborted, forfeit_result
from .save import save_path
from .seats import (
    CLOSING, DONE, FAREWELL, GAME_OVER, HEARD, PAUSED, CheckBudget, Refused, Saved, SeatCore, Watcher, evidence_of,
    step_under_way,
)
from .waits import ABANDON_AFTER, abandoned_words, late_seats

SLICE = 0.02  # seconds of local work (the host's bots) between looks at the links
THEIRS_CHECKS, THEIRS_EVERY = 4, 0.2  # signatures of frames a seat hands on checked, per so many seconds at most


class HostTable(SeatCore):
    """Opens a table, seats joiners and bots, relays the game, and plays its own seat."""

    def __init__(self, identity: Identity, name: str, *, clock: Callable[[], float], seats: int = 2, bots: int = 0,
                 kind: str = DEFAULT_KIND, spectator_chat: bool = True, ready: bool = True, confirmed: bool = True,
                 gone_after: int = GONE_AFTER, move_clock: int = MOVE_CLOCK, save_root: Path | None = None,
                 bind: str = "0.0.0.0", port: int = 0, saved: Saved | None = None, door: Door | None = None):
        super().__init__()
        self.clock = clock
        self.door = door if door is not None else Door()  # the process's counts of links (who may watch)
        self.identity = identity
        self.name = name
        self.save_root = save_root
        self.bind, self.port = bind, port
        self.abandon_after = ABANDON_AFTER
        self.chat_limit = ChatLimit()
        self._said = 0
        self.linked: dict[int, tuple[bytes, tuple[str, int] | None]] = {}  # seat -> (its key, its address)
        self.links: dict[int, Any] = {}  # seat -> its link (the driver's handle), while linked (to the end, after it)
        self._spoke_as: dict[Any, int | None] = {}  # link -> the seat it last spoke for (None: replaced, heard since)
        self.points: dict[int, tuple[str, int]] = {}  # each joiner's watch point
        self.hub: Hub | None = None
        self.roster: Roster | None = None
        self.start: Start | None = None
        self.start_msg: dict[str, Any] | None = None
        self.roster_msg: dict[str, Any] | None = None
        self._keys: dict[int, tuple[bytes, bytes]] = {}
        self._secrets: dict[int, SeatSecrets] = {}
        self._bots: dict[int, Identity] = {}
        self._flush_queued = False
        self.gone_since: dict[int, float] = {}
        self.patience: Patience | None = None  # who the game waits for, how long; the offer to end
        self.seats_done: set[int] = set()  # remote seats that said they hold the whole game
        self.farewell = FAREWELL  # seconds the table stays open at its end for the seats (waits_for_seats)
        self._ended_at = 0.0
        self.pausing = False  # the person at the host left a game under way: it is paused, not over
        self._told_away = False
        self._handed: dict[int, int] = {}  # pieces of evidence each seat handed the host
        self._theirs_checks = CheckBudget(THEIRS_CHECKS, THEIRS_EVERY)  # by (seat handing on, signer)
        self._audit_since: float | None = None
        self.last_words: list[dict[str, Any]] = []  # what ended the table before the game's end
        self.owed: set[int] = set()  # the remote seats that must still hear them
        self.spared: set[int] = set()  # the seats the ending left out (gone, forfeiting, the cheat named)
        if saved is not None:
            self._carry_on(saved)
            return
        game = game_of(kind)
        if not game.networked:
            raise LocalProtocolError(f"{game.name} cannot be played over the network yet: only against bots")
        if seats not in game.seats:
            raise LocalProtocolError(f"{game.name} seats {game.seats[0]} to {game.seats[-1]}, not {seats}")
        # False: the deal waits until this seat's person has compared the table
        # fingerprint (confirm_fingerprint); the joiners confirm by sending their key
        self.confirmed = confirmed
        self.spectator_chat = spectator_chat
        self.lobby = Lobby(random_bytes(16), seats, spectator_chat=spectator_chat, kind=kind, gone_after=gone_after,
                           move_clock=move_clock)
        self._nonce = random_bytes(16)
        self.lobby.sit(name, identity.public_key, self._nonce, ready=ready)
        for i in range(bots):
            ident = Identity.generate()
            seat = self.lobby.sit(f"bot {i + 1}", ident.public_key, random_bytes(16), bot=True)
            self._bots[seat] = ident
        self.bot_seats: tuple[int, ...] = tuple(sorted(self._bots))  # (their votes are the host's)

    def _carry_on(self, saved: Saved) -> None:
        """The table of a save: its seats, keys and game so far, followed to where the journal stops."""
        transcript, info, secrets = saved.transcript, saved.info, saved.secrets
        if info.get("role") != "host":
            raise LocalProtocolError("that save is not of a hosted table")
        if secrets.get(0) is None or secrets[0].owner != self.identity.public_key:
            raise LocalProtocolError("that save belongs to another identity")
        self.start_msg = {"t": "start", **info["start"]}
        self.confirmed = True
        self.spectator_chat = bool(self.start_msg.get("chat", 1))
        self.port = int(info["port"])
        self.name = transcript.roster.names[0]
        self.roster_msg = {"t": "roster", "keys": list(transcript.roster.keys),
                           "certs": list(transcript.roster.certs)}
        self._nonce = self.start_msg["nonces"][0]
        self.start, _ = Start.from_message(self.start_msg, my_key=self.identity.public_key, my_nonce=self._nonce)
        self._secrets = secrets
        self.roster = transcript.roster
        self.bot_seats = tuple(s for s in info.get("bots", ()) if type(s) is int)
        self.lobby = Lobby(info.get("table") or random_bytes(16), transcript.roster.size,
                           spectator_chat=self.spectator_chat, kind=transcript.roster.kind)
        for seat in range(1, transcript.roster.size):
            if seat not in secrets:
                self.gone_since[seat] = self.clock()
        self.save_path = saved.path
        self._tell_watchers()
        self._begin(transcript.roster, secrets, transcript.frames(), journaled=len(transcript.ops))

    # -- the driver's side -----------------------------------------------------------------------

    def advert(self) -> dict[str, Any]:
        """What the table's advert on the LAN says of it as it stands (later changes: :class:`Announce`)."""
        return {"port": self.port, "table_id": self.lobby.table, "host_key": self.identity.public_key,
                "host_name": self.name, "seats_taken": len(self.lobby.seats), "seats_total": self.lobby.total,
                "phase": "lobby" if self.hub is None else "playing", "game": self.lobby.kind}

    def opened(self) -> None:
        """The table listens: the lobby as it stands, and the game begins at once if bots fill it."""
        self._do(LobbySeats.of(self.lobby))
        if self.lobby.ready and self.start_msg is None:
            self._start()

    def arrive(self, key: bytes, address: tuple[str, int] | None, first: dict[str, Any], link: Any = None,
               ticket: object | None = None) -> int | Refused | Watcher:
        """A newcomer's first message on ``link`` (the driver's handle; a new
        one if None): the seat it takes (the link is the seat's from now on,
        and the seat's older link closes, :class:`Unlink`), a spectator, or a
        refusal.  ``ticket``: the link's at the door, which counts it as a
        player's (``join``, ``rejoin``) or a spectator's, if there is room.
        A first word the table cannot take is refused, saying why: it never
        raises, and a newcomer's link is never left unread nor the host stopped."""
        try:
            return self._arrive(key, address, first, link, ticket)
        except ProtocolError as exc:
            return Refused(Words("this table cannot take that: {why}", why=str(exc)))

    def _arrive(self, key: bytes, address: tuple[str, int] | None, first: dict[str, Any], link: Any,
                ticket: object | None) -> int | Refused | Watcher:
        kind = first["t"]
        if ticket is not None and kind in ("join", "rejoin"):
            self.door.sit(ticket)
        elif ticket is not None and kind == "watch" and (full := self.door.watch(ticket)) is not None:
            return Refused(full)
        link = object() if link is None else link
        if kind == "join" and (back := self._seated_again(key, first)) is not None:
            self._link(back, key, address, link)
            self._reattach(back)
            return back
        if kind == "join":
            if self.hub is not None or self.lobby.full:
                return Refused(Words("the table is full"))
            try:
                seat = self.lobby.sit(first["name"], key, first["nonce"], ready=bool(first.get("ready", 1)))
            except RemoteProtocolError as exc:
                return Refused(exc.message)
            self._link(seat, key, address, link)
            self._do(Joined(seat, self.lobby.seats[seat].name, self.lobby.seats[seat].fingerprint))
            self._do(Announce({"seats_taken": len(self.lobby.seats)}))
            self._do(Broadcast(self.lobby.message()))
            self._do(LobbySeats.of(self.lobby))
            if self.lobby.ready:
                self._start()
            return seat
        if kind == "rejoin":
            return self._rejoin(key, address, first, link)
        if kind == "watch":
            return Watcher(first["from"])
        return Refused(Words("expected join, rejoin or watch"))

    def _link(self, seat: int, key: bytes, address: tuple[str, int] | None, link: Any) -> None:
        """``link`` is ``seat``'s from now on; the link it had before closes."""
        self.linked[seat] = (key, address)
        old = self.links.get(seat)
        self.links[seat] = link
        self._spoke_as[link] = seat
        if old is not None and old is not link:
            self._do(Unlink(old, Words("replaced by a new connection")))

    def _rejoin(self, key: bytes, address: tuple[str, int] | None, first: dict[str, Any], link: Any) -> int | Refused:
        if self.roster is None or first["game"] != self.roster.game_id or key not in self.roster.identities:
            return Refused(Words("not a seat of this game"))
        seat = self.roster.identities.index(key)
        if seat in self.local:
            return Refused(Words("that seat plays here"))
        if len(first["have"]) != len(self.roster.identities):  # (checked before the seat's link is this one)
            return Refused(Words("a rejoin gives a count for every seat"))
        self._link(seat, key, address, link)
        self.gone_since.pop(seat, None)
        assert self.hub is not None
        self.hub.catch_up(seat, first["have"])
        self._do(Send(seat, {"t": "have", "have": list(self.hub.host.protocol.have())}))
        if self.result is not None:  # the game is over here: what this seat lacks, and how it ended
            self._tell_the_end(seat)
        else:
            self._do(Back(seat))
            self.flush()
        return seat

    def seat_of(self, link: Any) -> int | None:
        """The seat ``link`` speaks for now (seats in the lobby move up when one before them
        leaves), or None: a newer link took its seat."""
        return next((s for s, l in self.links.items() if l is link), None)

    def heard(self, link: Any, msg: dict[str, Any]) -> bool:
        """What ``link`` said: its seat's word (:meth:`received`), or nothing if a newer
        link took the seat; True when that link is done with."""
        seat = self._spoke_as[link] = self.seat_of(link)
        if seat is None:
            return False
        return self.received(seat, msg)

    def garbled(self, link: Any, why: str) -> None:
        """``link`` said something that is no message of the protocol (``why``): it closes
        (:meth:`closed` follows, as for any link that closes)."""
        self._do(Unlink(link, Words("malformed message: {why}", why=why)))

    def closed(self, link: Any, reason: str) -> None:
        """``link`` closed (``reason``): its seat lost it (:meth:`lost`), or, if a newer
        link had taken the seat since it last spoke, that seat may have left done with the game."""
        seat, before = self.seat_of(link), self._spoke_as.pop(link, None)
        if seat is not None:
            self.lost(seat, reason)
        elif before is not None:
            self.lost(before, reason, current=False)

    def lost(self, seat: int, reason: str, current: bool = True) -> None:
        """A link of ``seat`` closed (``reason``); ``current``: the seat's link
        now, not one a newer link replaced."""
        if reason.endswith(GAME_OVER):  # a seat leaves once it holds the whole game
            self.seats_done.add(seat)
        if self.result is not None or not current:
            return
        key, _ = self.linked.pop(seat)
        self.links.pop(seat, None)
        if self.start_msg is None:
            self.lobby.leave(key)
            keys = tuple(s.key for s in self.lobby.seats)
            moved = {s: keys.index(k) for s, (k, _) in self.linked.items()}
            self.linked = {moved[s]: v for s, v in self.linked.items()}
            self.links = {moved[s]: link for s, link in self.links.items() if s in moved}
            self._do(Announce({"seats_taken": len(self.lobby.seats)}))
            self._do(Broadcast(self.lobby.message()))
            self._do(LobbySeats.of(self.lobby))
        else:
            self.gone_since[seat] = self.clock()
            self._do(Gone(seat, reason))

    def received(self, seat: int, msg: dict[str, Any]) -> bool:
        """What ``seat``'s link said; True when that link is done with."""
        if msg["t"] == "done":
            self.seats_done.add(seat)
            return False
        if self.result is not None:  # (the game over here: only who else is done still matters)
            return False
        step = self.STEPS.get(msg["t"])
        return step is not None and step(self, seat, msg)

    def waits_for_seats(self) -> bool:
        """The table is done here: whether it stays open until :meth:`everyone_done` (or the
        farewell passes): a game played to its end, or ended early with words the seats must hear."""
        return self.result is not None and (self.result.finished or bool(self.last_words))

    def farewell_left(self) -> float:
        """The table is done here and waits for its seats (:meth:`waits_for_seats`): the
        seconds it stays open still, 0 once :meth:`everyone_done` or ``farewell`` seconds
        passed since its end."""
        return 0.0 if self.everyone_done() else self._ended_at + self.farewell - self.clock()

    def _over(self, result: Result) -> None:
        self._ended_at = self.clock()
        super()._over(result)

    def spectators_settle(self) -> bool:
        """The table is done here: whether its spectators take the last steps before their links
        close (a game played to its end, ended on the seats' votes, or with words to hear)."""
        return self.result is not None and (self.result.finished or self.result.ending is not None
                                            or bool(self.last_words))

    def again(self) -> None:
        """The driver's turn after :class:`Again`: deliver on, if the game is under way."""
        if self.hub is not None:
            self.flush()

    def everyone_done(self) -> bool:
        """The table may close: every remote seat holds the whole game, or, if the
        table ended before the game's end, every one that must heard how."""
        if self.result is not None and not self.result.finished:
            return self.owed <= self.seats_done
        remote = set(range(self.hub.size)) - set(self.local) if self.hub is not None else set()
        return remote <= self.seats_done

    def log(self) -> list:
        return self.hub.host.protocol.ledger.log if self.hub is not None else []

    def last_word(self) -> str:
        """What the links are told as the table closes."""
        return PAUSED if self.hub is not None and (self.result is None or self.pausing) else CLOSING

    # -- what a seat says, one step per kind of message (True: the link is done with) --------

    def _on_frames(self, seat: int, msg: dict[str, Any]) -> bool:
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
        self.flush()
        return False

    def _on_chat(self, seat: int, msg: dict[str, Any]) -> bool:
        self._chat_from(seat, msg)
        return False

    def _on_ready(self, seat: int, msg: dict[str, Any]) -> bool:
        if self.start_msg is None:
            self.lobby.set_ready(self.linked[seat][0], bool(msg["ready"]))
            self._lobby_changed()
        return False

    def _on_key(self, seat: int, msg: dict[str, Any]) -> bool:
        if self.start is not None and self.hub is None and seat not in self._keys:
            self._keys[seat] = (msg["key"], msg["cert"])
            self._roster_if_ready()
        return False

    def _on_watchpoint(self, seat: int, msg: dict[str, Any]) -> bool:
        if self.hub is not None:
            self._watch_point(seat, msg["port"])
        return False

    def _on_blame(self, seat: int, msg: dict[str, Any]) -> bool:
        self._handed[seat] = self._handed.get(seat, 0) + 1
        if self.hub is None or self._handed[seat] > HEARD:  # (a seat that floods it with junk costs a check each)
            return False
        verdict = self.hub.host.judge(msg["f"])  # checked against our own log: its word is not enough
        if verdict is not None:
            self._abort(verdict)
            return True
        return False

    def _on_theirs(self, seat: int, msg: dict[str, Any]) -> bool:
        """A frame another seat signed, which ``seat`` heard on its direct link to
        it: taken as if it came on its signer's own link, when it is the very next
        frame this log lacks from a seat of another process (one that keeps its
        frames from the host but says them to the seats holds the table no more).
        Anything else is dropped: it is nobody's evidence, ``seat``'s least."""
        if self.hub is None or self.result is not None:
            return False
        protocol = self.hub.host.protocol
        slot = seq_of(msg["f"])  # (what it says first, unchecked: most are frames held already)
        if slot is None or not 0 <= slot[0] < self.hub.size or slot[0] in self.local or slot[0] == seat \
                or slot[1] != protocol.have()[slot[0]]:
            return False
        # Then a signature check each, a few a fifth of a second per seat handing on and signer at
        # most (as a seat checks the frames said on its direct links): what fails costs its sender nothing.
        if not self._theirs_checks.allow((seat, slot[0]), self.clock()):
            return False
        if signed_slot(msg["f"], protocol.ledger.keyring, protocol.roster.game_id) != slot:
            return False
        self._on_frames(slot[0], {"f": [msg["f"]]})
        return False  # (a frame that breaks a rule ends the game: ``seat``'s link is still heard, it did nothing)

    def _on_vote(self, seat: int, msg: dict[str, Any]) -> bool:
        if self.patience is not None and self.patience.add(msg["v"], seat):
            self._tell_away()
        return False

    def _on_bye(self, seat: int, msg: dict[str, Any]) -> bool:
        self._do(Close(seat, Words("left")))
        return False

    STEPS: dict[str, Callable[[HostTable, int, dict[str, Any]], bool]] = {
        "frames": _on_frames, "chat": _on_chat, "ready": _on_ready, "key": _on_key,
        "watchpoint": _on_watchpoint, "blame": _on_blame, "theirs": _on_theirs, "vote": _on_vote, "bye": _on_bye,
    }

    # -- the lobby -----------------------------------------------------------------------------

    def _seated_again(self, key: bytes, first: dict[str, Any]) -> int | None:
        """The seat of a joiner back before its game began (its link dropped in
        the lobby or while the seats made their keys): the same identity with
        the same nonce.  None for anyone else."""
        if self.start is not None:
            keys, nonces = list(self.start.identities), list(self.start.nonces)
        else:
            keys, nonces = [s.key for s in self.lobby.seats], [s.nonce for s in self.lobby.seats]
        if key not in keys:
            return None
        seat = keys.index(key)
        if nonces[seat] != first["nonce"] or seat in self.local or seat in self._bots:
            return None
        return seat

    def _reattach(self, seat: int) -> None:
        """A seat back before its game began takes its place again: the table as
        it stands is sent again (and the game so far, if it began meanwhile)."""
        self.gone_since.pop(seat, None)
        self._do(Back(seat))
        self._do(Send(seat, self.lobby.message()))
        if self.start_msg is not None:
            self._do(Send(seat, self.start_msg))
        if self.hub is not None:
            self._do(Send(seat, self.roster_msg))
            self.hub.catch_up(seat, [0] * self.hub.size)
            if self.result is not None:
                self._tell_the_end(seat)
            else:
                self.flush()

    def _tell_the_end(self, seat: int) -> None:
        """A seat back once the game is over here: what it lacks of the log, then
        that the game is whole (``done``) or how the table ended early.  A seat
        the ending left out (voted gone, forfeiting, the cheat named) hears only
        that it ended: the votes say it had gone, and its own log, which may have
        gone one move further or counted its absence from its return, would
        refuse them and blame an honest host."""
        assert self.result is not None
        self._send_outbox(seat)
        if self.result.finished:
            words = [DONE]
        elif seat in self.spared:
            words = [{"t": "bye", "why": self.result.text[:200]}]
        else:
            words = self.last_words
        for m in words:
            self._do(Send(seat, m))

    def set_ready(self, ready: bool) -> None:
        """The host's own seat is ready (or not) to begin."""
        if self.start_msg is None:
            self.lobby.set_ready(self.identity.public_key, ready)
            self._lobby_changed()

    def _lobby_changed(self) -> None:
        self._do(Broadcast(self.lobby.message()))
        self._do(LobbySeats.of(self.lobby))
        if self.lobby.ready and self.start_msg is None:
            self._start()

    def _seat_name(self, seat: int) -> str:
        if self.start is not None:
            return self.start.names[seat]
        return self.lobby.seats[seat].name if seat < len(self.lobby.seats) else "?"

    def _chat_from(self, seat: int, msg: dict[str, Any]) -> None:
        """A seat's chat line: checked, rate-limited, passed on to everyone."""
        if msg["seat"] != seat:
            self._do(Close(seat, Words("a chat line for another seat")))
            return
        try:
            text = check_chat(msg, self.linked[seat][0], self.lobby.table)
        except RemoteProtocolError as exc:
            self._do(Close(seat, exc.message))
            return
        if not self.chat_limit.allow(seat, self.clock()):
            # Refused: the sender hears why, from the host, and nobody else hears it at all.
            self._do(Send(seat, chat_message(self.identity, self.lobby.table, 0, self._next_said(),
                                             self.chat_limit.refusal(self._seat_name(seat)))))
            self._do(ChatRefused(seat))
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
        for s in list(self.linked):
            if s != exclude:
                self._do(Send(s, msg))
        self._do(WatchSay(msg))

    def _tell_watchers(self) -> None:
        self._do(WatchIntro(watch_intro(self.lobby.table, self.start_msg, self.roster_msg, self.bot_seats)))

    def _watch_point(self, seat: int, port: int) -> None:
        """A joiner serves spectators too: every spectator learns where."""
        link = self.linked.get(seat)
        if link is None or link[1] is None:
            return
        address = link[1]
        self.points[seat] = (address[0], port)
        points = [self.points[s] for s in sorted(self.points)]
        if self.bind not in ("0.0.0.0", "::", ""):
            points.insert(0, (self.bind, self.port))
        self._do(WatchPoints(points))
        self._do(Broadcast(points_message(points, {p: s for s, p in self.points.items()})))

    # -- the game ------------------------------------------------------------------------------

    def _start(self) -> None:
        """The seats are final: every seat makes its key for this game (certified by its identity)."""
        self.start_msg = self.lobby.start_message()
        start, me = Start.from_message(self.start_msg, my_key=self.identity.public_key, my_nonce=self._nonce)
        self.start = start
        self._do(Broadcast(self.start_msg))
        self._do(Started(start))
        bots = {ident.public_key for ident in self._bots.values()}
        self.check_players([(n, k) for n, k in zip(start.names[1:], start.identities[1:]) if k not in bots])
        self._secrets = {0: SeatSecrets.generate(start.game_id, 0, self.identity)}
        for seat, ident in self._bots.items():
            self._secrets[seat] = SeatSecrets.generate(start.game_id, seat, ident)
        self._keys = {seat: (s.identity.public_key, s.cert) for seat, s in self._secrets.items()}
        self._do(Announce({"seats_taken": len(self.lobby.seats), "phase": "playing"}))
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
        assert start is not None and self.start_msg is not None
        if self.hub is not None or not self.confirmed or len(self._keys) < len(start.names):
            self._do(Confirming(tuple(self.unconfirmed)))
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
        self._do(Broadcast(self.roster_msg))
        self._tell_watchers()
        if self.save_root is not None:
            self.save_path = save_path(self.save_root, roster.game_id)
            self._do(CreateSave(self.save_path, roster,
                                {"role": "host", "port": self.port, "bots": sorted(self._bots),
                                 "table": self.lobby.table,
                                 "start": {k: v for k, v in self.start_msg.items() if k != "t"}},
                                self._secrets))
            self._do(Saving(self.save_path))
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
        self.patience = Patience(roster, gone_after=self.start.gone_after, move_clock=self.start.move_clock,
                                 bots=self.bot_seats)
        try:
            self.emit(0, self.hub.start())
            for seat, peer in self.local.items():
                if seat != 0:
                    self.emit(seat, peer.start())
            self.flush()
        except ProtocolError as exc:
            self._abort(exc)

    def flush(self) -> None:
        """Deliver everything queued, locally and on the links; save; ask for decisions.
        Past one slice of work it stops and asks to be called again (``Again``)."""
        hub = self.hub
        assert hub is not None
        if self.result is not None:
            return
        self._flush_queued = False
        deadline = self.clock() + SLICE
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
                        if self.clock() > deadline:  # let the links breathe, then go on
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
            self._do(Again())
        self.send_out()
        self.note_setup(hub.host)
        if hub.host.phase == "done":
            self._finish()
            return
        self.schedule_decisions()

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
        self._do(WatchLog(self.log()))

    def _send_outbox(self, seat: int) -> None:
        assert self.hub is not None
        frames = self.hub.outbox(seat)
        if frames and seat in self.linked:
            for m in frames_message(frames):
                self._do(Send(seat, m))

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
        self.flush()

    def _finish(self) -> None:
        assert self.hub is not None
        self.finish_game(self.hub.host)
        self._do(Broadcast(DONE))

    def _abort(self, exc: ProtocolError) -> None:
        """A broken rule ends the game.  Every seat and spectator is sent what was
        checked before it and then the cheater's signed frames, which each
        checks against its own log before it names anyone (the host's word
        alone is nobody's evidence); the journal keeps them for ``ankh verify``."""
        result = aborted(exc)
        evidence = evidence_of(exc)
        if self.hub is not None:
            self.hub.relay()
            self.send_out()
        last: list[dict[str, Any]] = []
        if evidence:
            last.append({"t": "blame", "f": evidence})
            if self.saving:
                self._do(JournalEnding({"blame": evidence}))
        last.append({"t": "bye", "why": result.text[:200]})
        self._last_words(last, spare=(getattr(exc, "seat"),) if evidence else ())
        self.end(result)

    def _last_words(self, messages: list[dict[str, Any]], spare: tuple[int, ...] | list[int] = (),
                    watch: list[dict[str, Any]] = ()) -> None:
        """The table ends before the game's end: every seat and spectator is told
        ``messages`` — now, or when it comes back for them (a link may be down
        at this moment): the table stays open until every seat but those
        ``spare`` (gone, or the cheat named) says it heard them, for a while.
        The spectators hear ``watch`` first (what the seats hold already)."""
        self.last_words = list(messages)
        self.spared = set(spare)
        self.owed = set(range(self.hub.size)) - set(self.local) - self.spared if self.hub is not None else set()
        for m in messages:
            self._do(Broadcast(m))
        self._do(WatchEnd(tuple(encode(m) for m in [*watch, *messages])))

    # -- the waits -----------------------------------------------------------------------------

    def tick(self) -> None:
        """A second went by: who the game waits for, for how long; an audit
        that waited too long forfeits; a table nobody came back to is abandoned."""
        if self.result is not None or self.hub is None:
            return
        host, now = self.hub.host, self.clock()
        waiting = host.waiting_for()
        self._do(Waiting(tuple(waiting), {s: now - t for s, t in self.gone_since.items()}))
        if host.phase == AUDIT and waiting:  # the game is over: a seat that keeps its disclosure forfeits
            self._audit_since = self._audit_since if self._audit_since is not None else now
            if now - self._audit_since >= self.abandon_after:
                self._forfeit(waiting)
            self._count_the_wait(())  # no ending by agreement over the audit: the offer, if any, is withdrawn
            return
        self._count_the_wait(waiting)
        if self.result is not None:
            return
        late = late_seats(self.gone_since, waiting, now, self.abandon_after)
        if late:
            text = abandoned_words(late, self.abandon_after)
            self._last_words([{"t": "bye", "why": text[:200]}], spare=late, watch=step_under_way(host))
            if self.saving:
                self._do(WriteAbandoned(text))
            self.end(Result(text))

    def _forfeit(self, seats: tuple[int, ...]) -> None:
        """The audit waited ``abandon_after`` seconds for ``seats``: they forfeit.
        The journal keeps the disclosures that came and who withheld theirs, so
        that ``ankh verify`` says the same; every seat sees the same wait in
        its own log and says it in its own words."""
        assert self.hub is not None
        host = self.hub.host
        result = forfeit_result(host, seats)
        if self.saving:
            self.journal_steps(host)
            self._do(JournalEnding({"pending": host.protocol.transcript().pending, "forfeit": list(seats)}))
        self._last_words([{"t": "bye", "why": result.text[:200]}], spare=seats, watch=step_under_way(host))
        self.end(result)

    def _count_the_wait(self, waiting: tuple[int, ...]) -> None:
        """Who the game waits for and how long, told to every seat; past the
        wait, the offer to end the table (this process's seats agree at once
        if it plays unattended)."""
        p = self.patience
        if p is None or self.hub is None:
            return
        step, basis = self.hub.host.stop()
        if p.tick(self.clock(), step, basis, waiting, self.gone_since, self.local) and self.auto_agree:
            self.agree()
        if p.alone:
            self._stop_alone()
            return
        self._tell_away()

    def _stop_alone(self) -> None:
        """Every other voice is away past its wait, and one voice alone does not
        end a table of three or more: the table stops as when the host leaves,
        naming nobody as gone, and carries on from its save once they are back."""
        if self.save_path is None:
            self.end(Result(Words("closed: every other player is away, and one player alone does not end a "
                                  "table of three or more")))
            return
        self.pausing = True
        self.end(Result(Words("paused: every other player is away, and one player alone does not end a table of "
                              "three or more; the game is saved in {path}, to carry on when they are back",
                              path=self.save_path)))

    def _tell_away(self) -> None:
        p = self.patience
        assert p is not None
        news = News.of(p)
        if news.away or news.offer is not None or self._told_away:
            self._told_away = bool(news.away) or news.offer is not None
            self._do(Broadcast(news.message()))
            self._do(WatchSend(encode(news.message())))  # (the spectators see who the game waits for too)
            self._do(Away(news))
        if p.agreed() and self.result is None:  # (agreed once: the table ended)
            self._end_by_agreement()

    def leave(self) -> None:
        """The person at the host leaves a game under way: every seat is told the
        game is paused (it waits for the host to load its save again)."""
        if self.result is None and (self.hub is None or self.save_path is None):
            self.end(Result(CLOSING))
        elif self.result is None:
            self.pausing = True
            self.end(Result(Words("paused: you left the table; the game is saved in {path}", path=self.save_path)))

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
        p, hub = self.patience, self.hub
        assert p is not None and hub is not None and self.result is None
        host = hub.host
        step, basis = host.stop()
        try:
            ending = check_votes(host.protocol.roster, p.votes.values(), step=step, basis=basis,
                                 waited=host.waiting_for(), bots=self.bot_seats)
        except RemoteProtocolError as exc:  # the game moved on meanwhile: the offer starts again
            self._do(Alert(f"the votes to end the table do not hold: {exc}"))
            p.votes.clear()
            return
        self._last_words([{"t": "ended", "votes": list(ending.votes)}], spare=ending.stop.gone)
        self.record_ending(host, ending)
