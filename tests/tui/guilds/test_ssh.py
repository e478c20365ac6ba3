"""The guild variant over SSH: a player with a key logs in to ``ankh serve
--ssh``, opens a guild table with two bots at 80×24, confirms the table
fingerprint and plays by the keyboard on the variant's map."""
from __future__ import annotations

import asyncio
import re
import time

import asyncssh

from ..test_serve_ssh import Client, server  # noqa: F401  (the fixture)

GAME = "The Guilds of Ankh-Morpork"


def our_decision(c: Client) -> bool:
    return "⏎ Choose" in c.row(23)


async def test_a_key_opens_a_guild_table_with_bots_and_plays_on_the_variant_s_map(server):  # noqa: F811
    key = asyncssh.generate_private_key("ssh-ed25519")
    c = await Client.open(server.port, "alice", key)
    try:
        await c.wait_for("New game against bots", "Host a table on the network", "q Quit")
        c.keys(b"o")
        await c.wait_for("Open a table on the network", "Seats")
        c.keys(b"\x1b[A")                 # up to the Game field
        await asyncio.sleep(0.2)
        c.keys(b"\x1b[C")                 # the guild game
        await c.wait_for(GAME, "Seats           3")
        c.keys(b"\x1b[B\x1b[B")           # down to Bots
        await asyncio.sleep(0.2)
        c.keys(b"\x1b[C\x1b[C")           # two bots
        await c.wait_for("Bots          ◀ 2")
        c.keys(b"\r")
        await c.wait_for(f"The table  ·  {GAME}", "You came in over SSH with the key", "not ready", timeout=30)
        c.keys(b"\x12")                   # Ctrl+R: ready
        await c.wait_for("Table fingerprint", "The same on every screen?", timeout=30, flat=True)
        c.keys(b"\x12")                   # the fingerprint is the one read aloud; the deal begins
        await c.wait_for("Assassins at large", "Setting up", timeout=60)

        # Play: Enter at each decision of ours (after the key guard's half second), to turn 3.
        deadline = time.monotonic() + 180
        decisions, turn = 0, 0
        while turn < 3:
            assert time.monotonic() < deadline, "the game did not move on:\n" + c.text()
            assert not c.closed, "the session closed during the game:\n" + c.text()
            if our_decision(c):
                await asyncio.sleep(0.6)
                if our_decision(c):
                    c.keys(b"\r")
                    decisions += 1
            m = re.search(r"Turn (\d+)", c.text())
            turn = int(m.group(1)) if m else turn
            await asyncio.sleep(0.1)
        assert decisions >= 3                        # two houses and two roads at least, by Enter
        # At 80×24 the map has its own view; the turn may have opened "since your last move".
        c.keys(b"m")
        end = time.monotonic() + 10
        while not re.search(r"[RYG][▲■]", c.text()) and time.monotonic() < end:
            await asyncio.sleep(0.1)
        screen = c.text()
        assert re.search(r"[RYG][▲■]", screen), screen   # pieces with their owner's letter on the map
        c.keys(b"p")                                 # the players panel, with the fingerprint
        await c.wait_for("Table fingerprint", timeout=10)
    finally:
        await c.close()
