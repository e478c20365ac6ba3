"""An option list whose Enter key shows in the footer."""
from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual.binding import Binding
from textual.widgets import OptionList

from ankh.tui.i18n import Localised, NP_


class Choices(Localised, OptionList):
    """The options; Enter chooses the highlighted one."""

    BINDINGS = [Binding("enter", "select", NP_("key", "Choose"), key_display="⏎")]

    def on_resize(self, event) -> None:
        # fewer rows (a longer description under the list): the highlighted option stays in sight
        self.call_after_refresh(self.scroll_to_highlight)

    def highlight_under(self, row: int) -> None:
        """Highlight option ``row`` with the row above it (its group's heading) in sight at the top."""
        self.highlighted = row
        self._update_lines()
        above = self._index_to_line.get(row - 1)
        if above is not None:
            self.scroll_to(y=above, animate=False, immediate=True)


class Hanging:
    """An option's row: ``prefix`` (its number, its area) then ``label``.  A label
    longer than its row goes on under itself, not under the prefix, so that it never
    reads as another option; laid out at whatever width the list has now, so a
    resize lays it out again."""

    def __init__(self, prefix: Text, label: Text) -> None:
        self.prefix, self.label = prefix, label

    def __str__(self) -> str:
        return self.prefix.plain + self.label.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield hanging(self.prefix, self.label, options.max_width, console)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        whole = self.prefix.cell_len + self.label.cell_len
        return Measurement(min(whole, self.prefix.cell_len + 16), whole)


def hanging(prefix: Text, label: Text, width: int, console: Console) -> Text:
    """``prefix`` then ``label``, the label's lines that run on under itself."""
    room = width - prefix.cell_len
    if width <= 0 or room < 16 or prefix.cell_len + label.cell_len <= width:
        return Text.assemble(prefix, label)
    lines = label.wrap(console, room)
    out = prefix.copy()
    for n, line in enumerate(lines):
        line.rstrip()
        if n:
            out.append("\n" + " " * prefix.cell_len)
        out.append_text(line)
    return out
