"""The guild variant on screen: chosen from the title, played to the end
against bots, a trade composed, countered and accepted, the map and panels
at 80×24 and 120×40 in English and French."""
from __future__ import annotations

import pytest
from textual.widgets import Static

from ankh.core.game import get
from ankh.core.guilds.board import RESOURCES
from ankh.tui import i18n
from ankh.tui.app import AnkhApp
from ankh.tui.games.guilds.screens import EndScreen, GameScreen
from ankh.tui.games.guilds.text import describe, option_text
from ankh.tui.session import GameSession

from ..helpers import notices

GUILDS = get("guilds")

# Red to play; the dice are fixed at 6+6 (12: the Palace, where nobody has
# a house), rolled at once (red has nothing else to do before the roll).
TRADE_POSITION = """\
game: guilds
players: 3
seed: 11
rolls: 6+6
turn: red
houses red: V10 V30
houses yellow: V22 V24
houses green: V27 V36
hand red: 2 brick 2 grain
hand yellow: 2 ore 1 wool
hand green: 1 lumber
"""


@pytest.fixture(autouse=True)
def no_guild_key_guard(request, monkeypatch):
    if "key_guard" not in request.keywords:
        monkeypatch.setattr(GameScreen, "KEY_GUARD", 0.0)


async def until(pilot, test, limit: int = 600) -> None:
    for _ in range(limit):
        if not pilot.app.workers and test():
            return
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
    raise AssertionError(f"never came (screen: {pilot.app.screen!r})")


def deciding(app) -> bool:
    s = app.screen
    return isinstance(s, GameScreen) and s.decision() is not None


def screen_text(app) -> str:
    """What the terminal shows, as text."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


async def test_whole_game_from_the_title_to_the_end_screen():
    app = AnkhApp(bot_delay=0, seed=3)     # a short game: 31 decisions of red's to the end (69 with seed 4)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("g")                       # the guild game, one key away
        await pilot.pause()
        await pilot.press("down", "down", "down", "down", "right")   # bots: normal (heuristic)
        await pilot.press("enter")
        await until(pilot, lambda: deciding(app))
        screen = app.screen
        assert screen.session.rules.id == "guilds"
        assert len(screen.session.bots) == 2
        for _ in range(3000):
            await until(pilot, lambda: deciding(app) or isinstance(app.screen, EndScreen))
            if isinstance(app.screen, EndScreen):
                break
            await pilot.press("enter")               # the first option, whatever it is
            await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        outcome = screen.session.game.state.outcome
        assert outcome is not None and outcome.scores[outcome.winners[0]] >= 12
        assert "wins with" in screen_text(app)


async def test_a_site_is_chosen_by_typing_its_number():
    session = GameSession.new(3, game=GUILDS, save=False, kind="heuristic", seed=7)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        d = app.screen.decision()
        free = [o[1] for o in d.options if o[1] >= 10]
        v = free[0]
        await pilot.press(*str(v))
        await pilot.press("enter")
        await until(pilot, lambda: deciding(app))
        assert session.game.state.occ[v] == 0 * 3 + 1        # red's house on the site typed


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_screen_at_both_sizes_in_both_languages(lang, size):
    i18n.set_language(lang)
    session = GameSession.from_text(TRADE_POSITION.replace("game: guilds", "game: guilds\nseats: red=person yellow=bot:heuristic green=bot:heuristic"))
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: deciding(app))
        text = screen_text(app)
        words = {"en": ("Grain", "Palace", "Assassins at large", "Trade, build"),
                 "fr": ("Blé", "Palais", "Assassins en liberté", "Échangez, bâtissez")}[lang]
        for w in words:
            assert w in text, (w, text[:2000])
        if size == (120, 40):       # everything at once: the guild table, the bank rates, the log
            more = {"en": ("President", "Your rates", "Turn 1"),
                    "fr": ("Président", "Vos taux", "Tour 1")}[lang]
            for w in more:
                assert w in text, w
        else:
            await pilot.press("p")
            await pilot.pause()
            assert {"en": "President", "fr": "Président"}[lang] in screen_text(app)


async def test_a_saved_guild_game_is_listed_by_name_and_loads_into_its_screen(ankh_home):
    from ankh.tui.session import list_saves
    session = GameSession.new(3, game=GUILDS, kind="heuristic", seed=9)
    session.game.advance()          # the bots place their houses; red's turn to place comes
    session.save()
    info, = list_saves()
    assert info.ok and info.game == "The Guilds of Ankh-Morpork" and info.summary.startswith("3 players")
    app = AnkhApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: deciding(app))
        assert app.screen.session.rules.id == "guilds"
        assert app.screen.session.game.record.lines == session.game.record.lines
        await pilot.press("question_mark")                 # the help is this game's
        await pilot.pause()
        assert "The Guilds of Ankh-Morpork" in screen_text(app)


class Clock:
    """The key guard's clock, moved on by the test alone (a loaded machine's
    slowness never lets the guard's time pass)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.mark.key_guard
async def test_keys_pressed_while_the_bots_played_do_not_answer_the_next_decision(monkeypatch):
    from ankh.tui.screens import play
    clock = Clock()
    monkeypatch.setattr(play, "time", clock)
    seen: list[str] = []                       # the keys the screen has had, as it has them
    on_key = play.PlayScreen.on_key

    def spy(self, event) -> None:
        on_key(self, event)
        seen.append(event.key)
    monkeypatch.setattr(play.PlayScreen, "on_key", spy)
    session = GameSession.new(3, you=2, game=GUILDS, save=False, kind="heuristic", seed=7)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))      # green places after red's and yellow's houses
        placed = sum(1 for o in session.game.state.occ if o >= 0)
        await pilot.press("1", "enter")                # at once: the guard holds
        await until(pilot, lambda: seen == ["1", "enter"])
        assert sum(1 for o in session.game.state.occ if o >= 0) == placed
        assert app.screen.typed == ""
        clock.now += 2 * GameScreen.KEY_GUARD          # the guard's time has passed
        await pilot.press("1", "0", "enter")
        await until(pilot, lambda: session.game.state.occ[10] == 2 * 3 + 1 and deciding(app))


