"""A setting with a few values, changed with ← and →."""
from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ankh.tui.games import name as game_name, shown
from ankh.tui.i18n import Localised, NP_, _


class Stepper(Localised, Widget, can_focus=True):
    DEFAULT_CSS = """
    Stepper { height: 1; width: 1fr; }
    Stepper:focus { background: $accent 30%; }
    """

    BINDINGS = [
        Binding("left", "step(-1)", NP_("key", "Change"), key_display="←→"),
        Binding("right", "step(1)", NP_("key", "Change"), show=False),
    ]

    index: reactive[int] = reactive(0)
    choices: reactive[tuple[tuple[str, object], ...]] = reactive(tuple, always_update=True)

    class Changed(Message):
        def __init__(self, stepper: "Stepper") -> None:
            super().__init__()
            self.stepper = stepper

        @property
        def control(self) -> "Stepper":
            return self.stepper

    def __init__(self, label: str, choices, index: int = 0, *, id: str | None = None):
        super().__init__(id=id)
        self.label = label
        self.set_reactive(Stepper.choices, tuple(choices))
        self.set_reactive(Stepper.index, index)

    @property
    def value(self):
        return self.choices[self.index][1]

    def set_choices(self, choices, value=None) -> None:
        """New choices, keeping ``value`` (or the nearest index) selected."""
        choices = tuple(choices)
        values = [v for _, v in choices]
        index = values.index(value) if value in values else min(self.index, len(choices) - 1)
        self.choices = choices
        self.index = index

    def action_step(self, delta: int) -> None:
        new = max(0, min(len(self.choices) - 1, self.index + delta))
        if new != self.index:
            self.index = new
            self.post_message(self.Changed(self))

    def on_click(self, event) -> None:
        """Click the arrows to change the value (the label just focuses)."""
        self.focus()
        start = len(self._label())
        if not self.choices or event.x < start:
            return
        if event.x < start + 2:
            self.action_step(-1)
        elif event.x >= start + 2 + len(self.choices[self.index][0]):
            self.action_step(1)

    def _label(self) -> str:
        return f" {self.label:<13} "

    def render(self) -> Text:
        t = Text(self._label())
        if not self.choices:
            return t
        left = "◀ " if self.index > 0 else "  "
        right = " ▶" if self.index < len(self.choices) - 1 else "  "
        t.append(left, style="bold")
        t.append(self.choices[self.index][0], style="bold reverse" if self.has_focus else "bold")
        t.append(right, style="bold")
        return t


def game_stepper(game: str) -> Stepper:
    """The field that chooses the game (``#game``), on ``game``."""
    return Stepper(_("Game"), [(game_name(g), g) for g in shown()], shown().index(game), id="game")
