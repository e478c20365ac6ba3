"""The contract every game of the platform keeps: the values a rules engine
speaks in, and the :class:`Game` object through which the network layer, the
terminal interface and the tools drive a game without knowing which one it is.

A rules engine is a deterministic state machine (the first game's is
described in :mod:`ankh.core.morpork`).  Its state says what it waits for:

- a :class:`Decision` by one seat, whose ``options`` (small tuples ``(verb,
  *args)``) are computed from what that seat can see; or
- a *request* that only the table can answer: a die roll, cards dealt from a
  hidden deck, cards revealed, a card passed or shown to one seat, a random
  pick, a card stolen at random from a hidden hand.

``state.choose(option)`` and ``state.fulfil(answer)`` give the next state and
the public :class:`Event` list.  Chance never comes from inside: a local table
answers the requests from a seeded generator, a networked seat from the
fairness protocol, a replay from its log.  So the same answers give the same
game on every machine, and a game is its log.

Nothing here imports a game: :func:`get` loads one by id, lazily, from
:data:`GAMES`.  Nothing here touches randomness, a clock or I/O.
"""
from __future__ import annotations

import importlib
import math
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

# The games by id, each by its record (:mod:`ankh.core.registry`).
from .registry import DEFAULT, ENTRIES, GAMES, Entry, UnknownGame, entry, get, register  # noqa: F401

#: The seats' colours and letters, the same in every game (the record notation
#: and the wire speak of seats by colour).
COLOURS: Final = ("red", "yellow", "green", "blue")
LETTERS: Final = ("R", "Y", "G", "B")


class RulesError(Exception):
    """Base of the engines' errors."""


class MalformedAction(RulesError):
    """The answer is not even of the right shape (unknown verb, bad value)."""


class IllegalAction(RulesError):
    """The answer is well formed but not allowed in this position.

    ``seat``, where the rules know it: the seat whose own earlier claim the
    answer refutes (a payment that its hidden cards, once shown, do not
    cover)."""

    def __init__(self, message: str = "", seat: int | None = None):
        super().__init__(message)
        self.seat = seat


class RecordError(RulesError):
    """A record that cannot be read or replayed; names the line."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass
class Line:
    """A line of a game record after its header: a seat's decision (``who`` its
    colour) or a chance outcome (``who`` is ``"*"``), in the game's notation."""
    number: int
    who: str
    text: str


def read_record(text: str, game_id: str, game_name: str, seats: tuple[int, ...]
                ) -> tuple[int, list[tuple[int, str, str]], list[Line]]:
    """A record's text split as every game writes it: the number of players,
    the other setup lines ``(line number, key, value)`` in order, and the
    :class:`Line` s of moves and chance outcomes.  Blank lines and ``#``
    comments are skipped; a ``game:`` line must name ``game_id``; raises
    :class:`RecordError` naming the line."""
    players = seats[-1]
    setup: list[tuple[int, str, str]] = []
    lines: list[Line] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("*"):
            lines.append(Line(n, "*", line[1:].strip()))
            continue
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not sep:
            raise RecordError(n, f"expected 'key: value' or 'colour: move', got {line!r}")
        if key in COLOURS:
            if not value:
                raise RecordError(n, "a move line needs a move after the colon")
            lines.append(Line(n, key, value))
            continue
        if lines:
            raise RecordError(n, f"setup line {key!r} after the moves began")
        if key == "game":
            if value != game_id:
                raise RecordError(n, f"this is a record of another game ({value!r}), "
                                     f"not of {game_name} ({game_id!r})")
        elif key == "players":
            if not value.isdigit() or int(value) not in seats:
                many = f"{seats[0]} or {seats[1]}" if len(seats) == 2 else f"{seats[0]} to {seats[-1]}"
                raise RecordError(n, f"{game_name} is for {many} players")
            players = int(value)
        else:
            setup.append((n, key, value))
    return players, setup, lines


def record_seat(word: str, players: int, n: int) -> int:
    """The seat a record's line ``n`` names by colour."""
    if word not in COLOURS[:players]:
        raise RecordError(n, f"{word!r} is not a seat in a {players}-player game "
                             f"({', '.join(COLOURS[:players])})")
    return COLOURS.index(word)


def record_seats(value: str, players: int, n: int) -> dict[int, str]:
    """A ``seats:`` line: who sits where, ``COLOUR=person`` or ``COLOUR=bot:KIND``."""
    seats = {}
    for word in value.split():
        colour, _, who = word.partition("=")
        if who != "person" and not (who.startswith("bot:") and len(who) > 4):
            raise RecordError(n, f"{word!r}: a seat is COLOUR=person or COLOUR=bot:KIND")
        seats[record_seat(colour, players, n)] = who
    return seats


