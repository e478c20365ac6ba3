"""The guild variant for Catan ("Die Gilden von Ankh-Morpork") as a game of
the platform: the :class:`Game` object through which the network layer, the
interface and the tools drive it."""
from __future__ import annotations

from typing import Any

from ..game import COLOURS, Deck, Game
from .board import DEV_IDS
from .record import GAME_ID, Record, RecordError, format_record, parse_record


class Guilds(Game):
    id = GAME_ID
    name = "The Guilds of Ankh-Morpork"
    seats = (3, 4)
    BOTS = {
        "search": ("ankh.core.guilds.search", "SearchBot"),
        "heuristic": ("ankh.core.guilds.bots", "HeuristicBot"),
        "random": ("ankh.core.guilds.bots", "RandomBot"),
    }
    NET_BOTS = ("heuristic", "random")
    Record = Record
    RecordError = RecordError

    def new_state(self, players: int, position: Any = None) -> Any:
        from .rules import new_state
        return new_state(players, position)

    def decks(self, players: int) -> tuple[Deck, ...]:
        return (Deck("dev", (DEV_IDS,)),)

    def view_for(self, state: Any, seat: int | None) -> Any:
        from .views import view_for
        return view_for(state, seat)

    def state_json(self, state: Any, viewer: int | None = None) -> dict:
        from .views import state_json
        return state_json(state, viewer)

    def scores(self, state: Any) -> tuple[int, ...]:
        return tuple(state.vp(q) for q in range(state.players))

    def describe_outcome(self, outcome: Any) -> str:
        scores = "" if outcome.scores is None else " (" + ", ".join(
            f"{COLOURS[s]} {v}" for s, v in enumerate(outcome.scores)) + ")"
        return f"{COLOURS[outcome.winners[0]]} wins with {outcome.detail}{scores}"

    def format_option(self, state: Any, option: tuple) -> str:
        from .notation import format_option
        return format_option(state, option)

    def parse_option(self, state: Any, text: str) -> tuple:
        from .notation import parse_option
        return parse_option(state, text)

    def normalise(self, text: str) -> str:
        from .notation import normalise
        return normalise(text)

    def parse_record(self, text: str) -> Record:
        return parse_record(text)

    def format_record(self, record: Record) -> str:
        return format_record(record)

    # the platform's local table (ankh.net.local)
    def deck_orders(self, record: Any, rng: Any) -> dict[str, list]:
        from .table import SetupError, Table
        try:
            return {"dev": Table(record, rng).dev}
        except SetupError as e:
            raise RecordError(0, str(e)) from None

    def fixed_rolls(self, record: Any) -> list[Any]:
        return [dice[0] if len(dice) == 1 else tuple(dice) for dice in record.fixed.rolls]

    def fixed_pick(self, record: Any, req: Any) -> tuple | None:
        if req.purpose == "first player" and record.fixed.first is not None:
            return (record.fixed.first,)
        return None

    def table_answer(self, state: Any, req: Any, orders: dict, rng: Any) -> Any:
        """A steal takes a card of the victim's true hand; a resource shown
        is the one its handle holds."""
        from ..game import Reveal, StealRandom
        if type(req) is StealRandom:
            counts = state.true_hand(req.victim)
            cards = [r for r in range(5) for _ in range(counts[r])]
            i = rng.randrange(len(cards))
            return req.handles[i], cards[i]
        if type(req) is Reveal and req.deck == "res":
            return tuple(state.rcard[h] for h in req.handles)
        return None

    def chance_text(self, state: Any, req: Any, answer: Any, orders: dict | None = None) -> str | None:
        from .table import chance_text
        return chance_text(state, req, answer)

    def chance_from_text(self, state: Any, req: Any, line: Any, orders: dict | None = None) -> Any:
        from ..game import DealCard
        from .table import chance_from_text
        answer = chance_from_text(state, req, line)
        if type(req) is DealCard and orders is not None:
            # the record fixes the token dealt: the table's stack agrees
            if answer[0] in state.dcard:
                raise RecordError(line.number, f"{answer[0]} was already dealt")
            dev = orders["dev"]
            i, h = dev.index(answer[0]), req.handles[0]
            dev[i], dev[h] = dev[h], dev[i]
        return answer

    def local_game(self, record: Any, bots: dict[int, Any] | None = None, rng: Any = None) -> Any:
        """A game at a table that sees every card, replayed from ``record``
        (a :class:`Record` or its text) and carried on by ``bots``.  ``rng``
        is the table's generator, a ``random.Random`` the caller seeds
        (usually with ``record.seed``); the core itself draws nothing."""
        from .table import local_game
        if rng is None:
            raise TypeError("local_game needs the table's generator: "
                            "rng=random.Random(record.seed)")
        return local_game(record, bots, rng)


GAME = Guilds()
