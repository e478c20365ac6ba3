"""The hint of a local game against bots: ``i`` at a decision shows the hard
bot's best choices there, in the words of the game's prompt, each with its
estimated chance to win (at a networked table there is none:
tests/tui/test_netplay.py)."""
from __future__ import annotations

import re

import pytest

from ankh.core.game import get
from ankh.tui import session as sessions
from ankh.tui.app import AnkhApp
from ankh.tui.games import ui
from ankh.tui.screens.dialogs import Shown
from ankh.tui.session import GameSession


@pytest.fixture(autouse=True)
def quick_hint(monkeypatch):
    monkeypatch.setattr(sessions, "HINT_BUDGET", 0.3)   # the screen is under test, not the search


async def until(pilot, test, tries: int = 400) -> None:
    for _ in range(tries):
        if test():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"never came (screen: {pilot.app.screen!r})")


@pytest.mark.parametrize("game,players", [("morpork", 2), ("guilds", 3)])
async def test_i_shows_the_hard_bots_best_choices_in_the_prompts_words(game: str, players: int) -> None:
    session = GameSession.new(players, game=get(game), save=False, kind="random", seed=7)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.check_action("hint", ()))
        assert "Hint (i)" in [c.title for c in app.screen.commands()]   # offered in the command palette
        decision = session.game.state.pending
        view = session.view(decision.seat)
        words = {ui(game).option_words(view, o) for o in decision.options}
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, Shown))
        shown = app.screen.text.splitlines()
        assert 1 <= len(shown) <= 3, shown
        for n, line in enumerate(shown, 1):
            said = re.fullmatch(rf"{n}\. (.+)  \((\d+) %\)", line)
            assert said and said.group(1) in words and 0 <= int(said.group(2)) <= 100, line
        assert "estimated chance to win" in app.screen.note
        assert session.game.state.pending == decision          # a hint chooses nothing
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, Shown))