def game_of_record(text: str) -> str:
    """The id a record names on its ``game:`` line (before its moves), else
    the default game's; a game this program does not know is a
    :class:`RecordError` naming that line."""
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep or line.startswith("*") or key.strip() in COLOURS:
            break
        if key.strip() == "game":
            gid = value.strip()
            if gid not in GAMES:
                raise RecordError(n, f"no game is called {gid!r} (known: {', '.join(GAMES)})")
            return gid
    return DEFAULT


class SetupError(ValueError):
    """A local table's fixed outcomes cannot all hold (an unknown or repeated card...)."""


# --- what an engine waits for -------------------------------------------------------

class Decision(NamedTuple):
    """A choice that seat ``seat`` must make among ``options``.

    ``options`` are computed from what that seat can see.  ``kind`` names the
    situation (``turn``, ``action``, ``window``, ``target`` ...) and ``prompt``
    explains it in words for the interface.  (A named tuple, as the requests
    are: made at every step, it must be cheap.)
    """
    seat: int
    kind: str
    options: tuple[tuple, ...]
    prompt: str
    #: Moves too many to list (a trade offer of any cards), besides ``options``:
    #: None, or an object whose ``allows(option)`` says whether it is one of
    #: them.  Read it with :func:`space_of`; check a move with :func:`allows`.
    space: Any = None


def space_of(decision: Decision) -> Any:
    """The decision's :attr:`Decision.space` (None where a game built it
    with four fields)."""
    return decision[4] if len(decision) > 4 else None


def forced(decision: Decision) -> bool:
    """Whether the decision has only one possible move (taken without asking):
    one option and no space of other moves."""
    return len(decision.options) == 1 and (len(decision) < 5 or decision[4] is None)


def allows(decision: Decision, option: tuple) -> bool:
    """Whether ``option`` is a legal move at ``decision``: one of its options,
    or a move its space allows.  Every check of a move goes through here."""
    if option in decision.options:
        return True
    space = decision[4] if len(decision) > 4 else None
    return space is not None and bool(space.allows(option))


class RollDie(NamedTuple):
    """Roll ``dice`` dice of ``sides`` faces each.  Answer with an int
    1..sides when ``dice`` is 1, else with a tuple of ``dice`` such ints.
    (The first game's twelve-sided die is the default.)"""
    purpose: str
    sides: int = 12
    dice: int = 1


class DealCard(NamedTuple):
    """Deal the hidden cards ``handles`` of ``deck`` (the top of it, in order) to
    ``seat``; answer with a tuple of their ids where this engine may know them
    (they are the seat's, or the engine sees all), else None entries."""
    deck: str
    handles: tuple[int, ...]
    seat: int


class Reveal(NamedTuple):
    """Show cards to everybody; answer with a tuple of their ids."""
    deck: str
    handles: tuple[int, ...]


class PassCard(NamedTuple):
    """Move a hidden card of ``deck`` from one seat's hand to another's; answer
    with its id if this engine may know it, else None."""
    handle: int
    giver: int
    receiver: int
    deck: str = "player"


class ShowCards(NamedTuple):
    """Show hidden cards to ``seat`` only; answer with a tuple of ids, or None
    entries where this engine may not know them."""
    deck: str
    handles: tuple[int, ...]
    seat: int


class PickRandom(NamedTuple):
    """Choose ``k`` of ``items`` uniformly at random; answer with the tuple of
    chosen items (in the order drawn)."""
    items: tuple
    k: int
    purpose: str


class StealRandom(NamedTuple):
    """``thief`` takes one card, chosen uniformly at random, from ``victim``'s
    hand of hidden cards (of ``deck``), which ``handles`` name in an order only
    the victim knows: the card taken goes to the thief under its handle.
    Answer with ``(handle, card)``: the handle taken and its id where this
    engine may know it (the thief's, the victim's, an engine that sees all),
    else None.

    ``hand`` names the victim's cards by the handles they had until now, where
    they have any (cards of a hidden deck, or that an earlier steal moved);
    then ``handles`` are as many handles never used before, which the cards
    take in an order only the victim knows: nobody else can tell which went.
    The victim's rules learn its new order by asking ``ShowCards(deck, its
    handles, victim)`` next.  (Without ``hand`` or ``cards`` the table knows
    the victim's cards by ``handles`` already: a local table's game that lays
    them out itself, :meth:`Game.table_answer`.)

    ``cards`` are the victim's face-up cards, by id, when ``deck`` is a hand
    of face-up cards (:attr:`Game.face_up`) rather than a hidden deck: they
    enter the steal with its hidden cards (``hand``), ``handles`` names all
    of them afterwards (``len(cards) + len(hand)`` handles), and the victim's
    remaining cards are hidden from then on: nobody else can tell which of
    them went."""
    deck: str
    handles: tuple[int, ...]
    victim: int
    thief: int
    purpose: str
    hand: tuple[int, ...] = ()
    cards: tuple = ()


