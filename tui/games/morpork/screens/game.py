"""The game: the map, your hand, the players, the log and the decision.

The screen holds the behaviour; driving the game (the bots in a worker, the
key guard, the hand-over between people at one keyboard, a networked
table's moves) is :class:`~ankh.tui.screens.play.PlayScreen`'s, and this
screen shows it (:meth:`GameScreen.refresh_view`): a person's decision goes
to the prompt.  Widgets get the seat's view through ``data_bind`` and post
what the person chose.
"""
from __future__ import annotations


from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Static
from textual.widgets._toast import ToastRack

from ankh.core.morpork.views import PlayerView

from ankh.tui.i18n import _, NP_
from ankh.tui.screens.play import PlayScreen
from ankh.tui.session import GameSession
from ankh.tui.games.morpork.text import AREA_IDS, area_names
from ankh.tui.games.morpork.words import (changed_areas, describe, gained_this_turn, hits, notable, others_acted,
                                          summary, worth_a_line)
from ankh.tui.games.morpork.widgets.board import CityMap, map_height
from ankh.tui.widgets.choices import Choices
from ankh.tui.games.morpork.widgets.hand import Hand
from ankh.tui.games.morpork.widgets.log import GameLog
from ankh.tui.games.morpork.widgets.players import Players, You
from ankh.tui.games.morpork.widgets.prompt import DecisionPrompt
from ankh.tui.games.morpork.widgets.status import StatusBar
from ankh.tui.games.morpork.widgets.summary import Summary

WIDE = Size(120, 34)


