"""Discworld: Ankh-Morpork as a game of the platform: the :class:`Game` object
through which the network layer, the interface and the tools drive it."""
from __future__ import annotations

from typing import Any

from ..registry import MORPORK
from ..game import COLOURS, Deck, Game, PickRandom, Reveal, RollDie, SetupError
from .model import EVENTS, deck_lists, personality_list
from .record import Fixed, Line, Position, Record, RecordError, format_record, parse_record
from .notation import format_option, normalise, parse_option
from .scoring import reveals_seen_personalities, score
from .setup import new_game
from .views import state_json, view_for

EVENT_IDS: tuple[str, ...] = tuple(e["id"] for e in EVENTS)


class Morpork(Game):
    id, name, seats, networked = MORPORK.id, MORPORK.name, MORPORK.seats, MORPORK.networked
    BOTS = {
        "search": ("ankh.core.morpork.bots.search", "SearchBot"),
        "heuristic": ("ankh.core.morpork.bots.heuristic", "HeuristicBot"),
        "random": ("ankh.core.morpork.bots.random_bot", "RandomBot"),
    }
    NET_BOTS = ("heuristic", "random")
    Record = Record
    RecordError = RecordError

    # -- the rules -------------------------------------------------------------------------

    def new_state(self, players: int, position: Any = None) -> Any:
        return new_game(players, position)

    def decks(self, players: int) -> tuple[Deck, ...]:
        green, brown = deck_lists(players)
        return (Deck("player", (green, brown)), Deck("personality", (personality_list(players),)),
                Deck("event", (EVENT_IDS,)))

    def view_for(self, state: Any, seat: int | None) -> Any:
        return view_for(state, seat)

    def state_json(self, state: Any, running_scores: Any = ()) -> dict:
        return state_json(state, running_scores)

    def scores(self, state: Any) -> tuple[int, ...]:
        return tuple(score(state, q) for q in range(state.players))

    def added_step(self, state: Any, req: Any) -> bool:
        """The reveal of the personalities every seat saw privately (asked since
        games' ends turned every personality face up: ``scoring.t_final_reveal``)."""
        return req == state.pending and reveals_seen_personalities(state)

    def describe_outcome(self, outcome: Any) -> str:
        names = [COLOURS[w] for w in outcome.winners]
        who = " and ".join(names) + (" win" if len(names) > 1 else " wins")
        if outcome.reason == "personality":
            return f"{who}: {outcome.detail} met the winning condition"
        if outcome.reason == "vimes":
            return f"{who}: Commander Vimes, the draw pile ran out"
        scores = "" if outcome.scores is None else " (" + ", ".join(
            f"{COLOURS[s]} {v}" for s, v in enumerate(outcome.scores)) + ")"
        why = "the draw pile ran out" if outcome.detail == "draw-pile" else "riots"
        return f"{who} on points, {why}{scores}"

    # -- the notation and records ---------------------------------------------------------

    def format_option(self, state: Any, option: tuple) -> str:
        return format_option(state, option)

    def parse_option(self, state: Any, text: str) -> tuple:
        return parse_option(state, text)

    def normalise(self, text: str) -> str:
        return normalise(text)

    def parse_record(self, text: str) -> Record:
        return parse_record(text)

    def format_record(self, record: Record) -> str:
        return format_record(record)

    # -- the local table: true orders from a generator the caller owns --------------------

    def deck_orders(self, record: Record, rng: Any) -> dict[str, list[str]]:
        """Every hidden deck's order (top first) for a local table, the record's
        fixed outcomes and position honoured, the rest shuffled by ``rng``."""
        players, fixed, position = record.players, record.fixed, record.position
        cards = _player_deck(players, fixed, position, rng)
        personalities = _personalities(players, fixed, rng)
        events = _events(fixed, position, rng)
        return {"player": cards, "personality": personalities, "event": events}

    def fixed_rolls(self, record: Record) -> list[Any]:
        return list(record.fixed.rolls)

    def fixed_pick(self, record: Record, req: PickRandom) -> tuple | None:
        if req.purpose == "first player" and record.fixed.first is not None:
            return (record.fixed.first,)
        return None

    def chance_text(self, state: Any, req: Any, answer: Any, orders: dict | None = None) -> str | None:
        """The record line (without ``* ``) for a chance outcome worth writing
        down: die rolls and random picks.  Deals and reveals follow from the
        deck orders."""
        if isinstance(req, RollDie):
            return f"roll {answer}"
        if isinstance(req, PickRandom):
            return "pick " + " ".join(_pick_word(state, req, x, orders) for x in answer)
        return None

    def chance_from_text(self, state: Any, req: Any, line: Line, orders: dict | None = None) -> Any:
        words = line.text.split()
        if isinstance(req, RollDie):
            if len(words) != 2 or words[0] != "roll" or not words[1].isdigit():
                raise RecordError(line.number, f"a die roll is due ({req.purpose}); expected '* roll N'")
            return int(words[1])
        if isinstance(req, PickRandom):
            if not words or words[0] != "pick":
                raise RecordError(line.number, f"a random pick is due ({req.purpose}); expected '* pick ...'")
            by_word = {f"#{x}": x for x in req.items}
            by_word.update({_pick_word(state, req, x, orders): x for x in req.items})
            try:
                return tuple(by_word[w] for w in words[1:])
            except KeyError as e:
                raise RecordError(line.number, f"{e.args[0]!r} cannot be picked here") from None
        raise RecordError(line.number, f"no chance outcome is due here (waiting for {type(req).__name__})")

    def informs(self, state: Any, req: Any, people: list[int]) -> bool:
        """Did this request bring new information to the people at the table?
        Revealing a person's own card does not; draws, rolls, picks do."""
        if isinstance(req, Reveal) and req.deck == "player":
            return not all(any(state.sees(p, h) for p in people) for h in req.handles)
        return True


