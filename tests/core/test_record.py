"""Game records and ``ankh replay``: round trips, scenarios, and clear errors
that name the offending line."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from ankh.core.bots.random_bot import RandomBot
from ankh.core.record import RecordError, parse_record
from ankh.net.local import LocalGame, SetupError

SCENARIO = """# ankh record 1
players: 3
seed: 7
first: yellow
personality yellow: lord-vetinari
hand yellow: mr-boggis groat the-dean dwarves hex
rolls: 4
money red: 3
area nap-hill: red red troll trouble building=green

yellow: play mr-boggis
yellow: scroll
yellow: minion the-hippo
"""


def test_a_scenario_sets_up_and_replays():
    g = LocalGame.from_text(SCENARIO)
    s = g.state
    assert s.turn == 2 and s.current == 2  # yellow went first; now green's turn
    assert s.pers[s.personality[1]] == "lord-vetinari"
    # Mr Boggis: $2 from each other player (red had only $3)
    assert s.money == [1, 10 + 4, 8]
    nap = 11
    assert s.minions[nap] == [2, 0, 0] and s.trolls[nap] == 1 and s.trouble[nap]
    assert s.building[nap] == 2 and s.city_owner[nap] == 2
    assert s.minions[5][1] == 1  # the hippo


def test_record_text_round_trips():
    rec = parse_record(SCENARIO)
    assert parse_record(rec.to_text()).to_text() == rec.to_text()


def test_saved_games_replay_identically_and_read_like_a_log():
    g = LocalGame.new(4, 11, {p: RandomBot(random.Random(p)) for p in range(4)})
    g.advance()
    text = g.save_text()
    assert text.startswith("# ankh record 1\nplayers: 4\nseed: 11\n"
                           "seats: red=bot:random yellow=bot:random green=bot:random blue=bot:random\n")
    assert parse_record(text).seats == {p: "bot:random" for p in range(4)}
    assert "red: play " in text and "* pick " in text
    again = LocalGame.from_text(text)
    assert again.state.outcome == g.state.outcome
    assert again.state.money == g.state.money


@pytest.mark.parametrize("text,line,words", [
    ("players: 5\n", 1, "2 to 4 players"),
    ("players: 2\nfirst: green\n", 2, "not a seat"),
    ("players: 2\nhand red: groat\n", 2, "5 cards"),
    ("players: 2\nrolls: 13\n", 2, "1 to 12"),
    ("players: 2\nweather: fine\n", 2, "unknown setup line"),
    ("players: 2\nseats: red=person yellow=robot\n", 2, "COLOUR=bot:KIND"),
    ("players: 2\narea atlantis: red\n", 2, "not an area"),
    ("players: 2\narea nap-hill: red purple\n", 2, "purple"),
    ("players: 2\nfirst: red\nhand red: groat dwarves ruby hex mr-gryle\n\nred: play death\n", 5,
     "not legal"),
    ("players: 2\nfirst: red\n\nyellow: pass\n", 4, "red's decision"),
    ("players: 2\nfirst: red\n\n* roll 3\n", 4, "random pick is due"),
    ("players: 2\nfirst: red\nhand red: groat dwarves ruby hex mr-gryle\n\nred: play groat\n"
     "* pick red\n", 6, "not a chance outcome"),
    ("players: 2\nfirst: red\nnonsense\n", 3, "expected 'key: value'"),
    ("players: 2\nfirst: red\n\nred: fly away\n", 4, "unknown verb"),
])
def test_bad_records_name_the_line(text, line, words):
    with pytest.raises(RecordError) as err:
        LocalGame.from_text(text)
    assert err.value.line == line
    assert words in str(err.value)


def test_impossible_fixed_cards_are_refused():
    with pytest.raises(SetupError, match="not a card"):
        LocalGame.from_text("players: 2\nhand red: groat dwarves ruby hex hubert\n")
    with pytest.raises(SetupError, match="twice"):
        LocalGame.from_text("players: 3\nhand red: groat dwarves ruby hex groat\n")


def run_cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "ankh.tui.cli", *args], capture_output=True,
                          text=True, input=stdin, timeout=60)


def test_ankh_replay_json_prints_the_final_state(tmp_path):
    f = tmp_path / "game.txt"
    f.write_text(SCENARIO)
    out = run_cli("replay", str(f), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["seats"]["yellow"]["money"] == 14
    assert data["seats"]["yellow"]["personality"] == "lord-vetinari"
    assert data["areas"]["nap-hill"]["building"] == "green"
    assert data["areas"]["the-hippo"]["minions"] == {"yellow": 1}
    assert data["current"] == "green" and data["outcome"] is None
    for key in ("hand", "city_area_cards", "loans", "penalty_cards"):
        assert key in data["seats"]["red"]
    assert {"draw_pile", "discard_pile", "turn", "waiting_for"} <= set(data)


def test_ankh_replay_reports_bad_input_clearly(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("players: 2\nfirst: red\n\nred: build atlantis\n")
    out = run_cli("replay", str(bad), "--json")
    assert out.returncode == 1
    assert "line 4" in out.stderr and "Traceback" not in out.stderr
    truncated = tmp_path / "cut.txt"
    truncated.write_bytes(SCENARIO.encode()[:-20])
    out = run_cli("replay", str(truncated), "--json")
    assert out.returncode == 1 and "line 13" in out.stderr and "Traceback" not in out.stderr
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    out = run_cli("replay", str(binary))
    assert out.returncode == 2 and "not a text record" in out.stderr
    out = run_cli("replay", str(tmp_path / "missing.txt"))
    assert out.returncode == 2 and "cannot read" in out.stderr
