"""The map of Ankh-Morpork: twelve areas laid out as on the board.

The areas sit on a hexagonal grid so that two boxes touch exactly when the
areas border each other (one road, Longwall to Dimwell, is drawn).  The
river Ankh runs from the west, between Nap Hill and the north bank, round
the Isle of Gods and out to the east; a crossing is a bridge (``║`` ``═``).
"""
from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ankh.core.morpork.catalog import AREAS

from ankh.tui.i18n import _
from ankh.tui.games.morpork.text import (
    BRIDGE_STYLE, DEMON_STYLE, RIVER_STYLE, SEAT_STYLE, seat_letter, short_area, TROLL_STYLE, TROUBLE_STYLE,
)

MAP_WIDTH = 80
PITCH = 9          # half a box: boxes on one row are two pitches apart
BOX = 17           # box width
# area number -> (column in half boxes, row)
PLACE = {
    1: (1, 0), 3: (3, 0),
    12: (0, 1), 2: (2, 1), 4: (4, 1), 6: (6, 1),
    11: (1, 2), 10: (3, 2), 5: (5, 2), 7: (7, 2),
    9: (2, 3), 8: (6, 3),
}

LIGHT = "┌┐└┘─│"
HEAVY = "┏┓┗┛━┃"
DOUBLE = "╔╗╚╝═║"

# Area numbers joined by a bridge over the Ankh (as drawn below): areas across
# a bridge border each other like areas sharing a street.
BRIDGES = frozenset(frozenset(p) for p in (
    (1, 12), (12, 2), (2, 11), (2, 10), (4, 10), (11, 10), (10, 5), (10, 9), (5, 8), (7, 8)))
MARK_STYLE = "bold yellow"
NEIGHBOUR_STYLE = "bold cyan"


def neighbours(number: int) -> list[tuple[int, bool]]:
    """Area ``number``'s neighbours as (number, across a bridge), in number order."""
    a = AREAS[number - 1]
    return [(n, frozenset((number, n)) in BRIDGES) for n in sorted(a["adjacent"])]


def map_height(h: int) -> int:
    return 4 * h + 3


def box_height(height: int) -> int:
    """Box height (borders included) for the rows available."""
    if height >= map_height(5):
        return 5
    if height >= map_height(4):
        return 4
    return 3


class Canvas:
    def __init__(self, width: int, height: int):
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[Style | str | None]] = [[None] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str | Text, style: str | None = None) -> None:
        if not 0 <= y < self.height:
            return
        if isinstance(text, Text):
            for i, ch in enumerate(text.plain):
                if 0 <= x + i < self.width:
                    self.chars[y][x + i] = ch
                    self.styles[y][x + i] = None
            for span in text.spans:
                for i in range(span.start, span.end):
                    if 0 <= x + i < self.width:
                        self.styles[y][x + i] = span.style
            if text.style:
                for i in range(len(text.plain)):
                    if 0 <= x + i < self.width and self.styles[y][x + i] is None:
                        self.styles[y][x + i] = text.style
            return
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width:
                self.chars[y][x + i] = ch
                self.styles[y][x + i] = style

    def to_text(self) -> Text:
        out = Text(no_wrap=True, overflow="crop", end="")
        for y in range(self.height):
            row, styles = self.chars[y], self.styles[y]
            start = 0
            for x in range(1, self.width + 1):
                if x == self.width or styles[x] != styles[start]:
                    out.append("".join(row[start:x]), style=styles[start] or "")
                    start = x
            if y < self.height - 1:
                out.append("\n")
        return out


