"""The trade composer: one screen for a whole trade, at 80×24.

Each kind of card (the five resources and parchments) has one count: ←
gives one more of it, → asks for one more (a kind is never on both sides),
↑↓ go from kind to kind, ``p`` names the partner (everybody, a seat, or the
bank at your rates) and Enter sends the offer -- as one choice.  Beside the
counts: what you hold and what the trade would leave you.  Under them: the
answers as they come, and the offers made to you (the counters to your
offer, or the offer you are asked about), each with what it would leave
you; a number deals, ``a`` accepts, ``d`` declines, Enter counters.

The composer never assumes its choice is applied: it sends one choice to
the game screen and waits for the game's next decision (at a networked
table the other seats answer first), following what the screen shows.
"""
from __future__ import annotations

import time

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ankh.core.game import allows
from ankh.tui.i18n import Localised, NP_, _
from ankh.tui.screens.dialogs import Titled
from ankh.tui.seats import seat_tag
from ankh.tui.widgets.panel import Panel

from . import offers
from .text import RESOURCE_STYLE, cards_words, describe, kind_name

KINDS = 6          # five resources and parchments
NEWS = 4           # the trades told, at most (the log has them all)
TRADE_EVENTS = frozenset({"offer", "answer", "trade", "bank"})
BANK = "bank"      # the partner that is the bank


def hand_text(counts) -> str:
    """A whole hand, every kind named as in the composer's rows: ``brick 1  lumber 0  …``."""
    return "  ".join(f"{kind_name(k, 2)} {n}" for k, n in enumerate(counts))


