"""What the screens say at 80×24 when a seat leaves a networked game: the
seats still there see who is gone and for how long, and ``e`` ends the table
with the scores as they stand once most of them agree; a joiner whose host
left is told the table is paused, by whom, and how to come back."""
from __future__ import annotations

import signal
import socket
from pathlib import Path

import pytest

from ankh.tui import i18n
from ankh.tui.app import AnkhApp

from tests.net.procs import Peers

from .helpers import footer_keys, notices, play_first_options, until_the_game


def status_line(app) -> str:
    bar = app.screen.query_one("#status")                         # the game screen's status line
    return str(bar.render())


async def test_the_seats_left_see_who_is_gone_and_e_ends_the_table(tmp_path: Path) -> None:
    app = AnkhApp(bot_delay=0, interface="127.0.0.1", advertise=False)
    peers = Peers()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("o", "right", "enter", "ctrl+r")     # 3 seats, no bots; ready
            session = app.screen.session
            await play_first_options(pilot, session, lambda: session.address and ":" in session.address)
            session.node.lobby.gone_after = 2  # the table's clocks, in the start every seat checks (a seat
            session.node.lobby.move_clock = 3  # signs "green left" after the longer of them with no word from it)
            port = session.address.rsplit(":", 1)[1]
            one, two = None, None
            for n in (1, 2):                                       # yellow, then green
                joiner = peers.start(["join", f"127.0.0.1:{port}", "--headless", "--bot", "random", "--seed", str(n),
                                      "--name", f"joiner {n}", "--agree-to-end"], tmp_path / f"j{n}")
                one, two = (joiner, None) if n == 1 else (one, joiner)
                await play_first_options(pilot, session, lambda: len(session.seats) > n)
            await until_the_game(pilot, session)                    # the fingerprint compared
            await play_first_options(pilot, session, lambda: session.peer is not None and session.peer.engine.turn >= 3)
            two.kill()                                              # green leaves for good
            await play_first_options(pilot, session, lambda: session.can_end_table)
            for _ in range(100):              # the screen draws the table's news on its next refresh
                line = status_line(app)
                if "e ends the table now" in line:
                    break
                await pilot.pause(0.05)
            assert "green gone for" in line and "e ends the table now" in line, line
            assert len(line.rstrip()) <= 80
            bound = app.screen.active_bindings.get("e")              # the footer offers it
            assert bound is not None and bound.enabled and "End table" in str(bound.binding.description)
            await pilot.press("e")
            await play_first_options(pilot, session, lambda: session.result is not None)
            words = session.result_words()
            assert words.startswith("Abandoned: green left; red and yellow ended the table. "
                                    "Scores as they stand: red "), words
            assert session.result.ending.voters == (0, 1) and session.result.ending.stop.gone == (2,)
            assert one.finish() == 1 and one.result.startswith("result: abandoned: red and yellow say green left the game")
    finally:
        peers.stop_all()


async def test_a_joiner_whose_host_left_is_told_the_table_is_paused_and_how_to_come_back(tmp_path: Path) -> None:
    peers = Peers()
    try:
        host = peers.start(["host", "--headless", "--bot", "random", "--seats", "2", "--bind", "127.0.0.1",
                            "--no-advertise", "--name", "Vetinari", "--seed", "3"], tmp_path / "host")
        port = host.value("listening on port")
        app = AnkhApp(bot_delay=0, interface="127.0.0.1", net=("join", ("127.0.0.1", int(port))))
        told: list[str] = []   # every notice posted (at 80×24 a decision that comes clears them from the map)
        real_notify = app.notify
        app.notify = lambda message, *a, **kw: (told.append(str(message)), real_notify(message, *a, **kw))[1]
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(400):
                if hasattr(app.screen, "session"):
                    break
                await pilot.pause(0.05)
            await pilot.press("ctrl+r")                             # ready
            session = app.screen.session
            await until_the_game(pilot, session)                    # the fingerprint compared
            await play_first_options(pilot, session, lambda: session.peer is not None and session.peer.engine.turn >= 2)
            host.proc.send_signal(signal.SIGINT)                    # the host leaves
            await play_first_options(pilot, session, lambda: session.paused and not session.notices)
            line = status_line(app)
            assert "Paused: red (Vetinari), the host, left the table" in line, line
            save = session.node.save.path
            toasts = " ".join(told)
            assert "The game is paused: red (Vetinari), the host, left the table" in toasts, told
            assert "title screen's Load list (l), or run ankh join --load " + str(save) in toasts
            assert session.result is None                           # not the end: it waits for the host
    finally:
        peers.stop_all()


