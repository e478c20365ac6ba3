"""Which bots a local game can seat.  A bot kind is a name and a class with
``Bot(rng).choose(state, decision)``; the heuristic bot plugs in as soon as
``ankh.core.bots.heuristic`` exists."""
from __future__ import annotations

import importlib

# kind -> (module, class name)
_KNOWN = {
    "heuristic": ("ankh.core.bots.heuristic", "HeuristicBot"),
    "random": ("ankh.core.bots.random_bot", "RandomBot"),
}


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


def make_bot(kind: str, rng):
    cls = _load(kind) if kind in _KNOWN else None
    if cls is None:
        raise ValueError(f"no bot called {kind!r} (installed: {', '.join(bot_kinds())})")
    return cls(rng)
