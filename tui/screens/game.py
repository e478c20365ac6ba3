"""The game: the map, your hand, the players, the log and the decision.

The screen holds the behaviour.  It asks the session what the game waits
for; a person's decision goes to the prompt, a bot's is thought out in a
worker that only posts :class:`BotDecided`.  Widgets get the seat's view
through ``data_bind`` and post what the person chose.
"""
from __future__ import annotations

from functools import partial

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer

from ankh.core.views import PlayerView

from ..session import GameSession, Next
from ..text import AREA_IDS
from ..widgets.board import CityMap, map_height
from ..widgets.choices import Choices
from ..widgets.hand import Hand
from ..widgets.log import GameLog
from ..widgets.players import Players, You
from ..widgets.prompt import DecisionPrompt
from ..widgets.status import StatusBar

WIDE = Size(120, 34)


def layout_for(size: Size) -> str:
    return "wide" if size.width >= WIDE.width and size.height >= WIDE.height else "compact"


def map_rows(size: Size, mode: str) -> int:
    """Rows for the map: taller boxes when the terminal has room to spare."""
    spare = size.height - 2 - (7 if mode == "compact" else 10 + 8)
    for h in (5, 4):
        if spare >= map_height(h):
            return map_height(h)
    return map_height(3)


class BotDecided(Message):
    """A bot has thought out its answer to ``next``."""

    def __init__(self, token: int, next: Next, option: tuple) -> None:
        super().__init__()
        self.token = token
        self.next = next
        self.option = option


