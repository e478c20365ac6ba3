"""A review of one seat's moves in a local game's record (``ankh review FILE``).

The hard bot goes over each decision of the seat that had more than one
option, from the seat's knowledge at the time: it searches worlds in which
every card the seat had not seen is dealt again (its ``evaluate``), and
estimates the seat's chance to win after what it chose and after its own
best choice: in each world the game is played on by heuristic bots until the
seat's next turn, and scored 1 for a win (shared on a tie), 0 for a loss, or
else the seat's share of the win by the position, a softmax over every
seat's evaluation that sums to 1 over the seats (``chances`` in the game's
search, its temperature fitted to who won bot games by
``scripts/bench/calibrate``); the chance is the mean over the worlds.  A
decision where the game ended in one of those worlds (late in the game) is
searched in :data:`DECISIVE` times as many, when the candidates came to
different values there (:func:`decided`): a choice there may cost the game
in a world in eight, which a search of eight worlds sees or misses by chance.
A game of the first kind longer than :data:`GAME` decisions is searched with
fewer worlds a decision (:func:`first_worlds`), and its decisions in doubt
(below) are searched again only within a budget of worlds
(:func:`affordable`): a long game costs about what one of ``GAME`` decisions
costs, the worlds spent on the decisions that may be the costliest.
A decision reviewed is kept in a file beside the record (the
record's bytes, the seat and the search's size are its key), so a review
stopped halfway goes on where it stopped, with the same result, and a second
look is instant.  The seat's choice and the bot's best are compared in the
same worlds.  Once every decision is reviewed, the :data:`FIRM` that may be
costliest (the widest differences with :data:`SURE` standard errors of them,
among those that may cost a point of chance and as much as another surely
costs: :func:`costliest`) are searched again with :data:`FIRM_TIMES` times
more worlds and generators of their own, and their chances are those firmer
ones.  Only those can count as costly, and only when the difference there is
more than :data:`SURE` standard errors of its paired differences over the
worlds (:attr:`Reviewed.cost`): the costliest decision is named on a firm
search, not on the first pass's noise, and a decision whose candidates lie
within the search's error is not held against the seat.  Where that firmer
search leaves in doubt which decision is the costliest, or whether it counts
(:func:`in_doubt`), the decisions in doubt are searched again with as many
worlds more, added to theirs, at most :data:`AGAIN` times.  Each
search has its own seeded generator and a fixed number of worlds, never a
clock, so a review stopped and started again ends with the same result; in
several processes each search is cut in parts of the first pass's worlds
(:mod:`.review_work`), the same worlds whoever plays them, so the result
is the one of a single process and the cores end each round together.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import textwrap
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static

from ankh.core.game import (COLOURS, Decision, Game, RecordError, RulesError, SetupError, UnknownGame, forced,
                            game_of_record, get)
from ankh.net.files import journal
from ankh.net.wire.errors import ProtocolError
from ankh.net.play.ledger import Ledger
from ankh.net.play.local import LocalGame
from ankh.net.play.peer import GamePeer
from ankh.net.play.seat import SeatProtocol
from ankh.net.files.secrets import SeatSecrets
from ankh.net.files.transcript import Transcript
from ankh.tui.games import ui
from ankh.tui.i18n import NP_, Localised, _, ngettext
from ankh.tui.review_work import Spent, Task, Workers, part
from ankh.tui.seats import colour, seat_letter
from ankh.tui.session import ReviewSource

WORLDS = 8        # worlds searched for each decision
FIRM = 5          # at most, the decisions that may be costliest after the first pass, searched again ...
FIRM_TIMES = 4    # ... with this many times more worlds, from generators of their own
SURE = 2.0        # standard errors of the difference beyond which a decision counts as costly
MATTERS = 0.01    # a point of chance: a decision that may cost less is not searched again
DOUBT = 1.5       # standard errors within which the costliest decision is in doubt ...
DECISIVE = 3      # times WORLDS, the worlds of a decision where the game ended in a world searched
AGAIN = 2         # ... and searched again, at most this many more times, FIRM_TIMES * WORLDS worlds more each
GAME = {"morpork": 50}   # decisions: a longer game's first pass searches at most the worlds of one this long
                         # (with 40, a game of 54 decisions searched in 5 worlds each named another costliest on
                         # a second review; in 8, the same)
                         # (the first game's: a world of it costs ten times one of the guilds, which have none) ...
LEAST = 2         # ... and each decision in at least this many (or WORLDS if fewer)
SPEND = 1.6       # times GAME * WORLDS: the worlds a review may search before a round of decisions in doubt
                  # (640: a long game of 74 decisions took 31 s on two cores with 800, 24 s with 640)
VERSION = 7       # of the kept reviews: another search gives another result (2: the place kept;
                  # 3: the chance a share of the win over the seats; 4: the costliest searched again;
                  # 5: the difference's standard error kept; 6: those that may be costliest, and
                  # those in doubt again; 7: a budget of worlds a game, the decisive worlds where
                  # the candidates differ)


@dataclass(frozen=True)
class Reviewed:
    """One decision of the seat, reviewed."""
    turn: int
    chosen: str            # in the words of the game's prompt
    chosen_chance: float   # the seat's estimated chance to win after it (0 to 1)
    best: str              # the hard bot's best choice there
    best_chance: float
    place: int = 1         # the place of what the seat chose in the hard bot's order (1: its best)
    margin: float = 0.0    # the standard error of best_chance - chosen_chance over the worlds (paired)
    firm: bool = False     # searched again with more worlds (the decisions that look costliest)
    worlds: int = 0        # the worlds searched

    @property
    def gap(self) -> float:
        """How much less the seat's choice looks than the bot's best, sure or not."""
        return max(0.0, self.best_chance - self.chosen_chance)

    @property
    def cost(self) -> float:
        """How much of its chance the seat gave away here: the gap of the firmer
        search, when it is more than :data:`SURE` standard errors (0: the bot's
        choice, or as good as far as the search can tell, or not searched again)."""
        return self.gap if self.firm and self.gap > SURE * self.margin else 0.0

    @property
    def at_most(self) -> float:
        """How much it may have cost: the gap and :data:`SURE` standard errors."""
        return self.gap + SURE * self.margin


class _Walk(LocalGame):
    """A record replayed, keeping the state before each of ``seat``'s choices."""

    def __init__(self, record: Any, game: Game, seat: int) -> None:
        self.seat = seat
        self.choices: list[tuple[Any, Decision, tuple]] = []
        super().__init__(record, {}, game)

    def _apply_choice(self, opt: tuple) -> None:
        d = self.state.pending
        if d.seat == self.seat and not forced(d):
            self.choices.append((self.state.copy(), d, opt))
        super()._apply_choice(opt)


