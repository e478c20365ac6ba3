"""An option list whose Enter key shows in the footer."""
from __future__ import annotations

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

    def text_width(self) -> int:
        """The columns an option's text has, room for a scroll bar kept (0: not laid out yet)."""
        region = self.scrollable_content_region.width
        if region <= 0:
            return 0
        pad = self.get_component_styles("option-list--option").padding.width
        bar = 0 if self.show_vertical_scrollbar else self.styles.scrollbar_size_vertical
        return max(0, region - self._get_left_gutter_width() - pad - bar)


def hanging(prefix: Text, label: Text, width: int, console) -> Text:
    """``prefix`` then ``label``; a label longer than its row goes on under itself,
    not under the prefix (its number), so that it never reads as another option."""
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
