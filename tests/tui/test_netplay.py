"""The terminal game on the network, driven by the keyboard: from the title
screen through Host to a lobby that a headless peer (a real ``ankh`` process)
joins, through a whole game to the end screen; both sides agree."""
from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys

from ankh.tui.app import AnkhApp
from ankh.tui.session import Next
from ankh.tui.games.morpork.screens.end import EndScreen
from ankh.tui.games.morpork.screens.game import GameScreen
from ankh.tui.screens.lobby import HostDialog, LobbyScreen

from .helpers import join_typed, play_first_options, until_the_game


async def test_host_a_table_a_headless_peer_joins_and_the_game_is_played_to_the_end(tmp_path):
    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    joiner = None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("o")
            assert isinstance(app.screen, HostDialog)
            await pilot.press("enter")                      # 2 seats, no bots
            assert isinstance(app.screen, LobbyScreen)
            session = app.screen.session
            for _ in range(100):
                if session.address and ":" in session.address:
                    break
                await pilot.pause(0.05)
            port = session.address.rsplit(":", 1)[1]
            lobby = app.screen.query_one("#lobby-body").content
            assert "Address: 127.0.0.1:" in str(lobby) and "(empty seat)" in str(lobby)
            (red,) = [line for line in str(lobby).splitlines() if line.startswith("R ")]
            assert red.endswith("  you"), red               # the host's own row, before anyone sat
            box = app.screen.query_one("#lobby").region      # in the middle, as every dialog before it
            assert abs(box.x - (80 - box.right)) <= 1 and abs(box.y - (24 - 1 - box.bottom)) <= 1, box
            await pilot.press("ctrl+r")                     # ready; the headless peer is ready when it sits
            await pilot.pause(0.1)
            assert "ready" in str(app.screen.query_one("#lobby-body").content)
            env = dict(os.environ, ANKH_HOME=str(tmp_path / "joiner"))
            joiner = subprocess.Popen([sys.executable, "-m", "ankh.tui.cli", "join", f"127.0.0.1:{port}",
                                       "--headless", "--bot", "heuristic", "--seed", "5"],   # a bot that plays to win
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
            await until_the_game(pilot, session)
            assert session.start is not None and len(session.start.fingerprint.split()) == 5
            assert app.screen.check_action("hint", ()) is False       # no hint at a networked table
            assert session.hint_job(Next("person", 0, session.decision)) is None
            await play_first_options(pilot, session,
                                     lambda: isinstance(app.screen, EndScreen) or session.result is not None)
            for _ in range(200):
                if session.result is not None:
                    break
                await pilot.pause(0.05)
            assert session.result is not None and session.result.finished and session.result.fair
            out, _ = await asyncio.to_thread(joiner.communicate, timeout=60)
            assert joiner.returncode == 0, out[-2000:]
            assert out.strip().splitlines()[-1] == f"result: {session.result.text}"
            assert any(isinstance(s, EndScreen) for s in app.screen_stack)
    finally:
        if joiner is not None and joiner.poll() is None:
            joiner.kill()
            joiner.wait()


async def test_chat_in_the_lobby_and_the_game_shows_markup_and_escapes_literally(tmp_path):
    """A joiner's chat line with markup and an escape sequence: shown as plain
    characters in the host's lobby and as a notice in its game."""
    from .helpers import said

    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    async with app.run_test(size=(80, 24)) as pilot:
        session, joiner, task = await host_and_seat(pilot, "mallory", to_the_game=False)
        while joiner.seat < 0:
            await pilot.pause(0.05)
        joiner.chat("[bold red]hi[/] \x1b[2J there")
        await until_the_game(pilot, session)
        for _ in range(100):
            if isinstance(app.screen, GameScreen) and session.chat_lines:
                break
            await pilot.pause(0.05)
        assert session.chat_lines[-1] == (1, "mallory", "[bold red]hi[/] [2J there")
        joiner.chat("again [link=x]y[/link]")
        for _ in range(100):
            if any("again [link=x]y[/link]" in n for n in said(app)):
                break
            await pilot.pause(0.05)
        assert any("yellow (mallory): again [link=x]y[/link]" in n for n in said(app)), said(app)
        task.cancel()


async def test_a_seat_at_a_networked_table_is_offered_no_undo():
    """Every move at a networked table is final: the footer offers no Undo
    (in French no « Annul. »), the palette no take-back."""
    from ankh.tui import i18n

    from .helpers import footer_keys

    for lang, undo in (("en", "Undo"), ("fr", "Annul.")):
        i18n.set_language(lang)
        app = AnkhApp(bot_delay=0, interface="127.0.0.1")
        async with app.run_test(size=(80, 24)) as pilot:
            _session, _joiner, task = await host_and_seat(pilot, "bob")
            for _ in range(400):
                if isinstance(app.screen, GameScreen) and app.screen.view is not None:
                    break
                await pilot.pause(0.05)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.pause()
            offered = footer_keys(app)
            assert undo not in offered and offered, offered
            assert not [c for c in screen.commands() if c.title == i18n._("Undo")]
            task.cancel()


async def host_and_seat(pilot, name: str, to_the_game: bool = True):
    """Host a 2-seat table from the title screen, ready, and seat a joiner
    called ``name`` that never decides (then, ``to_the_game``, confirm the
    fingerprint and wait for the game): (the host's session, the joiner, its task)."""
    from ankh.net.wire.envelope import Identity
    from ankh.net.io.node import JoinNode
    await pilot.press("o", "enter", "ctrl+r")
    session = pilot.app.screen.session
    while not (session.address and ":" in session.address):
        await pilot.pause(0.05)
    port = int(session.address.rsplit(":", 1)[1])
    joiner = JoinNode(Identity.generate(), name, decide=_never, report=lambda e: None, save_root=None)
    task = asyncio.ensure_future(joiner.run("127.0.0.1", port))
    if to_the_game:
        await until_the_game(pilot, session)
    return session, joiner, task


async def _never(peer, decision):
    await asyncio.sleep(3600)


async def test_a_networked_save_is_listed_and_loads_back_to_its_table(tmp_path, ankh_home):
    """A table hosted from the title screen is saved as it goes; the Load list
    shows it, and loading it opens the table again where it stood."""
    from ankh.tui.screens.title import LoadScreen

    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o", "down", "right", "enter", "ctrl+r")   # 2 seats, 1 of them a bot; ready
        session = app.screen.session
        await until_the_game(pilot, session)
        for _ in range(400):
            if isinstance(app.screen, GameScreen) and session.decision is not None:
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, GameScreen)
        await pilot.press("enter")
        await pilot.pause(0.5)
        await pilot.press("q", "y")                                 # leave: the table is saved
        for _ in range(100):
            if not isinstance(app.screen, GameScreen):
                break
            await pilot.pause(0.05)
    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        assert isinstance(app.screen, LoadScreen)
        info = app.screen.saves[0]
        assert info.path.is_dir() and "network" in info.summary and "you host" in info.summary
        await pilot.press("enter")
        session = app.screen.session
        for _ in range(400):
            if isinstance(app.screen, GameScreen) and session.decision is not None:
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, GameScreen) and session.peer.engine.turn >= 1


