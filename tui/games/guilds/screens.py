"""The guild variant's screens: the game (map, prompt, hand, players, guild
table, bank rates, costs, log), the trade composer and the end."""
from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, OptionList, Static
from textual.widgets.option_list import Option

from ankh.core.game import Decision
from ankh.tui.i18n import _, Localised, NP_
from ankh.tui.review import ShowsReview
from ankh.tui.stats import ShowsStats
from ankh.tui.screens.play import PlayScreen
from ankh.tui.seats import _assemble, seat_tag
from ankh.tui.widgets.choices import Choices, Hanging
from ankh.tui.widgets.panel import Panel

from . import board, panels, trade
from .panels import DECIDED
from .groups import LETTERS, grouped, letter_of
from .text import describe, offer_text, option_text, option_vertex, prompt_text

WIDE = (120, 34)
WIN = ("win",)   # the option that shows the Vetinari tokens making 12 VP


def layout_for(width: int, height: int) -> str:
    return "wide" if width >= WIDE[0] and height >= WIDE[1] else "compact"


class GameScreen(PlayScreen):
    DEFAULT_CSS = """
    GameScreen #g-main { height: 15; }
    GameScreen #g-main > VerticalScroll { padding: 0 1; }
    GameScreen #g-prompt { height: 1fr; min-height: 7; background: $boost; padding: 0 1; }
    GameScreen #g-head { height: auto; max-height: 4; }
    GameScreen #g-head.news { max-height: 7; }    /* at 80x24, while others play: what is happening */
    GameScreen #g-head.told { max-height: 6; }    /* ... and what was just said to you */
    GameScreen #g-choices, GameScreen #g-choices:focus { border: none; padding: 0; background: transparent; }
    GameScreen #g-choices { height: 1fr; }     /* the rows under the question: the highlight stays in sight */
    GameScreen #g-table { height: 1fr; }
    GameScreen #g-left { width: 76; }
    GameScreen #g-right { width: 1fr; }
    GameScreen #g-left #g-map { height: 17; padding: 0 1; }
    GameScreen #g-left #g-prompt { border-top: solid $accent; }
    GameScreen #g-news { height: 10; }
    GameScreen #g-news > *, GameScreen #g-right > * {
        border: round $panel-lighten-2; border-title-color: $text; padding: 0 1;
    }
    GameScreen #g-news > * { width: 1fr; height: 100%; }
    GameScreen #g-right > * { height: auto; }
    GameScreen #g-right #g-bank { height: 1fr; }
    """

    BINDINGS = [
        Binding("t", "trade", NP_("key", "Trade")),
        Binding("t", "title", NP_("key", "Title screen")),   # after the game (trading is over)
        Binding("s", "show_panel('since')", NP_("key", "Since"), show=False),
        Binding("m", "show_panel('map')", NP_("key", "Map")),
        Binding("h", "show_panel('hand')", NP_("key", "Hand")),
        Binding("p", "show_panel('players')", NP_("key", "Players")),
        Binding("l", "show_panel('log')", NP_("key", "Log")),
        Binding("pageup", "scroll_log(-1)", NP_("key", "Log ↑"), show=False, priority=True),
        Binding("pagedown", "scroll_log(1)", NP_("key", "Log ↓"), show=False, priority=True),
        Binding("backspace", "unkey", show=False),
        Binding("escape", "unkey", show=False),
        Binding("r", "results", NP_("key", "Results")),
        *[Binding(str(i), f"digit({i})", show=False) for i in range(10)],
        *[Binding(letter, f"jump('{letter}')", show=False) for letter in LETTERS],
    ]
    # At most this many lines in a notice (the rest are in the summary and the log).
    NOTICES = 5
    # Nothing takes the keys by itself (Textual would give them to the first widget when a
    # dialog closes): the options have them while there is a decision (focus_decision).
    AUTO_FOCUS = ""

    mode: reactive[str] = reactive("compact", recompose=True)

    def __init__(self, session, bot_delay: float = 0.0) -> None:
        super().__init__(session, bot_delay)
        self.panel = "map"
        self.typed = ""                 # a site number being typed
        self._noticed = len(session.log)
        self._news: list[tuple[str, str]] = []   # at 80×24: what happens as others play, under the prompt
        self._options: tuple = ()
        self._said: str | None = None     # the prompt of the decision whose options are shown
        self._rows: list[int | None] = []    # each row of the list: its option, or None for a group's heading
        self._letters: dict[str, int] = {}   # a group's letter: the row of its first option
        self._keep_highlight = None       # an option to highlight again after a new layout
        self._auto_since = False          # the summary since your last move opened by itself
        self._since_home = False          # ... and is to be shown from its start
        self._words = panels.Words()      # the log's lines, each worded once
        self.set_reactive(GameScreen.mode, layout_for(*self.app.size))

    # --- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # A layout composed anew (a resize across WIDE) has an empty option list:
        # the decision's options are to be set in it again, not taken as shown.
        self._options, self._rows, self._letters = (), [], {}
        prompt = Vertical(id="g-prompt")
        if self.mode == "wide":
            with Horizontal(id="g-table"):
                with Vertical(id="g-left"):
                    yield Panel(id="g-map")
                    with prompt:
                        yield Panel(id="g-head")
                        yield Choices(id="g-choices")
                    with Horizontal(id="g-news"):
                        with VerticalScroll(id="since") as box:
                            box.border_title = _("Since your last move")
                            yield Panel(id="g-since")
                        with VerticalScroll(id="log") as box:
                            box.border_title = _("Log (PgUp/PgDn)")
                            yield Panel(id="g-log")
                with Vertical(id="g-right"):
                    yield self._box("g-hand", _("Your hand"))
                    yield self._box("g-players", _("Players (supply ·▲■)"))
                    yield self._box("g-guilds", _("Guilds"))
                    yield self._box("g-bank", _("Bank and costs"))
        else:
            with ContentSwitcher(id="g-main", initial=self.panel):
                with Vertical(id="map"):
                    yield Panel(id="g-map")
                with VerticalScroll(id="hand"):
                    yield Panel(id="g-hand")
                    yield Panel(id="g-bank")
                with VerticalScroll(id="players"):
                    yield Panel(id="g-players")
                    yield Panel(id="g-guilds")
                with VerticalScroll(id="since"):
                    yield Panel(id="g-since")
                with VerticalScroll(id="log"):
                    yield Panel(id="g-log")
            with prompt:
                yield Panel(id="g-head")
                yield Choices(id="g-choices")
        yield Footer(compact=True)

    @staticmethod
    def _box(wid: str, title: str) -> Panel:
        box = Panel(id=wid)
        box.border_title = title
        return box

    def on_mount(self) -> None:   # (then PlayScreen's: the game goes on)
        self.focus_decision()

    def on_screen_resume(self) -> None:
        # a dialog closed (the trade composer, help): the game may have moved meanwhile
        self.focus_decision()
        self.call_after_refresh(self._scroll_news)     # (the log's end, scrolled to under the dialog, moved on)

    def focus_decision(self) -> None:
        """The options take the keys while there is a decision (a spectator
        never has one: its footer offers no Choose)."""
        choices = self._choices()
        if self.decision() is not None:
            if choices is not None:
                choices.focus()
        elif self.focused is not None:
            self.set_focus(None)

    def _choices(self) -> Choices | None:
        """The option list, or None while the screen lays itself out again
        (a resize across WIDE: the old layout is gone, the new one not yet
        there; a key that comes then is not lost, and never a crash)."""
        for choices in self.query("#g-choices").results(Choices):
            return choices
        return None

    def watch_mode(self) -> None:
        # the option highlighted before the new layout, highlighted again in it
        self._keep_highlight = self._highlighted_option()
        self.call_after_refresh(self.show)

    def on_resize(self, event) -> None:
        mode = layout_for(event.size.width, event.size.height)
        if mode != self.mode:
            self.mode = mode

    # --- what is shown -----------------------------------------------------------------------------

    @property
    def view(self):
        return self.session.view()

    def decision(self, view=None) -> Decision | None:
        """The decision the person at the keyboard must make now, if any."""
        nxt = self._next
        if nxt is None or nxt.kind != "person" or self._handing_over:
            return None
        return nxt.decision

    def legal_sites(self, d: Decision | None) -> frozenset[int]:
        if d is None:
            return frozenset()
        return frozenset(v for v in map(option_vertex, d.options) if v is not None)

    def show(self) -> None:
        if not self.query("#g-choices"):
            return
        view = self.view
        me = self.session.viewer
        d = self.decision()
        sites = self.legal_sites(d)
        chosen = int(self.typed) if self.typed and int(self.typed) in sites else None
        highlighted = self._highlighted_option()
        if chosen is None:
            chosen = option_vertex(highlighted) if highlighted else None
        widget = {w.id: w for w in self.query(Panel)}
        with self.app.batch_update():
            self._draw_map(view, d, chosen, highlighted)
            widget["g-hand"].update(panels.hand(view, me))
            players = panels.players(view, me)
            if self.fingerprint:   # to read aloud and compare, whenever
                players = Group(players, Text.assemble("\n", (_("Table fingerprint") + ": ", "bold"),
                                                       self.fingerprint))
            widget["g-players"].update(players)
            widget["g-guilds"].update(Group(panels.guilds(view), panels.guild_note()))
            if self.mode == "wide":
                widget["g-bank"].update(Group(panels.rates(view, me, holdings=False), panels.costs_at_a_glance()))
            else:
                widget["g-bank"].update(Group(panels.rates(view, me), Text(""), panels.cost_table()))
            log = self.session.log
            lines = self._words(log, me, self.session.stolen_card)
            widget["g-log"].update(panels.log_lines(log, me, lines=lines))
            since = self._last_own_move(me)
            widget["g-since"].update(panels.since(log[since:], me, lines=lines[since:]))
            if self.decision_is_new(d):
                if WIN in d.options:   # claimed at once: the rules' win is automatic at 12 VP
                    self.call_later(self._claim_win)
                self._new_decision(d, log[since:])
            self._tell_news()
            self._tell_chat()
            self._tell_notices()
            self._show_prompt(view, d)
            trade.follow(self)      # the trade composer, if open
        self.call_after_refresh(self._scroll_news)
        if self.app.screen is not self:     # under a dialog (the trade composer): shown there too
            self.call_after_refresh(self._redraw_under)

    def _redraw_under(self) -> None:
        """The dialog over this screen drawn again with what changed beneath it (its
        refresh alone left the last decision's options on the terminal)."""
        top = self.app.screen
        if top is not self:
            top.refresh()

    def _scroll_news(self) -> None:
        """Once laid out: the log at its end, the summary since your last move at its start."""
        for box in self.query("#log").results(VerticalScroll):
            box.scroll_end(animate=False)
        if self._since_home:
            self._since_home = False
            for box in self.query("#since").results(VerticalScroll):
                box.scroll_home(animate=False)

    def _new_decision(self, d: Decision, events) -> None:
        """Your decision has come.  At 80×24 nothing covers the map and the
        options (the summary tells what happened), and a decision that follows
        the others' moves (your turn, an offer to answer, the Laboratory's
        resource) and needs nothing on the map (a site, the robber's district)
        opens on that summary, as the first game's turns do."""
        if self.mode != "compact":
            return
        self.app.clear_notifications()
        me = self.session.viewer
        others = any(e.seat is not None and e.seat != me and e.kind in DECIDED | {"turn", "roll"} for e in events)
        needs_map = self.legal_sites(d) or any(o[0] == "robber" for o in d.options)
        if others and not needs_map and self.panel == "map" and not self._auto_since:
            self._auto_since = self._since_home = True
            self.action_show_panel("since")

    def _draw_map(self, view, d: Decision | None, chosen: int | None, highlighted) -> None:
        """The map, with the sites (or robber's spots) the decision may name."""
        spots = frozenset(o[1] for o in d.options if o[0] == "robber") if d is not None else frozenset()
        spot = highlighted[1] if highlighted and highlighted[0] == "robber" else None
        for w in self.query("#g-map").results(Static):
            w.update(Group(board.draw(view, self.legal_sites(d), chosen, spots=spots, spot=spot),
                           board.track_line(view), board.legend() if self.mode == "wide" else Text("")))

    def _last_own_move(self, viewer: int) -> int:
        """The log index just after ``viewer``'s last decision that the log tells
        (what the game did on its own after it -- the next turn's heading, the
        dice -- is news to them)."""
        log = self.session.log
        for i in range(len(log) - 1, -1, -1):
            if log[i].seat == viewer and log[i].kind in DECIDED:
                return i + 1
        return 0

    def _show_prompt(self, view, d: Decision | None) -> None:
        head = Text()
        turn = _("Turn {n}").format(n=view.turn) if view.turn else _("Setting up")
        head.append(turn + " · ", "dim")
        if view.outcome is not None:
            head.append(_("The game is over. Press r for the results."), "bold")
        elif d is None:
            pending = view.pending.seat if isinstance(view.pending, Decision) else None   # (a request has none)
            who = (self._next.seat if self._next is not None and self._next.seat is not None
                   else pending if pending is not None else view.active)
            if self.session.networked:   # a person or a bot at another screen
                head.append_text(_assemble(_("Waiting for {seat}…"), seat=seat_tag(who)))
            else:
                head.append_text(_assemble(_("{seat} is thinking…"), seat=seat_tag(who)))
            if self.bot_delay > 0 and not self.session.networked:
                head.append("  " + _("(space: skip ahead)"), "dim")
            self._told_line(head)
            for line, style in self._news:
                head.append("\n" + line, style)
        else:
            head.append(prompt_text(view, d), "bold")
            self._told_line(head)
            if self.legal_sites(d):
                head.append("\n" + _("Type a site's number (reversed on the map), then Enter."), "dim")
                if self.typed:
                    head.append("  " + _("Site: {n}").format(n=self.typed), "bold reverse")
            if trade.hint(d):
                head.append("\n" + trade.hint(d), "dim")
        if view.trade is not None and (d is None or d.kind != "answer"):   # the answers so far
            head.append("\n")
            head.append_text(self._answers(view))
        alert, note = self.table_status()
        if alert or note:   # a networked table: a link down, the result; whom it waits for
            head.append("\n")
            if alert:
                head.append(alert, "bold red")
            if note and note != alert:   # a link down is both: said once
                head.append(("  " if alert else "") + note, "dim")
        for w in self.query("#g-head").results(Static):
            w.set_class(d is None and bool(self._news), "news")
            w.set_class(self.told is not None, "told")
            w.update(head)
        choices = self._choices()
        if choices is None:
            return
        options = d.options if d is not None else ()
        # a discard after a 7 asks again with the same options, its words changed
        # (the cards held and left to discard): the rows are made again then too
        said = d.prompt if d is not None else None
        if options != self._options or said != self._said:
            self._options, self._said = options, said
            numbered = not self.legal_sites(d)
            groups = grouped(options)
            priced = groups is None          # a short list: each option says what it costs
            groups = groups or [("", list(range(len(options))))]
            self._rows, self._letters, rows = [], {}, []
            letters = {k: letter for letter, k in letter_of(groups).items()}
            for k, (heading, members) in enumerate(groups):
                if heading:
                    self._letters[letters.get(k, "")] = len(self._rows) + 1
                    rows.append(Option(Text.assemble((f"{letters.get(k, ' ')} ", "bold"), (heading, "bold underline")),
                                       disabled=True))
                    self._rows.append(None)
                for i in members:
                    n = len(self._rows) - self._rows.count(None)
                    rows.append(Option(Hanging(Text(f"{n + 1} " if numbered and n < 9 else "  ", "bold"),
                                               Text(option_text(view, options[i], priced))), id=str(i)))
                    self._rows.append(i)
            self._letters.pop("", None)
            choices.set_options(rows)
            if options:
                keep = self._keep_highlight
                typed = [o for o in options if self.typed and option_vertex(o) == int(self.typed)]
                if typed:   # a site typed as the screen laid itself out again: its row, as typed
                    keep = typed[0]
                choices.highlighted = self._rows.index(options.index(keep) if keep in options else self._rows_first())
            self._keep_highlight = None
            self.focus_decision()

    def _told_line(self, head: Text) -> None:
        if self.told is not None:   # (80×24) what was just said, under the question
            head.append("\n")
            head.append_text(self.told)

    def tells_in_prompt(self) -> bool:
        # at 80×24 a notice is at the top right, over the map: what is said goes under the question
        return self.mode == "compact" and not self._handing_over

    def show_told(self) -> None:
        if self.query("#g-choices"):
            self._show_prompt(self.view, self.decision())

    def _rows_first(self) -> int:
        return next(i for i in self._rows if i is not None)

    def _shown_options(self) -> list[int]:
        """The options in the order the list shows them."""
        return [i for i in self._rows if i is not None]

    def _answers(self, view) -> Text:
        """The trade on the table and the answers so far."""
        p = view.trade[0]
        log = self.session.log
        start = max((i for i, e in enumerate(log) if e.kind == "offer" and e.seat == p), default=len(log))
        t = Text(offer_text(view.trade) + ". ", style="bold")
        answers = [describe(e, self.session.viewer) for e in log[start + 1:] if e.kind == "answer"]
        if answers:
            t.append(_("Answers:") + " ")
            t.append_text(Text(" ").join(answers))
        else:
            t.append(_("Waiting for answers…"), "dim")
        return t

    def _highlighted_option(self):
        choices = self._choices()
        if choices is None:
            return None
        i = choices.highlighted
        i = self._rows[i] if i is not None and i < len(self._rows) else None
        return self._options[i] if i is not None and i < len(self._options) else None

    def _tell_news(self) -> None:
        """Notices at the top right: the dice, and whatever hits you."""
        log = self.session.log
        me = self.session.viewer
        fresh = log[self._noticed:]
        self._noticed = len(log)
        if self._handing_over or (self.mode == "compact" and self.decision() is not None):
            self._news = []
            return  # your decision at 80×24: the summary since your last move tells it
        lines, hits = [], []
        for e in fresh:
            if e.kind == "roll" or e.kind == "win":
                lines.append(describe(e, me, self.session.stolen_card).plain)
            elif me is not None and e.seat != me and (f"from {_colour_en(me)}" in e.text
                                                       or e.text.endswith(f"to {_colour_en(me)}")):
                hits.append(describe(e, me, self.session.stolen_card).plain)
        if self.mode == "compact":   # under the prompt, not over the map
            if lines or hits:
                self._news = ([(line, "") for line in lines] + [(hit, "bold yellow") for hit in hits])[-self.NOTICES:]
            return
        for got, title, severity in ((lines, _("Happening now"), "information"),
                                     (hits, _("This concerns you"), "warning")):
            if len(got) > self.NOTICES:
                got = got[-self.NOTICES:]
            if got:
                self.notify("\n".join(got), title=title, severity=severity, timeout=6)

    # --- answering ---------------------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#g-choices")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        i = int(event.option.id)
        if self.typed and int(self.typed) not in self.legal_sites(self.decision()):
            # a number typed that names no site offered: never build elsewhere
            self.notify(_("Site {n} cannot be chosen now: the sites you may choose are reversed on the map.")
                        .format(n=self.typed), severity="warning", timeout=4)
            self.typed = ""
            self.show()
            return
        if i < len(self._options):
            self._answer(self._options[i])

    @on(OptionList.OptionHighlighted, "#g-choices")
    def _option_highlighted(self, event) -> None:
        i = self._rows[event.option_index] if event.option_index < len(self._rows) else None
        if self.is_mounted and not self.typed and i is not None and i < len(self._options):
            option = self._options[i]
            self._draw_map(self.view, self.decision(), option_vertex(option), option)

    def _claim_win(self) -> None:
        """Show the Vetinari tokens that make 12 VP and win, as soon as they do
        (no key to press, none to miss: the option came last in the list)."""
        d = self.decision()
        if d is not None and WIN in d.options and not self._handing_over and self.session.choose(WIN, d):
            self.pump()

    def _answer(self, option: tuple) -> None:
        if self.decision() is None or self.guarded():
            return
        if self._auto_since and self.panel == "since":   # opened by itself: the map again for what follows
            self.action_show_panel("map")
        self._auto_since = False
        typed, self.typed = self.typed, ""     # cleared before the next decision is shown
        if not self.choose(option):
            self.typed = typed

    def action_digit(self, n: int) -> None:
        """A digit: part of a site's number where the options are sites, else option n."""
        d = self.decision()
        if d is None or self.guarded():
            return
        sites = self.legal_sites(d)
        if not sites:
            shown = self._shown_options()
            if 1 <= n <= min(9, len(shown)):
                self._answer(self._options[shown[n - 1]])
            return
        typed = self.typed + str(n)
        if len(typed) > 2 or int(typed) >= len(self.view.occ):
            typed = str(n)
        self.typed = typed
        value = int(typed)
        match = [row for row, i in enumerate(self._rows)
                 if i is not None and i < len(self._options) and option_vertex(self._options[i]) == value]
        choices = self._choices()
        if match and choices is not None:
            choices.highlighted = match[0]
            choices.scroll_to_highlight()
        self.show()

    def action_jump(self, letter: str) -> None:
        """A group's letter in a long list: its first option highlighted."""
        row = self._letters.get(letter) if self.decision() is not None else None
        choices = self._choices()
        if row is not None and choices is not None:
            self.typed = ""
            choices.highlight_under(row)

    def action_unkey(self) -> None:
        if self.typed:
            self.typed = self.typed[:-1]
            self.show()

    def action_trade(self) -> None:
        """The trade composer: an offer, a bank trade, or your answer to an offer."""
        if not trade.can_open(self):
            self.notify(_("You can offer a trade on your turn, after rolling."), timeout=3)
            return
        trade.open_composer(self)

    # --- looking around ----------------------------------------------------------------------------

    def action_show_panel(self, name: str) -> None:
        if name != "since":
            self._auto_since = False
        self.panel = name
        for sw in self.query("#g-main").results(ContentSwitcher):
            sw.current = name
        self.focus_decision()
        self.call_after_refresh(self._scroll_news)

    def action_scroll_log(self, direction: int) -> None:
        if self.mode == "compact" and self.panel not in ("log", "since"):
            self.action_show_panel("log")
        target = "#since" if self.mode == "compact" and self.panel == "since" else "#log"
        for box in self.query(target).results(VerticalScroll):
            if direction < 0:
                box.scroll_page_up(animate=False)
            else:
                box.scroll_page_down(animate=False)

    def action_results(self) -> None:
        if self.session.over:
            self.app.push_screen(EndScreen(self.session.view(), self.session))

    def show_results(self) -> None:
        self.action_results()

    def action_title(self) -> None:
        self.app.action_to_title()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_panel":   # a spectator has no hand: the players panel shows the table
            return self.mode == "compact" and not (self.session.spectating and parameters == ("hand",))
        if action in ("results", "title"):
            return self.session.over
        if action == "trade":
            return trade.can_open(self)
        return super().check_action(action, parameters)

    def commands(self):
        from textual.app import SystemCommand
        yield from self.table_commands()
        yield SystemCommand(_("Leave the game"), _("Back to the title screen (asks first)"), self.action_leave)


