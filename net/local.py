"""The local table: one process knows every card and fulfils the rules
engine's requests from a seeded generator (or from outcomes fixed by hand).

This is the table for games against bots, for tests and for replaying
records.  Networked games use the fairness protocol instead, where no
machine knows every card.
"""
from __future__ import annotations

import random
from dataclasses import replace

from ankh.core.scoring import score
from ankh.core.setup import new_game
from ankh.core.model import (
    COLOURS, DealCard, Decision, Event, IllegalAction, PassCard, PickRandom, Reveal, RollDie,
    RulesError, ShowCards, deck_lists, personality_list,
)
from ankh.core.notation import format_option, normalise, parse_option
from ankh.core.model import EVENTS as _EVENTS
from ankh.core.record import (
    Fixed, Line, Position, Record, RecordError, format_record, parse_record,
)
from ankh.core.state import State

EVENT_IDS = tuple(e["id"] for e in _EVENTS)


class SetupError(ValueError):
    """The fixed outcomes cannot all hold (an unknown or repeated card...)."""


class LocalTable:
    def __init__(self, players: int, seed: int | None = None, fixed: Fixed | None = None,
                 position: Position | None = None):
        self.players = players
        self.rng = random.Random(seed)
        self.fixed = fixed or Fixed()
        self.position = position or Position()
        self.rolls = list(self.fixed.rolls)
        self.cards = self._player_deck()
        self.personalities = self._personalities()
        self.events = self._events()

    # --- building the true orders ---------------------------------------------------------

    def _player_deck(self) -> list[str]:
        green, brown = deck_lists(self.players)
        top: list[str] = []
        for seat in range(self.players):
            hand = self.fixed.hands.get(seat)
            if hand is None:
                top.append(None)  # placeholder: filled from the shuffled deck
                continue
            top.append(list(hand))
        below = self.position.cards_from_draw() + list(self.fixed.deck)
        wanted = [c for h in top if h for c in h] + below
        for c in wanted:
            if c not in green and c not in brown:
                raise SetupError(f"{c!r} is not a card of a {self.players}-player game")
        if len(set(wanted)) != len(wanted):
            raise SetupError("a card is fixed twice")
        g = [c for c in green if c not in wanted]
        b = [c for c in brown if c not in wanted]
        self.rng.shuffle(g)
        self.rng.shuffle(b)
        rest = g + b  # green cards on top of brown (rulebook setup)
        order: list[str] = []
        for h in top:
            if h is None:
                if len(rest) < 5:
                    raise SetupError("more cards are fixed than the game has")
                order += rest[:5]
                rest = rest[5:]
            else:
                order += h
        return order + below + rest

    def _personalities(self) -> list[str]:
        ids = list(personality_list(self.players))
        fixed = self.fixed.personalities
        for seat, pid in fixed.items():
            if pid not in ids:
                raise SetupError(f"{pid!r} is not a personality of a {self.players}-player game")
        if len(set(fixed.values())) != len(fixed):
            raise SetupError("a personality is fixed twice")
        rest = [p for p in ids if p not in fixed.values()]
        self.rng.shuffle(rest)
        out = []
        for seat in range(self.players):
            out.append(fixed[seat] if seat in fixed else rest.pop())
        return out + rest

    def _events(self) -> list[str]:
        fixed = list(self.position.events_drawn) + list(self.fixed.events)
        if len(set(fixed)) != len(fixed):
            raise SetupError("a random event is fixed twice")
        for e in fixed:
            if e not in EVENT_IDS:
                raise SetupError(f"{e!r} is not a random event")
        rest = [e for e in EVENT_IDS if e not in fixed]
        self.rng.shuffle(rest)
        return fixed + rest

    # --- answering ---------------------------------------------------------------------------

    def roll(self) -> int:
        if self.rolls:
            return self.rolls.pop(0)
        return self.rng.randint(1, 12)

    def answer(self, req):
        """The omniscient answer to a request of the rules engine."""
        if isinstance(req, RollDie):
            return self.roll()
        if isinstance(req, (DealCard, Reveal, ShowCards)):
            d = self._deck(req.deck)
            return tuple(d[h] for h in req.handles)
        if isinstance(req, PassCard):
            return self.cards[req.handle]
        if isinstance(req, PickRandom):
            if req.purpose == "first player" and self.fixed.first is not None:
                return (self.fixed.first,)
            return tuple(self.rng.sample(list(req.items), req.k))
        raise TypeError(f"unknown request {req!r}")

    def _deck(self, name: str) -> list[str]:
        return {"player": self.cards, "personality": self.personalities, "event": self.events}[name]

    def fulfil(self, state: State):
        """Answer ``state``'s pending request; returns the events."""
        return state.fulfil(self.answer(state.pending))


# --- records: replaying, and recording a game as it is played -----------------------------


def chance_text(state: State, req, answer, table: LocalTable | None = None) -> str | None:
    """The record line (without ``* ``) for a chance outcome worth writing down:
    die rolls and random picks.  Deals and reveals follow from the deck orders."""
    if isinstance(req, RollDie):
        return f"roll {answer}"
    if isinstance(req, PickRandom):
        return "pick " + " ".join(_pick_word(state, req, x, table) for x in answer)
    return None


def _pick_word(state: State, req: PickRandom, item, table: LocalTable | None = None) -> str:
    """An item of a random pick by name: a colour, a personality (Zorgo, Mrs
    Cake: named by the table, which knows the unused ones), or a card."""
    if req.purpose == "first player":
        return COLOURS[item]
    if req.purpose in ("zorgo", "mrs-cake"):
        return state.pers[item] or (table.personalities[item] if table else f"#{item}")
    return state.card[item] or f"#{item}"


