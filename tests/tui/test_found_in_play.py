"""What a person playing whole games noticed, each kept from coming back."""
from __future__ import annotations

import pytest
from textual.widgets import Static

from ankh.tui.app import AnkhApp
from ankh.tui.games.morpork.screens.end import EndScreen
from ankh.tui.games.morpork.screens.game import GameScreen
from ankh.tui.session import GameSession

from . import scenarios
from .helpers import notices, settle


async def test_the_lines_under_the_map_say_a_turn_end_draw_once():
    """While a bot decides, the strip under the map tells the last happenings:
    "You ended your turn and drew 2 cards." is not followed by "You drew 2 cards."."""
    app = AnkhApp(bot_delay=0.4, seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "left", "down", "down", "down", "right", "right", "enter")  # 2 seats, easy
        seen = []
        for _ in range(400):
            await pilot.pause(0.02)
            screen = app.screen
            if not isinstance(screen, GameScreen) or screen.view is None:
                continue
            if screen.view.decision is not None:
                await pilot.press("enter")
                continue
            text = str(screen.query_one("#recent", Static).content)
            if "You ended your turn and drew" in text:
                seen.append(text)
                if len(seen) >= 2:
                    break
        assert seen, "never saw the strip after an end of turn"
        for text in seen:
            assert "You drew" not in text, text


# Red plays Wee Mad Arthur with nowhere to build (trouble wherever red has a
# minion and no building, a building of red's own in Dimwell): only skipping
# and red's City Area card are offered.
NOWHERE_TO_BUILD = """\
# ankh record 1
players: 2
seed: 3
first: red
hand red: wee-mad-arthur groat hex the-royal-mint nobby-nobbs
area dimwell: red building=red

red: play wee-mad-arthur
"""


