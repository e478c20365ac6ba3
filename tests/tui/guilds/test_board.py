"""The guild map drawn from the board's geometry: every site by its number or
the piece on it, every district with its tokens, the robber, the fire, the
legal sites and robber spots standing out, within 74 × 14."""
from __future__ import annotations

import re

from ankh.core.game import get
from ankh.core.guilds.board import DISTRICT_IDS, NUM_VERTICES, SHADES_SPOT, SPOT_INDEX, TOKENS
from ankh.tui.games.guilds import board
from ankh.tui.games.guilds.text import district_short

GUILDS = get("guilds")


def blank():
    return GUILDS.new_state(3)


def shown(text, style: str) -> set[str]:
    """The pieces of text drawn with ``style`` among their styles."""
    return {text.plain[span.start:span.end].strip() for span in text.spans if style in str(span.style)}


def test_every_site_district_and_token_is_drawn_within_its_size():
    t = board.draw(blank())
    lines = t.plain.split("\n")
    assert len(lines) == board.HEIGHT and max(map(len, lines)) <= board.WIDTH
    numbers = {int(n) for n in re.findall(r"\d+", t.plain)}
    assert set(range(NUM_VERTICES)) <= numbers | {v for _, v in TOKENS}
    for did in DISTRICT_IDS:
        assert district_short(did) in t.plain
    # the sites are where the geometry puts them: no two on one cell
    assert len(set(board.SITES)) == NUM_VERTICES


def test_pieces_robber_fire_and_choices_stand_out():
    s = blank()
    s.occ[10] = 0 * 3 + 1          # red house
    s.occ[30] = 1 * 3 + 2          # yellow villa
    s.occ[22] = 2 * 3 + 0          # green foundation
    s.robber = SPOT_INDEX["GRAIN:6"]
    s.fire = True
    t = board.draw(s, legal=frozenset({3, 12}), chosen=12)
    assert "R▲" in t.plain and "Y■" in t.plain and "G·" in t.plain
    assert "✖6" in t.plain and "✹10" in t.plain
    assert {"3", "12"} <= shown(t, "reverse")          # the legal sites, by number
    assert "12" in shown(t, "underline")               # the one chosen
    assert "10" not in shown(t, "reverse")             # red's house is no choice here
    spots = board.draw(s, spots=frozenset({SPOT_INDEX["ORE:8"]}))
    assert "8" in shown(spots, "reverse") and "3" not in shown(spots, "reverse")


def test_the_river_runs_without_a_gap_and_is_named_once():
    lines = board.draw(blank()).plain.split("\n")
    water = [(r, c) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "≈"]
    assert len(water) > 100
    rows = sorted({r for r, _ in water})
    for r in rows:   # between its banks, each row of the river is water (or its name): no blank
        cols = [c for rr, c in water if rr == r]
        inside = lines[r][min(cols):max(cols) + 1]
        assert " " not in inside.replace("Ankh", "≈≈≈≈"), (r, inside)
    assert "\n".join(lines).count("Ankh") == 1


def test_the_shades_as_a_spot_to_choose_is_no_second_robber():
    s = blank()
    s.robber = SPOT_INDEX["GRAIN:6"]
    t = board.draw(s, spots=frozenset({SHADES_SPOT, SPOT_INDEX["ORE:8"]}))
    assert t.plain.count("✖") == 1 and "✖6" in t.plain          # the robber, where it is
    assert "○" in shown(t, "reverse")                           # the Shades, a spot it may go to
    s.robber = SHADES_SPOT
    assert board.draw(s).plain.count("✖") == 1 and "○" not in board.draw(s).plain
    # left on the Shades (without a licence, its only spot): the robber, not a ring where it may go
    t = board.draw(s, spots=frozenset({SHADES_SPOT}), spot=SHADES_SPOT)
    assert t.plain.count("✖") == 1 and "○" not in t.plain and "✖" in shown(t, "underline")


def test_the_robber_and_the_assassins_differ_and_the_river_wears_no_players_colour():
    from ankh.core.guilds.board import TRACK, TRACK_BIT
    from ankh.tui.seats import SEAT_STYLE
    s = blank()
    for n in TRACK:
        s.track |= TRACK_BIT[n]
    line = board.track_line(s)
    assert "✖" not in line.plain and all(f"†{n}" in line.plain for n in TRACK)
    t = board.draw(s)
    water = {str(span.style) for span in t.spans if set(t.plain[span.start:span.end]) == {"≈"}}
    colours = {style.split()[-1] for style in SEAT_STYLE}              # red yellow green bright_blue
    assert water and not any(w.split()[-1] in colours or w.split()[-1] == "blue" for w in water)
