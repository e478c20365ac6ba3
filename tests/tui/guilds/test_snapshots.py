"""What the guild variant's screens look like, at 80×24 and 120×40, in
English and in French (pytest-textual-snapshot).  Every situation is built
from a record with fixed dice and bots that play at once; nothing on screen
depends on a clock.  After an intended change of the look:
``pytest tests/tui/guilds --snapshot-update`` and inspect the SVG files."""
from __future__ import annotations

import pytest

from ankh.tui import i18n
from ankh.tui.app import AnkhApp
from ankh.tui.games.guilds.screens import GameScreen
from ankh.tui.session import GameSession

from .test_screens import TRADE_POSITION

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
LANGS = [pytest.param("en", id="en"), pytest.param("fr", id="fr")]
BOTS = "seats: red=person yellow=bot:heuristic green=bot:heuristic"
# Red places the first house of the game (every free site is legal).
SETUP = f"game: guilds\nplayers: 3\nseed: 3\nfirst: red\n{BOTS}\n"
# Red's turn after the dice (6+6): trade, build or end the turn.
ACTION = TRADE_POSITION.replace("game: guilds", f"game: guilds\n{BOTS}")


@pytest.fixture(autouse=True)
def no_guild_key_guard(monkeypatch):
    monkeypatch.setattr(GameScreen, "KEY_GUARD", 0.0)


def game(record: str, lang: str) -> AnkhApp:
    i18n.set_language(lang)
    return AnkhApp(GameSession.from_text(record), bot_delay=0)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_first_house(snap_compare, size, lang):
    """Legal sites reversed; typing 1 then 5 picks site 15 on the map."""
    assert snap_compare(game(SETUP, lang), press=["1", "5"], terminal_size=size)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_turn_after_the_dice(snap_compare, size, lang):
    assert snap_compare(game(ACTION, lang), terminal_size=size)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_trade_dialog(snap_compare, size, lang):
    assert snap_compare(game(ACTION, lang), press=["t", "right"], terminal_size=size)


@pytest.mark.parametrize("lang", LANGS)
def test_players_and_guilds_at_80x24(snap_compare, lang):
    assert snap_compare(game(ACTION, lang), press=["p"], terminal_size=(80, 24))


@pytest.mark.parametrize("lang", LANGS)
async def test_the_footer_is_whole_at_80x24_in_phase_c(lang):
    """Every key the footer offers at "trade, build or end your turn" is there whole, in both languages."""
    app = game(ACTION, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        footer = ""
        for _ in range(200):                       # the decision's footer, once the screen shows it
            footer = "".join(segment.text for segment in app.screen._compositor.render_strips()[-1])
            if "⏎" in footer:
                break
            await pilot.pause(0.05)
        log = i18n.pgettext("key", "Log")
        assert f"l {log}" in footer and f"t {i18n.pgettext('key', 'Trade')}" in footer, footer