async def test_a_save_its_seats_ended_is_not_carried_on_from_the_load_list(ankh_home: Path) -> None:
    from ankh.net.files import journal
    from ankh.net.play.leave import Stop, vote
    from ankh.net.play.ops import Roll
    from ankh.tui.screens.title import LoadScreen
    from tests.net.nethelp import small_decks, table

    t = table(3, seed=b"ended", decks=small_decks())
    t.wire = lambda f, s, r: None if s == 1 else f               # Bob is gone
    for s in t.seats:
        s.request(Roll("never settled"))
    t._pump()
    L = t.seats[0].ledger
    stop = Stop(L.index, L.basis, (1,))
    save = ankh_home / "saves" / "net-ended"
    save.mkdir(parents=True)
    (save / "journal.ankh").write_bytes(journal.header(t.roster, {"role": "host"}) + b"".join(
        journal.step(op) for op in t.transcript(0).ops) + journal.ending(end=[vote(t.seats[s].secrets, stop) for s in (0, 2)]))
    app = AnkhApp(bot_delay=0, interface="127.0.0.1", advertise=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        assert isinstance(app.screen, LoadScreen)
        assert "ended by its seats after one left" in app.screen.saves[0].summary
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert isinstance(app.screen, LoadScreen)                  # still there: nothing to carry on
        assert any("ended by its seats after one left. Press d to delete it." in n for n in notices(app))
    app = AnkhApp(bot_delay=0, interface="127.0.0.1", advertise=False, net=("load", save))
    async with app.run_test(size=(80, 24)) as pilot:               # ankh host --load DIR: said, not carried on
        await pilot.pause(0.2)
        assert any("that game is over: its seats ended it after a seat left" in n for n in notices(app))


def test_the_seat_said_to_be_gone_is_told_to_move_and_is_offered_no_end_of_its_own() -> None:
    """The host offers to end the table without Green while Green is only
    thinking: Green's screen tells it to move (its own clock decides whether
    it accepts the end), and offers it no key to end the table; Yellow's
    screen offers the end."""
    from types import SimpleNamespace

    from ankh.net.play.leave import Away, News, Stop
    from ankh.tui.netplay import NetSession

    news = News((Away(2, 200.0, True),), Stop(40, b"h" * 32, (2,)), (0,), 2)
    session = NetSession()
    session.news = news
    session.node = SimpleNamespace(primary=2)
    assert not session.can_end_table
    words = session._away_words(news)
    assert "without you: move, or it may end" in words and "e ends" not in words, words
    session.node = SimpleNamespace(primary=1)
    assert session.can_end_table
    assert "e ends the table now (1 of 2 agreed)" in session._away_words(news)


def test_a_spectator_is_told_who_keeps_the_game_waiting_and_offered_no_end_of_the_table() -> None:
    """The host offers to end the table without Green: a spectator's screen
    said "e ends the table now" and its footer offered the key, which did
    nothing (only seats agree); it tells who keeps the game waiting."""
    from types import SimpleNamespace

    from ankh.net.play.leave import Away, News, Stop
    from ankh.tui.netplay import WatchSession

    news = News((Away(2, 200.0, True),), Stop(40, b"h" * 32, (2,)), (0,), 2)
    session = WatchSession()
    session.news = news
    session.node = SimpleNamespace(primary=None)
    assert not session.can_end_table
    words = session._away_words(news)
    assert "green has not moved for" in words and "e ends" not in words, words


@pytest.mark.parametrize("lang, cannot, leave, ready", [
    ("en", "Cannot go on: could not reach", "Esc leaves the table.", "Ready"),
    ("fr", "Impossible de continuer", "Échap quitte la table.", "Prêt"),
])
async def test_a_join_that_failed_offers_only_to_leave(ankh_home: Path, lang, cannot, leave, ready) -> None:
    """``ankh join ADDR`` where nothing listens: the lobby says why and that Esc
    leaves; it said "Ctrl+R says you are ready" under the failure, and offered
    Ready and the chat, for a table that will never come."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]     # free, and nothing listens there once closed
    i18n.set_language(lang)
    try:
        app = AnkhApp(bot_delay=0, interface="127.0.0.1", net=("join", ("127.0.0.1", port)))
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(400):
                if getattr(getattr(app.screen, "session", None), "error", None):
                    break
                await pilot.pause(0.05)
            await pilot.pause(0.6)                                  # the lobby shows itself again
            body = str(app.screen.query_one("#lobby-body").render())
            assert cannot in body and leave in body, body
            assert "Ctrl+R" not in body, body
            assert ready not in footer_keys(app), footer_keys(app)
            assert not app.screen.query_one("#say").display
            await pilot.press("escape")
            await pilot.pause(0.3)
            assert not hasattr(app.screen, "session") or app.screen.session.error is None
    finally:
        i18n.set_language("en")
