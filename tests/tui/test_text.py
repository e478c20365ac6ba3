"""Words on the screen: option labels, details, names, progress."""
from __future__ import annotations

import pytest

from ankh.core.morpork.views import view_for
from ankh.net.play.local import LocalGame
from ankh.tui.games.morpork.text import humanize, option_detail, option_label, progress, score_parts


@pytest.mark.parametrize("text, kind, label", [
    ("play mr-boggis", "turn", "Play Mr Boggis  Scroll · Minion"),
    ("minion dolly-sisters", "action", "Place a minion in 1 Dolly Sisters"),
    ("minion nap-hill from the-shades", "place", "Place a minion in 12 Nap Hill, taking it from 7 The Shades"),
    ("build small-gods", "action", "Build in 4 Small Gods ($18)"),
    ("assassinate the-shades yellow", "action", "Assassinate Y yellow's minion in 7 The Shades"),
    ("assassinate dimwell troll", "action", "Assassinate a troll in 8 Dimwell"),
    ("move the-scours green the-hippo", "move", "Move G green's minion from 5 The Scours to 6 The Hippo"),
    ("remove-trouble the-shades", "action", "Remove the trouble in 7 The Shades"),
    ("target blue", "target", "Choose B blue"),
    ("interrupt gaspode", "window", "Interrupt with Gaspode"),
    ("pass", "window", "Let it happen (pass)"),
    ("pay 5", "choice", "Pay $5"),
    ("small-gods", "window", "Pay $3 (Small Gods) to protect your piece"),
])
def test_option_labels(text, kind, label):
    assert option_label(text, kind).plain == label


def test_details_explain_cards_and_areas():
    assert "Every other player pays you $2" in option_detail("play mr-boggis")
    assert option_detail("scroll", "mr-boggis: Carry out the card's text").startswith("Mr Boggis: Scroll · Minion.")
    assert "collect $2 from the bank" in option_detail("ability the-hippo")
    assert "goes ahead" in option_detail("pass", "Interrupt? ...", "window")
    assert humanize("mr-boggis: Place a minion (the-shades)") == "Mr Boggis: Place a minion (The Shades)"


def test_progress_and_points_come_from_the_view():
    game = LocalGame.from_text("""\
# ankh record 1
players: 3
seed: 1
personality red: lord-vetinari
personality yellow: chrysoprase
area the-hippo: red yellow building=yellow
area isle-of-gods: demon red
""")
    game.advance()
    red, yellow = view_for(game.state, 0), view_for(game.state, 1)
    # red: Dolly Sisters, The Scours, The Shades, The Hippo; the Isle of Gods has a demon
    assert progress(red)[0] == "4/10 areas"
    assert progress(yellow)[0] == "$22/$50 worth"
    assert progress(red, 1) == ("", "")        # red does not know yellow's personality
    minions, buildings, money, loans = score_parts(yellow, 1)
    assert (minions, buildings, money, loans) == (20, 12, 10, 0)
