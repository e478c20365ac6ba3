"""A tiny game that proves the platform on something other than Ankh-Morpork.

"High card", for 2 or 3 seats.  A hidden deck of twelve cards, ``c1`` to
``c12`` (each worth its number), is shuffled; each seat is dealt three,
face down.  Two rounds: on its turn a seat rolls a five-sided die; on a 5
it first takes one card at random from the next seat's hand (if that hand
holds any), which only the two of them see; then it plays a card from its
hand, which is shown to everybody (it scores the card's value plus the
roll), or passes (it may pass only when it holds no card worth 4 or more: a
rule other seats cannot check while the cards are hidden).  The highest
score wins; a tie is shared.

It touches every part of the contract a game needs: hidden hands dealt from
a shuffled deck, a die of its own size, a random steal from a hidden hand, a
public reveal, a decision whose legal options depend on a hidden card,
records, views, bots.  A steal gives the victim's cards fresh handles
(``StealRandom.hand`` names them by their old ones): after it, nobody else
can tell which of them went, and the victim looks at its new hand
(``ShowCards``).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ankh.core.game import (
    COLOURS, DealCard, Deck, Decision, Event, Game, IllegalAction, Line, MalformedAction, Outcome, RecordError,
    Reveal, RollDie, ShowCards, StealRandom, read_record, register,
)
from ankh.core.registry import Entry

#: Its record: networked, with no screens of its own (played headless only).
ENTRY = Entry("tiny", "High card", (2, 3), True, __name__)

CARDS = tuple(f"c{n}" for n in range(1, 13))
HAND, ROUNDS, DIE, PLAYABLE = 3, 2, 5, 4


def value(card: str) -> int:
    return int(card[1:])


class State:
    def __init__(self, players: int):
        self.players = players
        self.card: dict[int, str | None] = dict.fromkeys(range(len(CARDS)))  # what this engine knows of each handle
        self.next_handle = len(CARDS)  # a steal's fresh handles follow the deck's positions
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.scores = [0] * players
        self.turn = 1
        self.current = 0
        self.plays = 0
        self.roll = 0
        self.outcome: Outcome | None = None
        self.pending: Any = DealCard("cards", tuple(range(HAND)), 0)

    def copy(self) -> "State":
        return copy.deepcopy(self)

    def options(self, seat: int) -> tuple[tuple, ...]:
        hand = self.hands[seat]
        opts: list[tuple] = [("play", h) for h in hand]
        known = [self.card[h] for h in hand]
        if None in known or all(value(c) < PLAYABLE for c in known):  # type: ignore[arg-type]
            opts.append(("pass",))
        return tuple(opts)

    def _ask(self) -> None:
        self.pending = Decision(self.current, "turn", self.options(self.current),
                                f"rolled {self.roll}: play a card or pass")

    def choose(self, option: tuple) -> list[Event]:
        d = self.pending
        if not isinstance(d, Decision):
            raise IllegalAction("no decision is pending")
        option = tuple(option)
        if option not in d.options:
            raise IllegalAction(f"{option!r} is not allowed now")
        if option[0] == "pass":
            return [Event("pass", d.seat, f"{COLOURS[d.seat]} passes")] + self._next()
        self.pending = Reveal("cards", (option[1],))
        return []

    def fulfil(self, answer: Any) -> list[Event]:
        req = self.pending
        if isinstance(req, DealCard):
            if not isinstance(answer, tuple) or len(answer) != len(req.handles):
                raise MalformedAction(f"expected {len(req.handles)} cards")
            for h, c in zip(req.handles, answer):
                self.card[h] = c
            self.hands[req.seat] = list(req.handles)
            if req.seat + 1 < self.players:
                start = (req.seat + 1) * HAND
                self.pending = DealCard("cards", tuple(range(start, start + HAND)), req.seat + 1)
                return []
            self.pending = RollDie("bonus", DIE)
            return [Event("deal", None, "the cards are dealt")]
        if isinstance(req, ShowCards):
            if not isinstance(answer, tuple) or len(answer) != len(req.handles) \
                    or any(c not in (None, *CARDS) for c in answer):
                raise MalformedAction(f"expected {len(req.handles)} cards")
            self.card.update(zip(req.handles, answer))
            self._ask()
            return []
        if isinstance(req, RollDie):
            if type(answer) is not int or not 1 <= answer <= DIE:
                raise MalformedAction(f"a roll is 1 to {DIE}")
            self.roll = answer
            events = [Event("roll", self.current, f"{COLOURS[self.current]} rolls {answer}", {"roll": answer})]
            victim = (self.current + 1) % self.players
            if answer == DIE and self.hands[victim]:
                hand = tuple(self.hands[victim])
                fresh = tuple(range(self.next_handle, self.next_handle + len(hand)))
                self.next_handle += len(hand)
                self.pending = StealRandom("cards", fresh, victim, self.current, "steal", hand)
                return events
            self._ask()
            return events
        if isinstance(req, StealRandom):
            if not (isinstance(answer, tuple) and len(answer) == 2 and answer[0] in req.handles
                    and answer[1] in (None, *CARDS)):
                raise MalformedAction("a steal is answered (handle, card)")
            taken, card = answer
            for h in req.hand:
                del self.card[h]
            self.card.update(dict.fromkeys(req.handles))
            self.card[taken] = card
            self.hands[req.victim] = [h for h in req.handles if h != taken]
            self.hands[req.thief].append(taken)
            if self.hands[req.victim]:  # the victim looks at its hand in its new order
                self.pending = ShowCards("cards", tuple(self.hands[req.victim]), req.victim)
            else:
                self._ask()
            thief, victim = COLOURS[req.thief], COLOURS[req.victim]
            data = {"from": req.victim, "handle": taken}
            return [Event("steal", req.thief, f"{thief} steals a card from {victim}", data)]
        if isinstance(req, Reveal):
            (h,), (c,) = req.handles, answer
            if c not in CARDS or (self.card[h] not in (None, c)):
                raise MalformedAction(f"{c!r} is not that card")
            self.card[h] = c
            seat = self.current
            if h not in self.hands[seat]:
                raise IllegalAction("that card is not in the player's hand")
            self.hands[seat].remove(h)
            self.scores[seat] += value(c) + self.roll
            events = [Event("play", seat, f"{COLOURS[seat]} plays {c}", {"card": c})]
            return events + self._next()
        raise MalformedAction(f"unknown request {req!r}")

    def _next(self) -> list[Event]:
        self.plays += 1
        if self.plays == ROUNDS * self.players:
            best = max(self.scores)
            winners = tuple(s for s in range(self.players) if self.scores[s] == best)
            self.outcome = Outcome(winners, "points", "", tuple(self.scores))
            self.pending = None
            return [Event("end", None, "the game is over")]
        self.current = (self.current + 1) % self.players
        if self.current == 0:
            self.turn += 1
        self.pending = RollDie("bonus", DIE)
        return []


@dataclass
class Record:
    players: int = 2
    seed: int = 0
    lines: list[Line] = field(default_factory=list)
    seats: dict[int, str] = field(default_factory=dict)
    position: Any = None


class RandomBot:
    name = "random"

    def __init__(self, rng):
        self.rng = rng

    def choose(self, state: State, decision: Decision) -> tuple:
        return self.rng.choice(decision.options)


class Tiny(Game):
    id, name, seats, networked = ENTRY.id, ENTRY.name, ENTRY.seats, ENTRY.networked
    BOTS = {"random": ("tests.tinygame", "RandomBot")}
    NET_BOTS = ("random",)
    Record = Record

    def new_state(self, players: int, position: Any = None) -> State:
        return State(players)

    def decks(self, players: int) -> tuple[Deck, ...]:
        return (Deck("cards", (CARDS,)),)

    def view_for(self, state: State, seat: int | None) -> dict:
        return {"scores": list(state.scores), "hand": [state.card[h] for h in state.hands[seat]]
                if seat is not None else None, "sizes": [len(h) for h in state.hands]}

    def state_json(self, state: State, running_scores: Any = ()) -> dict:
        return {"game": self.id, "scores": list(state.scores), "turn": state.turn,
                "outcome": None if state.outcome is None else state.outcome.to_json()}

    def scores(self, state: State) -> tuple[int, ...]:
        return tuple(state.scores)

    def describe_outcome(self, outcome: Outcome) -> str:
        names = " and ".join(COLOURS[w] for w in outcome.winners)
        return f"{names} win{'s' if len(outcome.winners) == 1 else ''} with {max(outcome.scores or (0,))}"

    def format_option(self, state: State, option: tuple) -> str:
        return " ".join(str(x) for x in option)

    def parse_option(self, state: State, text: str) -> tuple:
        words = text.split()
        if words == ["pass"]:
            return ("pass",)
        if len(words) == 2 and words[0] == "play" and words[1].isdigit():
            return ("play", int(words[1]))
        raise MalformedAction(f"not a move: {text!r}")

    def parse_record(self, text: str) -> Record:
        players, setup, lines = read_record(text, self.id, self.name, self.seats)
        rec = Record(players=players, lines=lines)
        for n, key, val in setup:
            if key == "seed" and val.isdigit():
                rec.seed = int(val)
            elif key == "seats":
                rec.seats = {COLOURS.index(c): w for c, _, w in (p.partition("=") for p in val.split())}
            else:
                raise RecordError(n, f"unknown setup line {key!r}")
        return rec

    def format_record(self, record: Record) -> str:
        out = [f"game: {self.id}", f"players: {record.players}", f"seed: {record.seed}"]
        if record.seats:
            out.append("seats: " + " ".join(f"{COLOURS[s]}={w}" for s, w in sorted(record.seats.items())))
        out += [f"* {x.text}" if x.who == "*" else f"{x.who}: {x.text}" for x in record.lines]
        return "\n".join(out) + "\n"

    def deck_orders(self, record: Record, rng: Any) -> dict[str, list]:
        cards = list(CARDS)
        rng.shuffle(cards)
        return {"cards": cards}

    def chance_text(self, state: State, req: Any, answer: Any, orders: dict | None = None) -> str | None:
        return f"roll {answer}" if isinstance(req, RollDie) else None

    def chance_from_text(self, state: State, req: Any, line: Line, orders: dict | None = None) -> Any:
        words = line.text.split()
        if isinstance(req, RollDie) and len(words) == 2 and words[0] == "roll" and words[1].isdigit():
            return int(words[1])
        raise RecordError(line.number, f"expected '* roll N' ({type(req).__name__} is due)")


GAME = Tiny()


def install() -> None:
    """Make the game known to this process (``ankh.core.game.get("tiny")``)."""
    register(ENTRY)
