"""What every seat's process does alike, host or joiner: it plays its local
peers, asks their players for decisions, journals the finished steps and
ends the game.  Sans-I/O: it queues :mod:`effects <ankh.net.tablecore.effects>`
for its driver.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ankh.core.game import allows

from ..wire.errors import ProtocolError, Words
from ..play.events import Alert, Chat, Decided, Over, Played, SetupOver
from ..play.leave import Ending, describe_ending
from ..play.peer import SETUP, GamePeer, YourMove
from .effects import CheckPlayers, Journal, JournalEnding, Think, WriteTranscript
from .result import Result, outcome_result

DONE = {"t": "done"}  # "this seat holds the whole game, every seat's final signature"
GAME_OVER = Words("game over")  # a joiner's last word, once it holds the whole game
REFUSED = "refused: "  # how the host's bye starts when it turns a joiner away
CLOSING = Words("the table closed")  # the host's last word on every link
PAUSED = Words("the host left; the game is paused")  # the host's last word when it leaves a game under way
FAREWELL = 30.0  # seconds a finished seat waits for the others to hold the whole game too
HEARD = 8  # pieces of evidence each seat may hand another (or the host): each is checked, not for free


def evidence_of(exc: ProtocolError) -> list[bytes]:
    """The cheater's signed frames a broken rule came with (none if it names no seat)."""
    return list(getattr(exc, "evidence", ()))[:2] if getattr(exc, "seat", None) is not None else []


def step_under_way(driver: Any) -> list[dict[str, Any]]:
    """What a watch point tells its spectators before the table's last word when
    the game stopped in the middle of a step: the frames of that step it holds
    (signed, each checked by the spectator), so that a spectator, who follows
    whole steps only, reads from its own log whom the game waited for."""
    pending = driver.protocol.transcript().pending
    return [{"t": "pending", "f": list(pending)}] if pending else []


class CheckBudget:
    """A few signature checks per source each fraction of a second at most: what a
    peer hands on that fails to check costs it nothing, so what it can make us
    check is bounded."""

    def __init__(self, checks: int, every: float) -> None:
        self.checks, self.every = checks, every
        self._at: dict[Any, tuple[float, int]] = {}  # source -> (since when, checks since)

    def allow(self, source: Any, now: float) -> bool:
        """Whether one more check for ``source`` fits in its budget now (counted if so)."""
        since, used = self._at.get(source, (-1.0, 0))
        if now - since >= self.every:
            since, used = now, 0
        if used >= self.checks:
            return False
        self._at[source] = (since, used + 1)
        return True


@dataclass(frozen=True)
class Refused:
    """A newcomer turned away, and why (its link is then closed)."""
    why: str


@dataclass(frozen=True)
class Watcher:
    """A newcomer who only watches: the driver serves it the log from ``start``."""
    start: int


def pin_people(known: Any, people: tuple[tuple[str, bytes], ...]) -> Iterator[Alert]:
    """Pin the identity of every person at the table on first meeting, in ``known``
    (the keys met before, :class:`ankh.net.files.home.KnownPlayers` or alike): a known name
    with another key is an alert for the screens, never accepted silently."""
    for name, key in people:
        warning = known.warning(name, key)
        if warning is not None:
            yield Alert(warning)
        elif known.check(name, key) == "new":
            known.pin(name, key)


@dataclass(frozen=True)
class Saved:
    """A table's save, read: the journal's game, its header and the local seats' secrets."""
    transcript: Any
    info: dict[str, Any]
    secrets: dict[int, Any]
    path: Path


class Core:
    """What every table's core does alike, a seat's or a spectator's: it hands
    its effects to its driver, and the game ends once."""

    def __init__(self) -> None:
        self.out: list[Any] = []
        # Where effects go as they come (None: queued for ``take``).  A driver that sets it
        # sends each frame as soon as it is checked, while the table works on the next:
        # over a message of many frames (a shuffle's proofs) the other seats work meanwhile.
        self.sink: Callable[[Any], None] | None = None
        self.result: Result | None = None
        # The result is the host's word alone, kept back a moment: a seat's evidence on its
        # way may replace it (``JoinTable.late_left``); nobody has been told it yet.
        self.provisional = False

    def _do(self, effect: Any) -> None:
        if self.sink is not None:
            self.sink(effect)
        else:
            self.out.append(effect)

    def take(self) -> list[Any]:
        """The effects queued since the last call, in order."""
        out, self.out = self.out, []
        return out

    def end(self, result: Result, *, provisional: bool = False) -> None:
        """The game is over here (the driver closes the save and lets the process go).
        A ``provisional`` result is told only once it is ``final``: until then another
        may replace it."""
        if self.result is None or self.provisional:
            self.result, self.provisional = result, provisional
            if not provisional:
                self._over(result)

    def final(self) -> None:
        """The provisional result stands: it is told now."""
        if self.result is not None and self.provisional:
            self.provisional = False
            self._over(self.result)

    def _over(self, result: Result) -> None:
        self._do(Over(result))


