"""The record notation: options as words (``play mr-boggis``,
``minion dolly-sisters``, ``assassinate the-shades red``).

An option's text is built from its verb and typed arguments: areas by id,
seats by colour, neutral minions as ``troll``/``demon``, cards by id (or
``#<handle>`` where this engine does not know the card).  Parsing matches a
text against the options of the pending decision, so only legal options
parse.
"""
from __future__ import annotations

from .model import AREA_IDS, COLOURS, Decision, IllegalAction, MalformedAction

# verb -> argument kinds, in tuple order; a trailing "from" argument is an area
# written "from <area>" (minion/build when all pieces are on the board).
VERBS: dict[str, tuple[str, ...]] = {
    "play": ("card",), "interrupt": ("card",), "discard": ("card",), "give": ("card",),
    "minion": ("area", "from"), "build": ("area", "from"),
    "assassinate": ("area", "who"), "pick": ("area", "who"),
    "move": ("area", "who", "area"),
    "remove-trouble": ("area",), "ability": ("area",), "area": ("area",),
    "target": ("seat",), "pay": ("n",),
    "pass": (), "end": (), "skip": (), "stop": (), "done": (), "accept": (), "refuse": (),
    "win": (), "no-win": (), "scroll": (), "small-gods": (),
}


def format_arg(state, kind: str, value) -> str:
    if kind in ("area", "from"):
        return AREA_IDS[value]
    if kind == "seat":
        return COLOURS[value]
    if kind == "who":
        return value if isinstance(value, str) else COLOURS[value]
    if kind == "card":
        cid = state.card[value] if state is not None else None
        return cid if cid is not None else f"#{value}"
    return str(value)


def format_option(state, option: tuple) -> str:
    verb, *args = option
    kinds = VERBS.get(verb)
    if kinds is None:
        raise MalformedAction(f"unknown verb {verb!r}")
    words = [verb]
    for kind, value in zip(kinds, args):
        if kind == "from":
            words.append("from")
        words.append(format_arg(state, kind, value))
    return " ".join(words)


def normalise(text: str) -> str:
    return " ".join(text.strip().lower().split())


def parse_option(state, text: str) -> tuple:
    """The option of the pending decision that ``text`` names."""
    d = state.pending
    if not isinstance(d, Decision):
        raise IllegalAction(f"no decision is pending; cannot apply {text!r}")
    want = normalise(text)
    verb = want.split(" ", 1)[0] if want else ""
    if verb not in VERBS:
        raise MalformedAction(f"unknown verb {verb!r} in {text!r}")
    for opt in d.options:
        if format_option(state, opt) == want:
            return opt
    legal = ", ".join(format_option(state, o) for o in d.options[:12])
    more = "" if len(d.options) <= 12 else f" (and {len(d.options) - 12} more)"
    raise IllegalAction(f"{text!r} is not legal for {COLOURS[d.seat]} now; legal: {legal}{more}")