def chance_from_text(state: State, req, line: Line, table: LocalTable | None = None):
    words = line.text.split()
    if isinstance(req, RollDie):
        if len(words) != 2 or words[0] != "roll" or not words[1].isdigit():
            raise RecordError(line.number, f"a die roll is due ({req.purpose}); expected '* roll N'")
        return int(words[1])
    if isinstance(req, PickRandom):
        if not words or words[0] != "pick":
            raise RecordError(line.number, f"a random pick is due ({req.purpose}); expected '* pick ...'")
        by_word = {f"#{x}": x for x in req.items}
        by_word.update({_pick_word(state, req, x, table): x for x in req.items})
        try:
            return tuple(by_word[w] for w in words[1:])
        except KeyError as e:
            raise RecordError(line.number, f"{e.args[0]!r} cannot be picked here") from None
    raise RecordError(line.number, f"no chance outcome is due here (waiting for {type(req).__name__})")


class LocalGame:
    """A game at one table: the state, the table, the seats' bots, and the
    record written as the game goes (``record``).  Seats without a bot are
    people: :meth:`advance` stops when one of them must decide."""

    def __init__(self, record: Record, bots: dict[int, object] | None = None):
        self.bots = dict(bots or {})
        self.record = replace(record, lines=[])
        self.state = new_game(record.players, record.position)
        self.table = LocalTable(record.players, record.seed, record.fixed, record.position)
        self.log: list[Event] = []
        self.running_scores: list[tuple[int, int, tuple[int, ...]]] = []  # (turn, seat, scores)
        self._barrier = 0         # lines before this index can no longer be taken back
        self._choices: list[int] = []  # indices of people's real choices (more than one option)
        self.informed = None      # what last put the barrier: a request, or the seat of a bot that chose
        self._replay(record.lines)

    @classmethod
    def new(cls, players: int, seed: int, bots: dict[int, object] | None = None) -> "LocalGame":
        return cls(Record(players=players, seed=seed), bots)

    @classmethod
    def from_text(cls, text: str, bots: dict[int, object] | None = None) -> "LocalGame":
        return cls(parse_record(text), bots)

    # --- replay -----------------------------------------------------------------------------

    def _replay(self, lines: list[Line]) -> None:
        s = self.state
        i = 0
        while s.outcome is None:
            d = s.pending
            if isinstance(d, Decision):
                if len(d.options) == 1:
                    # Forced decisions need no line (one is accepted if written).
                    only = d.options[0]
                    if (i < len(lines) and lines[i].who == COLOURS[d.seat]
                            and normalise(lines[i].text) == format_option(s, only)):
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
                    raise RecordError(line.number, f"it is {COLOURS[d.seat]}'s decision "
                                                   f"({d.prompt}), not {line.who}'s")
                try:
                    opt = parse_option(s, line.text)
                except RulesError as e:
                    raise RecordError(line.number, str(e)) from None
                self._apply_choice(opt)
                i += 1
            else:
                answer = self.table.answer(d)
                if (i < len(lines) and lines[i].who == "*"
                        and isinstance(d, (RollDie, PickRandom))):
                    answer = chance_from_text(s, d, lines[i], self.table)
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
        text = format_option(s, opt)
        self.log += s.choose(opt)
        self._note_turn()
        if len(d.options) > 1:
            self.record.lines.append(Line(0, COLOURS[d.seat], text))
        if d.seat in self.bots:
            if len(d.options) > 1:  # a forced move (a pass with nothing to play) tells nobody anything
                self._barrier = len(self.record.lines)
                self.informed = d.seat
        elif len(d.options) > 1:
            self._choices.append(len(self.record.lines) - 1)

    def _apply_answer(self, answer) -> None:
        s = self.state
        req = s.pending
        line = chance_text(s, req, answer, self.table)
        self.log += s.fulfil(answer)
        self._note_turn()
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
                                        tuple(score(s, q) for q in range(s.players))))

    def _informs(self, req) -> bool:
        """Did this request bring new information to the people at the table?
        Revealing a person's own card does not, nor dealing or showing cards
        to a bot; draws, rolls, picks do."""
        if isinstance(req, (DealCard, ShowCards)) and req.seat in self.bots:
            return False
        if isinstance(req, Reveal) and req.deck == "player":
            people = [p for p in range(self.state.players) if p not in self.bots]
            return not all(any(self.state.sees(p, h) for p in people) for h in req.handles)
        return True

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
            self._apply_answer(self.table.answer(d))
            return True
        bot = self.bots.get(d.seat)
        if bot is not None:
            self._apply_choice(bot.choose(s, d))
            return True
        if len(d.options) == 1:
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
        self.choose(parse_option(self.state, text))

    # --- undo -------------------------------------------------------------------------------

    def can_undo(self) -> bool:
        return any(i >= self._barrier for i in self._choices)

    def undo(self) -> None:
        """Take back the last real choice of a person, if no new information
        (a card drawn or revealed, a die rolled, a bot's move) came after it."""
        if not self.can_undo():
            raise IllegalAction("nothing to take back since new information appeared")
        cut = self._choices[-1]
        fresh = LocalGame(replace(self.record, lines=self.record.lines[:cut]), self.bots)
        fresh._barrier = min(self._barrier, len(fresh.record.lines))
        self.__dict__.update(fresh.__dict__)

    def save_text(self) -> str:
        """The record so far, with who sits where (bots by their ``name``)."""
        seats = {p: f"bot:{self.bots[p].name}" if p in self.bots else "person"
                 for p in range(self.state.players)}
        return format_record(replace(self.record, seats=seats))
