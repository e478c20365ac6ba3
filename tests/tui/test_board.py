"""The map keeps the city's geography: boxes touch exactly when areas border
each other, and the river touches exactly the river areas."""
from __future__ import annotations

import itertools

import pytest

from ankh.core.morpork.catalog import AREAS
from ankh.tui.games.morpork.widgets.board import BOX, PLACE, Canvas, box_origin, draw_river, map_height

ADJACENT = {frozenset((a["number"], n)) for a in AREAS for n in a["adjacent"]}
ROAD = frozenset((9, 8))  # Longwall-Dimwell is drawn as a road between two boxes


def touching(a: int, b: int) -> bool:
    (ca, ra), (cb, rb) = PLACE[a], PLACE[b]
    return (ra == rb and abs(ca - cb) == 2) or (abs(ra - rb) == 1 and abs(ca - cb) == 1)


def test_boxes_touch_exactly_when_areas_border():
    for a, b in itertools.combinations(range(1, 13), 2):
        pair = frozenset((a, b))
        shown = touching(a, b) or pair == ROAD
        assert shown == (pair in ADJACENT), (a, b)


@pytest.mark.parametrize("h", [3, 4, 5])
def test_the_river_touches_exactly_the_river_areas(h):
    c = Canvas(80, map_height(h))
    draw_river(c, h)
    water = set("≈║═")
    for a in AREAS:
        x, y = box_origin(a["number"], h)
        ring = [(xx, yy) for xx in range(x - 1, x + BOX + 1) for yy in range(y - 1, y + h + 1)
                if not (x <= xx < x + BOX and y <= yy < y + h)]
        wet = any(0 <= xx < c.width and 0 <= yy < c.height and c.chars[yy][xx] in water
                  for xx, yy in ring)
        assert wet == a["river"], a["name"]


def test_boxes_fit_and_do_not_overlap():
    for h in (3, 4, 5):
        cells = {}
        for n in PLACE:
            x, y = box_origin(n, h)
            assert 0 <= x and x + BOX <= 80 and y + h <= map_height(h)
            for xx in range(x, x + BOX):
                for yy in range(y, y + h):
                    assert (xx, yy) not in cells, (n, cells.get((xx, yy)))
                    cells[(xx, yy)] = n