def choices(text: str, seat: int) -> tuple[Game, list[tuple[Any, Decision, tuple]]]:
    """The game of a record, and ``seat``'s choices in it: (the state before, the decision, the option chosen)."""
    rules = get(game_of_record(text))
    return rules, _Walk(rules.parse_record(text), rules, seat).choices


class _SeatWalk(GamePeer):
    """A networked seat's save followed again by the seat itself (its secrets:
    the cards it saw, and no other), keeping the state it knew before each of
    its choices."""

    def __init__(self, protocol: Any) -> None:
        self.choices: list[tuple[Any, Decision, tuple]] = []
        super().__init__(protocol)

    def _apply_move(self, decision: Decision, option: tuple) -> None:
        if decision.seat == self.me and not forced(decision):
            self.choices.append((self.known_state(), decision, option))
        super()._apply_move(decision, option)

    def known_state(self) -> Any:
        """The game as the seat knows it now."""
        return self.engine.copy()


def seat_of_save(folder: Path, seat: int | None = None) -> int:
    """The seat a networked game's save folder reviews: ``seat`` if the folder
    holds its secrets, else the first it holds (ValueError: none there)."""
    held = sorted(int(f.name[4:-8]) for f in folder.glob("seat*.secrets") if f.name[4:-8].isdigit())
    if not held or (seat is not None and seat not in held):
        raise ValueError(seat)
    return held[0] if seat is None else seat


class _EveryCardWalk(_SeatWalk):
    """The seat's save followed again once its audit disclosed every deck's
    order: every card dealt is known to the seat as it is dealt (a card stolen
    too), as if each hand had been played face up."""

    disclosed: Any = None   # the audit's outcome (its decks' orders, the cards of the steals' slots)

    def known(self, deck: str, position: int) -> str | None:
        order = self.disclosed.decks.get(deck, ())
        return super().known(deck, position) or (order[position] if position < len(order) else None)

    def _slot_card(self, deck: str, slot: int, holder: int) -> str | None:
        return super()._slot_card(deck, slot, holder) or self.disclosed.slots.get(deck, {}).get(slot)

    def known_state(self) -> Any:
        return ui(self.game.id).every_card_known(self.engine.copy(), self.me)


