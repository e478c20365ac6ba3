"""The guild variant's help: the rules page and the keys."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Markdown, Static, TabbedContent, TabPane

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
    BINDINGS = [Binding("escape", "app.pop_screen", NP_("key", "Back")),
                Binding("q", "app.pop_screen", show=False)]

    def __init__(self, tab: str = "rules") -> None:
        super().__init__()
        self.tab = tab if tab in ("rules", "keys") else "rules"

    def compose(self) -> ComposeResult:
        with TabbedContent(initial=self.tab):
            with TabPane(_("Rules"), id="rules"):
                yield Markdown(rules_text("ankh.tui.games.guilds"))
            with TabPane(_("Keys"), id="keys"):
                yield Static(_(KEYS))
        yield Footer(compact=True)

    def show_tab(self, tab: str) -> None:
        tab = tab if tab in ("rules", "keys") else "rules"
        if self.is_mounted:
            self.query_one(TabbedContent).active = tab
        else:
            self.tab = tab
