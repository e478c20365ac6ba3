"""Small screens that return a value with ``dismiss``: handing the keyboard
over, a yes-or-no question, the terminal being too small."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import ModalScreen
from textual.widgets import Static

from ankh.tui.i18n import _, Localised, NP_
from ankh.tui.seats import _assemble, seat_tag

MIN_WIDTH, MIN_HEIGHT = 80, 24


class HandOver(Localised, ModalScreen[None]):
    """Hides the table until the next person at this keyboard is ready."""

    BINDINGS = [Binding("enter", "ready", NP_("key", "I am ready"), key_display="⏎")]

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def compose(self) -> ComposeResult:
        t = _assemble(_("Pass the keyboard to {seat}."), seat=seat_tag(self.seat))
        t.append("\n\n" + _("The others should look away: your hand and personality are secret.") + "\n\n")
        t.append(_("Press Enter when you are ready."), style="bold")
        with Middle():
            with Center():
                yield Static(t, id="handover")

    def action_ready(self) -> None:
        self.dismiss(None)


class Confirm(Localised, ModalScreen[bool]):
    """A yes-or-no question: ``y``/Enter says yes, ``n``/Esc no."""

    BINDINGS = [
        Binding("y", "answer(True)", NP_("key", "Yes")),
        Binding("enter", "answer(True)", show=False),
        Binding("n", "answer(False)", NP_("key", "No")),
        Binding("escape", "answer(False)", show=False),
    ]

    def __init__(self, question: str, yes: str, no: str) -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        t = Text.assemble((self.question, "bold"), "\n\n",
                          (_("y / Enter: {yes}    n / Esc: {no}").format(yes=self.yes, no=self.no), "dim"))
        with Middle():
            with Center():
                yield Static(t, id="confirm")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class TooSmall(Localised, ModalScreen[None]):
    """Shown over everything while the terminal is smaller than 80×24."""

    BINDINGS = [Binding("q", "app.quit", NP_("key", "Quit")), Binding("ctrl+c", "app.quit", show=False)]

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.update_size(self.app.size)

    def on_resize(self, event) -> None:
        self.update_size(event.size)

    def update_size(self, size) -> None:
        w, h = size
        self.query_one("#too-small", Static).update(
            _("The terminal is too small: {w}×{h}.").format(w=w, h=h) + "\n"
            + _("Ankh-Morpork needs at least {w}×{h}.").format(w=MIN_WIDTH, h=MIN_HEIGHT) + "\n"
            + _("Enlarge the window (or press q to quit)."))
