"""A joined seat's table, sans-I/O: the lobby as the host shows it, this
seat's key, its game over the host's link, the votes to end and the blame.

It holds no socket, file or timer.  Its driver (``JoinNode`` in
``net/io/join.py``) tells it that a link to the host is up
(:meth:`JoinTable.connected`), what the host says (:meth:`JoinTable.received`)
and that the link closed (:meth:`JoinTable.lost`).  Linking to the host again
is the driver's loop, but every choice in it is the table's: whether to try
(:meth:`JoinTable.relink_due`), what to say first on the new link
(:meth:`JoinTable.relink_opening`), when to give up
(:meth:`JoinTable.relink_failed`) and what follows once it is up
(:meth:`JoinTable.relinked`).  What a link to this seat's watch point may do
is the table's too (:meth:`JoinTable.at_watch_point`).  It answers with
:mod:`effects <ankh.net.tablecore.effects>`, where ``Send(0, ...)`` and
``Close(0, ...)`` are for the host's link.  Its clock is given (``clock``),
and so is the check that a game id was never played here before (``fresh``).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...core.game import COLOURS, GAMES
from ..wire.admission import Door
from ..fair.entropy import random_bytes
from ..wire.errors import LocalProtocolError, ProtocolError, RemoteProtocolError, Words
from ..wire.envelope import Identity, game_id_of, open_frame, seq_of, signed_slot
from ..fair.evidence import step_of
from ..play.ledger import BODIES
from ..play.events import Alert, Away, Back, Gone, HostKey, LobbySeats, Paused, Saving, Started, Waiting
from ..play.leave import News, OwnClock, Silence, Stop, check_votes, own_wait, vote
from ..wire.lobby import Start, chat_message, clocks_of, check_chat, encode, frames_message, watch_intro
from ..play.peer import AUDIT, FINAL, GamePeer, game_of
from ..play.seat import SeatProtocol
from ..files.secrets import SeatSecrets
from ..files.transcript import DEFAULT_KIND, Roster, find_equivocation
from .effects import (
    Close, CreateSave, JournalEnding, JournalWait, KeepSeat, LetGoSeat, LinkSeat, OpenWatchPoint, Send, TellSeats,
    WatchEnd, WatchIntro, WatchLog, WatchPoints, WatchSay, WatchSend,
)
from .result import Result, aborted, forfeit_result, stopped_result
from .save import save_path
from .seats import (
    CLOSING, DONE, FAREWELL, GAME_OVER, HEARD, PAUSED, REFUSED, CheckBudget, Refused, Saved, SeatCore, Watcher,
    evidence_of, step_under_way,
)
from .waits import ABANDON_AFTER

HOST = 0  # the host's seat: a joiner's link to the table is to it
HELD = 4  # pieces of evidence from the other seats kept until this seat's log reaches their step (half a seat)
AHEAD = 4  # steps ahead of this seat's log that a piece of evidence may be for, to be kept
LATE = 5.0  # seconds a seat whose game the host ended waits for a seat's evidence on its way
MINE_AHEAD = 4  # a seat's last frame on its direct link is a word from it this many frames ahead of our log at most
LOG_EACH = 8  # at the audit, the others' frames of this seat's log said on its direct links each time, at most
HERE_EVERY = 10.0  # seconds between this seat's last frames on its direct links (shorter for short clocks)
LOBBY_PATIENCE = 30.0  # seconds a joiner whose link dropped before the game tries to get back

# How this seat links to the host again once its link closed (``JoinTable.lost``).
JOIN_AGAIN = "join again"  # before the game: back to the same seat
REJOIN = "rejoin"  # during the game: back with what this seat holds of the log
DELIVER = "deliver"  # the game is over here: back, quietly, so the host gets our last frames


def farewell(why: str) -> str:
    """The host's ``bye`` as a joiner tells it: a refusal keeps its reason apart, so a
    screen can say both in its player's language."""
    if why.startswith(REFUSED):
        return Words("refused: {why}", why=why.removeprefix(REFUSED))
    return why


