"""The decision in front of you and exactly its legal options; or, while
someone else decides, who it is, what they decide and what just happened."""
from __future__ import annotations

from rich.text import Text
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ankh.core.morpork.model import COLOURS

from ankh.tui.i18n import N_, _, ngettext
from ankh.tui.games.morpork.steps import AreaKeys, Entry, by_area, first_step, second_step
from ankh.tui.games.morpork.text import (
    AREA_IDS, CARD, area_title, card_name, card_summary, card_text, colour, humanize, option_detail, option_label,
    prompt_card, seat_tag,
)
from ankh.tui.widgets.choices import Choices, Hanging
from ankh.tui.widgets.panel import Panel
from ankh.tui.games.morpork.words import describe, piece, style_line

KIND_TITLES = {
    "window": N_("Interrupt window"),
    "turn": N_("Your turn"),
    "another": N_("Play another card?"),
    "extra": N_("Play another card"),
    "end": N_("End of your turn"),
    "give": N_("Give a card"),
    "discard": N_("Discard"),
    "target": N_("Choose a player"),
    "area": N_("Choose an area"),
    "pick": N_("Choose a minion"),
    "move": N_("Move a minion"),
    "place": N_("Place a minion"),
    "choice": N_("Your choice"),
    "build": N_("Build"),
    "action": "",
}


