"""Records: chance lines fix dice, deals and steals; errors name their line."""

import pytest

from ankh.core.guilds.game import GAME
from ankh.core.game import RecordError
from ankh.net.play.local import LocalGame

from .helpers import game, play

P3 = "turn: red\nhouses red: V29\nhouses yellow: V24\nhouses green: V31\n"


def test_the_dev_line_fixes_the_top_of_the_stack():
    g = game(P3 + "hand red: 2 wool 2 grain 2 ore\ndev: vetinari-3 guard-7",
             "* roll 6+6\nred: dev\n")
    s = g.state
    assert [s.dcard[h] for h in s.dev[0]] == ["vetinari-3"]
    play(g, "dev")
    assert [s.dcard[h] for h in s.dev[0]] == ["vetinari-3", "guard-7"]
    with pytest.raises(RecordError) as e:
        game(P3 + "tokens red: guard-2\ndev: guard-2")
    assert "line 9" in str(e.value) and "named twice" in str(e.value)


def test_steal_and_die_lines_replay():
    text = ("game: guilds\nplayers: 3\nseed: 3\n" + P3 +
            "receipts yellow: 0\nhand yellow: 1 ore 1 grain\nhand red: 1 brick 1 wool\n"
            "* roll 3+4\nred: robber ORE:8\nred: rob yellow\n* steal #1 grain\n")
    g = LocalGame.from_text(text)
    g.advance()
    s = g.state
    assert s.hid[0] == (1,) and s.rcard[1] == 3 and s.true_hand(1) == [0, 0, 0, 0, 1]
    assert "* steal #1 grain" in g.save_text()
    text2 = ("game: guilds\nplayers: 3\nseed: 3\n" + P3 + "hand red: 1 brick 1 wool\n"
             "* roll 3+4\nred: assassin brick wool\n* roll 5\n")
    g2 = LocalGame.from_text(text2)
    g2.advance()
    assert g2.state.pending.kind == "assassin-house"
    assert "* roll 5" in g2.save_text()


def test_a_wrong_chance_line_names_its_line():
    with pytest.raises(RecordError) as e:
        LocalGame.from_text("game: guilds\nplayers: 3\nseed: 1\n" + P3 + "* roll 7\n")
    assert "line 8" in str(e.value) and "roll D1+D2" in str(e.value)
    with pytest.raises(RecordError) as e:
        LocalGame.from_text("game: guilds\nplayers: 3\nseed: 1\n" + P3 + "* roll 3+4\nred: villa V29\n")
    assert "line 9" in str(e.value) and "not legal for red" in str(e.value)
    with pytest.raises(RecordError) as e:
        LocalGame.from_text("game: guilds\nplayers: 3\nseed: 1\n" + P3 + "* roll 3+4\nyellow: pass\n")
    assert "line 9" in str(e.value) and "red's decision" in str(e.value)


def test_other_games_records_are_refused():
    with pytest.raises(RecordError) as e:
        GAME.parse_record("# ankh record 1\ngame: morpork\nplayers: 3\n")
    assert "line 2" in str(e.value)


def test_moves_read_in_any_case_and_forced_moves_may_be_written():
    unlicensed = P3.replace("V29", "V09")
    g = game(unlicensed + "tokens red: guard-1\nhand red: 3 ore", "red: guard guard-1\nred: Robber shades\n"
             "red: ROLL\n* roll 6+6\nred: gp ORE\n")
    s = g.state
    assert s.gup[0] == 1 and s.gp[4] == 1 and s.phase == "C"
    assert GAME.normalise("house  v09") == "house V09" == GAME.format_option(s, ("house", 9))
