"""What the processes of a table's seats do alike, host or joiner: carry out
their core's effects on the screens, the save and the players' decisions,
and serve their spectators (:class:`Driver`; ``HostNode`` in
:mod:`~ankh.net.io.host`, ``JoinNode`` in :mod:`~ankh.net.io.join`).  It
decides nothing: each role's core in :mod:`ankh.net.tablecore` does.
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from ...core.game import Decision
from ..files import home
from ..wire.admission import Door
from ..play.events import Alert, Over, TableEvent, TranscriptSaved
from ..wire.lobby import PROTOCOL, encode
from ..play.peer import GamePeer
from ..tablecore.effects import (
    CheckPlayers, CreateSave, Journal, JournalEnding, JournalWait, Think, WatchClose, WatchEnd, WatchIntro, WatchLog,
    WatchPoints, WatchSay, WatchSend, WriteTranscript,
)
from ..tablecore.seats import REFUSED, SeatCore, pin_people
from .savedir import SaveDir
from .transport import Connection, ConnectionClosed, open_files_limit
from .watchers import Watchers

PROLOGUE = PROTOCOL.encode()

# decide(peer, decision) -> the option (a bot answers at once, a person when ready)
Decide = Callable[[GamePeer, Decision], Awaitable[tuple]]
Report = Callable[[TableEvent], None]


def refuse(conn: Connection, why: str) -> None:
    """Turn a peer away on purpose: a ``bye`` saying why, then the link closes.
    (A link that closes without one failed, or was cut: a joiner tries again.)"""
    with contextlib.suppress(ConnectionClosed):
        conn.send_nowait(encode({"t": "bye", "why": (REFUSED + why)[:200]}))
    conn.close(why)


def send_quietly(conn: Connection, msg: dict[str, Any] | bytes) -> None:
    """``msg`` on ``conn``, unless it closed meanwhile (its reader finds out)."""
    with contextlib.suppress(ConnectionClosed):
        conn.send_nowait(msg if isinstance(msg, bytes) else encode(msg))


def core_attribute(name: str) -> property:
    """One of the core's attributes, as the screens and tests read (and set) it on its driver."""
    return property(lambda self: getattr(self._core, name),
                    lambda self, value: setattr(self._core, name, value))


class Driver:
    """What both roles' processes do alike: carry out their core's effects
    (the screens, the save, the players' decisions)."""

    def __init__(self, *, report: Report, decide: dict[int, Decide] | Decide, save: SaveDir | None):
        self.report = report
        self._decide = decide
        self.save = save
        self.done = asyncio.Event()
        self.stirred = asyncio.Event()  # the core took a step (a driver waiting on its word asks again)
        self.door = Door.for_descriptors(open_files_limit())
        # the spectators this process serves (and the links in their handshake, which may be theirs)
        self.watchers = Watchers(report, handshaking=lambda: self.door.strangers)

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
            case JournalWait(note=note):
                if self.save is not None:
                    self.save.note_wait(**note)
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