class GameScreen(Screen):
    BINDINGS = [
        Binding("1", "pick(0)", "Pick", key_display="1-9"),
        *[Binding(str(i), f"pick({i - 1})", show=False) for i in range(2, 10)],
        Binding("u", "undo", "Undo"),
        Binding("m", "show_panel('map')", "Map"),
        Binding("h", "show_panel('hand')", "Hand"),
        Binding("p", "show_panel('players')", "Players"),
        Binding("l", "show_panel('log')", "Log"),
        Binding("r", "results", "Results"),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("f1", "app.help", show=False),
        Binding("q", "leave", "Quit"),
    ]

    mode: reactive[str] = reactive("compact", recompose=True)
    view: reactive[PlayerView | None] = reactive(None)
    events: reactive[tuple[str, ...]] = reactive(tuple)
    recent: reactive[tuple[str, ...]] = reactive(tuple)
    highlight: reactive[frozenset[int]] = reactive(frozenset)
    selected_card: reactive[str | None] = reactive(None)
    panel: reactive[str] = reactive("map")

    def __init__(self, session: GameSession, bot_delay: float = 0.0) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self._token = 0
        self._next: Next | None = None
        self._ended = False
        self._handing_over = False
        self._keys: tuple = ()
        self.set_reactive(GameScreen.mode, layout_for(self.app.size))

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status").data_bind(GameScreen.view)
        prompt = DecisionPrompt(id="prompt", roomy=self.mode == "wide").data_bind(
            GameScreen.view, recent=GameScreen.recent)
        board = CityMap(id="map").data_bind(GameScreen.view, highlight=GameScreen.highlight)
        if self.mode == "wide":
            with Horizontal(id="table"):
                with Vertical(id="left"):
                    yield board
                    yield prompt
                    with VerticalScroll(id="hand-panel"):
                        yield Hand().data_bind(GameScreen.view, selected=GameScreen.selected_card)
                with Vertical(id="right"):
                    you = You(id="you").data_bind(GameScreen.view)
                    you.border_title = "Your aim"
                    yield you
                    players = Players(id="players").data_bind(GameScreen.view)
                    players.border_title = "Players"
                    yield players
                    log = GameLog(id="log").data_bind(events=GameScreen.events)
                    log.border_title = "Log"
                    yield log
        else:
            with ContentSwitcher(id="main", initial=self.panel):
                yield board
                with VerticalScroll(id="hand"):
                    yield Hand(detailed=True).data_bind(GameScreen.view, selected=GameScreen.selected_card)
                with VerticalScroll(id="players"):
                    yield You(id="you").data_bind(GameScreen.view)
                    yield Players().data_bind(GameScreen.view)
                yield GameLog(id="log").data_bind(events=GameScreen.events)
            yield prompt
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._fit(self.app.size)
        self.pump()
        self._focus_choices()

    def watch_mode(self) -> None:
        self.call_after_refresh(self._fit, self.app.size)
        self.call_after_refresh(self._focus_choices)

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

    def _focus_choices(self) -> None:
        for c in self.query(Choices):
            c.focus()

    # --- driving the game ---------------------------------------------------------------------

    def pump(self) -> None:
        """Let the game run until a person or a bot must decide, then show it.
        With ``bot_delay`` 0 the bots answer at once, without a worker."""
        self._token += 1
        nxt = self.session.next()
        while nxt.kind == "bot" and self.bot_delay <= 0:
            self.session.apply_bot(nxt, self.session.think_job(nxt)())
            nxt = self.session.next()
        self.session.save()
        self._next = nxt
        if nxt.kind == "person" and nxt.seat != self.session.viewer:
            self._hand_over(nxt.seat)
        self.refresh_view()
        if nxt.kind == "bot":
            self.set_timer(self.bot_delay, partial(self._think, self._token))
        elif nxt.kind == "over" and not self._ended:
            self._ended = True
            self.action_results()

    def refresh_view(self) -> None:
        with self.app.batch_update():
            self.view = self.session.view()
            self.events = tuple(e.text for e in self.session.log)
            self.recent = self.events[-4:]
        keys = (self.view.decision is not None, self.session.can_undo(), self.session.over)
        if keys != self._keys:
            self._keys = keys
            self.refresh_bindings()

    def _think(self, token: int) -> None:
        if token != self._token or self._next is None or self._next.kind != "bot":
            return
        self._run_bot(self.session.think_job(self._next), token, self._next)

    @work(thread=True, exclusive=True, group="bots")
    def _run_bot(self, job, token: int, nxt: Next) -> None:
        self.post_message(BotDecided(token, nxt, job()))

    @on(BotDecided)
    def _bot_decided(self, msg: BotDecided) -> None:
        if msg.token != self._token:
            return
        self.session.apply_bot(msg.next, msg.option)
        self.pump()

    def _hand_over(self, seat: int) -> None:
        """Several people at one keyboard: hide the board until the next one is there."""
        from .dialogs import HandOver

        def done(_=None) -> None:
            self.session.viewer = seat
            self._handing_over = False
            self.refresh_view()
            self._focus_choices()

        self._handing_over = True
        self.app.push_screen(HandOver(seat), done)

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
        self.session.choose(view.decision.options[index])
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
        aid = AREA_IDS[msg.area]
        matches = [i for i, t in enumerate(view.option_texts) if aid in t.split()]
        if not matches:
            self.notify(f"No option names {aid} now.", severity="warning", timeout=3)
            return
        prompt = self.query_one(DecisionPrompt)
        current = prompt.highlighted
        if len(matches) == 1 and current == matches[0]:
            self._choose(current)
        elif current in matches:
            prompt.highlight(matches[(matches.index(current) + 1) % len(matches)])
        else:
            prompt.highlight(matches[0])

    def action_pick(self, index: int) -> None:
        self._choose(index)

    def action_undo(self) -> None:
        if not self.session.can_undo():
            self.notify("Nothing to take back: new information has appeared since.", timeout=3)
            return
        self.session.undo()
        self.notify("Took back your last choice.", timeout=2)
        self.pump()

    def action_show_panel(self, name: str) -> None:
        self.panel = name
        for sw in self.query("#main").results(ContentSwitcher):
            sw.current = name
        self._focus_choices()

    def action_results(self) -> None:
        from .end import EndScreen
        if self.session.over:
            self.app.push_screen(EndScreen(self.session.view()))

    def action_leave(self) -> None:
        self._token += 1  # forget any bot still thinking
        where = f" It is saved as {self.session.path.name}." if self.session.path else ""
        self.app.notify(f"Left the game.{where}", timeout=4)
        self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_panel":
            return self.mode == "compact"
        if action == "results":
            return self.session.over
        if action in ("undo", "pick") and self.session.over:
            return False
        if action == "undo":
            return True if self.session.can_undo() else None
        if action == "pick":
            return True if self.view is not None and self.view.decision is not None else None
        return True