@pytest.mark.key_guard
async def test_keys_pressed_on_and_on_hold_a_new_decision_off_four_guards_at_most(monkeypatch):
    from ankh.tui.screens import play
    clock = Clock()
    monkeypatch.setattr(play, "time", clock)
    session = GameSession.new(3, you=2, game=GUILDS, save=False, kind="heuristic", seed=7)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        placed = sum(1 for o in session.game.state.occ if o >= 0)
        step = 0.3 * GameScreen.KEY_GUARD * 2
        for _ in range(7):                             # a key every 0.3 s: each holds the guard on
            await pilot.press("1")
            await pilot.pause()
            clock.now += step
        assert sum(1 for o in session.game.state.occ if o >= 0) == placed and app.screen.typed == ""
        await pilot.press("1", "0", "enter")           # 2.1 s: four guards have passed since the
        # decision came, and keys that never paused get in (0.3 s after the last would hold them)
        await until(pilot, lambda: session.game.state.occ[10] == 2 * 3 + 1 and deciding(app))


async def test_a_typed_site_that_is_not_offered_builds_nothing_and_says_so():
    session = GameSession.new(3, you=2, game=GUILDS, save=False, kind="heuristic", seed=7)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: deciding(app))      # green places after red's and yellow's houses
        taken = next(v for v, o in enumerate(session.game.state.occ) if o >= 0 and v >= 10)
        placed = sum(1 for o in session.game.state.occ if o >= 0)
        await pilot.press(*str(taken), "enter")
        await pilot.pause()
        assert sum(1 for o in session.game.state.occ if o >= 0) == placed     # nothing built elsewhere
        assert f"Site {taken} cannot be chosen now" in app.screen.told.plain       # under the question
        assert f"Site {taken} cannot be chosen now" in str(app.screen.query_one("#g-head", Static).render())
        assert notices(app) == []                                             # not over the map
        assert app.screen.typed == ""
        await pilot.press("1", "0", "enter")                                  # a free site is built
        await until(pilot, lambda: deciding(app))
        assert session.game.state.occ[10] == 2 * 3 + 1
        assert app.screen.typed == ""                                         # and the number is gone


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_site_in_the_list_names_the_districts_it_touches(size):
    session = GameSession.new(3, you=0, game=GUILDS, save=False, kind="heuristic", seed=7)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: deciding(app))
        shown = screen_text(app)
        sites = [o[1] for o in app.screen.decision().options]
        assert 5 in sites and 27 in sites                     # the board's sites 5 and 27 are free
        assert "site 5  (Grain 6·11, Alchemists 5·10)" in shown
        await pilot.press("2", "7")                           # typed: the list scrolls to it
        await pilot.pause()
        assert "site 27  (Brick 6·3, University 5·4)" in screen_text(app)
        await pilot.press("4", "3")                           # the last site, at the list's foot
        await pilot.pause()
        assert "site 43  (Lumber 9·10)" in screen_text(app)


async def test_a_robber_spot_in_the_list_names_whom_it_blocks():
    position = (TRADE_POSITION.replace("game: guilds", "game: guilds\nseats: red=person yellow=bot:heuristic green=bot:heuristic")
                .replace("rolls: 6+6", "rolls: 4+3").replace("houses red: V10 V30", "houses red: V10 V29"))
    session = GameSession.from_text(position)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: deciding(app))
        d = app.screen.decision()
        assert d.kind == "seven", d
        brick6 = next(i for i, o in enumerate(d.options) if o[0] == "robber" and "Brick district 6" in option_text(session.game.state, o))
        choices = app.screen.query_one("#g-choices")
        choices.highlighted = app.screen._rows.index(brick6)       # (the list shows it in its group)
        await pilot.pause()
        assert "Move the robber to Brick district 6  (blocks Y yellow, G green)" in screen_text(app)
        palace9 = next(o for o in d.options if o[0] == "robber" and "Palace 9" in option_text(session.game.state, o))
        assert "blocks" not in option_text(session.game.state, palace9)          # nobody's house there


async def test_the_log_opens_on_its_newest_line_at_80x24():
    session = GameSession.new(3, you=0, game=GUILDS, save=False, kind="heuristic", seed=7)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        for _ in range(3):                                  # the setup's houses: more lines than the panel
            site = app.screen.decision().options[0][1]
            await pilot.press(*str(site), "enter")
            await until(pilot, lambda: deciding(app))
        assert len(session.log) > 15
        await pilot.press("l")
        await pilot.pause()
        await pilot.pause()
        assert describe(session.log[-1], 0).plain in screen_text(app)


async def decline_offers(pilot) -> None:
    """Decline the offers made to the person until their own turn's decision."""
    game = pilot.app.screen
    while game.decision().kind == "answer":
        await pilot.press(str(game.decision().options.index(("decline",)) + 1))
        await until(pilot, lambda: deciding(pilot.app))


