"""An option list whose Enter key shows in the footer."""
from __future__ import annotations

from textual.binding import Binding
from textual.widgets import OptionList

from ankh.tui.i18n import Localised, NP_


class Choices(Localised, OptionList):
    """The options; Enter chooses the highlighted one."""

    BINDINGS = [Binding("enter", "select", NP_("key", "Choose"), key_display="⏎")]
