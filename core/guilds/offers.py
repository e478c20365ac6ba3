"""Trade offers between players as moves: the cards of each side as a short
text (``"2b1w"``: two brick, one wool), the whole offer one move
``("offer", give, want, to)``, a counter ``("counter", give, want)`` from
the answering seat's side, and :class:`OfferSpace`, the compact description
of every offer or counter a decision allows (too many to list as options).

A move travels as a list of at most eight ints and short strings, so the
cards of a side are a text, never a nested tuple.  This module is plain
Python (not compiled): it is read once per move, never in a playout's hot
loop.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

from ..game import MalformedAction

#: The letter of each kind in a cards text: brick, lumber, wool, grain, ore, parchment.
LETTERS = "blwgop"
KIND_COUNT = 6
#: ``to`` of an offer made to every other seat.
TO_ALL = -1
#: The most cards of one kind a side may name (more than the game holds).
MOST = 99

#: Why an offer or counter is refused (English keys an interface may translate).
PROBLEMS = (
    "nothing given", "nothing asked", "a kind on both sides", "more than you hold",
    "more than they hold", "no such seat", "same as accepting", "not your offer to make",
    "not an offer",
)

NONE6 = (0, 0, 0, 0, 0, 0)


def cards_text(counts: Sequence[int]) -> str:
    """Six counts by kind as a cards text (``(2, 0, 1, 0, 0, 0)`` -> ``"2b1w"``)."""
    return "".join(f"{n}{LETTERS[k]}" for k, n in enumerate(counts) if n)


def cards_of(text: object) -> tuple[int, ...]:
    """The six counts a cards text names; :class:`MalformedAction` unless it is
    written as :func:`cards_text` writes it."""
    if type(text) is not str or not text or len(text) > 24:
        raise MalformedAction(f"not a cards text: {text!r}")
    counts = [0] * KIND_COUNT
    num = ""
    last = -1
    for ch in text:
        if "0" <= ch <= "9":
            num += ch
            continue
        k = LETTERS.find(ch)
        if k <= last or not num or num[0] == "0" or len(num) > 2:
            raise MalformedAction(f"not a cards text: {text!r}")
        counts[k] = int(num)
        num = ""
        last = k
    if num:
        raise MalformedAction(f"not a cards text: {text!r}")
    return tuple(counts)


def offer_option(give: Sequence[int], want: Sequence[int], to: int) -> tuple:
    """The move that offers ``give`` for ``want`` (six counts each) to seat
    ``to`` or to every other seat (:data:`TO_ALL`)."""
    return ("offer", cards_text(give), cards_text(want), to)


def counter_option(give: Sequence[int], want: Sequence[int]) -> tuple:
    """The move that answers an offer with other terms, from the answering
    seat's side: what it gives, what it asks in return."""
    return ("counter", cards_text(give), cards_text(want))


def offer_terms(option: tuple) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """``(give, want, to)`` of an offer (``to`` is -1 for every seat), or of
    a counter (``to`` is -1 too: it answers the offerer); MalformedAction if
    the option is neither."""
    if not option or option[0] not in ("offer", "counter") \
            or len(option) != (4 if option[0] == "offer" else 3):
        raise MalformedAction(f"not an offer: {option!r}")
    to = option[3] if option[0] == "offer" else TO_ALL
    if type(to) is not int:
        raise MalformedAction(f"an offer is made to a seat, not {to!r}")
    return cards_of(option[1]), cards_of(option[2]), to


