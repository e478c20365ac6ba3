"""The real ``ankh`` in French in a real terminal (tmux, 80×24): chosen with
``--lang fr``, or by a French locale; the settings' choice is remembered."""
from __future__ import annotations

import shlex
import time

from .terminal import Terminal, ankh_command


def _start(tmp_path, env: str, args: str = "") -> Terminal:
    home = tmp_path / "home"
    command = (f"env -u LANGUAGE -u LC_ALL -u LC_MESSAGES ANKH_HOME={shlex.quote(str(home))} "
               f"TERM=xterm-256color {env} {shlex.quote(str(ankh_command()))} --seed 5 --bot-delay 0 {args}")
    return Terminal(f"sh -c {shlex.quote(command)}", 80, 24)


def _quit(term: Terminal) -> None:
    end = time.monotonic() + 10
    while term.alive() and time.monotonic() < end:
        time.sleep(0.05)
    assert not term.alive(), "ankh did not quit"


def test_lang_fr_plays_in_french(tmp_path):
    term = _start(tmp_path, "LANG=C.UTF-8", "--lang fr")
    try:
        # the title's whole footer fits (it was cut at "q")
        screen = term.wait_for("Nouvelle partie contre des robots", "Règles et référence des cartes", "r Règles q Fin")
        assert "New game" not in screen
        term.keys("n")
        term.wait_for("Votre couleur", "Joueurs")
        term.keys("Enter")
        screen = term.wait_for("Tour", "⏎ OK", "Journal")
        lines = screen.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert "q Fin" in lines[-1]                       # the whole footer fits
        term.keys("?")
        term.wait_for("Règles", "Cartes", "Touches", "esc Fermer")
        time.sleep(0.3)
        term.keys("Escape")
        term.wait_for("⏎ OK")
        time.sleep(0.6)                                   # the key guard of a new decision
        term.keys("q")
        term.wait_for("Quitter cette partie ?")
        term.keys("y")
        term.wait_for("Nouvelle partie contre des robots")
        term.keys("q")
        _quit(term)
    finally:
        term.close()


def test_a_french_locale_plays_in_french_and_the_settings_win_over_it(tmp_path):
    term = _start(tmp_path, "LANG=fr_FR.UTF-8")
    try:
        term.wait_for("Nouvelle partie contre des robots")
        term.keys("s")
        term.wait_for("Réglages", "Langue", "Français")
        term.keys("Left", "Enter")
        term.wait_for("New game against bots")
        term.keys("q")
        _quit(term)
    finally:
        term.close()
    term = _start(tmp_path, "LANG=fr_FR.UTF-8")          # the choice is remembered
    try:
        term.wait_for("New game against bots")
        term.keys("q")
        _quit(term)
    finally:
        term.close()
