"""The decision in front of you and exactly its legal options; or, while
someone else decides, who it is, what they decide and what just happened."""
from __future__ import annotations

from rich.text import Text
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ankh.core.model import COLOURS

from ..text import humanize, option_detail, option_label, seat_tag
from .choices import Choices
from ..words import describe, style_line

KIND_TITLES = {
    "window": "Interrupt window",
    "turn": "Your turn",
    "another": "Play another card?",
    "extra": "Play another card",
    "end": "End of your turn",
    "give": "Give a card",
    "discard": "Discard",
    "target": "Choose a player",
    "area": "Choose an area",
    "pick": "Choose a minion",
    "move": "Move a minion",
    "place": "Place a minion",
    "choice": "Your choice",
    "build": "Build",
    "action": "",
}


class DecisionPrompt(Vertical):
    DEFAULT_CSS = """
    DecisionPrompt { height: 7; }
    DecisionPrompt #question { height: auto; max-height: 2; }
    DecisionPrompt Choices { height: 1fr; border: none; padding: 0; }
    DecisionPrompt #detail { height: 2; color: $text-muted; }
    DecisionPrompt #recent { height: 1fr; }
    """

    view = reactive(None)
    recent: reactive[tuple] = reactive(tuple)

    class Chosen(Message):
        """The person chose option ``index`` of the decision."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class Highlighted(Message):
        """Option ``index`` is under the cursor (None: no options)."""

        def __init__(self, index: int | None, text: str | None) -> None:
            super().__init__()
            self.index = index
            self.text = text

    def __init__(self, *, roomy: bool = False, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes)
        self.roomy = roomy
        self._decision = None

    def compose(self):
        yield Static(id="question")
        yield Choices(id="choices")
        yield Static(id="detail")
        yield Static(id="recent")

    def on_mount(self) -> None:
        self._refresh_all(force=True)

    def watch_view(self) -> None:
        self._refresh_all()

    def watch_recent(self) -> None:
        self._refresh_all()

    def _refresh_all(self, force: bool = False) -> None:
        if not self.is_mounted:
            return
        view = self.view
        question = self.query_one("#question", Static)
        choices = self.query_one(Choices)
        detail = self.query_one("#detail", Static)
        recent = self.query_one("#recent", Static)
        d = view.decision if view is not None else None
        deciding = d is not None
        choices.display = deciding
        detail.display = deciding
        recent.display = not deciding
        if view is None:
            question.update("")
            return
        if deciding:
            question.update(self._question(view))
            if force or d != self._decision:
                self._decision = d
                choices.set_options(
                    Option(Text.assemble((f"{i + 1}. " if i < 9 else "   ", "dim"),
                                         option_label(t, d.kind)), id=str(i))
                    for i, t in enumerate(view.option_texts))
                choices.highlighted = 0
                self._show_detail(0)
                choices.focus()
            return
        self._decision = None
        if choices.has_focus:
            self.screen.set_focus(None)
        question.update(self._waiting(view))
        lines = Text("\n").join(self._said(e) for e in self.recent)
        recent.update(lines)
        self.post_message(self.Highlighted(None, None))

    def _question(self, view) -> Text:
        d = view.decision
        t = Text()
        title = KIND_TITLES.get(d.kind, "")
        if d.kind == "window":
            t.append(" ! Interrupt window ", style="bold reverse yellow")
            what = humanize(d.prompt.removeprefix("Interrupt? "))
            t.append(" " + what[:1].upper() + what[1:], style="bold")
            if self.recent:
                t.append("\n   because: ", style="dim")
                t.append_text(self._said(self.recent[-1]))
            return t
        t.append("▶ ", style="bold")
        if title and view.current == view.viewer and d.kind == "turn":
            t.append(f"{title}: ", style="bold")
        t.append(humanize(d.prompt), style="bold")
        if self.roomy and d.kind not in ("turn", "check-win") and self.recent:
            t.append("\n   after: ", style="dim")
            t.append_text(self._said(self.recent[-1]))
        return t

    def _said(self, event) -> Text:
        view = self.view
        return style_line(describe(event, view.viewer if view is not None else None, view))

    def _waiting(self, view) -> Text:
        t = Text()
        if view.outcome is not None:
            t.append("The game is over.", style="bold")
            return t
        who, _, what = view.waiting_for.partition(": ")
        if who in COLOURS:
            t.append("… ")
            t.append_text(seat_tag(COLOURS.index(who)))
            t.append(" is deciding: ")
            t.append(humanize(what), style="italic")
        else:
            t.append("… " + view.waiting_for)
        return t

    def _show_detail(self, index: int | None) -> None:
        view = self.view
        if view is None or view.decision is None or index is None or index >= len(view.option_texts):
            self.query_one("#detail", Static).update("")
            self.post_message(self.Highlighted(None, None))
            return
        text = view.option_texts[index]
        detail = option_detail(text, view.decision.prompt, view.decision.kind)
        words = text.split()
        if words[0] == "target" and len(words) > 1 and words[1] in COLOURS:
            seat = view.seats[COLOURS.index(words[1])]
            detail = (f"{words[1]} has ${seat.money}, {seat.hand_size} cards in hand, "
                      f"{12 - seat.minions_left} minions on the board.")
        self.query_one("#detail", Static).update(Text(detail, style="italic"))
        self.post_message(self.Highlighted(index, text))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._show_detail(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(event.option_index))

    def highlight(self, index: int) -> None:
        choices = self.query_one(Choices)
        if 0 <= index < choices.option_count:
            choices.highlighted = index

    @property
    def highlighted(self) -> int | None:
        return self.query_one(Choices).highlighted
