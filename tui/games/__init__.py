"""Each game on screen: one package a game (``tui/games/<id>/``), a peer of
the others, found by the game's id (:mod:`ankh.core.game`).  The shell --
title, settings, join list, lobby, chat, notices, dialogs, sessions -- reaches
a game's screens only through what its package offers:

- ``game_screen()``: the class of the screen a game is played on, built as
  ``GameScreen(session, bot_delay=...)`` for a local or a networked session;
- ``help_screen()``: the class of its help (rules, components, keys), built as
  ``HelpScreen(tab)``;
- ``verdict(view)``: the result in the player's words, from a seat's view;
- ``BOTS``: bot kinds the screens seat in place of the rules' own (a search
  bot with a clock and worker processes), as ``{kind: (module, class)}``.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from ankh.core.game import DEFAULT
from ankh.tui.i18n import N_, _

PACKAGES = {
    "morpork": "ankh.tui.games.morpork",
    "guilds": "ankh.tui.games.guilds",
}

# The games' names as the screens show them (translated where shown).
NAMES = {
    "morpork": N_("Discworld: Ankh-Morpork"),
    "guilds": N_("The Guilds of Ankh-Morpork"),
}


def name(kind: str | None = None) -> str:
    """Game ``kind``'s name in the language shown."""
    return _(NAMES[kind or DEFAULT])


def ui(kind: str | None = None) -> ModuleType:
    """The screens of game ``kind`` (None: the default game)."""
    return importlib.import_module(PACKAGES[kind or DEFAULT])
