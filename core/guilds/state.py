"""The state of a guild-variant game: flat lists and tuples that copy cheaply,
on the engine every game runs on (:mod:`ankh.core.kernel`).

A state is changed in place by :meth:`State.choose` (a seat's decision) and
:meth:`State.fulfil` (a table's answer to a request); :meth:`State.copy` is
cheap, so bots copy before they explore.

Hands (see docs/guilds.md, "Hidden cards"): ``res[p*5 + r]`` are seat p's
public resource cards; ``hid[p]`` its *hidden handles*, cards whose kind the
public does not know.  A random steal takes every card of the victim's hand
(public and hidden) into the steal: the card taken becomes a hidden handle
of the thief, the others hidden handles of the victim, in an order only the
victim knows.  ``rcard[h]`` is a hidden handle's resource where this engine
may know it (its holder's, a table's that sees all), else None: the victim's
seat knows the card it lost, but its rules judge the thief's hand as every
other seat's do.  A seat's hand is ``res + hid``; its size is
public.  Before a seat pays or shows cards, the engine asks a
:class:`Reveal` of all its handles and folds them back into the public
counts (``settle``).
"""
from __future__ import annotations

from typing import Any, Final

from .. import kernel
from ..game import DealCard, IllegalAction, MalformedAction, PickRandom, Reveal, RollDie, ShowCards, StealRandom
from ..kernel import Machine
from .board import (
    BANK_START, DEV_IDS, FOUNDATIONS, HOUSES, NUM_VERTICES, SHADES_SPOT, TRACK_START, TRACK_BIT,
    VILLAS, DISTRICT_VERTICES, D_THIEVES,
)

EMPTY: Final = -1
FOUNDATION, HOUSE, VILLA = 0, 1, 2
PIECE_NAMES: Final = ("foundation", "house", "villa")
NO_RANK, CAPTAIN, LIEUTENANT = 0, 1, 2
RANK_NAMES: Final = ("none", "captain", "lieutenant")
RANK_VP: Final = (0, 2, 1)
SETUP, PHASE_A, PHASE_B, PHASE_C = "setup", "A", "B", "C"

# The game's attributes of a state (its ``__slots__``), beside the engine's.
SLOTS: Final = (
    "players", "occ", "sup", "res", "bank", "gp", "pres", "lock", "parch", "rcpt",
    "dev", "dcard", "dturn", "dtop", "gup", "arrests", "rank", "vshown",
    "hid", "rcard", "rfrom", "rnext",
    "robber", "fire", "track", "first", "third", "active", "turn", "phase",
    "fixed", "guard_played", "pacts", "bought", "arrested", "offers", "gave", "trade", "palace",
)
# Every attribute of a state (a compiled build has no ``__slots__`` attribute).
FIELDS: Final = kernel.FIELDS + SLOTS