Request = RollDie | DealCard | Reveal | PassCard | ShowCards | PickRandom | StealRandom

# Builds a decision or a request from the tuple of its fields, without the
# named tuple's constructor (a Python call): ``fast_new(Reveal, ("player", (h,)))``.
# Every field must be given.  The rules' hot paths use it.
fast_new = tuple.__new__
Pending = Decision | Request


class Event(NamedTuple):
    """A public happening, for the log.  ``text`` uses the game's record
    notation; ``data`` says the same in parts for an interface to word its own
    way (the keys are the game's)."""
    kind: str
    seat: int | None
    text: str
    data: dict | None = None


class Outcome(NamedTuple):
    """How a game ended: the winning seats, why (``reason``, ``detail``: the
    game's words) and the scores where the game keeps them.  A game may use a
    richer named tuple that starts with these fields."""
    winners: tuple[int, ...]
    reason: str
    detail: str = ""
    scores: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return outcome_json(self)


def win_chances(players: int, winners: tuple[int, ...] | None, values: list[float] | None,
                temperature: float) -> list[float]:
    """Each seat's chance to win, summing to 1 over the seats: a game over
    (``winners``) gives 1 to its winner, shared equally by winners on a tie;
    a game going on gives each seat a softmax share of the seats' ``values``
    (a search's estimate of the position for each seat): ``temperature``
    value units are one unit of log-odds between two seats."""
    if winners is not None:
        return [1.0 / len(winners) if q in winners else 0.0 for q in range(players)]
    assert values is not None
    top = max(values)
    weights = [math.exp(max(-50.0, (v - top) / temperature)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def outcome_json(outcome: Any) -> dict[str, Any]:
    """An outcome as JSON, the same shape for every game."""
    return {
        "winners": [COLOURS[w] for w in outcome.winners],
        "reason": outcome.reason,
        "detail": outcome.detail,
        "scores": list(outcome.scores) if outcome.scores is not None else None,
    }


class Deck(NamedTuple):
    """A hidden deck as the table shuffles it: its name and its printed cards
    (distinct ids) as segments from the top down, each segment shuffled on its
    own and the segments stacked in order.  A card's handle in the engine is
    its position in the shuffled deck (0 = top)."""
    name: str
    segments: tuple[tuple[str, ...], ...]


# --- a game ------------------------------------------------------------------------------

class Game:
    """One game of the platform: what the network layer, the interface and the
    tools need to know of it, and nothing of how its rules work.

    Each game's package defines one instance (``GAME`` in its ``game``
    module); :func:`get` finds it by id.  The methods below are the whole
    road from the platform to a game's rules: the platform never imports a
    game's modules by name.
    """

    #: The id on the wire, in records, saves, journals, transcripts and adverts.
    id: str = ""
    #: Its name, in English (the interface translates it).
    name: str = ""
    #: How many seats it takes.
    seats: tuple[int, ...] = ()
    #: Whether its tables may be played over the network (every request its
    #: rules ask has a protocol step that answers it fairly).
    networked: bool = True
    #: The bots by kind, best first: ``{"search": (module, class), ...}``; a
    #: bot is ``cls(rng).choose(state, decision)``, ``rng`` a ``random.Random``
    #: the caller owns.  ``NET_BOTS`` are the kinds a networked table may seat,
    #: its default first.
    BOTS: dict[str, tuple[str, str]] = {}
    NET_BOTS: tuple[str, ...] = ()
    #: Hands of face-up cards that a random steal may take from (the rules keep
    #: them as public counts, not as a hidden deck): name -> the card kinds.
    #: The rules name a card of such a hand by its index in this tuple.
    face_up: dict[str, tuple[str, ...]] = {}

    # the rules
    def new_state(self, players: int, position: Any = None) -> Any:
        """The state of a new game (waiting for its first request or decision)."""
        raise NotImplementedError

    def decks(self, players: int) -> tuple[Deck, ...]:
        """The hidden decks, in the order the table shuffles them."""
        raise NotImplementedError

    def view_for(self, state: Any, seat: int | None) -> Any:
        """What ``seat`` (None: a spectator) may see: the only road from a
        state to an interface or a bot."""
        raise NotImplementedError

    def describe_outcome(self, outcome: Any) -> str:
        """The result in words that are the same on every seat (colours, not
        "you"), for logs and the ``result:`` line."""
        raise NotImplementedError

    def state_json(self, state: Any, running_scores: Any = ()) -> dict:
        """The whole state as JSON (``ankh replay --json``)."""
        raise NotImplementedError

    def scores(self, state: Any) -> tuple[int, ...]:
        """Every seat's score as the game stands (a table ended early keeps these)."""
        raise NotImplementedError

    def retired_move(self, move: tuple) -> bool:
        """Whether ``move``, read from a networked save's journal, has a shape
        only an earlier version's rules asked for (its game cannot be carried
        on by these rules)."""
        return False

    def unwritten_move(self, state: Any, decision: Decision, line: Line) -> tuple | None:
        """The move a record written by an earlier version left out at
        ``decision`` (one that version's rules forced) when ``line``, the
        record's next move, is another seat's; None if it left none out."""
        return None

    def added_step(self, state: Any, req: Any) -> bool:
        """Whether ``req``, a :class:`Reveal` the rules ask at the end of a game,
        is a step this game's rules came to ask only after networked games had
        been saved without it.  A saved log that goes straight on to its
        end-of-game audit where the rules ask it was written before: the cards
        are then read from that audit, which discloses every card."""
        return False

    # the notation
    def format_option(self, state: Any, option: tuple) -> str:
        raise NotImplementedError

    def parse_option(self, state: Any, text: str) -> tuple:
        raise NotImplementedError

    def normalise(self, text: str) -> str:
        """A move's text as :meth:`format_option` would write it."""
        return " ".join(text.split())

    # records: a header of ``key: value`` lines (``game: <id>`` first), then
    # :class:`Line` s.  ``Record`` is the game's record class: a dataclass with
    # at least ``players``, ``seed``, ``lines``, ``seats`` and ``position``.
    Record: Any = None

    def parse_record(self, text: str) -> Any:
        raise NotImplementedError

    def format_record(self, record: Any) -> str:
        raise NotImplementedError

    # the local table (``ankh.net.play.local``): the platform owns the generator,
    # the game says what its chance means.
    def deck_orders(self, record: Any, rng: Any) -> dict[str, list]:
        """Every hidden deck's true order (top first) for a game played at one
        table: what ``record`` fixes, the rest shuffled with ``rng`` (a
        ``random.Random`` the caller seeded)."""
        raise NotImplementedError

    def fixed_rolls(self, record: Any) -> list[Any]:
        """Die rolls ``record`` fixes, in order (answers to :class:`RollDie`)."""
        return []

    def fixed_pick(self, record: Any, req: PickRandom) -> tuple | None:
        """The answer ``record`` fixes for a random pick, if any."""
        return None

    def table_answer(self, state: Any, req: Any, rng: Any, orders: dict[str, list]) -> Any:
        """A local table's answer to ``req`` where the game answers it its own
        way (a steal from a hand the engine lays out itself, say), drawing any
        chance from ``rng``; :data:`NotImplemented` leaves it to the table (dice,
        picks, cards of the hidden decks by their orders, a steal of a deck's
        card)."""
        return NotImplemented

    def chance_text(self, state: Any, req: Any, answer: Any, orders: dict | None = None) -> str | None:
        """A chance outcome as a record line (without ``* ``), or None for those
        that follow from the deck orders (deals, reveals)."""
        raise NotImplementedError

    def chance_from_text(self, state: Any, req: Any, line: Line, orders: dict | None = None) -> Any:
        """The answer to ``req`` that a record's ``*`` line gives."""
        raise NotImplementedError

    def informs(self, state: Any, req: Any, people: list[int]) -> bool:
        """Whether answering ``req`` told the ``people`` at a local table
        something new (after which their choices cannot be taken back)."""
        return True

    def bot(self, kind: str, rng: Any, **options: Any) -> Any:
        """A bot of ``kind`` drawing its choices from ``rng`` (``options``: its own,
        such as a search bot's ``clock`` and ``budget``)."""
        module, cls = self.BOTS[kind]
        return getattr(importlib.import_module(module), cls)(rng, **options)

    def __repr__(self) -> str:
        return f"<Game {self.id}>"

