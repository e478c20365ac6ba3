"""The local table: one process knows every card and fulfils a game's
requests from a seeded generator (or from outcomes fixed by hand).

This is the table for games against bots, for tests and for replaying
records, of any game (it speaks to the game through :class:`Game`).
Networked games use the fairness protocol instead, where no machine knows
every card.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable

from ankh.core.game import (
    COLOURS, DealCard, Decision, Event, Game, IllegalAction, PassCard, PickRandom, Reveal, RollDie,
    Line, RecordError, RulesError, SetupError, ShowCards, StealRandom, forced, game_of_record, get,
)

__all__ = ["LocalGame", "LocalTable", "SetupError"]


class LocalTable:
    """Answers a game's requests from a seeded generator, honouring what a
    record fixes (the game says how: :meth:`Game.deck_orders`)."""

    def __init__(self, players: int, seed: int | None = None, fixed=None, position=None, *,
                 game: Game | None = None, record=None):
        self.game = game = game or get()
        if record is None:
            record = game.Record(players=players, seed=seed)
            if fixed is not None:
                record.fixed = fixed
            if position is not None:
                record.position = position
        self.record = record
        self.players = record.players
        self.rng = random.Random(record.seed)
        self.rolls = game.fixed_rolls(record)
        self.orders: dict[str, list] = game.deck_orders(record, self.rng)
        self.moved: dict[tuple[str, int], Any] = {}  # cards that took fresh handles in a steal: (deck, handle) -> id

    def deck(self, name: str) -> list:
        """The true order of a hidden deck (top first)."""
        return self.orders[name]

    def card(self, deck: str, handle: int) -> Any:
        """The card a handle of ``deck`` stands for: its position in the deck, or a fresh handle of a steal."""
        moved = self.moved.get((deck, handle))
        return moved if moved is not None else self.orders[deck][handle]

    def steal(self, req: StealRandom) -> tuple:
        if not req.hand:
            h = self.rng.choice(req.handles)
            return h, self.card(req.deck, h)
        cards = [self.card(req.deck, h) for h in req.hand]
        if len(req.handles) != len(cards):
            raise ValueError(f"a steal names {len(cards)} cards by {len(req.handles)} handles")
        self.rng.shuffle(cards)  # the victim's new order
        for h, c in zip(req.handles, cards):
            self.moved[(req.deck, h)] = c
        j = self.rng.randrange(len(cards))
        return req.handles[j], cards[j]

    # --- answering ---------------------------------------------------------------------------

    def roll(self, req: RollDie):
        if self.rolls:
            return self.rolls.pop(0)
        if req.dice == 1:
            return self.rng.randint(1, req.sides)
        return tuple(self.rng.randint(1, req.sides) for _ in range(req.dice))

    def answer(self, req, state=None):
        """The omniscient answer to a request of the rules engine (``state``,
        the engine asking, for a game that answers some requests itself)."""
        if state is not None:
            own = self.game.table_answer(state, req, self.rng, self.orders)
            if own is not NotImplemented:
                return own
        if isinstance(req, RollDie):
            return self.roll(req)
        if isinstance(req, (DealCard, Reveal, ShowCards)):
            return tuple(self.card(req.deck, h) for h in req.handles)
        if isinstance(req, PassCard):
            return self.card(req.deck, req.handle)
        if isinstance(req, PickRandom):
            fixed = self.game.fixed_pick(self.record, req)
            return fixed if fixed is not None else tuple(self.rng.sample(list(req.items), req.k))
        if isinstance(req, StealRandom):
            return self.steal(req)
        raise TypeError(f"unknown request {req!r}")

    def fulfil(self, state):
        """Answer ``state``'s pending request; returns the events."""
        return state.fulfil(self.answer(state.pending, state))


