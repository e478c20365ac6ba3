"""The game state: the board, the players, the hidden cards as handles, and
the engine's stack of work still to do.

A :class:`State` is mutated in place by :meth:`State.choose` and
:meth:`State.fulfil` (python-chess style); :meth:`State.copy` is cheap, so
bots copy before they explore.  Cards are *handles*: a player card's handle
is its position in the shuffled draw pile (0 = top), a personality's its
position in the personality deck, an event's in the event deck.  ``card[h]``
is the identity this engine knows, or None.

The state is compact so that copies are cheap: a row of ``minions`` (one
area, a count per seat) is a tuple, replaced on change (``add_minions``);
loans and penalty cards are tuples per seat; what each seat has seen
(``seen``, ``pers_seen``) are bitmasks of handles (``sees``, ``handles``),
and the City Area cards used or gained this turn (``used``, ``gained``)
bitmasks of areas.
"""
from __future__ import annotations

from typing import Any, Final

from .. import kernel
from ..kernel import Machine
from .model import (
    ADJ, BUILDINGS_PER_PLAYER, CARD, DEMON, HAND_SIZE, MINIONS_PER_PLAYER,
    NUM_AREAS, STARTING_AREAS, STARTING_MONEY, TROLL, IllegalAction,
    EVENT, MalformedAction, deck_lists, personality_list,
    DealCard, PassCard, PickRandom, Reveal, RollDie, ShowCards,
)

NOBODY: Final = -1
REMOVED: Final = -2  # a City Area card put out of the game by Bloody Stupid Johnson


# The game's attributes of a state (its ``__slots__``), beside the engine's.
SLOTS: Final = (
    "players", "minions", "trolls", "demons", "trouble", "building", "city_owner",
    "money", "supply", "buildings_left", "hand", "loans", "penalties",
    "card", "draw", "discard", "in_play",
    "pers", "personality", "unused_pers", "pers_seen", "seen",
    "event", "event_deck", "events_done",
    "current", "turn", "used", "gained", "played", "last_played", "chain", "ending",
)
# Every attribute of a state (a compiled build has no ``__slots__`` attribute on
# the class, so code that walks a state's fields uses this).
FIELDS: Final = kernel.FIELDS + SLOTS


