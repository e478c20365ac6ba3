"""The map of the guild variant, drawn from the board's geometry: the ring of
eleven districts around the River Ankh, every site (vertex) by its number or
the piece on it, the robber, the fire token and the assassin track.

The picture is computed from :data:`ankh.core.guilds.board.VERTEX_XY` (the
hexes' corners): a site at ``(x, y)`` is drawn at column ``x·8`` and row
``(y+1)·2``, so a hex is 15 columns wide and 7 rows high, and the whole city
74 × 14, which fits 80×24 (on its own panel) and 120×40 (with the rest).
"""
from __future__ import annotations

from rich.style import Style
from rich.text import Text

from ankh.core.guilds.board import (
    DISTRICT_DATA, EDGES, LABORATORY, RIVER, SHADES_SPOT, TOKENS, TRACK, TRACK_BIT, VERTEX_XY,
)
from ankh.tui.i18n import _
from ankh.tui.seats import SEAT_STYLE, seat_letter

from .text import PIECE_MARKS, district_short

SX, SY = 8, 2
WIDTH = 74
HEIGHT = 14
SQ3 = 3 ** 0.5


def _cell(x: float, y: float) -> tuple[int, int]:
    """(row, column) of a point of the board."""
    return round((y + 1) * SY), round(x * SX) + 1


SITES = tuple(_cell(x, y) for x, y in VERTEX_XY)


def _centre(q: int, r: int) -> tuple[int, int]:
    return _cell(SQ3 * (q + r / 2), 1.5 * r)


def _river_cells() -> tuple[tuple[int, int], ...]:
    """The characters of the map inside the river's hexes: those nearer the
    centre of a river hex than of any district's (and within a hex of it),
    so that the river runs without a gap between its hexes."""
    hexes = [((q, r), (SQ3 * (q + r / 2), 1.5 * r)) for q, r in (*RIVER, *((d[1], d[2]) for d in DISTRICT_DATA))]
    river = set(RIVER)
    cells = []
    for row in range(HEIGHT):
        for col in range(WIDTH):
            x, y = (col - 1) / SX, row / SY - 1
            d2, nearest = min(((x - cx) ** 2 + (y - cy) ** 2, h) for h, (cx, cy) in hexes)
            if nearest in river and d2 < 1.1:   # (a hex corner is 1 from its centre)
                cells.append((row, col))
    return tuple(cells)


RIVER_CELLS = _river_cells()
RIVER_MIDDLE = (round(sum(r for r, _ in RIVER_CELLS) / len(RIVER_CELLS)),
                round(sum(c for _, c in RIVER_CELLS) / len(RIVER_CELLS)))