class Composer(Titled, Localised, ModalScreen):
    """The trade composer over the guild game screen (``game``)."""

    DEFAULT_CSS = """
    Composer { align: center middle; }
    Composer #composer { width: 80; max-width: 100%; height: auto; max-height: 100%;
                         border: round $accent; border-title-color: $text; background: $surface;
                         padding: 0 1; }
    Composer #c-grid { height: auto; }
    Composer #c-line { height: auto; }
    Composer #c-news { height: auto; max-height: 8; }
    """

    BINDINGS = [
        Binding("up", "row(-1)", NP_("key", "Kind"), key_display="↑↓"),
        Binding("down", "row(1)", show=False),
        Binding("left", "count(-1)", NP_("key", "Give/get"), key_display="←→"),
        Binding("right", "count(1)", show=False),
        Binding("p", "partner", NP_("key", "Partner")),
        Binding("enter", "send", NP_("key", "Send"), key_display="⏎"),
        Binding("a", "accept", NP_("key", "Accept")),
        Binding("d", "decline", NP_("key", "Decline")),
        Binding("x", "cancel_offer", NP_("key", "Cancel offer")),
        Binding("0", "clear", NP_("key", "Clear"), show=False),
        *[Binding(str(i), f"deal({i})", show=False) for i in range(1, 10)],
        Binding("escape", "close", NP_("key", "Close")),
    ]
    BOX = "#composer"

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game
        self.owner = game.session.viewer
        self.delta = [0] * KINDS        # < 0: you give that many; > 0: you ask for that many
        self.composed = [0] * KINDS     # the counts as you set them (a partner's bounds clamp delta)
        self.row = 0
        self.partner: int | str | None = None    # None: everybody; a seat; BANK
        self.sent: tuple | None = None  # the choice sent, until the game's next decision
        self.plan: list[tuple] = []     # choices still to send, each when the game asks for it
        self._opened = len(game.session.log)   # the trades told are those since
        self._seen = self._opened
        self._decision = None
        self._preset = None             # the offer a counter was first filled from
        self.limit: tuple[int, int] | None = None   # (kind, ←/→) the last push that went no further

    # --- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="composer") as box:
            box.border_title = _("Trade")
            yield Panel(id="c-grid")
            yield Panel(id="c-line")
            with VerticalScroll(id="c-news") as news:
                news.can_focus = False
                yield Panel(id="c-answers")
            yield Panel(id="c-keys")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        have = self.have()
        self.row = next((k for k in range(KINDS) if have[k]), 0)
        self.follow()

    # --- what the game says ------------------------------------------------------------------------

    @property
    def session(self):
        return self.game.session

    def view(self):
        return self.session.view()

    def decision(self):
        """Your decision now (None while the table decides, or another person at this keyboard does)."""
        if self.session.viewer != self.owner:
            return None
        return self.game.decision()

    def have(self) -> list[int]:
        view = self.view()
        return view.hand(self.owner) + [view.parch[self.owner]]

    def follow(self) -> None:
        """The game moved (or a key was pressed): show it.  A choice sent is
        settled once the game's decision is another one."""
        if self.session.viewer != self.owner or self.game._handing_over:
            return      # another person at this keyboard: closed when they are (see follow())
        d = self.decision()
        key = (d, len(self.session.log))
        if key != self._decision:        # the game moved on: the choice sent was taken
            self.sent = None
            log = self.session.log
            if any(e.kind in ("trade", "bank") and self.owner in (e.seat, (e.data or {}).get("other"))
                   for e in log[self._seen:]):
                self.delta = [0] * KINDS     # your trade is done (either side of it): the counts start afresh
                self.composed = [0] * KINDS
            self._seen = len(log)
            self._decision = key
            self._preset_counter(d)
            if self.plan and d is not None:
                self.call_later(self._next_step)
        self.clamp()
        self._draw()

    def _preset_counter(self, d) -> None:
        """Asked about an offer: the counts start from it, seen from your side."""
        view = self.view()
        asked = offers.asked_offer(view, d, self.owner)
        if asked is not None and asked != self._preset:
            self._preset = asked
            give, get, who = asked.get, asked.give, asked.seat   # you would give what they ask
            self.delta = [g2 - g1 for g1, g2 in zip(give, get)]
            self.composed = list(self.delta)
            self.partner = who

    # --- the counts --------------------------------------------------------------------------------

    def limits(self, k: int) -> tuple[int, int]:
        """How many of kind ``k`` you may give, and ask for (from the partner's
        or the bank's stock)."""
        view = self.view()
        have = self.have()
        if self.partner == BANK:
            if k == 5:
                return 0, 0
            rate = view.rate(self.owner, k)
            return (have[k] // rate) * rate, view.bank[k]
        others = [self.partner] if isinstance(self.partner, int) else self.others()
        most = max((offers.holding(view, q)[k] for q in others), default=0)
        return have[k], most

    def others(self) -> list[int]:
        return [q for q in range(self.view().players) if q != self.owner]

    def clamp(self) -> None:
        for k in range(KINDS):
            give, get = self.limits(k)
            self.delta[k] = max(-give, min(get, self.delta[k]))

    def give(self) -> tuple[int, ...]:
        return tuple(max(0, -n) for n in self.delta)

    def get(self) -> tuple[int, ...]:
        return tuple(max(0, n) for n in self.delta)

    def step(self, k: int) -> int:
        """A step of ←→ on kind ``k``: one card, or your rate at the bank when giving."""
        return self.view().rate(self.owner, k) if self.partner == BANK and k < 5 else 1

    def problem(self) -> str | None:
        """Why the counts cannot be sent now (None: they can)."""
        give, get = self.give(), self.get()
        if not any(give) or not any(get):
            return _("Give at least one card and ask for at least one.")
        if self.partner == BANK:
            return offers.bank_problem(self.view(), self.owner, give, get)
        d = self.decision()
        if d is not None and d.kind == "answer" and self._as_offered(give, get):
            return None     # Enter accepts
        return offers.offer_problem(d, give, get, self.partner)

    # --- drawing -----------------------------------------------------------------------------------

    def _draw(self) -> None:
        if not self.query("#c-grid"):
            return
        view = self.view()
        have = self.have()
        # (no padding at the edges: at 80 columns the French headings and the bank's column fit whole)
        grid = Table(box=None, padding=(0, 1), pad_edge=False, expand=False, header_style="bold")
        grid.add_column("", width=2)
        grid.add_column(_("Kind"), min_width=10)
        grid.add_column(_("You give"), justify="center", min_width=9)
        grid.add_column(_("You get"), justify="center", min_width=9)
        grid.add_column(_("You hold"), justify="right")
        grid.add_column(_("After"), justify="right")
        grid.add_column(_("Rate"), justify="right")
        theirs = self._partner_holds(view)
        if theirs is not None:
            grid.add_column(theirs[0], justify="right")
        for k in range(KINDS):
            here = k == self.row
            g, w = max(0, -self.delta[k]), max(0, self.delta[k])
            cell = (lambda n, side: Text(("◀ " if here and side < 0 else "  ") + (str(n) if n else "·")
                                         + (" ▶" if here and side > 0 else "  "), "bold" if n else "dim"))
            after = have[k] + self.delta[k]
            row = [Text("▶" if here else " ", "bold"), Text(kind_name(k, 2), RESOURCE_STYLE[k]),
                   cell(g, -1), cell(w, 1), Text(str(have[k])),
                   Text(str(after), "bold" if after != have[k] else "dim"),
                   Text(f"{view.rate(self.owner, k)}:1" if k < 5 else "", "dim")]
            if theirs is not None:
                row.append(Text(theirs[1][k], "dim"))
            grid.add_row(*row, style="reverse" if here else None)
        self.query_one("#c-grid", Static).update(grid)
        self.query_one("#c-line", Static).update(self._line(view))
        news = self._news(view)
        self.query_one("#c-answers", Static).update(news)
        self.query_one("#c-news").display = bool(news.plain)
        self.query_one("#c-keys", Static).update(Text(self._keys(self.decision()), "dim"))
        self.call_after_refresh(self._news_end)
        self.refresh_bindings()

    def _news_end(self) -> None:
        for box in self.query("#c-news").results(VerticalScroll):
            box.scroll_end(animate=False)

    def _partner_holds(self, view) -> tuple[str, list[str]] | None:
        """The partner's column: what one seat holds (hands are public counts), or the bank's stock
        (everybody: none)."""
        if self.partner == BANK:
            return _("the bank"), [str(n) for n in view.bank] + [""]
        if isinstance(self.partner, int):
            return seat_tag(self.partner).plain, [str(n) for n in offers.holding(view, self.partner)]
        return None

    def _partner_words(self) -> str:
        if self.partner == BANK:
            return _("the bank")
        return _("everybody") if self.partner is None else seat_tag(self.partner).plain   # "Y yellow", as elsewhere

    def _line(self, view) -> Text:
        """The partner, your bank rates, and what Enter would do (or why not)."""
        t = Text()
        t.append(_("Partner (p):") + " ", "dim")
        t.append(self._partner_words(), "bold")
        t.append("\n")
        if self._at_limit():
            k, delta = self.limit
            t.append(self._limit_words(k, delta) + "\n", "yellow")
        d = self.decision()
        why = self.problem()
        if self.sent is not None or self.plan:
            t.append(_("Sent. Waiting for the table…"), "italic")
        elif d is not None and d.kind == "deal":
            t.append(_("Answers came: deal with one of them (1–9), or cancel the offer (x)."), "bold")
        elif d is None:         # (your answer given, or not your turn): Enter sends nothing now
            t.append(_("Wait for your turn to decide."), "dim")
        elif why:
            t.append(why, "yellow")
        elif self.partner == BANK:
            t.append(_("Enter: {give} to the bank for {get}.").format(give=cards_words(self.give()),
                                                                     get=cards_words(self.get())), "bold")
        elif d is not None and d.kind == "answer" and self._as_offered(self.give(), self.get()):
            t.append(_("Enter accepts: you give {give} for {get}.").format(give=cards_words(self.give()),
                                                                         get=cards_words(self.get())), "bold")
        elif d is not None and d.kind == "answer":
            t.append(_("Enter counters: you give {give} for {get}.").format(give=cards_words(self.give()),
                                                                          get=cards_words(self.get())), "bold")
        else:
            t.append(_("Enter offers {give} for {get} to {who}.").format(
                give=cards_words(self.give()), get=cards_words(self.get()), who=self._partner_words()), "bold")
        return t

    def _news(self, view) -> Text:
        """The trades since the composer opened (offers, answers as they come,
        deals, the bank), the offers made to you, whom the table waits for."""
        t = Text()
        d = self.decision()
        said = [e for e in self.session.log[self._opened:] if e.kind in TRADE_EVENTS]
        for e in said[-NEWS:]:
            t.append_text(describe(e, self.owner))
            t.append("\n")
        table = offers.on_table(view)
        mine = offers.made_to(view, d, self.owner)
        if mine:
            t.append(_("Offers made to you:") + "\n", "bold")
            for i, o in enumerate(mine):
                t.append(f"{i + 1} ", "bold")
                t.append_text(_assemble_line(_("{seat} gives {give} for your {get}"), seat=seat_tag(o.seat),
                                             give=cards_words(o.give), get=cards_words(o.get)))
                left = [h - g + w for h, g, w in zip(self.have(), o.get, o.give)]
                t.append("\n  " + _("leaves you:") + " " + hand_text(left) + "\n")
        elif table is not None and table.seat == self.owner and d is None:
            t.append(_("Waiting for answers…") + "\n", "dim")
        if d is None:
            t.append_text(self._waiting())
        t.rstrip()
        return t

    def _waiting(self) -> Text:
        """Whom the table waits for now."""
        nxt = self.game._next
        view = self.view()
        pending = getattr(getattr(view, "pending", None), "seat", None)   # a decision's (a request has none)
        who = (nxt.seat if nxt is not None and nxt.seat is not None
               else pending if pending is not None else view.active)
        if nxt is not None and nxt.kind == "over":
            return Text(_("The game is over."), "dim")
        return _assemble_line(_("Waiting for {seat}…"), seat=seat_tag(who))

    def _keys(self, d) -> str:
        if d is not None and d.kind == "answer":
            return _("a accept · d decline · ↑↓←→ then Enter: counter · Esc close")
        if d is not None and d.kind == "deal":
            return _("1–9 deal with that seat · x cancel the offer · Esc close")
        return _("↑↓ kind · ← give · → get · p partner · Enter send · Esc close")

    # --- keys ----------------------------------------------------------------------------------------

    def action_row(self, delta: int) -> None:
        self.row = (self.row + delta) % KINDS
        self.limit = None
        self._draw()

    def action_count(self, delta: int) -> None:
        k = self.row
        give, get = self.limits(k)
        n = self.delta[k]
        step = self.step(k) if (n < 0 or (n == 0 and delta < 0)) else 1
        n = max(-give, min(get, n + delta * step))
        if n == self.delta[k]:
            self.app.bell()
        # why it went no further: said in the dialog while the count stays at that bound
        self.limit = (k, delta) if n == self.delta[k] else None
        self.delta[k] = n
        self.composed = list(self.delta)
        self._draw()

    def _at_limit(self) -> bool:
        """Whether the last ←→ pressed went no further, and the count still stands there."""
        if self.limit is None:
            return False
        k, delta = self.limit
        give, get = self.limits(k)
        return self.delta[k] == (-give if delta < 0 else get)

    def _limit_words(self, k: int, delta: int) -> str:
        """Why the count of kind ``k`` goes no further that way."""
        held = self.have()[k]
        if delta < 0 and self.partner == BANK and k < 5 and held > -self.delta[k]:   # not a whole rate left
            return _("Your rate for {kind} is {n}:1; you hold {h}.").format(
                kind=kind_name(k, 2), n=self.view().rate(self.owner, k), h=held)
        if delta < 0:
            return _("You hold no more {kind} to give.").format(kind=kind_name(k, 2))
        if self.partner == BANK:
            return _("The bank has no more {kind}.").format(kind=kind_name(k, 2))
        return _("Nobody you ask holds more {kind}.").format(kind=kind_name(k, 2))

    def action_clear(self) -> None:
        self.delta = [0] * KINDS
        self.composed = [0] * KINDS
        self._draw()

    def action_partner(self) -> None:
        d = self.decision()
        if d is not None and d.kind == "answer":
            return      # a counter goes to the one who offered
        cycle: list = [None, *self.others(), BANK]
        self.partner = cycle[(cycle.index(self.partner) + 1) % len(cycle)] if self.partner in cycle else None
        self.delta = list(self.composed)    # what one partner's bounds cut, the next one's may allow
        self.clamp()
        self._draw()

    def _send(self, choices: list[tuple] | None) -> None:
        """Choices to the game, one at a time: each once the game asks the
        decision it answers (never assumed applied before)."""
        if not choices or self.sent is not None or self.plan:
            return
        if self.game.guarded():   # the table just moved: a key meant for before is not an answer
            return
        self.plan = list(choices)
        self._next_step()

    def _next_step(self) -> None:
        d = self.decision()
        if not self.plan or d is None or self.sent is not None:
            return
        if self.game.guarded():   # the table moved since: this step waits out the key guard
            self.set_timer(max(0.05, self.game._guard_until - time.monotonic()), self._next_step)
            return
        choice = self.plan.pop(0)
        if not allows(d, choice):
            self.plan = []
            self.notify(_("The game asks something else now: the rest of that trade was not sent."),
                        severity="warning", timeout=4)
            self._draw()
            return
        self.sent = choice
        if not self.game.choose(choice):
            self.sent = None
            self.plan = []
            self.notify(_("That cannot be chosen now."), severity="warning", timeout=3)
        self.follow()

    def action_send(self) -> None:
        d = self.decision()
        why = self.problem()
        if why:
            self.notify(why, severity="warning", timeout=3)
            return
        if d is None or self.sent is not None or self.plan:
            self.notify(_("Wait for your turn to decide."), timeout=3)
            return
        give, get = self.give(), self.get()
        if self.partner == BANK:
            choice = offers.bank_choices(d, give, get)
        elif d.kind == "answer" and self._as_offered(give, get):
            choice = offers.verb_choices(d, "accept")     # the offer as it stands: accepted
        else:
            choice = offers.offer_choices(d, give, get, self.partner)
        if choice is None:
            self.notify(_("That trade cannot be offered now."), severity="warning", timeout=3)
            return
        self._send(choice)

    def _as_offered(self, give, get) -> bool:
        """Whether the counts are the offer you are asked about, unchanged."""
        asked = self._preset
        return asked is not None and tuple(give) == tuple(asked.get) and tuple(get) == tuple(asked.give)

    def action_accept(self) -> None:
        self._send(offers.verb_choices(self.decision(), "accept"))

    def action_decline(self) -> None:
        self._send(offers.verb_choices(self.decision(), "decline"))

    def action_cancel_offer(self) -> None:
        self._send(offers.verb_choices(self.decision(), "cancel"))

    def action_deal(self, n: int) -> None:
        d = self.decision()
        mine = offers.made_to(self.view(), d, self.owner)
        if d is not None and d.kind == "deal" and 1 <= n <= len(mine):
            self._send([mine[n - 1].choice])

    def action_close(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        d = self.decision()
        kind = d.kind if d is not None else None
        if action in ("accept", "decline"):
            return kind == "answer" and offers.verb_choices(d, action) is not None
        if action == "cancel_offer":
            return kind == "deal"
        if action == "send":        # nothing to send while you deal (1-9) or others decide
            return kind in ("action", "answer")
        if action == "partner":
            return kind != "answer"
        return True


def _assemble_line(template: str, **parts) -> Text:
    from ankh.tui.seats import _assemble
    return _assemble(template, **parts)


# --- the game screen's side ----------------------------------------------------------------------

def composer_of(game) -> Composer | None:
    """The composer open over ``game``, if any."""
    return next((s for s in game.app.screen_stack if isinstance(s, Composer) and s.game is game), None)


def can_open(game) -> bool:
    """Whether ``t`` opens the composer now: your turn's menu offers a trade,
    or an offer waits for your answer or your deal."""
    return offers.composable(game.decision())


def open_composer(game) -> None:
    if composer_of(game) is None:
        game.app.push_screen(Composer(game))


def follow(game) -> None:
    """After every change the game screen shows: the composer follows it
    (closed when the next person at this keyboard takes it)."""
    composer = composer_of(game)
    if composer is None:
        return
    if composer.owner != game.session.viewer:
        if composer.is_current:
            composer.dismiss(None)      # not theirs to see
        return
    composer.follow()


def hint(d) -> str | None:
    """The prompt's line about the composer, where it has something for this decision."""
    if d is None:
        return None
    if d.kind == "answer":
        return _("t: the offer in the trade composer (what it would leave you; accept, decline, counter)")
    if d.kind == "deal":
        return _("t: the offers made to you in the trade composer, with what each would leave you")
    if offers.composable(d):
        return _("t: offer a trade to the other players")
    return None
