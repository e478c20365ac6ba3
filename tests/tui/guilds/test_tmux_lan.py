"""The guild variant between real ``ankh`` programs in real terminals (tmux,
80×24): the host chooses the game in the host dialog, the guest finds the
table on the LAN (mDNS on loopback) and sees its game in the list, both
confirm the table fingerprint and play by the keyboard; a third terminal
watches; the guest's program is killed (``kill -9``) mid-game, and ``ankh``
started again, the table chosen in the list (playing now) puts it back at
its seat, and the game goes on, the spectator with it.  (Whole networked
guild games, watched, ending with one result on every seat and spectator:
tests/net/test_guilds_lan.py and tests/net/test_guilds_attacks.py.)"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import uuid

import pytest

from ..terminal import Terminal, table_rows
from ..test_tmux_lan import ankh_in_tmux, ready_and_compare_fingerprints

GAME = "The Guilds of Ankh-Morpork"


def program_pid(term: Terminal) -> int:
    """The PID of the ``ankh`` program in the terminal (the child of the pane's shell)."""
    shell = int(term.run("display-message", "-p", "-t", "ankh", "#{pane_pid}").strip())
    children = subprocess.run(["pgrep", "-P", str(shell)], capture_output=True, text=True).stdout.split()
    assert len(children) == 1, children
    return int(children[0])


def turn(screen: str) -> int:
    """The latest turn the screen names (the summary since your last move names earlier ones too)."""
    return max((int(n) for n in re.findall(r"Turn (\d+)", screen)), default=0)


def play(terms, until, deadline: float, seen: dict) -> None:
    """Enter at each decision on whichever screen offers one (after the key
    guard's half second, as a person reads), until ``until()``."""
    while not until():
        assert time.monotonic() < deadline, "\n\n".join(t.screen() for t in terms)
        for t in terms:
            screen = t.screen()
            seen[t] = max(seen.get(t, 0), turn(screen))
            if "⏎ Choose" in screen.splitlines()[-1] and "The game is over" not in screen:
                time.sleep(0.6)
                if "⏎ Choose" in t.screen().splitlines()[-1]:
                    t.keys("Enter")
        time.sleep(0.1)


def open_guild_table(host: Terminal) -> str:
    """The host opens a table of the guild game from the title screen, a bot in
    the third seat; its port."""
    host.wait_for("Host a table on the network")
    host.keys("o")
    host.wait_for("Open a table on the network", "Game ", "Seats")
    host.keys("Up")                                   # up to the Game field
    time.sleep(0.2)
    host.keys("Right")
    host.wait_for(GAME, "Seats           3")            # the variant seats three or four
    host.keys("Down", "Down")
    time.sleep(0.2)
    host.keys("Right")                                # a bot in the third seat
    host.wait_for("Bots          ◀ 1")
    host.keys("Enter")
    screen = host.wait_for("Address: 127.0.0.1:", "Announced on the LAN", f"The table  ·  {GAME}")
    return re.search(r"Address: 127\.0\.0\.1:(\d+)", screen).group(1)


# On its own (scripts/test): it follows the programs it started by PID, and the guest picks its
# row of the list of tables by keys, which a table opened or closed beside it would move.
@pytest.mark.serial
def test_two_terminals_play_the_guild_game_watched_and_a_killed_guest_comes_back(tmp_path):
    title = f"Host{uuid.uuid4().hex[:6]}"
    host = ankh_in_tmux(tmp_path / "a", tmp_path / "a.status", name=title)
    guest = ankh_in_tmux(tmp_path / "b", tmp_path / "b.status")
    terms = [host, guest]
    try:
        port = open_guild_table(host)

        guest.wait_for("Join a table on the network")
        guest.keys("j")
        screen = guest.wait_for("Tables on the LAN", f"{title}'s table", timeout=20)   # found by mDNS
        ours, tables = table_rows(screen, f"{title}'s table")
        assert GAME in tables[ours][0] and "2/3" in tables[ours][0], tables[ours]   # its game, the bot seated
        guest.keys(*["Down"] * ours, "Enter")
        guest.wait_for(f"The table  ·  {GAME}", "not ready", timeout=20)
        host.wait_for("not ready")
        ready_and_compare_fingerprints(host, guest)
        guest.keys("C-r")
        host.keys("C-r")
        for term in (host, guest):
            term.wait_for("Assassins at large", "Setting up", timeout=60)    # the guild map, on both

        # A third terminal watches the table.
        watcher = ankh_in_tmux(tmp_path / "c", tmp_path / "c.status", "watch", f"127.0.0.1:{port}")
        terms.append(watcher)
        watcher.wait_for("Assassins at large", timeout=30)

        seen: dict = {}
        play([host, guest], lambda: seen.get(guest, 0) >= 6, time.monotonic() + 240, seen)
        assert "⏎ Choose" not in watcher.screen().splitlines()[-1]       # a spectator has no move

        # The guest's program dies mid-game; its table, chosen in the list again, puts it back at its seat.
        os.kill(program_pid(guest), signal.SIGKILL)
        end = time.monotonic() + 15
        while not (tmp_path / "b.status").exists() and time.monotonic() < end:
            time.sleep(0.1)
        assert (tmp_path / "b.status").read_text().strip() == "137"      # killed, as by a crash
        guest.close()
        again = ankh_in_tmux(tmp_path / "b", tmp_path / "b2.status")    # ankh again, as after any crash
        terms[1] = again
        again.wait_for("Join a table on the network")
        again.keys("j")
        screen = again.wait_for("Tables on the LAN", f"{title}'s table", timeout=20)
        ours, tables = table_rows(screen, f"{title}'s table")
        assert "playing" in tables[ours][1], tables[ours]
        again.keys(*["Down"] * ours, "Enter")                 # a playing table, but the seat is ours
        # back at the table, no lobby: the map, or at a decision of its own the summary since its last move
        end = time.monotonic() + 60
        while not re.search(r"Turn \d+ · ", again.screen()):
            assert time.monotonic() < end and again.alive(), again.screen()
            time.sleep(0.1)
        assert "Open a table" not in again.screen() and "not ready" not in again.screen()

        # It plays on from there, and the spectator follows it past the guest's return.
        back_at = seen.get(host, 0)
        play([host, again], lambda: turn(again.screen()) >= back_at + 2, time.monotonic() + 120, seen)
        end = time.monotonic() + 30
        while turn(watcher.screen()) < back_at + 2:
            assert time.monotonic() < end, watcher.screen() + "\n\n" + host.screen()
            time.sleep(0.1)
        assert "⏎ Choose" not in watcher.screen().splitlines()[-1]
    finally:
        for term in terms:
            term.close()
