"""Since your last decision: what each seat did, turn by turn, in player
language; what hit you stands out."""
from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ankh.tui.i18n import _
from ankh.tui.games.morpork.text import SEAT_STYLE, seat_tag
from ankh.tui.games.morpork.words import style_line


class Summary(Widget):
    DEFAULT_CSS = """
    Summary { height: auto; }
    """

    parts = reactive(tuple, layout=True)
    viewer = reactive(None)

    def render(self) -> Text:
        out = Text()
        if not self.parts:
            out.append(_("Nothing has happened since your last decision."), style="dim")
            return out
        for i, part in enumerate(self.parts):
            if i:
                out.append("\n")
            if part.seat is not None:
                if part.seat == self.viewer:
                    head = _("Turn {n}: your turn").format(n=part.turn) if part.turn else _("Your turn")
                    out.append(head, style=f"{SEAT_STYLE[part.seat]} underline")
                else:
                    out.append_text(seat_tag(part.seat))
                    if part.turn:
                        out.append(" " + _("(turn {n})").format(n=part.turn), style="dim")
            for line, hit in part.lines:
                out.append("\n")
                out.append("! " if hit else "· ", style="bold reverse red" if hit else "dim")
                body = style_line(line)
                if hit:
                    body.stylize("bold")
                out.append_text(body)
        return out