class OfferSpace(NamedTuple):
    """Every offer (``verb == "offer"``) or counter (``"counter"``) that a
    decision allows, besides its listed options.

    ``have``: the most of each kind ``seat`` may give (as its engine knows
    its hand); ``other``: for a counter, the most the offerer may give;
    ``seats``: the seats an offer may name; ``rates``: the seat's bank rate
    per resource (a screen offers bank trades beside player trades);
    ``terms``: for a counter, ``(offerer, give, want)`` of the offer
    answered; ``left``: offers left this turn."""
    seat: int
    verb: str
    have: tuple[int, ...]
    other: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()
    rates: tuple[int, ...] = ()
    terms: tuple = ()
    left: int = 0

    def problem(self, option: tuple) -> str | None:
        """None if ``option`` is allowed, else why not (one of :data:`PROBLEMS`)."""
        if not isinstance(option, tuple) or not option or option[0] != self.verb:
            return "not an offer"
        try:
            give, want, to = offer_terms(option)
        except MalformedAction:
            return "not an offer"
        return terms_problem(self, give, want, to)

    def allows(self, option: tuple) -> bool:
        return self.problem(option) is None


def terms_problem(space: OfferSpace, give: Sequence[int], want: Sequence[int], to: int) -> str | None:
    """Why ``give`` for ``want`` (to ``to``) is not allowed in ``space``, or None."""
    if len(give) != KIND_COUNT or len(want) != KIND_COUNT:
        return "not an offer"
    if not any(give):
        return "nothing given"
    if not any(want):
        return "nothing asked"
    for k in range(KIND_COUNT):
        if give[k] < 0 or want[k] < 0 or give[k] > MOST or want[k] > MOST:
            return "not an offer"
        if give[k] and want[k]:
            return "a kind on both sides"
        if give[k] > space.have[k]:
            return "more than you hold"
        if space.other and want[k] > space.other[k]:
            return "more than they hold"
    if space.verb == "offer":
        if to != TO_ALL and to not in space.seats:
            return "no such seat"
    else:
        _, ogive, owant = space.terms
        if tuple(give) == tuple(owant) and tuple(want) == tuple(ogive):
            return "same as accepting"
    return None


def check_offer(view, give: Sequence[int], want: Sequence[int], to: int = TO_ALL) -> str | None:
    """What a screen asks before it sends an offer (or, at an answer, a
    counter: ``give`` and ``want`` from the answering seat's side): None if
    the pending decision of ``view`` allows it, else why not."""
    d = getattr(view, "pending", None)
    space = getattr(d, "space", None)
    if not isinstance(space, OfferSpace):
        return "not your offer to make"
    return terms_problem(space, give, want, to)


def net(gets: Sequence[int], gives: Sequence[int]) -> list[int]:
    """What a trade changes in a hand: ``gets`` less ``gives``, kind by kind."""
    return [a - b for a, b in zip(gets, gives)]


def card_sets(most, cap: int) -> list[tuple[int, ...]]:
    """Every non-empty set of at most ``cap`` cards, ``most[k]`` at most of kind ``k`` (six kinds)."""
    out: list[tuple[int, ...]] = []
    cur = [0] * 6

    def fill(k: int, n: int) -> None:
        if k == 6:
            if n:
                out.append(tuple(cur))
            return
        for c in range(min(most[k], cap - n) + 1):
            cur[k] = c
            fill(k + 1, n + c)
        cur[k] = 0
    fill(0, 0)
    return out


class CounterMemory:
    """The counters a seat made this turn, each with the offer it answered:
    the same offer made again (taken back, then offered once more) is not
    answered with the counter its offerer already passed over."""

    def __init__(self) -> None:
        self.turn = -1
        self.made: set[tuple] = set()

    def _key(self, s, option) -> tuple:
        if self.turn != s.turn:
            self.turn, self.made = s.turn, set()
        return (s.trade[0], tuple(s.trade[1]), tuple(s.trade[2]), option)

    def fresh(self, s, option) -> bool:
        """Whether ``option`` is anything but a counter already made to this offer."""
        return option[0] != "counter" or self._key(s, option) not in self.made

    def settle(self, s, option) -> tuple:
        """The choice made: ``option``, or a decline for a counter made before to
        this offer (the counter then remembered)."""
        if option[0] != "counter":
            return option
        key = self._key(s, option)
        if key in self.made:
            return ("decline",)
        self.made.add(key)
        return option
