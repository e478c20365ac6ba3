"""Discworld: Ankh-Morpork on screen: the map of the twelve City Areas, the
hand, the players, the log and the prompt, the end screen and the help."""
from __future__ import annotations

from typing import Any

BOTS = {"search": ("ankh.tui.games.morpork.search_workers", "ParallelSearchBot")}


def game_screen() -> type:
    from .screens.game import GameScreen
    return GameScreen


def help_screen() -> type:
    from .screens.help import HelpScreen
    return HelpScreen


def verdict(view: Any) -> Any:
    from .screens.end import verdict as words
    return words(view)
