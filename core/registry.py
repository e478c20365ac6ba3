"""The games of the platform, one record a game: what the rules, the screens,
the title screen, the ``ankh`` command and the build know of each.

A game is registered once, here (or, for a game outside this distribution --
a test's --, by :func:`register`).  The build reads this file without
importing the package (``scripts/backend/ankh_build.py``): it imports the
standard library only, and its records are plain data.
"""
from __future__ import annotations

import importlib
from typing import Any, Final, NamedTuple


def N_(message: str) -> str:
    """Marks ``message`` for the screens' catalogue (``scripts/i18n``)."""
    return message


def NP_(context: str, message: str) -> str:
    """Marks ``message`` for the screens' catalogue, with ``context``."""
    return message


class Entry(NamedTuple):
    """One game, as every part of the program knows it."""
    #: The id on the wire, in records, saves, journals, transcripts and adverts.
    id: str
    #: Its name in English (the screens translate it).
    name: str
    #: How many seats it takes.
    seats: tuple[int, ...]
    #: Whether its tables may be played over the network.
    networked: bool
    #: The module that defines its rules' ``GAME``.
    rules: str
    #: The package of its screens (``tui/games/<id>``), or None: it has none,
    #: and is played headless only.
    screens: str | None = None
    #: The title screen's line that starts a new game of it, and its key.
    menu: str = ""
    key: str = ""
    #: The key's word in the footer (translated with context ``key``).
    key_word: str = ""
    #: The rules' modules that the build compiles with mypyc, as one group
    #: (``ankh_core_<id>``), named within the rules' package.
    compiled: tuple[str, ...] = ()


MORPORK: Final = Entry(
    "morpork", N_("Discworld: Ankh-Morpork"), (2, 3, 4), True, "ankh.core.morpork.game", "ankh.tui.games.morpork",
    N_("New game against bots"), "n", NP_("key", "New game"),
    ("model", "state", "board", "windows", "abilities", "effects_common", "effects_hands", "effects_board",
     "events", "turn", "scoring", "setup"))
GUILDS: Final = Entry(
    "guilds", N_("The Guilds of Ankh-Morpork"), (3, 4), True, "ankh.core.guilds.game", "ankh.tui.games.guilds",
    N_("New guild game (Catan variant)"), "g", NP_("key", "Guilds"),
    ("board", "state", "pieces", "districts", "seven", "guards", "trading", "turn", "rules"))

#: The games by id.  The first is the default: files and tables that name no
#: game are of it.
ENTRIES: Final[dict[str, Entry]] = {e.id: e for e in (MORPORK, GUILDS)}
#: Each game's rules module, by id.
GAMES: Final[dict[str, str]] = {e.id: e.rules for e in ENTRIES.values()}
DEFAULT: Final = MORPORK.id


def register(game: Entry | str, module: str | None = None) -> None:
    """Make a game known to this process: how a game outside this
    distribution -- a test's -- joins the platform.  ``game`` is its record,
    or its id with ``module``, the module of its ``GAME`` (whose record is then
    read from that ``GAME``: no screens, no build group)."""
    if isinstance(game, str):
        if module is None:
            raise TypeError("register(ID, MODULE) needs the module of the game's GAME")
        GAMES[game] = module
        return
    ENTRIES[game.id] = game
    GAMES[game.id] = game.rules


class UnknownGame(ValueError):
    """No game has that id."""


def entry(game_id: str | None = None) -> Entry:
    """The record of game ``game_id`` (None: the default)."""
    gid = DEFAULT if game_id is None else game_id
    found = ENTRIES.get(gid) if type(gid) is str else None
    if found is None:
        if type(gid) is str and gid in GAMES:  # a game known by its module alone
            game = get(gid)
            return Entry(gid, game.name, game.seats, game.networked, GAMES[gid])
        raise UnknownGame(f"no game is called {gid!r} (known: {', '.join(GAMES)})")
    return found


def get(game_id: str | None = None) -> Any:  # (a core.game.Game: that module imports this one)
    """The game ``game_id`` (None: the default), imported on first use."""
    gid = DEFAULT if game_id is None else game_id
    module = GAMES.get(gid) if type(gid) is str else None
    if module is None:
        raise UnknownGame(f"no game is called {gid!r} (known: {', '.join(GAMES)})")
    return importlib.import_module(module).GAME
