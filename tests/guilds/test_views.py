"""What a seat sees, as a state and as JSON (``ankh replay --json``)."""
import json

from ankh.core.guilds.game import GAME
from ankh.core.guilds.views import state_json, view_for


def view_json(state):
    return state_json(view_for(state, None))

from .helpers import game, play

P3 = ("turn: red\nhouses red: V09 V10\nhouses yellow: V24\nhouses green: V31\n"
      "tokens red: guard-1 vetinari-2\ntokens yellow: guard-3\nhand red: 2 ore\n"
      "gp red: 3 grain\nguild grain: president=red\nrolls: 6+6\n")


def test_state_json_shows_the_viewer_its_tokens_and_others_only_their_count():
    g = game(P3)
    red = GAME.state_json(g.state, viewer=0)
    yellow = GAME.state_json(g.state, viewer=1)
    json.dumps(red)
    assert red["players"][0]["tokens"] == ["guard-1", "vetinari-2"]
    assert yellow["players"][0]["tokens"] == ["hidden", "hidden"]
    assert yellow["players"][1]["tokens"] == ["guard-3"]
    assert red["guilds"]["grain"]["president"] == "red"
    assert red["guilds"]["grain"]["points"]["red"] == 3
    assert red["players"][0]["vp"] == 3 and red["leaders"] == ["red"]
    assert red["players"][0]["hand"] == {"brick": 0, "lumber": 0, "wool": 0, "grain": 0, "ore": 2}
    assert red["board"]["pieces"]["V09"] == {"seat": "red", "piece": "house"}
    assert red["board"]["robber"] == "SHADES" and red["board"]["track"] == [2, 3, 4, 5]
    assert red["pending"]["seat"] == "red" and red["pending"]["kind"] == "before-roll"
    spectator = view_json(g.state)
    assert spectator["players"][0]["tokens"] == ["hidden", "hidden"]


def test_json_after_a_steal_shows_the_hand_only_to_those_who_know_it():
    g = game("turn: red\nhouses red: V29\nhouses yellow: V24\nhouses green: V31\n"
             "receipts yellow: 0\nhand yellow: 1 ore 1 grain\nhand red: 1 brick 1 lumber\n"
             "rolls: 3+4")
    play(g, "robber ORE:8", "rob yellow")
    s = g.state
    red, yellow, green = (GAME.state_json(s, viewer=q) for q in range(3))
    assert red["players"][0]["hand"] is not None and yellow["players"][1]["hand"] is not None
    assert green["players"][0]["hand"] is None and green["players"][1]["hand"] is None
    assert green["players"][0]["cards"] == 3 and green["players"][0]["hidden_cards"] == 1
    assert sum(red["players"][0]["hand"].values()) == 3


def test_the_log_reads_as_the_game():
    g = game(P3)
    play(g, "roll", "gp ore", "end")
    texts = [e.text for e in g.log]
    assert "red rolls 6+6 = 12" in texts and "red buys a point in the ore guild" in texts
    assert any(t.startswith("turn 2: yellow") for t in texts)


def test_the_outcome_in_words():
    from ankh.core.game import Outcome
    text = GAME.describe_outcome(Outcome((1,), "points", "12 VP", (9, 12, 7)))
    assert text == "yellow wins with 12 VP (red 9, yellow 12, green 7)"
