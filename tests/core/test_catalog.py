"""The project's card, board, event and personality data agree with the
checked reference (a copy in tests/fixtures/reference), which the installed game never reads."""
from __future__ import annotations

import json
from pathlib import Path

from ankh.core.morpork.catalog import AREAS, CARDS, EVENTS, PERSONALITIES
from ankh.core.morpork.model import ADJ, BROWN, GREEN, TWO_PLAYER_REMOVED_CARDS

REFERENCE = Path(__file__).resolve().parents[1] / "fixtures" / "reference"


def load(name: str):
    return json.loads((REFERENCE / name).read_text())


def test_all_101_cards_match_the_reference():
    ref = {c["id"]: c for c in load("cards.json")["cards"]}
    ours = {c["id"]: c for c in CARDS}
    assert len(ours) == 101 and set(ours) == set(ref)
    assert (len(GREEN), len(BROWN)) == (48, 53)
    for cid, c in ours.items():
        r = ref[cid]
        assert (c["name"], c["deck"], list(c["symbols"])) == (r["name"], r["deck"], r["symbols"]), cid
        assert c.get("effect") == (r["scroll"]["effect"]["kind"] if "scroll" in r else None), cid
        assert c.get("interrupt") == (r["interrupt"]["structured"]["kind"] if "interrupt" in r else None)
        assert bool(c.get("two_player_excluded")) == r["two_player_excluded"], cid
        for key, value in c.get("params", {}).items():
            assert r["scroll"]["effect"][key] == value, (cid, key)
    assert set(TWO_PLAYER_REMOVED_CARDS) == {"hubert", "cosmo-lavish"}


def test_play_another_is_always_the_last_symbol():
    for c in CARDS:
        if "play_another" in c["symbols"]:
            assert c["symbols"][-1] == "play_another", c["id"]


def test_board_matches_the_reference():
    ref = load("board.json")
    assert len(AREAS) == 12
    for ours, r in zip(AREAS, ref["areas"]):
        assert (ours["number"], ours["id"], ours["cost"], ours["river"]) == (
            r["number"], r["id"], r["building_cost"], r["borders_river"])
        assert sorted(ours["adjacent"]) == sorted(r["adjacent"])
        assert ours["ability"] == r["city_area_card"]["kind"]
    edges = {tuple(sorted((a, b))) for a in range(12) for b in ADJ[a]}
    assert len(edges) == ref["edge_count"] == 23
    assert all(a in ADJ[b] for a in range(12) for b in ADJ[a]), "adjacency is symmetric"


def test_events_and_personalities_match_the_reference():
    assert [e["id"] for e in EVENTS] == [e["id"] for e in load("events.json")["events"]]
    ref = {p["id"]: p for p in load("personalities.json")["personalities"]}
    assert len(PERSONALITIES) == 7
    for p in PERSONALITIES:
        want = {int(k): v for k, v in ref[p["id"]]["condition"]["threshold_by_players"].items()
                if v is not None}
        assert p["thresholds"] == want, p["id"]
        assert p["condition"] == ref[p["id"]]["condition"]["kind"]