async def test_at_80x24_your_turn_opens_on_what_happened_since_your_last_move():
    """As in the first game: yellow and green play their turns, and red's turn
    opens on what they did (nothing over it); red's answer brings the map
    back for the rest of the turn.  A turn that follows nobody's moves opens
    on the map."""
    seats = "game: guilds\nseats: red=person yellow=bot:heuristic green=bot:heuristic"
    position = TRADE_POSITION.replace("turn: red", "turn: yellow").replace("rolls: 6+6", "rolls:" + " 6+6" * 6)
    app = AnkhApp(GameSession.from_text(position.replace("game: guilds", seats)), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        game = app.screen
        assert game.decision().seat == 0
        assert game.panel == "since" and not app._notifications
        text = screen_text(app)
        assert "Y yellow rolls 6+6 = 12." in text                  # yellow's turn (then green's)
        assert "Palace" not in text                                   # the map waits behind it
        await decline_offers(pilot)                                   # the bots' offers to red, if any
        assert game.decision().kind == "action" and game.decision().seat == 0
        assert "R red rolls 6+6" in screen_text(app) or game.panel == "map"
        await pilot.press("2")                                        # a point in the brick guild
        await until(pilot, lambda: deciding(app))
        assert game.decision().kind == "action" and game.panel == "map"   # red's own turn goes on
        await pilot.press("1")                                        # end the turn
        await until(pilot, lambda: deciding(app))
        assert game.panel == "since"                                  # the others' turns: what they did
        await decline_offers(pilot)
        assert game.session.game.state.turn == 6 and game.decision().kind == "action"
    app = AnkhApp(GameSession.from_text(TRADE_POSITION.replace("game: guilds", seats)), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        assert app.screen.panel == "map" and "Palace" in screen_text(app)


async def test_the_players_panel_counts_one_card_in_the_singular():
    session = GameSession.from_text(TRADE_POSITION)          # green holds one card, yellow three
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: deciding(app))
        text = screen_text(app)
        assert "1 card · 0 parch." in text and "3 cards · 0 parch." in text, text
        assert "1 cards" not in text


async def test_a_link_down_is_said_once_under_the_prompt(monkeypatch):
    """A networked table with a link down gives the same words as its alert and
    as the note of whom it waits for: the line under the prompt says them once."""
    said = "Waiting for green (link down for 3 s)"
    monkeypatch.setattr(GameScreen, "table_status", lambda self: (said, said))
    app = AnkhApp(GameSession.from_text(TRADE_POSITION), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        app.screen.show()
        await pilot.pause()
        assert screen_text(app).count(said) == 1, screen_text(app)


async def test_the_thief_and_the_victim_read_which_card_went_and_the_others_read_a_card():
    # yellow holds a single grain: whatever the draw, red's steal takes it
    position = ("game: guilds\nplayers: 3\nseed: 3\nturn: red\nhouses red: V29\nhouses yellow: V24\n"
                "houses green: V31\nreceipts yellow: 0\nhand yellow: 1 grain\nhand red: 1 brick 1 wool\n"
                "* roll 3+4\nred: robber ORE:8\nred: rob yellow\n")
    session = GameSession.from_text(position)
    session.next()
    steal = next(e for e in session.log if e.kind == "steal")
    said = {}
    for seat in range(3):
        session.viewer = seat
        said[seat] = describe(steal, seat, session.stolen_card).plain
    assert said == {0: "R red steals 1 grain from Y yellow.", 1: "R red steals 1 grain from Y yellow.",
                    2: "R red steals a card from Y yellow."}
    session.viewer = 0
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: deciding(app))
        log = str(app.screen.query_one("#g-log", Static).render())
        assert "R red steals 1 grain from Y yellow." in log       # red's log says it


async def test_twelve_vp_with_a_hidden_vetinari_token_wins_at_once():
    """The win is automatic at 12 VP (catan-variant.md, the decisions' table):
    red's Vetinari token makes 12, so red's turn opens on the end screen, with
    no option to find at the bottom of a list and no key that could pass it by."""
    position = ("game: guilds\nplayers: 3\nseed: 4\nturn: red\nhouses yellow: V24\nhouses green: V31\n"
                "houses red: V09 V10 V11\nvillas red: V00 V01 V02 V03\ntokens red: vetinari-2\nrolls: 6+6\n")
    session = GameSession.from_text(position)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        assert session.over and session.game.state.outcome.winners == (0,)
        assert any(e.kind == "win" for e in session.log) and session.game.state.vshown[0] == 1
        await pilot.press("b")                                   # the board after the game
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("t")                                   # and the title from there
        await pilot.pause()
        assert type(app.screen).__name__ == "TitleScreen"


def test_since_your_last_move_keeps_what_came_to_you_and_leaves_out_what_you_did():
    from ankh.core.game import Event
    from ankh.tui.games.guilds.panels import since
    events = [Event("turn", 1, "turn 5: yellow"), Event("roll", 1, "yellow rolls 2+3 = 5"),
              Event("parchment", 0, "red takes a parchment"), Event("president", 0, "red presides the ore guild"),
              Event("build", 0, "red builds a house on V10")]
    text = since(events, 0).plain
    assert "Y yellow rolls 2+3 = 5." in text and "R red takes a parchment (Unseen University)." in text
    assert "president of the ore guild" in text and "builds" not in text


def test_since_your_last_move_starts_after_an_offer_you_took_back():
    """Red offered, the others answered, red took the offer back and ended its
    turn: its next turn opens on what came after that, not on the answers it
    read before it took the offer back."""
    from types import SimpleNamespace
    from ankh.core.game import Event
    from ankh.tui.games.guilds.panels import since
    events = [Event("turn", 0, "turn 5: red"), Event("roll", 0, "red rolls 2+3 = 5"),
              Event("offer", 0, "red offers 1 brick for 1 ore to all"),
              Event("answer", 1, "yellow accepts"), Event("answer", 2, "green declines"),
              Event("cancel", 0, "red takes the offer back"), Event("turn", 1, "turn 6: yellow"),
              Event("roll", 1, "yellow rolls 6+6 = 12")]
    start = GameScreen._last_own_move(SimpleNamespace(session=SimpleNamespace(log=events)), 0)
    text = since(events[start:], 0).plain
    assert "Y yellow rolls 6+6 = 12." in text
    assert "accepts" not in text and "declines" not in text and "back" not in text


def test_the_palace_says_which_of_your_points_you_choose():
    """One point per building, chosen in turn; after two in a guild it is no
    longer offered and the options move up: the prompt counts the points."""
    from ankh.tui.games.guilds.text import prompt_text
    session = GameSession.from_text("game: guilds\nplayers: 3\nseed: 11\nrolls: 6+6\nturn: red\n"
                                    "houses red: V12 V13 V18\nhouses yellow: V22 V24\nhouses green: V27 V36\n")
    said = []
    for _ in range(3):
        d = session.next().decision
        said.append(prompt_text(session.view(), d))
        session.choose(("gp", 1) if ("gp", 1) in d.options else d.options[0], d)   # lumber, lumber, then brick
    assert [s.split("number ")[1][0] for s in said] == ["1", "2", "3"], said
    assert "at most 2 in one guild" in said[2]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("where", ["setup", "phase C"])
async def test_a_resize_both_ways_keeps_the_decision_and_a_move_still_works(lang, where):
    """80×24 → 120×40 → 80×24 at a setup decision and at "Trade, build, or end
    your turn": the options, the footer's Choose and the keys stay."""
    from textual.widgets import Footer
    from ankh.tui.widgets.choices import Choices
    i18n.set_language(lang)
    if where == "setup":
        session = GameSession.new(3, you=0, game=GUILDS, save=False, kind="heuristic", seed=7)
    else:
        seats = "game: guilds\nseats: red=person yellow=bot:heuristic green=bot:heuristic"
        session = GameSession.from_text(TRADE_POSITION.replace("game: guilds", seats))
    choose = {"en": "⏎ Choose", "fr": "⏎ OK"}[lang]
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        game = app.screen
        d = game.decision()
        await pilot.press("down")                                 # the second option, highlighted
        for size in ((120, 40), (80, 24), (120, 40), (80, 24)):
            await pilot.resize_terminal(*size)
            await until(pilot, lambda: game.mode == ("wide" if size[0] == 120 else "compact"))
            await pilot.pause()
            await pilot.pause()
            choices = game.query_one("#g-choices", Choices)
            assert choices.option_count == len(d.options), size
            assert app.focused is choices and choices.highlighted == 1, size
            assert choose in screen_text(app), size
        log = len(session.log)
        if where == "setup":
            site = d.options[0][1]
            await pilot.press(*str(site), "enter")
            await until(pilot, lambda: deciding(app) and len(session.log) > log)
            assert session.game.state.occ[site] == 1              # red's house where typed
        else:
            await pilot.press("enter")                            # the second option, still highlighted
            await until(pilot, lambda: any(e.kind == "buy-gp" for e in session.log[log:]))
            assert d.options[1] == ("gp", 0)                      # a point in the brick guild, bought


async def test_keys_that_come_while_the_screen_lays_itself_out_again_are_kept(monkeypatch):
    """A resize across 120×34 builds the screen anew; a key that comes between
    the old layout's going and the new one's coming (a loaded machine, a typist)
    crashed the program (the option list was not there) or, typed, was lost:
    the site typed then is the one highlighted and built."""
    from ankh.tui.widgets.choices import Choices
    session = GameSession.new(3, you=0, game=GUILDS, save=False, kind="heuristic", seed=7)
    app = AnkhApp(session, bot_delay=0)
    compose = GameScreen.compose
    typed = []

    def keyed(self):
        if self.decision() is not None and not self.query("#g-choices"):   # the old layout gone
            self.action_digit(3)
            self.action_digit(3)
            self.action_jump("a")
            self.action_show_panel("map")
            typed.append(self.typed)
        yield from compose(self)
    monkeypatch.setattr(GameScreen, "compose", keyed)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        game = app.screen
        assert ("place", 33) in game.decision().options
        await pilot.resize_terminal(120, 40)
        await until(pilot, lambda: typed and game._options and app.focused is game.query_one("#g-choices", Choices))
        assert typed == ["33"]
        assert game._highlighted_option() == ("place", 33)
        await pilot.press("enter")
        await until(pilot, lambda: session.game.state.occ[33] == 1)


async def test_the_variants_rules_scroll_to_their_last_line_at_80x24_by_keyboard():
    """Each way of the keyboard reaches the rules' last line, and the rules opened again begin
    at their top (one game: the page is opened again for the next way from there)."""
    session = GameSession.new(3, you=0, game=GUILDS, save=False, kind="heuristic", seed=7)
    app = AnkhApp(session, bot_delay=0)
    last = "Vetinari tokens are shown to win."
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        await pilot.press("question_mark")
        await pilot.pause()
        for keys in (["end"], ["pagedown"] * 12, ["space"] * 12, ["tab", "end"],
                     ["end", "up", "up", "up", "down", "down", "down"]):
            # (opened, or opened again after the way before: at its top, where it begins)
            assert "A variant for Catan" in screen_text(app) and last not in screen_text(app), keys
            if keys[1:2] == ["up"]:                                      # ↑↓ a line at a time
                await pilot.press(*keys[:4])
                await until(pilot, lambda: last not in screen_text(app))
                keys = keys[4:]
            await pilot.press(*keys)
            await until(pilot, lambda: last in screen_text(app))
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            await pilot.press("question_mark")
            await pilot.pause()
        assert "A variant for Catan" in screen_text(app) and last not in screen_text(app)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_costs_at_a_glance_fit_their_panel_at_120x40(lang):
    """The costs' last line ("… GP 1 card · assassin 2") ran out of the side panel
    at 120×40 and wrapped "2" alone onto the next line."""
    from ankh.tui.games.guilds.text import costs_short
    i18n.set_language(lang)
    try:
        app = AnkhApp(GameSession.new(3, you=0, game=GUILDS, save=False, kind="heuristic", seed=7), bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: deciding(app))
            shown = screen_text(app)
            for line in costs_short():
                assert line in shown, (line, shown)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_titles_r_chooses_whose_rules_and_both_read_to_their_end(lang):
    i18n.set_language(lang)
    from ankh.tui.screens.dialogs import Pick
    app = AnkhApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for key, game in (("2", "guilds"), ("1", "morpork")):
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, Pick)
            text = screen_text(app)
            assert {"en": "The Guilds of Ankh-Morpork", "fr": "Les Guildes d'Ankh-Morpork"}[lang] in text
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
            title = {"guilds": "Guild", "morpork": "Ankh-Morpork"}[game]
            assert title in screen_text(app)
            await pilot.press("end")
            await pilot.pause()
            last = [line for line in open_rules(game, lang).splitlines() if line.strip()][-1]
            last = " ".join(last.replace("**", "").split()[-3:])     # the words that end the page
            assert last in " ".join(screen_text(app).split()), (game, lang)   # (wrapped anywhere)
            await pilot.press("escape")
            await pilot.pause()


