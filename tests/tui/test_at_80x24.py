"""The smallest terminal the game supports, 80×24: what must stay in sight."""
from __future__ import annotations

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Static

from ankh.tui import i18n
from ankh.tui.app import AnkhApp
from ankh.tui.session import GameSession
from ankh.tui.seats import colour
from ankh.tui.widgets.choices import Choices
from ankh.tui.games.morpork.widgets.status import StatusBar

from . import scenarios
from .helpers import screen_lines
from .helpers import settle


async def test_the_highlighted_option_stays_in_sight_whatever_its_description():
    """Five cards; the longer a card's text, the fewer rows the options keep:
    going down and up the list, the highlighted one is always on screen."""
    app = AnkhApp(GameSession.from_text(scenarios.OPENING), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        choices = app.screen.query_one(Choices)
        rows = set()
        for key in ["down"] * 4 + ["up"] * 4:
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
            top, height = choices.scroll_offset.y, choices.scrollable_content_region.height
            rows.add(height)
            assert top <= choices.highlighted < top + height, (choices.highlighted, top, height)
        assert min(rows) < choices.option_count, "every option fitted: nothing was tested"


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_status_line_keeps_the_seat_the_table_waits_for(lang):
    """At 80 columns the line was cut before "waiting for yellow"."""
    i18n.set_language(lang)
    session = GameSession.from_text(scenarios.FOLLOW)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        waiting = i18n._("waiting for {who}").format(who=colour(1))   # as a networked table says it
        session.net_note = waiting
        app.screen.refresh_view()
        await pilot.pause()
        line = str(app.screen.query_one(StatusBar).render())
        assert waiting in line and len(line) <= 80, line
        assert colour(0) in line                      # whose turn it is stays too


async def test_the_hand_panel_scrolls_by_keyboard():
    """Five cards with their texts are longer than the panel: PgDn and PgUp
    scroll it (the options keep the arrows)."""
    app = AnkhApp(GameSession.from_text(scenarios.OPENING), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("h")
        await pilot.pause()
        box = app.screen.query_one("#hand", VerticalScroll)
        assert box.max_scroll_y > 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert app.screen.panel == "hand" and box.scroll_y > 0
        await pilot.press("pageup")
        await pilot.pause()
        assert box.scroll_y == 0


@pytest.mark.parametrize("lang, refused", [
    ("en", "A name is 1 to 24 letters"),
    ("fr", "Un nom a de 1 à 24 lettres"),
])
async def test_a_player_sets_their_name_in_the_settings(ankh_home, lang, refused):
    """Two players on one machine sat as "root" and "root 2": the settings
    let each choose the name the table shows; a bad one is refused in the
    dialog, under the name, and nothing is lost."""
    from textual.widgets import Input, Static
    from ankh.net.files import home
    from ankh.tui.screens.settings import SettingsScreen
    i18n.set_language(lang)
    app = AnkhApp(bot_delay=0)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("s")
        await pilot.pause()
        name = app.screen.query_one("#name", Input)
        await pilot.press("tab")
        assert app.screen.focused is name
        name.value = ""
        await pilot.press(*"!!bad", "enter")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert refused in str(app.screen.query_one("#name-error", Static).render())
        assert home.player_name() == home.default_name()
        name.value = ""
        await pilot.press(*"Alice", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, SettingsScreen)
    assert home.player_name() == "Alice"
    assert home.load_identity().name == "Alice"              # the name a table is joined under


async def _notices_leave_the_title_whole(pilot, title: str) -> None:
    """Three notices of three lines each come up over the dialog on screen:
    its title is still read whole, its box (its text, its keys) is as it was,
    and the first notice is read whole beside it."""
    app = pilot.app
    await pilot.pause()
    lines = screen_lines(app)
    row = next(i for i, line in enumerate(lines) if title in line)  # the dialog's first line, over the screen behind
    box = next(w.region for w in app.screen.query(".dialog, #confirm, #pick, #handover, #composer"))  # with its border
    assert box.y <= row < box.bottom
    for n in range(3):
        app.notify(f"Notice {n}: " + "a notice long enough to take three lines of the rack " * 2, timeout=30)
    for _ in range(20):
        await pilot.pause(0.02)
    now = screen_lines(app)
    assert [line[box.x:box.right] for line in now[box.y:box.bottom]] == \
        [line[box.x:box.right] for line in lines[box.y:box.bottom]], "\n".join(now)
    assert title in now[row], "\n".join(now)
    shown = " ".join(" ".join(line.strip(" ▌") for line in now[:box.y] + now[box.bottom:]).split())
    assert "Notice 0: " + " ".join(("a notice long enough to take three lines of the rack " * 2).split()) in shown, \
        "\n".join(now)
    app.clear_notifications()
    await pilot.pause()


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_notice_never_covers_a_dialogs_title(lang):
    """A notice came up at the top right over the title of a dialog (the
    question of a small one, in the middle of the screen), and over the top
    right corner of its text: each dialog of either game keeps its title, its
    text and its keys in sight, at 80×24, in English and French."""
    from ankh.tui.games.guilds.trade import Composer
    from ankh.tui.screens.dialogs import Confirm, Pick, Shown
    from ankh.tui.screens.lobby import HostDialog
    from ankh.tui.screens.settings import SettingsScreen
    from ankh.tui.screens.title import LoadScreen, NewGameScreen
    i18n.set_language(lang)
    _ = i18n._
    app = AnkhApp(bot_delay=0)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for dialog, title in [
            (NewGameScreen("morpork"), _("New game")),
            (NewGameScreen("guilds"), _("New game")),
            (LoadScreen(), _("Load a saved game")),
            (SettingsScreen(), _("Settings")),
            (HostDialog("guilds"), _("Open a table on the network")),
            (Confirm(_("Quit the game?"), _("Quit"), _("Go back")), _("Quit the game?")),
            (Pick(_("Which game's rules?"), [("morpork", "A"), ("guilds", "B")]), _("Which game's rules?")),
            (Shown(_("Table fingerprint"), "abcd efgh"), _("Table fingerprint")),
        ]:
            await app.push_screen(dialog)
            await _notices_leave_the_title_whole(pilot, title)
            app.pop_screen()
    from .guilds.test_trade import at_the_composer, position
    app = AnkhApp(GameSession.from_text(position()), bot_delay=0)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await at_the_composer(pilot)
        assert isinstance(app.screen, Composer)
        await _notices_leave_the_title_whole(pilot, _("Trade"))


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_notice_while_the_bots_play_covers_neither_the_map_nor_the_status_line(lang, monkeypatch):
    """While the bots played, "Happening now" and "You paid green $2." sat over
    the right of the map (districts 4 and 6): at 80×24 a notice comes up under
    the map, over the lines that tell the last happenings, and stays whole."""
    from textual.app import App
    from textual.widgets._toast import Toast
    notify = App.notify   # (kept up however long a loaded machine takes to look)
    monkeypatch.setattr(App, "notify", lambda self, *a, **kw: notify(self, *a, **{**kw, "timeout": 600}))
    i18n.set_language(lang)
    app = AnkhApp(GameSession.from_text(scenarios.FOLLOW), bot_delay=0.3)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        seen = []
        for _ in range(400):
            await pilot.pause(0.02)
            screen = app.screen
            if getattr(screen, "view", None) is not None and screen.view.decision is not None:
                break
            toasts = [t for t in screen.query(Toast) if t.display and t.region.area]
            if not toasts:
                continue
            board, status = screen.query_one("#main").region, screen.query_one(StatusBar).region
            for toast in toasts:
                seen.append(str(toast.render()))
                assert not toast.region.overlaps(board) and not toast.region.overlaps(status), \
                    (toast.region, board, "\n".join(screen_lines(app)))
                assert toast.region.bottom <= 23, toast.region          # above the footer
                # whole: every line of it is on screen, none cut at an edge
                assert toast.region.height == toast.virtual_region.height, toast.region
        assert any(i18n._("Happening now") in text for text in seen), seen


async def test_a_resize_at_a_decision_keeps_its_step_and_the_option_under_the_cursor():
    """The Duckman's second step (where to?) was back at its first after a
    resize to 120×40 and back, and the cursor on the first option: the decision
    comes back as it was left, at either size."""
    from ankh.tui.games.morpork.widgets.prompt import DecisionPrompt
    app = AnkhApp(GameSession.from_text(scenarios.TWO_STEP), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("3")                    # the third piece: step 2, where to
        await pilot.pause()
        await pilot.press("down")
        await pilot.pause()

        def shown():
            prompt = app.screen.query_one(DecisionPrompt)
            question = str(prompt.query_one("#question", Static).render())
            return question, prompt.highlighted, prompt.query_one(Choices).option_count

        before = shown()
        assert "Step 2 of 2" in before[0] and before[1] is not None, before
        meant = app.screen.view.option_texts[before[1]]
        lines = len(app.screen.session.game.record.lines)
        for size in ((120, 40), (80, 24)):
            await pilot.resize_terminal(*size)
            for _ in range(5):
                await pilot.pause()
            assert shown() == before, size
            assert app.screen.focused is app.screen.query_one(Choices)
        await pilot.press("enter")                # and the option kept is the one chosen
        await pilot.pause()
        red = [line.text for line in app.screen.session.game.record.lines[lines:] if line.who == "red"]
        assert red[:1] == [meant], (red, meant)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_description_longer_than_its_rows_says_it_goes_on(lang):
    """The text of The Fools' Guild (and of an area under the options) stopped
    mid-sentence at the bottom of the screen, as if it ended there: cut to the
    rows it has, it ends in "…" and says where the whole of it is."""
    from ankh.tui.games.morpork.text import card_text
    i18n.set_language(lang)
    app = AnkhApp(GameSession.from_text(scenarios.RED_HOLDS.format(card="the-fools-guild")), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        seen = 0
        for _ in range(screen.query_one(Choices).option_count):
            option = screen.view.option_texts[screen.query_one("#prompt").highlighted]
            detail = screen.query_one("#detail", Static)
            region = detail.region.intersection(screen.query_one("#prompt").region)
            rows = [line[region.x:region.right].rstrip() for line in screen_lines(app)[region.y:region.bottom]]
            shown = " ".join(row.strip() for row in rows)
            whole = card_text(option.split()[1]) if option.startswith("play ") else ""
            if whole and whole.split()[-1] not in shown:           # cut: it says so, on screen
                seen += 1
                assert rows[-1].endswith(i18n._("… (h: the whole text)")), rows
            await pilot.press("down")
            await pilot.pause()
        assert seen, "no description was cut: nothing was tested"


async def test_an_option_longer_than_its_row_goes_on_under_itself_not_under_its_number():
    """In French at 80×24 "1. Jouer Le Titulaire de la Chaire d'Études Indéfinies
    Événement · Parchemin · Rejouer" ran on at the row's start, under the
    numbers, where it read as another option: it goes on under its own text."""
    i18n.set_language("fr")
    record = scenarios.OPENING.replace(
        "hand red: hex drumknott zorgo-the-retro-phrenologist shonky-shop",
        "hand red: the-chair-of-indefinite-studies professor-of-recent-runes hex groat")
    app = AnkhApp(GameSession.from_text(record), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        choices = app.screen.query_one(Choices)
        region = choices.region
        rows = screen_lines(app)[region.y:region.bottom]
        assert rows[0].startswith(" 1. Jouer Le Titulaire de la Chaire"), rows
        assert rows[1].startswith("    ") and rows[1].strip().startswith("Parchemin"), rows   # under its text
        assert all(r[:4].strip() in ("", "1.", "2.", "3.", "4.", "5.") for r in rows), rows


async def test_an_option_that_runs_on_is_laid_out_again_at_each_size():
    """The rows of an option are laid out at the width the list has now: on a
    wider terminal the long option fits its row; back at 80×24 it runs on under
    its own text again, never under the numbers."""
    i18n.set_language("fr")
    record = scenarios.OPENING.replace(
        "hand red: hex drumknott zorgo-the-retro-phrenologist shonky-shop",
        "hand red: the-chair-of-indefinite-studies professor-of-recent-runes hex groat")
    app = AnkhApp(GameSession.from_text(record), bot_delay=0)

    def rows() -> list[str]:
        region = app.screen.query_one(Choices).region
        return screen_lines(app)[region.y:region.bottom]

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert rows()[1].strip().startswith("Parchemin"), rows()
        for size in [(100, 24), (80, 24)]:
            await pilot.resize_terminal(*size)
            await settle(pilot)
            first = next(r for r in rows() if "Titulaire de la Chaire" in r)
            if size[0] == 100:
                assert "Parchemin · Rejouer" in first, rows()   # one row where there is room
            else:
                below = rows()[rows().index(first) + 1]
                assert below.startswith("    ") and below.strip().startswith("Parchemin"), rows()
