"""Which bots a local game can seat, by level: easy (``random``), normal
(``heuristic``), hard (``search``, the default).  A bot kind is a name and a
class with ``Bot(rng).choose(state, decision)``; the kind is what a save's
``seats:`` line records (``bot:search``), so a loaded game seats the same bots."""
from __future__ import annotations

import importlib

from .i18n import N_, _

# kind -> (module, class name), best first
_KNOWN = {
    "search": ("ankh.tui.search_workers", "ParallelSearchBot"),
    "heuristic": ("ankh.core.bots.heuristic", "HeuristicBot"),
    "random": ("ankh.core.bots.random_bot", "RandomBot"),
}
LEVELS = {"search": N_("hard"), "heuristic": N_("normal"), "random": N_("easy")}


def _load(kind: str):
    module, name = _KNOWN[kind]
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None


def bot_kinds() -> list[str]:
    """The bot kinds installed, best first."""
    return [k for k in _KNOWN if _load(k) is not None]


def default_bot_kind() -> str:
    return bot_kinds()[0]


# The kinds a networked table seats, its default first: bots there share the
# host's cores with every seat's cryptography, so the hard level is not offered.
NET_BOT_KINDS = ("heuristic", "random")


def bot_label(kind: str) -> str:
    """How the new-game screen names a kind: its level, in the player's
    language (the kind itself is the saves' word, not the player's)."""
    level = LEVELS.get(kind)
    return _(level) if level else kind


def make_bot(kind: str, rng):
    cls = _load(kind) if kind in _KNOWN else None
    if cls is None:
        raise ValueError(f"no bot called {kind!r} (installed: {', '.join(bot_kinds())})")
    return cls(rng)
