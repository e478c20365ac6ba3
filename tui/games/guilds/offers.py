"""The rules' trades as the composer reads them: the offer on the table, the
answers to it, the offers made to you, and the one choice each key sends.

Counts are by kind: the five resources, then parchments (six numbers).
"""
from __future__ import annotations

from typing import NamedTuple

from ankh.tui.i18n import _

from .text import kind_name

KINDS = 6


class Offer(NamedTuple):
    """An offer made to you: ``seat`` gives ``give`` for your ``get``; ``choice`` takes it."""
    seat: int
    give: tuple[int, ...]
    get: tuple[int, ...]
    choice: tuple


class Answer(NamedTuple):
    seat: int
    verb: str                   # "accept", "decline", "counter"
    give: tuple[int, ...]       # a counter: what the answering seat would give
    get: tuple[int, ...]        # ... and take


class OnTable(NamedTuple):
    """The offer being negotiated: ``seat`` gives ``give`` for ``get`` to ``asked``."""
    seat: int
    give: tuple[int, ...]
    get: tuple[int, ...]
    asked: tuple[int, ...]
    answers: tuple[Answer, ...]

    @property
    def complete(self) -> bool:
        return len(self.answers) >= len(self.asked)


def one(kind: int, n: int) -> tuple[int, ...]:
    c = [0] * KINDS
    c[kind] = n
    return tuple(c)


def holding(view, seat: int) -> list[int]:
    """What ``seat`` holds by kind, as this view knows it."""
    return view.hand(seat) + [view.parch[seat]]


def on_table(view) -> OnTable | None:
    t = getattr(view, "trade", None)
    if t is None:
        return None
    p, gk, gn, wk, wn, asked, answers = t
    said = tuple(Answer(q, "accept", one(wk, wn), one(gk, gn)) if (k, n) == (wk, wn)
                 else Answer(q, "counter", one(k, n), one(gk, gn)) for q, k, n in answers)
    return OnTable(p, one(gk, gn), one(wk, wn), tuple(asked), said)


def made_to(view, d, me: int) -> list[Offer]:
    """The offers made to ``me`` that a key takes now: to the offerer, the
    acceptances and counters it may deal with; to an asked seat, the offer."""
    if d is None:
        return []
    if d.kind == "deal":
        return [Offer(o[1], one(o[2], o[3]), _giving(view), o) for o in d.options if o[0] == "deal"]
    asked = asked_offer(view, d, me)
    return [asked] if asked is not None else []


def _giving(view) -> tuple[int, ...]:
    t = on_table(view)
    return t.give if t is not None else (0,) * KINDS


def asked_offer(view, d, me: int) -> Offer | None:
    """The offer ``me`` is asked to answer, seen from ``me``: what the offerer gives, for what."""
    t = on_table(view)
    if d is None or d.kind != "answer" or t is None:
        return None
    return Offer(t.seat, t.give, t.get, ("accept",))


def composable(d) -> bool:
    return d is not None and (("trade",) in d.options or d.kind in ("answer", "deal")
                              or any(o[0] == "bank" for o in d.options))


def _single(counts) -> tuple[int, int] | None:
    """(kind, n) where ``counts`` are one or two cards of one kind."""
    kinds = [k for k in range(KINDS) if counts[k]]
    return (kinds[0], counts[kinds[0]]) if len(kinds) == 1 and counts[kinds[0]] <= 2 else None


def offer_problem(give, get) -> str | None:
    """Why ``give`` for ``get`` is not an offer the rules take (None: it is)."""
    if _single(give) is None or _single(get) is None:
        return _("An offer is one or two cards of one kind for one or two of another.")
    return None


def offer_choices(d, give, get, to) -> list[tuple] | None:
    """The choices that make the offer: the menu's trade, then the offer."""
    g, w = _single(give), _single(get)
    if d is None or ("trade",) not in d.options or g is None or w is None:
        return None
    return [("trade",), ("give", *g), ("want", *w), ("to-all",) if to is None else ("to", to)]


def counter_choices(d, give, get) -> list[tuple] | None:
    w = _single(give)
    option = ("counter", *w) if w is not None else None
    return [option] if d is not None and option in d.options else None


def bank_choices(d, give, get) -> list[tuple] | None:
    gk = [k for k in range(KINDS) if give[k]]
    wk = [k for k in range(KINDS) if get[k]]
    if len(gk) != 1 or len(wk) != 1 or get[wk[0]] != 1:
        return None
    option = ("bank", gk[0], wk[0])
    return [option] if option in d.options else None


def bank_problem(view, me: int, give, get) -> str | None:
    """Why ``give`` for ``get`` is not a bank trade at your rates (None: it is)."""
    gk = [k for k in range(KINDS) if give[k]]
    wk = [k for k in range(KINDS) if get[k]]
    if KINDS - 1 in gk + wk:
        return _("The bank trades resources, not parchments.")
    if len(gk) != 1 or len(wk) != 1 or get[wk[0]] != 1:
        return _("The bank gives one card for your rate of one kind.")
    rate = view.rate(me, gk[0])
    if give[gk[0]] != rate:
        return _("Your rate for {kind} is {n}:1.").format(kind=kind_name(gk[0]), n=rate)
    return None


def verb_choices(d, verb: str) -> list[tuple] | None:
    """``accept``, ``decline``, ``cancel``: where the decision has it."""
    option = (verb,)
    return [option] if d is not None and option in d.options else None
