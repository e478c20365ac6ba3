"""What the screens look like, at 80×24 and at 120×40 (pytest-textual-snapshot).

Every situation is built from a record with fixed hands, personalities and
moves, and nothing on screen depends on a clock.  After an intended change of
the look: ``pytest tests/tui --snapshot-update`` and inspect the SVG files."""
from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Input

from ankh.tui.app import AnkhApp
from ankh.tui.session import GameSession

from . import scenarios
from .helpers import settle

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def game(record: str) -> AnkhApp:
    return AnkhApp(GameSession.from_text(record), bot_delay=0)


@pytest.mark.parametrize("size", SIZES)
def test_title(snap_compare, size):
    assert snap_compare(AnkhApp(bot_delay=0), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_new_game_dialog(snap_compare, size):
    assert snap_compare(AnkhApp(bot_delay=0), press=["n", "right"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_opening_turn(snap_compare, size):
    assert snap_compare(game(scenarios.OPENING), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_interrupt_window(snap_compare, size):
    assert snap_compare(game(scenarios.INTERRUPT_WINDOW), press=["down"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_card_needing_a_target(snap_compare, size):
    assert snap_compare(game(scenarios.CARD_TARGET), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_hand_panel(snap_compare, size):
    assert snap_compare(game(scenarios.OPENING), press=["h", "down", "down"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_help_rules(snap_compare, size):
    assert snap_compare(AnkhApp(bot_delay=0), press=["r", "1"], terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_help_card_search(snap_compare, size):
    async def search(pilot):
        pilot.app.action_help("cards")
        for _ in range(200):  # the search field takes the keys once it has the focus
            await pilot.pause()
            if isinstance(pilot.app.screen.focused, Input):
                break
        field = pilot.app.screen.query_one(Input)
        field.cursor_blink = False
        await pilot.press(*"gaspode")
        for _ in range(200):
            await pilot.pause()
            if field.value == "gaspode" and len(pilot.app.screen.shown) < 10:
                break
        pilot.app.screen.refresh_bindings()   # ←→ move in what is typed: the footer no longer offers the tabs
        await pilot.pause()

    assert snap_compare(AnkhApp(bot_delay=0), run_before=search, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_end_scored(snap_compare, size):
    assert snap_compare(game(scenarios.SCORED), terminal_size=size)


def test_too_small(snap_compare):
    assert snap_compare(AnkhApp(bot_delay=0), terminal_size=(60, 20))


@pytest.mark.parametrize("size", SIZES)
def test_since_your_last_move(snap_compare, size):
    async def quiet(pilot):
        await pilot.pause()
        pilot.app.clear_notifications()   # the notices have their own snapshot
        await pilot.pause()

    assert snap_compare(game(scenarios.FOLLOW), run_before=quiet, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_a_notice_of_what_a_card_shows_you(snap_compare, size, monkeypatch):
    # The notices stay until the picture is taken, however long a busy machine takes to get
    # there: how long they stay is not what the picture shows.
    notify = App.notify
    monkeypatch.setattr(App, "notify", lambda self, *a, **kw: notify(self, *a, **{**kw, "timeout": 600}))

    async def play(pilot):
        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause(0.3)   # the log has scrolled to its end (the notice no longer hides it)

    assert snap_compare(game(scenarios.MRS_CAKE), run_before=play, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_a_notice_over_a_dialog(snap_compare, size):
    """A notice came up over the top right of a dialog: it stands above the
    dialog's box where it fits there, else under it, never over its text or
    its keys."""
    from ankh.tui.screens.dialogs import Confirm
    from ankh.tui.screens.lobby import HostDialog

    async def notices(pilot):
        await pilot.app.push_screen(HostDialog("guilds"))
        await pilot.app.push_screen(Confirm("Quit the game?", "Quit", "Go back"))
        await pilot.pause()
        pilot.app.notify("A notice long enough to take two lines of the rack at 80 columns, "
                         "if not more: it is said over a dialog.", timeout=600)
        await pilot.pause()
        pilot.app.pop_screen()     # the notice moves above the dialog under the question
        for _ in range(5):
            await pilot.pause()

    assert snap_compare(AnkhApp(bot_delay=0), run_before=notices, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_a_two_step_choice(snap_compare, size):
    assert snap_compare(game(scenarios.TWO_STEP), press=["3"], terminal_size=size)
