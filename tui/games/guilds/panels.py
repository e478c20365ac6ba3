"""What the guild screen shows beside the map, as rich text from a seat's
view: your hand, the players, the guild table, the bank rates, the costs, the
log and what happened since your last move."""
from __future__ import annotations

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ankh.tui.i18n import _, language, ngettext
from ankh.tui.seats import letter, seat_tag

from .text import RANK_WORDS, RESOURCE_STYLE, costs, costs_short, describe, kind_name

def hidden_vp(view, seat: int) -> int:
    """Vetinari tokens ``seat`` holds that this view can see."""
    return len(view.known_vetinari(seat))


def hand(view, seat: int | None) -> RenderableType:
    """Your hand: resources, parchments, development tokens, your standing
    (a spectator has none: the players panel shows the table)."""
    if seat is None:
        return Text(_("You are watching: how many cards each player holds is in the players panel."), style="dim")
    counts = view.hand(seat) + [view.parch[seat]]
    # each count with its kind as one piece: a narrow panel wraps between kinds, never inside one
    cards = Columns([Text.assemble((f"{n} ", "bold"), (kind_name(k, n), RESOURCE_STYLE[k]))
                     for k, n in enumerate(counts)], padding=(0, 2))
    t = Text()
    tokens = [view.dcard[h] for h in view.dev[seat]]
    guards = sum(1 for c in tokens if c and c.startswith("guard"))
    vets = sum(1 for c in tokens if c and c.startswith("vetinari"))
    t.append(_("Hidden tokens: {guards}, {vetinari}").format(
        guards=ngettext("{n} guard", "{n} guards", guards).format(n=guards),
        vetinari=ngettext("{n} Vetinari", "{n} Vetinari", vets).format(n=vets)))
    shown, hidden = view.vp(seat), hidden_vp(view, seat)
    t.append("\n")
    t.append(ngettext("VP: {shown} + {hidden} hidden = {total} of 12", "VP: {shown} + {hidden} hidden = {total} of 12",
                      hidden).format(
        shown=shown, hidden=hidden, total=shown + hidden), "bold")
    t.append("\n" + _("Receipts {r} · guards up {g} · arrests {a}").format(
        r=view.rcpt[seat], g=view.gup[seat], a=view.arrests[seat]))
    if view.rank[seat]:
        t.append(" · " + _(RANK_WORDS[view.rank[seat]]), "bold")
    return Group(cards, t)


def players(view, viewer: int | None) -> Text:
    """Each player's public standing: VP shown + hidden ("?" for others),
    cards in hand, parchments, tokens, pieces in supply, receipts, guards
    face up, arrests and rank."""
    t = Text()
    for q in range(view.players):
        if q:
            t.append("\n")
        t.append_text(seat_tag(q))
        t.append(" ◀ " if q == view.active and view.outcome is None else "   ", "bold")
        hidden = str(hidden_vp(view, q)) if q == viewer else ("?" if view.dev[q] else "0")
        t.append(_("VP {shown}+{hidden}").format(shown=view.vp(q), hidden=hidden), "bold")
        t.append(" · " + ngettext("{n} card · {p} parch.", "{n} cards · {p} parch.", view.hand_size(q)).format(
            n=view.hand_size(q), p=view.parch[q]))
        t.append("\n   " + ngettext("·{f} ▲{h} ■{v} · {n} token · receipts {r}",
                                     "·{f} ▲{h} ■{v} · {n} tokens · receipts {r}", len(view.dev[q])).format(
            f=view.sup[q * 3], h=view.sup[q * 3 + 1], v=view.sup[q * 3 + 2], n=len(view.dev[q]),
            r=view.rcpt[q]), "dim" if q != viewer else "")
        if view.gup[q] or view.arrests[q] or view.rank[q]:
            t.append("\n   " + _("guards up {g} · arrests {a}").format(g=view.gup[q], a=view.arrests[q]))
            if view.rank[q]:
                t.append(" · " + _(RANK_WORDS[view.rank[q]]), "bold")
    return t


