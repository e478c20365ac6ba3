"""The pictures at the end of a game, in every game: the dice against their
odds, each seat's standing over the turns, and where each seat's cards (or
money and minions) came from and went (the figures: :mod:`ankh.core.stats`).

They are drawn with block characters, seats by colour and by letter (R Y G B;
in French R J V B).  :class:`StatsScreen` shows them: one at a time with a key
to switch on a small terminal, side by side on a large one; ``ankh replay FILE
--stats`` prints them (:func:`print_stats`).  The figures are gathered by
replaying a record or a networked game's public log (:func:`stats_of_record`,
:func:`stats_of_log`), so a seat, a spectator and a replay see the same."""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ankh.core.stats import Stats, tally
from ankh.tui.i18n import N_, NP_, Localised, _, ngettext, pgettext
from ankh.tui.seats import SEAT_STYLE, seat_letter

BLOCKS = " ▁▂▃▄▅▆▇█"
WIDE = 110   # from this width, the pictures side by side

#: The names of the figures on screen.
SERIES_WORDS = {"vp": N_("victory points"), "money": N_("money"), "minions": N_("minions on the board"),
                "buildings": N_("buildings"), "areas": N_("areas controlled")}
FLOW_WORDS = {
    "start": (N_("setup"), "", ""), "production": (N_("production"), "", ""),
    "bank": (N_("bank trades"), "", ""), "trade": (N_("player trades"), "", ""),
    "steal": (N_("steals"), "", ""), "beggars": (N_("the Beggars"), "", ""),
    "library": (N_("the Library"), "", ""), "laboratory": (N_("the Laboratory"), "", ""),
    "parchments": (N_("bought with parchments"), "", ""), "seven": (N_("lost to a seven"), "", ""), "spent": (N_("building, buying and the rest"), "", ""),
    "cards": (N_("cards"), N_("drawn"), N_("played")), "money": (N_("money"), N_("earned"), N_("paid")),
    "minions": (N_("minions on the board"), N_("placed"), N_("lost")),
}


# --- the figures, from a record or a public log ------------------------------------------

def stats_of_record(text: str) -> Stats:
    """The figures of a record (of any game)."""
    from ankh.core.game import game_of_record, get
    from ankh.net.play.local import LocalGame
    game = get(game_of_record(text))
    record = game.parse_record(text)
    t = tally(game.id, record.players)
    LocalGame(record, None, game, watch=t.see)
    return t.result()


def stats_of_log(roster: Any, frames: Any) -> Stats:
    """The figures of a networked game's public log (what every seat and spectator saw)."""
    from ankh.net.play.peer import replay
    t = tally(roster.kind, roster.size)
    replay(roster, frames, watch=t.see)
    return t.result()


def stats_of_ledger(ledger: Any) -> Stats:
    """The figures of the networked game a seat or a spectator followed (its ledger's log)."""
    return stats_of_log(ledger.roster, [f for _op, frames in ledger.log for f in frames])


# --- the pictures ------------------------------------------------------------------------

