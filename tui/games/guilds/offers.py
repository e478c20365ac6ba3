"""The rules' trades as the composer reads them: the offer on the table, the
answers to it, the offers made to you, and the one choice each key sends
(:mod:`ankh.core.guilds.offers` makes and checks the moves; a whole offer,
or a counter, is one move).

Counts are by kind: the five resources, then parchments (six numbers).
"""
from __future__ import annotations

from typing import NamedTuple

from ankh.core.game import allows
from ankh.core.guilds import offers as rules
from ankh.tui.i18n import N_, _

from .text import kind_name

KINDS = 6

# The rules' reasons an offer is refused (``rules.PROBLEMS``), in words.
PROBLEMS = {
    "nothing given": N_("Give at least one card and ask for at least one."),
    "nothing asked": N_("Give at least one card and ask for at least one."),
    "a kind on both sides": N_("A kind cannot be on both sides."),
    "more than you hold": N_("You do not hold that many."),
    "more than they hold": N_("They do not hold that many."),
    "no such seat": N_("That seat cannot be asked."),
    "same as accepting": N_("That is the offer as it stands: a accepts it."),
    "not your offer to make": N_("Wait for your turn to decide."),
    "not an offer": N_("That trade cannot be offered now."),
}


class Offer(NamedTuple):
    """An offer made to you: ``seat`` gives ``give`` for your ``get``; ``choice`` takes it."""
    seat: int
    give: tuple[int, ...]
    get: tuple[int, ...]
    choice: tuple


class OnTable(NamedTuple):
    """The offer being negotiated: ``seat`` gives ``give`` for ``get`` to ``asked``;
    ``answers``: (seat, what it gives, what it gets) of those who accepted or countered."""
    seat: int
    give: tuple[int, ...]
    get: tuple[int, ...]
    asked: tuple[int, ...]
    answers: tuple


def holding(view, seat: int) -> list[int]:
    """What ``seat`` holds by kind, as this view knows it."""
    return view.hand(seat) + [view.parch[seat]]


def on_table(view) -> OnTable | None:
    t = getattr(view, "trade", None)
    if t is None:
        return None
    p, give, want, asked, answers = t
    return OnTable(p, tuple(give), tuple(want), tuple(asked), tuple(answers))


def made_to(view, d, me: int) -> list[Offer]:
    """The offers made to ``me`` that a key takes now: to the offerer, the
    acceptances and counters it may deal with; to an asked seat, the offer."""
    if d is None:
        return []
    if d.kind == "deal":
        t = on_table(view)
        said = {q: (tuple(g), tuple(w)) for q, g, w in (t.answers if t is not None else ())}
        return [Offer(o[1], *said[o[1]], o) for o in d.options if o[0] == "deal" and o[1] in said]
    asked = asked_offer(view, d, me)
    return [asked] if asked is not None else []


def asked_offer(view, d, me: int) -> Offer | None:
    """The offer ``me`` is asked to answer: what the offerer gives, for what."""
    space = _space(d, "counter")
    if d is None or d.kind != "answer" or space is None:
        return None
    offerer, give, want = space.terms
    return Offer(offerer, tuple(give), tuple(want), ("accept",))


def _space(d, verb: str):
    space = getattr(d, "space", None) if d is not None else None
    return space if space is not None and space.verb == verb else None


def composable(d) -> bool:
    """Whether the composer has something to send at decision ``d``."""
    return d is not None and (_space(d, "offer") is not None or d.kind in ("answer", "deal")
                              or any(o[0] == "bank" for o in d.options))


def offer_move(d, give, get, to) -> tuple | None:
    """The move for the counts: an offer (``to``: a seat, None for everybody) or, asked, a counter."""
    if _space(d, "offer") is not None:
        return rules.offer_option(give, get, rules.TO_ALL if to is None else to)
    if _space(d, "counter") is not None:
        return rules.counter_option(give, get)
    return None


def offer_problem(d, give, get, to) -> str | None:
    """Why the rules refuse ``give`` for ``get`` now, in words (None: they take it)."""
    move = offer_move(d, give, get, to)
    if move is None:
        return _not_now(d)
    why = d.space.problem(move)
    return None if why is None else _(PROBLEMS.get(why, why))


def _not_now(d) -> str | None:
    """Why no offer can be sent at your decision ``d`` (None: it is not yours)."""
    if d is None:
        return None
    if d.kind == "action":      # your turn's trades, the bound on offers reached
        return _("No more offers to the players this turn; the bank still trades (p).")
    if d.kind == "deal":
        return _("Answers came: deal with one of them (1–9), or cancel the offer (x).")
    return _("The game asks you something else now: Esc, then answer it.")   # a 7, a guild point…


def offer_choices(d, give, get, to) -> list[tuple] | None:
    """The offer (or counter) as one move, where the rules take it."""
    move = offer_move(d, give, get, to)
    return [move] if move is not None and allows(d, move) else None


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