class LocalGame:
    """A game at one table: the state, the table, the seats' bots, and the
    record written as the game goes (``record``).  Seats without a bot are
    people: :meth:`advance` stops when one of them must decide.  The game is
    the record's (``game``: the default game when None)."""

    def __init__(self, record: Any, bots: dict[int, object] | None = None, game: Game | None = None,
                 watch: Callable[[Any, list[Event]], None] | None = None):
        self.game = game = game or get()
        #: Called with the state and the events after each step (a tally of the game's figures).
        self.watch = watch
        self.bots = dict(bots or {})
        self.record = replace(record, lines=[])
        self.state = game.new_state(record.players, record.position)
        self.table = LocalTable(record.players, game=game, record=record)
        self.log: list[Event] = []
        self.running_scores: list[tuple[int, int, tuple[int, ...]]] = []  # (turn, seat, scores)
        self._barrier = 0         # lines before this index can no longer be taken back
        self._choices: list[int] = []  # indices of people's real choices (more than one option)
        self.informed = None      # what last put the barrier: a request, or the seat of a bot that chose
        self.stolen: dict[int, tuple[int, int, Any]] = {}  # a steal's handle -> (victim, thief, card)
        self._replay(record.lines)

    @classmethod
    def new(cls, players: int, seed: int, bots: dict[int, object] | None = None,
            game: Game | None = None) -> "LocalGame":
        game = game or get()
        return cls(game.Record(players=players, seed=seed), bots, game)

    @classmethod
    def from_text(cls, text: str, bots: dict[int, object] | None = None,
                  watch: Callable[[Any, list[Event]], None] | None = None) -> "LocalGame":
        """A record of any game (its ``game:`` line says which)."""
        game = get(game_of_record(text))
        return cls(game.parse_record(text), bots, game, watch)

    # --- replay -----------------------------------------------------------------------------

    def _replay(self, lines: list[Line]) -> None:
        s = self.state
        g = self.game
        i = 0
        while s.outcome is None:
            d = s.pending
            if isinstance(d, Decision):
                if forced(d):
                    # Forced decisions need no line (one is accepted if written).
                    only = d.options[0]
                    if (i < len(lines) and lines[i].who == COLOURS[d.seat]
                            and g.normalise(lines[i].text) == g.format_option(s, only)):
                        i += 1
                    self._apply_choice(only)
                    continue
                if i >= len(lines):
                    break
                line = lines[i]
                if line.who == "*":
                    raise RecordError(line.number, f"a decision by {COLOURS[d.seat]} is due "
                                                   f"({d.prompt}), not a chance outcome")
                if line.who != COLOURS[d.seat]:
                    old = g.unwritten_move(s, d, line)
                    if old is not None:
                        self._apply_choice(old)
                        continue
                    raise RecordError(line.number, f"it is {COLOURS[d.seat]}'s decision "
                                                   f"({d.prompt}), not {line.who}'s")
                try:
                    opt = g.parse_option(s, line.text)
                except RulesError as e:
                    raise RecordError(line.number, str(e)) from None
                self._apply_choice(opt)
                i += 1
            else:
                answer = self.table.answer(d, s)
                if (i < len(lines) and lines[i].who == "*"
                        and g.chance_text(s, d, answer, self.table.orders) is not None):
                    answer = g.chance_from_text(s, d, lines[i], self.table.orders)
                    i += 1
                try:
                    self._apply_answer(answer)
                except RulesError as e:
                    n = lines[i - 1].number if i else 0
                    raise RecordError(n, str(e)) from None
        if i < len(lines):
            raise RecordError(lines[i].number, "the game is already over" if s.outcome
                              else "this line has nothing to apply to")

    def _apply_choice(self, opt: tuple) -> None:
        s = self.state
        d = s.pending
        text = self.game.format_option(s, opt)
        events = s.choose(opt)
        self.log += events
        self._note_turn()
        if self.watch is not None:
            self.watch(s, events)
        if not forced(d):
            self.record.lines.append(Line(0, COLOURS[d.seat], text))
        if d.seat in self.bots:
            if not forced(d):  # a forced move (a pass with nothing to play) tells nobody anything
                self._barrier = len(self.record.lines)
                self.informed = d.seat
        elif not forced(d):
            self._choices.append(len(self.record.lines) - 1)

    def _apply_answer(self, answer) -> None:
        s = self.state
        req = s.pending
        line = self.game.chance_text(s, req, answer, self.table.orders)
        if isinstance(req, StealRandom):
            self.stolen[answer[0]] = (req.victim, req.thief, answer[1])
        events = s.fulfil(answer)
        self.log += events
        self._note_turn()
        if self.watch is not None:
            self.watch(s, events)
        if line is not None:
            self.record.lines.append(Line(0, "*", line))
        if self._informs(req):
            self._barrier = len(self.record.lines)
            self.informed = req

    def _note_turn(self) -> None:
        """Everybody's score as each turn begins (and once more when the game ends)."""
        s = self.state
        last = self.running_scores[-1][0] if self.running_scores else 0
        if s.turn != last or (s.outcome is not None and self.running_scores
                               and self.running_scores[-1][1] is not None):
            self.running_scores.append((s.turn, None if s.outcome is not None else s.current,
                                        self.game.scores(s)))

    def _informs(self, req) -> bool:
        """Did this request bring new information to the people at the table?
        Cards dealt or shown to a bot do not; otherwise, as the game says."""
        if isinstance(req, (DealCard, ShowCards)) and req.seat in self.bots:
            return False
        return self.game.informs(self.state, req, self.people)

    # --- playing ----------------------------------------------------------------------------

    @property
    def people(self) -> list[int]:
        return [p for p in range(self.state.players) if p not in self.bots]

    def step(self) -> bool:
        """Do one thing that needs no person: fulfil a request, let a bot decide, or
        answer a person's decision that has a single option.  False when a person
        must decide or the game is over."""
        s = self.state
        if s.outcome is not None:
            return False
        d = s.pending
        if not isinstance(d, Decision):
            self._apply_answer(self.table.answer(d, s))
            return True
        bot = self.bots.get(d.seat)
        if bot is not None:
            self._apply_choice(bot.choose(s, d))
            return True
        if forced(d):
            self._apply_choice(d.options[0])
            return True
        return False

    def advance(self) -> None:
        while self.step():
            pass

    def choose(self, option: tuple) -> None:
        """The pending decision: a person's, or a bot's worked out elsewhere (in
        a worker, on a copy of the state).  The rules check it either way."""
        if not isinstance(self.state.pending, Decision):
            raise IllegalAction("no decision is pending")
        self._apply_choice(option)

    def choose_text(self, text: str) -> None:
        self.choose(self.game.parse_option(self.state, text))

    # --- undo -------------------------------------------------------------------------------

    def can_undo(self) -> bool:
        return any(i >= self._barrier for i in self._choices)

    def undo(self) -> None:
        """Take back the last real choice of a person, if no new information
        (a card drawn or revealed, a die rolled, a bot's move) came after it."""
        if not self.can_undo():
            raise IllegalAction("nothing to take back since new information appeared")
        cut = self._choices[-1]
        fresh = LocalGame(replace(self.record, lines=self.record.lines[:cut]), self.bots, self.game)
        fresh._barrier = min(self._barrier, len(fresh.record.lines))
        self.__dict__.update(fresh.__dict__)

    def save_text(self) -> str:
        """The record so far, with who sits where (bots by their ``name``)."""
        seats = {p: f"bot:{self.bots[p].name}" if p in self.bots else "person"
                 for p in range(self.state.players)}
        return self.game.format_record(replace(self.record, seats=seats))
