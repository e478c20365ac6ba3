"""The guild variant's option notation: an option as words (``place V09``,
``bank brick for ore``, ``robber GRAIN:6``, ``give 2 wool``), built from its
verb and typed arguments.  Parsing matches a text against the options of the
pending decision, so only legal options parse.
"""
from __future__ import annotations

from ..game import COLOURS, Decision, IllegalAction, MalformedAction
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
    "refresh": ("refresh", ("r",)), "promote": ("promote", ()), "trade": ("trade", ()),
    "give": ("give", ("n", "k")), "want": ("want", ("n", "k")), "to": ("to", ("s",)),
    "to-all": ("to all", ()), "cancel": ("cancel", ()), "accept": ("accept", ()),
    "decline": ("decline", ()), "counter": ("counter", ("n", "k")),
    "deal": ("deal", ("s", "n", "k")),
}
# arguments stored in another order than written: (verb) -> permutation of the stored args
_ORDER = {"give": (1, 0), "want": (1, 0), "counter": (1, 0), "deal": (0, 2, 1)}


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


def format_option(state, option: tuple) -> str:
    verb, *args = option
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
    first = want.split(" ", 1)[0] if want else ""
    if not any(words.split(" ", 1)[0] == first for words, _ in VERBS.values()):
        raise MalformedAction(f"unknown verb {first!r} in {text!r}")
    legal = ", ".join(format_option(state, o) for o in d.options[:12])
    more = "" if len(d.options) <= 12 else f" (and {len(d.options) - 12} more)"
    raise IllegalAction(f"{text!r} is not legal for {COLOURS[d.seat]} now; legal: {legal}{more}")
