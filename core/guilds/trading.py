"""Trading between players in phase C (R30: base domestic trade).  The
active seat offers any cards (resources and parchments) for any cards, to
one seat or to all, as one move ``("offer", give, want, to)``
(:mod:`.offers`); each asked seat declines, accepts, or counters with other
terms; the offerer deals with one who accepted or countered, or cancels;
the exchange follows once both seats' hidden cards are settled.  At most
:data:`MAX_OFFERS` offers a turn, so every turn ends.
"""
from __future__ import annotations

from itertools import combinations

from ..game import COLOURS, IllegalAction, Reveal, fast_new
from .board import KINDS, PARCHMENT, RESOURCES
from .state import State
from .pieces import covers, settle
from .offers import MOST, NONE6, TO_ALL, OfferSpace, cards_of, offer_terms, terms_problem


MAX_OFFERS = 3          # trade offers per turn (ours: keeps every turn finite)

# s.trade = (offerer, give, want, asked seats, answers): give and want six
# counts by kind, answers a tuple of (seat, gives, wants) from the answering
# seat's side (an accept is the offer's terms the other way round).
O_ACCEPT = ("accept",)
O_DECLINE = ("decline",)
O_CANCEL = ("cancel",)
ANY = (MOST,) * 6       # no bound on what a seat holds (checked when it pays)


def holdings(s: State, p: int) -> list[int]:
    """What ``p`` may trade, by kind: its resources (as this engine knows
    them) and its parchments."""
    h = s.hand(p)
    h.append(s.parch[p])
    return h


def offer_space(s: State, p: int) -> OfferSpace | None:
    """The offers ``p`` may make now (None: none, the bound is reached or it holds nothing)."""
    if s.offers >= MAX_OFFERS or not (s.parch[p] or s.hand_size(p)):
        return None
    n = s.players
    return OfferSpace(p, "offer", tuple(holdings(s, p)), (),
                      tuple([(p + i) % n for i in range(1, n)]),
                      tuple([s.rate(p, r) for r in range(5)]), (), MAX_OFFERS - s.offers)


def cards_words(counts) -> str:
    """Cards as the log and the notation say them: ``2 brick 1 wool``."""
    return " ".join([f"{n} {KINDS[k]}" for k, n in enumerate(counts) if n])


def make_offer(s: State, p: int, opt: tuple) -> None:
    """The active seat's offer (``opt`` an ``offer`` move): asks each seat named."""
    space = offer_space(s, p)
    give, want, to = offer_terms(opt)
    # (the decision checked the move; what the seat holds is checked again when it pays,
    # where a hidden card it claimed names it)
    why = "no more offers this turn" if space is None else terms_problem(space._replace(have=ANY), give, want, to)
    if why is not None:
        raise IllegalAction(f"no such offer: {why}")
    s.offers += 1
    n = s.players
    asked: list[int] = [to] if to != TO_ALL else [(p + i) % n for i in range(1, n)]
    # a tuple, never changed in place: copies of the state (bots exploring) share it
    s.trade = (p, give, want, tuple(asked), ())
    s.log("offer", p, f"{COLOURS[p]} offers {cards_words(give)} for {cards_words(want)} to "
          + (COLOURS[asked[0]] if to != TO_ALL else "all"),
          give=list(give), want=list(want), to=None if to == TO_ALL else to)
    s.push(t_trade_choose)
    for q in reversed(asked):
        s.push(t_trade_answer, q)


def counter_space(s: State, q: int) -> OfferSpace:
    p, give, want, asked, answers = s.trade
    return OfferSpace(q, "counter", tuple(holdings(s, q)), tuple(holdings(s, p)), (p,), (),
                      (p, give, want), 0)


def t_trade_answer(s: State, q: int) -> None:
    p, give, want, asked, answers = s.trade
    have = holdings(s, q)
    opts: list[tuple] = [O_DECLINE]
    if all([have[k] >= want[k] for k in range(6)]):
        opts.append(O_ACCEPT)
    s.ask_space(counter_space(s, q), q, "answer", opts,
                f"{COLOURS[p]} offers {cards_words(give)} for {cards_words(want)}",
                r_trade_answer, q)


def r_trade_answer(s: State, opt, q: int) -> None:
    verb = opt[0]
    t = s.trade
    p, give, want = t[0], t[1], t[2]
    if verb == "accept":
        s.trade = t[:4] + (t[4] + ((q, want, give),),)
        s.log("answer", q, f"{COLOURS[q]} accepts", answer="accept", give=list(want), want=list(give))
    elif verb == "counter":
        cg, cw = cards_of(opt[1]), cards_of(opt[2])
        why = terms_problem(counter_space(s, q)._replace(have=ANY), cg, cw, TO_ALL)
        if why is not None:
            raise IllegalAction(f"no such counter: {why}")
        s.trade = t[:4] + (t[4] + ((q, cg, cw),),)
        s.log("answer", q, f"{COLOURS[q]} offers {cards_words(cg)} for {cards_words(cw)} instead",
              answer="counter", give=list(cg), want=list(cw))
    else:
        s.log("answer", q, f"{COLOURS[q]} declines", answer="decline", give=list(NONE6),
              want=list(NONE6))