class State(Machine):
    """The game's state; its engine (``stack``, ``pending``, ``choose``,
    ``fulfil`` ...) is :class:`~ankh.core.kernel.Machine`'s."""
    __slots__ = SLOTS
    players: int
    occ: list[int]              # per vertex: EMPTY or seat*3 + piece
    sup: list[int]              # seat*3 + piece: pieces still in supply
    res: list[int]              # seat*5 + resource: public resource cards
    bank: list[int]             # per resource
    gp: list[int]               # seat*5 + guild: guild points
    pres: list[int]             # per guild: president seat or -1
    lock: list[bool]            # per guild
    parch: list[int]            # per seat
    rcpt: list[int]             # per seat: receipts face up (0..2)
    dev: list[tuple[int, ...]]  # per seat: development-token handles held, unplayed
    dcard: list[Any]            # per handle (position in the shuffled stack): id or None
    dturn: list[int]            # per handle: the turn it was acquired
    dtop: int                   # the next handle to deal
    gup: list[int]              # per seat: uncovered face-up guards
    arrests: list[int]          # per seat: guard + assassin pairs
    rank: list[int]             # per seat
    vshown: list[int]           # per seat: Vetinari tokens revealed
    hid: list[tuple[int, ...]]  # per seat: hidden resource handles held
    rcard: dict[int, Any]       # hidden resource handle -> resource index or None
    rfrom: dict[int, int]       # a stolen card's hidden handle -> the victim (public)
    rnext: int                  # the next fresh hidden handle
    robber: int                 # a token index or SHADES_SPOT
    fire: bool
    track: int                  # bitmask of the assassin track (board.TRACK order)
    first: int
    third: list[int]            # per seat: vertex of the third setup house (or -1)
    active: int
    turn: int                   # 0 during setup
    phase: str
    fixed: int                  # a total chosen with parchments this turn, else 0
    guard_played: bool
    pacts: int                  # parchment actions this turn
    bought: tuple[int, ...]     # guild points bought this turn, per guild
    arrested: bool
    offers: int                 # trade offers made this turn
    gave: tuple[int, ...]       # per seat: the kinds it gave away in trades this turn (bits)
    trade: Any                  # the trade being negotiated (a tuple, see trading.py)
    palace: list[tuple[int, int]]  # Palace choices of the running resolution

    def __init__(self) -> None:
        """An empty state, filled by :meth:`blank` or :meth:`copy`."""

    @classmethod
    def blank(cls, players: int) -> "State":
        if players not in (3, 4):
            raise MalformedAction(f"the guild game is for 3 or 4 players, not {players}")
        s = cls()
        n = s.players = players
        s.occ = [EMPTY] * NUM_VERTICES
        s.sup = [FOUNDATIONS, HOUSES, VILLAS] * n
        s.res = [0] * (5 * n)
        s.bank = [BANK_START] * 5
        s.gp = [0] * (5 * n)
        s.pres = [-1] * 5
        s.lock = [False] * 5
        s.parch = [0] * n
        s.rcpt = [2] * n
        s.dev = [()] * n
        s.dcard = [None] * len(DEV_IDS)
        s.dturn = [0] * len(DEV_IDS)
        s.dtop = 0
        s.gup = [0] * n
        s.arrests = [0] * n
        s.rank = [NO_RANK] * n
        s.vshown = [0] * n
        s.hid = [()] * n
        s.rcard = {}
        s.rfrom = {}
        s.rnext = 0
        s.robber = SHADES_SPOT
        s.fire = False
        s.track = sum(TRACK_BIT[t] for t in TRACK_START)
        s.first = 0
        s.third = [-1] * n
        s.active = 0
        s.turn = 0
        s.phase = SETUP
        s.fixed = 0
        s.guard_played = False
        s.pacts = 0
        s.bought = (0,) * 5
        s.arrested = False
        s.offers = 0
        s.gave = (0,) * n
        s.trade = None
        s.palace = []
        s.start_machine()
        return s

    def copy(self) -> "State":
        s = State()
        s.players = self.players
        s.occ = self.occ[:]
        s.sup = self.sup[:]
        s.res = self.res[:]
        s.bank = self.bank[:]
        s.gp = self.gp[:]
        s.pres = self.pres[:]
        s.lock = self.lock[:]
        s.parch = self.parch[:]
        s.rcpt = self.rcpt[:]
        s.dev = self.dev[:]
        s.dcard = self.dcard[:]
        s.dturn = self.dturn[:]
        s.dtop = self.dtop
        s.gup = self.gup[:]
        s.arrests = self.arrests[:]
        s.rank = self.rank[:]
        s.vshown = self.vshown[:]
        s.hid = self.hid[:]
        s.rcard = self.rcard.copy()
        s.rfrom = self.rfrom.copy()
        s.rnext = self.rnext
        s.robber = self.robber
        s.fire = self.fire
        s.track = self.track
        s.first = self.first
        s.third = self.third[:]
        s.active = self.active
        s.turn = self.turn
        s.phase = self.phase
        s.fixed = self.fixed
        s.guard_played = self.guard_played
        s.pacts = self.pacts
        s.bought = self.bought
        s.arrested = self.arrested
        s.offers = self.offers
        s.gave = self.gave
        s.trade = None if self.trade is None else self.trade[:]   # answers are written into it
        s.palace = self.palace[:]
        self.copy_machine(s)
        return s

    # --- what the engine asks of a game (see :mod:`ankh.core.kernel`) ------------------

    def known_answer(self, req: Any) -> Any:
        """The answer to a reveal this engine already knows, else None."""
        if type(req) is Reveal:
            table = self.dcard if req.deck == "dev" else self.rcard
            ids = tuple([table[h] for h in req.handles])
            return None if None in ids else ids
        if type(req) is ShowCards:
            ids = tuple([self.rcard[h] for h in req.handles])
            return None if None in ids else ids
        if type(req) is DealCard:
            ids = tuple([self.dcard[h] for h in req.handles])
            return None if None in ids else ids
        return None

    def checked_answer(self, req: Any, answer: Any) -> Any:
        return check_answer(self, req, answer)

    # --- queries ----------------------------------------------------------------------

    @property
    def current(self) -> int:
        """The seat whose turn it is (the platform's name for it)."""
        return self.active

    def hand_size(self, p: int) -> int:
        """Resource cards in ``p``'s hand (public: every engine agrees)."""
        b = p * 5
        r = self.res
        return r[b] + r[b + 1] + r[b + 2] + r[b + 3] + r[b + 4] + len(self.hid[p])

    def hand(self, p: int) -> list[int]:
        """``p``'s resource cards by kind as this engine knows them: hidden
        handles it cannot see count as possibly any kind (an upper bound)."""
        b = p * 5
        out = self.res[b:b + 5]
        if self.hid[p]:
            unknown = 0
            for h in self.hid[p]:
                c = self.rcard[h]
                if c is None:
                    unknown += 1
                else:
                    out[c] += 1
            if unknown:
                out = [x + unknown for x in out]
        return out

    def true_hand(self, p: int) -> list[int]:
        """``p``'s resource cards by kind where this engine knows every hidden
        handle of ``p`` (a table that sees all, a determinized world)."""
        b = p * 5
        out = self.res[b:b + 5]
        rc = self.rcard
        for h in self.hid[p]:
            out[rc[h]] += 1
        return out

    def memberships(self, p: int) -> int:
        b = p * 5
        g = self.gp
        return (g[b] >= 3) + (g[b + 1] >= 3) + (g[b + 2] >= 3) + (g[b + 3] >= 3) + (g[b + 4] >= 3)

    def rate(self, p: int, r: int) -> int:
        if self.pres[r] == p:
            return 2
        return 3 if self.gp[p * 5 + r] >= 3 else 4

    def buildings(self, p: int) -> list[int]:
        lo, hi = p * 3 + HOUSE, p * 3 + VILLA
        return [v for v, o in enumerate(self.occ) if lo <= o <= hi]

    def thieves_count(self, p: int) -> int:
        lo, hi = p * 3 + HOUSE, p * 3 + VILLA
        occ = self.occ
        return sum(1 for v in DISTRICT_VERTICES[D_THIEVES] if lo <= occ[v] <= hi)

    def vp(self, p: int, hidden: int = 0) -> int:
        """Victory points everybody can count (plus ``hidden`` Vetinari tokens)."""
        houses = HOUSES - self.sup[p * 3 + HOUSE]
        villas = VILLAS - self.sup[p * 3 + VILLA]
        return (houses + 2 * villas + self.pres.count(p) + self.arrests[p] + RANK_VP[self.rank[p]]
                + self.vshown[p] + hidden)

    def known_vetinari(self, p: int) -> tuple[int, ...]:
        """Handles of ``p``'s Vetinari tokens that this engine can see."""
        dc = self.dcard
        return tuple(h for h in self.dev[p] if dc[h] is not None and dc[h][0] == "v")


