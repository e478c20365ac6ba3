"""Each game on screen: one package a game (``tui/games/<id>/``), a peer of
the others, found by the game's id (:mod:`ankh.core.game`).  The shell --
title, settings, join list, lobby, chat, notices, dialogs, sessions -- reaches
a game's screens only through what its package offers:

- ``game_screen()``: the class of the screen a game is played on, built as
  ``GameScreen(session, bot_delay=...)`` for a local or a networked session;
- ``help_screen()``: the class of its help (rules, components, keys), built as
  ``HelpScreen(tab)``;
- ``verdict(view)``: the result in the player's words, from a seat's view;
- ``public_log(events)``: the game's events as lines a spectator reads;
- ``option_words(view, option)``: an option of the seat's pending decision as
  its prompt lists it (a hint names options so);
- ``BOTS``: bot kinds the screens seat in place of the rules' own (a search
  bot with a clock and worker processes), as ``{kind: (module, class)}``.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from ankh.core.game import DEFAULT, GAMES, get
from ankh.tui.i18n import N_, _

PACKAGES = {
    "morpork": "ankh.tui.games.morpork",
    "guilds": "ankh.tui.games.guilds",
}

# The games' names as the screens show them (translated where shown): each the
# rules' own ``Game.name``, here so that the catalogue has them.
NAMES = {
    "morpork": N_("Discworld: Ankh-Morpork"),
    "guilds": N_("The Guilds of Ankh-Morpork"),
}


def name(kind: str | None = None) -> str:
    """Game ``kind``'s name in the language shown (a game with no screens of its
    own, by its rules' name; one this program does not know, by its id)."""
    kind = kind or DEFAULT
    if kind in NAMES:
        return _(NAMES[kind])
    return get(kind).name if kind in GAMES else kind


def network_refusal(kind: str | None = None) -> str | None:
    """Why game ``kind`` cannot be played over the network, in one sentence in
    the language shown (None: it can; the rules say, by ``Game.networked``)."""
    if get(kind).networked:
        return None
    return _("{game} cannot be played over the network yet: only against bots").format(game=name(kind))


def ui(kind: str | None = None) -> ModuleType:
    """The screens of game ``kind`` (None: the default game)."""
    return importlib.import_module(PACKAGES[kind or DEFAULT])