def t_trade_choose(s: State) -> None:
    p = s.trade[0]
    deals = s.trade[4]
    if not deals:
        s.trade = None
        return
    have = holdings(s, p)
    # (what it cannot pay is no deal: its own rules know its cards)
    opts: list[tuple] = [("deal", d[0]) for d in deals
                         if all([have[k] >= d[2][k] for k in range(6)])]
    opts.append(O_CANCEL)
    s.ask(p, "deal", opts, "trade with whom?", r_trade_choose, p)


def r_trade_choose(s: State, opt, p: int) -> None:
    if opt[0] == "cancel":
        s.trade = None
        s.log("cancel", p, f"{COLOURS[p]} takes the offer back")
        return
    q = opt[1]
    qgives: tuple = NONE6
    qwants: tuple = NONE6
    for d in s.trade[4]:
        if d[0] == q:
            qgives, qwants = d[1], d[2]
    s.trade = None
    s.push(t_trade_exec, p, q, qwants, qgives)
    s.push(t_show_spent, q, resource_cost(qgives))
    t_show_spent(s, p, resource_cost(qwants))


# --- the hidden cards a side pays with: shown one by one, only those spent ----------------

MAX_SHOWN = 7           # handles a move can name (a move is at most eight words)


def t_show_spent(s: State, p: int, cost: tuple) -> None:
    """Before ``p`` pays ``cost`` in a trade: where its face-up cards fall
    short, it shows just the hidden cards it spends (each with its proof at a
    networked table), not its whole hidden hand.  It chooses them: its own
    rules know its hidden cards and offer the one choice that pays; any other
    seat's rules allow any choice of as many (so every seat but the payer
    judges the move alike), and a choice that does not pay is refused, naming
    ``p``, when the cards are shown."""
    hid = s.hid[p]
    if not hid or covers(s, p, cost):
        return
    b = p * 5
    short = [max(0, cost[r] - s.res[b + r]) for r in range(5)]
    k = short[0] + short[1] + short[2] + short[3] + short[4]
    if k >= len(hid) or k > MAX_SHOWN:
        settle(s, p, cost)
        return
    kinds = [s.rcard.get(h) for h in hid]
    opts: list[tuple] = []
    if None not in kinds:
        pick: list[int] = []
        for r in range(5):
            n = short[r]
            for h, c in zip(hid, kinds):
                if n and c == r:
                    pick.append(h)
                    n -= 1
        for h in hid:               # it cannot pay: it shows as many, which name it (every
            if len(pick) < k and h not in pick:     # seat's rules take this same path)
                pick.append(h)
        opts.append(("show-hidden",) + tuple(sorted(pick)))
    else:
        opts = [("show-hidden",) + c for c in combinations(hid, k)]
    s.ask(p, "show-hidden", opts, "show the hidden cards you pay with", r_show_spent, p)


def r_show_spent(s: State, opt, p: int) -> None:
    shown = tuple(opt[1:])
    s.request(fast_new(Reveal, ("res", shown)), r_shown_spent, p, shown)


def r_shown_spent(s: State, ids, p: int, shown: tuple) -> None:
    b = p * 5
    for h, c in zip(shown, ids):
        s.res[b + c] += 1
        del s.rcard[h]
        s.rfrom.pop(h, None)
    s.hid[p] = tuple([h for h in s.hid[p] if h not in shown])


def resource_cost(counts) -> tuple[int, ...]:
    """The resource cards a side of a trade pays (its parchments are not cards)."""
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def move_cards(s: State, a: int, b: int, counts) -> None:
    """``a`` gives ``b`` the cards ``counts`` (six counts by kind)."""
    for k in range(6):
        n = counts[k]
        if not n:
            continue
        if k == PARCHMENT:
            if s.parch[a] < n:
                raise IllegalAction(f"{COLOURS[a]} has too few parchments", a)
        elif s.res[a * 5 + k] < n:
            raise IllegalAction(f"{COLOURS[a]} has too few {RESOURCES[k]}", a)
    for k in range(6):
        n = counts[k]
        if k == PARCHMENT:
            s.parch[a] -= n
            s.parch[b] += n
        else:
            s.res[a * 5 + k] -= n
            s.res[b * 5 + k] += n


def kinds_bits(counts) -> int:
    """The kinds of a side of a trade as bits (kind ``k`` is ``1 << k``)."""
    return sum([1 << k for k in range(6) if counts[k]])


def t_trade_exec(s: State, p: int, q: int, give, want) -> None:
    move_cards(s, p, q, give)
    move_cards(s, q, p, want)
    gave = list(s.gave)
    gave[p] |= kinds_bits(give)
    gave[q] |= kinds_bits(want)
    s.gave = tuple(gave)
    s.log("trade", p, f"{COLOURS[p]} gives {cards_words(give)} to {COLOURS[q]} for {cards_words(want)}",
          other=q, give=list(give), want=list(want))