# --- checking the table's answers --------------------------------------------------------------


def check_answer(s: State, req, answer):
    t = type(req)
    if t is RollDie:
        if req.dice == 1:
            if type(answer) is not int or not 1 <= answer <= req.sides:
                raise MalformedAction(f"a d{req.sides} roll is an int from 1 to {req.sides}, "
                                      f"not {answer!r}")
            return answer
        if (not isinstance(answer, (tuple, list)) or len(answer) != req.dice
                or any(type(x) is not int or not 1 <= x <= req.sides for x in answer)):
            raise MalformedAction(f"expected {req.dice} dice of 1..{req.sides}, not {answer!r}")
        return tuple(answer)
    if t is PickRandom:
        if not isinstance(answer, (tuple, list)) or len(answer) != req.k:
            raise MalformedAction(f"expected {req.k} picks, got {answer!r}")
        answer = tuple(answer)
        if len(set(answer)) != len(answer) or any(x not in req.items for x in answer):
            raise IllegalAction(f"{answer!r} is not {req.k} distinct items of {req.items!r}")
        return answer
    if t is StealRandom:
        if not isinstance(answer, (tuple, list)) or len(answer) != 2:
            raise MalformedAction(f"a steal is answered with (handle, card), not {answer!r}")
        h, card = answer
        if h not in req.handles:
            raise IllegalAction(f"#{h} is not one of the victim's cards")
        if card is not None and card not in range(5):
            raise MalformedAction(f"{card!r} is not a resource")
        return (h, card)
    if t is ShowCards:
        if (not isinstance(answer, (tuple, list)) or len(answer) != len(req.handles)
                or any(c is not None and c not in range(5) for c in answer)):
            raise MalformedAction(f"expected {len(req.handles)} resources or None, got {answer!r}")
        return tuple(answer)
    if t is DealCard or t is Reveal:
        if not isinstance(answer, (tuple, list)) or len(answer) != len(req.handles):
            raise MalformedAction(f"expected {len(req.handles)} ids, got {answer!r}")
        answer = tuple(answer)
        for h, cid in zip(req.handles, answer):
            if cid is None and t is DealCard:
                continue
            if req.deck == "dev":
                if cid not in DEV_IDS:
                    raise MalformedAction(f"{cid!r} is not a development token")
                known = s.dcard[h]
                if known is not None and known != cid:
                    raise IllegalAction(f"token #{h} is {known}, not {cid}")
                if known is None and cid in s.dcard:
                    raise IllegalAction(f"{cid} is already token #{s.dcard.index(cid)}")
            else:
                if cid not in range(5):
                    raise MalformedAction(f"{cid!r} is not a resource")
                known = s.rcard.get(h)
                if known is not None and known != cid:
                    raise IllegalAction(f"card #{h} is known to be another resource")
        return answer
    raise MalformedAction(f"unknown request {req!r}")