def open_rules(game: str, lang: str) -> str:
    from pathlib import Path
    import ankh.tui.games as games
    return (Path(games.__file__).parent / game / "data" / f"rules{'.fr' if lang == 'fr' else ''}.md").read_text()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_variants_rules_page_says_its_rules_and_sends_nobody_to_a_file(lang):
    """It ended "The full reading of every rule is in the game's documentation
    (docs/guilds.md)", a file a player does not have: the readings it meant
    are on the page."""
    page = open_rules("guilds", lang)
    assert "docs/" not in page and ".md" not in page
    for words in {"en": ("## In detail", "Without a\n  licence it may only go to (or stay on) the Shades",
                         "at most 3 offers a\n  turn"),
                  "fr": ("## En détail", "Sans licence, il ne va (ou ne reste) que dans\n  les Ombres",
                         "3 offres au plus\n  par tour")}[lang]:
        assert words in page, words


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_counts_read_in_the_singular_and_the_plural_in_both_languages(lang):
    """gettext's plurals: never "1 tokens", "token(s)" or "card(s)"."""
    from ankh.core.game import Decision, Event
    from ankh.tui.games.guilds.text import prompt_text
    i18n.set_language(lang)
    one, two = describe(Event("vetinari", 0, "red shows 1 Vetinari token(s)"), 0).plain, \
        describe(Event("vetinari", 0, "red shows 2 Vetinari token(s)"), 0).plain
    words = {"en": ("shows 1 Vetinari token.", "shows 2 Vetinari tokens."),
             "fr": ("montre 1 jeton Vetinari.", "montre 2 jetons Vetinari.")}[lang]
    assert one.endswith(words[0]) and two.endswith(words[1])
    seats = "game: guilds\nseats: red=person yellow=bot:heuristic green=bot:heuristic"
    session = GameSession.from_text(TRADE_POSITION.replace("game: guilds", seats) + "tokens red: guard-1\n")
    for n, words in ((1, {"en": "1 card left", "fr": "1 carte à"}), (3, {"en": "3 cards left", "fr": "3 cartes à"})):
        d = Decision(0, "discard", (("discard", 0),), f"discard {n} more")
        assert words[lang] in prompt_text(session.view(), d)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: deciding(app))
        text = screen_text(app)
        assert {"en": "· 1 token · ", "fr": "· 1 jeton · "}[lang] in text and "(s)" not in text
        assert {"en": "· 0 tokens · ", "fr": "· 0 jeton · "}[lang] in text


