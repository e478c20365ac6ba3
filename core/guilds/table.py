"""A table for one machine that knows every card: it answers the engine's
requests from a ``random.Random`` the caller owns (seeded from the record),
honouring the outcomes a record fixes; and :class:`LocalGame`, a game at
such a table with bots and a record written as it goes."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..game import (
    COLOURS, DealCard, Decision, Event, IllegalAction, PickRandom, Reveal, RollDie, RulesError,
    StealRandom,
)
from .board import DEV_IDS, RESOURCES, R_INDEX
from .notation import format_option, normalise, parse_option
from .record import Line, Record, RecordError, format_record, parse_record
from .rules import new_state


class SetupError(ValueError):
    """A record's fixed outcomes cannot all hold."""


class Table:
    """Answers requests with the truth: the development stack's order, dice,
    picks and steals (a steal needs the state, whose victim's hand it reads:
    this table's state sees every card)."""

    def __init__(self, record: Record, rng: Any):
        self.rng = rng
        self.record = record
        self.rolls = list(record.fixed.rolls)
        out = record.position.dev_out() if not record.position.is_empty() else []
        top = list(record.fixed.dev)
        if set(top) & set(out):
            raise SetupError("a development token is fixed twice")
        rest = [c for c in DEV_IDS if c not in out and c not in top]
        rng.shuffle(rest)
        self.dev = out + top + rest

    def answer(self, req, state=None):
        t = type(req)
        if t is RollDie:
            if self.rolls and len(self.rolls[0]) == req.dice:
                dice = self.rolls.pop(0)
                return dice[0] if req.dice == 1 else dice
            if req.dice == 1:
                return self.rng.randint(1, req.sides)
            return tuple(self.rng.randint(1, req.sides) for _ in range(req.dice))
        if t is DealCard or (t is Reveal and req.deck == "dev"):
            return tuple(self.dev[h] for h in req.handles)
        if t is Reveal:
            return tuple(state.rcard[h] for h in req.handles)
        if t is PickRandom:
            if req.purpose == "first player" and self.record.fixed.first is not None:
                return (self.record.fixed.first,)
            return tuple(self.rng.sample(list(req.items), req.k))
        if t is StealRandom:
            return self.steal(req, state)
        raise TypeError(f"unknown request {req!r}")

    def place(self, h: int, cid: str) -> None:
        """A record fixes the token dealt as handle ``h``: move it there."""
        if cid not in self.dev:
            raise SetupError(f"{cid!r} is not a development token")
        i = self.dev.index(cid)
        self.dev[i], self.dev[h] = self.dev[h], self.dev[i]

    def steal(self, req: StealRandom, state) -> tuple[int, int]:
        """A card of the victim's true hand, uniformly: the i-th of the hand
        laid out by kind, under the i-th handle."""
        counts = state.true_hand(req.victim)
        cards = [r for r in range(5) for _ in range(counts[r])]
        i = self.rng.randrange(len(cards))
        return req.handles[i], cards[i]


# --- chance lines ---------------------------------------------------------------------------

def chance_text(state, req, answer) -> str | None:
    t = type(req)
    if t is RollDie:
        return "roll " + ("+".join(map(str, answer)) if req.dice > 1 else str(answer))
    if t is PickRandom:
        return "pick " + " ".join(COLOURS[x] for x in answer)
    if t is StealRandom:
        return f"steal #{answer[0]} {RESOURCES[answer[1]]}"
    if t is DealCard:
        return "deal " + " ".join(answer)
    return None


def chance_from_text(state, req, line: Line):
    words = line.text.split()
    t = type(req)
    try:
        if t is RollDie and len(words) == 2 and words[0] == "roll":
            dice = tuple(int(x) for x in words[1].split("+"))
            if len(dice) != req.dice:
                raise ValueError
            return dice[0] if req.dice == 1 else dice
        if t is PickRandom and len(words) == 2 and words[0] == "pick":
            return (COLOURS.index(words[1]),)
        if t is StealRandom and len(words) == 3 and words[0] == "steal" and words[1][0] == "#":
            return int(words[1][1:]), R_INDEX[words[2]]
        if t is DealCard and len(words) == 1 + len(req.handles) and words[0] == "deal":
            if any(w not in DEV_IDS for w in words[1:]):
                raise ValueError
            return tuple(words[1:])
    except (ValueError, KeyError):
        pass
    want = {RollDie: "'* roll D1+D2' (or '* roll D' for one die)", PickRandom: "'* pick COLOUR'",
            StealRandom: "'* steal #HANDLE RESOURCE'", DealCard: "'* deal TOKEN'"}.get(t, "no chance line")
    raise RecordError(line.number, f"a {type(req).__name__} is due; expected {want}")


