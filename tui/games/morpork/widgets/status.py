"""One line at the top of the game: the turn, whose it is, the piles, and you."""
from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ankh.tui.i18n import _, pgettext
from ankh.tui.games.morpork.text import _assemble, letter, personality_name, progress, seat_tag


class StatusBar(Widget):
    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; }
    """

    view = reactive(None)
    alert = reactive("")  # a networked game: a link down, the result (over the whole line)
    note = reactive("")   # a networked game: who the table waits for, the audit

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text("")
        if self.alert:
            t = Text(f" {self.alert} ", style="reverse")
            t.no_wrap = True
            t.overflow = "ellipsis"
            return t
        # the less important parts go first when the line is too long
        for events, pile in ((True, True), (False, True), (False, False)):
            t = self._line(view, events, pile)
            if self.note:
                t.append(f" · {self.note}", style="italic")
            if len(t) <= self.size.width:
                break
        t.no_wrap = True
        t.overflow = "ellipsis"
        return t

    @staticmethod
    def _line(view, events: bool, pile: bool) -> Text:
        t = Text()
        t.append(" " + _("Turn {n}").format(n=view.turn) + " ", style="bold")
        if view.outcome is None:
            t.append_text(_assemble(_("{seat} to play"), seat=seat_tag(view.current)))
        else:
            t.append(_("game over"), style="bold")
        if pile:
            t.append(" · " + _("draw {n}").format(n=view.draw_size))
        if events:
            t.append(" · " + _("events {n}").format(n=view.events_left))
        if view.viewer is not None:
            me = view.seats[view.viewer]
            t.append(" │ " + pgettext("tag", "you") + " ", style="dim")
            t.append_text(letter(view.viewer))
            t.append(f" ${me.money} ", style="bold")
            t.append(personality_name(view.personality), style="bold")
            short, _long = progress(view)
            if short:
                t.append(f" {short}")
        return t