@pytest.mark.parametrize("lang, palace, beggars", [
    ("en", "Move the robber to the Palace 12", "Move the robber to Beggars' Guild 2"),
    ("fr", "Déplacer le voleur sur le Palais 12", "Déplacer le voleur sur la guilde des mendiants 2"),
])
def test_a_district_named_inside_a_sentence_reads_as_one(lang, palace, beggars):
    """The robber's options and log name a district mid-sentence: "sur Le Palais 12"
    and "sur Guilde des mendiants 2" read wrong in French, "to The Palace" in English."""
    from ankh.core.game import Event
    from ankh.core.guilds.board import SPOT_IDS
    i18n.set_language(lang)
    try:
        session = GameSession.from_text(TRADE_POSITION)
        view = session.view()
        assert option_text(view, ("robber", SPOT_IDS.index("PALACE:12"))).startswith(palace)
        assert option_text(view, ("robber", SPOT_IDS.index("BEGGARS:2"))).startswith(beggars)
        line = describe(Event("robber", 0, "red moves the robber to PALACE:12"), 0).plain
        assert line.endswith(palace.split(" ", 3)[3] + "."), line
    finally:
        i18n.set_language("en")


def test_the_french_words_of_guilds_buildings_and_the_university():
    from ankh.core.game import Event
    i18n.set_language("fr")
    try:
        session = GameSession.from_text(TRADE_POSITION)
        ore = RESOURCES.index("ore")
        assert option_text(session.view(), ("gp", ore)) == "Un point dans la guilde du minerai (1 minerai)"
        assert describe(Event("buy-gp", 0, "red buys a point in the wool guild"), 0).plain.endswith(
            "achète un point dans la guilde de la laine.")
        assert describe(Event("build", 0, "red builds a house on V12"), 0).plain.endswith(
            "bâtit une maison sur le site 12.")
        assert "l'Université de l'Invisible" in describe(Event("uu", 0, "red takes a parchment"), 0).plain
        assert option_text(session.view(), ("take", ore)) == "Prendre 1 minerai"
    finally:
        i18n.set_language("en")
    assert option_text(session.view(), ("gp", ore)) == "A point in the ore guild (1 ore)"


