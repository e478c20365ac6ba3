"""The Guilds of Ankh-Morpork (the guild variant for Catan) on screen: the
ring of districts around the Ankh drawn from the board's geometry, the
prompt with sites you type by number, trading, the hand, the players, the
guild table, the end screen and the help."""
from __future__ import annotations

from typing import Any

BOTS: dict[str, tuple[str, str]] = {}


def game_screen() -> type:
    from .screens import GameScreen
    return GameScreen


def help_screen() -> type:
    from .help import HelpScreen
    return HelpScreen


def verdict(view: Any) -> Any:
    from .screens import verdict as words
    return words(view)


def option_words(view: Any, option: tuple) -> str:
    """One option of the seat's pending decision, as its prompt lists it."""
    from .text import option_text
    return option_text(view, option)


def every_card_known(state: Any, seat: int) -> Any:
    """``state``: a search from ``seat``'s knowledge deals again only the cards
    whose identity the state does not hold, so every card it holds is known."""
    return state


def public_log(events: Any) -> list[str]:
    """A game's events as a spectator reads them (``ankh replay`` on a networked save)."""
    from .text import describe
    return [describe(event, None).plain for event in events]
