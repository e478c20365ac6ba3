"""The log of events in the record notation, newest at the bottom."""
from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import RichLog

from ankh.core.model import COLOURS

from ..text import SEAT_STYLE


def event_text(text: str) -> Text:
    """An event line with its colour words in their seat's style."""
    t = Text(text)
    for seat, colour in enumerate(COLOURS):
        t.highlight_words([colour], style=SEAT_STYLE[seat])
    if text.startswith("turn "):
        t.stylize("bold underline")
    return t


class GameLog(RichLog):
    DEFAULT_CSS = """
    GameLog { background: transparent; }
    """

    events: reactive[tuple[str, ...]] = reactive(tuple)

    def __init__(self, *, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes, wrap=True, markup=False, max_lines=2000,
                         auto_scroll=True, min_width=20)
        self._shown: tuple[str, ...] = ()

    def watch_events(self, events: tuple[str, ...]) -> None:
        if events[: len(self._shown)] != self._shown:
            self.clear()
            self._shown = ()
        for line in events[len(self._shown):]:
            self.write(event_text(line))
        self._shown = events