async def test_o_for_oui_answers_yes_in_the_french_quit_dialog():
    from ankh.tui.screens.dialogs import Confirm
    i18n.set_language("fr")
    seats = "game: guilds\nseats: red=person yellow=bot:heuristic green=bot:heuristic"
    app = AnkhApp(GameSession.from_text(TRADE_POSITION.replace("game: guilds", seats)), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, Confirm) and "o / Entrée" in screen_text(app))
        await pilot.press("o")
        await until(pilot, lambda: not isinstance(app.screen, (Confirm, GameScreen)))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_log_tells_a_steal_skipped_and_why(lang):
    i18n.set_language(lang)
    try:
        for why, en, fr in (("7 or more cards in hand", "7 or more cards", "7 cartes ou plus"),
                            ("nobody to rob there", "nobody there can be robbed", "personne ici"),
                            ("by choice", "chooses to steal nothing", "choisit de ne rien voler")):
            event = type("E", (), {"kind": "no-steal", "seat": 0, "data": {},
                                   "text": f"red steals nothing ({why})"})()
            line = describe(event).plain
            assert (en if lang == "en" else fr) in line and "(" not in line.split(":")[0]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang, told", [
    ("en", ["R red gives brick to the Library for 2 parchments.",
            "The Alchemists' Laboratory blows up: the fire token is on it.",
            "R red spends 2 parchments for grain."]),
    ("fr", ["R rouge donne 1 argile à la Bibliothèque contre 2 parchemins.",
            "Le Laboratoire des alchimistes explose : le jeton feu y est posé.",
            "R rouge dépense 2 parchemins contre une carte : blé."]),
])
def test_the_log_names_the_card_taken_with_parchments_and_tells_the_library_before_the_fire(lang, told):
    """On a 5 the Library's swaps come first, then the Laboratory blows up (it
    was told blown up before the Library acted); a card taken with
    parchments is named (it said "spends 2 parchments")."""
    i18n.set_language(lang)
    try:
        session = GameSession.from_text(RICH_POSITION.replace("rolls: 6+6", "rolls: 2+3")
                                        .replace("houses red: V10 V30", "houses red: V05 V30"))
        for choice in (("roll",), ("swap", 0), ("p-card", 3)):
            while session.next().kind == "bot":
                nxt = session.next()
                session.apply_bot(nxt, session.think_job(nxt)())
            assert choice in session.next().decision.options, session.next().decision
            session.choose(choice, session.next().decision)
        lines = [describe(e, 0).plain for e in session.log]
        assert [line for line in lines if line in told] == told, lines
    finally:
        i18n.set_language("en")


SEVEN_POSITION = """\
game: guilds
players: 3
seed: 11
seats: red=person yellow=bot:heuristic green=bot:heuristic
rolls: 4+3
turn: red
houses red: V10 V29
houses yellow: V22 V24
houses green: V27 V36
hand red: 1 brick 1 lumber 1 wool 1 grain 1 ore
hand yellow: 2 ore 1 wool
hand green: 1 lumber
"""

# A 12 rolled, red rich in cards and parchments: a long phase C.
RICH_POSITION = (SEVEN_POSITION.replace("rolls: 4+3", "rolls: 6+6").replace("houses red: V10 V29", "houses red: V10 V30")
                 .replace("hand red: 1 brick 1 lumber 1 wool 1 grain 1 ore",
                          "hand red: 5 brick 5 lumber 5 wool 5 grain 5 ore\nparchments red: 12"))


def shortest_keys(game, target: int) -> list[str]:
    """The fewest keys that highlight option ``target`` of the list on
    screen: a group's letter then ↓, Home then ↓, or a site typed then ↓."""
    from ankh.tui.games.guilds.text import option_vertex
    rows, options = game._rows, game._options
    at = rows.index(target)

    def downs(start: int) -> list[str] | None:
        if start > at:
            return None
        return ["down"] * sum(1 for i in rows[start + 1:at + 1] if i is not None)
    ways = []
    first = next(r for r, i in enumerate(rows) if i is not None)
    ways.append(["home"] + downs(first))
    for letter, row in game._letters.items():
        if downs(row) is not None:
            ways.append([letter] + downs(row))
    v = option_vertex(options[target])
    if v is not None and game.legal_sites(game.decision()):
        row = next(r for r, i in enumerate(rows) if i is not None and option_vertex(options[i]) == v)
        ways.append(list(str(v)) + downs(row))
    return min(ways, key=len)


@pytest.mark.parametrize("text, kind", [(SEVEN_POSITION, "seven"), (RICH_POSITION, "before-roll"),
                                        (RICH_POSITION, "action")])
