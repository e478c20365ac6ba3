"""Following the table: what happened since your last move, notices as
things happen, the log at the panel's width, what cards show you, big
choices in two steps, and keys pressed while the bots play."""
from __future__ import annotations

import asyncio
import random
import time

import pytest

from ankh.core.morpork.model import Decision
from ankh.core.morpork.notation import format_option
from ankh.net.play.local import LocalGame
from ankh.tui.app import AnkhApp
from ankh.tui.games.morpork.screens.game import GameScreen
from ankh.tui.session import GameSession
from ankh.tui.games.morpork.steps import AreaKeys, by_area, first_step, reachable, second_step
from ankh.tui.games.morpork.text import AREA_IDS
from ankh.tui.games.morpork.widgets.log import GameLog
from ankh.tui.games.morpork.widgets.players import You
from ankh.tui.games.morpork.widgets.summary import Summary

from . import scenarios
from .helpers import notices, settle, two_people


def app_for(record: str, **kw) -> AnkhApp:
    return AnkhApp(GameSession.from_text(record), bot_delay=0, **kw)


def summary_text(app) -> str:
    return str(app.screen.query_one(Summary).render())


def question(app) -> str:
    return str(app.screen.query_one("#question").render())


async def test_the_summary_tells_each_seat_s_moves_and_what_hit_you():
    app = app_for(scenarios.FOLLOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.view.decision.kind == "turn" and screen.view.decision.seat == 0
        text = summary_text(app)
        # the interrupt that cancelled red's move, in red's own turn
        assert "Yellow played Gaspode: the minion in The Shades does not move. Your action is cancelled." in text
        # yellow's assassination of red's minion: the attempt, then the removal
        assert "Yellow targeted your minion in The Shades for assassination." in text
        assert "Your minion in The Shades was removed." in text
        # green's Hubert: blue pays red
        assert "Green played Hubert." in text and "Blue paid you $3." in text
        # blue's turn, played just now by the bot: the random event and its die
        assert "Random event: Explosion." in text
        assert "Explosion: the die says 6, The Hippo." in text
        assert "Green's building in The Hippo was destroyed." in text
        # seats in turn order, real names, no ids
        assert text.index("Y yellow") < text.index("G green") < text.index("B blue")
        assert "the-shades" not in text and "gaspode" not in text
        # at 80×24 the summary shows first; the map marks what changed
        assert screen.panel == "since"
        shades, hippo = AREA_IDS.index("the-shades"), AREA_IDS.index("the-hippo")
        assert {shades, hippo} <= screen.marks
        await pilot.press("m")
        assert screen.panel == "map"
        # acting clears the marks
        await pilot.press("enter")
        await settle(pilot)
        assert screen.marks == frozenset() or screen.view.decision.seat != 0


async def test_random_events_rolls_and_hits_get_a_notice_as_they_happen():
    """On a large terminal as notices; at 80×24, where a notice would cover
    the map at your decision, in the summary since your last move."""
    for size in ((120, 40), (80, 24)):
        app = AnkhApp(GameSession.from_text(scenarios.FOLLOW), bot_delay=0.05)   # paced, as played
        posted: list[str] = []   # every notice, including those that timed out before the game came back
        real_notify = app.notify
        app.notify = lambda message, *a, **kw: (posted.append(str(message)), real_notify(message, *a, **kw))[1]
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            told = "\n".join(posted) if size == (120, 40) else summary_text(app)
            assert size == (120, 40) or notices(app) == []
            assert "Random event: Explosion." in told
            assert "Explosion: the die says 6, The Hippo." in told
            # what was only replayed from the record is not told again as news
            assert "Gaspode" not in "\n".join(posted)


async def test_the_wide_screen_shows_the_summary_beside_the_marked_map():
    app = app_for(scenarios.FOLLOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.screen.mode == "wide"
        assert "Blue paid you $3." in summary_text(app)
        board = str(app.screen.query_one("#map").render())
        assert "7*The Shades" in board and "6*The Hippo" in board


async def test_the_log_wraps_at_the_panel_width_also_for_lines_written_while_hidden():
    app = app_for(scenarios.FOLLOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("m")            # the log stays hidden while a move is played
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("l")
        await pilot.pause()
        await pilot.pause()
        log = app.screen.query_one(GameLog)
        width = log.scrollable_content_region.width
        rows = [strip.text.rstrip() for strip in log.lines]
        assert width > 60
        assert any(len(r) > 40 for r in rows)       # not wrapped at 20 columns
        assert all(len(r) <= width for r in rows)
        assert any("Yellow targeted your minion in The Shades for assassination." in r for r in rows)
        assert any(r.startswith("━━ Turn 2: yellow ━") for r in rows)
        # the keyboard scrolls it without focusing it
        end = log.scroll_y
        await pilot.press("pageup")
        assert log.scroll_y < end
        # a wider terminal lays every line out again at the new width
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        log = app.screen.query_one(GameLog)
        wide = log.scrollable_content_region.width
        rows = [strip.text.rstrip() for strip in log.lines]
        header = next(r for r in rows if r.startswith("━━ Turn 2"))
        assert len(header) == wide


async def test_mrs_cake_shows_the_unused_personalities_and_the_panel_remembers():
    app = app_for(scenarios.MRS_CAKE)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.view.option_texts[0] == "scroll"
        await pilot.press("enter")
        await settle(pilot)
        seen = screen.session.view().unused_seen
        assert len(seen) == 3
        # at 80×24 the summary since your last move tells it, rather than a notice over the map
        names = [n for n in summary_text(app).splitlines() if "You looked at the unused personalities:" in n]
        assert names, summary_text(app)
        from ankh.tui.games.morpork.text import personality_name
        for pid in seen:
            assert personality_name(pid) in names[0]
        await pilot.press("p")
        you = str(screen.query_one(You).render())
        assert "Unused personalities you have seen:" in you
        assert all(personality_name(pid) in you for pid in seen)


# --- two steps ------------------------------------------------------------------------------------


def random_decisions(games: int = 60, players=(2, 3, 4)):
    """(option texts) of every decision of random games."""
    for seed in range(games):
        n = players[seed % len(players)]
        rng = random.Random(seed)
        game = LocalGame.new(n, seed)
        s = game.state
        steps = 0
        while s.outcome is None and steps < 3000:
            d = s.pending
            if isinstance(d, Decision):
                yield [format_option(s, o) for o in d.options]
                game.choose(rng.choice(d.options))
            else:
                game.step()
            steps += 1


def test_two_steps_reach_exactly_the_options_of_the_flat_list():
    grouped = 0
    for texts in random_decisions():
        got = reachable(texts)
        assert sorted(got) == list(range(len(texts)))        # every option, each once
        entries = first_step(texts)
        if any(e.group for e in entries):
            grouped += 1
            assert len(entries) < len(texts)
            for e in entries:
                if e.group:
                    second = second_step(texts, e)
                    assert by_area(second)                # the second step is chosen by area number
                    assert {texts[x.options[0]] for x in second} == {texts[i] for i in e.options}
        if by_area(entries):
            areas = [e.area for e in entries if e.area is not None]
            assert len(set(areas)) == len(areas)             # one entry per area number
    assert grouped > 20, "the random positions must include long lists, or this proves little"


def test_typed_area_numbers_reach_10_to_12_and_single_digits():
    keys = AreaKeys(window=1.0)
    offered = {1, 2, 10, 11, 12}
    assert keys.press("1", offered, 0.0) == 1
    assert keys.press("2", offered, 0.5) == 12
    assert keys.press("1", offered, 5.0) == 1
    assert keys.press("0", offered, 5.2) == 10
    assert keys.press("2", offered, 9.0) == 2
    assert keys.press("7", offered, 9.1) is None


async def test_a_two_step_choice_picks_the_piece_then_the_area_by_its_number():
    app = app_for(scenarios.TWO_STEP)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert len(screen.view.option_texts) == 22
        assert "Step 1 of 2" in question(app)
        await pilot.press("3")                         # the third piece: yellow's in The Scours
        assert "Step 2 of 2" in question(app)
        await pilot.press("escape")                    # back, and in again
        assert "Step 1 of 2" in question(app)
        await pilot.press("3")
        await pilot.press("6")                         # The Hippo is area 6: highlighted, not chosen
        assert screen.view.decision.kind == "move"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.view.area("the-hippo").minions[1] == 1
        assert screen.view.area("the-scours").minions[1] == 0


# --- keys while the bots play ------------------------------------------------------------------------


@pytest.mark.key_guard
async def test_keys_pressed_during_bot_turns_do_not_answer_the_next_decision(monkeypatch):
    # a long guard, so that a busy machine's pauses between key presses do not end it
    monkeypatch.setattr(GameScreen, "KEY_GUARD", 3.0)
    app = AnkhApp(GameSession.from_text(scenarios.FOLLOW), bot_delay=0.2)
    async with app.run_test(size=(80, 24)) as pilot:
        lines = len(app.screen.session.game.record.lines)
        screen = app.screen

        def reds_turn() -> bool:
            d = screen.view.decision
            return d is not None and d.seat == 0 and d.kind == "turn"

        # hold "1" down through the bots' turns (however long a busy machine makes
        # them) and well into red's
        give_up = time.monotonic() + 60
        while not reds_turn():
            assert time.monotonic() < give_up, screen.view.waiting_for
            await pilot.press("1")
            await asyncio.sleep(0.1)
        for _ in range(10):
            await pilot.press("1")
            await asyncio.sleep(0.1)
        assert reds_turn(), screen.view.decision
        red_lines = [line for line in screen.session.game.record.lines[lines:] if line.who == "red"]
        assert red_lines == []                           # not one of red's decisions was taken
        # once the keys stop, the next one counts
        await asyncio.sleep(GameScreen.KEY_GUARD + 0.5)
        await pilot.press("1")
        await pilot.pause()
        assert [line.who for line in screen.session.game.record.lines[lines:]].count("red") == 1


async def test_where_the_options_are_areas_digits_are_area_numbers_not_option_numbers():
    app = app_for(scenarios.PLACE_MINION)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        texts = screen.view.option_texts
        assert "minion nap-hill" in texts and "minion dolly-sisters" in texts
        prompt = screen.query_one("#prompt")
        prompt._keys.window = 60.0  # a busy machine may pause between keys longer than a person does
        await pilot.press("1")                       # area 1, Dolly Sisters: highlighted only
        assert texts[prompt.highlighted] == "minion dolly-sisters"
        await pilot.press("2")                       # "1" then "2": area 12, Nap Hill
        assert texts[prompt.highlighted] == "minion nap-hill"
        assert screen.highlight == frozenset({AREA_IDS.index("nap-hill")})
        assert screen.view.decision.kind != "turn" and screen.view.area("nap-hill").minions[0] == 0
        await pilot.press("enter")
        await settle(pilot)
        assert screen.view.area("nap-hill").minions[0] == 1


async def test_a_prompt_names_the_card_that_causes_it_and_counts_its_steps():
    app = app_for(scenarios.BEGGARS)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "The Beggars' Guild: Give a card to yellow — 1 of 2" in question(app)
        await pilot.press("enter")
        await settle(pilot)
        assert "The Beggars' Guild: Give a card to yellow — 2 of 2" in question(app)
        await pilot.press("enter")
        await settle(pilot)
        # and what red gave is remembered: red knows two of yellow's cards
        yellow = app.screen.view.seats[1]
        assert {"groat", "hex"} <= set(yellow.known_hand)
        await pilot.press("p")
        from ankh.tui.games.morpork.widgets.players import Players
        panel = str(app.screen.query_one(Players).render())
        known = panel[panel.index("you know they hold:"):]
        assert "Groat" in known.splitlines()[0] and "Hex" in known.splitlines()[0]


async def test_space_lets_slow_bots_play_on_at_once():
    app = AnkhApp(GameSession.from_text(scenarios.FOLLOW), bot_delay=30)   # a bot would take 30 s
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.view.decision is None                    # blue is thinking, slowly
        assert screen.check_action("skip", ()) is True
        await pilot.press("space")
        await settle(pilot, limit=50)
        assert screen.view.decision is not None and screen.view.decision.seat == 0
        assert "Random event: Explosion." in summary_text(app)


async def test_the_end_of_turn_question_offers_only_what_you_can_do():
    app = app_for(scenarios.END_WITH_CITY_CARD)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "End your turn, or first use a City Area card" in question(app)
        assert "Mossy" not in question(app)


def test_the_map_lists_the_neighbours_and_bridges_of_the_highlighted_area():
    from ankh.tui.games.morpork.widgets.board import BRIDGES, CityMap, neighbours
    # every bridge joins areas that border each other
    for pair in BRIDGES:
        a, b = sorted(pair)
        assert (b, True) in neighbours(a) and (a, True) in neighbours(b)
    assert neighbours(1) == [(2, False), (3, False), (12, True)]
    board = CityMap()
    board.highlight = frozenset({0})                     # Dolly Sisters
    text = board.render().plain
    assert "Dolly Sisters borders:" in text
    assert "2 Unreal Estate" in text and "3 Dragon's Lndg" in text and "12 Nap Hill ═" in text
    assert "across a bridge" in text


async def test_with_two_people_at_one_keyboard_the_log_speaks_to_whoever_sits_there():
    app = AnkhApp(bot_delay=0, seed=4)
    async with app.run_test(size=(120, 40)) as pilot:
        seen = {}
        async for _ in two_people(pilot):
            rows = [strip.text.rstrip() for strip in app.screen.query_one(GameLog).lines]
            seen[app.screen.session.viewer] = rows
        assert set(seen) == {0, 1}
        first = app.screen.session.log[0].seat               # who goes first
        other = 1 - first
        assert "You go first." in seen[first]
        assert "You go first." not in seen[other]
        assert any(r.endswith("goes first.") for r in seen[other])
