"""An option list whose Enter key shows in the footer."""
from __future__ import annotations

from textual.binding import Binding
from textual.widgets import OptionList


class Choices(OptionList):
    """The options; Enter chooses the highlighted one."""

    BINDINGS = [Binding("enter", "select", "Choose", key_display="⏎")]
