"""The real ``ankh`` command in a real terminal (tmux): the guild game one
key away from the title, its map at 80×24 and everything at 120×40, a site
typed by number, in English and French."""
from __future__ import annotations

import shlex
import time

import pytest

from ..terminal import Terminal, ankh_command
from .test_screens import TRADE_POSITION


def start(tmp_path, lang: str, *args: str) -> Terminal:
    home = tmp_path / "home"
    command = (f"env ANKH_HOME={shlex.quote(str(home))} LANGUAGE={lang} TERM=xterm-256color "
               f"{shlex.quote(str(ankh_command()))} --seed 5 --bot-delay 0.05 "
               + " ".join(shlex.quote(a) for a in args))
    return Terminal(command, 80, 24)


# The words each check waits for, in each language.
WORDS = {
    "en": {"title": "g  New guild game (Catan variant)", "dialog": "The Guilds of Ankh-Morpork",
           "setup": "Place a house on site", "site": "on site 0  (", "choose": "⏎ Choose",
           "hand": "Your hand", "typed": "Site: 33", "phase C": "Trade, build, or end your turn.",
           "brick point": "2 A point in the brick guild (1 brick)",
           "bought": "R red buys a point in the brick guild."},
    "fr": {"title": "g  Partie des Guildes (Catane)", "dialog": "Les Guildes d'Ankh-Morpork",
           "setup": "Posez une maison", "site": "sur le site 0  (", "choose": "⏎ OK",
           "hand": "Votre main", "typed": "Site : 33", "phase C": "Échangez, bâtissez, ou finissez votre tour.",
           "brick point": "2 Un point dans la guilde de l'argile (1 argile)",
           "bought": "R rouge achète un point dans la guilde de l'argile."},
}
# Red's phase C at once (the dice fixed at 12, the Palace, where nobody has a house).
PHASE_C = TRADE_POSITION.replace("game: guilds", "game: guilds\nseats: red=person yellow=bot:heuristic "
                                 "green=bot:heuristic")


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


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("where", ["setup", "phase C"])
def test_a_resize_keeps_the_decision_in_tmux(tmp_path, lang, where):
    """80×24 → 120×40 → 80×24 at the first house and at "Trade, build, or end
    your turn", in English and French: the options and the footer's Choose
    stay, and a move then works (the site typed builds; the guild point bought)."""
    w = WORDS[lang]
    if where == "setup":
        term = start(tmp_path, lang)
    else:
        (tmp_path / "position.ankh").write_text(PHASE_C)
        term = start(tmp_path, lang, "--load", str(tmp_path / "position.ankh"))
    decision = (w["setup"], w["site"]) if where == "setup" else (w["phase C"], w["brick point"])
    try:
        if where == "setup":
            term.wait_for(w["title"])
            term.keys("g")
            term.wait_for(w["dialog"])
            term.keys("Enter")
        term.wait_for(*decision, w["choose"], timeout=30)
        term.run("resize-window", "-t", "ankh", "-x", "120", "-y", "40")
        screen = term.wait_for(w["hand"], *decision, w["choose"])
        assert len(screen.splitlines()) > 24
        term.run("resize-window", "-t", "ankh", "-x", "80", "-y", "24")
        screen = term.wait_for(*decision, w["choose"])
        assert w["hand"] not in screen and all(len(line) <= 80 for line in screen.splitlines())
        # The bots placed first: the key guard holds off keys for 0.5 s after the decision came
        # (and again after each key meanwhile); on a quick machine both resizes are done in less.
        time.sleep(0.8)
        if where == "setup":
            term.keys("3", "3")                       # site 33, typed
            term.wait_for(w["typed"])
            term.keys("Enter")
            term.wait_for("R▲")                       # red's house on the map
        else:
            term.keys("2")                            # a point in the brick guild
            term.wait_for(w["phase C"])
            term.keys("l")                            # the log says it was bought
            term.wait_for(w["bought"])
    finally:
        term.close()
