"""A spectator's table, sans-I/O: it follows a table's public log with its own
public-only rules engine, checking every signature, proof and move, through
one seat's watch point, and learns the others.

It holds no socket or timer.  Its driver (``WatchNode`` in ``net/io/node.py``)
asks it which link to make and how long its handshake may take
(:meth:`WatchTable.dial`), tells it that a link is up
(:meth:`WatchTable.linked`), what the link says (:meth:`WatchTable.received`),
that it closed (:meth:`WatchTable.lost`), could not be made
(:meth:`WatchTable.unreachable`: try the next now, wait and try again, or give
up) or is done with (:meth:`WatchTable.unlinking`); it answers with events for
the screen, and ``Send(0, ...)``/``Close(0, ...)`` for the link.  Its clock is
given (``clock``), and so is the rule of where this program may connect
(``may_go``: over SSH, not anywhere).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..wire.errors import ProtocolError, RemoteProtocolError, Words
from ..play.events import (
    Away, Back, Chat, ChatHidden, Paused, Played, Started, WatchLost, WatchMoved, WatchWaiting,
)
from ..play.leave import News, describe_ending
from ..wire.lobby import Start, check_chat
from ..play.peer import Finished, Spectator
from .effects import Close, Dial, GiveUp, Send, Wait
from .result import Result, aborted, outcome_result, stopped_result
from .seats import CLOSING, PAUSED, Core
from .waits import ABANDON_AFTER, RETRY_EVERY

PAUSED_HERE = Words("paused: the game waits, saved, for its players to come back")  # a spectator's word for it
FEED_SLICE = 8  # frames a spectator checks between looks at its link (a shuffle proof is one frame)
LINK = 0  # the one link a spectator has: to its watch point
# With other watch points to try, one whose handshake is not done in this many seconds is left
# (the only one it knows gets the link's whole handshake time: a host busy dealing may answer late).
LEAVE_SILENT_AFTER = 3.0
DONE_WATCHING = Words("done watching")


class WatchTable(Core):
    """Follows one table through its watch points; re-attaches to another (or
    the same, when it comes back) when its watch point goes, and carries on
    from the steps it holds."""

    def __init__(self, *, clock: Callable[[], float],
                 may_go: Callable[[str, int], bool] = lambda host, port: True) -> None:
        super().__init__()
        self.clock = clock
        self.may_go = may_go
        self.spectator: Spectator | None = None
        self.start: Start | None = None
        self.address: tuple[str, int] | None = None
        self.points: list[tuple[str, int]] = []  # every watch point heard of, the first given first
        self.seen: list[bytes] = []  # every frame received, when ``keep`` is set
        self.keep = False
        self.table = b""
        self.bot_keys: set[bytes] = set()  # the host's bots, as the watch point says (their votes are the host's)
        self.abandon_after = ABANDON_AFTER  # no watch point answered this long: the table is gone
        self.paused = False  # the host left: the game waits for it (told once, until it moves on)
        self._pending: list[bytes] = []  # the step under way as this link's watch point handed it on, for its bye
        self._at, self._failed, self._since = 0, 0, None  # the point to try; how many failed in a row, since when
        self._here: Start | None = None  # the table as this link's watch point said it
        self._peer_key = b""

    # -- the links -----------------------------------------------------------------------------

    def watch(self, host: str, port: int) -> None:
        """Watch the table whose watch point is at ``host:port``."""
        self.points = [(host, port)]

    def point(self) -> tuple[str, int]:
        """The watch point to try next."""
        return self.points[self._at % len(self.points)]

    def alone(self) -> bool:
        """Whether a failed link is the end (the first watch point, and nothing seen yet)."""
        return self.spectator is None and len(self.points) == 1

    def dial(self) -> Dial:
        """The link the driver makes next: to the watch point to try, given the link's whole
        handshake time when it is the only one known, ``LEAVE_SILENT_AFTER`` seconds when
        there are others to try."""
        return Dial(self.point(), None if self.alone() else LEAVE_SILENT_AFTER)

    def unreachable(self, why: str) -> Wait | GiveUp | None:
        """The link :meth:`dial` asked for could not be made (``why``): what the driver does
        then.  ``GiveUp``: the only watch point known failed before anything was seen, and
        the driver tells its caller so, as the link failed (a person typed a wrong address,
        or the table is not there).  ``Wait``: none of the watch points answers now; wait,
        then try them all again (the screen told how long nobody answered).  None: try the
        next one at once, unless no watch point answered for ``abandon_after`` seconds (the
        table closed: the result is set)."""
        if self.alone():
            return GiveUp(why)
        self._at, self._failed = self._at + 1, self._failed + 1
        self._since = self._since if self._since is not None else self.clock()
        gone = self.clock() - self._since
        if gone >= self.abandon_after:
            self.end(Result(Words("the table closed: no watch point answered for {secs:.0f} s", secs=gone)))
        elif self._failed >= len(self.points):  # none answers now: wait, then try them all again
            self._do(WatchWaiting(gone))
            self._failed = 0
            return Wait(RETRY_EVERY)
        return None

    def unlinking(self) -> None:
        """The driver is done with this link (it closed, or the watch ended): it is closed,
        after a ``bye`` when the watch holds its end, so that the watch point need not wait
        for this spectator to come back for the table's last steps."""
        if self.result is not None:
            self._do(Send(LINK, {"t": "bye", "why": str(DONE_WATCHING)}))
        self._do(Close(LINK, DONE_WATCHING))

    def malformed(self, why: str) -> str:
        """The link said something that is no message (``why``): it is closed, and the
        reason returned is the link's end (another watch point is tried)."""
        self._do(Close(LINK, Words("malformed message: {why}", why=why)))
        return Words("malformed message")

    def linked(self, address: tuple[str, int], peer_key: bytes) -> dict[str, Any]:
        """A link to the watch point at ``address`` is up (proving ``peer_key``): what to say on it first."""
        if self.address is not None and address != self.address:
            self._do(WatchMoved(address))
        self.address, self._failed, self._since = address, 0, None
        self._here, self._peer_key, self._pending = None, peer_key, []
        return {"t": "watch", "from": self.spectator.steps_followed if self.spectator else 0}

    def lost(self, reason: str) -> None:
        """The link closed (``reason``)."""
        if self.result is not None:
            return
        if reason.endswith(CLOSING) or self.alone():
            self.end(Result(Words("the table closed: {why}", why=reason)))
        elif reason.endswith(PAUSED):  # the game waits for the host to load its save
            if not self.paused:
                self.paused = True
                self._do(Paused(0))
            self._at += 1
        else:
            self._do(WatchLost(self.address, reason))
            self._at += 1  # another watch point first

    def pieces(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        """``msg`` in the pieces to take one by one, the link (and the screen) let
        breathe between them: a long catch-up of frames in slices."""
        if msg["t"] != "frames" or len(msg["f"]) <= FEED_SLICE:
            return [msg]
        return [{**msg, "f": msg["f"][i:i + FEED_SLICE]} for i in range(0, len(msg["f"]), FEED_SLICE)]

    def received(self, msg: dict[str, Any]) -> str | None:
        """What the link said; a reason when this link is to be dropped (then
        another watch point is tried)."""
        step = self.STEPS.get(msg["t"])
        return step(self, msg) if step is not None else None

    # -- what the watch point says, one step per kind of message ---------------------------------

    def _on_lobby(self, msg: dict[str, Any]) -> str | None:
        self.table = msg["table"]
        self.bot_keys = {s["key"] for s in msg["seats"] if s["bot"]}
        return None

    def _on_chat(self, msg: dict[str, Any]) -> str | None:
        start = self._here
        if start is not None and self.table:
            try:
                text = check_chat(msg, start.identities[msg["seat"]], self.table)
            except (RemoteProtocolError, IndexError):
                return None
            self._do(Chat(msg["seat"], start.names[msg["seat"]], text))
        return None

    def _on_start(self, msg: dict[str, Any]) -> str | None:
        """A watch point's ``start``: the table we watch, through one of its seats."""
        start = Start.of(msg)
        if self.start is not None and start.game_id != self.start.game_id:
            return Words("that watch point serves another game")
        if self._peer_key not in start.identities:
            self._do(Close(LINK, Words("not a seat of this table")))
            return Words("that watch point is not a seat of the table")
        if self.start is None and not start.spectator_chat:
            self._do(ChatHidden())
        self.start = self._here = start
        return None

    def _on_points(self, msg: dict[str, Any]) -> str | None:
        for p in msg["at"]:
            point = (p["host"], p["port"])
            # Over SSH a table may not send this program anywhere: only to
            # its own machine (or where the server's operator allows).
            if point not in self.points and (point[0] == self.points[0][0] or self.may_go(*point)):
                self.points.append(point)
        return None

    def _on_roster(self, msg: dict[str, Any]) -> str | None:
        if self._here is not None and self.spectator is None:
            self.spectator = Spectator(self._here.roster(msg["keys"], msg["certs"]))
            self._do(Started(self._here))
        return None

    def _on_frames(self, msg: dict[str, Any]) -> str | None:
        spectator = self.spectator
        if spectator is None or self._here is None or self.result is not None:
            return None
        if self.keep:
            self.seen += msg["f"]
        self._pending = []  # the game goes on: the step under way comes whole
        try:
            events = spectator.feed(msg["f"])
        except ProtocolError as exc:
            self.end(Result(f"aborted: the log does not check: {exc}"))
            return None
        if events and self.paused:  # the host is back: the game moves on
            self.paused = False
            self._do(Back(0))
        self._played(events)
        return None

    def _on_pending(self, msg: dict[str, Any]) -> str | None:
        """The frames of the step under way when the table stopped, kept for the
        last word that follows (the game going on instead sends that step whole)."""
        if self.spectator is not None and self.result is None:
            self._pending = list(msg["f"])
        return None

    def _take_pending(self) -> bool:
        """The frames handed on before the last word, each checked on its own, as a
        seat checked them: those that do not check say nothing, and the log
        stands where it stood.  True when they finished the game (its result told)."""
        spectator, frames, self._pending = self.spectator, self._pending, []
        assert spectator is not None
        for frame in frames:
            try:
                events = spectator.feed([frame])
            except ProtocolError:
                continue
            if self._played(events):
                return True
        return False

    def _played(self, events: list[Any]) -> bool:
        """What the log followed showed, for the screen: True when it finished the game (its result told)."""
        assert self.spectator is not None
        for e in events:
            self._do(Played(None, e))
            if isinstance(e, Finished):
                self.end(outcome_result(self.spectator))
                return True
        return False

    def _on_blame(self, msg: dict[str, Any]) -> str | None:
        if self.spectator is not None:
            try:
                verdict = self.spectator.judge(msg["f"])  # checked against the log we followed
            except ProtocolError:
                verdict = None
            if verdict is not None:
                self.end(aborted(verdict))
        return None

    def _on_away(self, msg: dict[str, Any]) -> str | None:
        if self.spectator is not None:
            self._do(Away(News.from_message(msg)))
        return None

    def _on_ended(self, msg: dict[str, Any]) -> str | None:
        if self.spectator is None:
            return None
        # the seats' signed votes, checked against the log we followed, as verify checks them
        # (votes that do not hold say nothing: the table's close then says it ended early)
        start = self._here
        assert start is not None   # (the spectator is made from it)
        bots = [s for s, key in enumerate(start.identities) if key in self.bot_keys]
        try:
            ending = self.spectator.ending(msg["votes"], bots)
        except (ProtocolError, ValueError, TypeError):
            return None
        points = self.spectator.game.scores(self.spectator.engine)
        self.end(Result(describe_ending(ending, points), ending=ending, scores=points))
        return None

    def _on_bye(self, msg: dict[str, Any]) -> str | None:
        # The words of whoever serves us are nobody's evidence: the result is what our own
        # log shows.  It names no forfeit: a forfeit is read from what the log lacks, and a
        # watch point can keep back what it holds (a host its own seats' disclosures, a joiner
        # the others'); a watch point that holds one back and one whose seat really withheld
        # it say the same to us.  We say whom the game waited for; the seats name who forfeits.
        if self.spectator is None:
            self.end(Result(Words("the table closed before the game began")))
            return None
        if str(msg["why"]).startswith("paused"):  # the seat serving us stopped, saved: nobody's game is over
            self.end(Result(PAUSED_HERE))
            return None
        if self._take_pending():
            return None
        self.end(stopped_result(self.spectator, None))
        return None

    STEPS: dict[str, Callable[[WatchTable, dict[str, Any]], str | None]] = {
        "lobby": _on_lobby, "chat": _on_chat, "start": _on_start, "points": _on_points, "roster": _on_roster,
        "frames": _on_frames, "blame": _on_blame, "away": _on_away, "ended": _on_ended, "pending": _on_pending,
        "bye": _on_bye,
    }