class DecisionPrompt(Vertical):
    DEFAULT_CSS = """
    DecisionPrompt { height: 7; }
    DecisionPrompt #question { height: auto; max-height: 2; }
    DecisionPrompt Choices { height: 1fr; border: none; padding: 0; }
    DecisionPrompt #detail { height: auto; max-height: 6; color: $text-muted; }
    DecisionPrompt #recent { height: 1fr; }
    """

    view = reactive(None)
    recent: reactive[tuple] = reactive(tuple)
    gained: reactive[tuple] = reactive(tuple)  # areas whose City Area card you gained this turn

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

    def __init__(self, *, roomy: bool = False, kept: tuple | None = None, id: str | None = None,
                 classes: str | None = None):
        super().__init__(id=id, classes=classes)
        self.roomy = roomy
        self._decision = None
        self._entries: list[Entry] = []
        self._open: Entry | None = None       # the group whose second step is shown
        self._keys = AreaKeys()
        self._repeat = (None, 0)              # (decision prompt, how many times in a row)
        self._kept = kept                     # a prompt's ``kept()`` before the screen was laid out again
        self._detail: tuple[Text, bool] | None = None   # the description under the options, whole
        self._told: Text | None = None        # said to the person: in the description's place a while

    def kept(self) -> tuple:
        """Where this decision stands (its step, the entry under the cursor, how many times it
        came), for the prompt that takes over when the screen is laid out again."""
        return (self._decision, self._open, self.query_one(Choices).highlighted, self._repeat)

    def compose(self):
        yield Panel(id="question")
        yield Choices(id="choices")
        yield Panel(id="detail")
        yield Panel(id="recent")

    def on_mount(self) -> None:
        self._refresh_all(force=True)

    def watch_view(self) -> None:
        self._refresh_all()

    def watch_recent(self) -> None:
        self._refresh_all()

    def watch_gained(self) -> None:
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
            if force or d != self._decision:
                kept, self._kept = self._kept, None
                if kept is not None and kept[0] == d:   # the same decision, after a resize
                    self._decision, self._open, highlighted, self._repeat = kept
                    self._fill(highlighted or 0)
                    choices.focus()
                    question.update(self._question(view))
                    return
                key = (d.seat, d.kind, d.prompt)
                self._repeat = (key, self._repeat[1] + 1 if self._repeat[0] == key else 1)
                self._decision = d
                self._open = None
                self._fill()
                choices.focus()
            question.update(self._question(view))
            self.call_after_refresh(self._fit_detail)   # (the question may take another row)
            return
        self._decision = None
        self._open = None
        if choices.has_focus:
            self.screen.set_focus(None)
        question.update(self._waiting(view))
        lines = Text("\n").join(self._said(e) for e in self.recent)
        recent.update(lines)
        self.post_message(self.Highlighted(None, None))

    # --- the list: one step, or two --------------------------------------------------------------

    def _fill(self, highlight: int = 0) -> None:
        view = self.view
        d = view.decision
        texts = view.option_texts
        self._entries = second_step(texts, self._open) if self._open else first_step(texts)
        areas = by_area(self._entries)
        choices = self.query_one(Choices)
        rows = []
        for n, e in enumerate(self._entries):
            if areas and e.area is not None:
                prefix = Text(f"{e.area + 1:>2} ", style="bold reverse")
                prefix.append(" ")
            elif areas:
                prefix = Text("    ")
            else:
                prefix = Text(f"{n + 1}. " if n < 9 else "   ", style="dim")
            label = self._group_label(e) if e.group else option_label(texts[e.options[0]], d.kind,
                                                                       numbered=False)
            rows.append(Option(Hanging(prefix, label), id=str(n)))
        if self._open is not None:
            rows.append(Option(Text(_("← back to the first step (Esc)"), style="dim"), id="back"))
        choices.set_options(rows)
        choices.highlighted = highlight if highlight < len(rows) else 0
        self._show_detail(choices.highlighted)

    def _group_label(self, e: Entry) -> Text:
        words = e.key.split()
        n = len(e.options)
        if words[0] == "move" and len(words) == 3:
            return style_line(_("Move {piece} from {area} … ({n} places)").format(
                piece=piece(words[2] if words[2] in ("troll", "demon") else COLOURS.index(words[2]),
                            self.view.viewer),
                area=area_title(words[1]), n=n))
        if words[0] in ("minion", "build") and len(words) == 3 and words[2] == "from":
            text = (_("Place a minion in {area}, taking one from … ({n} places)") if words[0] == "minion"
                    else _("Build in {area}, moving a building from … ({n} places)"))
            return Text(text.format(area=area_title(words[1]), n=n))
        return Text.assemble(humanize(e.key), (" " + _("… ({n} choices)").format(n=n), "dim"))

    def open_entry(self, n: int) -> None:
        """Choose entry ``n``: an option, or the second step of a group."""
        if not 0 <= n < len(self._entries):
            return
        e = self._entries[n]
        if e.group:
            self._open = e
            self._fill()
            self.query_one("#question", Static).update(self._question(self.view))
        else:
            self.post_message(self.Chosen(e.options[0]))

    def back(self) -> bool:
        """Back to the first step; False if there is none to go back to."""
        if self._open is None:
            return False
        opened = self._open
        self._open = None
        self._fill()
        for n, e in enumerate(self._entries):
            if e == opened:
                self.query_one(Choices).highlighted = n
        self.query_one("#question", Static).update(self._question(self.view))
        return True

    def press_digit(self, digit: int) -> None:
        """A digit key: an area number where the list is of areas, else entry ``digit``."""
        if not self._entries:
            return
        if by_area(self._entries):
            import time
            offered = {e.area + 1 for e in self._entries if e.area is not None}
            number = self._keys.press(str(digit), offered, time.monotonic())
            for n, e in enumerate(self._entries):
                if number is not None and e.area is not None and e.area + 1 == number:
                    self.query_one(Choices).highlighted = n
            return
        if digit >= 1:
            self.open_entry(digit - 1)

    def click_area(self, a: int) -> bool:
        """A click on area ``a`` of the map: highlight the entry naming it, then
        choose it on a second click.  False if no entry names it."""
        aid = AREA_IDS[a]
        matches = [n for n, e in enumerate(self._entries)
                   if e.area == a or (e.area is None and aid in e.key.split())]
        if not matches:
            return False
        choices = self.query_one(Choices)
        current = choices.highlighted
        if len(matches) == 1 and current == matches[0]:
            self.open_entry(current)
        elif current in matches:
            choices.highlighted = matches[(matches.index(current) + 1) % len(matches)]
        else:
            choices.highlighted = matches[0]
        return True

    # --- words ------------------------------------------------------------------------------------

    def _question(self, view) -> Text:
        d = view.decision
        t = Text()
        title = _(KIND_TITLES.get(d.kind, ""))
        if d.kind == "window":
            t.append(" ! " + _("Interrupt window") + " ", style="bold reverse yellow")
            what = humanize(d.prompt.removeprefix("Interrupt? "))
            t.append(" " + what[:1].upper() + what[1:], style="bold")
            cards = [c for c in view.in_play if c in CARD]
            if "a card's text would affect you" in d.prompt and cards:
                # the card being carried out, not the last thing it did (to another seat)
                t.append("\n   " + _("because:") + " ", style="dim")
                t.append_text(style_line(_("{who} is carrying out {card}.").format(
                    who=colour(view.current).capitalize(), card=card_name(cards[-1]))))
            elif self.recent:
                t.append("\n   " + _("because:") + " ", style="dim")
                t.append_text(self._said(self.recent[-1]))
            return t
        t.append("▶ ", style="bold")
        if title and view.current == view.viewer and d.kind == "turn":
            t.append(_("{title}: ").format(title=title), style="bold")
        t.append(self._prompt_words(view), style="bold")
        step = self._step_of(view)
        if step:
            t.append(" — " + step, style="bold")
        if d.kind in ("end", "another", "extra", "turn") and self.gained:
            # A City Area card is used from the turn after it was gained (not offered yet)
            t.append("\n   " + ngettext("{areas}: City Area card gained this turn, usable from your next turn.",
                                        "{areas}: City Area cards gained this turn, usable from your next turn.",
                                        len(self.gained)).format(
                areas=", ".join(area_title(AREA_IDS[a]) for a in self.gained)), style="dim")
        elif self._open is not None:
            t.append("\n   " + _("Step 2 of 2: where to? (Esc: back)"), style="italic")
        elif any(e.group for e in self._entries):
            t.append("\n   " + _("Step 1 of 2: which one? Then where."), style="italic")
        elif by_area(self._entries) and self.roomy:
            t.append("\n   " + _("Type the area's number (1-12, as on the map), then Enter."), style="dim")
        elif self.roomy and d.kind not in ("turn", "check-win") and self.recent:
            t.append("\n   " + _("after:") + " ", style="dim")
            t.append_text(self._said(self.recent[-1]))
        return t

    def _step_of(self, view) -> str:
        """``1 of 2`` where the card says how many times it asks; ``choice 2``
        where a question comes again."""
        d = view.decision
        n = self._repeat[1]
        if d.kind in ("turn", "end", "another", "extra", "check-win", "window"):
            return ""
        cards = [c for c in view.in_play if c in CARD]
        params = CARD[cards[-1]].get("params") or {} if cards else {}
        total = params.get("count_max", params.get("count", params.get("max_discard", 0)))
        if d.kind in ("give", "place", "discard") and total > 1 and n <= total:
            return _("{n} of {total}").format(n=n, total=total)
        if n > 1:
            return _("choice {n}").format(n=n)
        return ""

    def _prompt_words(self, view) -> str:
        """The engine's prompt, with the card that causes it named."""
        d = view.decision
        if d.kind == "end":
            texts = view.option_texts
            ability = any(t.startswith("ability ") for t in texts)
            mossy = any(t == "interrupt doctor-mossy-lawn" for t in texts)
            if ability and mossy:
                return _("End your turn, or first use a City Area card or play Doctor Mossy Lawn")
            if mossy:
                return _("End your turn, or first play Doctor Mossy Lawn")
            if ability:
                return _("End your turn, or first use a City Area card")
            return _("End your turn")
        words = humanize(d.prompt)
        if d.kind not in ("turn", "check-win", "another", "extra") and prompt_card(d.prompt) is None:
            cards = [c for c in view.in_play if c in CARD]
            if cards:
                return _("{card}: {prompt}").format(card=card_name(cards[-1]), prompt=words)
        return words

    def _said(self, event) -> Text:
        view = self.view
        return style_line(describe(event, view.viewer if view is not None else None, view))

    def _waiting(self, view) -> Text:
        t = Text()
        if view.outcome is not None:
            t.append(_("The game is over."), style="bold")
            return t
        who, _sep, what = view.waiting_for.partition(": ")
        if who in COLOURS:
            t.append("… ")
            t.append_text(seat_tag(COLOURS.index(who)))
            t.append(" " + _("is deciding:") + " ")
            t.append(humanize(what), style="italic")
        else:
            t.append("… " + humanize(view.waiting_for))
        return t

    def _show_detail(self, n: int | None) -> None:
        view = self.view
        if (view is None or view.decision is None or n is None or n >= len(self._entries)):
            self._detail = None
            self._draw_detail()
            self.post_message(self.Highlighted(None, None))
            return
        e = self._entries[n]
        if e.group:
            where = ", ".join(area_title(view.option_texts[i].split()[-1]) for i in e.options)
            detail = _("Enter, then choose where: {places}.").format(places=where)
            self._set_detail(Text(detail, style="italic"))
            self.post_message(self.Highlighted(None, e.key))
            return
        index = e.options[0]
        text = view.option_texts[index]
        detail = option_detail(text, view.decision.prompt, view.decision.kind, view.option_texts)
        cards = [c for c in view.in_play if c in CARD]
        if text == "pass" and "a card's text would affect you" in view.decision.prompt and cards:
            detail = " ".join((detail, card_summary(cards[-1]), card_text(cards[-1])))
        words = text.split()
        if words[0] == "target" and len(words) > 1 and words[1] in COLOURS:
            seat = view.seats[COLOURS.index(words[1])]
            detail = _("{colour} has ${money}, {cards} cards in hand, {minions} minions on the board.").format(
                colour=colour(COLOURS.index(words[1])), money=seat.money, cards=seat.hand_size, minions=12 - seat.minions_left)
        self._set_detail(Text(detail, style="italic"), card=words[0] in ("play", "give", "discard", "interrupt"))
        self.post_message(self.Highlighted(index, text))

    def tell(self, told: Text | None) -> None:
        """Say ``told`` under the options, in the description's place (None: the
        description again): never over the options."""
        self._told = told
        self._draw_detail()

    def _set_detail(self, text: Text, card: bool = False) -> None:
        self._detail = (text, card)
        self._draw_detail()

    def _draw_detail(self) -> None:
        """Under the options: what was just said, else the description; longer than the
        rows it has, it ends in "…" (and, for a card of yours, where its whole text is)
        rather than stop mid-sentence."""
        if self._told is None and self._detail is None:
            self.query_one("#detail", Static).update("")
            return
        text, card = (self._told, False) if self._told is not None else self._detail
        detail = self.query_one("#detail", Static)
        question = self.query_one("#question", Static)
        width = detail.size.width
        rows = min(int(detail.styles.max_height.value) if detail.styles.max_height else 6,
                   self.size.height - question.outer_size.height - 3)   # (the options keep 3)
        if width <= 0 or rows <= 0:
            self.call_after_refresh(self._fit_detail)   # not laid out yet
            detail.update(text)
            return
        lines = text.wrap(self.app.console, width)
        if len(lines) > rows:
            more = Text(" " + (_("… (h: the whole text)") if card and not self.roomy else "…"), style="dim")
            last = lines[rows - 1]
            last.rstrip()
            room = width - more.cell_len
            if last.cell_len > room:   # at the last whole word that leaves room
                cut = last.plain.rfind(" ", 0, room + 1)
                last = last.divide([cut if cut > 0 else room])[0]
            last.rstrip()
            text = Text("\n").join([*lines[:rows - 1], last + more])
        detail.update(text)

    def _fit_detail(self) -> None:
        if (self.is_mounted and self.size.width > 0
                and self.query_one("#detail", Static).size.width > 0):
            self._draw_detail()

    def on_resize(self) -> None:
        if self._detail is not None or self._told is not None:
            self.call_after_refresh(self._fit_detail)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._show_detail(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id == "back":
            self.back()
            return
        self.open_entry(event.option_index)

    def highlight(self, index: int) -> None:
        """Put the cursor on the entry holding option ``index``."""
        choices = self.query_one(Choices)
        for n, e in enumerate(self._entries):
            if index in e.options:
                choices.highlighted = n

    @property
    def highlighted(self) -> int | None:
        """The option under the cursor (None on a group or nothing)."""
        n = self.query_one(Choices).highlighted
        if n is None or n >= len(self._entries) or self._entries[n].group:
            return None
        return self._entries[n].options[0]
