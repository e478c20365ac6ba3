"""Whole games through the keyboard, from the title screen to the end screen."""
from __future__ import annotations

import random

from ankh.tui.app import AnkhApp
from ankh.tui.games.morpork.screens.end import EndScreen
from ankh.tui.games.morpork.screens.game import GameScreen
from ankh.tui.screens.title import TitleScreen

from .helpers import settle


async def play_to_the_end(pilot, rng: random.Random, limit: int = 1500) -> int:
    """Choose options as a person would: Enter on the highlighted one, its
    digit, or arrow down to it first."""
    app = pilot.app
    for n in range(limit):
        await settle(pilot)
        if isinstance(app.screen, EndScreen):
            return n
        count = len(app.screen.view.decision.options)
        k = rng.randrange(count)
        way = rng.random()
        if way < 0.5:
            await pilot.press("enter")
        elif way < 0.85 and k < 9:
            await pilot.press(str(k + 1))
        else:
            await pilot.press(*["down"] * min(k, 3), "enter")
    raise AssertionError("the game did not end")


async def test_a_whole_game_against_two_bots(ankh_home):
    app = AnkhApp(bot_delay=0, seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, TitleScreen)
        await pilot.press("n")          # new game: 3 players, you red, two bots
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        decisions = await play_to_the_end(pilot, random.Random(1))
        assert decisions > 10
        end = app.screen
        assert isinstance(end, EndScreen)
        outcome = end.final.outcome
        assert outcome is not None and outcome.winners
        shown = str(end.query_one("#why").render())
        assert "win" in shown
        saves = list((ankh_home / "saves").glob("*.ankh"))
        assert len(saves) == 1
        await pilot.press("t")
        assert isinstance(app.screen, TitleScreen)


async def test_a_whole_game_as_green_against_three_random_bots_on_a_large_terminal(ankh_home):
    app = AnkhApp(bot_delay=0, seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await pilot.press("right")                  # 4 players
        await pilot.press("down", "right", "right")  # you play green
        await pilot.press("down")                   # three bots (the default)
        await pilot.press("down", "right", "right")  # easy (random) bots
        setup = app.screen.setup()
        assert (setup.players, setup.you, setup.bots, setup.kind) == (4, 2, 3, "random")
        await pilot.press("enter")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen) and game.mode == "wide"
        assert game.session.people == [2]
        assert game.view.viewer == 2
        await play_to_the_end(pilot, random.Random(2))
        end = app.screen
        assert isinstance(end, EndScreen)
        assert len(end.final.outcome.personalities) == 4
        text = (ankh_home / "saves").glob("*.ankh").__next__().read_text(encoding="utf-8")
        assert "seats: red=bot:random yellow=bot:random green=person blue=bot:random" in text


async def test_the_alchemists_guild_counts_its_discards_out_of_three():
    """The Alchemists' Guild (discard up to three cards) asked "Discard a card —
    choice 2", as if it might go on without end: it says "2 of 3"."""
    from textual.widgets import Static
    from ankh.tui.session import GameSession
    from ankh.tui.games.morpork.widgets.prompt import DecisionPrompt
    from . import scenarios
    record = scenarios.RED_HOLDS.format(card="the-alchemists-guild") + "red: play the-alchemists-guild\nred: scroll\n"
    app = AnkhApp(GameSession.from_text(record), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for n in (1, 2, 3):
            await settle(pilot)
            assert app.screen.view.decision.kind == "discard"
            question = str(app.screen.query_one(DecisionPrompt).query_one("#question", Static).render())
            assert f"{n} of 3" in question, question
            await pilot.press("1")