async def test_every_option_of_a_long_list_is_within_five_keys(text, kind):
    """After a 7 (the robber's 18 spots, the assassins, neither) and in a rich
    phase C (the bank, guild points, parchments, sites): the list is in
    groups, each option is reached by at most five keys (a group's letter, a
    site's number, Home, then ↓) and the keys reach it on screen; what is
    built or bought says what it costs."""
    from ankh.tui.widgets.choices import Choices
    app = AnkhApp(GameSession.from_text(text), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        game = app.screen
        if kind == "action":
            await pilot.press("1")                                  # roll (a 12)
            await until(pilot, lambda: deciding(app) and game.decision().kind == "action")
        d = game.decision()
        assert d.kind == kind and len(d.options) > 10, d
        choices = game.query_one("#g-choices", Choices)
        assert choices.option_count > len(d.options)               # the groups' headings
        listed = screen_text(app)
        for target in range(len(d.options)):
            keys = shortest_keys(game, target)
            assert len(keys) <= 5, (d.options[target], keys)
            await pilot.press(*keys)
            await pilot.pause()
            assert game._rows[choices.highlighted] == target, (d.options[target], keys)
            listed += screen_text(app)
        if kind == "seven":
            assert game._rows[0] == d.options.index(("pass",))    # "Neither" first, not last
            assert "a Move the robber · tokens 2–" in listed, listed      # (not the options' numbers)
        elif kind == "before-roll":
            assert "a Set the dice (5 parchments) · totals 2–5" in listed, listed
        else:
            assert "Build a house (brick, lumber, wool, grain)" in listed or "Lay a foundation (brick, lumber)" in listed
            assert "A development token" in listed, listed


@pytest.mark.parametrize("seed", range(4))
def test_every_line_of_the_log_is_told_in_the_players_words(seed):
    """Four-seat games of bots (red answering with the last option, so it
    declines, keeps and steals nothing too): every line of the log is one the
    screen words (it showed "yellow takes the offer back", "red plays first"
    and "the bank is short of wool: nobody takes any" as the notation, in
    lower case, in French too)."""
    import re
    from ankh.tui.games.guilds.text import LINES, TRADE_WORDS
    session = GameSession.new(4, game=GUILDS, kind="heuristic", seed=seed, save=False)
    while (nxt := session.next()).kind != "over":
        if nxt.kind == "bot":
            session.apply_bot(nxt, session.think_job(nxt)())
        else:
            d = nxt.decision
            session.choose(d.options[0] if d.kind == "action" else d.options[-1], d)
    told = [e.text for e in session.log if not (e.kind in TRADE_WORDS and e.data and "give" in e.data)]
    assert told
    assert [t for t in told if not any(re.fullmatch(pattern, t) for pattern, _w, _p in LINES)] == []


def test_a_guild_point_says_what_it_costs_and_the_palaces_is_free():
    """The Palace's point was listed as "A point in the brick guild (1 brick)",
    as if bought; a point bought after two in one turn costs two cards."""
    session = GameSession.from_text(RICH_POSITION.replace("houses red: V10 V30", "houses red: V12 V30"))
    while (nxt := session.next()).kind == "bot":
        session.apply_bot(nxt, session.think_job(nxt)())
    session.choose(("roll",), session.next().decision)          # a 12: the Palace
    d = session.next().decision
    assert d.kind == "palace"
    assert option_text(session.view(), ("gp", 0)) == "A point in the brick guild"
    session.choose(("gp", 0), d)
    while (d := session.next().decision).kind != "action":
        session.choose(d.options[0], d)
    assert option_text(session.view(), ("gp", 1)) == "A point in the lumber guild (1 lumber)"
    for _ in range(2):
        assert session.choose(("gp", 1), session.next().decision)
    assert option_text(session.view(), ("gp", 1)) == "A point in the lumber guild (2 lumber)"


@pytest.mark.parametrize("lang, shades, pick, told", [
    ("en", "Leave the robber on the Shades", "robber", "R red leaves the robber on the Shades."),
    ("fr", "Laisser le voleur dans les Ombres", "robber", "R rouge laisse le voleur dans les Ombres."),
    ("en", "Leave the robber on the Shades", "pass", "R red neither moves the robber nor hires an assassin."),
    ("fr", "Laisser le voleur dans les Ombres", "pass",
     "R rouge ne déplace pas le voleur et n'engage pas d'assassin."),
])
async def test_after_a_seven_without_a_licence_the_short_list_ends_with_neither(lang, shades, pick, told):
    """Red has no house by the Thieves' Guild: the robber may only go to the
    Shades (« dans le quartier des ombres », as the variant's French text says
    it), where it already stands, so the option leaves it there (it read "Move
    the robber to the Shades"); the assassins say what they cost, and
    "Neither" comes last.  Either choice is written in the log ("Neither"
    left no line: the table could not tell a seat that declined)."""
    i18n.set_language(lang)
    try:
        app = AnkhApp(GameSession.from_text(SEVEN_POSITION.replace("houses red: V10 V29", "houses red: V01 V12")),
                      bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            game = app.screen
            d = game.decision()
            assert d.kind == "seven" and len(d.options) <= 9, d
            assert game._shown_options() == list(range(len(d.options)))      # as the rules list them
            assert d.options[game._shown_options()[-1]] == ("pass",)         # "Neither" last
            shown = screen_text(app)
            assert f"1 {shades}" in shown, shown
            assert ("Hire an assassin for brick and lumber" if lang == "en"
                    else "Engager un assassin pour 1 argile et 1 bois") in shown, shown
            await pilot.press("1" if pick == "robber" else str(len(d.options)))
            await until(pilot, lambda: any(describe(e, 0).plain == told for e in app.screen.session.log))
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang, hand, dev", [
    ("en", ("1 wool  1 grain  1 ore  0 parchments", "0 guards, 0 Vetinari", "+ 0 hidden ="),
     "Buy a development token (wool, grain, ore)"),
    ("fr", ("1 laine  1 blé  1 minerai  0 parchemin", "0 garde, 0 Vetinari", "+ 0 caché ="),
     "Acheter un jeton de développement (laine, blé, minerai)"),
])
async def test_a_short_list_says_what_each_thing_costs_and_counts_read_right(lang, hand, dev):
    """A short phase C listed "Buy a development token" with no cost (a long
    list says it in its heading); the hand said "0 parchment" and "0 guard" in
    English (and French counts 0 in the singular: « 0 parchemin », « 0 caché »)."""
    i18n.set_language(lang)
    try:
        position = (TRADE_POSITION.replace("game: guilds", "game: guilds\nseats: red=person yellow=bot:heuristic green=bot:heuristic")
                    .replace("hand red: 2 brick 2 grain", "hand red: 1 wool 1 grain 1 ore"))
        app = AnkhApp(GameSession.from_text(position), bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app) and app.screen.decision().kind == "action")
            game = app.screen
            assert len(game.decision().options) <= 9 and None not in game._rows    # short: no headings
            assert dev in screen_text(app), screen_text(app)
            await pilot.press("h")
            await pilot.pause()
            assert all(words in screen_text(app) for words in hand), screen_text(app)
    finally:
        i18n.set_language("en")