class LocalGame:
    """A game at one table: the state, the table, the seats' bots, the log,
    and the record written as the game goes.  Seats without a bot are people:
    :meth:`advance` stops when one of them must decide."""

    def __init__(self, record: Record, bots: dict[int, Any] | None, rng: Any):
        self.bots = dict(bots or {})
        self.record = replace(record, lines=[])
        try:
            self.table = Table(record, rng)
        except SetupError as e:
            raise RecordError(0, str(e)) from None
        self.state = new_state(record.players, record.position)
        self.log: list[Event] = []
        self._replay(record.lines)

    def _replay(self, lines: list[Line]) -> None:
        s = self.state
        i = 0
        while s.outcome is None:
            d = s.pending
            if type(d) is Decision:
                if len(d.options) == 1:
                    only = d.options[0]
                    if (i < len(lines) and lines[i].who == COLOURS[d.seat]
                            and normalise(lines[i].text) == format_option(s, only).lower()):
                        i += 1
                    self._apply_choice(only)
                    continue
                if i >= len(lines):
                    break
                line = lines[i]
                if line.who != COLOURS[d.seat]:
                    who = "a chance outcome" if line.who == "*" else f"{line.who}'s"
                    raise RecordError(line.number, f"it is {COLOURS[d.seat]}'s decision "
                                                   f"({d.prompt}), not {who}")
                try:
                    opt = parse_option(s, line.text)
                except RulesError as e:
                    raise RecordError(line.number, str(e)) from None
                self._apply_choice(opt)
                i += 1
            else:
                answer = self.table.answer(d, s)
                n = 0
                if (i < len(lines) and lines[i].who == "*"
                        and type(d) in (RollDie, PickRandom, StealRandom, DealCard)):
                    n = lines[i].number
                    answer = chance_from_text(s, d, lines[i])
                    i += 1
                    if type(d) is DealCard:
                        # the record fixes the token: the table's stack agrees
                        if answer[0] in s.dcard:
                            raise RecordError(n, f"{answer[0]} was already dealt")
                        self.table.place(d.handles[0], answer[0])
                try:
                    self._apply_answer(answer)
                except RulesError as e:
                    raise RecordError(n, str(e)) from None
        if i < len(lines):
            raise RecordError(lines[i].number, "the game is already over" if s.outcome
                              else "this line has nothing to apply to")

    def _apply_choice(self, opt: tuple) -> None:
        s = self.state
        d = s.pending
        text = format_option(s, opt)
        self.log += s.choose(opt)
        if len(d.options) > 1:
            self.record.lines.append(Line(0, COLOURS[d.seat], text))

    def _apply_answer(self, answer) -> None:
        s = self.state
        line = chance_text(s, s.pending, answer)
        self.log += s.fulfil(answer)
        if line is not None:
            self.record.lines.append(Line(0, "*", line))

    def step(self) -> bool:
        """Do one thing that needs no person; False when a person must decide
        or the game is over."""
        s = self.state
        if s.outcome is not None:
            return False
        d = s.pending
        if type(d) is not Decision:
            self._apply_answer(self.table.answer(d, s))
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
        if type(self.state.pending) is not Decision:
            raise IllegalAction("no decision is pending")
        self._apply_choice(option)

    def choose_text(self, text: str) -> None:
        self.choose(parse_option(self.state, text))

    def save_text(self) -> str:
        seats = {p: f"bot:{getattr(self.bots[p], 'name', 'bot')}" if p in self.bots else "person"
                 for p in range(self.state.players)}
        return format_record(replace(self.record, seats=seats))


def local_game(text_or_record, bots, rng) -> LocalGame:
    rec = parse_record(text_or_record) if isinstance(text_or_record, str) else text_or_record
    return LocalGame(rec, bots, rng)
