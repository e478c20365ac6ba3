"""The log: every happening of the game in player language, newest at the
bottom, each turn under a header line.  Lines wrap at the panel's width
as it is now: written while the panel was hidden, or before a resize,
they are laid out again when it shows."""
from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import RichLog

from ankh.tui.games.morpork.text import SEAT_STYLE
from ankh.tui.games.morpork.words import describe, said_already, style_line


def turn_header(text: str, seat: int | None, width: int) -> Text:
    """``━━ Turn 5: yellow ━━━━`` across the panel."""
    t = Text("━━ ", style="bold")
    t.append(text, style="bold reverse" if seat is None else f"{SEAT_STYLE[seat]} reverse")
    t.append(" " + "━" * max(0, width - len(text) - 4), style="bold")
    return t


class GameLog(RichLog):
    DEFAULT_CSS = """
    GameLog { background: transparent; scrollbar-gutter: stable; }
    """

    events: reactive[tuple] = reactive(tuple)
    view = reactive(None)

    def __init__(self, *, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes, wrap=True, markup=False, max_lines=4000,
                         auto_scroll=True, min_width=1)
        self._shown: tuple = ()
        self._width = 0

    def _line(self, ev, width: int) -> Text:
        view = self.view
        viewer = view.viewer if view is not None else None
        words = describe(ev, viewer, view)
        if ev.kind == "turn":
            return turn_header(words, ev.seat, width)
        return style_line(words)

    def _width_now(self) -> int:
        return self.scrollable_content_region.width

    def _rebuild(self, tries: int = 20) -> None:
        width = self._width_now()
        if width <= 0:
            # just shown, not laid out yet: try again shortly (hidden: on_show comes back)
            if tries and self.display:
                self.set_timer(0.05, lambda: self._rebuild(tries - 1))
            return
        self.clear()
        self._width = width
        self._shown = ()
        self._append(self.events)

    def _append(self, events) -> None:
        width = self._width
        before = self._shown[-1] if self._shown else None
        for ev in events:
            if not said_already(ev, before):
                self.write(self._line(ev, width), width=width)
            before = ev
        self._shown = tuple(self.events)

    def watch_view(self, old, new) -> None:
        # Another person at the keyboard: every line is theirs to read afresh
        # ("you", and what only they were shown).
        before = old.viewer if old is not None else None
        if new is not None and new.viewer != before and self._shown:
            self._shown = ()
            self._rebuild()

    def watch_events(self, events: tuple) -> None:
        if self._width_now() <= 0 or not self._size_known:
            return  # hidden: laid out when it shows
        if self._width_now() != self._width or events[: len(self._shown)] != self._shown:
            self._rebuild()
            return
        self._append(events[len(self._shown):])

    def on_resize(self, event) -> None:
        super().on_resize(event)
        if self._width_now() != self._width or len(self._shown) != len(self.events):
            self.call_after_refresh(self._rebuild)

    def on_show(self) -> None:
        if self._width_now() != self._width or len(self._shown) != len(self.events):
            self.call_after_refresh(self._rebuild)

