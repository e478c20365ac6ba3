"""Long option lists in two steps: first the piece (or whatever the options
share but their last area), then the area.  Pure functions over the
options' record notation, so that a test can check that the two steps
reach exactly the options of the flat list.

An *entry* is one line of the list on screen: one option, or a group of
options that differ only in their last word (an area).  Where the entries
stand for different areas (besides a ``skip`` or ``done``), the area's own
number (1-12, as on the map) selects one, and the list shows no option
numbers.
"""
from __future__ import annotations

from dataclasses import dataclass

from ankh.tui.games.morpork.text import AREA_IDS

# Above this many options, options sharing all but their final area are grouped.
FLAT_MAX = 9


@dataclass(frozen=True)
class Entry:
    options: tuple[int, ...]   # indices into the decision's options
    key: str                   # the notation shared by these options (the whole option if one)
    area: int | None           # the area (0-11) this entry stands for, if one

    @property
    def group(self) -> bool:
        return len(self.options) > 1


def _areas(text: str) -> list[int]:
    return [AREA_IDS.index(w) for w in text.split() if w in AREA_IDS]


def _single(i: int, text: str) -> Entry:
    areas = _areas(text)
    return Entry((i,), text, areas[0] if len(set(areas)) == 1 else None)


def first_step(texts) -> list[Entry]:
    """The entries to show first: options one by one, or grouped when long."""
    texts = list(texts)
    if len(texts) <= FLAT_MAX:
        return _with_areas([_single(i, t) for i, t in enumerate(texts)])
    groups: dict[str, list[int]] = {}
    order: list[str] = []
    for i, t in enumerate(texts):
        words = t.split()
        key = " ".join(words[:-1]) if len(words) >= 3 and words[-1] in AREA_IDS else t
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(i)
    if len(order) == len(texts):
        return _with_areas([_single(i, t) for i, t in enumerate(texts)])
    out = []
    for key in order:
        members = groups[key]
        if len(members) == 1:
            out.append(_single(members[0], texts[members[0]]))
        else:
            areas = _areas(key)
            out.append(Entry(tuple(members), key, areas[0] if len(set(areas)) == 1 else None))
    return _with_areas(out)


def second_step(texts, entry: Entry) -> list[Entry]:
    """The options of a group, each standing for its final area."""
    return _with_areas([Entry((i,), texts[i], AREA_IDS.index(texts[i].split()[-1]))
                        for i in entry.options])


# In a list chosen by area number, at most this many entries name no area
# (``skip``, ``done``, ``pass``); they are reached with the arrow keys.
AREALESS_MAX = 2


def _with_areas(entries: list[Entry]) -> list[Entry]:
    """Keep the entries' areas only if they tell every entry with one apart."""
    areas = [e.area for e in entries if e.area is not None]
    if (len(areas) >= 2 and len(set(areas)) == len(areas)
            and len(entries) - len(areas) <= AREALESS_MAX):
        return entries
    return [Entry(e.options, e.key, None) for e in entries]


def by_area(entries: list[Entry]) -> bool:
    """Whether the list is chosen by area number."""
    return sum(e.area is not None for e in entries) >= 2


def reachable(texts) -> list[int]:
    """Every option index the two steps can reach, in list order."""
    out = []
    for e in first_step(texts):
        if e.group:
            out += [x.options[0] for x in second_step(texts, e)]
        else:
            out.append(e.options[0])
    return out


class AreaKeys:
    """Typed digits as an area number: ``1`` then ``2`` is 12 when 12 is on
    offer (within ``window`` seconds), else 2."""

    def __init__(self, window: float = 1.0):
        self.window = window
        self._typed = ""
        self._at = 0.0

    def press(self, digit: str, offered: set[int], now: float) -> int | None:
        """The area number (1-12) the digit selects, or None."""
        if self._typed and now - self._at <= self.window:
            both = int(self._typed + digit)
            if both in offered:
                self._typed, self._at = "", now
                return both
        self._typed, self._at = digit, now
        n = int(digit)
        return n if n in offered else None
