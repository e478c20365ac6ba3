"""What the guild options say at 80×24, in both languages: the discards after
a 7 (how many of each kind the seat holds, how many cards are still to
discard, of how many) and the receipts bought back (what they do, within
their row)."""
from __future__ import annotations

import pytest

from ankh.tui import i18n
from ankh.tui.app import AnkhApp
from ankh.tui.session import GameSession

from .test_screens import deciding, screen_text, until

# Red to play; the dice are fixed. Red holds 9 cards and no receipt face up.
POSITION = """\
game: guilds
seats: red=person yellow=bot:heuristic green=bot:heuristic
players: 3
seed: 11
rolls: {rolls}
turn: red
houses red: V10 V30
houses yellow: V22 V24
houses green: V27 V36
receipts red: {receipts}
hand red: {hand}
hand yellow: 2 ore 1 wool
hand green: 1 lumber
"""


def options_shown(app, question: bool = False) -> list[str]:
    """The rows of the options as the terminal shows them (the question's first too)."""
    rows = screen_text(app).splitlines()
    start = next(i for i, row in enumerate(rows) if "Turn 1" in row or "Tour 1" in row)
    return [row.rstrip(" ▁▂▃▄▅▆▇█") for row in rows[start + (not question):-1] if row.strip()]


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_discard_after_a_7_says_how_many_of_the_kind_you_hold_and_how_many_are_left(lang):
    """Cards go one at a time after a 7: each option says how many of that kind
    the seat holds; the question above them, how many cards are still to
    discard, of how many (said once, not on every option)."""
    i18n.set_language(lang)
    position = POSITION.format(rolls="3+4", receipts=0, hand="3 ore 2 brick 2 grain 2 wool")
    app = AnkhApp(GameSession.from_text(position), bot_delay=0)
    said = {"en": ("Discard ore (you hold 3)", "Discard brick (you hold {brick})",
                   "A 7: {left} of 4 cards left to discard"),
            "fr": ("Défausser 1 minerai (vous en avez 3)", "Défausser 1 argile (vous en avez {brick})",
                   "Un 7 : encore {left} sur 4 cartes à défausser")}[lang]
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        rows = options_shown(app, question=True)
        assert any(said[2].format(left=4) in row for row in rows), rows
        assert any(row.endswith(said[0]) for row in rows), rows
        assert any(row.endswith(said[1].format(brick=2)) for row in rows), rows
        assert sum(("4 of 4" in row or "4 sur 4" in row) for row in rows) == 1, rows   # said once
        brick = next(i for i, o in enumerate(app.screen.decision().options) if o == ("discard", 0))
        app.screen._choices().highlighted = app.screen._rows.index(brick)
        await pilot.press("enter")
        await until(pilot, lambda: deciding(app) and any(said[2].format(left=3) in row
                                                          for row in options_shown(app, True)))
        rows = options_shown(app)
        assert any(row.endswith(said[0]) for row in rows), rows
        assert any(row.endswith(said[1].format(brick=1)) for row in rows), rows


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_buying_back_the_receipts_says_what_they_do_within_its_row(lang):
    """"Pay ore: both receipts face up" did not say what for: a receipt face up
    keeps the robber (and a 7's discard) away, for two turns once both are up."""
    i18n.set_language(lang)
    position = POSITION.format(rolls="6+6", receipts=1, hand="3 ore 1 brick 1 grain 1 wool 1 lumber")
    app = AnkhApp(GameSession.from_text(position), bot_delay=0)
    said = {"en": "Pay 1 lumber: both receipts face up, safe from the robber for 2 turns",
            "fr": "Payer 1 bois : deux quittances visibles, à l'abri du voleur 2 tours"}[lang]
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        options = app.screen.decision().options
        lumber = options.index(("refresh", 1))
        app.screen._choices().highlighted = app.screen._rows.index(lumber)
        await pilot.pause()
        rows = options_shown(app)
        assert any(row.endswith(said) and len(row) <= 78 for row in rows), rows
