"""The guild variant for Catan ("Die Gilden von Ankh-Morpork") as a game of
the platform: the :class:`Game` object through which the network layer, the
interface and the tools drive it."""
from __future__ import annotations

from typing import Any

from ..registry import GUILDS
from ..game import (
    COLOURS, Decision, Deck, Game, Line, PickRandom, RecordError, Reveal, RollDie, SetupError, ShowCards, StealRandom,
)
from .board import DEV_IDS, RESOURCES, R_INDEX
from .notation import format_option, normalise, parse_option, unwritten_move
from .record import Record, format_record, parse_record
from .rules import new_state
from .views import state_json, view_for


class Guilds(Game):
    id, name, seats, networked = GUILDS.id, GUILDS.name, GUILDS.seats, GUILDS.networked
    # The resource cards are a hand of face-up cards: a steal takes from them
    # through the protocol's random steal (docs/fairness.md, "Face-up hands").
    face_up = {"res": RESOURCES}
    BOTS = {
        "search": ("ankh.core.guilds.search", "SearchBot"),
        "heuristic": ("ankh.core.guilds.bots", "HeuristicBot"),
        "random": ("ankh.core.guilds.bots", "RandomBot"),
    }
    NET_BOTS = ("heuristic", "random")
    Record = Record
    RecordError = RecordError

    def new_state(self, players: int, position: Any = None) -> Any:
        return new_state(players, position)

    def decks(self, players: int) -> tuple[Deck, ...]:
        return (Deck("dev", (DEV_IDS,)),)

    def view_for(self, state: Any, seat: int | None) -> Any:
        return view_for(state, seat)

    def state_json(self, state: Any, running_scores: Any = (), viewer: int | None = None) -> dict:
        """The state as JSON: as it is (a replay's, which holds every card),
        or as seat ``viewer`` sees it."""
        return state_json(state, viewer, running_scores)

    def scores(self, state: Any) -> tuple[int, ...]:
        return tuple(state.vp(q) for q in range(state.players))

    def describe_outcome(self, outcome: Any) -> str:
        scores = "" if outcome.scores is None else " (" + ", ".join(
            f"{COLOURS[s]} {v}" for s, v in enumerate(outcome.scores)) + ")"
        return f"{COLOURS[outcome.winners[0]]} wins with {outcome.detail}{scores}"

    def format_option(self, state: Any, option: tuple) -> str:
        return format_option(state, option)

    def parse_option(self, state: Any, text: str) -> tuple:
        return parse_option(state, text)

    def unwritten_move(self, state: Any, decision: Decision, line: Line) -> tuple | None:
        return unwritten_move(state, decision)

    def retired_move(self, move: tuple) -> bool:
        """An offer in four moves, as before trades as in Catan: ``trade``,
        ``give K N``, ``want K N``, ``to Q`` / ``to-all``; a counter of one
        kind (``counter K N``); a deal naming the cards (``deal Q K N``)."""
        verb = move[0] if move else None
        return (verb in ("trade", "give", "want", "to", "to-all")
                or (verb == "counter" and len(move) == 3 and type(move[1]) is int)
                or (verb == "deal" and len(move) == 4))

    def normalise(self, text: str) -> str:
        return normalise(text)

    def parse_record(self, text: str) -> Record:
        return parse_record(text)

    def format_record(self, record: Record) -> str:
        return format_record(record)

    # -- the local table: true orders from a generator the caller owns --------------------

    def deck_orders(self, record: Record, rng: Any) -> dict[str, Any]:
        """The development stack's true order (top first): a position's tokens
        out of the stack, then the record's fixed top (``dev:``), the rest
        shuffled with ``rng``.  (Resource cards are answered by
        :meth:`table_answer`.)"""
        out = record.position.dev_out() if not record.position.is_empty() else []
        top = list(record.fixed.dev)
        if set(top) & set(out):
            raise SetupError("a development token is fixed twice")
        rest = [c for c in DEV_IDS if c not in out and c not in top]
        rng.shuffle(rest)
        return {"dev": out + top + rest}

    def table_answer(self, state: Any, req: Any, rng: Any, orders: dict[str, list]) -> Any:
        """Resource cards are not a deck the table orders: a steal takes a card
        of the victim's true hand uniformly (the hand laid out by kind under the
        request's handles), a reveal names the kinds the engine that sees all
        knows."""
        t = type(req)
        if t is StealRandom:
            counts = state.true_hand(req.victim)
            cards = [r for r in range(5) for _ in range(counts[r])]
            i = rng.randrange(len(cards))
            return req.handles[i], cards[i]
        if (t is Reveal or t is ShowCards) and req.deck == "res":
            return tuple(state.rcard[h] for h in req.handles)
        return NotImplemented

    def fixed_rolls(self, record: Record) -> list[Any]:
        return [r[0] if len(r) == 1 else r for r in record.fixed.rolls]

    def fixed_pick(self, record: Record, req: PickRandom) -> tuple | None:
        if req.purpose == "first player" and record.fixed.first is not None:
            return (record.fixed.first,)
        return None

    def chance_text(self, state: Any, req: Any, answer: Any, orders: dict | None = None) -> str | None:
        """Dice (``roll 3+4``, one die ``roll 5``), the first player (``pick
        red``) and steals (``steal #12 ore``); deals and reveals follow from
        the orders."""
        t = type(req)
        if t is RollDie:
            return "roll " + ("+".join(map(str, answer)) if req.dice > 1 else str(answer))
        if t is PickRandom:
            return "pick " + " ".join(COLOURS[x] for x in answer)
        if t is StealRandom:
            return f"steal #{answer[0]} {RESOURCES[answer[1]]}"
        return None

    def chance_from_text(self, state: Any, req: Any, line: Line, orders: dict | None = None) -> Any:
        words = line.text.split()
        t = type(req)
        try:
            if t is RollDie and len(words) == 2 and words[0] == "roll":
                dice = tuple(int(x) for x in words[1].split("+"))
                if len(dice) == req.dice:
                    return dice[0] if req.dice == 1 else dice
            if t is PickRandom and len(words) == 2 and words[0] == "pick":
                return (COLOURS.index(words[1]),)
            if t is StealRandom and len(words) == 3 and words[0] == "steal" and words[1][0] == "#":
                return int(words[1][1:]), R_INDEX[words[2]]
        except (ValueError, KeyError, IndexError):
            pass
        want = {RollDie: "'* roll D1+D2' (or '* roll D' for one die)", PickRandom: "'* pick COLOUR'",
                StealRandom: "'* steal #HANDLE RESOURCE'"}.get(t, "no chance line")
        raise RecordError(line.number, f"a {t.__name__} is due; expected {want}")


GAME = Guilds()
