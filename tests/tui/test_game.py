"""The game screen driven by the keyboard (and a mouse): undo, saving and
loading, several people at one keyboard, paced bots, help, sizes."""
from __future__ import annotations

from textual.widgets import OptionList

from ankh.tui.app import AnkhApp
from ankh.tui.screens.dialogs import Confirm, TooSmall
from ankh.tui.games.morpork.screens.end import EndScreen
from ankh.tui.games.morpork.screens.game import GameScreen
from ankh.tui.games.morpork.screens.help import HelpScreen
from ankh.tui.screens.title import LoadScreen, TitleScreen
from ankh.tui.session import GameSession
from ankh.tui.games.morpork.widgets.board import CityMap, box_origin

from . import scenarios
from .helpers import notices, settle, two_people


def app_for(record: str, **kw) -> AnkhApp:
    return AnkhApp(GameSession.from_text(record), bot_delay=0, **kw)


async def test_undo_takes_back_own_choices_but_never_past_new_information():
    app = app_for(scenarios.CARD_TARGET)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.view.decision.kind == "target"
        await pilot.press("u")
        assert screen.view.option_texts == ("scroll", "skip")
        await pilot.press("u")
        assert screen.view.decision.kind == "turn"
        await pilot.press("u")                              # nothing to take back: it says why
        assert screen.view.decision.kind == "turn"
        assert "no choice yet" in screen.told.plain          # at 80×24: under the options
        # Hex draws three cards: new information, so its choices stay.
        hex_index = screen.view.option_texts.index("play hex")
        await pilot.press(str(hex_index + 1), "1")          # play hex, carry out its text
        await settle(pilot)
        hand = len(screen.view.hand)
        await pilot.press("u")
        assert len(screen.view.hand) == hand
        assert "Since your last choice: you drew 3 cards." in screen.told.plain, screen.told


