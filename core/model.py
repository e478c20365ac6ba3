"""Values the rules engine speaks in: board and card tables, what the engine
waits for (a seat's :class:`Decision` or a table :class:`Request`), the
public :class:`Event` log and the :class:`Outcome`.

Options of a decision are small tuples ``(verb, *args)``; their text form is
the record notation (``play mr-boggis``, ``minion dolly-sisters``) defined in
:mod:`ankh.core.notation`.  Arguments are typed by position: area indices
0..11, seats 0..3, ``"troll"``/``"demon"`` for neutral minions, card handles
(deck positions) for cards.
"""
from __future__ import annotations

from typing import Any, Final, NamedTuple

from .catalog import AREAS, CARDS, EVENTS, PERSONALITIES

COLOURS: Final = ("red", "yellow", "green", "blue")
LETTERS: Final = ("R", "Y", "G", "B")
TROLL: Final = "troll"
DEMON: Final = "demon"

NUM_AREAS: Final = 12
AREA_IDS: Final[tuple[str, ...]] = tuple(a["id"] for a in AREAS)
AREA_INDEX: Final[dict[str, int]] = {a["id"]: i for i, a in enumerate(AREAS)}
AREA_NAMES: Final[tuple[str, ...]] = tuple(a["name"] for a in AREAS)
COST: Final[tuple[int, ...]] = tuple(a["cost"] for a in AREAS)
ADJ: Final[tuple[frozenset[int], ...]] = tuple(
    frozenset(n - 1 for n in a["adjacent"]) for a in AREAS)
RIVER: Final[tuple[bool, ...]] = tuple(a["river"] for a in AREAS)
ABILITY: Final[tuple[str, ...]] = tuple(a["ability"] for a in AREAS)
ABILITY_PARAMS: Final[tuple[dict[str, int], ...]] = tuple(a["params"] for a in AREAS)
SMALL_GODS: Final[int] = AREA_INDEX["small-gods"]
UNREAL_ESTATE: Final[int] = AREA_INDEX["unreal-estate"]
ISLE_OF_GODS: Final[int] = AREA_INDEX["isle-of-gods"]
STARTING_AREAS: Final[tuple[int, ...]] = (
    AREA_INDEX["dolly-sisters"], AREA_INDEX["the-scours"], AREA_INDEX["the-shades"])

CARD: Final[dict[str, dict[str, Any]]] = {c["id"]: c for c in CARDS}
EVENT: Final[dict[str, dict[str, Any]]] = {e["id"]: e for e in EVENTS}
PERSONALITY: Final[dict[str, dict[str, Any]]] = {p["id"]: p for p in PERSONALITIES}
# A personality's winning condition, and its threshold by table size (none for Vimes).
CONDITION: Final[dict[str, str]] = {p["id"]: p["condition"] for p in PERSONALITIES}
THRESHOLDS: Final[dict[str, dict[int, int]]] = {
    p["id"]: dict(p["thresholds"]) for p in PERSONALITIES}
INTERRUPT_KIND: Final[dict[str, str]] = {
    c["id"]: c["interrupt"] for c in CARDS if "interrupt" in c}
SYMBOLS: Final[dict[str, tuple[str, ...]]] = {c["id"]: tuple(c["symbols"]) for c in CARDS}
GREEN: Final[tuple[str, ...]] = tuple(c["id"] for c in CARDS if c["deck"] == "green")
BROWN: Final[tuple[str, ...]] = tuple(c["id"] for c in CARDS if c["deck"] == "brown")
TWO_PLAYER_REMOVED_CARDS: Final[tuple[str, ...]] = tuple(
    c["id"] for c in CARDS if c.get("two_player_excluded"))
TWO_PLAYER_REMOVED_PERSONALITIES: Final = ("chrysoprase",)

MINIONS_PER_PLAYER: Final = 12
BUILDINGS_PER_PLAYER: Final = 6
STARTING_MONEY: Final = 10
HAND_SIZE: Final = 5
LOAN_REPAY: Final = 12
LOAN_PENALTY: Final = 15


def deck_lists(players: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The green and brown card ids in play for a table of ``players``."""
    if players == 2:
        return GREEN, tuple(c for c in BROWN if c not in TWO_PLAYER_REMOVED_CARDS)
    return GREEN, BROWN


def personality_list(players: int) -> tuple[str, ...]:
    ids = tuple(p["id"] for p in PERSONALITIES)
    if players == 2:
        return tuple(p for p in ids if p not in TWO_PLAYER_REMOVED_PERSONALITIES)
    return ids


class RulesError(Exception):
    """Base of the engine's errors."""


class MalformedAction(RulesError):
    """The answer is not even of the right shape (unknown verb, bad value)."""


class IllegalAction(RulesError):
    """The answer is well formed but not allowed in this position."""


# --- what the engine waits for -------------------------------------------------------

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


class RollDie(NamedTuple):
    """Roll the twelve-sided die; answer with an int 1..12."""
    purpose: str


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
    """Move a hidden card from one seat's hand to another's; answer with its id
    if this engine may know it, else None."""
    handle: int
    giver: int
    receiver: int


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


Request = RollDie | DealCard | Reveal | PassCard | ShowCards | PickRandom

# Builds a decision or a request from the tuple of its fields, without the
# named tuple's constructor (a Python call): ``fast_new(Reveal, ("player", (h,)))``.
# The rules' hot paths use it; they are made at almost every step.
fast_new = tuple.__new__
Pending = Decision | Request


class Event(NamedTuple):
    """A public happening, for the log.  ``text`` uses the record notation;
    ``data`` says the same in parts for an interface to word its own way:
    ``area``/``source``/``dest`` (area indices), ``who`` (a seat or
    ``"troll"``/``"demon"``), ``target``/``by`` (seats), ``card``/``event``/
    ``personality`` (ids), ``amount``, ``roll``, ``handles`` (card or
    personality handles), ``stopped`` (what an interrupt cancelled)."""
    kind: str
    seat: int | None
    text: str
    data: dict | None = None


class Outcome(NamedTuple):
    """How the game ended.  ``reason`` is ``personality`` (``detail`` names it),
    ``vimes`` (draw pile ran out with Commander Vimes in play), or
    ``points`` (``detail`` is ``draw-pile`` or ``riots``)."""
    winners: tuple[int, ...]
    reason: str
    detail: str = ""
    scores: tuple[int, ...] | None = None
    personalities: tuple[str | None, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": [COLOURS[w] for w in self.winners],
            "reason": self.reason,
            "detail": self.detail,
            "scores": list(self.scores) if self.scores is not None else None,
        }
