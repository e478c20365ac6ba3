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


def option_words(view: Any, option: tuple) -> str:
    """One option of the seat's pending decision, as its prompt lists it."""
    from .text import option_label
    d = view.decision
    return option_label(view.option_texts[d.options.index(option)], d.kind, numbered=False).plain


def every_card_known(state: Any, seat: int) -> Any:
    """``state`` (changed) with every card and personality whose identity it
    holds seen by ``seat``: a search from its knowledge deals none of them again."""
    state.seen[seat] |= sum(1 << h for h, card in enumerate(state.card) if card is not None)
    state.pers_seen[seat] |= sum(1 << h for h, pers in enumerate(state.pers) if pers is not None)
    return state


def public_log(events: Any) -> list[str]:
    """A game's events as a spectator reads them (``ankh replay`` on a networked save)."""
    from .words import describe, said_already
    lines, before = [], None
    for event in events:
        if not said_already(event, before):   # "ended the turn and drew 1 card" says the draw
            lines.append(describe(event, None))
        before = event
    return lines


def personality_name(pid: str | None) -> str:
    """A personality's printed name in the language shown (the end's statistics name them)."""
    from .text import personality_name as name
    return name(pid)