async def test_leaving_and_loading_resumes_the_game_exactly(ankh_home):
    app = AnkhApp(bot_delay=0, seed=21)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "enter")
        await settle(pilot)
        for _ in range(6):
            await pilot.press("enter")
            await settle(pilot)
        before = app.screen.session
        text, view = before.save_text(), before.view()
        await pilot.press("q")                       # asks first; "n" stays
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        assert isinstance(app.screen, GameScreen) and app.screen.session is before
        await pilot.press("q", "y")
        assert isinstance(app.screen, TitleScreen)
        [save] = (ankh_home / "saves").glob("*.ankh")
        assert save.read_text(encoding="utf-8") == text
        await pilot.press("l")
        assert isinstance(app.screen, LoadScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        after = app.screen.session
        assert after is not before
        assert after.view() == view
        assert after.save_text() == text
        # and the game goes on, saving to the same file
        await pilot.press("enter")
        await settle(pilot)
        assert save.read_text(encoding="utf-8") == after.save_text() != text


async def test_two_people_at_one_keyboard_hand_over():
    app = AnkhApp(bot_delay=0, seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        seen = set()
        async for handed in two_people(pilot):
            screen = app.screen
            if handed is not None:
                assert screen.session.viewer == handed
            assert screen.view.decision.seat == screen.session.viewer
            seen.add(screen.session.viewer)
        assert seen == {0, 1}


async def test_paced_bots_think_in_a_worker_and_show_who_is_deciding():
    app = app_for(scenarios.GIVE_TWO)
    app.bot_delay = 0.5  # long enough that the screen is still waiting when we look
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1")                      # yellow must give red two cards
        prompt = app.screen.query_one("#question")
        assert "yellow is deciding" in str(prompt.render())
        await settle(pilot)
        texts = [e.text for e in app.screen.events]
        assert sum(t == "yellow gives a card to red" for t in texts) == 2
        assert app.screen.view.decision is not None


async def test_clicking_the_map_highlights_then_chooses_an_area():
    app = app_for(scenarios.PLACE_MINION)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        target = screen.view.option_texts.index("minion dragons-landing")
        x, y = box_origin(3, 3)
        await pilot.click(CityMap, offset=(x + 3, y + 1))
        assert screen.query_one(OptionList).highlighted == target
        assert screen.highlight == frozenset({2})
        await pilot.click(CityMap, offset=(x + 3, y + 1))
        await settle(pilot)
        assert screen.view.area("dragons-landing").minions[0] == 1


async def test_panels_switch_with_keys_at_80x24():
    app = app_for(scenarios.OPENING)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        switcher = app.screen.query_one("#main")
        for key, panel in (("h", "hand"), ("p", "players"), ("l", "log"), ("m", "map")):
            await pilot.press(key)
            assert switcher.current == panel
        assert app.screen.focused is app.screen.query_one(OptionList)


async def test_resizing_changes_the_layout_and_a_small_terminal_is_told():
    app = app_for(scenarios.OPENING)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.mode == "compact"
        await pilot.resize_terminal(130, 42)
        await pilot.pause()
        assert app.screen.mode == "wide"
        assert app.screen.query("#log") and app.screen.query("#players")
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        assert isinstance(app.screen, TooSmall)
        assert "70×20" in str(app.screen.query_one("#too-small").render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.mode == "compact"
        await pilot.press("1")                       # still playable after all that
        await settle(pilot)
        assert app.screen.view.decision.kind != "turn" or app.screen.view.turn > 1


async def test_help_searches_the_card_reference():
    app = AnkhApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "1")
        assert isinstance(app.screen, HelpScreen)
        app.screen.query_one("#help-tabs").active = "cards"
        await pilot.pause()
        await pilot.press(*"gaspode")
        entries = app.screen.query_one("#entries", OptionList)
        names = [str(entries.get_option_at_index(i).prompt) for i in range(entries.option_count)]
        assert names and names[0].startswith("Gaspode")
        assert "That single move or removal does not happen" in str(app.screen.query_one("#entry").render())
        await pilot.press("escape")
        assert isinstance(app.screen, TitleScreen)


async def test_command_palette_opens_the_rules():
    app = AnkhApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"card reference")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.query_one("#help-tabs").active == "cards"


async def test_the_end_screen_leads_back_to_the_board_and_the_title():
    app = app_for(scenarios.SCORED)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        text = str(app.screen.query_one("#why").render())
        assert "yellow wins on points" in text
        await pilot.press("b")
        assert isinstance(app.screen, GameScreen)
        assert app.screen.check_action("results", ()) is True
        await pilot.press("r")
        assert isinstance(app.screen, EndScreen)
        await pilot.press("t")
        assert isinstance(app.screen, TitleScreen)
    app = app_for(scenarios.SCORED)
    async with app.run_test(size=(80, 24)) as pilot:   # t from the board after the game, too
        await settle(pilot)
        await pilot.press("b")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("t")
        assert isinstance(app.screen, TitleScreen)


async def test_the_new_game_dialog_works_with_the_mouse_too():
    from ankh.tui.widgets.stepper import Stepper
    app = AnkhApp(bot_delay=0, seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#menu", offset=(3, 1))       # "New game against bots"
        players = app.screen.query_one("#players", Stepper)
        await pilot.click("#players", offset=(19, 0))   # ▶
        assert players.value == 4
        await pilot.click("#players", offset=(15, 0))   # ◀
        await pilot.click("#players", offset=(15, 0))
        assert players.value == 2
        assert app.screen.query_one("#bots", Stepper).value == 1
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.session.players == 2


async def test_saves_can_be_deleted_from_the_load_list_damaged_ones_too(ankh_home):
    saves = ankh_home / "saves"
    saves.mkdir(parents=True)
    (saves / "good.ankh").write_text(scenarios.OPENING, encoding="utf-8")
    (saves / "broken.ankh").write_bytes(b"\xff\xfe not a record")
    app = AnkhApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        assert isinstance(app.screen, LoadScreen)
        await pilot.pause()
        listed = [s.path.name for s in app.screen.saves]
        assert sorted(listed) == ["broken.ankh", "good.ankh"]
        broken = listed.index("broken.ankh")
        app.screen.query_one("#saves", OptionList).highlighted = broken
        await pilot.press("enter")                     # a damaged save says why, and stays
        assert isinstance(app.screen, LoadScreen)
        await pilot.press("d")
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")                         # keep it
        assert (saves / "broken.ankh").exists()
        await pilot.press("d", "y")
        await pilot.pause()
        assert not (saves / "broken.ankh").exists() and (saves / "good.ankh").exists()
        assert [s.path.name for s in app.screen.saves] == ["good.ankh"]
        await pilot.press("enter")                     # the one left still loads
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)


async def test_the_command_palette_in_a_game_lists_the_game_s_own_commands():
    app = app_for(scenarios.OPENING)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for wanted in ("Undo", "Show the map", "Show your hand", "Show the players", "Show the log",
                       "Show what happened", "Rules", "Card reference", "Leave the game"):
            assert wanted in titles
        assert len(titles) == len(set(titles))          # no duplicates
        assert not {"Screenshot", "Maximize", "Minimize", "Bell"} & set(titles)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"leave the game")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)          # leaving still asks
