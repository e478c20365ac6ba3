"""The guild variant on the network, in the terminal: a host whose seat a
person plays (the keyboard) and two bots of its own play a whole game to the
end screen, the person's decisions offered on the game screen as the table
brings them; the result is audited fair."""
from __future__ import annotations

from ankh.tui.app import AnkhApp
from ankh.tui.games.guilds.screens import GameScreen
from ankh.tui.screens.lobby import LobbyScreen


async def test_a_person_hosts_a_guild_table_and_plays_it_to_the_end():
    app = AnkhApp(bot_delay=0, interface="127.0.0.1", advertise=False, game="guilds",
                  net=("host", 3, 2, 0, True))
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(200):
            if isinstance(app.screen, LobbyScreen):
                break
            await pilot.pause(0.05)
        session = app.screen.session
        await pilot.press("ctrl+r")                         # ready
        for _ in range(600):                                # the fingerprint, then the deal
            if isinstance(app.screen, GameScreen):
                break
            if session.start is not None and not session.confirmed:
                await pilot.press("ctrl+r")
            await pilot.pause(0.05)
        assert isinstance(app.screen, GameScreen)
        decided = 0
        for _ in range(20000):                              # the first option at every decision of ours
            if session.result is not None:
                break
            screen = app.screen
            if isinstance(screen, GameScreen) and session.decision is not None and screen._next is not None \
                    and screen._next.kind == "person":
                await pilot.press("enter")
                decided += 1
            await pilot.pause(0.02)
        assert session.result is not None and session.result.finished and session.result.fair, session.result
        assert decided > 10