def draw_river(c: Canvas, h: int) -> None:
    """The river Ankh, its bridges, and the road from Longwall to Dimwell."""
    def gap(r: int) -> int:
        return r * (h + 1) + h

    def across(y: int, x0: int, x1: int) -> None:
        for x in range(x0, x1 + 1):
            c.put(x, y, "≈", RIVER_STYLE)

    def down(x: int, r: int) -> None:
        for y in range(r * (h + 1), r * (h + 1) + h):
            c.put(x, y, "≈", RIVER_STYLE)

    across(gap(0), 0, 17)
    down(17, 1)
    across(gap(1), 17, 44)
    down(26, 2)
    down(44, 2)
    across(gap(2), 26, MAP_WIDTH - 1)
    c.put(72, gap(2), " Ankh ", RIVER_STYLE)
    mid1, mid2 = 1 * (h + 1) + h // 2, 2 * (h + 1) + h // 2
    # the bridges, as listed in BRIDGES
    for x, y, ch in ((12, gap(0), "║"), (17, mid1, "═"), (21, gap(1), "║"),
                     (31, gap(1), "║"), (40, gap(1), "║"), (26, mid2, "═"),
                     (44, mid2, "═"), (31, gap(2), "║"), (58, gap(2), "║"),
                     (67, gap(2), "║")):
        c.put(x, y, ch, BRIDGE_STYLE)
    # the road from Longwall to Dimwell
    road_y = 3 * (h + 1) + h // 2
    c.put(2 * PITCH + BOX, road_y, "─" * (6 * PITCH - 2 * PITCH - BOX), "dim")


def box_origin(number: int, h: int) -> tuple[int, int]:
    """Top-left corner of area ``number``'s box for boxes ``h`` rows high."""
    col, row = PLACE[number]
    return col * PITCH, row * (h + 1)


