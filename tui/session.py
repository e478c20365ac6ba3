"""A local game as the screens see it: the :class:`LocalGame`, who sits where
(people and bots), and the save file written as the game goes.

No Textual here.  The game screen asks :meth:`GameSession.next` what the game
waits for, lets a bot think in a worker (:meth:`GameSession.think` works on a
copy of the state) and applies the answer with :meth:`GameSession.apply_bot`.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

from collections.abc import Callable
from typing import Any, Protocol

from ankh.core.game import (COLOURS, DealCard, Decision, Game, PassCard, PickRandom, Reveal, RollDie,
                            RulesError, ShowCards, allows, forced, game_of_record, get)
from ankh.net.files import journal
from ankh.net.wire.errors import ProtocolError
from ankh.net.files.home import make_dirs, saves_dir
from ankh.net.play.local import LocalGame

from ankh.tui.bots import bot_kinds, default_bot_kind, make_bot
from ankh.tui.i18n import _, ngettext
from ankh.tui.seats import colour


HINT_BUDGET = 2.0  # seconds the hard bot weighs the options for a hint
HINT_SHOWN = 3     # the options a hint shows


class SeatBot:
    """A bot at one seat.  Its generator is reseeded before every decision from
    (game seed, seat, move number), so a decision thought out in a worker is
    the one the table applies, and a loaded game with easy or normal bots
    plays on exactly as the original would have.  The hard (search) bot thinks
    for a time budget, so how far it searched, and thus its move, can differ
    from one run to the next; every move made is in the save either way."""

    def __init__(self, kind: str, seed: int, seat: int, game: Game | None = None):
        self.kind = kind
        self.seed = seed
        self.seat = seat
        self.rng = random.Random()
        self.bot = make_bot(kind, self.rng, game)
        self.ply = 0

    @property
    def name(self) -> str:
        return self.kind

    def reseed(self, ply: int) -> None:
        self.rng.seed(f"{self.seed}:{self.seat}:{ply}")

    def think(self, state, decision: Decision, ply: int) -> tuple:
        self.reseed(ply)
        return self.bot.choose(state, decision)

    def choose(self, state, decision: Decision) -> tuple:
        """Called by the table when nobody thought ahead in a worker."""
        if len(decision.options) == 1:
            return decision.options[0]
        return self.think(state, decision, self.ply)


@dataclass(frozen=True)
class Next:
    """What the game waits for: ``person``/``bot`` (``seat``), or ``over``."""
    kind: str
    seat: int | None = None
    decision: Decision | None = None


@dataclass(frozen=True)
class ReviewSource:
    """What an end screen's review reads: a local game's record (``text``; the
    review is of the person's seat in it), or a networked seat's save
    (``folder``) and ``seat``, with ``every_card`` once the game's audit
    disclosed every card (a review with every card known is offered too)."""
    text: str | None = None
    folder: Path | None = None
    seat: int | None = None
    every_card: bool = False


class Session(Protocol):
    """What a game's screen (and the headless runner) reads and asks of a game,
    the same for a local game (:class:`GameSession`) and a seat or a spectator
    at a networked table (``ankh.tui.netplay``).

    A choice is the session's to apply: :meth:`choose` may return before it is
    applied (a networked seat hands it to its table), and it answers the
    decision the screen showed, which the session may have left behind (a
    networked seat's table asked the next one meanwhile): then it is refused.  After it, :meth:`next`
    says what the game waits for now, ``wait`` while the choice is on its way;
    a listener given to :meth:`watch` is called each time the game moves on
    by itself (another seat's move, this seat's choice applied), and the
    screen asks :meth:`next` again.  A screen that makes several choices in a
    row (a composer) makes each one only when :meth:`next` offers it."""

    networked: bool       # a table on the network: every move is final
    spectating: bool      # watching only: no decision, no word at the table
    path: Path | None     # a local game's save
    viewer: int | None    # the seat whose view is shown (None: a spectator's public view)

    @property
    def log(self) -> list: ...
    @property
    def people(self) -> list[int]: ...
    @property
    def players(self) -> int: ...
    @property
    def rules(self) -> Game: ...
    @property
    def over(self) -> bool: ...
    def view(self, seat: int | None = None) -> Any: ...
    def stolen_card(self, handle: int) -> Any: ...

    # the game moving on
    def next(self) -> Next: ...
    def choose(self, option: tuple, asked: Decision) -> bool: ...
    def think_job(self, nxt: Next) -> Callable[[], tuple]: ...
    def hint_job(self, nxt: Next) -> Callable[[], list[tuple[tuple, float]]] | None: ...
    def apply_bot(self, nxt: Next, option: tuple) -> bool: ...
    def watch(self, listener: Callable[[], None]) -> None: ...
    def unwatch(self, listener: Callable[[], None]) -> None: ...

    # taking back, saving, leaving
    def can_undo(self) -> bool: ...
    def undo_refusal(self) -> str: ...
    def undo(self) -> None: ...
    def save(self) -> None: ...
    def come_back(self) -> str: ...
    async def close(self) -> None: ...

    # the table (empty or refused in a local game)
    @property
    def hosting(self) -> bool: ...
    @property
    def fingerprint(self) -> str | None: ...
    @property
    def net_alert(self) -> str: ...
    @property
    def net_note(self) -> str: ...
    @property
    def can_end_table(self) -> bool: ...
    def end_table(self) -> None: ...
    chat_lines: list[tuple[int, str, str]]   # (seat, name, text), plain text, already checked
    notices: list[str]                       # what the screen must say once, at length (taken as said)
    def say(self, text: str) -> None: ...
    def stats(self) -> Any: ...
    def review_source(self) -> ReviewSource | None: ...   # what a review reads (None: no review here)


class Listeners:
    """The screens listening to a session: told each time the game moves on by itself."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[], None]] = []

    def watch(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def unwatch(self, listener: Callable[[], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def changed(self) -> None:
        for listener in list(self._listeners):
            listener()


class GameSession(Listeners):
    """A local game: people at this keyboard and bots (a :class:`Session`)."""

    networked = False
    spectating = False
    hosting = False
    fingerprint = None
    net_alert = ""
    net_note = ""
    can_end_table = False

    def __init__(self, game: LocalGame, bots: dict[int, SeatBot], path: Path | None = None):
        super().__init__()  # (a local game moves only when its screen drives it: nobody is told)
        self.game = game
        self.bots = bots
        self.path = path
        self.viewer = self.people[0] if self.people else 0
        self.chat_lines: list[tuple[int, str, str]] = []
        self.notices: list[str] = []

    # --- making one ---------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, you: int = 0, bots: int | None = None, kind: str | None = None,
            seed: int | None = None, save: bool = True, game: Game | None = None) -> "GameSession":
        """A new game of ``game`` (None: the default game): ``bots`` of the other
        seats (all of them by default) are bots of ``kind``; the rest are people
        taking turns at this keyboard."""
        rules = game or get()
        if seed is None:
            seed = random.SystemRandom().randrange(1, 10**9)
        kind = kind or default_bot_kind(rules)
        others = [s for s in range(players) if s != you]
        nbots = len(others) if bots is None else max(0, min(bots, len(others)))
        seated = {s: SeatBot(kind, seed, s, rules) for s in others[:nbots]}
        game = LocalGame.new(players, seed, seated, rules)
        path = new_save_path(seed) if save else None
        session = cls(game, seated, path)
        session.viewer = you
        session._hook_plies()
        return session

    @classmethod
    def from_text(cls, text: str, path: Path | None = None) -> "GameSession":
        """Resume a record (a save, or any record: without a ``seats:`` line,
        red is the person and the other seats are bots)."""
        rules = get(game_of_record(text))
        rec = rules.parse_record(text)
        seats = rec.seats or {0: "person"}
        kinds = {}
        installed = bot_kinds(rules)
        for s in range(rec.players):
            what = seats.get(s, f"bot:{installed[0]}")
            if what.startswith("bot:"):
                kinds[s] = what[4:] if what[4:] in installed else installed[0]
        bots = {s: SeatBot(k, rec.seed, s, rules) for s, k in kinds.items()}
        game = LocalGame(rec, bots, rules)
        session = cls(game, bots, path)
        session._hook_plies()
        return session

    @classmethod
    def load(cls, path: Path) -> "GameSession":
        return cls.from_text(path.read_text(encoding="utf-8"), path)

    def _hook_plies(self) -> None:
        for b in self.bots.values():
            b.ply = self.ply

    # --- what the screen reads ----------------------------------------------------------------

    @property
    def people(self) -> list[int]:
        return self.game.people

    @property
    def players(self) -> int:
        return self.game.state.players

    @property
    def ply(self) -> int:
        """Lines of the record so far: the move number bots seed from."""
        return len(self.game.record.lines)

    @property
    def rules(self) -> Game:
        """The game played."""
        return self.game.game

    def view(self, seat: int | None = None) -> Any:
        return self.rules.view_for(self.game.state, self.viewer if seat is None else seat)

    def stolen_card(self, handle: int) -> Any:
        """The card a steal moved under ``handle``, where the viewer was its thief
        or its victim (None for anyone else)."""
        moved = self.game.stolen.get(handle)
        return moved[2] if moved is not None and self.viewer in moved[:2] else None

    @property
    def log(self) -> list:
        return self.game.log

    @property
    def over(self) -> bool:
        return self.game.state.outcome is not None

    def next(self) -> Next:
        """Settle everything that needs nobody (table requests, forced choices),
        then say who must decide."""
        g = self.game
        while True:
            s = g.state
            if s.outcome is not None:
                return Next("over")
            d = s.pending
            if not isinstance(d, Decision):
                g.step()
                continue
            if forced(d):
                self._sync_ply()
                g.step()
                continue
            if d.seat in self.bots:
                return Next("bot", d.seat, d)
            return Next("person", d.seat, d)

    def _sync_ply(self) -> None:
        ply = self.ply
        for b in self.bots.values():
            b.ply = ply

    # --- bots -----------------------------------------------------------------------------------

    def think_job(self, nxt: Next):
        """A callable a worker may run: it thinks on a copy of the state and
        returns the option; nothing of the game is touched."""
        bot = self.bots[nxt.seat]
        state = self.game.state.copy()
        ply = self.ply
        decision = nxt.decision
        return lambda: bot.think(state, decision, ply)

    def hint_job(self, nxt: Next) -> Callable[[], list[tuple[tuple, float]]] | None:
        """At a person's decision in a local game, a callable a worker may run:
        the hard bot weighs the options from that seat's knowledge alone (its
        worlds are dealt again from what the seat has seen) and returns the
        best :data:`HINT_SHOWN`, each with its estimated chance.  None where
        there is nothing to weigh (a forced decision, no search bot)."""
        d = nxt.decision
        if nxt.kind != "person" or d is None or forced(d) or "search" not in self.rules.BOTS:
            return None
        bot = self.rules.bot("search", random.Random(f"hint:{self.ply}"), clock=time.monotonic,
                             budget=HINT_BUDGET)
        state = self.game.state.copy()
        return lambda: bot.evaluate(state, d)[:HINT_SHOWN]

    def apply_bot(self, nxt: Next, option: tuple) -> bool:
        """Apply a bot's answer if the game still waits for it."""
        if self.game.state.pending != nxt.decision:
            return False
        self._sync_ply()
        self.game.choose(option)
        return True

    # --- people ---------------------------------------------------------------------------------

    def choose(self, option: tuple, asked: Decision) -> bool:
        """A person's answer to ``asked``: applied at once (the screen's next look finds the
        game moved on), unless the game waits for another decision or it is no move there."""
        if self.game.state.pending != asked or not allows(asked, option):
            return False
        self.game.choose(option)
        return True

    # --- the table: a local game has none -------------------------------------------------------

    def end_table(self) -> None:
        """Only a networked table can be ended by its seats."""

    def say(self, text: str) -> None:
        """Nobody to talk to at a local game."""

    def come_back(self) -> str:
        return ""

    async def close(self) -> None:
        """Nothing to close: the save is written as the game goes."""

    def can_undo(self) -> bool:
        """Whether the person at the keyboard may take back their last choice.
        With several people at one keyboard, only their own."""
        if not self.game.can_undo():
            return False
        last = next((line for line in reversed(self.game.record.lines)
                     if line.who in COLOURS and COLOURS.index(line.who) not in self.bots), None)
        return last is not None and last.who == COLOURS[self.viewer]

    def undo_refusal(self) -> str:
        """Why :meth:`can_undo` says no, in words: which new information came."""
        lines = self.game.record.lines
        me = COLOURS[self.viewer]
        mine = [i for i, line in enumerate(lines) if line.who == me]
        if not mine:
            return _("You have made no choice yet that could be taken back.")
        after = lines[mine[-1] + 1:]
        if any(line.who in COLOURS and line.who != me and COLOURS.index(line.who) not in self.bots
               for line in after):
            return _("Another player has chosen since: only your own last choice can be taken back.")
        return _("Since your last choice: {what}. What is known cannot be taken back.").format(
            what=self._informed_words(self.game.informed))

    def _informed_words(self, why) -> str:
        """What a request or a bot's move told the table, in words."""
        viewer = self.viewer
        if isinstance(why, int):
            return _("{colour} (a bot) has moved").format(colour=colour(why))
        if isinstance(why, RollDie):
            return _("a die was rolled")
        if isinstance(why, PickRandom):
            return _("something was picked at random")
        if isinstance(why, DealCard):
            if why.seat == viewer:
                return ngettext("you drew a card", "you drew {n} cards", len(why.handles)).format(n=len(why.handles))
            return _("{colour} drew cards").format(colour=colour(why.seat))
        if isinstance(why, ShowCards):
            return (_("you were shown cards") if why.seat == viewer else
                    _("{colour} was shown cards").format(colour=colour(why.seat)))
        if isinstance(why, PassCard):
            return _("a card changed hands")
        if isinstance(why, Reveal):
            return _("a card was turned face up")
        return _("new information came")

    def undo(self) -> None:
        self.game.undo()
        # LocalGame.undo rebuilds the game around the same bot objects.
        self.bots = {s: b for s, b in self.game.bots.items()}

    # --- saving ---------------------------------------------------------------------------------

    def save_text(self) -> str:
        return self.game.save_text()

    def stats(self) -> Any:
        """The figures of the game so far (:mod:`ankh.core.stats`), from its record."""
        from ankh.tui.stats import stats_of_record
        return stats_of_record(self.save_text())

    def review_source(self) -> ReviewSource | None:
        """What the end screen's review reads: the game's record."""
        return ReviewSource(text=self.save_text())

    def save(self) -> None:
        """Write the record so far (the screen does after every change)."""
        if self.path is None:
            return
        make_dirs(self.path.parent)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(self.save_text(), encoding="utf-8")
        tmp.replace(self.path)


def new_save_path(seed: int) -> Path:
    d = saves_dir()
    stem = time.strftime("%Y-%m-%d-%H%M%S")
    path = d / f"{stem}.ankh"
    n = 2
    while path.exists():
        path = d / f"{stem}-{n}.ankh"
        n += 1
    return path


@dataclass(frozen=True)
class SaveInfo:
    path: Path
    when: float
    summary: str
    ok: bool
    game: str = ""      # the game's name (the list holds saves of both games), beside the file's


def delete_save(path: Path) -> None:
    """Delete a saved game (only files in the saves folder, or a networked game's folder there)."""
    path = Path(path)
    if path.resolve().parent != saves_dir().resolve():
        raise ValueError(f"{path} is not a saved game")
    if path.is_dir():
        for f in path.iterdir():
            f.unlink()
        path.rmdir()
        return
    path.unlink(missing_ok=True)


def list_saves() -> list[SaveInfo]:
    """Saved games, newest first, each with a one-line summary."""
    d = saves_dir()
    if not d.is_dir():
        return []
    from ankh.tui.games import name as game_name
    out = []
    for p in d.glob("*.ankh"):
        game = ""
        try:
            text = p.read_text(encoding="utf-8")
            s = GameSession.from_text(text, p)
            st = s.game.state
            people = ", ".join(colour(x) for x in s.people)
            who = (_("people: {colours}") if len(s.people) > 1 else _("you: {colours}")).format(colours=people)
            state = _("finished") if st.outcome else _("turn {n}").format(n=st.turn)
            summary = _("{n} players · {who} · {state}").format(n=st.players, who=who, state=state)
            game, ok = game_name(s.rules.id), True
        except UnicodeDecodeError:
            summary, ok = _("cannot be loaded: not a text record"), False
        except OSError as e:
            summary, ok = _("cannot be read: {why}").format(why=e.strerror), False
        except (RulesError, ValueError) as e:  # a damaged record: say where, do not crash
            summary, ok = _("cannot be loaded: {why}").format(why=e), False
        out.append(SaveInfo(p, p.stat().st_mtime, summary, ok, game))
    for p in d.glob("net-*/journal.ankh"):
        out.append(_network_save(p))
    out.sort(key=lambda i: i.when, reverse=True)
    return out


def _network_save(journal_path: Path) -> "SaveInfo":
    """A networked game's save folder, summed up from its journal's header."""
    from ankh.tui.games import name as game_name
    folder = journal_path.parent
    try:
        transcript, info = journal.read(journal_path.read_bytes())
        names = ", ".join(transcript.roster.names)
        role = _("you host") if info.get("role") == "host" else _("table at {host}:{port}").format(
            host=info.get("host"), port=info.get("port"))
        over = (folder / "game.ankh").exists() or bool(transcript.end)
        state = (_("ended by its seats after one left") if transcript.end else _("finished") if over
                 else _("{steps} steps").format(steps=len(transcript.ops)))
        summary = _("network · {names} · {role} · {state}").format(names=names, role=role, state=state)
        game, ok = game_name(transcript.roster.kind), not over
    except (OSError, ValueError, KeyError, TypeError, ProtocolError) as e:
        summary, ok, game = _("cannot be loaded: {why}").format(why=e), False, ""
    return SaveInfo(folder, journal_path.stat().st_mtime, summary, ok, game)
