"""The guild variant's option notation: an option as words (``place V09``,
``bank brick for ore``, ``robber GRAIN:6``, ``offer 2 brick 1 wool for 1 ore to all``), built from
its verb and typed arguments.  Parsing matches a text against the options of
the pending decision, or reads an offer and checks it against the decision's
space, so only legal options parse.
"""
from __future__ import annotations

from ..game import COLOURS, Decision, IllegalAction, MalformedAction, allows, space_of
from .offers import TO_ALL, OfferSpace, counter_option, offer_option, offer_terms
from .trading import cards_words
from .board import KINDS, RESOURCES, SPOT_IDS, SPOT_INDEX, V_INDEX, VERTEX_IDS

# verb -> (words, argument kinds): "r" resource, "k" kind (resource or parchment),
# "n" count, "v" vertex, "s" seat, "spot" robber spot, "t" total, "dev" token handle
VERBS: dict[str, tuple[str, tuple[str, ...]]] = {
    "place": ("place", ("v",)), "take": ("take", ("r",)), "roll": ("roll", ()),
    "fix": ("fix", ("t",)), "guard": ("guard", ("dev",)), "win": ("win", ()),
    "discard": ("discard", ("r",)), "robber": ("robber", ("spot",)), "rob": ("rob", ("s",)),
    "no-steal": ("no-steal", ()), "assassin": ("assassin", ("r", "r")), "pass": ("pass", ()),
    "show": ("show", ("r",)), "swap": ("swap", ("r",)), "keep": ("keep", ()),
    "gp": ("gp", ("r",)), "end": ("end", ()), "bank": ("bank", ("r", "for", "r")),
    "found": ("foundation", ("v",)), "house": ("house", ("v",)), "villa": ("villa", ("v",)),
    "dev": ("dev", ()), "p-card": ("parchments card", ("r",)), "p-dev": ("parchments dev", ()),
    "p-house": ("parchments house", ("v",)), "p-villa": ("parchments villa", ("v",)),
    "refresh": ("refresh", ("r",)), "promote": ("promote", ()),
    "cancel": ("cancel", ()), "accept": ("accept", ()), "decline": ("decline", ()),
    "deal": ("deal", ("s",)),
    # an offer and a counter name cards of several kinds: written by format_offer
    "offer": ("offer", ()), "counter": ("counter", ()),
    "show-hidden": ("show hidden", ()),     # hidden cards by handle: show hidden #3 #7
}
# arguments stored in another order than written: (verb) -> permutation of the stored args
_ORDER: dict[str, tuple[int, ...]] = {}


def format_arg(state, kind: str, value) -> str:
    if kind == "r":
        return RESOURCES[value]
    if kind == "k":
        return KINDS[value]
    if kind == "v":
        return VERTEX_IDS[value]
    if kind == "s":
        return COLOURS[value]
    if kind == "spot":
        return SPOT_IDS[value]
    if kind == "dev":
        cid = state.dcard[value] if state is not None else None
        return cid if cid is not None else f"#{value}"
    return str(value)


def format_offer(option: tuple) -> str:
    """``offer 2 brick 1 wool for 1 ore to all``, ``counter 1 grain for 2 brick``."""
    give, want, to = offer_terms(option)
    text = f"{option[0]} {cards_words(give)} for {cards_words(want)}"
    if option[0] == "offer":
        text += " to " + ("all" if to == TO_ALL else COLOURS[to])
    return text


def parse_cards(words: list[str]) -> tuple[int, ...]:
    """``["2", "brick", "1", "wool"]`` as six counts; MalformedAction otherwise."""
    counts = [0] * 6
    if not words or len(words) % 2:
        raise MalformedAction(f"cards are written as counts and kinds: {' '.join(words)!r}")
    for i in range(0, len(words), 2):
        n, kind = words[i], words[i + 1]
        if not n.isdigit() or n[0] == "0" or kind not in KINDS or counts[KINDS.index(kind)]:
            raise MalformedAction(f"cards are written as counts and kinds: {' '.join(words)!r}")
        counts[KINDS.index(kind)] = int(n)
    return tuple(counts)


