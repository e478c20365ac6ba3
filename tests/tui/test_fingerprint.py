"""The table fingerprint: on screen before the deal for as long as the
players need to read it aloud and compare, and again at any time in the game."""
from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from ankh.tui import i18n
from ankh.tui.app import AnkhApp
from ankh.tui.screens.dialogs import Shown
from ankh.tui.games.morpork.screens.game import GameScreen
from ankh.tui.screens.lobby import LobbyScreen

from .helpers import screen_lines


@pytest.mark.parametrize("lang, asks, clocks", [
    ("en", "The same on every screen? Ctrl+R says so",
     "once a seat's link has been down 1 min 00 s, or a connected seat has kept the game waiting 5 min 00 s"),
    ("fr", "La même sur chaque écran ? Ctrl+R le confirme", "1 min 00 s"),
])
async def test_the_deal_waits_until_the_player_confirms_the_fingerprint(lang, asks, clocks):
    i18n.set_language(lang)
    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o", "down", "right", "enter", "ctrl+r")   # 2 seats, one a bot; ready
        session = app.screen.session
        for _ in range(200):
            if session.start is not None:
                break
            await pilot.pause(0.05)
        fingerprint = session.start.fingerprint
        assert len(fingerprint.split()) == 5
        await asyncio.sleep(2.5)                       # as long as the players read: nothing is dealt
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen) and not session.started
        lobby = str(app.screen.query_one("#lobby-body", Static).content)
        assert fingerprint in lobby and asks in lobby, lobby
        assert clocks in lobby.replace("\n", " "), lobby          # the clocks the start carries, shown
        shown = "\n".join(screen_lines(app))
        assert fingerprint in shown and "Ctrl+R" in shown            # all of it on screen at 80×24, not cut
        await pilot.press("ctrl+r")                    # the same: deal
        for _ in range(600):
            if isinstance(app.screen, GameScreen):
                break
            await pilot.pause(0.05)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        # shown again in the players panel ...
        await pilot.press("p")
        await pilot.pause()
        assert fingerprint in str(screen.query_one("#fingerprint", Static).render())
        # ... and from the palette
        command = next(c for c in screen.commands() if c.title == i18n._("Table fingerprint"))
        command.callback()
        await pilot.pause()
        assert isinstance(app.screen, Shown) and fingerprint in str(app.screen.query_one(Static).render())
        await pilot.press("escape")
        assert app.screen is screen
        await session.close()


async def test_a_joiner_that_has_not_confirmed_holds_the_deal(tmp_path):
    """The host confirmed; the joiner's player has not yet: no cards are dealt
    and the host's lobby names the seat it waits for."""
    from ankh.net.wire.envelope import Identity
    from ankh.net.io.node import JoinNode

    async def never(peer, decision):
        await asyncio.sleep(3600)

    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o", "enter", "ctrl+r")
        session = app.screen.session
        while not (session.address and ":" in session.address):
            await pilot.pause(0.05)
        port = int(session.address.rsplit(":", 1)[1])
        joiner = JoinNode(Identity.generate(), "bob", decide=never, report=lambda e: None, save_root=None,
                          confirmed=False)
        task = asyncio.ensure_future(joiner.run("127.0.0.1", port))
        for _ in range(200):
            if session.start is not None and joiner.start is not None:
                break
            await pilot.pause(0.05)
        await pilot.press("ctrl+r")
        await asyncio.sleep(1.5)
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen) and not session.started
        assert "Waiting for yellow to confirm the fingerprint." in str(
            app.screen.query_one("#lobby-body", Static).content)
        assert joiner.start.fingerprint == session.start.fingerprint      # the same words on both screens
        # The joiner's lobby marks its own row "you" at this step, not the host's (seat 0).
        assert joiner.seat == joiner.primary == 1
        joiner.confirm_fingerprint()
        for _ in range(600):
            if isinstance(app.screen, GameScreen):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, GameScreen)
        task.cancel()
        await session.close()
