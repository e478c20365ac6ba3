"""Which bots a game can seat, by level: easy (``random``), normal
(``heuristic``), hard (``search``).  A bot kind is a name and a class with
``Bot(rng).choose(state, decision)``; the kind is what a save's ``seats:``
line records (``bot:search``), so a loaded game seats the same bots.

The kinds are the game's (:attr:`ankh.core.game.Game.BOTS`), best first; a
game's screens may seat their own class for a kind (the hard bot with a
clock and worker processes: the package's ``BOTS`` in ``ankh.tui.games``).
"""
from __future__ import annotations

import importlib

from ankh.core.game import Game, get
from ankh.core.registry import entry
from ankh.tui.games import ui
from ankh.tui.i18n import N_, _

LEVELS = {"search": N_("hard"), "heuristic": N_("normal"), "random": N_("easy")}


def _known(game: Game) -> dict[str, tuple[str, str]]:
    """kind -> (module, class name), best first."""
    screens = getattr(ui(game.id), "BOTS", {}) if entry(game.id).screens else {}
    return {kind: screens.get(kind, where) for kind, where in game.BOTS.items()}


def _load(game: Game, kind: str):
    module, name = _known(game)[kind]
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None


def bot_kinds(game: Game | None = None) -> list[str]:
    """The bot kinds installed for ``game`` (None: the default game), best first."""
    game = game or get()
    return [k for k in _known(game) if _load(game, k) is not None]


def default_bot_kind(game: Game | None = None) -> str:
    return bot_kinds(game)[0]


def net_bot_kinds(game: Game | None = None) -> tuple[str, ...]:
    """The kinds a networked table seats, its default first: bots there share the
    host's cores with every seat's cryptography, so the hard level is not offered."""
    return (game or get()).NET_BOTS



def bot_label(kind: str) -> str:
    """How the new-game screen names a kind: its level, in the player's
    language (the kind itself is the saves' word, not the player's)."""
    level = LEVELS.get(kind)
    return _(level) if level else kind


def make_bot(kind: str, rng, game: Game | None = None):
    game = game or get()
    cls = _load(game, kind) if kind in _known(game) else None
    if cls is None:
        raise ValueError(f"no bot called {kind!r} (installed: {', '.join(bot_kinds(game))})")
    return cls(rng)