def _bar(value: float, most: float, width: int) -> str:
    """A bar of ``value`` out of ``most`` in ``width`` cells, in eighths."""
    eighths = round(8 * width * value / most) if most else 0
    return "█" * (eighths // 8) + (BLOCKS[eighths % 8] if eighths % 8 else "")


def dice_picture(stats: Stats, width: int) -> Text:
    """Each total's count (a bar) beside the count its odds expect (a mark)."""
    n, sides = stats.dice
    counts, expected = stats.counts(), stats.expected()
    t = Text()
    title = ngettext("The dice: {n} roll of {dice}", "The dice: {n} rolls of {dice}",
                     len(stats.rolls)).format(n=len(stats.rolls), dice=f"{n}d{sides}" if n > 1
                                                      else f"d{sides}")
    t.append(title + "\n", style="bold")
    if not stats.rolls:
        t.append(_("No die was rolled in this game.") + "\n")
        return t
    t.append(_("█ rolled   │ expected") + "\n", style="dim")
    most = max([*counts.values(), *expected.values(), 1])
    room = max(4, width - 15)
    for total in stats.totals():
        cells = list(_bar(counts[total], most, room).ljust(room))
        mark = min(room - 1, round(room * expected[total] / most))
        t.append(f"{total:>2} ")
        t.append("".join(cells[:mark]), style="bold cyan")
        t.append("│", style="bold yellow")
        t.append("".join(cells[mark + 1:]).rstrip(), style="bold cyan")
        t.append(f" {counts[total]}")
        t.append(f" ({decimal(expected[total])})\n", style="dim")
    return t


def decimal(x: float) -> str:
    """``x`` to a tenth, written as the language writes a decimal: 0.4, 0,4."""
    return f"{x:.1f}".replace(".", pgettext("decimal separator", "."))


def sparkline(values: list[int], width: int, low: int, high: int) -> str:
    """``values`` as one line of block characters, ``width`` cells at most
    (several turns to a cell when there are more), on a scale ``low``..``high``."""
    if not values:
        return ""
    if len(values) > width:
        step = len(values) / width
        values = [values[min(len(values) - 1, int((i + 1) * step) - 1)] for i in range(width)]
    span = high - low or 1
    return "".join(BLOCKS[1 + round(7 * (v - low) / span)] for v in values)


def race_picture(stats: Stats, width: int) -> Text:
    """Each seat's standing over the turns: a line per seat and per figure."""
    t = Text()
    t.append(_("The race, turn by turn") + "\n", style="bold")
    turns = max((len(v) for series in stats.series.values() for v in series), default=0)
    t.append(ngettext("{n} turn; the last value at the right", "{n} turns; the last value at the right",
                      max(0, turns - 1)).format(n=max(0, turns - 1)) + "\n", style="dim")
    for name, per_seat in stats.series.items():
        t.append(_(SERIES_WORDS[name]) + "\n", style="bold")
        values = [v for seat in per_seat for v in seat]
        low, high = min(values, default=0), max(values, default=0)
        for seat, line in enumerate(per_seat):
            t.append(f" {seat_letter(seat)} ", style=SEAT_STYLE[seat])
            t.append(sparkline(line, max(4, width - 9), low, high), style=SEAT_STYLE[seat])
            t.append(f" {line[-1] if line else 0}\n")
    if any(stats.personalities):
        from ankh.tui.games import ui
        names = getattr(ui(stats.game), "personality_name", str)
        t.append(_("Personalities") + "\n", style="bold")
        for seat, pid in enumerate(stats.personalities):
            if pid:
                t.append(f" {seat_letter(seat)} ", style=SEAT_STYLE[seat])
                t.append(names(pid) + "\n")
    return t


def flows_picture(stats: Stats, width: int) -> Text:
    """Per seat, what each way brought (+) and took away (−)."""
    t = Text()
    t.append(_("Where the cards came from and went") if stats.game == "guilds"
             else _("Cards, money and minions"), style="bold")
    t.append("\n")
    for name, per_seat in stats.flows.items():
        if not any(g or lost for g, lost in per_seat):
            continue
        title, gained, lost = FLOW_WORDS[name]
        head = _(title)
        if gained:
            head += f"  (+ {_(gained)}, − {_(lost)})"
        t.append(head + "\n", style="bold")
        most = max(max(g, lo) for g, lo in per_seat) or 1
        room = max(2, (width - 16) // 2)
        for seat, (g, lo) in enumerate(per_seat):
            t.append(f" {seat_letter(seat)} ", style=SEAT_STYLE[seat])
            t.append(f"+{g:<3}", style="green")
            t.append(_bar(g, most, room).ljust(room), style=SEAT_STYLE[seat])
            t.append(f" −{lo:<3}", style="red")
            t.append(_bar(lo, most, room) + "\n", style=SEAT_STYLE[seat])
    return t


PICTURES = (dice_picture, race_picture, flows_picture)


def print_stats(stats: Stats, width: int = 80) -> None:
    """The pictures one after the other (``ankh replay FILE --stats``)."""
    from rich.console import Console
    console = Console(width=width, highlight=False)
    console.print(Text(_("Statistics of the game"), style="bold"))
    for draw in PICTURES:
        console.print()
        console.print(draw(stats, width))


class ShowsStats:
    """An end screen's ``s``: the statistics of the game (its ``session``'s)."""

    session: Any = None

    def action_stats(self) -> None:
        if self.session is not None:
            self.app.push_screen(StatsScreen(self.session.stats()))  # type: ignore[attr-defined]


class StatsScreen(Localised, Screen):
    """The pictures: side by side on a wide terminal, else one at a time
    (``tab`` to the next)."""

    BINDINGS = [
        Binding("tab,right", "next", NP_("key", "Next picture")),
        # (shown where the picture is taller than the screen: the focused picture scrolls)
        Binding("down", "scroll_picture(1)", NP_("key", "Scroll"), key_display="↑↓", priority=True),
        Binding("up", "scroll_picture(-1)", show=False, priority=True),
        Binding("escape,b,s", "back", NP_("key", "Back")),
        Binding("q", "back", NP_("key", "Quit"), show=False),
    ]
    DEFAULT_CSS = """
    StatsScreen Horizontal { height: 1fr; }
    StatsScreen VerticalScroll { width: 1fr; padding: 0 1; }
    """

    def __init__(self, stats: Stats):
        super().__init__()
        self.stats = stats
        self.shown = 0

    def compose(self) -> ComposeResult:
        with Horizontal():
            for i in range(len(PICTURES)):
                with VerticalScroll(id=f"picture-{i}"):
                    yield Static(id=f"drawn-{i}")
        yield Footer()

    def on_mount(self) -> None:
        self._draw()
        self.query_one("#picture-0").focus()

    def action_back(self) -> None:
        """Back, or out of ``ankh replay --stats`` where this is the only screen."""
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        wide = self.size.width >= WIDE
        width = (self.size.width // len(PICTURES) if wide else self.size.width) - 3
        for i, draw in enumerate(PICTURES):
            box = self.query_one(f"#picture-{i}")
            box.display = wide or i == self.shown
            picture = draw(self.stats, max(20, width))
            if not wide:   # one at a time: which one, and how to see the others
                picture = Text(_("Picture {n} of {count} (tab: the next)").format(n=i + 1, count=len(PICTURES)),
                               style="dim") + Text("\n") + picture
            self.query_one(f"#drawn-{i}", Static).update(picture)
        self.call_after_refresh(self.refresh_bindings)   # the arrows, offered where a picture runs on

    def _shown_box(self):
        return self.query_one(f"#picture-{self.shown}", VerticalScroll)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "scroll_picture":
            return self.is_mounted and self._shown_box().max_scroll_y > 0
        return True

    def action_scroll_picture(self, rows: int) -> None:
        self._shown_box().scroll_relative(y=rows, animate=False)

    def action_next(self) -> None:
        """The next picture: shown alone on a small terminal; on a wide one, the
        one the arrows scroll."""
        self.shown = (self.shown + 1) % len(PICTURES)
        self._draw()
        self.query_one(f"#picture-{self.shown}").focus()


class StatsApp(App):
    """The pictures alone (``ankh replay FILE --stats`` at a terminal), until the player leaves."""

    def __init__(self, stats: Stats):
        super().__init__()
        self.stats = stats

    def on_mount(self) -> None:
        self.push_screen(StatsScreen(self.stats))


def show_stats(stats: Stats) -> None:
    StatsApp(stats).run()
