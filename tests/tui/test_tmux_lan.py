"""Two real ``ankh`` programs in two real terminals (tmux) find each other on
the LAN (mDNS on loopback), sit at one table, see the same table fingerprint
and play."""
from __future__ import annotations

import re
import uuid
import shlex
import time

import pytest

from .terminal import Terminal, ankh_command, table_rows


def ankh_in_tmux(home, status, *args: str, name: str | None = None) -> Terminal:
    """``ankh`` with ``args`` (by default the title screen, on loopback) in an 80×24 tmux
    terminal, with a home of its own; its exit status is written to ``status``."""
    if name is not None:  # a name of its own: the table's title tells it apart from any other on loopback
        home.mkdir(parents=True, exist_ok=True)
        (home / "name").write_text(name)
    args = args or ("--interface", "127.0.0.1")
    command = (f"env ANKH_HOME={shlex.quote(str(home))} TERM=xterm-256color "
               f"{shlex.quote(str(ankh_command()))} {' '.join(shlex.quote(a) for a in args)}; "
               f"echo $? > {shlex.quote(str(status))}")
    return Terminal(f"sh -c {shlex.quote(command)}", 80, 24)


def ready_and_compare_fingerprints(host: Terminal, guest: Terminal) -> str:
    """Both players press Ctrl+R (ready) in the lobby; the table fingerprint then
    shows on both screens, the same five groups: returned."""
    guest.keys("C-r")
    host.keys("C-r")
    prints = []
    for term in (host, guest):
        screen = term.wait_for("Table fingerprint", "The same on every screen?", timeout=30)
        lines = screen.splitlines()
        prints.append(lines[next(i for i, line in enumerate(lines) if "Table fingerprint" in line) + 1].strip("█ "))
    assert prints[0] == prints[1] and len(prints[0].split()) == 5, prints
    return prints[0]


def fingerprint(screen: str) -> str:
    m = re.search(r"(\d{4} \d{4} \d{4} \d{4} \d{4})", screen)
    assert m, screen
    return m.group(1)


def own_rows(screen: str) -> list[str]:
    """The seat letters of the lobby's rows marked "you"."""
    rows = [line.strip("█ ") for line in screen.splitlines()]
    return [row[0] for row in rows if row.endswith("  you")]


# On its own (scripts/test): the guest picks its row of the list of tables by keys, and a table
# of a test running beside it, opened or closed meanwhile, would move the rows under them.
@pytest.mark.serial
def test_two_terminals_find_each_other_and_play(tmp_path):
    title = f"Host{uuid.uuid4().hex[:6]}"
    host = ankh_in_tmux(tmp_path / "a", tmp_path / "a.status", name=title)
    guest = ankh_in_tmux(tmp_path / "b", tmp_path / "b.status")
    try:
        host.wait_for("Host a table on the network")
        host.keys("o")
        host.wait_for("Open a table on the network", "Seats")
        host.keys("Enter")
        host.wait_for("Address: 127.0.0.1:", "(empty seat)", "Announced on the LAN")
        guest.wait_for("Join a table on the network")
        guest.keys("j")
        screen = guest.wait_for("Tables on the LAN", f"{title}'s table", timeout=20)   # found by mDNS
        ours, _ = table_rows(screen, f"{title}'s table")
        guest.keys(*["Down"] * ours, "Enter")
        # Each lobby marks its player's own row, before the deal too.
        assert own_rows(guest.wait_for("not ready", timeout=20)) == ["Y"]
        assert own_rows(host.wait_for("not ready")) == ["R"]
        # The deal waits while the players compare the table fingerprint: the
        # same words on both screens, until each confirms it.
        shown = ready_and_compare_fingerprints(host, guest)
        time.sleep(3)
        assert "Turn" not in host.screen() and "Table fingerprint" in host.screen()   # still there to read
        guest.keys("C-r")
        guest.wait_for("Waiting for every player to confirm the fingerprint")
        host.keys("C-r")
        # Both reach the game; the fingerprint is shown again in the players panel.
        shots = {}
        for name, term in (("host", host), ("guest", guest)):
            screen = term.wait_for("Turn", "Dolly Sisters", timeout=40)   # the game screen, whoever goes first
            shots[name] = screen
            term.keys("p")
            term.wait_for(f"Table fingerprint: {shown}")
            term.keys("m")
        # Play a few decisions on whichever screen has one; both stay in step.
        deadline = time.monotonic() + 120
        turns = set()
        while time.monotonic() < deadline:
            for term in (host, guest):
                screen = term.screen()
                m = re.search(r"Turn (\d+)", screen)
                if m:
                    turns.add(int(m.group(1)))
                if "⏎ Choose" in screen and ("▶" in screen or "Interrupt window" in screen):
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
