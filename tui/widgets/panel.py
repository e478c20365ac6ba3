"""A panel of text that is drawn again only when what it shows changes.

A game's screen tells every panel what to show after every move; most of
them show the same as before (the guild table, the costs, a hand nobody
touched).  Telling Textual anyway costs a layout of the screen and a new
drawing of the panel each time, most of what a screen did at a table."""
from __future__ import annotations

from rich.columns import Columns
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.visual import VisualType
from textual.widgets import Static


def same(a, b) -> bool:
    """Whether renderables ``a`` and ``b`` show the same: texts (with their
    styles), and groups, columns and tables of them, by what they hold (a
    panel's own settings, such as a table's padding, are the same every time
    its code builds it).  Anything else is never taken as the same."""
    if type(a) is not type(b):
        return False
    if isinstance(a, str):
        return a == b
    if isinstance(a, Text):
        return (a == b and a.style == b.style and a.justify == b.justify and a.overflow == b.overflow
                and a.no_wrap == b.no_wrap and a.end == b.end)
    if isinstance(a, Group):
        return _all_same(a.renderables, b.renderables)
    if isinstance(a, Columns):
        return _all_same(a.renderables, b.renderables)
    if isinstance(a, Table):
        return (a.rows == b.rows and len(a.columns) == len(b.columns)
                and all(same(x.header, y.header) and x.style == y.style and _all_same(list(x.cells), list(y.cells))
                        for x, y in zip(a.columns, b.columns)))
    return False


def _all_same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(map(same, a, b))


class Panel(Static):
    """A :class:`Static` whose :meth:`update` does nothing when the content is
    the same as the one shown (see :func:`same`)."""

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        if not same(content, self.content):
            super().update(content, layout=layout)