async def test_the_host_dialog_sets_the_bots_level_and_can_hide_the_chat_from_spectators(tmp_path, monkeypatch):
    monkeypatch.setenv("ANKH_HOME", str(tmp_path / "home"))
    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        assert isinstance(app.screen, HostDialog)
        assert "Spectators see the chat" in str(app.screen.query_one("#spectator-chat").render())
        assert "normal" in str(app.screen.query_one("#bot-kind").render())
        # seats, bots, bots play: easy, spectators see the chat: no
        await pilot.press("down", "down", "right", "down", "right", "enter")
        assert isinstance(app.screen, LobbyScreen)
        node = app.screen.session.node
        assert node.lobby.spectator_chat is False and node.watchers.chat is False
        assert app.screen.session.bot_kind == "random"
        await pilot.press("escape")


async def test_the_watch_screen_says_when_the_table_hides_its_chat(tmp_path):
    from ankh.net.wire.envelope import Identity
    from ankh.net.io.node import HostNode
    from ankh.tui.netplay import WatchSession

    from tests.net.test_watch import bot_decide

    host = HostNode(Identity.generate(), "host", seats=2, bots=1, decide=bot_decide(9), report=lambda e: None,
                    save_root=tmp_path, bind="127.0.0.1", advertise=False, spectator_chat=False)
    port = await host.open()
    game = asyncio.ensure_future(host.run())
    while host.hub is None or host.hub.host.engine.turn < 2:  # the setup's proofs done (as in test_watch)
        await asyncio.sleep(0.05)
    session = WatchSession()
    session.follow("127.0.0.1", port)
    await asyncio.wait_for(game, 120)
    for _ in range(2400):  # the spectator checks the whole log after the table: on a busy machine, a while
        if session.node.result is not None:
            break
        await asyncio.sleep(0.05)
    assert session.node.result is not None and session.node.result.text == host.result.text
    session.audit = ""  # what the status line says during the game, before the audit's word
    assert "hides the players' chat from spectators" in session.net_note


