"""Each game on screen: one package a game (``tui/games/<id>/``), a peer of
the others, named by the game's record (:mod:`ankh.core.registry`; a game
whose record names no screens is played headless only).  The shell --
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
- ``every_card_known(state, seat)``: a state in which ``seat`` knows every
  card whose identity the state holds (a review after the audit disclosed them);
- ``BOTS``: bot kinds the screens seat in place of the rules' own (a search
  bot with a clock and worker processes), as ``{kind: (module, class)}``.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from ankh.core.registry import DEFAULT, ENTRIES, entry, get
from ankh.tui.i18n import _


def shown() -> list[str]:
    """The games that have screens, in the registry's order."""
    return [e.id for e in ENTRIES.values() if e.screens is not None]


def name(kind: str | None = None) -> str:
    """Game ``kind``'s name in the language shown (one this program does not
    know, by its id)."""
    try:
        return _(entry(kind).name)
    except ValueError:
        return kind or DEFAULT


def network_refusal(kind: str | None = None) -> str | None:
    """Why game ``kind`` cannot be played over the network, in one sentence in
    the language shown (None: it can; its record says, as ``Game.networked``)."""
    if get(kind).networked:
        return None
    return _("{game} cannot be played over the network yet: only against bots").format(game=name(kind))


def screens_refusal(kind: str | None = None) -> str | None:
    """Why game ``kind`` cannot be shown on a screen (None: it can; its record
    names its screens' package)."""
    if entry(kind).screens is not None:
        return None
    return _("{game} has no screens: it is played headless only (--headless)").format(game=name(kind))


def ui(kind: str | None = None) -> ModuleType:
    """The screens of game ``kind`` (None: the default game)."""
    package = entry(kind).screens
    if package is None:
        raise LookupError(screens_refusal(kind))
    return importlib.import_module(package)
