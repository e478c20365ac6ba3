"""The guild variant at a networked table, on screen: hosted from the
command's route (``ankh host --game guilds``) at 80×24, a real headless
``ankh join`` process takes the other seat, and the game is played by the
keyboard to the end screen with one result on both sides; the screen follows
the table on its own, offers no Undo (every move is final) and shows the
table fingerprint in the players panel; a spectator's screen follows a guild
table, offers no move, no take-back and no chat reply, and at 80×24 tells
the dice under the prompt rather than over the map."""
from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys

from textual.widgets import Static

from ankh.tui.app import AnkhApp
from ankh.tui.games.guilds.screens import EndScreen, GameScreen
from ankh.tui.stats import StatsScreen

from ..helpers import a_spectator_keeps_quiet_and_hears_chat, footer_keys, until_the_game, watching_until_turn


def screen_text(app) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


async def drawn(pilot, *texts: str, tries: int = 400) -> str:
    """The screen's text once it shows every one of ``texts`` (a screen that follows the table is
    drawn a moment after it has the move)."""
    text = ""
    for _ in range(tries):
        text = screen_text(pilot.app)
        if all(t in text for t in texts):
            return text
        await pilot.pause(0.05)
    raise AssertionError(f"{texts} never shown:\n{text}")


async def test_a_guild_table_hosted_on_screen_is_played_to_the_end_with_a_joiner_process(tmp_path):
    app = AnkhApp(bot_delay=0, interface="127.0.0.1", advertise=False, game="guilds",
                  net=("host", 3, 1, 0, True, "heuristic"))     # the host, a joiner and a bot
    joiner = None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            session = app.screen.session
            for _ in range(200):
                if session.address and ":" in session.address:
                    break
                await pilot.pause(0.05)
            port = session.address.rsplit(":", 1)[1]
            await pilot.press("ctrl+r")
            env = dict(os.environ, ANKH_HOME=str(tmp_path / "joiner"))
            joiner = subprocess.Popen([sys.executable, "-m", "ankh.tui.cli", "join", f"127.0.0.1:{port}",
                                       "--headless", "--bot", "heuristic", "--seed", "5", "--game", "guilds"],
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
            await until_the_game(pilot, session)
            screen = app.screen
            assert isinstance(screen, GameScreen) and session.rules.id == "guilds"
            assert screen.check_action("undo", ()) is False            # every move is final
            checked_panel = False
            decisions = 0
            for _ in range(20000):
                if isinstance(app.screen, EndScreen) or session.result is not None:
                    break
                s = app.screen
                if isinstance(s, GameScreen) and s.decision() is not None and session.decision is not None:
                    if not checked_panel:
                        for _ in range(100):  # the footer is drawn after the decision comes
                            await pilot.pause(0.05)
                            if "Choose" in (offered := footer_keys(app)):
                                break
                        assert "Choose" in offered and "Undo" not in offered, offered
                        await pilot.press("p")                       # the fingerprint, to compare
                        await pilot.pause()
                        assert session.fingerprint in " ".join(screen_text(app).split())
                        await pilot.press("m")
                        checked_panel = True
                    await pilot.press("enter")
                    decisions += 1
                await pilot.pause(0.02)
            for _ in range(400):
                if session.result is not None:
                    break
                await pilot.pause(0.05)
            assert decisions > 10 and checked_panel
            assert session.result is not None and session.result.finished and session.result.fair
            out, _ = await asyncio.to_thread(joiner.communicate, timeout=60)
            assert joiner.returncode == 0, out[-2000:]
            assert out.strip().splitlines()[-1] == f"result: {session.result.text}"
            for _ in range(100):
                if any(isinstance(s, EndScreen) for s in app.screen_stack):
                    break
                await pilot.pause(0.05)
            assert any(isinstance(s, EndScreen) for s in app.screen_stack)
            # the statistics from the end screen: the dice this seat saw rolled, from the table's public log
            if not isinstance(app.screen, EndScreen):
                app.screen.action_results()
                await pilot.pause()
            await pilot.press("s")
            assert isinstance(app.screen, StatsScreen)
            assert app.screen.stats.rolls == [sum(e.data["dice"]) for e in session.log if e.kind == "roll"]
    finally:
        if joiner is not None and joiner.poll() is None:
            joiner.kill()
            joiner.wait()


async def test_a_spectator_follows_a_guild_table_with_no_move_no_undo_and_no_chat_reply(tmp_path):
    from ankh.core.guilds.bots import RandomBot
    from ankh.net.wire.envelope import Identity
    from ankh.net.io.node import HostNode

    rng, go_on = random.Random(3), asyncio.Event()

    async def decide(peer, decision):
        if peer.engine.turn >= 3:
            await go_on.wait()
        await asyncio.sleep(0)
        return RandomBot(rng).choose(peer.engine, decision)

    host = HostNode(Identity.generate(), "host", seats=3, bots=2, decide=decide, report=lambda e: None,
                    save_root=tmp_path, bind="127.0.0.1", advertise=False, kind="guilds")
    port = await host.open()
    game = asyncio.ensure_future(host.run())
    app = AnkhApp(bot_delay=0, interface="127.0.0.1", net=("watch", ("127.0.0.1", port)))
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            screen = await watching_until_turn(pilot, 3)
            assert isinstance(screen, GameScreen)
            assert [screen.check_action(a, ()) for a in ("undo", "chat")] == [False, False]
            text = await drawn(pilot, "Turn ", "Waiting for ")
            assert ("Turn 3" in text or "Turn 2" in text) and "is thinking" not in text
            await a_spectator_keeps_quiet_and_hears_chat(pilot, host, ["Choose", "Undo", "Chat", "Trade"])
            # The game goes on: at 80×24 the dice are told under the prompt, not in a notice over the map.
            go_on.set()
            head = ""
            for _ in range(400):
                head = str(screen.query_one("#g-head", Static).render())
                if "rolls" in head or app.screen is not screen:
                    break
                await pilot.pause(0.05)
            assert app.screen is screen and "rolls" in head and "Turn" in head, head
            assert [n.title for n in app._notifications] == ["Chat"]
    finally:
        go_on.set()
        game.cancel()
        await asyncio.gather(game, return_exceptions=True)