def parse_offer(state, d: Decision, words: list[str]) -> tuple | None:
    """The offer, counter or deal ``words`` name at ``d`` (legal or not), or
    None if they name none.  Reads too the shapes records written before an
    offer was one move used: ``counter 1 brick`` (instead of what was asked)
    and ``deal red 1 brick``."""
    verb = words[0]
    if verb == "deal" and len(words) in (2, 4) and words[1] in COLOURS:
        return ("deal", COLOURS.index(words[1]))
    trade = getattr(state, "trade", None)
    if verb == "counter" and len(words) == 3 and trade is not None:
        return counter_option(parse_cards(words[1:]), trade[1])
    if verb not in ("offer", "counter") or "for" not in words:
        return None
    cut = words.index("for")
    give = parse_cards(words[1:cut])
    if verb == "counter":
        return counter_option(give, parse_cards(words[cut + 1:]))
    if len(words) < cut + 3 or words[-2] != "to" or words[-1] not in COLOURS + ("all",):
        raise MalformedAction(f"an offer ends with 'to COLOUR' or 'to all': {' '.join(words)!r}")
    to = TO_ALL if words[-1] == "all" else COLOURS.index(words[-1])
    return offer_option(give, parse_cards(words[cut + 1:-2]), to)


def format_option(state, option: tuple) -> str:
    verb, *args = option
    if verb == "offer" or verb == "counter":
        return format_offer(option)
    if verb == "show-hidden":
        return " ".join(["show hidden"] + [f"#{h}" for h in args])
    entry = VERBS.get(verb)
    if entry is None:
        raise MalformedAction(f"unknown verb {verb!r}")
    words, kinds = entry
    if verb in _ORDER:
        args = [args[i] for i in _ORDER[verb]]
    out = [words]
    i = 0
    for kind in kinds:
        if kind == "for":
            out.append("for")
            continue
        out.append(format_arg(state, kind, args[i]))
        i += 1
    return " ".join(out)


def normalise(text: str) -> str:
    """``text`` as :func:`format_option` writes it: single spaces, vertex and
    token ids in capitals (``V09``, ``GRAIN:6``, ``SHADES``), the rest in
    small letters."""
    words = []
    for w in text.split():
        up = w.upper()
        words.append(up if up in V_INDEX or up in SPOT_INDEX else w.lower())
    return " ".join(words)


def parse_option(state, text: str) -> tuple:
    """The option of the pending decision that ``text`` names."""
    d = state.pending
    if not isinstance(d, Decision):
        raise IllegalAction(f"no decision is pending; cannot apply {text!r}")
    want = normalise(text)
    for opt in d.options:
        if format_option(state, opt) == want:
            return opt
    words = want.split()
    offer = parse_offer(state, d, words) if words else None
    if offer is not None:
        if allows(d, offer):
            return offer
        space = space_of(d)
        why = space.problem(offer) if isinstance(space, OfferSpace) else "no offer now"
        raise IllegalAction(f"{text!r} is not legal for {COLOURS[d.seat]} now: {why}")
    first = want.split(" ", 1)[0] if want else ""
    if not any(words.split(" ", 1)[0] == first for words, _ in VERBS.values()):
        raise MalformedAction(f"unknown verb {first!r} in {text!r}")
    legal = ", ".join(format_option(state, o) for o in d.options[:12])
    more = "" if len(d.options) <= 12 else f" (and {len(d.options) - 12} more)"
    raise IllegalAction(f"{text!r} is not legal for {COLOURS[d.seat]} now; legal: {legal}{more}")


def unwritten_move(state, d: Decision) -> tuple | None:
    """The move a record written when an offer took four moves left out
    because those rules forced it: ``end`` where phase C listed nothing
    else (three offers were made, a taken-back one counting), ``decline``
    where an asked seat could neither accept nor counter one or two cards of
    one kind."""
    if d.kind == "action" and d.options == (("end",),):
        return ("end",)
    trade = getattr(state, "trade", None)
    if d.kind != "answer" or trade is None:
        return None
    give, want = trade[1], trade[2]
    if sum(1 for n in give if n) != 1 or sum(1 for n in want if n) != 1:
        return None
    gk = [k for k in range(6) if give[k]][0]
    wk = [k for k in range(6) if want[k]][0]
    have = list(state.hand(d.seat)) + [state.parch[d.seat]]
    if have[wk] >= want[wk]:
        return None
    counters = [(k, n) for k in range(6) if k != gk for n in (1, 2) if n <= have[k] and (k, n) != (wk, want[wk])]
    return None if counters else ("decline",)