class Canvas:
    """A grid of characters with a style each."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[str | Style]] = [[""] * width for _ in range(height)]

    def put(self, row: int, col: int, text: str, style: str | Style = "") -> None:
        if not 0 <= row < len(self.chars):
            return
        for i, ch in enumerate(text):
            c = col + i
            if 0 <= c < self.width:
                self.chars[row][c] = ch
                self.styles[row][c] = style

    def text(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        for r, row in enumerate(self.chars):
            if r:
                out.append("\n")
            run, style = "", None
            for ch, st in zip(row, self.styles[r]):
                if st != style and run:
                    out.append(run, style or None)
                    run = ""
                style = st
                run += ch
            if run:
                out.append(run.rstrip() if not style else run, style or None)
        return out


def _edges(cv: Canvas) -> None:
    for a, b in EDGES:
        (ra, ca), (rb, cb) = SITES[a], SITES[b]
        if ca == cb:                      # a side of a hex: vertical
            for r in range(min(ra, rb) + 1, max(ra, rb)):
                cv.put(r, ca, "│", "dim")
            continue
        if ca > cb:
            (ra, ca), (rb, cb) = (rb, cb), (ra, ca)
        mid = (ca + cb + 1) // 2
        for c in range(ca + 2, cb - 1 + 1):
            row = ra if c < mid else rb
            if c == mid:
                continue
            cv.put(row, c, "─", "dim")
        if rb < ra:   # up to the right
            cv.put(ra, mid, "╯", "dim")
            cv.put(rb, mid, "╭", "dim")
        else:
            cv.put(ra, mid, "╮", "dim")
            cv.put(rb, mid, "╰", "dim")


def draw(view, legal: frozenset[int] = frozenset(), chosen: int | None = None,
         marks: frozenset[int] = frozenset(), spots: frozenset[int] = frozenset(),
         spot: int | None = None) -> Text:
    """The city as ``view`` shows it.  ``legal``: the sites the pending
    decision may name (they stand out, by number); ``chosen``: the one typed
    or highlighted; ``marks``: sites changed since your last move; ``spots``:
    the number tokens the robber may go to (``spot`` the one highlighted)."""
    cv = Canvas(WIDTH, HEIGHT)
    for row, col in RIVER_CELLS:  # the river first: the edges and sites are drawn over it
        cv.put(row, col, "≈", "dim cyan")   # no player's colour (blue is the fourth seat's)
    row, col = RIVER_MIDDLE
    name = _("Ankh")             # once, in its middle
    cv.put(row, col - len(name) // 2, name, "bold cyan")
    _edges(cv)
    robber = view.robber
    for d, (did, q, r, _kind, _res, tokens) in enumerate(DISTRICT_DATA):
        row, col = _centre(q, r)
        name = district_short(did)[:11]
        cv.put(row, col + 1 - len(name) // 2, name, "bold")
        # number tokens on the row of the lower corners; the robber's token reversed
        parts: list[tuple[str, str]] = []
        for i, (td, v) in enumerate(TOKENS):
            if td != d:
                continue
            style = "bold" if v in (6, 8) else ""
            if i == spot:
                parts.append((f"{v}", "bold reverse underline magenta"))
            elif i in spots:
                parts.append((f"{v}", "bold reverse"))
            elif i == robber:
                parts.append((f"✖{v}", "bold reverse red"))
            elif i == LABORATORY and view.fire:
                parts.append((f"✹{v}", "bold reverse yellow"))
            else:
                parts.append((str(v), style))
        if did == "SHADES":   # its spot has no number: a ring where the robber may go, ✖ where it is
            if robber == SHADES_SPOT:   # (where it may stay: the ✖ underlined when that option is highlighted)
                parts.append(("✖", "bold reverse underline red" if SHADES_SPOT == spot else "bold reverse red"))
            elif SHADES_SPOT == spot:
                parts.append(("○", "bold reverse underline magenta"))
            elif SHADES_SPOT in spots:
                parts.append(("○", "bold reverse"))
        width = sum(len(p) for p, _s in parts) + max(0, len(parts) - 1)
        c = col + 1 - width // 2
        for text, style in parts:
            cv.put(row + 1, c, text, style)
            c += len(text) + 1
    occ = view.occ
    for v, (row, col) in enumerate(SITES):
        o = occ[v]
        if v in legal or v == chosen:
            style = "bold reverse " + (SEAT_STYLE[o // 3].split()[-1] if o >= 0 else "")
            if v == chosen:
                style = "bold reverse underline magenta"
            cv.put(row, col, f"{v:>2}", style.strip())
        elif o >= 0:
            seat, piece = divmod(o, 3)
            style = SEAT_STYLE[seat] + (" underline" if v in marks else "")
            cv.put(row, col, seat_letter(seat) + PIECE_MARKS[piece], style)
        else:
            cv.put(row, col, f"{v:>2}", "dim")
    return cv.text()


def track_line(view) -> Text:
    """The assassin track: spaces with an assassin at large marked."""
    t = Text(_("Assassins at large:") + " ", style="bold")
    for n in TRACK:
        if view.track & TRACK_BIT[n]:
            t.append(f"†{n}", "bold magenta")   # a dagger: the robber is the map's ✖
        else:
            t.append(f"·{n}", "dim")
        t.append(" ")
    return t


def legend() -> Text:
    t = Text(style="dim")
    t.append(_("· foundation ▲ house ■ villa ✖ robber ✹ fire · reversed: yours to choose"))
    return t