class CityMap(Widget):
    """Renders the areas of a :class:`PlayerView`; clicking an area posts
    :class:`CityMap.AreaClicked`."""

    DEFAULT_CSS = """
    CityMap { height: 15; width: 1fr; }
    """

    view = reactive(None, layout=False)
    highlight: reactive[frozenset[int]] = reactive(frozenset)
    marks: reactive[frozenset[int]] = reactive(frozenset)

    class AreaClicked(Message):
        def __init__(self, area: int) -> None:
            super().__init__()
            self.area = area

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._boxes: list[tuple[int, int, int, int, int]] = []  # x, y, w, h, area index

    # --- geometry ----------------------------------------------------------------------------

    def _origin(self) -> int:
        return max(0, (self.size.width - MAP_WIDTH) // 2)

    def render(self) -> Text:
        h = box_height(self.size.height)
        canvas = Canvas(MAP_WIDTH, map_height(h))
        self._boxes = []
        draw_river(canvas, h)
        self._draw_legend(canvas, h)
        view = self.view
        near = set()
        if len(self.highlight) == 1:
            [lit] = self.highlight
            near = {n - 1 for n, _ in neighbours(lit + 1)}
            self._draw_neighbours(canvas, h, lit + 1)
        for a in AREAS:
            x, y = box_origin(a["number"], h)
            i = a["number"] - 1
            av = view.areas[i] if view is not None else None
            self._draw_area(canvas, x, y, h, a, av, i in self.highlight, i in self.marks, i in near)
            self._boxes.append((x, y, BOX, h, a["number"] - 1))
        text = canvas.to_text()
        pad = self._origin()
        if pad:
            lines = text.split("\n")
            text = Text("\n", end="").join(Text(" " * pad) + line for line in lines)
        return text

    def _draw_legend(self, c: Canvas, h: int) -> None:
        x = 5 * PITCH + 1
        lines = [
            Text.assemble(*[(seat_letter(i), SEAT_STYLE[i]) for i in range(4)], " " + _("minions") + "  ",
                          ("t", TROLL_STYLE), " " + _("troll") + "  ", ("d", DEMON_STYLE), " " + _("demon")),
            Text.assemble(("!", TROUBLE_STYLE), " " + _("trouble") + "  ", "⌂" + seat_letter(0) + " " + _("building") + "  $ "
                          + _("cost")),
            Text.assemble(("≈", RIVER_STYLE), " " + _("river") + "  ", ("║═", BRIDGE_STYLE), " " + _("bridge") + "  ",
                          ("─", "dim"), " " + _("road")),
            Text.assemble(("3*", "bold reverse yellow"), " " + _("changed since your last move")),
        ]
        if h >= 4:
            lines.append(Text(_("ctl: who controls it"), style="dim"))
        for i, line in enumerate(lines[: h + 1]):
            c.put(x, i, line)

    def _draw_neighbours(self, c: Canvas, h: int, number: int) -> None:
        """In the legend's place: the highlighted area's neighbours, bridges marked."""
        x = 5 * PITCH + 1
        width = MAP_WIDTH - x
        words = [Text(_("{name} borders:").format(name=short_area(AREAS[number - 1]["id"])),
                      style="bold")]
        for n, bridge in neighbours(number):
            w = Text(f"{n} {short_area(AREAS[n - 1]['id'])}", style=NEIGHBOUR_STYLE)
            if bridge:
                w.append(" ═", style=BRIDGE_STYLE)
            words.append(w)
        lines, line = [], Text()
        for w in words:
            if line and len(line) + 2 + len(w) > width:
                lines.append(line)
                line = Text()
            if line:
                line.append(", " if len(lines) or len(line) > len(words[0]) else " ")
            line.append_text(w)
        lines.append(line)
        if any("═" in str(w) for w in words[1:]) and len(lines) < h + 1:
            lines.append(Text.assemble(("═", BRIDGE_STYLE), (" " + _("across a bridge"), "dim")))
        for i in range(h + 1):
            c.put(x, i, " " * width)
        for i, line in enumerate(lines[: h + 1]):
            c.put(x, i, line)

    def _draw_area(self, c: Canvas, x: int, y: int, h: int, a: dict, av, lit: bool,
                   marked: bool = False, near: bool = False) -> None:
        tl, tr, bl, br, hz, vt = HEAVY if lit else DOUBLE if marked else LIGHT
        border = ("bold bright_white" if lit else MARK_STYLE if marked else
                  NEIGHBOUR_STYLE if near else "dim")
        inner = BOX - 2
        title = f"{a['number']} {short_area(a['id'])}"[:inner]
        if marked and not lit:
            title = f"{a['number']}*{short_area(a['id'])}"[:inner]
        c.put(x, y, tl + hz * inner + tr, border)
        c.put(x + 1, y, title, "bold reverse" if lit else "bold reverse yellow" if marked else
              "bold cyan" if near else "bold")
        for yy in range(y + 1, y + h - 1):
            c.put(x, yy, vt, border)
            c.put(x + BOX - 1, yy, vt, border)
        c.put(x, y + h - 1, bl + hz * inner + br, border)
        c.put(x + 1, y + h - 1, f"${a['cost']}", "bold" if lit else "")
        if av is None:
            return
        if av.building is not None:
            mark = Text.assemble(("⌂", SEAT_STYLE[av.building]), (seat_letter(av.building), SEAT_STYLE[av.building]))
            if av.card == "removed":
                mark.append("×", style="bold")
            c.put(x + BOX - 1 - len(mark), y + h - 1, mark)
        minions = [Text(f"{seat_letter(s)}{n}", style=SEAT_STYLE[s]) for s, n in enumerate(av.minions) if n]
        others = []
        if av.trolls:
            others.append(Text(f"t{av.trolls}", style=TROLL_STYLE))
        if av.demons:
            others.append(Text(f"d{av.demons}", style=DEMON_STYLE))
        rows = h - 2
        control = []
        if av.controller is not None:
            control.append(Text.assemble((_("ctl") + " ", "dim"), (seat_letter(av.controller), SEAT_STYLE[av.controller])))
        if rows >= 2:
            if av.trouble:
                others.append(Text("!" + _("trouble") if len(others) < 2 else "!", style=TROUBLE_STYLE))
            if rows >= 3:
                if av.card == "removed":
                    control.append(Text(_("card gone"), style="dim"))
                lines = [_fit(minions, inner), _fit(others, inner), _fit(control, inner)]
            else:
                lines = [_fit(minions, inner), _fit(others + control, inner)]
        else:
            if av.trouble:
                others.append(Text("!", style=TROUBLE_STYLE))
            lines = [_fit(minions + others, inner)]
        for i, line in enumerate(lines[:rows]):
            c.put(x + 1, y + 1 + i, line)

    # --- mouse -------------------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        mx = event.x - self._origin()
        for x, y, w, h, area in self._boxes:
            if x <= mx < x + w and y <= event.y < y + h:
                self.post_message(self.AreaClicked(area))
                return


def _fit(tokens: list[Text], width: int) -> Text:
    """Tokens joined by spaces, or tight if they do not fit, cut if still too long."""
    for sep in (" ", ""):
        t = Text(sep).join(tokens)
        if len(t) <= width:
            return t
    t = Text("").join(tokens)
    t.truncate(width - 1)
    t.append("…")
    return t