class State(Machine):
    """The game's state; its engine (``stack``, ``pending``, ``choose``,
    ``fulfil`` ...) is :class:`~ankh.core.kernel.Machine`'s."""
    __slots__ = SLOTS
    players: int
    minions: list[tuple[int, ...]]          # per area, a count per seat
    trolls: list[int]
    demons: list[int]
    trouble: list[bool]
    building: list[int]                     # per area, a seat or NOBODY
    city_owner: list[int]                   # per area, a seat, NOBODY or REMOVED
    money: list[int]
    supply: list[int]
    buildings_left: list[int]
    hand: list[list[int]]
    loans: list[tuple[int, ...]]
    penalties: list[tuple[int, ...]]
    card: list[Any]                         # per handle, a card id or None
    draw: list[int]
    discard: list[int]
    in_play: list[int]
    pers: list[Any]
    personality: list[int]
    unused_pers: list[int]
    pers_seen: list[int]                    # per seat, a bitmask of personality handles
    seen: list[int]                         # per seat, a bitmask of player-card handles
    event: list[Any]
    event_deck: list[int]
    events_done: list[int]
    current: int
    turn: int
    used: int                               # a bitmask of areas
    gained: int                             # a bitmask of areas
    played: int
    last_played: Any                        # a handle or None
    chain: Any
    ending: bool

    # --- construction ------------------------------------------------------------------

    def __init__(self) -> None:
        """An empty state, filled by :meth:`new` or :meth:`copy`."""

    @classmethod
    def new(cls, players: int) -> "State":
        """A fresh game for 2-4 players, waiting for the first setup request."""
        if players not in (2, 3, 4):
            raise MalformedAction(f"the game is for 2 to 4 players, not {players}")
        s = cls()
        n = s.players = players
        s.minions = [(0,) * n] * NUM_AREAS
        s.trolls = [0] * NUM_AREAS
        s.demons = [0] * NUM_AREAS
        s.trouble = [False] * NUM_AREAS
        s.building = [NOBODY] * NUM_AREAS
        s.city_owner = [NOBODY] * NUM_AREAS
        for a in STARTING_AREAS:
            s.minions[a] = (1,) * n
            s.trouble[a] = True
        s.money = [STARTING_MONEY] * n
        s.supply = [MINIONS_PER_PLAYER - len(STARTING_AREAS)] * n
        s.buildings_left = [BUILDINGS_PER_PLAYER] * n
        s.hand = [[] for _ in range(n)]
        s.loans = [()] * n
        s.penalties = [()] * n
        green, brown = deck_lists(n)
        ncards = len(green) + len(brown)
        s.card = [None] * ncards
        s.draw = list(range(ncards - 1, -1, -1))  # top of the pile is the list's end
        s.discard = []
        s.in_play = []
        npers = len(personality_list(n))
        s.pers = [None] * npers
        s.personality = list(range(n))
        s.unused_pers = list(range(n, npers))
        s.pers_seen = [0] * n
        s.seen = [0] * n
        s.event = [None] * 12
        s.event_deck = list(range(11, -1, -1))
        s.events_done = []
        s.current = 0
        s.turn = 0
        s.used = 0
        s.gained = 0
        s.played = 0
        s.last_played = None
        s.chain = None
        s.ending = False
        s.start_machine()
        return s

    def copy(self) -> "State":
        s = State()
        s.players = self.players
        s.minions = self.minions[:]
        s.trolls = self.trolls[:]
        s.demons = self.demons[:]
        s.trouble = self.trouble[:]
        s.building = self.building[:]
        s.city_owner = self.city_owner[:]
        s.money = self.money[:]
        s.supply = self.supply[:]
        s.buildings_left = self.buildings_left[:]
        s.hand = [h[:] for h in self.hand]
        s.loans = self.loans[:]
        s.penalties = self.penalties[:]
        s.card = self.card[:]
        s.draw = self.draw[:]
        s.discard = self.discard[:]
        s.in_play = self.in_play[:]
        s.pers = self.pers[:]
        s.personality = self.personality[:]
        s.unused_pers = self.unused_pers[:]
        s.pers_seen = self.pers_seen[:]
        s.seen = self.seen[:]
        s.event = self.event[:]
        s.event_deck = self.event_deck[:]
        s.events_done = self.events_done[:]
        s.current = self.current
        s.turn = self.turn
        s.used = self.used
        s.gained = self.gained
        s.played = self.played
        s.last_played = self.last_played
        s.chain = self.chain
        s.ending = self.ending
        self.copy_machine(s)
        return s

    # --- what the engine asks of a game (see :mod:`ankh.core.kernel`) ------------------

    def known_answer(self, req: Any) -> Any:
        """The answer to a request for cards this engine already knows (a card
        shown, dealt or passed whose identity it holds), else None: dice and
        random picks are never known."""
        t = type(req)
        if t is PassCard:
            return self.card[req.handle]
        if t is RollDie or t is PickRandom:
            return None
        deck = self.card if req.deck == "player" else self.pers if req.deck == "personality" else self.event
        ids = tuple([deck[h] for h in req.handles])
        return None if None in ids else ids

    def checked_answer(self, req: Any, answer: Any) -> Any:
        return check_answer(self, req, answer)

    # --- board queries --------------------------------------------------------------------

    def add_minions(self, a: int, p: int, k: int) -> None:
        """``k`` more (or fewer) of seat ``p``'s minions in area ``a``."""
        row = self.minions[a]
        self.minions[a] = row[:p] + (row[p] + k,) + row[p + 1:]

    def sees(self, p: int, h: int) -> bool:
        """Whether seat ``p`` has seen player card ``h``."""
        return self.seen[p] >> h & 1 == 1

    def sees_personality(self, p: int, h: int) -> bool:
        """Whether seat ``p`` has seen personality card ``h``."""
        return self.pers_seen[p] >> h & 1 == 1

    def minion_total(self, a: int) -> int:
        return sum(self.minions[a]) + self.trolls[a] + self.demons[a]

    def on_board(self, p: int) -> int:
        return MINIONS_PER_PLAYER - self.supply[p]

    def own_areas(self, p: int) -> list[int]:
        return [a for a in range(NUM_AREAS) if self.minions[a][p]]

    def placement_areas(self, p: int) -> set[int]:
        """Areas where ``p`` may place a minion under the normal rule."""
        own = self.own_areas(p)
        if not own:
            return set(range(NUM_AREAS))
        out = set(own)
        for a in own:
            out |= ADJ[a]
        return out

    def trouble_count(self) -> int:
        return sum(self.trouble)

    def controls(self, p: int, a: int) -> bool:
        """Control (rulebook p.6): more pieces (minions + building) than every other
        single player and than the trolls there; never in an area with a demon."""
        if self.demons[a]:
            return False
        row = self.minions[a]
        b = self.building[a]
        mine = row[p] + (b == p)
        if mine <= self.trolls[a]:
            return False
        for q in range(self.players):
            if q != p and row[q] + (b == q) >= mine:
                return False
        return True

    def controller(self, a: int) -> int:
        for p in range(self.players):
            if self.controls(p, a):
                return p
        return NOBODY

    def pieces_of(self, who, a: int) -> int:
        if who == TROLL:
            return self.trolls[a]
        if who == DEMON:
            return self.demons[a]
        return self.minions[a][who]

    def buildings_on_board(self, p: int) -> list[int]:
        return [a for a in range(NUM_AREAS) if self.building[a] == p]

    def refill_need(self, p: int) -> int:
        return max(0, HAND_SIZE - len(self.hand[p]) - len(self.penalties[p]))

    def card_id(self, h: int) -> str | None:
        return self.card[h]

    def card_data(self, h: int) -> dict | None:
        cid = self.card[h]
        return CARD[cid] if cid is not None else None

    def all_card_handles(self) -> list[int]:
        """Every player-card handle by location (for accounting checks)."""
        out = list(self.draw) + list(self.discard) + list(self.in_play)
        for p in range(self.players):
            out += [*self.hand[p], *self.loans[p], *self.penalties[p]]
        return out

    def card_ids_unknown(self, p: int) -> bool:
        """True when this engine cannot see some card in ``p``'s hand."""
        return any(self.card[h] is None for h in self.hand[p])