class JoinTable(SeatCore):
    """Sits at a table the host keeps and plays one seat of its game."""

    def __init__(self, identity: Identity, name: str, *, clock: Callable[[], float],
                 fresh: Callable[[bytes], bool] = lambda game_id: True, save_root: Path | None = None,
                 ready: bool = True, want: str | None = None, confirmed: bool = True,
                 address: tuple[str, int] | None = None, saved: Saved | None = None, door: Door | None = None):
        super().__init__()
        self.clock = clock
        self.door = door if door is not None else Door()  # the process's counts of links (who may watch)
        self.fresh = fresh  # whether a game id was never sat down to here (an old table replayed otherwise)
        self.want = want  # the game this seat came to play (None: whatever the table plays)
        self.game_kind = DEFAULT_KIND  # the game the table plays, from its lobby
        self.identity = identity
        self.name = name
        self.save_root = save_root
        self._nonce = random_bytes(16)
        self._kept: SeatSecrets | None = None  # this seat's secrets kept by its program's earlier run
        self.ready = ready
        # False: this seat's key (which the deal waits for) is sent once the
        # person has compared the table fingerprint (confirm_fingerprint)
        self.confirmed = confirmed
        self.abandon_after = ABANDON_AFTER
        self.peer: GamePeer | None = None
        self.address = address  # the host's, as this seat reached it
        self.start: Start | None = None
        self.start_msg: dict[str, Any] = {}
        self.seat = -1
        self.secrets: SeatSecrets | None = None
        self._bot_keys: set[bytes] = set()
        self.clocks: tuple[int, int] | None = None  # the gone-wait and move clock the lobby showed
        self.bot_seats: tuple[int, ...] = ()  # the host's bots, by seat (their votes are the host's)
        self.table = b""
        self._seat_keys: list[bytes] = []
        self._seat_names: list[str] = []
        self._said = 0
        self.host_done = False  # the host said it holds the whole game
        # Back on a new link: our frames wait for the host's ``have`` (some may have
        # been lost with the old link, and the host takes a seat's frames in order).
        self.awaiting_have = False
        self.farewell = FAREWELL
        self._ended_at = 0.0
        # the host's identity, pinned at the first link (or in the save): every later one must prove it
        self.host_key: bytes | None = None
        self._audit_since: float | None = None  # when this seat's own log reached the audit
        self._final_since: float | None = None  # when it was past it (it took every disclosure)
        self.disclosed: set[int] = set()  # seats whose part of the audit came on their direct link
        # seats whose direct link proved them alive at the audit without their disclosure over our
        # log before it: a frame they wrote there once their own log was at (or past) the audit
        self.alive: set[int] = set()
        # the frames at the number our log waits for from a seat that came unchecked (the budget), a few
        # distinct ones at most: what it said after them proves nothing yet (``_later``), until each is
        # checked (at the latest at the end: ``_check_unsure``)
        self._unsure: dict[int, list[bytes]] = {}
        self._later: set[int] = set()
        # the last few frames of this game a seat said at or past the number our log waited for from
        # it, before our log was at the audit: its disclosure may be among them (``_reach_audit``)
        self._before: dict[int, list[bytes]] = {}
        self.news: News | None = None  # the host's last word on a seat away, and the offer to end
        self._voted: Stop | None = None
        self.own_clock = OwnClock()  # how long the game has waited for this seat, by our own clock
        self.silence = Silence(clock())  # how long our own log has heard nothing from each seat it waits for
        self._agreeing: Stop | None = None  # the offer the person agreed to, signed once our own clock agrees
        self.seat_points: dict[int, tuple[str, int]] = {}  # the other seats' watch points, linked to directly
        # where this seat reached them: a note of the own wait keeps those, whatever the host said since
        self._points_reached: dict[int, tuple[str, int]] = {}
        self._held: list[tuple[int, list[bytes], int]] = []  # (its step, evidence, from) our log has not reached
        self._handed: dict[int, int] = {}  # pieces of evidence each seat handed on directly
        self._evidence: list[bytes] = []  # the cheat's frames this seat named it for (its spectators' last word)
        self._mine_checks = CheckBudget(MINE_AHEAD, 0.2)  # each seat's frames on its direct link
        self._twin_checks = CheckBudget(2, 0.2)  # frames of a third seat a seat handed on that differ from ours
        self._log_said = 0  # how many times this seat said its log's last frames at the audit (``_log_since``)
        self._own_wait = False  # the host ended the table at the audit before this seat's own wait ran out
        self._host_said = ""  # what it said then (its ``bye``)
        self._resumed_wait: dict[str, Any] | None = None  # the journal's note of that wait, for a save carried on
        self._restarted = False  # carried on from that note: only links to us reach a seat (``seat_reached``)
        self.own_point: tuple[str, int] | None = None  # where this seat's watch point is open
        self.kept_apart = False  # it named no forfeit only because it never had a direct link with that seat
        self.reached: set[int] = set()  # the seats this one has had a direct link with, their identity proved
        self.reached_out: set[int] = set()  # those whose watch point this one reached
        self.took: set[int] = set()  # those that said they took the evidence this one told them
        self._told_at: float | None = None  # when this one first told the seats a cheat's evidence
        self.named: int | None = None  # the seat this one named a cheat, with evidence
        self._late_until = 0.0  # the game ended here on the host's word alone: evidence may come until then
        self.apart: Stop | None = None  # the last offer this seat refused for a seat it never reached
        self.relink: str | None = None  # how this seat links to the host again (JOIN_AGAIN, REJOIN, DELIVER)
        self.linked = False  # the host's link is up (``connected``, ``relinked``; not after ``lost``)
        self._relink_since = 0.0  # when it began to
        self._impostor_told = False  # the person was told that a link to the address was not the host's
        if saved is not None:
            self._carry_on(saved)

    def _carry_on(self, saved: Saved) -> None:
        """The seat of a save, followed to where its journal stops (the driver then
        links to the host at ``address``, else the address the save was joined at)."""
        transcript, info, secrets = saved.transcript, saved.info, saved.secrets
        if info.get("role") != "join":
            raise LocalProtocolError("that save is not of a joined table")
        (mine,) = secrets.values()
        if mine.owner != self.identity.public_key:
            raise LocalProtocolError("that save belongs to another identity")
        self.name = transcript.roster.names[mine.seat]
        self._nonce = info["nonce"]
        self.address = self.address or (info["host"], int(info["port"]))
        self.start_msg = {"t": "start", **info["start"]}
        self.start, self.seat = Start.from_message(self.start_msg, my_key=self.identity.public_key,
                                                   my_nonce=self._nonce)
        self.table = info.get("table", b"")
        self.host_key = self.start.identities[HOST]  # the host sits first
        self.bot_seats = tuple(s for s in info.get("bots", ()) if type(s) is int)  # their votes are the host's
        self.secrets = mine
        self.save_path = saved.path
        self._begin(transcript.roster, mine, frames=transcript.frames(), journaled=len(transcript.ops))
        note = info.get("own_wait")
        if isinstance(note, dict) and self.peer is not None and self.peer.phase == AUDIT:
            self._resumed_wait = note  # (journal.read checked its fields)

    # -- the host's link -----------------------------------------------------------------------

    def _join_message(self) -> dict[str, Any]:
        return {"t": "join", "name": self.name, "nonce": self._nonce, "ready": int(self.ready)}

    def connected(self, host_key: bytes, kept: tuple[bytes, SeatSecrets | None] | None = None) -> None:
        """The first link to the table is up, proving ``host_key``: this seat asks for a seat.
        ``kept``: the nonce (and secrets) an earlier run of this program kept at this host
        (:class:`KeepSeat`) before its game's save existed: it died after the host had set
        the seats with them, and comes back to the same seat (a new nonce is no seat there)."""
        self.host_key, self.linked = host_key, True
        self._do(HostKey(host_key))  # proved by the handshake: an advert only claims one
        if kept is not None and type(kept[0]) is bytes and len(kept[0]) == 16:
            nonce, secrets = kept
            self._nonce = nonce
            self._kept = secrets if secrets is not None and secrets.owner == self.identity.public_key else None
        if self.save_root is not None:  # (no save, no seat to come back to)
            self._do(KeepSeat(self._nonce, self._kept))
        self._do(Send(HOST, self._join_message(), or_stop=True))

    def join_again_opening(self) -> list[dict[str, Any]]:
        """What this seat says first on a new link before the game began: the same
        seat again (the same identity and nonce), and its key once the seats are
        set and its person confirmed the fingerprint (it may have been lost)."""
        opening = [self._join_message()]
        if self.start is not None and self.secrets is not None and self.confirmed:
            opening.append(self._key_message())
        return opening

    def linked_again(self) -> None:
        """Back before the game began, its :meth:`join_again_opening` said."""
        self._do(Back(HOST))

    def rejoin_message(self) -> dict[str, Any]:
        """What this seat says first on a new link once its game began: what it
        holds; its own frames then wait for the host's ``have``."""
        assert self.peer is not None
        self.awaiting_have = True
        return {"t": "rejoin", "game": self.peer.protocol.roster.game_id, "have": list(self.peer.protocol.have())}

    def back(self) -> None:
        """Back on a new link during the game (its ``rejoin`` sent).  A vote sent
        on the old link may have been lost with it: it goes again when the host
        says its offer again (a vote counted twice is counted once)."""
        self._voted = None
        self.own_clock.link(self.clock(), True)
        self._do(Back(HOST))

    def lost(self, reason: str) -> str | None:
        """The host's link closed (``reason``): how this seat links to the host
        again (:data:`JOIN_AGAIN`, :data:`REJOIN`, :data:`DELIVER`, the steps
        ``relink_*`` then say each choice), or None: nothing more."""
        self.relink, self.linked = self._relink_after(reason), False
        self._relink_since = self.clock()
        return self.relink

    def _relink_after(self, reason: str) -> str | None:
        if self.result is not None:
            if self.settled() or reason.endswith(CLOSING):  # the host is done too
                return None
            return DELIVER
        if self.peer is None:
            if reason.endswith(CLOSING):
                self.end(Result(Words("the table closed before the game began: {why}", why=reason)))
                return None
            self._do(Gone(HOST, reason))
            return JOIN_AGAIN
        if reason.endswith(CLOSING):  # the host ended the table on purpose
            self.end(Result(Words("the host closed the table before the game ended")))
            return None
        self._do(Paused(HOST) if reason.endswith(PAUSED) else Gone(HOST, reason))
        self.own_clock.link(self.clock(), False)
        return REJOIN

    def malformed(self, why: str) -> bool:
        """The host said something this program cannot read: the link closes, saying
        why, and before the game it is a table of another version of ankh, which this
        seat leaves with a word why rather than join again and be told the same; True then."""
        self._do(Close(HOST, Words("malformed message: {why}", why=why)))
        if self.peer is not None or self.result is not None:
            return False
        self.end(Result(Words("refused: the table sent a message this program cannot read ({why}); it may run "
                              "another version of ankh", why=why)))
        return True

    def resumed(self) -> None:
        """A save carried on: this seat links to the host as after a link lost
        during the game (:data:`REJOIN`), waiting for it from now; a save made in
        its own wait at the audit goes on with that wait instead (``_go_on_waiting``)."""
        if self._resumed_wait is not None:
            note, self._resumed_wait = self._resumed_wait, None
            if self._go_on_waiting(note):
                return
        self.relink, self._relink_since = REJOIN, self.clock()

    def relink_due(self) -> bool:
        """Whether the driver tries (again) to link to the host: until a try
        succeeds or :meth:`relink_failed` gives up; after the game, only within
        ``farewell`` seconds of its end."""
        if self.relink == DELIVER:
            return self.farewell_left() > 0
        return self.relink is not None

    def relink_opening(self) -> list[dict[str, Any]]:
        """What the driver says first on a new link to the host, straight after its
        handshake (a link that ends meanwhile is a try that failed): during the
        game what this seat holds (``rejoin``), after it ``done`` too, so the host
        gets our last frames and knows we hold the whole game; before the game
        the same seat (:meth:`join_again_opening`)."""
        if self.relink == JOIN_AGAIN:
            return self.join_again_opening()
        opening = [self.rejoin_message()]
        if self.relink == DELIVER:
            opening.append(DONE)
        return opening

    def relink_failed(self, why: str) -> bool:
        """A try to link to the host again failed (``why``): True when this seat
        gives up, its result saying why.  Before the game it tries for
        ``LOBBY_PATIENCE`` seconds, then the table counts as closed; during the
        game it waits for the host (the screens told how long, :meth:`host_away`)
        as long as ``abandon_after``; after the game it tries on within the
        farewell without a word (:meth:`relink_due`).  (A host turning this seat
        away says ``bye`` first: a link that fails closes without one.)"""
        if self.host_key is not None and "not the expected" in why and not self._impostor_told:
            self._impostor_told = True  # (once: someone else answers at the host's address)
            self._do(Alert(why))
        gone = self.clock() - self._relink_since
        if self.relink == JOIN_AGAIN:
            if gone < LOBBY_PATIENCE:
                return False
            self.end(Result(Words("the table closed before the game began: {why}", why=why)))
        elif self.relink == REJOIN:
            if not self.host_away(gone):
                return False
        else:
            return False
        self.relink = None
        return True

    def relinked(self) -> bool:
        """The new link to the host is up, its opening said (it is the seat's
        link now): back in its seat before the game (it asked for it in its
        opening), back at the game during it.  True when the host is to be told this seat's
        watch point again (it may have restarted)."""
        how, self.relink, self.linked = self.relink, None, True
        if how == JOIN_AGAIN:
            self.linked_again()
        elif how == REJOIN:
            self.back()
            return True
        return False

    def host_away(self, gone: float) -> bool:
        """The host has not answered for ``gone`` seconds of the game: True when this seat stops waiting."""
        self._do(Waiting((HOST,), {HOST: gone}))
        if gone >= self.abandon_after:
            self.end(Result(Words("paused: {colour} (the host) did not come back within {secs:g} s; "
                                  "the game waits in your saves", colour=COLOURS[HOST], secs=self.abandon_after)))
            return True
        return False

    def settled(self) -> bool:
        """Nothing more to do here: the table ended, or the game is over on
        both ends of the link (each holds every seat's final signature), or
        the host did not say so within ``farewell`` seconds of our end."""
        return self.result is not None and (not self.result.finished or self.host_done
                                            or self.farewell_left() <= 0)

    def farewell_left(self) -> float:
        return self._ended_at + self.farewell - self.clock()

    def farewell_over(self) -> None:
        """The game is over here and the host did not say it holds it too within the
        farewell: this seat leaves its link, saying the game is over."""
        self._do(Close(HOST, GAME_OVER))

    def received(self, msg: dict[str, Any]) -> bool:
        """What the host said; True when this link is done with."""
        t = msg["t"]
        if t == "done":
            self.host_done = True
            if self.result is not None:
                self._do(Close(HOST, GAME_OVER))
                return True
        elif t == "have" and self.peer is not None:
            mine = self.peer.protocol.frames_after(msg["have"])  # those it lacks, held ones too
            for m in frames_message(mine):
                self._do(Send(HOST, m, or_stop=True))
            self.awaiting_have = False
        elif self.result is None:  # (the game over here: only what the host lacks still matters)
            step = self.STEPS.get(t)
            if step is not None:
                return step(self, msg)
        return False

    # -- what the host says, one step per kind of message (True: this link is done with) ---------

    def _on_chat(self, msg: dict[str, Any]) -> bool:
        self._chat_in(msg)
        return False

    def _on_lobby(self, msg: dict[str, Any]) -> bool:
        if self.peer is not None:
            return False
        refusal = self._other_game(msg.get("kind", DEFAULT_KIND))
        if refusal is not None:
            return self._refuse(refusal)
        self.game_kind = msg.get("kind", DEFAULT_KIND)
        if self.clocks is not None and clocks_of(msg) != self.clocks:  # what the person saw is what it sat at
            return self._refuse(Words("refused: the host changed the table's clocks after you sat down"))
        self.clocks = clocks_of(msg)
        if not self._seat_keys:
            self._check_host(msg)
        self.table = msg["table"]
        self._seat_keys = [s["key"] for s in msg["seats"]]
        self._seat_names = [s["name"] for s in msg["seats"]]
        self._bot_keys = {s["key"] for s in msg["seats"] if s["bot"]}
        self._do(LobbySeats.of_message(msg))
        return False

    def _on_start(self, msg: dict[str, Any]) -> bool:
        if self.start is None:
            try:
                self._start(msg)
            except RemoteProtocolError as exc:
                return self._refuse(Words("refused: {why}", why=exc.message))
        return False

    def _refuse(self, why: Words) -> bool:
        """This seat will not sit at this table (before the deal): it says why, and goes."""
        self.end(Result(why))
        self._do(Send(HOST, {"t": "bye", "why": str(why)[:200]}, or_stop=True))
        return True

    def _on_roster(self, msg: dict[str, Any]) -> bool:
        if self.peer is None and self.start is not None:
            try:
                self._roster(msg)
            except RemoteProtocolError as exc:
                self._abort(exc)
                return True
        return False

    def _on_points(self, msg: dict[str, Any]) -> bool:
        if self.peer is not None:
            assert self.address is not None and self.start is not None
            points = [(p["host"], p["port"]) for p in msg["at"]]
            self._do(WatchPoints([self.address] + [p for p in points if p != self.address]))
            for p in msg["at"]:  # the other people's seats: linked to directly, around the host
                seat, point = p.get("seat"), (p["host"], p["port"])
                if self.other_person(seat) and self.seat_points.get(seat) != point:
                    self.seat_points[seat] = point
                    self._do(LinkSeat(seat, point, self.start.identities[seat]))
        return False

    def other_person(self, seat: Any) -> bool:
        """Is ``seat`` another person's seat at this table (not this one, the host's
        or its bots')?  Only those link to each other directly, around the host."""
        return self.start is not None and type(seat) is int and 0 <= seat < len(self.start.identities) \
            and seat not in (HOST, self.seat) and seat not in self.bot_seats

    def seat_link(self, first: dict[str, Any], key: bytes) -> int | None:
        """The seat a link to this seat's watch point is, by its first word
        (``seat``) and the identity key its handshake proved: another person's,
        its key the one that seat holds at the start; None for any other link."""
        seat = first.get("seat") if first.get("t") == "seat" else None
        if not self.other_person(seat):
            return None
        assert self.start is not None
        return seat if key == self.start.identities[seat] else None

    def opens_watch_point(self) -> bool:
        """Whether this seat opens its watch point (spectators and the other seats link to
        it), or tells the host of it again on a new link: not once its game is over here."""
        return self.result is None

    def watch_point(self, port: int, host: str = "") -> dict[str, Any]:
        """What the host is told of this seat's watch point, open on ``port`` (of the
        address ``host``, which a note of the own wait keeps: :meth:`_note_wait`)."""
        if host:
            self.own_point = (host, port)
        return {"t": "watchpoint", "port": port}

    def at_watch_point(self, first: dict[str, Any], key: bytes, ticket: object | None = None,
                       ) -> int | Watcher | Refused | None:
        """A link to this seat's watch point, by its first word and the identity key its
        handshake proved: another person's seat (:meth:`seat_link`: its direct link), a
        spectator once the game began (from ``first["from"]``) if the door has room for
        it (``ticket``: the link's there), else refused (a ``bye`` says why); None for
        anything else, which this port does not serve."""
        seat = self.seat_link(first, key)
        if seat is not None:
            return seat
        if first["t"] != "watch" or self.peer is None:
            return None
        if ticket is not None and (full := self.door.watch(ticket)) is not None:
            return Refused(full)
        return Watcher(first["from"])

    def _on_frames(self, msg: dict[str, Any]) -> bool:
        if self.peer is None:
            return False
        try:
            for frame in msg["f"]:
                self.emit(self.peer.me, self.peer.receive(frame, via=HOST, pump=False))
                self._heard(frame)
                self.send_out()
                self.go_on(self.peer, self.peer.pump)
        except ProtocolError as exc:
            self._abort(exc)
            return True
        self.flush()
        return False

    def _on_blame(self, msg: dict[str, Any]) -> bool:
        if self.peer is None:
            return False
        verdict = self._twin(list(msg["f"])) or self.peer.judge(msg["f"])  # our own log must say so
        if verdict is not None:
            self._name(verdict, list(msg["f"]))  # (the host may have told only us)
            self.end(aborted(verdict))
            self._heard_the_end()
            return True
        if self.peer.taken:  # an honest frame of the step under way: taken into the game, and shown
            taken, self.peer.taken = self.peer.taken, []
            self.emit(self.peer.me, taken)
            self.send_out()
            self.go_on(self.peer, self.peer.pump)
            self.flush()
        return False

    def _on_away(self, msg: dict[str, Any]) -> bool:
        if self.peer is not None:
            self.news = News.from_message(msg)
            self._do(Away(self.news))
            self._do(WatchSend(encode(msg)))
            if self.auto_agree or (self._agreeing is not None and self._agreeing == self.news.offer):
                self.agree()
        return False

    def _on_ended(self, msg: dict[str, Any]) -> bool:
        if self.peer is None:
            return False
        self._ended(msg["votes"])
        self._heard_the_end()
        return True

    def _on_bye(self, msg: dict[str, Any]) -> bool:
        if self.peer is None:
            self.end(Result(farewell(msg["why"])))
        else:  # the game ended early: what our own log says, not the host's words
            if msg["why"].startswith(REFUSED):  # (a refusal too: shown as the host's word, not a result)
                self._do(Alert(farewell(msg["why"])))
            self._stopped(msg["why"])
            self._heard_the_end()
        return True

    STEPS: dict[str, Callable[[JoinTable, dict[str, Any]], bool]] = {
        "chat": _on_chat, "lobby": _on_lobby, "start": _on_start, "roster": _on_roster,
        "points": _on_points, "frames": _on_frames, "blame": _on_blame, "away": _on_away,
        "ended": _on_ended, "bye": _on_bye,
    }

    def _heard_the_end(self) -> None:
        """This seat tells the host it heard how the table ended (``done``): the host
        need not wait for it to come back for the table's last words."""
        self._do(Send(HOST, DONE))

    # -- the lobby -----------------------------------------------------------------------------

    def _check_host(self, msg: dict[str, Any]) -> None:
        """The host's seat in its first lobby: the key it shows must be the one its
        link proved, and a host met before must come with the key pinned for it."""
        if not msg["seats"]:
            return
        name, key = msg["seats"][0]["name"], msg["seats"][0]["key"]
        if key != self.host_key:
            self._do(Alert(Words("the host's seat shows a key other than the one its link proved")))
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

    def _start(self, msg: dict[str, Any]) -> None:
        """The seats are final: make this seat's key for the game and send it, certified."""
        start, seat = Start.from_message(msg, my_key=self.identity.public_key, my_nonce=self._nonce,
                                         bots=self._bot_keys)  # a new table: its clocks and voices signed
        if start.kind != self.game_kind:
            raise RemoteProtocolError("start: not the game the table's lobby said it plays")
        if start.clocks != self.clocks:
            raise RemoteProtocolError("start: the table's clocks are not the ones its lobby showed ({gone} s gone, "
                                      "{clock} s to move: the start says {sgone} s and {sclock} s)".format(
                                          gone=self.clocks[0] if self.clocks else "?",
                                          clock=self.clocks[1] if self.clocks else "?",
                                          sgone=start.gone_after, sclock=start.move_clock))
        kept = self._kept_for(start.game_id, seat)  # this seat's game, set before its program died
        if kept is None and not self.fresh(start.game_id):
            self.end(Result(Words("refused: this table's game id was played before (an old table replayed?)")))
            return
        self.start, self.start_msg, self.seat = start, msg, seat
        self.primary = seat  # this player's row in the lobby from now on ("you"), before the deal
        self._do(Started(start))
        # (the host was checked when its link proved its key: see _check_host)
        self.check_players([(n, k) for s, (n, k) in enumerate(zip(start.names, start.identities))
                            if s not in (HOST, seat) and k not in self._bot_keys])
        self.bot_seats = tuple(s for s, key in enumerate(start.identities) if key in self._bot_keys)
        self.secrets = kept or SeatSecrets.generate(start.game_id, seat, self.identity)
        if kept is None and self.save_root is not None:  # kept before its key is sent: the roster will hold it
            self._do(KeepSeat(self._nonce, self.secrets))
        if self.confirmed:
            self._send_key()

    def _key_message(self) -> dict[str, Any]:
        assert self.secrets is not None
        return {"t": "key", "key": self.secrets.identity.public_key, "cert": self.secrets.cert}

    def _kept_for(self, game_id: bytes, seat: int) -> SeatSecrets | None:
        """The secrets an earlier run of this program kept for ``seat`` of this game (its
        key may be in the host's roster already), or None: a game seen here before is
        then an old table replayed."""
        kept = self._kept
        return kept if kept is not None and (kept.game_id, kept.seat) == (game_id, seat) else None

    def _send_key(self) -> None:
        """This seat's key to the host; if the link is down meanwhile, it goes
        again when the seat is back (:meth:`join_again_opening`)."""
        self._do(Send(HOST, self._key_message()))

    def confirm_fingerprint(self) -> None:
        """The person at this seat has compared the table fingerprint: send
        the seat's key, which the host deals once it has every seat's."""
        if self.confirmed:
            return
        self.confirmed = True
        if self.start is not None and self.secrets is not None:
            self._send_key()

    def set_ready(self, ready: bool) -> None:
        """Ready (or not) to begin: the deal waits for every person at the table."""
        self.ready = ready
        if self.start is None:
            self._do(Send(HOST, {"t": "ready", "ready": int(ready)}))

    # -- the chat ------------------------------------------------------------------------------

    def chat(self, text: str) -> None:
        """This seat's chat line, to everyone at the table, through the host: only while
        the host's link is up (a line said with no link is not kept, nor shown as said)."""
        if not self.linked:
            return
        seat = self.seat if self.seat >= 0 else self._seat_keys.index(self.identity.public_key) \
            if self.identity.public_key in self._seat_keys else -1
        if seat < 0 or not self.table:
            return
        self._said += 1
        msg = chat_message(self.identity, self.table, seat, self._said, text)
        if msg["text"]:
            self._do(Send(HOST, msg))
            self.said(seat, self._names()[seat], msg["text"])
            self._do(WatchSay(msg))

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
            self._do(Alert(f"a chat line was refused: {exc.message}"))
            return
        self.said(seat, self._names()[seat], text)
        if self.peer is not None:
            self._do(WatchSay(msg))

    # -- the game ------------------------------------------------------------------------------

    def _roster(self, msg: dict[str, Any]) -> None:
        assert self.start is not None and self.secrets is not None
        roster = self.start.roster(msg["keys"], msg["certs"])
        if roster.keys[self.seat] != self.secrets.identity.public_key:
            raise RemoteProtocolError("roster: our key is not at our seat")
        if self.save_root is not None:
            self.save_path = save_path(self.save_root, roster.game_id)
            assert self.address is not None
            self._do(CreateSave(self.save_path, roster,
                                {"role": "join", "host": self.address[0], "port": self.address[1],
                                 "nonce": self._nonce, "table": self.table, "bots": list(self.bot_seats),
                                 "start": {k: v for k, v in self.start_msg.items() if k != "t"}},
                                {self.seat: self.secrets}))
            self._do(LetGoSeat())
            self._do(Saving(self.save_path))
        self._begin(roster, self.secrets)
        self._do(OpenWatchPoint())

    def _begin(self, roster: Roster, secrets: SeatSecrets, frames: list[bytes] | None = None,
               journaled: int = 0) -> None:
        proto = SeatProtocol(roster, secrets, relay=HOST)
        self.peer = GamePeer.resume(proto, frames) if frames else GamePeer(proto)
        # Steps the peer finished on its own while taking up the game again
        # (one only this seat sends to) are not in the journal yet: they go
        # in with the next ones.
        self.saved_steps = journaled
        self.local = {secrets.seat: self.peer}
        self.primary = secrets.seat
        self._do(WatchIntro(watch_intro(self.table, self.start_msg, {"t": "roster", "keys": list(roster.keys),
                                                                     "certs": list(roster.certs)},
                                        self.bot_seats),
                            chat=self.start.spectator_chat if self.start is not None else True))
        self.emit(secrets.seat, self.peer.start())
        self.flush()

    def flush(self) -> None:
        """Send what this seat has to send; save; ask for its decision; the game's end."""
        peer = self.peer
        assert peer is not None
        if self.result is not None:
            return
        if self._held and self._judge_held():
            return
        self.send_out()
        self.note_setup(peer)
        self.tick()
        if peer.phase == AUDIT and self._audit_since is None:
            self._audit_since = self.clock()  # the game is over: from now on a withheld disclosure forfeits
            self._reach_audit()
        if peer.phase == FINAL and self._final_since is None:
            self._final_since = self.clock()  # the others' own wait for our disclosure ends within half the host's
        if peer.phase == "done":
            self._finish()
            return
        self.schedule_decisions()

    def tick(self) -> None:
        """This seat's own count of how long the game waits for it (``OwnClock``)."""
        if self.peer is not None:
            self.own_clock.tick(self.clock(), self.peer.stop()[0], self.peer.me in self.peer.waiting_for())
            self.silence.tick(self.clock(), self.peer.stop()[0], self.peer.waiting_for())

    def send_out(self) -> None:
        """Save the finished steps, then send the host this seat's frames (saved
        first: a move sent and then lost in a crash would be decided again)."""
        peer = self.peer
        assert peer is not None
        out = self._outgoing(peer.data_to_send())
        self.journal_steps(peer)
        if out and not self.awaiting_have:
            for m in frames_message(out):
                self._do(Send(HOST, m))
        self._do(WatchLog(peer.protocol.ledger.log))

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
        self.flush()

    def _finish(self) -> None:
        """The game is over here; the link stays up until the host says it is
        over there too (it may lack our last frames: see ``DELIVER``)."""
        assert self.peer is not None
        self._ended_at = self.clock()
        self.finish_game(self.peer)
        self._do(Send(HOST, DONE))
        if self.host_done:
            self._do(Close(HOST, GAME_OVER))

    def _over(self, result: Result) -> None:
        """The game is over here: the spectators watching through this seat hear
        why (a finished game they followed to its end), and its watch point closes."""
        super()._over(result)
        if not result.finished and result.ending is None:
            # as the host's last words: each spectator, watching now or coming back for them
            # (its link may have dropped a moment ago), hears them once it holds the whole log,
            # and the watch point stays open a few seconds for that (``closing``)
            # (a spectator that comes after the cheat was named checks its evidence too, as the host's hear it)
            last = [*(step_under_way(self.peer) if self.peer is not None else ()),
                    *([{"t": "blame", "f": self._evidence}] if self._evidence else []),
                    {"t": "bye", "why": result.text[:200]}]
            self._do(WatchEnd(tuple(encode(m) for m in last)))

    # -- a broken rule, and the table ended early ----------------------------------------------

    def _abort(self, exc: ProtocolError) -> None:
        """A broken rule ends the game here.  The cheater's signed frames go to the
        host (it may not see the cheat itself: a wrong key in a private
        message opens for this seat alone), which checks them and passes them
        on to everyone, and to every other seat directly (the host may be the
        cheat, and keep them from the others); the journal keeps them for
        ``ankh verify``."""
        evidence = evidence_of(exc)
        if evidence:
            self._name(exc, evidence)
        self.end(aborted(exc))
        if evidence:
            self._do(Send(HOST, {"t": "blame", "f": evidence}))
        self._do(Send(HOST, {"t": "bye", "why": "a seat broke the rules"}))

    def seat_said(self, seat: int, msg: dict[str, Any]) -> None:
        """What seat ``seat`` said on its direct link to this seat's watch point
        (the link proved its identity): a cheat's evidence, which this seat
        judges against its own log as it would the host's (a seat's word is
        no more evidence than the host's); not yet at its step, kept until
        the log is."""
        if self.peer is None or self.result is not None and not (self.provisional and msg["t"] in ("blame", "mine")):
            return
        if msg["t"] == "mine":
            slot = seq_of(msg["f"])
            if slot is not None and slot[0] == seat:
                self._theirs(seat, msg["f"])
            elif slot is not None:
                if self.peer.protocol.signed(*slot) == msg["f"] and self._of_the_audit(msg["f"]):
                    self._alive_at_audit(seat)  # (see ``_of_the_audit``)
                self._compare(seat, msg["f"], slot)
            return
        if msg["t"] != "blame":
            return
        self._handed[seat] = self._handed.get(seat, 0) + 1
        if self._handed[seat] > HEARD or len(msg["f"]) != 2 and self._twin(msg["f"]) is None:
            return  # (a single frame from a seat is a twin of one we hold, or nothing: its step is the host's)
        evidence = list(msg["f"])
        verdict = self._twin(evidence) or self.peer.judge(evidence)
        if verdict is not None:
            self._abort(verdict)  # (where the host's word came first, the evidence says more)
            return
        if self.result is not None:
            return
        protocol = self.peer.protocol
        if signed_slot(evidence[0], protocol.ledger.keyring, protocol.roster.game_id) is None:
            return  # signed by nobody at the table: nothing to wait for
        try:
            step = step_of(evidence[0])
        except (ProtocolError, KeyError, TypeError, IndexError, ValueError):
            return
        index = self.peer.ledger().index
        if type(step) is int and index < step <= index + AHEAD and len(self._held) < HELD \
                and sum(1 for _, _, by in self._held if by == seat) < HELD // 2:
            self._held.append((step, evidence, seat))

    def _compare(self, seat: int, frame: bytes, slot: tuple[int, int]) -> None:
        """A frame of a third seat from ``seat``'s log (``_log_since``): one signed under a
        number our log holds another frame of that signer for names the signer (the
        host, say, which told the two seats two stories).  Only a frame that differs
        from ours costs a signature check, a few a second at most per seat."""
        assert self.peer is not None
        ours = self.peer.protocol.signed(*slot)
        if slot[0] == self.seat or ours is None or ours == frame or not self._twin_checks.allow(seat, self.clock()):
            return
        verdict = self._twin([frame])
        if verdict is not None:
            self._abort(verdict)

    def _twin(self, evidence: list[bytes]) -> ProtocolError | None:
        """A frame handed on, signed by its sender under a sequence number our log
        holds another frame of that sender for: it signed two (the host, say,
        which told each seat a different story)."""
        assert self.peer is not None
        protocol = self.peer.protocol
        for frame in evidence[:2]:
            slot = signed_slot(frame, protocol.ledger.keyring, protocol.roster.game_id)
            ours = None if slot is None else protocol.signed(*slot)
            if ours is not None and ours != frame:
                return find_equivocation({0: [ours], 1: [frame]}, protocol.roster)
        return None

    def here_every(self) -> float:
        """How often this seat says on its direct links that it is here: well within
        the shorter of the table's clocks, and every ten seconds at most."""
        gone_after, move_clock = self.start.clocks if self.start is not None else (HERE_EVERY, HERE_EVERY)
        return max(0.5, min(HERE_EVERY, min(gone_after, move_clock) / 4))

    def say_here(self) -> None:
        """This seat's last signed frames (a few), to every seat it links to directly:
        a seat that finds there a frame the host did not pass on to it knows that
        this seat is here and moved, whatever the host says (``_theirs``)."""
        peer = self.peer
        if peer is None or self.result is not None and not self.result.finished and not self._own_wait:
            return  # (a seat that finished says on: its last frame may be one the others still lack; so
            # does one that keeps its own wait at the audit, whose log may clear another: ``_log_since``)
        self._note_wait()
        protocol = peer.protocol
        sent = protocol.have()[self.seat]
        for seq in range(max(0, sent - MINE_AHEAD), sent):
            mine = protocol.signed(self.seat, seq)
            if mine is not None:
                self._do(TellSeats({"t": "mine", "f": mine}, keep=False))
        if peer.phase in (AUDIT, FINAL):
            for frame in self._log_since():
                self._do(TellSeats({"t": "mine", "f": frame}, keep=False))

    def _log_since(self) -> list[bytes]:
        """At the audit, the frames of this seat's log signed by the other seats from
        the step of the earliest of the other people's last frames in it on: the
        logs of two seats agree up to the step of the last frame each took from the
        other (each checked its log hash), so where they part (the host told them
        two stories) is among these.  Said a few at a time (``LOG_EACH``), the
        earliest first, in turn: a seat that holds another frame under one of their
        numbers names its signer (``_compare``), so an honest seat whose disclosure
        the host refused for its log hash clears itself of the host's two stories."""
        assert self.peer is not None
        protocol = self.peer.protocol
        have = protocol.have()
        people = [s for s in range(len(have)) if self.other_person(s) and have[s] > 0]
        if not people:
            return []
        frames: list[tuple[int, int, int, bytes]] = []
        try:
            start = min(step_of(protocol.signed(s, have[s] - 1) or b"") for s in people)
            for signer in range(len(have)):
                seq = have[signer] - 1
                while signer != self.seat and seq >= 0:
                    frame = protocol.signed(signer, seq)
                    if frame is None or (step := step_of(frame)) < start:
                        break
                    frames.append((step, signer, seq, frame))
                    seq -= 1
        except (ProtocolError, KeyError, TypeError, IndexError, ValueError):
            return []
        frames.sort()
        if len(frames) <= LOG_EACH:
            return [f for *_, f in frames]
        first = self._log_said * LOG_EACH % len(frames)
        self._log_said += 1
        return [f for *_, f in (frames + frames)[first:first + LOG_EACH]]

    def _theirs(self, seat: int, frame: bytes, budget: bool = True) -> None:
        """Seat ``seat``'s last frame, from its direct link: one signed by it that
        our log does not hold yet is a word from it (``Silence``), so the host
        cannot have this seat sign that ``seat`` left while it keeps back what
        ``seat`` sends.  A seat with nothing new (a program that hangs with its
        link up) is not heard from that way: its move clock runs on."""
        assert self.peer is not None
        protocol = self.peer.protocol
        lacks = protocol.have()[seat]
        slot = seq_of(frame)
        if slot is not None and slot[0] == seat and lacks <= slot[1] and self._audit_since is None \
                and self.peer.phase != AUDIT and game_id_of(frame) == protocol.roster.game_id:
            before = self._before.setdefault(seat, [])  # (however far ahead of our log: ``_reach_audit``)
            if frame not in before:
                before.append(frame)
                del before[:-MINE_AHEAD]
        if slot is None or slot[0] != seat or not lacks <= slot[1] < lacks + MINE_AHEAD:
            return  # (held already; or far ahead, never sent: a seat hung, saying it moved, is not heard)
        now = self.clock()
        if budget and not self._mine_checks.allow(seat, now):  # a signature check each: a few a second at most
            # (a frame that says another game, of another table of its player, is no disclosure of ours)
            ours = slot[1] == lacks and self.peer.phase == AUDIT and game_id_of(frame) == protocol.roster.game_id
            unsure = self._unsure.setdefault(seat, []) if ours else []
            if frame not in unsure and len(unsure) < MINE_AHEAD:  # (it may be its disclosure: what it says
                unsure.append(frame)  # after it proves nothing until this frame is checked)
            return
        unsure = self._unsure.get(seat, [])
        settles = frame in unsure  # a frame left unchecked, checked now
        if settles:
            unsure.remove(frame)
        self._check_theirs(seat, frame, slot, now)
        if settles and not unsure and self._unsure.pop(seat, None) is not None and seat in self._later:
            self._later.discard(seat)  # each checked, none our disclosure: what it said after them proves it there
            self._alive_at_audit(seat)

    def _check_theirs(self, seat: int, frame: bytes, slot: tuple[int, int], now: float) -> None:
        """:meth:`_theirs`, its budget allowing a signature check."""
        assert self.peer is not None
        protocol = self.peer.protocol
        lacks = protocol.have()[seat]
        try:
            env = open_frame(frame, game_id=protocol.roster.game_id, keys=protocol.ledger.keyring, kinds=BODIES)
        except (ProtocolError, KeyError, TypeError, ValueError):
            return
        if env.sender != seat or env.seq != slot[1]:
            return
        # A word from it only when it is the very frame our log waits for from it: the next
        # one, for the step under way (what a host that keeps it back would keep).  Any other
        # (one past it, or one for a later step, which the host takes and holds but never
        # passes on) is one our log could lack for ever: said every few seconds, it would
        # keep us from ever signing that a seat that never moves again left.
        if slot[1] == lacks and env.body["op"]["i"] == protocol.ledger.index:
            self.silence.heard_from(seat, now)
            # Its part of the audit, signed over our own log: it did not withhold it.  Over
            # another log hash it is no disclosure of this game (the host would refuse it).
            if self.peer.phase == AUDIT and env.body.get("basis") == self.peer.stop()[1] \
                    and seat not in self.disclosed:
                self.disclosed.add(seat)
                self._note_wait()
        # (its part of the audit over another log hash proves nothing by itself: the host may have
        # told it another story, ``_of_the_audit``)
        # The host may lack it too (a seat that keeps its frames from the host and says them
        # here would otherwise hold the table: we hear it, and never sign that it left).
        if self.result is None:
            self._do(Send(HOST, {"t": "theirs", "f": frame}))

    def _of_the_audit(self, frame: bytes) -> bool:
        """``frame``, one of our log's, is of the audit step: signed over our log's hash for
        it.  A seat that holds it holds our log up to the audit (it took no frame over
        another hash), so its own disclosure would be over our log hash too: one it
        withholds, or signs over another hash, is withheld.  A frame of an earlier step
        proves no such thing: a seat the host told another story after it (its log's
        hash for the audit then differs, and so does its disclosure's) says it too."""
        assert self.peer is not None
        try:
            return step_of(frame) == self.peer.stop()[0]
        except (ProtocolError, KeyError, TypeError, ValueError):
            return False

    def _alive_at_audit(self, seat: int) -> None:
        """``seat`` wrote on its direct link what it writes only once its own log is at
        (or past) the audit over our log: the others' frames of the audit step in its log
        (``_log_since``, ``_of_the_audit``), and no disclosure of it over our log came first.  An honest
        seat there says its disclosure before any such frame on each link (``say_here``),
        and a link carries what it writes in order, or nothing from some point on: so a
        seat whose link went dark (or whose program ended) is never proved so, and is
        not named in our own wait (``_audit_verdict``); a withholder that talks on is."""
        assert self.peer is not None
        if self.peer.phase == AUDIT and seat not in self.disclosed:
            if seat in self._unsure:
                self._later.add(seat)
            else:
                self.alive.add(seat)

    def _reach_audit(self) -> None:
        """Our log is at the audit: what a seat said at the number it now waits for from
        it, before, may be its disclosure (a network may let a seat's beat through up to
        it, hold the rest until our log is there, then cut the link).  It is held as one
        left unchecked (``_unsure``): what the seat says after it proves nothing until it
        is checked, on a later beat or at the end (``_check_unsure``)."""
        assert self.peer is not None
        have = self.peer.protocol.have()
        for seat, frames in self._before.items():
            at = [f for f in frames if seq_of(f) == (seat, have[seat])]
            if at:
                self._unsure[seat] = at
        self._before = {}

    def _check_unsure(self) -> None:
        """The wait is over: the frames left unchecked (``_unsure``) are checked now (a
        few a seat).  A seat's disclosure over our log among them clears it; where none
        was (forgeries that spent our budget, say), what it said after them proves it
        there: a withholder cannot hide behind the budget."""
        for seat, frames in list(self._unsure.items()):
            for frame in list(frames):
                self._theirs(seat, frame, budget=False)

    def _judge_held(self) -> bool:
        """Evidence a seat handed on before this seat's log reached its step, judged
        once the log is there: True when it proves a cheat."""
        assert self.peer is not None
        index = self.peer.ledger().index
        due = [evidence for step, evidence, _ in self._held if step <= index]
        self._held = [held for held in self._held if held[0] > index]
        for evidence in due:
            verdict = self.peer.judge(evidence)
            if verdict is not None:
                self._held = []
                self._abort(verdict)
                return True
        return False

    def _name(self, verdict: ProtocolError, evidence: list[bytes]) -> None:
        """This seat names the cheat: the evidence is kept and shown (``_blamed``)
        and goes to every other seat directly, until each says it took it
        (``deliver_left``)."""
        self.named = getattr(verdict, "seat", None)
        self._blamed(evidence)
        self._do(TellSeats({"t": "blame", "f": evidence}))
        if self._told_at is None:
            self._told_at = self.clock()

    def _blamed(self, evidence: list[bytes]) -> None:
        """The evidence of a cheat, kept in the journal and shown to the spectators
        watching through this seat (each checks it against its own log), and to those
        that come for the table's last word (seed 70156)."""
        self._evidence = list(evidence)
        if self.saving:
            if self.peer is not None:
                self.journal_steps(self.peer)  # every step finished before it, then the evidence
            self._do(JournalEnding({"blame": evidence}))
        self._do(WatchSend(encode({"t": "blame", "f": evidence})))

    def _stopped(self, why: str = "") -> None:
        """The host ended the game before its end (saying ``why``): the result is what
        this seat's own log shows (the audit waiting for a seat that forfeits, or the
        step the game waited for), kept in the journal as such; a seat that keeps its
        own wait at the audit notes it there (``_note_wait``)."""
        assert self.peer is not None
        result = self._audit_verdict()
        self._late_until = self.clock() + LATE
        if not result.forfeit and self.peer.phase == AUDIT and self._audit_since is not None \
                and set(self.peer.waiting_for()) - {self.seat}:
            # At the audit the host's word does not cut this seat's own wait short (a disclosure
            # the host refused alone, for its log hash, is withheld here unless it comes round)
            self._own_wait, self._host_said = True, why
            self._late_until = max(self._late_until, self._audit_since + self.abandon_after / 2)
            self._say_own_wait()
        elif lacking := self._may_lack_ours():
            # Past the audit: the seats whose last step we lack may lack our disclosure (the host
            # dropped it) and keep their own wait for it (begun before we took theirs, so over
            # half the host's wait after we were past the audit): we say it on our direct links
            self._own_wait = True
            since = self._final_since if self._final_since is not None else self.clock()
            self._late_until = max(self._late_until, since + self.abandon_after / 2 + self.here_every())
            if self._late_until > self.clock() + LATE:
                self._do(Alert(Words("the host ended the table after the audit; this seat says its disclosure to "
                                     "{who} {secs:g} s more, as long as their own wait, before it says how the game "
                                     "ended", who=" and ".join(COLOURS[s] for s in lacking),
                                     secs=round(self._late_until - self.clock()))))
            self.say_here()
        # (a cheat's evidence, or a disclosure, may still come round)
        self.end(result, provisional=not result.forfeit and (bool(self.reached) or self._own_wait))
        self._note_wait()

    def _say_own_wait(self) -> None:
        assert self.peer is not None
        waiting = [s for s in self.peer.waiting_for() if s != self.seat]
        self._do(Alert(Words("the host ended the table during the audit; this seat waits for the disclosure of "
                             "{who} {secs:g} s more, as long as its own wait, before it says how the game ended",
                             who=" and ".join(COLOURS[s] for s in waiting),
                             secs=round(max(0.0, self._late_until - self.clock())))))

    def _waiting_at_audit(self) -> bool:
        """This seat keeps its own wait at the audit, the host having ended the table there."""
        return self._own_wait and self.provisional and self.peer is not None and self.peer.phase == AUDIT

    def _note_wait(self) -> None:
        """The journal notes this seat's own wait at the audit (``journal.wait_note``), at
        its start and on each beat (and when a seat is reached or cleared): what the host
        said, what this seat had heard, and the seconds of the wait left by its own
        clock, less a beat (the note stands until the next one: a program killed just
        before that is started again with no more time than it had left)."""
        if not (self.saving and self._waiting_at_audit()):
            return
        assert self.peer is not None
        self.journal_steps(self.peer)
        self._do(JournalWait({
            "why": self._host_said, "left": max(0.0, self._late_until - self.clock() - self.here_every()),
            "mine": self.own_point, "disclosed": sorted(self.disclosed),
            "points": [(seat, *point) for seat, point in sorted({**self.seat_points, **self._points_reached}.items())],
            "pending": self.peer.protocol.transcript().pending}))

    def _go_on_waiting(self, note: dict[str, Any]) -> bool:
        """The seat of a save made in its own wait at the audit (the journal's last note,
        ``_note_wait``): the host ended the table there, so it does not wait for the host
        again; it goes on with its own wait for what the note says was left, no more (a
        length by its own clock: the time its program was down neither counts nor is
        added), opens its watch point where it was (the others' links to it
        come back there), links again to the other seats' watch points the note names,
        counts the disclosures it had heard, names only a seat its link proves there
        without its disclosure after this start (:meth:`_alive_at_audit`), and then
        says what its log says (``closing``).  Its first note takes a beat off: a program killed over
        and over still comes to the end of its wait.  A note whose audit frames are not
        this log's (doctored, or another table's) would have the seat forget disclosures
        its log took and name their seats: it is set aside, an alert says so, and the
        seat links to the host as from a save without notes (False)."""
        assert self.peer is not None and self.start is not None
        try:  # the audit's frames its log had taken (the step is unfinished: only the note holds them)
            for frame in note["pending"]:
                if frame[:1] != bytes([self.seat]):
                    self.emit(self.peer.me, self.peer.receive(frame, via=HOST, pump=False))
            self.go_on(self.peer, self.peer.pump)
        except (ProtocolError, ValueError) as exc:
            why = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            self._do(Alert(Words("the save's note of this seat's own wait at the audit does not fit its log ({why}): "
                                 "it is set aside, and this seat links to the host again", why=why)))
            return False
        self._own_wait, self._host_said, self._restarted = True, note["why"], True
        self.disclosed |= {s for s in note["disclosed"] if s != self.seat}
        if note["mine"]:   # where the others' links to this seat come back (the host, gone, says nothing now)
            self.own_point = (note["mine"][0], note["mine"][1])
            self._do(OpenWatchPoint(at=self.own_point))
        left = min(float(note["left"]), self.abandon_after / 2)  # (never more than a whole own wait)
        self._audit_since = self.clock() + left - self.abandon_after / 2
        self._late_until = self._audit_since + self.abandon_after / 2
        if self._host_said.startswith(REFUSED):
            self._do(Alert(farewell(self._host_said)))
        self._say_own_wait()
        self.end(stopped_result(self.peer, self.seat), provisional=True)
        for seat, host, port in note["points"]:
            if self.other_person(seat) and seat not in self.seat_points:
                self.seat_points[seat] = (host, port)
                self._do(LinkSeat(seat, (host, port), self.start.identities[seat]))
        self._note_wait()
        return True

    def _may_lack_ours(self) -> list[int]:
        """Past the audit (our log took every disclosure, ours signed), the other people's
        seats we reached whose frame of the last step we lack: their log may still wait
        for our disclosure, which a host that ends the table may have dropped."""
        assert self.peer is not None
        if self.peer.phase != FINAL:
            return []
        return [s for s in self.peer.waiting_for() if s in self.reached and self.other_person(s)]

    def _audit_verdict(self) -> Result:
        """What this seat's own log says of the table the host ended: at the audit, the
        seats it waits for forfeit once it waited for them half the host's time (the
        host reached the audit a moment before us), kept in the journal as such.  Not a
        seat whose disclosure, signed over our log, came on its direct link (the host
        dropped it, whoever brought it), nor another person's seat whose direct link
        never proved it there without it (:meth:`_alive_at_audit`): one this seat never
        had a link with, or whose link went silent, cannot be told from one the host
        keeps apart; where that leaves none to name, it says only whom the game waited for."""
        assert self.peer is not None
        over = self._audit_since is not None and self.clock() >= self._audit_since + self.abandon_after / 2
        if over and self.peer.phase == AUDIT:
            self._check_unsure()
        waiting = [s for s in self.peer.waiting_for() if s != self.seat]
        people = {s for s in waiting if self.other_person(s)}
        apart = people - self.reached
        # Each seat on its own: one cleared does not clear the others (the host that withheld its
        # own disclosure, say, and dropped another's that came round here)
        named = [s for s in waiting if s not in self.disclosed and (s not in people or s in self.alive)]
        if not (over and named and self.peer.phase == AUDIT):
            self.kept_apart = over and bool(apart)
            return stopped_result(self.peer, self.seat)
        self.kept_apart = False
        if self.saving:
            self.journal_steps(self.peer)
            self._do(JournalEnding({"pending": self.peer.protocol.transcript().pending, "forfeit": named}))
        return forfeit_result(self.peer, named)

    def closing(self) -> bool:
        """This seat is done: its result stands (:meth:`final`), and True when the
        spectators watching through it are to take the game's last steps before
        their links close (a game played to its end, ended on the seats' votes, or with a
        last word for them: ``_over``).  A seat that kept its own wait at the audit says
        now what its log says (``_audit_verdict``)."""
        if self.provisional and self._own_wait and self.peer is not None:
            self._own_wait = False
            verdict = self._audit_verdict()
            if verdict.forfeit:
                self.end(verdict)
        self.final()
        return self.result is not None

    def late_left(self) -> float:
        """The game ended here on the host's word alone, and this seat has links to
        other seats: the seconds it still waits for a seat's evidence on its way
        (which would replace that result), 0 once it need not."""
        return max(0.0, self._late_until - self.clock()) if self.provisional else 0.0

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
        if not self._reached(offer) or not self._own_clock_agrees(offer):
            return
        self._voted = offer
        self._do(Send(HOST, {"t": "vote", "v": vote(self.peer.protocol.secrets, offer)}))

    def _reached(self, offer: Stop) -> bool:
        """Has this seat had a direct link to every person the offer names (its
        identity proved)?  If not, it cannot tell a seat that left from one the
        host keeps from it (by naming no watch point, or a wrong one), nor hear
        that seat's evidence against the host: it signs nothing, and says why."""
        apart = [s for s in offer.gone if self.other_person(s) and s not in self.reached]
        if apart and self.apart != offer:
            self.apart = offer
            self._do(Alert(Words("you cannot agree to end the table without {who}: this seat never had a direct "
                                 "link to {who}, so it cannot tell a seat that left from one the host keeps from "
                                 "it", who=" and ".join(COLOURS[s] for s in apart))))
        return not apart

    def deliver_left(self) -> float:
        """This seat told the other seats a cheat's evidence: the seconds its links
        stay up still, until every seat whose watch point it reached (the cheat
        spared) said it took it, or the longer of the table's clocks passed since
        (their own wait before they may sign that this seat left); 0 once done."""
        if self._told_at is None or not self.reached_out - self.took - {self.named}:
            return 0.0
        clocks = self.start.clocks if self.start is not None else (0, 0)
        return max(0.0, self._told_at + max(clocks) - self.clock())

    def seat_reached(self, seat: int, out: bool = False) -> None:
        """A direct link to (``out``: its watch point) or from ``seat`` is up, its identity proved."""
        # A seat started again in its own wait counts only the seats whose link to it is
        # up again (those heard before its restart are cleared by the note): a seat it
        # reached before may not know where its watch point is now, nor say anything on
        # our link to its watch point.  (Who is named rests on what a link says, not on
        # its being up: ``_alive_at_audit``.)
        if seat not in self.reached and not (out and self._restarted):
            self.reached.add(seat)
            self._note_wait()
        if out:
            self.reached_out.add(seat)
            if seat in self.seat_points:
                self._points_reached[seat] = self.seat_points[seat]

    def seat_took(self, seat: int) -> None:
        """``seat`` said on our link to its watch point that it took what we told it."""
        self.took.add(seat)

    def _heard(self, frame: bytes) -> None:
        """A frame taken from the host's link: its signer was heard from (``Silence``)."""
        if frame and frame[0] != self.seat:
            self.silence.heard_from(frame[0], self.clock())

    def _own_clock_agrees(self, offer: Stop) -> bool:
        """Has this seat itself heard nothing from the seats ``offer`` names for
        the table's wait?  If not yet, it signs when it has (the host says the
        offer again every second), never on the host's count of the wait."""
        assert self.peer is not None and self.news is not None
        self.tick()
        first, self._agreeing = self._agreeing != offer, offer
        roster = self.peer.protocol.roster
        gone_after, move_clock = (self.start.gone_after, self.start.move_clock) if self.start is not None else (
            roster.gone_after, roster.move_clock)
        wait = own_wait(self.news, gone_after, move_clock)
        if self.silence.ready(offer, self.clock(), wait):
            return True
        if first and not self.auto_agree:
            self._do(Alert(Words("your agreement to end the table goes once this seat has itself heard nothing "
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
        self.tick()
        try:
            if self.peer.phase == AUDIT:
                raise RemoteProtocolError("the game is over and in its audit: nobody leaves it, a seat forfeits")
            ending = check_votes(roster, votes, step=step, basis=basis, waited=self.peer.waiting_for(),
                                     bots=self.bot_seats)
            if self.peer.me in ending.stop.gone:  # the votes say we left: our own clock says whether we did
                assert self.start is not None
                why = self.own_clock.contradicts(self.clock(), ending.stop, self.start.gone_after,
                                                 self.start.move_clock)
                if why is not None:
                    raise RemoteProtocolError(f"they say this seat left, but {why}")
        except RemoteProtocolError as exc:
            self.end(Result(Words("aborted: the host ended the table without the seats' agreement: {why}",
                                  why=exc.message)))
            return
        self._do(WatchEnd((encode({"t": "ended", "votes": list(ending.votes)}),)))  # to its watch point's
        self.record_ending(self.peer, ending)
