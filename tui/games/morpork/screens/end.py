"""The end of the game: personalities revealed, who won and why, the points."""
from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ankh.core.morpork.model import COLOURS

from ankh.tui.i18n import _, Localised, NP_
from ankh.tui.review import ShowsReview
from ankh.tui.stats import ShowsStats
from ankh.tui.games.morpork.text import (PERSONALITY, _assemble, area_title, personality_name, score_parts, seat_tag,
                                         win_condition)


def why(view) -> Text:
    """Who won and why, then the winning personality's card."""
    t = verdict(view)
    o = view.outcome
    pid = (o.personalities[o.winners[0]] if o.personalities else o.detail) if o.reason == "personality" else None
    if pid in PERSONALITY:
        t.append("\n")
        t.append(win_condition(pid), style="italic")
    return t


def verdict(view) -> Text:
    """Who won and why, in a sentence."""
    o = view.outcome
    names = Text(_(" and ")).join(seat_tag(w) for w in o.winners)
    if o.reason == "personality":
        w = o.winners[0]
        pid = o.personalities[w] if o.personalities else o.detail
        sentence = _("{winners} wins: {personality} met the win condition at the start of the turn.")
    elif o.reason == "vimes":
        pid = None
        sentence = _("{winners} wins: the draw pile ran out, and Commander Vimes wins when that happens.")
    elif o.detail == "riots":
        pid = None
        sentence = (_("{winners} wins on points: Riots broke out with 8 or more trouble markers on the board.")
                    if len(o.winners) == 1 else
                    _("{winners} share the win on points: Riots broke out with 8 or more trouble markers "
                      "on the board."))
    else:
        pid = None
        sentence = (_("{winners} wins on points: the draw pile ran out and nobody had won.")
                    if len(o.winners) == 1 else
                    _("{winners} share the win on points: the draw pile ran out and nobody had won."))
    t = _assemble(sentence, winners=names, personality=personality_name(pid) if pid else "")
    if o.reason == "points" and o.scores:
        t.append_text(tie_broken(view))
    return t


def tie_broken(view) -> Text:
    """Who had as many points as the winners, and the City Area card that broke the tie
    (the most valuable one held), where a tie was broken."""
    o = view.outcome
    top = o.scores[o.winners[0]]
    others = [s for s in range(view.players) if s not in o.winners and o.scores[s] == top]
    if not others:
        return Text()
    best = max(view.seats[o.winners[0]].city_cards, key=lambda a: view.areas[a].cost)
    return _assemble(" " + _("Tied on {points} points with {others}: the most valuable City Area card held, "
                             "{area} (${cost}), breaks the tie."),
                     points=str(top), others=Text(_(" and ")).join(seat_tag(s) for s in others),
                     area=area_title(view.areas[best].id), cost=str(view.areas[best].cost))


def table(view) -> Table:
    o = view.outcome
    tb = Table(title=_("Points") if o.scores is not None else _("Personalities"), expand=False,
               title_style="bold", header_style="bold")
    tb.add_column(_("Player"))
    tb.add_column(_("Personality"))
    if o.scores is not None:
        for col in (_("Minions"), _("Buildings"), _("Money"), _("Loans"), _("Total")):
            tb.add_column(col, justify="right")
    for s in range(view.players):
        pid = o.personalities[s] if o.personalities else view.seats[s].personality
        name = seat_tag(s)
        if s in o.winners:
            name.append(" ★", style="bold")
        row = [name, personality_name(pid)]
        if o.scores is not None:
            m, b, money, loans = score_parts(view, s)
            row += [str(m), str(b), f"${money}", str(loans) if loans else "", Text(str(o.scores[s]), style="bold")]
        tb.add_row(*row)
    return tb


class EndScreen(ShowsReview, ShowsStats, Localised, Screen):
    BINDINGS = [
        Binding("b", "app.pop_screen", NP_("key", "Board")),
        Binding("s", "stats", NP_("key", "Statistics")),
        Binding("r", "review", NP_("key", "Review")),
        Binding("a", "review_every_card", NP_("key", "Review (every card)")),
        Binding("t", "app.to_title", NP_("key", "Title")),
        Binding("q", "app.quit", NP_("key", "Quit")),
    ]

    def __init__(self, view, session=None) -> None:
        super().__init__()
        self.final = view
        self.session = session

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="end"):
            with Center():
                yield Static(Text(_("The game is over"), style="bold reverse"), id="end-title")
            with Center():
                with Vertical(id="end-body"):
                    yield Static(why(self.final), id="why")
                    yield Static(Group(table(self.final)), id="points")
                    yield Static(Text(_("b: look at the final board   s: statistics   t: title screen   q: quit"),
                                      style="dim"), id="end-keys")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        # The last moves' notices would cover the result; the log keeps them ('b').
        self.app.clear_notifications()

    @property
    def winners(self) -> list[str]:
        return [COLOURS[w] for w in self.final.outcome.winners]
