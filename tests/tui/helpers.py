"""Driving the app as a person would: wait for the game to need us, then press keys."""
from __future__ import annotations

from ankh.tui.screens.dialogs import HandOver
from ankh.tui.games.morpork.screens.end import EndScreen
from ankh.tui.games.morpork.screens.game import GameScreen


def deciding(app) -> bool:
    screen = app.screen
    return (isinstance(screen, GameScreen) and screen.view is not None
            and screen.view.decision is not None and not screen._handing_over)


async def settle(pilot, limit: int = 400) -> None:
    """Wait until a person must decide or the game is over."""
    app = pilot.app
    for _ in range(limit):
        if not app.workers and (isinstance(app.screen, EndScreen) or deciding(app)):
            return
        await app.workers.wait_for_complete()
        await pilot.pause()
    raise AssertionError(f"the game did not come back to a person (screen: {app.screen!r})")


async def play_first_options(pilot, session, done, tries: int = 6000) -> None:
    """A networked seat: play the first option at every decision of this seat
    until ``done()`` holds."""
    app = pilot.app
    for _ in range(tries):
        if done():
            return
        if deciding(app) and session.decision is not None:
            await pilot.press("enter")
        await pilot.pause(0.02)
    raise AssertionError(f"never came: {session.status!r}")


def screen_lines(app) -> list[str]:
    """The screen as it is drawn, a string per row."""
    return ["".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips()]


def notices(app) -> list[str]:
    """The messages of the notifications on screen now."""
    return [n.message for n in app._notifications]


def said(app) -> list[str]:
    """What is said now: the notifications on screen and, at 80×24 where a game says it
    in its prompt rather than over the map and options, the prompt's word (title first)."""
    told = getattr(app.screen, "told", None)
    return notices(app) + ([told.plain] if told is not None else [])


async def notice_saying(pilot, text: str, tries: int = 400) -> str:
    """All the notifications on screen once one says ``text``: a notification is
    posted to the app and shows when the app reads it, which may come later."""
    for _ in range(tries):
        told = " ".join(notices(pilot.app))
        if text in told:
            return told
        await pilot.pause(0.05)
    raise AssertionError(f"no notice said {text!r}: {notices(pilot.app)}")


async def two_people(pilot, decisions: int = 8):
    """A new 2-player game with nobody a bot, each decision answered with
    Enter; yields before each, with the seat just handed the keyboard (or None)."""
    app = pilot.app
    await pilot.press("n", "left", "down", "down", "left")   # 2 players, no bots
    await pilot.press("enter")
    await pilot.pause()
    for _ in range(decisions):
        handed = None
        if isinstance(app.screen, HandOver):
            handed = app.screen.seat
            await pilot.press("enter")
            await pilot.pause()
            await pilot.pause()
        await settle(pilot)
        yield handed
        await pilot.press("enter")
        await pilot.pause()


async def listening_port(pilot, session) -> str:
    """The port a table hosted from the screen listens on, once it does."""
    for _ in range(100):
        if session.address and ":" in session.address:
            break
        await pilot.pause(0.05)
    return session.address.rsplit(":", 1)[1]


async def join_typed(pilot, screen, address: str) -> None:
    """Type ``address`` on the join screen and press Enter; wait until the screen goes."""
    from textual.widgets import Input
    typed = screen.query_one("#address", Input)
    typed.focus()
    typed.value = address
    await pilot.press("enter")
    for _ in range(100):
        if pilot.app.screen is not screen:
            return
        await pilot.pause(0.05)


def footer_keys(app) -> list[str]:
    """What the footer offers now (the words of its keys)."""
    from textual.widgets._footer import FooterKey
    return [key.description for key in app.screen.query(FooterKey)]


async def until_the_game(pilot, session, limit: int = 600) -> None:
    """Wait in the lobby until the game screen comes, confirming the table
    fingerprint once it shows (the deal waits for every player's)."""
    from ankh.tui.games.morpork.screens.game import GameScreen
    from ankh.tui.screens.play import PlayScreen
    for _ in range(limit):
        if isinstance(pilot.app.screen, (GameScreen, PlayScreen)):   # either game's screen
            return
        if session.start is not None and not session.confirmed:
            await pilot.press("ctrl+r")
        await pilot.pause(0.05)
    raise AssertionError(f"the game screen never came (screen: {pilot.app.screen!r})")


async def watching_until_turn(pilot, turn: int, tries: int = 1200):
    """A spectator's app: wait until its game screen follows the table to ``turn``."""
    from ankh.tui.screens.play import PlayScreen
    app = pilot.app
    for _ in range(tries):
        screen = app.screen
        if isinstance(screen, PlayScreen) and screen.session.peer is not None \
                and screen.session.peer.engine.turn >= turn:
            return screen
        await pilot.pause(0.05)
    raise AssertionError(f"the spectator's screen never reached turn {turn}: {app.screen!r}")


async def a_spectator_keeps_quiet_and_hears_chat(pilot, host, offered: list[str]) -> None:
    """On a spectator's game screen: ``u``, ``c`` and ``1`` do nothing (nothing
    to take back, say or pick), the footer offers the log but none of
    ``offered``, and the host's chat arrives as a Chat notice."""
    app = pilot.app
    screen = app.screen
    await pilot.pause()
    keys = footer_keys(app)
    assert "Log" in keys and not set(offered) & set(keys), keys
    await pilot.press("u", "c", "1")
    assert app.screen is screen
    host.chat("welcome, watchers")
    for _ in range(200):
        if any("welcome, watchers" in n for n in said(app)):
            break
        await pilot.pause(0.05)
    told = [n for n in said(app) if "welcome, watchers" in n]
    title = [n.title for n in app._notifications if "welcome, watchers" in str(n.message)]
    assert told and (title == ["Chat"] or told[0].startswith("Chat: ")), told
    assert app.screen is screen
