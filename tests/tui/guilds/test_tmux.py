"""The real ``ankh`` command in a real terminal (tmux): the guild game one
key away from the title, its map at 80×24 and everything at 120×40, a site
typed by number, in English and French."""
from __future__ import annotations

import shlex
import time

from ..terminal import Terminal, ankh_command


def start(tmp_path, lang: str) -> Terminal:
    home = tmp_path / "home"
    command = (f"env ANKH_HOME={shlex.quote(str(home))} LANGUAGE={lang} TERM=xterm-256color "
               f"{shlex.quote(str(ankh_command()))} --seed 5 --bot-delay 0.05")
    return Terminal(command, 80, 24)


def test_a_guild_game_from_the_title_in_tmux(tmp_path):
    term = start(tmp_path, "en")
    try:
        term.wait_for("g  New guild game (Catan variant)")
        term.keys("g")
        term.wait_for("The Guilds of Ankh-Morpork", "Bots play")
        term.keys("Down", "Down", "Down", "Down", "Right", "Enter")       # normal bots
        screen = term.wait_for("Grain", "University", "Assassins at large", "Place a house on site")
        lines = screen.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        time.sleep(0.8)         # as a person would: faster keys are held off by the key guard
        term.keys("3", "3")                           # site 33, typed
        term.wait_for("Site: 33")
        term.keys("Enter")
        term.wait_for("R▲")                           # red's house on the map
        term.run("resize-window", "-t", "ankh", "-x", "120", "-y", "40")
        term.wait_for("Your hand", "Players", "Guilds", "Bank and costs", "Since your last move", "Log")
        term.keys("q")
        term.wait_for("Leave this game?")
        term.keys("y")
        term.wait_for("New game against bots")
    finally:
        term.close()


def test_the_guild_game_in_french_in_tmux(tmp_path):
    term = start(tmp_path, "fr")
    try:
        term.wait_for("g  Partie des Guildes (Catane)")
        term.keys("g")
        term.wait_for("Les Guildes d'Ankh-Morpork")
        term.keys("Enter")
        term.wait_for("Blé", "Université", "Assassins en liberté", "Posez une maison")
        term.run("resize-window", "-t", "ankh", "-x", "120", "-y", "40")
        term.wait_for("Votre main", "Guildes", "Banque et coûts", "Depuis votre dernier coup", "Journal")
    finally:
        term.close()


def test_a_resize_keeps_the_decision_in_tmux(tmp_path):
    """80×24 → 120×40 → 80×24 at the first house: the options and the
    footer's Choose stay, and the site typed then builds."""
    term = start(tmp_path, "en")
    try:
        term.wait_for("g  New guild game (Catan variant)")
        term.keys("g")
        term.wait_for("The Guilds of Ankh-Morpork", "Bots play")
        term.keys("Enter")
        term.wait_for("Place a house on site", "⏎ Choose", "on site 0  (")
        term.run("resize-window", "-t", "ankh", "-x", "120", "-y", "40")
        screen = term.wait_for("Your hand", "Place a house on site", "⏎ Choose", "on site 0  (")
        assert len(screen.splitlines()) > 24
        term.run("resize-window", "-t", "ankh", "-x", "80", "-y", "24")
        screen = term.wait_for("Place a house on site", "⏎ Choose", "on site 0  (")
        assert "Your hand" not in screen and all(len(line) <= 80 for line in screen.splitlines())
        # The bots placed first: the key guard holds off keys for 0.5 s after the decision came
        # (and again after each key meanwhile); on a quick machine both resizes are done in less.
        time.sleep(0.8)
        term.keys("3", "3")                           # site 33, typed
        term.wait_for("Site: 33")
        term.keys("Enter")
        term.wait_for("R▲")                           # red's house on the map
    finally:
        term.close()