def test_a_group_s_heading_says_what_it_costs_when_only_parchments_can_pay():
    """A development token only parchments could buy was headed
    "A development token ()": the heading took the cost of its first option."""
    from ankh.tui.games.guilds.groups import grouped
    options = (("end",), ("p-dev",), *[("gp", k) for k in range(5)], *[("p-card", k) for k in range(3)])
    headings = [heading for heading, _members in grouped(options)]
    assert "A development token (wool, grain, ore)" in headings, headings
    assert not any("()" in h for h in headings), headings


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_at_120x40_the_side_panels_wrap_between_kinds_never_inside_one(lang):
    """The hand panel cut "0 | ore" over two lines, and the guild note left "VP" alone on one."""
    i18n.set_language(lang)
    try:
        app = AnkhApp(GameSession.from_text(TRADE_POSITION), bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: deciding(app))
            text = screen_text(app)
            whole = {"en": ("0 ore", "2 grain", "· president 2:1, +1 VP"),
                     "fr": ("0 minerai", "2 blé", "· président 2:1, +1 PV")}[lang]
            for words in whole:
                assert words in text, (words, text)
    finally:
        i18n.set_language("en")


def test_a_spectator_s_hand_panel_says_what_the_players_panel_shows():
    """It said "every hand is in the players panel", which counts each player's cards."""
    from ankh.tui.games.guilds import panels
    view = GameSession.from_text(TRADE_POSITION).view()
    said = panels.hand(view, None).plain
    assert "how many cards each player holds" in said, said
    assert "3 cards" in panels.players(view, None).plain       # yellow's, as that panel counts them


@pytest.mark.parametrize("lang, yellow, green", [("en", "Y yellow", "G green"), ("fr", "J jaune", "V vert")])
def test_the_options_and_the_offer_asked_name_a_seat_by_its_letter_too(lang, yellow, green):
    """Played at 80×24, the options said "Steal a card from yellow", "(blocks
    yellow, green)", "Trade with green" and the question "Yellow offers…" while
    the log and the panels said "Y yellow": a seat is told apart by its letter
    as well as its colour (R Y G B; R J V B in French) there too."""
    from ankh.tui.games.guilds.text import offer_text
    i18n.set_language(lang)
    assert option_text(None, ("rob", 1)).endswith(yellow)
    assert option_text(None, ("deal", 2)).endswith(green)
    assert option_text(None, ("offer", "1b", "1o", 1)).endswith(yellow)
    assert offer_text((1, (1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0))).startswith(yellow + " ")


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_q_on_the_end_screen_quits_and_the_footer_says_so(lang):
    """On the guild end screen `q` did nothing (on the first game's it quits) and
    the footer did not offer it."""
    i18n.set_language(lang)
    position = ("game: guilds\nplayers: 3\nseed: 4\nturn: red\nhouses yellow: V24\nhouses green: V31\n"
                "houses red: V09 V10 V11\nvillas red: V00 V01 V02 V03\ntokens red: vetinari-2\nrolls: 6+6\n")
    app = AnkhApp(GameSession.from_text(position), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        assert "q " + i18n.pgettext("key", "Quit") in footer, footer
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


@pytest.mark.parametrize("lang, word", [("en", "tokens"), ("fr", "jetons")])
def test_a_robber_group_says_its_numbers_are_tokens_not_the_keys_of_its_options(lang, word):
    """"a Move the robber · 2–4" headed options numbered 2 to 6: the span read as
    the keys that choose them. It says "tokens 2–4" ("jetons" in French)."""
    from ankh.tui.games.guilds.groups import grouped
    i18n.set_language(lang)
    session = GameSession.from_text(SEVEN_POSITION)
    while (nxt := session.next()).kind == "bot":
        session.apply_bot(nxt, session.think_job(nxt)())
    d = nxt.decision
    assert d.kind == "seven", d
    robber = [h for h, _members in grouped(d.options) if i18n._("Move the robber") in h]
    assert len(robber) > 1 and all(f" · {word} " in h for h in robber), robber


async def test_a_robber_option_longer_than_its_row_goes_on_under_itself():
    """In French at 80×24 "8 Déplacer le voleur sur l'Université de l'Invisible 5
    (bloque J jaune, V vert)" ran on at the row's start, under the keys, where it
    read as another option: it goes on under its own text."""
    from ankh.tui.widgets.choices import Choices
    from ..helpers import screen_lines
    i18n.set_language("fr")
    app = AnkhApp(GameSession.from_text(SEVEN_POSITION), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        choices = app.screen.query_one("#g-choices", Choices)
        ran_on = 0
        for key in ["a"] + ["down"] * 8:
            await pilot.press(key)
            await pilot.pause()
            region = choices.region
            rows = screen_lines(app)[region.y:region.bottom]
            for row, below in zip(rows, rows[1:]):
                if "(bloque" in row and not row.rstrip(" ▁▂▃▄▅▆▇█").endswith(")"):
                    ran_on += 1
                    assert below.startswith("   "), rows              # under its text, not its key
        assert ran_on, "no option ran on: nothing was tested"
