"""Small screens that return a value with ``dismiss``: handing the keyboard
over, a yes-or-no question, one of a few things, the terminal being too small."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual import on
from textual.containers import Center, Middle, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ankh.tui.i18n import _, Localised, NP_
from ankh.tui.seats import _assemble, seat_tag

MIN_WIDTH, MIN_HEIGHT = 80, 24
SMALL_HEIGHT = 30   # up to this height, notices over a dialog take no row of padding


class Titled:
    """A dialog that notices never cover: not its title, not its text, not its
    keys.  Notices stand at the top right of the screen, above the dialog's box
    where they fit there, else under it (above the footer); where neither has
    room for them all, in the larger of the two, cut to its rows (on a small
    terminal, a tall dialog).  On a small terminal they take one row of their
    own less each (no padding) and the screen's width.  ``BOX``: the widget
    that is the dialog's box (with its border)."""

    BOX = ".dialog"

    def on_mount(self) -> None:
        self.screen_layout_refresh_signal.subscribe(self, self._place_notices)

    def _place_notices(self, _screen=None) -> None:
        from textual.widgets._toast import Toast, ToastRack
        boxes, racks = self.query(self.BOX), self.query(ToastRack)
        if not boxes or not racks:
            return
        rack, box = racks.first(), boxes.first().region
        height = self.size.height
        self.set_class(height < SMALL_HEIGHT, "-small-notices")
        need = sum(t.outer_size.height + t.styles.margin.top for t in rack.query(Toast))
        above, below = box.y - 1, height - 1 - box.bottom       # the rows over the box, and under it (the footer's)
        if need <= above or above >= below:
            top, rows = 1, max(0, above)
        else:
            top, rows = box.bottom, max(0, below)
        if rack.styles.margin.top != top:
            rack.styles.margin = (top, 0, 0, 0)
        if rack.styles.max_height is None or rack.styles.max_height.value != rows:
            rack.styles.max_height = rows


class HandOver(Titled, Localised, ModalScreen[None]):
    """Hides the table until the next person at this keyboard is ready."""

    BINDINGS = [Binding("enter", "ready", NP_("key", "I am ready"), key_display="⏎")]
    BOX = "#handover"

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


class Confirm(Titled, Localised, ModalScreen[bool]):
    """A yes-or-no question: ``y``/Enter says yes, ``n``/Esc no."""

    BINDINGS = [
        Binding("y", "answer(True)", NP_("key", "Yes")),
        Binding("o", "answer(True)", show=False),       # « o » for oui
        Binding("enter", "answer(True)", show=False),
        Binding("n", "answer(False)", NP_("key", "No")),
        Binding("escape", "answer(False)", show=False),
    ]
    BOX = "#confirm"

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


class Pick(Titled, Localised, ModalScreen[str | None]):
    """One of a few things (whose rules to read): ↑↓ and Enter, or its number;
    Esc goes back with none."""

    BINDINGS = [Binding("escape", "pick(None)", NP_("key", "Back")),
                *[Binding(str(i), f"pick({i})", show=False) for i in range(1, 10)]]
    BOX = "#pick"

    def __init__(self, question: str, things: list[tuple[str, str]]) -> None:
        super().__init__()
        self.question = question
        self.things = things   # (id, label)

    def compose(self) -> ComposeResult:
        from ankh.tui.widgets.choices import Choices
        with Middle():
            with Center():
                with Vertical(id="pick"):
                    yield Static(Text(self.question, style="bold"))
                    yield Choices(*[Option(Text.assemble((f"{i}  ", "bold"), label), id=thing)
                                    for i, (thing, label) in enumerate(self.things, 1)], id="pick-list")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#pick-list", OptionList).focus()

    @on(OptionList.OptionSelected, "#pick-list")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_pick(self, n: int | None) -> None:
        if n is None:
            self.dismiss(None)
        elif n <= len(self.things):
            self.dismiss(self.things[n - 1][0])


class Shown(Titled, Localised, ModalScreen[None]):
    """Something to read (the table fingerprint): Enter or Esc closes it."""

    BINDINGS = [Binding("enter", "close", NP_("key", "Close"), key_display="⏎"),
                Binding("escape", "close", show=False)]
    BOX = "#confirm"

    def __init__(self, title: str, text: str, note: str = "", plain: bool = False) -> None:
        super().__init__()
        self.title_words = title
        self.text = text
        self.note = note
        self.plain = plain   # lines to read, not words to compare (shown apart)

    def compose(self) -> ComposeResult:
        shown = (self.text, "") if self.plain else ("  " + self.text + "  ", "bold reverse")
        t = Text.assemble((self.title_words, "bold"), "\n\n", shown)
        if self.note:
            t.append("\n\n" + self.note, style="italic")
        t.append("\n\n" + _("Enter or Esc: close"), style="dim")
        with Middle():
            with Center():
                yield Static(t, id="confirm")

    def action_close(self) -> None:
        self.dismiss(None)


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