class SeatCore(Core):
    """Local peers, their decisions, their journal and the game's end."""

    def __init__(self) -> None:
        super().__init__()
        self.local: dict[int, GamePeer] = {}
        self.saved_steps = 0
        self.save_path: Path | None = None  # where this table's save is kept (None: it is not)
        self._thinking: set[int] = set()
        self._set_up = False
        self.primary = 0  # the seat whose person (or headless bot) this process serves
        self.auto_agree = False  # agree at once to end a table a seat left (a headless seat)

    @property
    def saving(self) -> bool:
        """Whether this table is saved (its journal written as it goes)."""
        return self.save_path is not None

    def _apply(self, seat: int, option: tuple) -> None:  # pragma: no cover - each role says how
        raise NotImplementedError

    def send_out(self) -> None:  # pragma: no cover - each role says how
        raise NotImplementedError

    def journal_steps(self, peer: GamePeer) -> None:
        log = peer.protocol.ledger.log
        if self.saving and len(log) > self.saved_steps:
            self._do(Journal(tuple(frames for _, frames in log[self.saved_steps:])))
        self.saved_steps = len(log)

    def emit(self, seat: int, events: list[Any]) -> None:
        """Report what this process's own seat saw (bots' seats see the same public log)."""
        if seat != self.primary:
            return
        for e in events:
            if not isinstance(e, YourMove):
                self._do(Played(seat, e))

    def go_on(self, peer: GamePeer, pump: Callable[..., list[Any]]) -> None:
        """Let ``peer`` go as far as it can, sending each of its moves as soon as it is made."""
        while True:
            moves = peer.moves
            self.emit(peer.me, pump(until_move=True))
            if peer.moves == moves:
                return
            self.send_out()

    def note_setup(self, peer: GamePeer) -> None:
        """Report once that the setup is over (every deck shuffled, proven and locked): the deal begins."""
        if not self._set_up and peer.phase != SETUP:
            self._set_up = True
            self._do(SetupOver(peer.me))

    def schedule_decisions(self) -> None:
        """Ask for every local seat's decision not asked for yet."""
        for seat, peer in self.local.items():
            d = peer.decision
            if d is not None and seat not in self._thinking:
                self._thinking.add(seat)
                self._do(Think(seat, peer, d))

    def decided(self, seat: int, decision: Any, option: tuple) -> None:
        """``seat``'s player answered ``decision``: played if it is still the one asked.
        An answer that is no move there (a screen a step behind the table, a broken
        bot) is not played, and the player is asked again."""
        self._thinking.discard(seat)
        peer = self.local.get(seat)
        if peer is not None and peer.decision == decision and self.result is None:
            if not allows(decision, option):
                self.schedule_decisions()
                return
            self._do(Decided(seat, peer.moves))
            self._apply(seat, option)

    def forget(self, seat: int) -> None:
        """No answer came for ``seat`` (its player went away): it may be asked again."""
        self._thinking.discard(seat)

    def said(self, seat: int, name: str, text: str) -> None:
        self._do(Chat(seat, name, text))

    def check_players(self, people: list[tuple[str, bytes]]) -> None:
        """Pin the identity of every person at the table on first meeting; a known
        name with another key is reported (the screens show it), never accepted silently."""
        self._do(CheckPlayers(tuple(people)))

    def finish_game(self, peer: GamePeer) -> None:
        """The game is over and every seat signed the final log: save the
        transcript for ``ankh verify`` and say the result."""
        if self.saving:
            self._do(WriteTranscript(peer.protocol.transcript()))
        self.end(outcome_result(peer))

    def record_ending(self, peer: GamePeer, ending: Ending) -> None:
        """The seats still there ended the table (their votes checked): save the
        votes with the log, write the transcript, and say who left and the scores."""
        if self.saving:
            self.journal_steps(peer)
            transcript = peer.protocol.transcript()
            self._do(JournalEnding({"pending": transcript.pending, "end": list(ending.votes)}))
            transcript.end = list(ending.votes)
            self._do(WriteTranscript(transcript))
        points = peer.game.scores(peer.engine)
        self.end(Result(describe_ending(ending, points), ending=ending, scores=points))