def _colour_en(seat: int) -> str:
    from ankh.core.game import COLOURS
    return COLOURS[seat]


def verdict(view) -> Text:
    o = view.outcome
    names = Text(_(" and ")).join(seat_tag(w) for w in o.winners)
    return _assemble(_("{winners} wins with {n} victory points."), winners=names,
                     n=o.scores[o.winners[0]] if o.scores else "?")


class EndScreen(ShowsReview, ShowsStats, Localised, Screen):
    BINDINGS = [
        Binding("b", "back", NP_("key", "Board")),
        Binding("s", "stats", NP_("key", "Statistics")),
        Binding("r", "review", NP_("key", "Review")),
        Binding("a", "review_every_card", NP_("key", "Review (every card)")),
        Binding("t", "title", NP_("key", "Title screen")),
        Binding("q", "app.quit", NP_("key", "Quit")),     # (as the first game's end screen)
        Binding("escape", "back", show=False),
    ]

    def __init__(self, view, session=None) -> None:
        super().__init__()
        self.final = view
        self.session = session

    def compose(self) -> ComposeResult:
        view = self.final
        with VerticalScroll(id="end"):
            yield Static(Text(_("The game is over"), style="bold"), id="end-title")
            yield Static(verdict(view), id="why")
            yield Static(panels.players(view, None))
            yield Static(panels.guilds(view))
        yield Footer(compact=True)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_title(self) -> None:
        self.app.action_to_title()
