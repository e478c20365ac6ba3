"""The board of the guild variant as data: eleven districts in a ring around
the river Ankh, their number tokens, and the vertex graph regenerated from the
hex geometry (pointy-top axial coordinates; see docs/guilds.md).

Everything here is computed once at import and then only read: the rules
index plain tuples (``VERTEX_DISTRICTS[v]``, ``NBRS[v]``, ``ROLL_TOKENS[t]``).
"""
from __future__ import annotations

from math import sqrt
from typing import Final

# --- resources and guilds ------------------------------------------------------------------

RESOURCES: Final = ("brick", "lumber", "wool", "grain", "ore")
BRICK, LUMBER, WOOL, GRAIN, ORE = range(5)
R_INDEX: Final = {r: i for i, r in enumerate(RESOURCES)}
PARCHMENT: Final = 5            # the sixth "kind" in a trade: parchments
KINDS: Final = RESOURCES + ("parchment",)
BANK_START: Final = 19

# --- districts ------------------------------------------------------------------------------

RESOURCE, BEGGARS, ALCHEMISTS, PALACE, UNIVERSITY, THIEVES, SHADES = range(7)

# (id, q, r, kind, resource index or None, tokens)
DISTRICT_DATA: Final = (
    ("GRAIN", 1, 0, RESOURCE, GRAIN, (6, 11)),
    ("ALCHEMISTS", 2, 0, ALCHEMISTS, None, (5, 10)),
    ("WOOL", 3, 0, RESOURCE, WOOL, (8, 11)),
    ("PALACE", 4, 0, PALACE, None, (9, 12)),
    ("BEGGARS", 0, 1, BEGGARS, None, (4, 2)),
    ("BRICK", 4, 1, RESOURCE, BRICK, (6, 3)),
    ("ORE", 0, 2, RESOURCE, ORE, (8, 3)),
    ("UU", 3, 2, UNIVERSITY, None, (5, 4)),
    ("THIEVES", 0, 3, THIEVES, None, ()),
    ("SHADES", 1, 3, SHADES, None, ()),
    ("LUMBER", 2, 3, RESOURCE, LUMBER, (9, 10)),
)
RIVER: Final = ((1, 1), (2, 1), (3, 1), (1, 2), (2, 2))
DISTRICT_IDS: Final = tuple(d[0] for d in DISTRICT_DATA)
D_INDEX: Final = {name: i for i, name in enumerate(DISTRICT_IDS)}
D_KIND: Final = tuple(d[3] for d in DISTRICT_DATA)
D_RESOURCE: Final = tuple(d[4] for d in DISTRICT_DATA)
D_GRAIN, D_ALCH, D_WOOL, D_PALACE, D_BEGGARS, D_BRICK, D_ORE, D_UU, D_THIEVES, D_SHADES, D_LUMBER = range(11)
#: the district of each resource guild
GUILD_DISTRICT: Final = tuple(D_RESOURCE.index(g) for g in range(5))

# --- number tokens and the robber's spots -----------------------------------------------------

#: token index -> (district, value); ids "GRAIN:6" ...
TOKENS: Final = tuple((d, v) for d, data in enumerate(DISTRICT_DATA) for v in data[5])
TOKEN_IDS: Final = tuple(f"{DISTRICT_IDS[d]}:{v}" for d, v in TOKENS)
LIBRARY: Final = TOKEN_IDS.index("ALCHEMISTS:5")
LABORATORY: Final = TOKEN_IDS.index("ALCHEMISTS:10")
SHADES_SPOT: Final = len(TOKENS)            # the robber's home: blocks nothing
SPOT_IDS: Final = TOKEN_IDS + ("SHADES",)
SPOT_INDEX: Final = {name: i for i, name in enumerate(SPOT_IDS)}
#: total -> the token indices showing it
ROLL_TOKENS: Final = tuple(tuple(i for i, (_, v) in enumerate(TOKENS) if v == t) for t in range(13))
#: the robber's legal spots for a licensed mover (before excluding where it stands)
ROBBER_SPOTS: Final = tuple(i for i in range(len(SPOT_IDS)) if i != LABORATORY)

# --- the assassin track ------------------------------------------------------------------------

TRACK: Final = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
TRACK_START: Final = (2, 3, 4, 5)
TRACK_BIT: Final = {t: 1 << i for i, t in enumerate(TRACK)}
TRACK_FULL: Final = (1 << len(TRACK)) - 1

# --- geometry ------------------------------------------------------------------------------------

DIRS: Final = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # E NE NW W SW SE
_DISTRICT_AT = {(d[1], d[2]): i for i, d in enumerate(DISTRICT_DATA)}