def handles(mask: int) -> list[int]:
    """The handles in a bitmask of handles (``State.seen``, ``State.pers_seen``)."""
    out = []
    h = 0
    while mask:
        if mask & 1:
            out.append(h)
        mask >>= 1
        h += 1
    return out


# --- checking the table's answers ------------------------------------------------------------------


def _check_card_id(s: State, deck: str, h: int, cid) -> None:
    if deck == "player":
        if cid not in CARD:
            raise MalformedAction(f"{cid!r} is not a player card")
        known = s.card[h]
        if known is not None and known != cid:
            raise IllegalAction(f"card #{h} is {known}, not {cid}")
        if known is None and cid in s.card:
            raise IllegalAction(f"{cid} is already card #{s.card.index(cid)}")
    elif deck == "personality":
        if cid not in personality_list(s.players):
            raise MalformedAction(f"{cid!r} is not a personality in this game")
        known = s.pers[h]
        if known is not None and known != cid:
            raise IllegalAction(f"personality #{h} is {known}, not {cid}")
        if cid in s.pers and s.pers.index(cid) != h:
            raise IllegalAction(f"{cid} is already personality #{s.pers.index(cid)}")
    elif deck == "event":
        if cid not in EVENT:
            raise MalformedAction(f"{cid!r} is not a random event")
        if cid in s.event and s.event.index(cid) != h:
            raise IllegalAction(f"{cid} was already drawn")


def check_answer(s: State, req, answer):
    """Validate a table answer against the pending request; return it normalised."""
    if isinstance(req, RollDie):
        if type(answer) is not int or not 1 <= answer <= 12:
            raise MalformedAction(f"a d12 roll is an int from 1 to 12, not {answer!r}")
        return answer
    if isinstance(req, PassCard):
        if answer is not None:
            _check_card_id(s, "player", req.handle, answer)
        return answer
    if isinstance(req, (DealCard, Reveal, ShowCards)):
        if not isinstance(answer, (tuple, list)) or len(answer) != len(req.handles):
            raise MalformedAction(f"expected {len(req.handles)} card ids, got {answer!r}")
        answer = tuple(answer)
        for h, cid in zip(req.handles, answer):
            if cid is None and not isinstance(req, Reveal):
                continue
            _check_card_id(s, req.deck, h, cid)
        return answer
    if isinstance(req, PickRandom):
        if not isinstance(answer, (tuple, list)) or len(answer) != req.k:
            raise MalformedAction(f"expected {req.k} picks, got {answer!r}")
        answer = tuple(answer)
        if len(set(answer)) != len(answer) or any(x not in req.items for x in answer):
            raise IllegalAction(f"{answer!r} is not {req.k} distinct items of {req.items!r}")
        return answer
    raise MalformedAction(f"unknown request {req!r}")
