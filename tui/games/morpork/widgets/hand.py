"""Your hand: each card with its symbols; the card under discussion (the
option highlighted in the prompt) also with its text."""
from __future__ import annotations

import textwrap

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ankh.tui.i18n import _
from ankh.tui.games.morpork.text import CARD, card_name, card_symbols, card_text_and_when


class Hand(Widget):
    DEFAULT_CSS = """
    Hand { height: auto; }
    """

    view = reactive(None, layout=True)
    selected: reactive[str | None] = reactive(None, layout=True)
    detailed: reactive[bool] = reactive(False)

    def __init__(self, *, detailed: bool = False, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes)
        self.set_reactive(Hand.detailed, detailed)

    def render(self) -> Text:
        view = self.view
        if view is None or view.viewer is None:
            return Text("")
        me = view.seats[view.viewer]
        out = Text()
        out.append(_("Your hand ({n} cards)").format(n=len(view.hand)), style="bold underline")
        if me.penalties:
            out.append("  + " + _("penalty: {names}").format(names=", ".join(card_name(c) for c in me.penalties)),
                       style="red")
        for _handle, cid in view.hand:
            out.append("\n")
            lit = cid == self.selected
            kind = CARD.get(cid, {}).get("deck", "")
            out.append("▶ " if lit else "  ", style="bold")
            out.append(card_name(cid), style="bold reverse" if lit else "bold")
            out.append(f"  {card_symbols(cid)}", style="" if lit else "dim")
            if kind:
                out.append("  (" + (_("green") if kind == "green" else _("brown")) + ")", style="dim")
            text = card_text_and_when(cid)
            if text and (self.detailed or lit):
                width = max(20, self.size.width - 1)
                out.append("\n" + textwrap.fill(text, width, initial_indent="    ",
                                                 subsequent_indent="    "), style="italic")
        if not view.hand:
            out.append("\n  " + _("(no cards)"), style="dim")
        return out
