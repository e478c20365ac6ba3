"""Values the rules engine speaks in: board and card tables, the
:class:`Outcome`, and (from the contract, :mod:`ankh.core.game`) what the
engine waits for (a seat's :class:`Decision` or a table :class:`Request`) and
the public :class:`Event` log.

Options of a decision are small tuples ``(verb, *args)``; their text form is
the record notation (``play mr-boggis``, ``minion dolly-sisters``) defined in
:mod:`ankh.core.morpork.notation`.  Arguments are typed by position: area indices
0..11, seats 0..3, ``"troll"``/``"demon"`` for neutral minions, card handles
(deck positions) for cards.
"""
from __future__ import annotations

from typing import Any, Final, NamedTuple

from ..game import (  # the vocabulary every game shares, re-exported for this game's modules
    COLOURS, LETTERS, DealCard, Decision, Event, IllegalAction, MalformedAction, PassCard, Pending,
    PickRandom, Request, Reveal, RollDie, RulesError, ShowCards, fast_new, outcome_json,
)
from .catalog import AREAS, CARDS, EVENTS, PERSONALITIES
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
        return outcome_json(self)
