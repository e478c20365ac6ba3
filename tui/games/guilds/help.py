"""The guild variant's help: the rules page and the keys."""
from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown, Static, TabbedContent, TabPane, Tabs

from ankh.tui.i18n import _, Localised, N_, NP_, rules_text

KEYS = N_("""\
Everywhere
  ctrl+p     command palette        ?  or F1   this help
  q          leave the game (it asks; the game is saved)

Deciding (the prompt at the bottom)
  ↑ ↓ Enter  move between the options, choose one
  1 … 9      choose option 1 … 9 at once (numbered options)
  0 … 43     where the options are sites: type the site's number (reversed
             on the map; two digits for 10 and up), then Enter
  Backspace  take back a digit typed
  t          the trade composer: ↑↓ kind, ← give, → ask for, p partner
             (everybody, a seat, the bank), Enter send; an offer made to
             you: a accept, d decline, Enter counter, 1 … 9 deal
  u          take back your last choice (it says why when it cannot)
  space      while the bots play: skip ahead to your next decision

Looking around (80×24; larger terminals show everything at once)
  m map   h hand, bank rates and costs   p players and guilds
  s since your last move   l log   PgUp PgDn scroll the log

After the game
  r          the results again    b  back to the board    t  title screen
""")


class HelpScreen(Localised, Screen):
    """The rules and the keys, each in a pane that scrolls by keyboard from the
    start (↑↓ PgUp PgDn Home End, space a page on), ←→ from one to the other."""
    BINDINGS = [Binding("escape", "app.pop_screen", NP_("key", "Back")),
                Binding("q", "app.pop_screen", show=False),
                Binding("f1", "app.pop_screen", show=False),
                Binding("right", "next_tab(1)", NP_("key", "Rules/Keys"), key_display="←→", priority=True),
                Binding("left", "next_tab(-1)", show=False, priority=True),
                Binding("space", "page_down", show=False)]
    TABS = ("rules", "keys")

    def __init__(self, tab: str = "rules") -> None:
        super().__init__()
        self.tab = tab if tab in self.TABS else "rules"

    def compose(self) -> ComposeResult:
        with TabbedContent(initial=self.tab):
            with TabPane(_("Rules"), id="rules"):
                with VerticalScroll():
                    yield Markdown(rules_text("ankh.tui.games.guilds"))
            with TabPane(_("Keys"), id="keys"):
                with VerticalScroll():
                    yield Static(_(KEYS))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(Tabs).can_focus = False   # ←→ change the tab; Tab leaves the keys on the page
        self.call_after_refresh(self._focus_page)

    def _page(self) -> VerticalScroll:
        tabs = self.query_one(TabbedContent)
        return self.query_one(f"#{tabs.active}", TabPane).query_one(VerticalScroll)

    def _focus_page(self) -> None:
        """The keys scroll the page shown (not the row of tabs above it)."""
        self._page().focus()

    @on(TabbedContent.TabActivated)
    def _tab(self, _event) -> None:
        self.call_after_refresh(self._focus_page)

    def action_next_tab(self, step: int) -> None:
        tabs = self.query_one(TabbedContent)
        tabs.active = self.TABS[(self.TABS.index(tabs.active) + step) % len(self.TABS)]
        self._focus_page()

    def action_page_down(self) -> None:
        self._page().scroll_page_down(animate=False)

    def show_tab(self, tab: str) -> None:
        tab = tab if tab in self.TABS else "rules"
        if self.is_mounted:
            self.query_one(TabbedContent).active = tab
            self.call_after_refresh(self._focus_page)
        else:
            self.tab = tab