def every_card_revealed(ledger: Ledger) -> bool:
    """Whether a networked game's end-of-game audit passed and disclosed the
    order of every deck (a review with every card known can be offered)."""
    audit = ledger.audit
    return audit is not None and not audit.violations and set(audit.decks) == set(ledger.decks)


def seat_choices(folder: Path, seat: int, every_card: bool = False
                 ) -> tuple[Game, list[tuple[Any, Decision, tuple]], bytes]:
    """A networked game's save (a seat's folder: its finished game or its
    journal, and its secrets): the game, ``seat``'s choices in it as the seat
    knew the game at each (the state before, the decision, the option chosen:
    a card it never saw is not in that state), and the log's bytes.  With
    ``every_card``, every card dealt is in those states, as the game's audit
    disclosed them (ValueError: the save has no audit that disclosed them all)."""
    data = journal.save_file(folder).read_bytes()
    transcript = journal.read(data)[0] if journal.is_journal(data) else Transcript.from_bytes(data)
    secrets = (folder / f"seat{seat}.secrets").read_bytes()
    frames = [f for step in transcript.ops for f in step]

    def protocol() -> SeatProtocol:
        return SeatProtocol(transcript.roster, SeatSecrets.from_bytes(secrets), relay=0)

    walk = _SeatWalk.resume(protocol(), frames)
    if every_card:
        ledger = walk.ledger()
        if not every_card_revealed(ledger):
            raise ValueError(_("the game's audit has not disclosed every card"))
        walk = type("_Audited", (_EveryCardWalk,), {"disclosed": ledger.audit}).resume(protocol(), frames)
    return walk.game, walk.choices, data


def _search(rules: Game, n: int, state: Any, decision: Decision, chosen: tuple, worlds: int, seed: str,
            before: list[list[float]] | None = None, again: int = 0, decisive: int = 0
            ) -> tuple[Reviewed, list[list[float]]]:
    """The seat's ``n``-th choice searched, and every candidate's value in each
    world (in the order of the bot's candidates, the choice last if the bot has
    it not).  The candidates and the worlds come from the generator of ``seed``
    and ``n``; ``decisive``: the worlds in all if the game ended in one of them
    (:func:`decided`; the same generator goes on: the worlds of one search).
    With ``before`` (the values of a search of this decision with this seed),
    ``worlds`` more from a generator of their own (``again``: the
    how-manieth), added to those."""
    cands, values = part(rules, n, state, decision, chosen, worlds, seed, again)
    if before is not None:
        values = [old + more for old, more in zip(before, values)]
    elif decisive > worlds and decided(values):   # (the same generator goes on: the worlds after these)
        _cands, more = part(rules, n, state, decision, chosen, decisive - worlds, seed, skip=worlds)
        values = [old + new for old, new in zip(values, more)]
    return _judged(rules, state, decision, chosen, cands, values), values


def decided(values: list[list[float]]) -> bool:
    """Whether the game ended in one of the worlds searched (a value of 0 or 1:
    won or lost there, as late in a game) after one candidate and not as well
    after another (their values there a point of chance apart): a decision
    where a choice may cost the game in a world in eight, and so cost much,
    and a look at eight worlds sees that world in one review and not in
    another.  Where the game was won or lost there whatever the seat chose,
    more worlds are not spent on it."""
    return any(max(world) - min(world) >= MATTERS and any(v <= 0.0 or v >= 1.0 for v in world)
               for world in zip(*values))