def _pixel(q: int, r: int) -> tuple[float, float]:
    return sqrt(3) * (q + r / 2), 1.5 * r


def _corner_xy(q: int, r: int, i: int) -> tuple[float, float]:
    """Corner i of hex (q, r): 0 upper-right, 1 top apex ... (y grows downwards)."""
    x, y = _pixel(q, r)
    offsets = ((sqrt(3) / 2, -0.5), (0.0, -1.0), (-sqrt(3) / 2, -0.5),
               (-sqrt(3) / 2, 0.5), (0.0, 1.0), (sqrt(3) / 2, 0.5))
    dx, dy = offsets[i]
    return x + dx, y + dy


def _build_vertices() -> tuple[list[frozenset], list[tuple[float, float]]]:
    seen: dict[frozenset, tuple[float, float]] = {}
    for (q, r) in _DISTRICT_AT:
        for i in range(6):
            a, b = DIRS[i], DIRS[(i + 1) % 6]
            key = frozenset(((q, r), (q + a[0], r + a[1]), (q + b[0], r + b[1])))
            x, y = _corner_xy(q, r, i)
            seen.setdefault(key, (round(x, 6), round(y, 6)))
    ordered = sorted(seen, key=lambda k: (seen[k][1], seen[k][0]))
    return ordered, [seen[k] for k in ordered]


_KEYS, VERTEX_XY = _build_vertices()
NUM_VERTICES: Final = len(_KEYS)
VERTEX_IDS: Final = tuple(f"V{i:02d}" for i in range(NUM_VERTICES))
V_INDEX: Final = {v: i for i, v in enumerate(VERTEX_IDS)}
#: vertex -> the districts it touches (in district order)
VERTEX_DISTRICTS: Final = tuple(tuple(sorted(_DISTRICT_AT[h] for h in k if h in _DISTRICT_AT))
                                for k in _KEYS)


def _build_edges() -> tuple[tuple[int, int], ...]:
    edges = []
    for i in range(NUM_VERTICES):
        for j in range(i + 1, NUM_VERTICES):
            shared = _KEYS[i] & _KEYS[j]
            if len(shared) == 2 and any(h in _DISTRICT_AT for h in shared):
                edges.append((i, j))
    return tuple(edges)


EDGES: Final = _build_edges()
NBRS: Final = tuple(tuple(sorted({b for a, b in EDGES if a == v} | {a for a, b in EDGES if b == v}))
                    for v in range(NUM_VERTICES))
#: district -> its corner vertices
DISTRICT_VERTICES: Final = tuple(tuple(v for v in range(NUM_VERTICES) if d in VERTEX_DISTRICTS[v])
                                 for d in range(len(DISTRICT_DATA)))
#: vertex -> the guilds (resource indices) it earns points in
VERTEX_GUILDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(g for g in (D_RESOURCE[d] for d in ds) if g is not None) for ds in VERTEX_DISTRICTS)
LICENCE_VERTICES: Final = DISTRICT_VERTICES[D_THIEVES]


def distances_from(v: int) -> list[int]:
    """Path distance from ``v`` to every vertex (breadth first over the edges)."""
    dist = [-1] * NUM_VERTICES
    dist[v] = 0
    frontier = [v]
    while frontier:
        nxt = []
        for a in frontier:
            for b in NBRS[a]:
                if dist[b] < 0:
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        frontier = nxt
    return dist


DIST: Final = tuple(tuple(distances_from(v)) for v in range(NUM_VERTICES))
#: WITHIN[k][v]: bitmask of the vertices at distance 1..k from v (k up to 6)
WITHIN: Final = tuple(tuple(sum(1 << w for w in range(NUM_VERTICES) if 0 < DIST[v][w] <= k)
                            for v in range(NUM_VERTICES)) for k in range(7))

# --- costs ----------------------------------------------------------------------------------------

COST_FOUNDATION: Final = (1, 1, 0, 0, 0)
COST_HOUSE: Final = (1, 1, 1, 1, 0)
COST_VILLA: Final = (0, 0, 0, 2, 3)
COST_DEV: Final = (0, 0, 1, 1, 1)
PARCH_CARD, PARCH_DEV, PARCH_DICE, PARCH_HOUSE, PARCH_VILLA = 2, 4, 5, 6, 7
HOUSES, VILLAS, FOUNDATIONS = 5, 4, 2
TARGET_VP: Final = 12

# --- the development stack -------------------------------------------------------------------------

DEV_IDS: Final = tuple(f"guard-{i}" for i in range(1, 15)) + tuple(f"vetinari-{i}" for i in range(1, 6))


def is_guard(card_id: str) -> bool:
    return card_id.startswith("guard-")
