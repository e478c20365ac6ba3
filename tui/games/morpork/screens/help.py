"""Help: the rules in our own words, a searchable reference of every card,
area, event and personality, and the keys."""
from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Markdown, OptionList, Static, TabbedContent, TabPane
from textual.widgets.option_list import Option

from ankh.core.morpork.catalog import AREAS, CARDS, EVENTS, PERSONALITIES

from ankh.tui.i18n import _, Localised, N_, NP_, rules_text
from ankh.tui.games.morpork.text import (area_text, area_title, card_name, card_symbols, card_text, event_text, event_title,
                    interrupt_when, personality_name, personality_text)
from ankh.tui.games.morpork.widgets.board import neighbours

KEYS = N_("""\
Everywhere
  ctrl+p     command palette (search every command)
  ?  or F1   this help
  q          quit (on the title) / leave the game (it asks; the game is saved)
  c          a game on the network: say something to the table (chat)

Deciding (the prompt at the bottom)
  ↑ ↓        move between the options
  Enter      choose the highlighted option
  1 … 9      choose option 1 … 9 at once
  1 … 12     where the options are areas: the area's number, as on the map
             (type 1 then 2 for 12), then Enter
  Esc        back to the first step of a two-step choice
  u          take back your last choice (it says why when it cannot)
  mouse      click an option, or click an area on the map
  A new decision after other players' moves ignores keys for half a
  second (longer while keys keep coming), so keys pressed while the bots
  played never answer it.

While the bots play
  space      skip ahead: the bots play on at once until your decision

Looking around (80×24; larger terminals show everything at once)
  s          since your last move: what each player did, what hit you
  m          the map (areas that changed are marked 3*)
  h          your hand, with every card's text
  p          the players, your personality's progress, what you were shown
  l          the log of the whole game
  PgUp PgDn  scroll the log (from any panel but s, which they scroll)

After the game
  r          the results again    b  back to the board    t  title screen
""")


def reference() -> list[tuple[str, str, Text]]:
    """(kind, name, full text) for every card, area, event and personality."""
    out = []
    for c in CARDS:
        name = card_name(c["id"])
        deck = _("green-bordered card") if c["deck"] == "green" else _("brown-bordered card")
        body = Text.assemble((name, "bold"), f"  ({deck})\n",
                             (_("Symbols: "), "bold"), card_symbols(c["id"]) + "\n")
        body.append(card_text(c["id"]))
        if interrupt_when(c["id"]):
            body.append("\n")
            body.append(_("When: "), style="bold")
            body.append(interrupt_when(c["id"]))
        out.append((_("card"), name, body))
    for a in AREAS:
        adj = ", ".join(f"{n} {area_title(AREAS[n - 1]['id'])}" + (_(" (bridge)") if bridge else "")
                        for n, bridge in neighbours(a["number"]))
        name = area_title(a["id"])
        body = Text.assemble((f"{a['number']} {name}", "bold"),
                             "  " + _("(area, building ${cost})").format(cost=a["cost"]) + "\n",
                             (_("Borders: "), "bold"), adj + "\n",
                             (_("River: "), "bold"), (_("yes") if a["river"] else _("no")) + "\n",
                             (_("City Area card: "), "bold"), area_text(a["id"]))
        out.append((_("area"), name, body))
    for e in EVENTS:
        name = event_title(e["id"])
        out.append((_("event"), name, Text.assemble((name, "bold"), "  " + _("(random event)") + "\n",
                                                    event_text(e["id"]))))
    for p in PERSONALITIES:
        name = personality_name(p["id"])
        out.append((_("personality"), name,
                    Text.assemble((name, "bold"), "  " + _("(personality)") + "\n", personality_text(p["id"]))))
    return out


class HelpScreen(Localised, Screen):
    BINDINGS = [
        Binding("escape", "app.pop_screen", NP_("key", "Close")),
        Binding("tab", "app.focus_next", NP_("key", "Next field"), key_display="tab"),
        Binding("right", "next_tab(1)", NP_("key", "Rules/Cards/Keys"), key_display="←→", priority=True),
        Binding("left", "next_tab(-1)", show=False, priority=True),
        Binding("f1", "app.pop_screen", show=False),
    ]
    TABS = ("rules", "cards", "keys")

    def action_next_tab(self, step: int) -> None:
        """←→ go from tab to tab, wherever the focus is (but in the search field)."""
        tabs = self.query_one(TabbedContent)
        self.set_focus(None)  # a focused widget left behind would bring its tab back
        tabs.active = self.TABS[(self.TABS.index(tabs.active) + step) % len(self.TABS)]
        if tabs.active == "cards":
            self.query_one("#search", Input).focus()
        else:
            self.query_one(f"#{tabs.active}", TabPane).query_one(VerticalScroll).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_tab" and isinstance(self.focused, Input) and self.focused.value:
            return False  # the arrows move in what is typed
        return True

    def __init__(self, tab: str = "rules") -> None:
        super().__init__()
        self.tab = tab
        self.entries = reference()
        self.shown: list[int] = []

    def compose(self) -> ComposeResult:
        with TabbedContent(initial=self.tab, id="help-tabs"):
            with TabPane(_("Rules"), id="rules"):
                with VerticalScroll():
                    yield Markdown(rules_text(), id="rules-text")
            with TabPane(_("Cards"), id="cards"):
                with Vertical():
                    yield Input(placeholder=_("Search cards, areas, events, personalities…"), id="search")
                    with Horizontal():
                        yield OptionList(id="entries")
                        with VerticalScroll(id="entry-scroll"):
                            yield Static(id="entry")
            with TabPane(_("Keys"), id="keys"):
                with VerticalScroll():
                    yield Static(_(KEYS), id="keys-text")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._filter("")
        self.call_after_refresh(self._focus_page)

    def _focus_page(self) -> None:
        """The rules and the keys scroll by keyboard as soon as they are shown."""
        tabs = self.query_one(TabbedContent)
        if tabs.active != "cards":
            self.query_one(f"#{tabs.active}", TabPane).query_one(VerticalScroll).focus()

    def show_tab(self, tab: str) -> None:
        if self.is_mounted:
            self.query_one(TabbedContent).active = tab
            self.call_after_refresh(self._focus_page)
        else:
            self.tab = tab

    @on(Input.Changed, "#search")
    def _search(self, event: Input.Changed) -> None:
        self._filter(event.value)

    @on(Input.Submitted, "#search")
    def _to_list(self) -> None:
        self.query_one("#entries", OptionList).focus()

    def _filter(self, query: str) -> None:
        q = query.strip().lower()
        self.shown = [i for i, (kind, name, body) in enumerate(self.entries)
                      if not q or q in body.plain.lower() or q in kind]
        entries = self.query_one("#entries", OptionList)
        entries.set_options(
            Option(Text.assemble(self.entries[i][1], (f"  {self.entries[i][0]}", "dim")), id=str(i))
            for i in self.shown)
        if self.shown:
            entries.highlighted = 0
            self._show(self.shown[0])
        else:
            self.query_one("#entry", Static).update(Text(_("Nothing matches."), style="dim"))

    @on(OptionList.OptionHighlighted, "#entries")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(int(event.option.id))

    def _show(self, i: int) -> None:
        self.query_one("#entry", Static).update(self.entries[i][2])

    @on(TabbedContent.TabActivated)
    def _tab(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id == "cards":
            self.query_one("#search", Input).focus()