def guilds(view) -> Table:
    """Guild points per player, members (3+ points) starred, the president and the lock."""
    tb = Table(box=None, padding=(0, 1), header_style="bold", expand=False)
    tb.add_column(_("Guild"))
    for q in range(view.players):
        tb.add_column(letter(q))
    tb.add_column(_("President"))
    for g in range(5):
        row: list = [Text(kind_name(g), RESOURCE_STYLE[g])]
        for q in range(view.players):
            n = view.gp[q * 5 + g]
            row.append(Text(f"{n}{'*' if n >= 3 else ''}", "bold" if view.pres[g] == q else ""))
        p = view.pres[g]
        pres = seat_tag(p) if p >= 0 else Text("—", "dim")
        if view.lock[g]:
            pres.append(" " + _("(locked)"), "italic")
        row.append(pres)
        tb.add_row(*row)
    return tb


def guild_note() -> Columns:
    """What a guild's points bring, in two pieces a narrow panel puts on two lines."""
    return Columns([Text(_("* member (3+): 3:1"), style="dim"), Text(_("· president 2:1, +1 VP"), style="dim")],
                   padding=(0, 1))


def rates(view, seat: int | None, holdings: bool = True) -> Text:
    t = Text(style="bold" if seat is not None else "")
    if seat is not None:   # a spectator trades with nobody: the bank's stock only
        t.append(_("Your rates:") + " ")
        for g in range(5):
            if g:
                t.append(" · ")
            t.append(f"{kind_name(g)} {view.rate(seat, g)}:1", RESOURCE_STYLE[g])
    else:
        holdings = True
    if holdings or not all(view.bank):
        t.append(("\n" if seat is not None else "") + _("The bank holds:") + " ", "dim")
        t.append(" · ".join(f"{kind_name(g)} {view.bank[g]}" for g in range(5)), "dim")
    return t


def cost_table() -> Table:
    tb = Table(box=None, padding=(0, 1, 0, 0), show_header=False, expand=False)
    tb.add_column(style="bold")
    tb.add_column()
    for what, price in costs():
        tb.add_row(what, price)
    return tb


def costs_at_a_glance() -> Text:
    return Text("\n".join(costs_short()))


# Events that follow from a seat's own decision (where "since your last move" starts).
DECIDED = frozenset({"build", "bank", "buy-gp", "offer", "answer", "trade", "cancel", "robber",
                     "assassin", "guard", "dev", "parchments", "refresh", "promote", "fix", "discard",
                     "show", "library", "laboratory", "palace", "start", "pass"})


class Words:
    """Each event of a log in the player's words, worded once for a viewer in a
    language (a log only grows, or loses its end to an undo): a screen shows
    the whole log after every move.  A steal is worded each time: the card it
    moved may come to be known to the viewer after it."""

    def __init__(self) -> None:
        self._for: tuple | None = None      # (viewer, language) of the words kept
        self._events: list = []
        self._lines: list[Text] = []

    def __call__(self, events, viewer: int | None, stolen=None) -> list[Text]:
        """The lines of ``events`` (``stolen``: as :func:`text.describe` takes it)."""
        if self._for != (viewer, language()):
            self._for, self._events, self._lines = (viewer, language()), [], []
        kept = next((i for i, (e, k) in enumerate(zip(events, self._events)) if e is not k),
                    min(len(events), len(self._events)))
        del self._events[kept:], self._lines[kept:]
        for e in events[kept:]:
            self._events.append(e)
            self._lines.append(_worded(e, viewer, stolen))
        return [_worded(e, viewer, stolen) if e.kind == "steal" else line for e, line in zip(events, self._lines)]


def _worded(event, viewer: int | None, stolen) -> Text:
    line = describe(event, viewer, stolen)
    if event.kind == "turn":
        line.stylize("bold")
    return line


def log_lines(events, viewer: int | None, stolen=None, lines: list[Text] | None = None) -> Text:
    """The log in the player's words (``stolen``: as :func:`text.describe` takes
    it; ``lines``: the events worded already, by :class:`Words`)."""
    if lines is None:
        lines = [_worded(e, viewer, stolen) for e in events]
    return Text("\n").join(lines)


def since(events, viewer: int | None, stolen=None, lines: list[Text] | None = None) -> Text:
    """What happened since your last move: all but what you did yourself (your
    dice, what they and the buildings brought you, a steal, a presidency are
    kept)."""
    kept = [i for i, e in enumerate(events) if e.seat != viewer or e.kind not in DECIDED]
    if not kept:
        return Text(_("Nothing yet."), style="dim")
    return log_lines([events[i] for i in kept], viewer, stolen, None if lines is None else [lines[i] for i in kept])