def _rows(lines: list[str], width: int) -> int:
    """Rows ``lines`` take, wrapped at ``width``."""
    return sum(max(1, -(-len(line) // width)) for line in lines)


def layout_for(size: Size) -> str:
    return "wide" if size.width >= WIDE.width and size.height >= WIDE.height else "compact"


def map_rows(size: Size, mode: str) -> int:
    """Rows for the map: taller boxes when the terminal has room to spare."""
    spare = size.height - 2 - (7 if mode == "compact" else 10 + 8)
    for h in (5, 4):
        if spare >= map_height(h):
            return map_height(h)
    return map_height(3)


class GameScreen(PlayScreen, inherit_bindings=False):
    # At most this many lines in a notice (the rest are in the summary and the log).
    NOTICES = 5

    # Every key in this screen's own order (the footer's), PlayScreen's among them.
    BINDINGS = [
        *Screen.BINDINGS,
        Binding("1", "pick(0)", NP_("key", "Pick"), key_display="1-9"),
        *[Binding(str(i), f"pick({i - 1})", show=False) for i in range(2, 10)],
        Binding("0", "pick(-1)", show=False),
        Binding("escape", "back", show=False),
        Binding("u", "undo", NP_("key", "Undo")),
        Binding("space", "skip", NP_("key", "Skip"), key_display="␣"),
        Binding("s", "show_panel('since')", NP_("key", "Since"), show=False),
        Binding("m", "show_panel('map')", NP_("key", "Map")),
        Binding("h", "show_panel('hand')", NP_("key", "Hand")),
        Binding("p", "show_panel('players')", NP_("key", "Players")),
        Binding("l", "show_panel('log')", NP_("key", "Log")),
        Binding("pageup", "scroll_log(-1)", NP_("key", "Log ↑"), show=False, priority=True),
        Binding("pagedown", "scroll_log(1)", NP_("key", "Log ↓"), show=False, priority=True),
        Binding("r", "results", NP_("key", "Results")),
        Binding("t", "title", NP_("key", "Title screen")),   # after the game, from the board too
        Binding("question_mark", "app.help", NP_("key", "Help"), key_display="?"),
        Binding("f1", "app.help", show=False),
        Binding("q", "leave", NP_("key", "Quit")),
        Binding("c", "chat", NP_("key", "Chat"), show=False),
        Binding("e", "end_table", NP_("key", "End table")),
        Binding("i", "hint", NP_("key", "Hint"), show=False),   # (the palette offers it: the footer is full)
    ]

    mode: reactive[str] = reactive("compact", recompose=True)
    view: reactive[PlayerView | None] = reactive(None)
    events: reactive[tuple] = reactive(tuple)
    recent: reactive[tuple] = reactive(tuple)
    gained: reactive[tuple] = reactive(tuple)
    highlight: reactive[frozenset[int]] = reactive(frozenset)
    marks: reactive[frozenset[int]] = reactive(frozenset)
    since: reactive[tuple] = reactive(tuple)
    selected_card: reactive[str | None] = reactive(None)
    panel: reactive[str] = reactive("map")

    def __init__(self, session: GameSession, bot_delay: float = 0.0) -> None:
        super().__init__(session, bot_delay)
        self._since_of: dict[int, int] = {}    # per person: log index after their last decision
        self._noticed = len(session.log)      # events already told as notices
        self._auto_since = False
        self._kept: tuple | None = None       # the decision as it stood when the layout changed
        self.set_reactive(GameScreen.mode, layout_for(self.app.size))
        self.set_class(self.mode == "compact", "-compact")

    # Happenings that follow from a seat's own decision (for finding, in a loaded
    # game, where the viewer last decided).
    DECIDED = frozenset({"play", "scroll", "minion", "build", "assassinate", "trouble", "ability",
                         "discard", "pass", "interrupt", "small-gods", "pick", "give"})

    def _last_own_move(self, viewer: int) -> int:
        """The log index just after ``viewer``'s last decision in a loaded game."""
        log = self.session.log
        for i in range(len(log) - 1, -1, -1):
            if log[i].seat == viewer and log[i].kind in self.DECIDED:
                return i + 1
        return 0

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status").data_bind(GameScreen.view)
        kept, self._kept = self._kept, None
        prompt = DecisionPrompt(id="prompt", roomy=self.mode == "wide", kept=kept).data_bind(
            GameScreen.view, recent=GameScreen.recent, gained=GameScreen.gained)
        board = CityMap(id="map").data_bind(GameScreen.view, highlight=GameScreen.highlight,
                                            marks=GameScreen.marks)
        since = Summary().data_bind(parts=GameScreen.since)
        since.viewer = self.session.viewer
        if self.mode == "wide":
            with Horizontal(id="table"):
                with Vertical(id="left"):
                    yield board
                    yield prompt
                    with VerticalScroll(id="hand-panel"):
                        yield Hand().data_bind(GameScreen.view, selected=GameScreen.selected_card)
                with Vertical(id="right"):
                    you = You(id="you").data_bind(GameScreen.view)
                    you.border_title = _("Your aim")
                    yield you
                    players = Players(id="players").data_bind(GameScreen.view)
                    players.border_title = _("Players")
                    yield players
                    if self.fingerprint:
                        box = Static(self.fingerprint, id="fingerprint")
                        box.border_title = _("Table fingerprint")
                        yield box
                    with VerticalScroll(id="since") as box:
                        box.border_title = _("Since your last move")
                        yield since
                    log = GameLog(id="log").data_bind(GameScreen.view, events=GameScreen.events)
                    log.border_title = _("Log (PgUp/PgDn)")
                    yield log
        else:
            with ContentSwitcher(id="main", initial=self.panel):
                yield board
                with VerticalScroll(id="hand"):
                    yield Hand(detailed=True).data_bind(GameScreen.view, selected=GameScreen.selected_card)
                with VerticalScroll(id="players"):
                    yield You(id="you").data_bind(GameScreen.view)
                    yield Players().data_bind(GameScreen.view)
                    if self.fingerprint:
                        yield Static(Text.assemble((_("Table fingerprint") + ": ", "bold"), self.fingerprint),
                                     id="fingerprint")
                with VerticalScroll(id="since"):
                    yield since
                yield GameLog(id="log").data_bind(GameScreen.view, events=GameScreen.events)
            yield prompt
        yield Footer(compact=True)

    def on_mount(self) -> None:   # (then PlayScreen's: the game goes on)
        self._fit(self.app.size)
        self.call_after_refresh(self.focus_decision)

    def _holding_notices(self) -> bool:
        """Whether news of the game waits: over the help or a dialog, or (at
        80×24) over the map and options of your decision, none is shown."""
        return not self.is_current or (self.mode == "compact" and self.view is not None
                                       and self.view.decision is not None)

    def on_screen_suspend(self) -> None:
        # what the game told is in its log: nothing of it over the help or a dialog
        self.app.clear_notifications()

    def on_screen_resume(self) -> None:
        if self.view is not None:
            self.refresh_view()

    def watch_mode(self) -> None:
        # (called before the screen is composed again: the decision as it stands goes over)
        self._kept = next((p.kept() for p in self.query(DecisionPrompt)), None)
        self.set_class(self.mode == "compact", "-compact")
        self.call_after_refresh(self._fit, self.app.size)
        self.call_after_refresh(self.focus_decision)
        self.call_after_refresh(self.show_told)   # (what was just said, in the new prompt too)

    def on_resize(self, event) -> None:
        mode = layout_for(event.size)
        if mode != self.mode:
            self.mode = mode
        else:
            self._fit(event.size)

    def _fit(self, size: Size) -> None:
        rows = map_rows(size, self.mode)
        for node in self.query("#main" if self.mode == "compact" else "#map"):
            node.styles.height = rows
        # one panel at a time: the notices come up under the map, over the lines that tell
        # the last happenings (the first line, who is deciding, stays), never over the map
        for rack in self.query(ToastRack):
            rack.styles.max_height = self._notice_rows(size) if self.mode == "compact" else None

    def _notice_rows(self, size: Size) -> int:
        """Rows the notices have under the map (one panel at a time)."""
        return max(2, size.height - 2 - map_rows(size, "compact") - 1)

    def focus_decision(self) -> None:
        """The options take the keys while there is a decision (never for a
        spectator, who has none: the footer offers no Choose then)."""
        if self.view is None or self.view.decision is None:
            return
        for c in self.query(Choices):
            c.focus()

    # --- driving the game ---------------------------------------------------------------------

    def show(self) -> None:
        self.refresh_view()

    def show_told(self) -> None:
        for p in self.query(DecisionPrompt):
            p.tell(self.told)

    def show_results(self) -> None:
        self.action_results()

    def refresh_view(self) -> None:
        with self.app.batch_update():
            for bar in self.query(StatusBar):
                bar.alert, bar.note = self.table_status()
            self.view = self.session.view()
            self._tell_chat()
            self._tell_notices()
            self.events = tuple(self.session.log)
            self.recent = worth_a_line(self.events, 4)
            self.gained = gained_this_turn(self.events, self.view)
            self._tell_news()
            if self.decision_is_new(self.view.decision):
                self._new_decision()
        self.refresh_bindings()   # (PlayScreen: the footer is drawn again only if its keys changed)

    def _tell_news(self) -> None:
        """Notices for random events, die rolls and whatever hits you, as they happen."""
        log = self.session.log
        if self._handing_over or not self.is_current:
            return  # told when the game screen is back
        viewer = self.session.viewer
        fresh = [e for e in log[self._noticed:] if notable(e, viewer)]
        self._noticed = len(log)
        if self._holding_notices():
            return  # your decision at 80×24: the summary since your last move tells it, marked
        if viewer is None and len(fresh) > 4 * self.NOTICES:  # a spectator catching up: the log tells it
            return
        if self.mode == "compact":
            self._tell_news_under_the_map(fresh, viewer)
            return
        for hit in (False, True):
            lines = [describe(e, viewer, self.view) for e in fresh if hits(e, viewer) == hit]
            if len(lines) > self.NOTICES:
                more = len(lines) - self.NOTICES + 1
                lines = lines[:self.NOTICES - 1] + [_("… and {n} more (s: since your last move).").format(n=more)]
            if lines:
                self.notify("\n".join(lines), title=_("This hits you") if hit else _("Happening now"),
                            severity="warning" if hit else "information", timeout=8 if hit else 6)

    def _tell_news_under_the_map(self, fresh: list, viewer: int | None) -> None:
        """One panel at a time: one notice, whole in the rows under the map, in place of
        the one before it; what hits you first, marked ``!`` as in the summary."""
        told = sorted(fresh, key=lambda e: not hits(e, viewer))
        if not told:
            return
        hit = hits(told[0], viewer)
        width = self.app.size.width - 4                        # the notice's edge and padding
        room = self._notice_rows(self.app.size) - 1            # under its title
        lines: list[str] = []
        for n, e in enumerate(told):
            line = ("! " if hits(e, viewer) else "") + describe(e, viewer, self.view)
            more = _("… and {n} more (s: since your last move).").format(n=len(told) - n)
            last = n == len(told) - 1
            if _rows(lines + [line], width) + (0 if last else _rows([more], width)) > room:
                lines.append(more)
                break
            lines.append(line)
        titles = (_("This hits you"), _("Happening now"))
        for old in [n for n in self.app._notifications if n.title in titles]:
            self.app._unnotify(old)
        self.notify("\n".join(lines), title=titles[0] if hit else titles[1],
                    severity="warning" if hit else "information", timeout=8 if hit else 6, markup=False)

    def _new_decision(self) -> None:
        """Your decision has come: what happened since your last one, marked on the map."""
        viewer = self.session.viewer
        since = self._since_of.setdefault(viewer, self._last_own_move(viewer))
        events = self.session.log[since:]
        if self.view.decision.kind == "window":   # (after others' moves, PlayScreen guards it)
            self.guard_keys()
        for widget in self.query(Summary):
            widget.viewer = viewer
        if self.mode == "compact":
            self.app.clear_notifications()  # nothing over the map and the options: the summary tells it
        told = any(notable(e, viewer) for e in events)
        if others_acted(events, viewer) or told:
            turn = next((e for e in reversed(self.session.log[:since]) if e.kind == "turn"), None)
            self.since = summary(events, viewer, self.view, turn.seat if turn else None,
                                 (turn.data or {}).get("amount") if turn else None)
            self.marks = changed_areas(events, viewer)
            worth = self.view.decision.kind in ("turn", "window") or told
            if self.mode == "compact" and self.panel == "map" and not self._auto_since and worth:
                self._auto_since = True
                self.action_show_panel("since")
            for box in self.query("#since"):
                box.scroll_home(animate=False)

    # --- what the person does -------------------------------------------------------------------

    @on(DecisionPrompt.Chosen)
    def _chosen(self, msg: DecisionPrompt.Chosen) -> None:
        self._choose(msg.index)

    def _choose(self, index: int) -> None:
        view = self.view
        if view is None or view.decision is None or self._handing_over:
            return
        if not 0 <= index < len(view.decision.options):
            return
        option = view.decision.options[index]
        if not self.answer(option):
            return
        if not (view.decision.kind == "window" and option == ("pass",)):
            # letting a threat pass is no move of yours: the summary keeps counting
            self._since_of[self.session.viewer] = len(self.session.log)
            self.marks = frozenset()
        if self._auto_since:
            self._auto_since = False
            if self.panel == "since":
                self.action_show_panel("map")
        self.pump()

    @on(DecisionPrompt.Highlighted)
    def _highlighted(self, msg: DecisionPrompt.Highlighted) -> None:
        words = (msg.text or "").split()
        areas = {AREA_IDS.index(w) for w in words if w in AREA_IDS}
        if not areas and msg.text is not None and self.view.decision is not None:
            # e.g. an interrupt window: the area the threat is in
            prompt = self.view.decision.prompt.replace("(", " ").replace(")", " ").split()
            areas = {AREA_IDS.index(w) for w in prompt if w in AREA_IDS}
        self.highlight = frozenset(areas)
        card = words[1] if len(words) > 1 and words[0] in ("play", "give", "discard", "interrupt") else None
        self.selected_card = card

    @on(CityMap.AreaClicked)
    def _area_clicked(self, msg: CityMap.AreaClicked) -> None:
        view = self.view
        if view is None or view.decision is None:
            return
        if not self.query_one(DecisionPrompt).click_area(msg.area):
            self.notify(_("No choice names {area} now.").format(area=area_names()[msg.area]),
                        severity="warning", timeout=3)

    def action_pick(self, index: int) -> None:
        """A digit: the option of that number, or the area of that number."""
        if self.view is None or self.view.decision is None or self._handing_over:
            return
        self.query_one(DecisionPrompt).press_digit(index + 1)

    def action_back(self) -> None:
        self.query_one(DecisionPrompt).back()

    def action_show_panel(self, name: str) -> None:
        if name != "since":
            self._auto_since = False
        self.panel = name
        for sw in self.query("#main").results(ContentSwitcher):
            sw.current = name
        self.focus_decision()

    def action_scroll_log(self, direction: int) -> None:
        """Page the log up or down, whatever has the focus (the log shows first);
        on a small terminal showing the summary since your last move, page that
        (what the others did may not fit)."""
        if self.mode == "compact" and self.panel in ("since", "hand", "players"):
            for box in self.query(f"#{self.panel}").results(VerticalScroll):
                if direction < 0:
                    box.scroll_page_up(animate=False)
                else:
                    box.scroll_page_down(animate=False)
            return
        if self.mode == "compact" and self.panel != "log":
            self.action_show_panel("log")
        for log in self.query(GameLog):
            if direction < 0:
                log.scroll_page_up(animate=False)
            else:
                log.scroll_page_down(animate=False)

    def action_results(self) -> None:
        from ankh.tui.games.morpork.screens.end import EndScreen
        if self.session.over:
            self.app.push_screen(EndScreen(self.session.view(), self.session))

    def action_title(self) -> None:
        self.app.action_to_title()

    def commands(self):
        """This game's commands for the command palette."""
        from textual.app import SystemCommand
        yield from self.table_commands()
        if self.mode == "compact":
            for name, title, help in (
                    ("since", _("Show what happened"), _("What each player did since your last move")),
                    ("map", _("Show the map"), _("The city, with what changed marked")),
                    ("hand", _("Show your hand"), _("Your cards with their full text")),
                    ("players", _("Show the players"), _("Money, pieces, cards, your personality")),
                    ("log", _("Show the log"), _("Everything that happened this game"))):
                if self.check_action("show_panel", (name,)):
                    yield SystemCommand(title, help, lambda n=name: self.action_show_panel(n))
        if self.session.path is not None:
            yield SystemCommand(_("Save"), _("Write the game to its save file now (it is saved after "
                                             "every move anyway)"), self.action_save)
        yield SystemCommand(_("Leave the game"), _("Back to the title screen (asks first)"),
                            self.action_leave)

    def action_save(self) -> None:
        self.session.save()
        self.notify(_("Saved as {path}.").format(path=self.session.path), timeout=4)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_panel":
            # a spectator has no hand, no aim: the players panel shows the table
            return self.mode == "compact" and not (self.session.spectating and parameters == ("hand",))
        if action in ("results", "title"):
            return self.session.over
        if action == "pick":
            return (not (self.session.spectating or self.session.over) and self.view is not None
                    and self.view.decision is not None)
        return super().check_action(action, parameters)   # the table's keys: undo, skip, chat, end, hint