def _pick_word(state: Any, req: PickRandom, item: Any, orders: dict | None) -> str:
    """An item of a random pick by name: a colour, a personality (Zorgo, Mrs
    Cake: named by the table, which knows the unused ones), or a card."""
    if req.purpose == "first player":
        return COLOURS[item]
    if req.purpose in ("zorgo", "mrs-cake"):
        return state.pers[item] or (orders["personality"][item] if orders else f"#{item}")
    return state.card[item] or f"#{item}"


def _player_deck(players: int, fixed: Fixed, position: Position, rng: Any) -> list[str]:
    green, brown = deck_lists(players)
    top: list[Any] = []
    for seat in range(players):
        hand = fixed.hands.get(seat)
        top.append(None if hand is None else list(hand))  # None: filled from the shuffled deck
    below = position.cards_from_draw() + list(fixed.deck)
    wanted = [c for h in top if h for c in h] + below
    for c in wanted:
        if c not in green and c not in brown:
            raise SetupError(f"{c!r} is not a card of a {players}-player game")
    if len(set(wanted)) != len(wanted):
        raise SetupError("a card is fixed twice")
    g = [c for c in green if c not in wanted]
    b = [c for c in brown if c not in wanted]
    rng.shuffle(g)
    rng.shuffle(b)
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


def _personalities(players: int, fixed: Fixed, rng: Any) -> list[str]:
    ids = list(personality_list(players))
    chosen = fixed.personalities
    for seat, pid in chosen.items():
        if pid not in ids:
            raise SetupError(f"{pid!r} is not a personality of a {players}-player game")
    if len(set(chosen.values())) != len(chosen):
        raise SetupError("a personality is fixed twice")
    rest = [p for p in ids if p not in chosen.values()]
    rng.shuffle(rest)
    out = []
    for seat in range(players):
        out.append(chosen[seat] if seat in chosen else rest.pop())
    return out + rest


def _events(fixed: Fixed, position: Position, rng: Any) -> list[str]:
    chosen = list(position.events_drawn) + list(fixed.events)
    if len(set(chosen)) != len(chosen):
        raise SetupError("a random event is fixed twice")
    for e in chosen:
        if e not in EVENT_IDS:
            raise SetupError(f"{e!r} is not a random event")
    rest = [e for e in EVENT_IDS if e not in chosen]
    rng.shuffle(rest)
    return chosen + rest


GAME = Morpork()
