"""The real ``ankh`` command in a real terminal (tmux): start it, play, leave,
resize, quit, and read the screen back with ``capture-pane``."""
from __future__ import annotations

import shlex
import time

from .terminal import Terminal, ankh_command


def test_ankh_in_tmux_plays_saves_resizes_and_quits(tmp_path):
    home = tmp_path / "home"
    status = tmp_path / "status"
    command = (f"env ANKH_HOME={shlex.quote(str(home))} TERM=xterm-256color "
               f"{shlex.quote(str(ankh_command()))} --seed 5; echo $? > {shlex.quote(str(status))}")
    term = Terminal(f"sh -c {shlex.quote(command)}", 80, 24)
    try:
        term.wait_for("New game against bots", "Load a saved game", "q Quit")
        term.keys("n")
        term.wait_for("Players", "Your colour", "Bots play")
        term.keys("Enter")
        term.wait_for("Choose", timeout=30)
        term.keys("m")                                   # the map (the summary may show first)
        screen = term.wait_for("1 Dolly Sisters", "Nap Hill", "Ankh", "Choose")
        lines = screen.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert "q Quit" in lines[-1]                     # the whole footer fits
        # play until it is our turn to play a card, then play one
        for _ in range(30):
            screen = term.wait_for("Choose")
            if "Your turn: Play a card" in screen:
                break
            term.keys("1")
            time.sleep(0.8)   # as a person would: faster keys are held off by the key guard
        term.keys("1")
        term.wait_for("Turn")
        # too small, then big again
        term.run("resize-window", "-t", "ankh", "-x", "60", "-y", "20")
        term.wait_for("too small", "60×20")
        term.run("resize-window", "-t", "ankh", "-x", "120", "-y", "40")
        screen = term.wait_for("1 Dolly Sisters", "Your hand")
        assert "too small" not in screen
        term.keys("q")
        term.wait_for("Leave this game?")
        term.keys("y")
        term.wait_for("New game against bots")
        saves = list((home / "saves").glob("*.ankh"))
        assert len(saves) == 1 and "\nseats: " in saves[0].read_text(encoding="utf-8")
        term.keys("q")
        end = time.monotonic() + 10
        while term.alive() and time.monotonic() < end:
            time.sleep(0.05)
        assert not term.alive(), "ankh did not quit"
        assert status.read_text().strip() == "0"
    finally:
        term.close()


def test_at_80x24_notices_are_not_over_the_map_when_your_decision_comes(tmp_path):
    """Blue's random event (Explosion) and what hit red come while the bots
    play; when red's turn comes, no notice is on the map or the options: the
    summary since red's last move tells them, in English and in French."""
    from . import scenarios
    record = tmp_path / "follow.ankh"
    record.write_text(scenarios.FOLLOW, encoding="utf-8")
    for lang, turn, told, notices in (
            ("en", "Your turn", "Random event: Explosion.", ("Happening now", "This hits you")),
            ("fr", "Votre tour", "Événement Aléatoire : Explosion.", ("En ce moment", "Ceci vous touche"))):
        home = tmp_path / lang
        command = (f"env ANKH_HOME={shlex.quote(str(home))} TERM=xterm-256color "
                   f"{shlex.quote(str(ankh_command()))} --lang {lang} --bot-delay 0.3 "
                   f"--load {shlex.quote(str(record))}")
        term = Terminal(f"sh -c {shlex.quote(command)}", 80, 24)
        try:
            term.wait_for(turn, timeout=30)
            time.sleep(1.0)                                # a notice would be up by now
            screen = term.screen()
            assert not any(n in screen for n in notices), screen
            assert "▌" not in screen, screen               # a notice's edge
            term.keys("PageDown")                          # the rest of the summary: blue's turn
            term.wait_for(told)
            term.keys("m")
            # the map (its first area's number is followed by * when it changed since red's last move)
            screen = term.wait_for("Dolly Sisters" if lang == "en" else "S.-Étienne", "Ankh ≈≈")
            assert not any(n in screen for n in notices) and "▌" not in screen, screen
        finally:
            term.close()