def first_worlds(game: str, decisions: int, worlds: int = WORLDS) -> int:
    """The worlds of each decision's first search in a review of ``decisions``:
    ``worlds``, or fewer in a ``game`` longer than its :data:`GAME` decisions,
    so that its first pass searches no more worlds than that of a game of
    that many (at least :data:`LEAST` a decision): a long game costs about
    what a game of ``GAME`` decisions costs, its worlds spent on the firmer
    searches of the decisions that may be the costliest rather than evenly."""
    if game not in GAME:
        return worlds
    return min(worlds, max(LEAST, worlds * GAME[game] // max(1, decisions)))


def _judged(rules: Game, state: Any, decision: Decision, chosen: tuple, cands: list[tuple],
            values: list[list[float]]) -> Reviewed:
    """A decision reviewed from its candidates' values world by world."""
    chance = {o: sum(v) / len(v) for o, v in zip(cands, values)}
    rated = sorted(cands, key=lambda o: -chance[o])
    best = rated[0]
    words = ui(rules.id).option_words
    view = rules.view_for(state, decision.seat)
    return Reviewed(state.turn, words(view, chosen), chance[chosen], words(view, best), chance[best],
                    1 + rated.index(chosen), standard_error(values[cands.index(best)], values[cands.index(chosen)]),
                    worlds=len(values[0]))


def review_one(rules: Game, n: int, state: Any, decision: Decision, chosen: tuple,
               worlds: int = WORLDS, seed: str = "review", decisive: int = 0) -> Reviewed:
    """The seat's ``n``-th choice reviewed (its own generator, from ``seed`` and
    ``n``: the same result every time; ``decisive``: as :func:`_search`)."""
    return _search(rules, n, state, decision, chosen, worlds, seed, decisive=decisive)[0]


def standard_error(these: list[float], those: list[float]) -> float:
    """The standard error of the mean of ``these - those``, world by world (0 from
    a single world: no error to go by)."""
    k = len(these)
    if k < 2:
        return 0.0
    diffs = [a - b for a, b in zip(these, those)]
    mean = sum(diffs) / k
    return (sum((d - mean) ** 2 for d in diffs) / (k - 1) / k) ** 0.5


def kept_beside(path: Path, seat: int, every_card: bool = False) -> Path:
    """Where the review of ``seat`` in the record at ``path`` is kept (the
    review with every card known apart from the one from the seat's view)."""
    return path.with_name(f"{path.name}.review-{COLOURS[seat]}{'-every-card' if every_card else ''}.json")


def review(text: str, seat: int, kept: Path | None = None, *, worlds: int = WORLDS, jobs: int = 1,
           progress: Callable[[int, int], None] = lambda done, total: None,
           stop: Callable[[], bool] = lambda: False, seed: str = "review",
           timed: Callable[[Spent], None] = lambda spent: None) -> tuple[list[Reviewed], int]:
    """``seat``'s choices in the record ``text`` reviewed, and how many there are
    in all (fewer reviewed when ``stop`` said so); ``kept``: the file that holds
    the decisions reviewed so far, read first and written after each; ``jobs``:
    processes that search side by side (the result is the same);
    ``seed``: the searches' generators (another seed, another sample of worlds);
    ``timed``: told the processor time of each search, or part of one searched elsewhere."""
    rules, seen = choices(text, seat)
    return _review(rules, seen, seat, text.encode(), kept, worlds, jobs, progress, stop, seed, timed)


def review_save(folder: Path, seat: int, kept: Path | None = None, *, every_card: bool = False,
                worlds: int = WORLDS, jobs: int = 1, progress: Callable[[int, int], None] = lambda done, total: None,
                stop: Callable[[], bool] = lambda: False) -> tuple[list[Reviewed], int]:
    """A networked game's review from ``seat``'s view (:func:`seat_choices`), as
    :func:`review`; with ``every_card``, with every card known once the audit
    disclosed them (a review of its own, kept apart)."""
    rules, seen, data = seat_choices(folder, seat, every_card)
    return _review(rules, seen, seat, (b"every card:" if every_card else b"") + data, kept, worlds, jobs,
                   progress, stop)


def cores() -> int:
    """Processes a review runs side by side: one per core this program may use, at most four."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:   # not on Linux
        n = os.cpu_count() or 1
    return max(1, min(4, n))


def _reviewed(rules: Game, seen: list[tuple[Any, Decision, tuple]], tasks: list[Task], workers: Workers,
              stop: Callable[[], bool], phase: int, step: int, timed: Callable[[Spent], None]
              ) -> Iterator[tuple[Reviewed, list[list[float]]]]:
    """The searches ``tasks`` name (:data:`Task`), in order, until ``stop`` says
    so: over the ``workers`` where they can be started, each search cut in
    parts of ``step`` worlds (:mod:`.review_work`: the same worlds, so the
    result is the one of a single process), else one after the other here."""
    if not workers.start():
        for task in tasks:
            if stop():
                return
            start = time.process_time()
            searched = _search(rules, task[0], *seen[task[0]], *task[1:])
            now = time.process_time()
            timed(Spent(phase, task[0], True, now - start, os.getpid(), now))
            yield searched
        return
    for task, (cands, values) in zip(tasks, workers.searches(rules, seen, tasks, step, decided, stop, phase,
                                                             timed)):
        n, before = task[0], task[3]
        if before is not None:
            values = [old + new for old, new in zip(before, values)]
        yield _judged(rules, *seen[n], cands, values), values


def _review(rules: Game, seen: list[tuple[Any, Decision, tuple]], seat: int, source: bytes, kept: Path | None,
            worlds: int, jobs: int, progress: Callable[[int, int], None],
            stop: Callable[[], bool], seed: str = "review", timed: Callable[[Spent], None] = lambda spent: None
            ) -> tuple[list[Reviewed], int]:
    key = hashlib.sha256(f"{VERSION}:{worlds}:{seat}:{seed}:".encode() + source).hexdigest()
    done: list[Reviewed] = []
    picks: list[int] | None = None   # the searches again, once every decision is reviewed: the decisions
                                     # that look costliest, then those in doubt after them, round by round
    firmed = 0                       # how many of them are done
    values: dict[int, list[list[float]]] = {}   # the values world by world of those searched again
    rounds = 0                       # the rounds of decisions in doubt among the picks
    if kept is not None:
        try:
            data = json.loads(kept.read_text(encoding="utf-8"))
            if data.get("key") == key:
                done = [Reviewed(**r) for r in data["decisions"]][:len(seen)]
                if data.get("firm") is not None and len(done) == len(seen):
                    picks = [int(n) for n in data["firm"]]
                    firmed, rounds = int(data["firmed"]), int(data["rounds"])
                    values = {int(n): v for n, v in data["values"].items()}
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            done, picks, firmed, values, rounds = [], None, 0, {}, 0   # none kept, or not this review's: again

    def keep() -> None:
        if kept is not None:
            kept.write_text(json.dumps({"key": key, "decisions": [asdict(r) for r in done], "firm": picks,
                                        "firmed": firmed, "values": values, "rounds": rounds}), encoding="utf-8")

    def total() -> int:
        return len(seen) + (min(FIRM, len(seen)) if picks is None else len(picks))   # (at most, until chosen)

    progress(len(done) + firmed, total())
    workers = Workers(jobs)
    try:
        first = first_worlds(rules.id, len(seen), worlds)
        tasks: list[Task] = [(n, first, seed, None, 0, first * DECISIVE) for n in range(len(done), len(seen))]
        for reviewed, _values in _reviewed(rules, seen, tasks, workers, stop, 0, first, timed):
            done.append(reviewed)
            keep()
            progress(len(done), total())
        if len(done) < len(seen):
            return done, len(seen)
        if picks is None:
            picks = costliest(done, FIRM)
            keep()
        while True:
            # the longest searches of a review: cut in parts over the workers too
            tasks = [(n, worlds * FIRM_TIMES, f"{seed}:firm", values.get(n), picks[:k].count(n), 0)
                     for k, n in enumerate(picks) if k >= firmed]
            for task, (firmer, more) in zip(tasks, _reviewed(rules, seen, tasks, workers, stop, 1 + rounds, worlds,
                                                             timed)):
                done[task[0]] = replace(firmer, firm=True)
                values[task[0]] = more
                firmed += 1
                keep()
                progress(len(done) + firmed, total())
            if firmed < len(picks) or rounds == AGAIN:
                return done, len(seen)
            doubt = in_doubt(done)
            if not doubt or not affordable(rules.id, done, len(doubt), worlds):
                return done, len(seen)
            picks += doubt
            rounds += 1
            keep()
    finally:
        workers.close()


def affordable(game: str, done: list[Reviewed], doubt: int, worlds: int = WORLDS) -> bool:
    """Whether a round of ``doubt`` decisions searched again keeps the worlds
    the review stands on (each decision's, its firmer search's where it was
    searched again) within :data:`SPEND` times those of a first pass of
    :data:`GAME` decisions of the ``game`` (the guilds: no bound): a long
    game, or one with many decisions searched again, ends where a game of
    ``GAME`` decisions would."""
    spent = sum(r.worlds for r in done) + doubt * FIRM_TIMES * worlds
    return game not in GAME or spent <= SPEND * GAME[game] * worlds


def in_doubt(done: list[Reviewed]) -> list[int]:
    """The decisions searched again whose part in naming the costliest is in
    doubt, to be searched with more worlds: the costliest one when its gap is
    within :data:`DOUBT` standard errors of the line where it counts as a cost
    (:data:`SURE` of them), and any other that may cost a point and be the
    costliest, with it: its gap within :data:`DOUBT` standard errors of the
    costliest's and beyond ``SURE - DOUBT`` of its own; when none counts, those
    within :data:`DOUBT` of the line.  Empty: the order is settled."""
    firm = [i for i, r in enumerate(done) if r.firm and r.gap >= MATTERS]
    costly = [i for i in firm if done[i].cost >= MATTERS]
    lead = min(costly, key=lambda i: (-done[i].cost, i), default=None)

    def at_the_line(r: Reviewed) -> bool:
        return abs(r.gap - SURE * r.margin) < DOUBT * r.margin

    if lead is None:
        return [i for i in firm if at_the_line(done[i])]
    first = done[lead]
    doubt = {lead} if at_the_line(first) else set()
    for i in firm:
        r = done[i]
        if i != lead and r.gap > (SURE - DOUBT) * r.margin and \
                first.gap - r.gap < DOUBT * (first.margin ** 2 + r.margin ** 2) ** 0.5:
            doubt |= {lead, i}
    return sorted(doubt)


def costliest(done: list[Reviewed], n: int) -> list[int]:
    """The places in ``done`` of at most ``n`` decisions that may be the
    costliest, those searched again: the choice may cost a point of chance
    there and as much as any decision surely costs (its gap and :data:`SURE`
    standard errors reach :data:`MATTERS` and every gap less as many errors),
    the most it may cost first (the earlier on a tie).  A cost that comes from
    a world in eight looks small and unsure on the first pass: it is searched
    again before a sure small one."""
    floor = max([MATTERS] + [r.gap - SURE * r.margin for r in done])
    return sorted((i for i, r in enumerate(done) if r.at_most >= floor), key=lambda i: (-done[i].at_most, i))[:n]


def named(done: list[Reviewed]) -> tuple[list[int], int]:
    """The places in ``done`` of the decisions a review names as costly, in the
    order it names them, and how many come first as the costliest: those whose
    cost is within :data:`SURE` standard errors (of the difference) of the
    widest, in the order they were made -- which of them cost the most is
    within the search's error, and two searches would tell it each their own
    way -- then the others, the costliest first."""
    costly = sorted((i for i, r in enumerate(done) if r.cost >= MATTERS), key=lambda i: (-done[i].cost, i))
    if not costly:
        return [], 0
    top = done[costly[0]]
    tied = sorted(i for i in costly
                  if top.cost - done[i].cost <= SURE * (top.margin ** 2 + done[i].margin ** 2) ** 0.5)
    return tied + [i for i in costly if i not in tied], len(tied)


def person_seat(text: str) -> int:
    """The seat a record's ``seats:`` line gives to a person (the first), else red."""
    rules = get(game_of_record(text))
    seats = rules.parse_record(text).seats or {}
    return next((s for s, who in sorted(seats.items()) if who == "person"), 0)


COSTLY = 5        # the decisions a review names
BARS = "▁▂▃▄▅▆▇█"


def command(path_name: str, seat_name: str | None, worlds: int | None = None, every_card: bool = False) -> int:
    """``ankh review FILE [--seat COLOUR] [--every-card]``: the review, printed;
    a progress line on the terminal while it works; Ctrl+C stops it (run again
    to go on).  A local game's record, or a networked game's save folder (its
    seat's view: the secrets there say what the seat saw; with ``every_card``,
    every card as the game's audit disclosed them)."""
    import io
    import sys
    path = Path(path_name)
    file = journal.save_file(path)
    try:
        data = file.read_bytes()
    except OSError as e:
        print(_("ankh: cannot read {path}: {why}").format(path=path, why=e.strerror), file=sys.stderr)
        return 2
    try:   # a networked game's journal or transcript (as ankh replay tells them), or no text
        text = "" if journal.kind_of(io.BytesIO(data)) is not None else data.decode("utf-8")
    except UnicodeDecodeError:
        text = ""
    try:
        if text:
            rules = get(game_of_record(text))
            players = rules.parse_record(text).players
            seat = person_seat(text) if seat_name is None else COLOURS.index(seat_name)
            if not 0 <= seat < players:
                raise ValueError(seat_name)
            if every_card:
                print(_("ankh: {path}: a review with every card known is of a networked game's save, after "
                        "its audit (a local game's review is from the seat's knowledge)").format(path=path),
                      file=sys.stderr)
                return 2
        elif path.is_dir() and any(path.glob("seat*.secrets")):
            seat = seat_of_save(path, None if seat_name is None else COLOURS.index(seat_name))
        else:
            print(_("ankh: {path}: a review reads a local game's record, or a networked game's save folder "
                    "(the seat's secrets are in it)").format(path=path), file=sys.stderr)
            return 2
    except (RecordError, RulesError, SetupError, UnknownGame) as e:
        print(f"ankh: {path}: {e}", file=sys.stderr)
        return 1
    except ValueError:
        print(_("ankh: no seat {seat} in that game").format(seat=seat_name), file=sys.stderr)
        return 2
    tty = sys.stderr.isatty()

    label = _("reviewing")

    def progress(done: int, total: int) -> None:
        if tty and total:
            filled = done * 30 // total
            print(f"\r{label} [{'█' * filled}{'·' * (30 - filled)}] {done}/{total}", end="",
                  file=sys.stderr, flush=True)

    kept = kept_beside(file, seat, every_card)
    worlds = max(1, worlds or WORLDS)
    try:
        if text:
            done, total = review(text, seat, kept if kept.parent.exists() else None, worlds=worlds, jobs=cores(),
                                 progress=progress)
        else:
            done, total = review_save(path, seat, kept, every_card=every_card, worlds=worlds, jobs=cores(),
                                      progress=progress)
    except KeyboardInterrupt:
        print("\n" + _("Stopped; what was reviewed is kept in {path}: run the same command to go on.").format(
            path=kept), file=sys.stderr)
        return 130
    except (ProtocolError, ValueError) as e:   # a save that does not follow (damaged, doctored), no audit: said
        print(f"ankh: {path}: {e}", file=sys.stderr)
        return 1
    if tty:
        print(file=sys.stderr)
    for line in summary(done, total, seat, every_card):
        print(line)
    return 0


def summary(done: list[Reviewed], total: int, seat: int, every_card: bool = False) -> list[str]:
    """The review in lines, as ``ankh review`` prints it and the end screen
    shows it: each at most :data:`WIDTH` columns (an 80-column terminal, the
    screen's margins), the chance drawn one mark per decision in rows; its
    first line says whose knowledge it used (the seat's, or every card) and how
    many worlds were searched (:func:`searched`); the seat is named as on the
    other screens, its letter and colour ("R red", "R rouge"), so the line
    begins with a capital."""
    who = f"{seat_letter(seat)} {colour(seat)}"
    if every_card:
        title = ngettext("{who}'s {n} decision, reviewed by the hard bot with every card known "
                         "(after the audit; {how})",
                         "{who}'s {n} decisions, reviewed by the hard bot with every card known "
                         "(after the audit; {how})", total)
    else:
        title = ngettext("{who}'s {n} decision, reviewed by the hard bot from {who}'s knowledge at the time "
                         "({how})",
                         "{who}'s {n} decisions, reviewed by the hard bot from {who}'s knowledge at the time "
                         "({how})", total)
    lines = _fit(title.format(who=who, n=total, how=searched(done)))
    if not done:
        return lines
    marks = "".join(BARS[min(len(BARS) - 1, int(r.chosen_chance * len(BARS)))] for r in done)
    lines += _fit(_("Your chance to win after each decision, from {first} % to {last} %:").format(
        first=round(100 * done[0].chosen_chance), last=round(100 * done[-1].chosen_chance)))
    row = WIDTH - 2
    lines += ["  " + marks[i:i + row] for i in range(0, len(marks), row)]
    order, tied = named(done)
    costly = [done[i] for i in order[:COSTLY]]
    if not costly:
        lines += _fit(_("No decision surely cost you a point of chance: the hard bot would have chosen as well, "
                        "or the difference is within its search's error."))
        return lines
    lines += _fit(_("The decisions that cost you the most (the first {k} about as much as each other, within the "
                    "search's error, in the order you made them):").format(k=min(tied, COSTLY)) if tied > 1
                  else _("The decisions that cost you the most:"))
    for r in costly:
        lines += _fit(_("turn {turn}: you chose {chosen} ({was} %); better: {best} ({could} %)").format(
            turn=r.turn, chosen=r.chosen, was=round(100 * r.chosen_chance), best=r.best,
            could=round(100 * r.best_chance)), "  ", "      ")
    return lines


def searched(done: list[Reviewed]) -> str:
    """How many worlds the review searched, in words: those of a decision (as
    most had them: more where the game ended, fewer in a long game), and how
    many decisions were searched again, with how many worlds."""
    had = [r.worlds for r in done if not r.firm]
    first = min(had, key=lambda k: (-had.count(k), k), default=0)
    parts = [ngettext("{k} world a decision", "{k} worlds a decision", first).format(k=first)] if first else []
    firm = [r.worlds for r in done if r.firm]
    if not firm:
        parts.append(_("none searched again"))
    elif min(firm) == max(firm):
        parts.append(ngettext("the costliest searched again with {k} worlds",
                              "the {m} costliest searched again with {k} worlds", len(firm)).format(
            m=len(firm), k=firm[0]))
    else:
        parts.append(ngettext("the costliest searched again with {lo} to {hi} worlds",
                              "the {m} costliest searched again with {lo} to {hi} worlds", len(firm)).format(
            m=len(firm), lo=min(firm), hi=max(firm)))
    return ", ".join(parts)


WIDTH = 78        # the review's lines: an 80-column terminal, less the screen's margins


# A space the lines never break at: before a percent sign and French punctuation
# ("53 %" never ends a line in "53" and starts the next in "%)"; nor "; mieux").
_GLUED = re.compile(r" (?=[%;:!?])")


def _fit(line: str, first: str = "", then: str = "  ") -> list[str]:
    """``line`` in lines of at most :data:`WIDTH` columns, the lines after the
    first indented under it, never broken before a ``%`` or ``;:!?``."""
    lines = textwrap.wrap(_GLUED.sub("\u00a0", line), WIDTH, initial_indent=first, subsequent_indent=then,
                          break_long_words=False, break_on_hyphens=False)
    return [line.replace("\u00a0", " ") for line in lines] or [first]


class ReviewScreen(Localised, Screen):
    """The review of a game just played, from its end screen (``r``): a local
    game's record, or a networked seat's save followed again from the seat's
    view (``a``: with every card known, once the audit disclosed them); the
    seat's decisions searched one after the other in a thread, a bar for the
    progress, then what ``ankh review`` prints.  Leaving stops it; what was
    reviewed is kept beside the game's save, so coming back goes on from there."""

    BINDINGS = [Binding("escape,b,r,a", "back", NP_("key", "Back"))]
    DEFAULT_CSS = """
    ReviewScreen VerticalScroll { height: 1fr; padding: 0 1; }
    ReviewScreen ProgressBar { padding: 0 1; }
    """

    def __init__(self, source: ReviewSource, seat: int, kept: Path | None = None, worlds: int = WORLDS,
                 every_card: bool = False) -> None:
        super().__init__()
        self.text, self.seat, self.kept, self.worlds = source.text, seat, kept, worlds
        self.folder = source.folder   # a networked game: the seat's save folder, reviewed from its view
        self.every_card = every_card  # (a networked game's) with every card known, as its audit disclosed them
        self.stopping = False
        self.done: list[Reviewed] | None = None

    def compose(self) -> ComposeResult:
        yield ProgressBar(show_eta=False, id="review-progress")
        with VerticalScroll():
            yield Static(_("The hard bot goes over your decisions with every card known…") if self.every_card
                         else _("The hard bot goes over your decisions…"), id="review-text")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.run_worker(self._review, thread=True, exclusive=True)

    def _review(self) -> None:
        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self.query_one(ProgressBar).update, total=total, progress=done)
        try:
            if self.text is not None:
                done, total = review(self.text, self.seat, self.kept, worlds=self.worlds, jobs=cores(),
                                     progress=progress, stop=lambda: self.stopping)
            else:
                assert self.folder is not None
                done, total = review_save(self.folder, self.seat, self.kept, every_card=self.every_card,
                                          worlds=self.worlds, jobs=cores(), progress=progress,
                                          stop=lambda: self.stopping)
        except (OSError, ValueError, ProtocolError) as e:   # a save that cannot be followed again: said
            self.app.call_from_thread(self.query_one("#review-text", Static).update,
                                      _("This game cannot be reviewed: {why}").format(why=e))
            return
        if not self.stopping:
            self.app.call_from_thread(self._show, done, total)

    def _show(self, done: list[Reviewed], total: int) -> None:
        self.done = done
        self.query_one("#review-text", Static).update(
            Text("\n".join(summary(done, total, self.seat, self.every_card))))

    def action_back(self) -> None:
        self.stopping = True
        self.app.pop_screen()


class ShowsReview:
    """An end screen's ``r``: the review of the seat's moves (a local game's
    record, or a networked seat's save from the seat's view; a spectator's
    none), and its ``a``: a networked seat's review with every card known,
    offered once the game's audit disclosed them."""

    session: Any = None

    def _review_source(self) -> ReviewSource | None:
        return self.session.review_source() if self.session is not None else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "review":
            return self._review_source() is not None
        if action == "review_every_card":
            source = self._review_source()
            return source is not None and source.every_card
        return True

    def action_review(self, every_card: bool = False) -> None:
        source = self._review_source()
        if source is None or (every_card and not source.every_card):
            return
        if source.text is not None:
            seat = person_seat(source.text)
            path = self.session.path
            kept = kept_beside(path, seat) if path is not None else None
        else:
            assert source.folder is not None and source.seat is not None
            seat = source.seat
            kept = kept_beside(journal.save_file(source.folder), seat, every_card)
        self.app.push_screen(ReviewScreen(source, seat, kept, every_card=every_card))  # type: ignore[attr-defined]

    def action_review_every_card(self) -> None:
        self.action_review(every_card=True)