async def test_a_card_text_that_cannot_be_carried_out_says_so():
    app = AnkhApp(GameSession.from_text(NOWHERE_TO_BUILD), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.view.option_texts[0] == "skip"
        assert not any(o.startswith("scroll") for o in screen.view.option_texts)
        detail = str(screen.query_one("#detail", Static).content)
        assert "half the area's cost" in detail          # the text skipped
        assert "Nothing this text does is possible now" in detail


def test_the_log_line_for_a_win_on_points_starts_a_sentence():
    from ankh.core.morpork.model import Event
    from ankh.tui.games.morpork.words import describe
    one = Event("win", 1, "yellow wins on points (75)", {"winners": [1], "amount": 75})
    two = Event("win", 1, "yellow and green win on points (40)", {"winners": [1, 2], "amount": 40})
    assert describe(one, 0, None) == "Yellow won on points (75)."
    assert describe(two, 0, None) == "Yellow and green share the win on points (40 each)."
    assert describe(two, 1, None) == "You and green share the win on points (40 each)."


async def test_lord_rust_is_told_how_to_win_not_to_look_up_lord_selachii():
    record = """\
# ankh record 1
players: 3
seed: 4
first: red
personality red: lord-rust
"""
    app = AnkhApp(GameSession.from_text(record), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        you = app.screen.query_one("#you")
        aim = str(you.render())
        assert "Lord Rust" in aim
        assert "you win if you control at least N areas" in aim
        assert "Same condition" not in aim


# Red's Rincewind draws Fog, which turns the last card of the draw pile: the
# game ends at red's refill, on points.
FOG_ENDS_IT = """\
# ankh record 1
players: 2
seed: 17
first: red
hand red: rincewind
events: fog
draw-pile: 1
"""


async def test_the_end_screen_is_not_hidden_under_the_last_moves_notices():
    app = AnkhApp(GameSession.from_text(FOG_ENDS_IT), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1")                            # play Rincewind: Fog
        await settle(pilot)
        for _ in range(10):
            if isinstance(app.screen, EndScreen):
                break
            await pilot.press("enter")
            await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        await pilot.pause()
        assert notices(app) == []                         # the result shows in full
        assert any(e.kind == "event" for e in app.screen.app.screen_stack[-2].session.log)


async def test_ankh_host_keeps_its_name_and_no_advertise_options_on_the_screen(monkeypatch):
    """``ankh host --name alice --no-advertise`` (and ``join --name``) mean the
    same with a screen as headless: the table shows alice, and is not announced."""
    from ankh.tui import cli
    made = []
    monkeypatch.setattr(AnkhApp, "run", lambda self: made.append(self) or 0)
    assert cli.main(["host", "--name", "alice", "--no-advertise", "--bind", "127.0.0.1"]) == 0
    assert cli.main(["join", "127.0.0.1:9", "--name", "bob"]) == 0
    host, joiner = made
    assert (joiner.table_name, joiner.advertise) == ("bob", True)
    async with host.run_test(size=(80, 24)) as pilot:
        session = host.screen.session
        for _ in range(100):
            if session.address and ":" in session.address:
                break
            await pilot.pause(0.05)
        await pilot.pause(0.3)
        lobby = str(host.screen.query_one("#lobby-body").content)
        assert "alice" in lobby
        assert not session.node.advertise and session.advertised is None
        assert "Announced on the LAN" not in lobby


async def test_the_same_ankh_join_after_a_crash_puts_the_screen_back_at_the_seat(tmp_path, monkeypatch):
    """``ankh join HOST:PORT`` again after the joiner was killed: the game
    screen at the seat (not "the table is full"), and the game goes on."""
    from ..net.procs import Peers
    peers = Peers()
    try:
        host = peers.start(["host", "--headless", "--bot", "random", "--seats", "2",
                            "--bind", "127.0.0.1", "--seed", "51"], tmp_path / "host")
        port = int(host.value("listening on port"))
        joiner = peers.start(["join", f"127.0.0.1:{port}", "--headless", "--bot", "random", "--seed", "52"],
                             tmp_path / "join")
        joiner.wait_for(lambda line: line.startswith("turn 4:"), timeout=120)
        joiner.kill()
        monkeypatch.setenv("ANKH_HOME", str(tmp_path / "join"))
        app = AnkhApp(bot_delay=0, net=("join", ("127.0.0.1", port)))
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(400):
                if isinstance(app.screen, GameScreen):
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, GameScreen), "not back at the table"
            session = app.screen.session
            moves = 0
            for _ in range(1500):                 # the game goes on: this seat decides again, twice
                if moves == 2 or session.result is not None:
                    break
                screen = app.screen
                if isinstance(screen, GameScreen) and screen.view is not None \
                        and screen.view.decision is not None and session.decision is not None:
                    await pilot.press("enter")
                    moves += 1
                    for _ in range(100):
                        if session.decision is None:
                            break
                        await pilot.pause(0.02)
                await pilot.pause(0.02)
            assert moves == 2 or (session.result is not None and session.result.fair)
            assert session.error is None
    finally:
        peers.stop_all()


# Yellow's Thieves' Guild takes $2 from green, then from red, who holds Wallace Sonky.
THIEVES = """\
# ankh record 1
players: 3
seed: 8
first: yellow
seats: red=person yellow=bot:random green=bot:random
hand red: wallace-sonky groat
hand yellow: the-thieves-guild
hand green: hex
yellow: play the-thieves-guild
yellow: scroll
"""


async def test_an_interrupt_window_for_a_card_text_names_the_card_not_its_last_victim():
    app = AnkhApp(GameSession.from_text(THIEVES), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.view.decision.kind == "window"
        question = str(screen.query_one("#question", Static).content)
        assert "because: Yellow is carrying out The Thieves' Guild." in question, question
        assert "Green paid" not in question
        detail = str(screen.query_one("#detail", Static).content)   # "pass" highlighted: what goes ahead
        assert "Every other player pays you $2" in detail, detail


async def test_page_down_scrolls_a_summary_too_long_for_80x24():
    """Four seats: what the three others did since your move does not fit on
    80×24; PgDn shows the rest of it (it used to switch to the log)."""
    from textual.containers import VerticalScroll
    app = AnkhApp(bot_delay=0, seed=21)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "right", "enter")                 # 4 seats, 3 bots
        for _ in range(30):
            await settle(pilot)
            screen = app.screen
            box = screen.query_one("#since", VerticalScroll)
            if screen.panel == "since" and box.max_scroll_y > 0:
                break
            await pilot.press("enter")
        else:
            raise AssertionError("no summary longer than the screen came")
        await pilot.press("pagedown")
        await pilot.pause()
        assert screen.panel == "since" and box.scroll_y > 0
        await pilot.press("pageup")
        await pilot.pause()
        assert screen.panel == "since" and box.scroll_y == 0


async def test_the_help_says_which_key_chats_at_a_networked_table():
    """The footer has no room for it at 80 columns: the help's keys say it."""
    for lang, words in (("en", "c          a game on the network: say something to the table"),
                        ("fr", "c          partie en réseau : dire quelque chose à la table")):
        from ankh.tui import i18n
        i18n.set_language(lang)
        app = AnkhApp(bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            app.action_help("keys")
            await pilot.pause()
            assert words in str(app.screen.query_one("#keys-text", Static).content)


def test_link_back_is_said_until_the_game_moves_on():
    """"Link to red is back." stayed on the status line for the rest of the
    game (cut to "Link to red is" at 80 columns)."""
    from ankh.core.morpork.model import Event
    from ankh.net.play.events import Back, Gone, Played
    from ankh.net.play.peer import Logged
    from ankh.tui.netplay import NetSession
    session = NetSession()
    session.report(Gone(0, "timeout"))
    assert "lost" in session.net_alert
    session.report(Back(0))
    assert session.net_alert == "" and session.net_note == "Link to red is back."
    session.report(Played(0, Logged(Event("money", 0, "red takes $1", {"amount": 1}))))
    assert session.net_note == ""


async def test_bot_delay_0_on_the_command_line_keeps_the_screen_alive(monkeypatch):
    """``ankh --bot-delay 0`` against hard bots froze the screen while each one
    searched (keys unanswered, nothing drawn): the bots thought on its thread."""
    import threading
    from ankh.tui import app as app_module
    from ankh.tui.session import GameSession
    made, threads = [], set()
    monkeypatch.setattr(AnkhApp, "run", lambda self: made.append(self) or 0)
    think_job = GameSession.think_job

    def watched(self, nxt):
        job = think_job(self, nxt)
        return lambda: threads.add(threading.current_thread()) or job()
    monkeypatch.setattr(GameSession, "think_job", watched)
    assert app_module.run(["--bot-delay", "0", "--seed", "3"]) == 0
    (app,) = made
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "left", "enter")                  # 2 seats, a hard bot
        for _ in range(6):
            await settle(pilot)
            await pilot.press("enter")
        assert threads and threading.main_thread() not in threads


async def test_notices_cover_neither_the_map_nor_the_options_of_a_decision_at_80x24():
    """Notices (what a card showed you, what hit you) came up over the map and
    the options when your decision began: at 80×24 the summary since your
    last move tells it instead, shown at once, and no notice is on screen."""
    from textual.widgets._toast import Toast
    from ankh.tui.widgets.choices import Choices
    from ankh.tui.games.morpork.widgets.summary import Summary
    from . import scenarios
    app = AnkhApp(GameSession.from_text(scenarios.MRS_CAKE), bot_delay=0)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("enter")                       # Mrs Cake shows red the unused personalities
        await settle(pilot)
        await pilot.pause(0.3)
        screen = app.screen
        assert screen.view.decision is not None
        assert list(screen.query(Toast)) == [] and notices(app) == []
        assert screen.panel == "since"
        told = str(screen.query_one(Summary).render())
        assert "You looked at the unused personalities" in told, told
        assert screen.query_one(Choices).region.height > 0
        await pilot.press("m")                           # the map, whole
        await pilot.pause()
        assert list(screen.query(Toast)) == []


async def test_no_notice_is_over_the_help():
    """A notice up when the help opens (what the bots' moves did to you, kept
    on a large terminal) is not put over the help."""
    from textual.widgets._toast import Toast
    session = GameSession.new(4, 0, kind="random", seed=7, save=False)   # yellow, green, blue play first
    app = AnkhApp(session, bot_delay=0.05)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        for _ in range(200):
            if notices(app):
                break
            await pilot.pause(0.02)
        assert notices(app), "no notice came"
        app.action_help("keys")
        for _ in range(20):
            await pilot.pause(0.05)
            shown = [t for t in app.screen.query(Toast) if t.display and t.region.area]
            assert shown == [], notices(app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.view.decision is not None


async def test_the_arrows_go_from_tab_to_tab_in_the_help():
    """The help opened on Rules and only Tab, Tab, → reached Cards: nothing said so."""
    from textual.widgets import Input, TabbedContent
    app = AnkhApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "1")                              # the title's rules
        tabs = app.screen.query_one(TabbedContent)
        assert tabs.active == "rules"
        await pilot.press("right")
        assert tabs.active == "cards" and isinstance(app.screen.focused, Input)
        await pilot.press(*"gasp", "left")                  # typed words keep their arrows
        assert tabs.active == "cards" and app.screen.focused.cursor_position == 3
        await pilot.press("tab")
        await pilot.press("right")
        assert tabs.active == "keys"
        await pilot.press("right")
        assert tabs.active == "rules"
        await pilot.press("left", "left")
        assert tabs.active == "cards"


async def test_the_hand_says_when_an_interrupt_card_may_be_played():
    """Gaspode in the hand read only "That single move or removal does not happen."."""
    record = """\
# ankh record 1
players: 3
seed: 6
first: red
hand red: groat gaspode
"""
    app = AnkhApp(GameSession.from_text(record), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("h")
        from ankh.tui.games.morpork.widgets.hand import Hand
        hand = str(app.screen.query_one(Hand).render())
        assert "That single move or removal does not happen." in hand
        assert "Played: When another player's card" in hand


# Yellow and green end on 53 points each; yellow's City Area card (Small Gods,
# $18) is worth more than green's (The Hippo $12, Dimwell $6).
TIED = scenarios.THREE.format(first="red") + """\
hand red: groat gaspode hex the-royal-mint nobby-nobbs
area small-gods: yellow yellow building=yellow
area the-hippo: green building=green
area dimwell: green building=green
money yellow: 10
money green: 10
draw-pile: 1

red: play groat
red: minion dragons-landing
"""


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_win_on_points_after_a_tie_says_what_broke_the_tie(lang):
    """The end screen gave yellow the win on points beside green's equal total,
    with no word of why: it says they tied and the City Area card that won."""
    from ankh.tui import i18n
    from ankh.tui.games.morpork.text import area_title
    i18n.set_language(lang)
    app = AnkhApp(GameSession.from_text(TIED), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        assert app.screen.final.outcome.winners == (1,) and app.screen.final.outcome.scores[1:] == (53, 53)
        said = " ".join(str(app.screen.query_one("#why", Static).render()).split())
        assert "53" in said and i18n._("green") in said, said
        assert area_title("small-gods") in said and "$18" in said, said


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_what_is_said_at_your_decision_at_80x24_is_under_the_options_not_over_them(lang):
    """At 80×24, `u` with nothing to take back put its notice over the right end
    of the option rows: it is said under them, in the description's place, and
    the description comes back after it."""
    from textual.widgets._toast import Toast
    from ankh.tui import i18n
    from ankh.tui.widgets.choices import Choices
    from .helpers import screen_lines
    i18n.set_language(lang)
    app = AnkhApp(GameSession.from_text(scenarios.OPENING), bot_delay=0)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        choices = screen.query_one(Choices).region
        rows = screen_lines(app)[choices.y:choices.bottom]
        description = screen.query_one("#detail", Static).render()
        await pilot.press("u")
        await pilot.pause()
        await pilot.pause()
        assert list(screen.query(Toast)) == [] and notices(app) == []
        lines = screen_lines(app)
        now = screen.query_one(Choices)
        shown = now.region                   # (a longer word than the description: fewer rows)
        assert shown.y == choices.y and now.scroll_offset.y == 0 and shown.height >= 3
        bar = now.scrollbar_size_vertical + 1              # (the scroll bar moves: the rows, whole)
        assert [r[:-bar] for r in lines[shown.y:shown.bottom]] == [r[:-bar] for r in rows[:shown.height]]
        under = " ".join(line.strip() for line in lines[shown.bottom:-1])
        why = screen.session.undo_refusal()
        title = i18n._("{title}:").format(title=i18n._("Cannot take back"))       # "Impossible d'annuler :"
        assert title in under and why.split()[0] in under, under
        for size in ((120, 40), (80, 24)):                                # laid out anew: still said
            await pilot.resize_terminal(*size)
            for _ in range(4):
                await pilot.pause()
        assert i18n._("Cannot take back") in str(screen.query_one("#detail", Static).render())
        screen._told_timer.stop()
        screen._untell()                                                  # its time is up
        await pilot.pause()
        assert screen.query_one("#detail", Static).render() == description