def test_a_networked_table_offers_the_easy_and_normal_bots_only(tmp_path):
    """'ankh host --bot search' is refused with a clear message (the hard
    level's worker processes would take the cores the table's cryptography
    needs); nothing is opened."""
    env = dict(os.environ, ANKH_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-m", "ankh.tui.cli", "host", "--bots", "1", "--bot", "search"],
                         capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "bots play heuristic or random, not search" in out.stderr


def paused_at_turn_2(seed: int):
    """A random bot's decisions for a whole table, which pause at turn 2 until
    the event it returns is set (so a test looks at a game in progress)."""
    from tests.net.test_watch import bot_decide

    play, go_on = bot_decide(seed), asyncio.Event()

    async def decide(peer, decision):
        if peer.engine.turn >= 2:
            await go_on.wait()
        return await play(peer, decision)

    return decide, go_on


@contextlib.asynccontextmanager
async def watched_table(tmp_path):
    """A two-seat table of random bots (paused at turn 2 until ``go_on`` is set)
    and a spectator's app watching it: ``(app, host, go_on)``."""
    from ankh.net.wire.envelope import Identity
    from ankh.net.io.node import HostNode

    decide, go_on = paused_at_turn_2(4)
    host = HostNode(Identity.generate(), "host", seats=2, bots=1, decide=decide, report=lambda e: None,
                    save_root=tmp_path, bind="127.0.0.1", advertise=False)
    port = await host.open()
    game = asyncio.ensure_future(host.run())
    try:
        yield AnkhApp(bot_delay=0, interface="127.0.0.1", net=("watch", ("127.0.0.1", port))), host, go_on
    finally:
        go_on.set()
        game.cancel()
        await asyncio.gather(game, return_exceptions=True)


async def test_a_spectator_screen_offers_no_move_no_take_back_and_no_chat_reply(tmp_path):
    """Watching a live table from the title screen's route (``ankh watch``):
    the game screen follows it, offers no pick, undo or chat (a spectator only
    looks), and shows the players' chat under a plain title."""
    from .helpers import a_spectator_keeps_quiet_and_hears_chat, footer_keys, watching_until_turn

    async with watched_table(tmp_path) as (app, host, _go_on):
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await watching_until_turn(pilot, 2, tries=600)
            assert isinstance(screen, GameScreen)
            assert [screen.check_action(a, ()) for a in ("undo", "pick", "chat")] == [False, False, False]
            await a_spectator_keeps_quiet_and_hears_chat(pilot, host, ["Choose", "Pick", "Hand", "Undo", "Chat"])
            assert "Players" in footer_keys(app)


async def test_the_join_screen_lists_a_playing_table_and_arrow_keys_reach_it_to_watch(tmp_path, monkeypatch):
    """A table found on the LAN (mDNS on loopback) is listed as playing; from
    the address line ↓ goes to the list, and ``w`` watches the table."""
    from ankh.net.wire.envelope import Identity
    from ankh.net.io.node import HostNode
    from ankh.tui.screens.lobby import JoinScreen
    from textual.widgets import Input

    monkeypatch.setenv("ANKH_HOME", str(tmp_path / "home"))
    decide, go_on = paused_at_turn_2(6)
    host = HostNode(Identity.generate(), "arrows", seats=2, bots=1, decide=decide, report=lambda e: None,
                    save_root=tmp_path, bind="127.0.0.1", advertise=True)
    port = await host.open()
    game = asyncio.ensure_future(host.run())
    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            screen = app.screen
            assert isinstance(screen, JoinScreen)
            for _ in range(400):
                if any(t.port == port and not t.open for t in screen.tables):
                    break
                await pilot.pause(0.05)
            assert any(t.port == port and not t.open for t in screen.tables), "the playing table was not listed"
            screen.query_one("#address", Input).focus()
            await pilot.press("down")
            assert screen.focused is screen.query_one("#tables")
            screen.query_one("#tables").highlighted = next(i for i, t in enumerate(screen.tables) if t.port == port)
            await pilot.press("w")
            for _ in range(200):
                if isinstance(app.screen, LobbyScreen) or isinstance(app.screen, GameScreen):
                    break
                await pilot.pause(0.05)
            assert getattr(app.screen.session, "spectating", False)
    finally:
        go_on.set()
        game.cancel()
        await asyncio.gather(game, return_exceptions=True)


async def test_over_ssh_a_typed_address_must_be_a_table_found_or_one_the_server_allows(tmp_path, monkeypatch):
    """A player logged in over ``ankh serve --ssh`` cannot make the server
    connect anywhere it likes: an address that is neither a table found on the
    network nor one the operator allows is refused with a word; an allowed
    one is joined."""
    from ankh.net.files.home import ENV_SSH, ENV_SSH_JOIN
    from ankh.tui.screens.lobby import JoinScreen
    from textual.widgets import Input

    monkeypatch.setenv("ANKH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(ENV_SSH, "guest")
    monkeypatch.setenv(ENV_SSH_JOIN, "127.0.0.1:9")
    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j")
        screen = app.screen
        assert isinstance(screen, JoinScreen)
        address = screen.query_one("#address", Input)
        address.focus()  # (tables other programs on this machine announce may be listed, and take the focus)
        address.value = "10.0.0.1:22"
        await pilot.press("enter")
        await pilot.pause(0.1)
        assert app.screen is screen
        assert any("Over SSH you can join the tables listed here" in str(n.message) for n in app._notifications)
        await join_typed(pilot, screen, "127.0.0.1:9")
        assert isinstance(app.screen, LobbyScreen)


async def test_the_join_list_marks_a_copied_advert_and_claims_no_key_it_did_not_check(tmp_path, monkeypatch):
    """A table and a copy of its advert (same title, table id and key
    fingerprint) are both listed, both marked, and neither key is shown as
    checked."""
    import os as _os

    from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

    from ankh.net.wire.envelope import Identity, fingerprint
    from ankh.net.io.discovery import SERVICE_TYPE, TableAdvert, encode_txt
    from ankh.tui.screens.lobby import JoinScreen

    monkeypatch.setenv("ANKH_HOME", str(tmp_path / "home"))
    host = Identity.generate()
    table_id = _os.urandom(16).hex()
    title = f"Drum {table_id[:6]}"
    real = TableAdvert(port=4700, table_id=table_id, host_key=host.public_key, host_name="Rincewind",
                       seats_taken=1, seats_total=2, title=title, interfaces=["127.0.0.1"])
    raw = AsyncZeroconf(interfaces=["127.0.0.1"])
    copy = AsyncServiceInfo(SERVICE_TYPE, f"{title}-3.{SERVICE_TYPE}", port=4701,
                            properties=encode_txt(table_id=table_id, seats_taken=1, seats_total=2, phase="lobby",
                                                  host_fp=fingerprint(host.public_key), host_name="Rincewind"),
                            server=f"copy-{table_id[:6]}.local.", parsed_addresses=["127.0.0.1"])
    await real.start()
    await raw.async_register_service(copy)
    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("j")
            screen = app.screen
            assert isinstance(screen, JoinScreen)
            for _ in range(400):
                if sum(1 for t in screen.tables if t.table_id == table_id) == 2:
                    break
                await pilot.pause(0.05)
            choices = screen.query_one("#tables")
            shown = [str(choices.get_option_at_index(i).prompt) for i, t in enumerate(screen.tables)
                     if t.table_id == table_id]
            assert len(shown) == 2
            for text in shown:
                assert f"claims key {fingerprint(host.public_key)}" in text
                assert "⚠ another advert claims the same table: one of them is a copy" in text
                assert "⚠ another table has the same title" in text
    finally:
        await real.close()
        await raw.async_close()


async def test_a_key_pressed_at_the_decision_before_does_not_answer_the_one_the_table_asks_now():
    """The table may ask the next decision before the screen has drawn it: a second Enter
    then answered the new decision with an option of the old one, and the game stood still.
    A networked seat hands the table an answer only to the very decision it asks (the next
    one may look the same), and only a move there."""
    from ankh.core.game import Decision
    from ankh.tui.netplay import NetSession

    session = NetSession()
    play = Decision(0, "turn", (("play", 1), ("play", 2)), "Play a card")
    asked = asyncio.ensure_future(session.decide(None, play))
    await asyncio.sleep(0)
    assert session.choose(("play", 2), play)
    assert await asked == ("play", 2)

    again = Decision(0, "turn", (("play", 1), ("play", 2)), "Play a card")   # equal, asked anew
    move = Decision(0, "move", (("move", 4, 0, 3),), "Move a minion")
    for d in (again, move):
        asked = asyncio.ensure_future(session.decide(None, d))
        await asyncio.sleep(0)
        assert not session.choose(("play", 1), play)          # the screen still showed the old one
        assert not session.choose(("pass",), d)               # no move here
        assert not asked.done()
        assert session.choose(d.options[0], d)
        assert await asked == d.options[0]
    assert not session.choose(("move", 4, 0, 3), move)        # answered: nothing asked now


async def test_the_bots_of_a_table_hosted_here_keep_the_pace_the_player_chose():
    """``--bot-delay`` paces the bots of a table hosted from this screen too, at most the
    table's own pace (the other seats wait for them as well)."""
    from ankh.tui.netplay import BOT_PACE

    for delay, pace in ((0.4, BOT_PACE), (0.05, 0.05), (0.0, 0.0)):
        app = AnkhApp(bot_delay=delay, interface="127.0.0.1", advertise=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("o", "enter")
            while not isinstance(app.screen, LobbyScreen):
                await pilot.pause(0.05)
            assert app.screen.session.bot_pace == pace
            await pilot.press("escape")
