"""An option list whose Enter key shows in the footer."""
from __future__ import annotations

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
