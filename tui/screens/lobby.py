"""Tables on the network: open one (host), find one (join), and the lobby
where the seats fill up before the deal."""
from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from ankh.net.files import home
from ankh.net.wire.adverts import warnings as advert_warnings
from ankh.net.files.home import ssh_may_join, ssh_player
from ankh.net.io.discovery import TableBrowser
from ankh.net.files.journal import unfinished_seat

from ankh.tui.i18n import _, Localised, NP_, pgettext, translated
from ankh.tui.bots import bot_label, net_bot_kinds
from ankh.core.game import DEFAULT, get
from ankh.tui.games import name as game_name, network_refusal, ui
from ankh.tui.netplay import NetSession, WatchSession, duration
from ankh.tui.seats import colour, seat_tag
from ankh.tui.widgets.choices import Choices
from ankh.tui.remote import back_note
from ankh.tui.screens.dialogs import Titled
from ankh.tui.widgets.stepper import Stepper, game_stepper


def chat_text(lines) -> Text:
    """Chat lines as plain text (never markup), each with its sender's colour and name."""
    t = Text()
    for seat, name, said in lines:
        t.append_text(seat_tag(seat))
        t.append(f" {name}: ", style="bold")
        t.append(said)
        t.append("\n")
    return t


class ChatDialog(Localised, ModalScreen[str | None]):
    """One chat line to the table (from the game screen: c)."""

    BINDINGS = [Binding("escape", "cancel", NP_("key", "Back"))]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat", classes="dialog"):
            yield Static(Text(_("Say to the table"), style="bold"), classes="dialog-title")
            yield Input(placeholder=_("Enter sends, Esc cancels"), id="line", max_length=200)

    def on_mount(self) -> None:
        self.query_one("#line", Input).focus()

    @on(Input.Submitted, "#line")
    def _send(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class HostDialog(Titled, Localised, ModalScreen[tuple[int, int, int, bool, str, str] | None]):
    """The game, seats at the table, how many of them bots fill and how well
    they play, and whether spectators see the chat; Enter opens it (seats,
    bots, port, spectator chat, bot kind, game).  A networked table offers
    the easy and normal levels: the hard level's worker processes would take
    the cores every seat's cryptography needs.  A game its rules say cannot
    be played over the network yet is said so, in place of the table's fields."""

    BINDINGS = [
        Binding("enter", "open", NP_("key", "Open"), key_display="⏎"),
        Binding("escape", "cancel", NP_("key", "Back")),
        Binding("up", "app.focus_previous", NP_("key", "Field"), key_display="↑↓"),
        Binding("down", "app.focus_next", show=False),
    ]

    def __init__(self, game: str = DEFAULT) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        rules = get(self.game)
        refusal = network_refusal(self.game)
        with Vertical(id="host-table", classes="dialog"):
            yield Static(Text(_("Open a table on the network"), style="bold"), classes="dialog-title")
            yield game_stepper(self.game)
            if refusal is not None:
                yield Static(Text(refusal + ".", style="bold"), id="not-networked")
            else:
                seats = rules.seats
                yield Stepper(_("Seats"), [(str(n), n) for n in seats], 0, id="seats")
                yield Stepper(_("Bots"), [(str(n), n) for n in range(seats[0])], 0, id="bots")
                yield Stepper(_("Bots play"), [(bot_label(k), k) for k in net_bot_kinds(rules)], 0, id="bot-kind")
                yield Static(_("Bots play on this machine, and their secret cards live here."), classes="dim")
                yield Stepper(_("Spectators see the chat"), [(_("yes"), True), (_("no"), False)], 0,
                              id="spectator-chat")
            yield Static(Text(_("↑↓ field   ←→ change   Enter open   Esc back"), style="dim"))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#game" if self.game != DEFAULT else "#seats", Stepper).focus()

    @on(Stepper.Changed)
    def _changed(self, event: Stepper.Changed) -> None:
        if event.stepper.id == "game":   # another game: its seats and bots
            self.game = event.stepper.value
            self.refresh(recompose=True)
            self.call_after_refresh(self._refocus)
        elif event.stepper.id == "seats":
            n = event.stepper.value
            bots = self.query_one("#bots", Stepper)
            bots.set_choices([(str(k), k) for k in range(n)], min(bots.value, n - 1))

    def _refocus(self) -> None:
        self.query_one("#game", Stepper).focus()
        self.refresh_bindings()   # Open, dimmed or not

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open" and network_refusal(self.game) is not None:
            return None  # shown dimmed: the dialog says why
        return True

    def action_open(self) -> None:
        self.dismiss((self.query_one("#seats", Stepper).value, self.query_one("#bots", Stepper).value, 0,
                      self.query_one("#spectator-chat", Stepper).value, self.query_one("#bot-kind", Stepper).value,
                      self.game))

    def action_cancel(self) -> None:
        self.dismiss(None)


def _pinned_keys():
    """The keys pinned for players met before, by name (none if the file cannot be read)."""
    try:
        return home.KnownPlayers().get
    except (home.HomeError, OSError):
        return lambda _name: None


class JoinScreen(Titled, Localised, ModalScreen[tuple | None]):
    """Tables heard of on the LAN, live: Enter sits at an open one, ``w``
    watches any of them; or an address typed in.  Answers (host, port) to
    join, or ("watch", host, port)."""

    BINDINGS = [Binding("escape", "cancel", NP_("key", "Back")), Binding("w", "watch", NP_("key", "Watch"), show=False),
                Binding("up", "to_tables", show=False), Binding("down", "to_tables", show=False)]

    def __init__(self, interface: str | None = None) -> None:
        super().__init__()
        self.interface = interface
        self.browser: TableBrowser | None = None
        self.tables: list = []

    def compose(self) -> ComposeResult:
        with Vertical(id="join-table", classes="dialog"):
            yield Static(Text(_("Join a table"), style="bold"), classes="dialog-title")
            yield Static(_("Looking for tables on the LAN…"), id="looking")
            yield Choices(id="tables")
            yield Input(placeholder=_("or type HOST:PORT and press Enter"), id="address")
            yield Static(Text(_("↑↓ choose   Enter join   w watch   Tab address   Esc back"), style="dim"))
        yield Footer(compact=True)

    async def on_mount(self) -> None:
        self.query_one("#tables").display = False
        self.query_one("#address", Input).focus()
        kw = {} if self.interface is None else {"interfaces": [self.interface]}
        try:
            self.browser = TableBrowser(lambda _e: self.call_later(self._list), **kw)
            await self.browser.start()
        except Exception as exc:  # no multicast here: the address still works
            self.browser = None
            self.query_one("#looking", Static).update(
                _("Cannot look for tables on the LAN ({why}); type the address.").format(why=exc))

    async def on_unmount(self) -> None:
        if self.browser is not None:
            await self.browser.close()

    def _list(self) -> None:
        if self.browser is None or not self.is_attached:
            return
        self.tables = [t for t in self.browser.tables.values() if t.addresses]
        notes = advert_warnings(self.tables, _pinned_keys())
        choices = self.query_one("#tables", Choices)
        shown, highlighted = choices.display, choices.highlighted
        choices.set_options(
            Option(Text.assemble((t.title, "bold"), "  ", game_name(t.game), f"  {t.seats_taken}/{t.seats_total}",
                                 "\n  ", ("" if t.open else _("playing (w to watch) "), "italic"),
                                 (_("claims key {fp}").format(fp=t.host_fp), "dim"),
                                 *[("\n  ⚠ " + translated(note), "bold yellow") for note in notes[t.service]]),
                   id=str(n))
            for n, t in enumerate(self.tables))
        choices.display = bool(self.tables)
        self.query_one("#looking", Static).update(
            _("Tables on the LAN (Enter join, w watch):") if self.tables else _("Looking for tables on the LAN…"))
        if self.tables:   # the same place in the list; the keys go to it when it first appears
            choices.highlighted = 0 if highlighted is None else min(highlighted, len(self.tables) - 1)
            if not shown and not self.query_one("#address", Input).value:
                choices.focus()

    @on(OptionList.OptionSelected, "#tables")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        t = self.tables[int(event.option.id)]
        if not t.open:
            if unfinished_seat(home.saves_dir(), t.host_fp) is not None:   # your seat there (your program died)
                self.dismiss((t.addresses[0], t.port))                       # back to it
                return
            self.notify(_("That table is playing: press w to watch it."), timeout=4)
            return
        self.dismiss((t.addresses[0], t.port))

    def action_to_tables(self) -> None:
        """↑↓ from the address line go to the tables (the list keeps its own ↑↓)."""
        if self.tables:
            self.query_one("#tables", Choices).focus()

    def action_watch(self) -> None:
        choices = self.query_one("#tables", Choices)
        if not self.tables or choices.highlighted is None or self.focused is not choices:
            return
        t = self.tables[choices.highlighted]
        self.dismiss(("watch", t.addresses[0], t.port))

    @on(Input.Submitted, "#address")
    def _typed(self, event: Input.Submitted) -> None:
        host, sep, port = event.value.strip().rpartition(":")
        if not sep or not port.isdigit():
            self.notify(_("An address is HOST:PORT, like 192.168.1.20:40123."), severity="warning")
            return
        host, port = host.strip("[]") or "127.0.0.1", int(port)
        if not ssh_may_join(host, port, [(a, t.port) for t in self.tables for a in t.addresses]):
            self.notify(_("Over SSH you can join the tables listed here, or the addresses this server "
                          "allows."), severity="warning", timeout=6)
            return
        self.dismiss((host, port))

    def action_cancel(self) -> None:
        self.dismiss(None)


class LobbyScreen(Titled, Localised, Screen):
    """The seats filling up, the table fingerprint to read aloud, the shuffle's
    progress; the game screen takes over once the cards are dealt."""

    BINDINGS = [Binding("escape", "leave", NP_("key", "Leave")), Binding("ctrl+r", "ready", NP_("key", "Ready"))]

    def __init__(self, session: NetSession, bot_delay: float = 0.4) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self._done = False
        self._failed = False    # the table cannot go on: no ready, no chat, only Esc

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby", classes="dialog"):
            yield Static(Text(_("The table"), style="bold"), classes="dialog-title", id="lobby-title")
            yield Static(id="lobby-body")
            yield Static(id="lobby-chat")
            yield Input(placeholder=_("say something to the table (Enter)"), id="say", max_length=200)
        yield Footer(compact=True)

    @on(Input.Submitted, "#say")
    def _say(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.session.say(event.value)
        event.input.value = ""

    def on_mount(self) -> None:
        self.session.watch(self._changed)
        self.set_interval(0.5, self._show)
        self._show()

    def on_unmount(self) -> None:
        self.session.unwatch(self._changed)

    def _changed(self) -> None:
        self.call_later(self._show)

    def _show(self) -> None:
        if not self.is_attached or self._done:
            return
        s = self.session
        if s.started:
            self._done = True
            self.app.switch_screen(ui(s.rules.id).game_screen()(s, bot_delay=self.bot_delay))
            return
        kind = getattr(s, "table_game", None)   # the table's game, once known
        self.query_one("#lobby-title", Static).update(Text.assemble(
            (_("The table"), "bold"), *(() if kind is None else ("  ·  ", game_name(kind)))))
        t = Text()
        if s.error:
            t.append(_("Cannot go on: {why}").format(why=translated(s.error)) + "\n\n", style="bold red")
            if not self._failed:
                self._failed = True
                self.query_one("#say", Input).display = False
                self.refresh_bindings()
        if s.address:
            t.append(_("Address: {address}").format(address=s.address) + "\n")
        if s.advertised:
            t.append(_("Announced on the LAN as {name}").format(name=s.advertised.split("._ankh")[0]) + "\n")
        over_ssh = ssh_player()
        if over_ssh is not None:
            t.append((_("You came in over SSH with the key {fp}").format(fp=over_ssh) if over_ssh != "guest"
                      else _("You came in over SSH as a guest (no key)")) + "; "
                     + _("your secrets live on the serving machine.") + back_note() + "\n", style="bold")
        for line in s.lobby_lines:
            t.append(line + "\n")
        t.append("\n")
        total = s.total or len(s.seats)
        for seat in range(total):
            t.append_text(seat_tag(seat))
            if seat < len(s.seats):
                name, fp, bot, ready = s.seats[seat]
                t.append(f"  {name}", style="bold")
                t.append(f"  {fp}", style="dim")
                if not bot:
                    t.append("  " + (_("ready") if ready else _("not ready")), style="green" if ready else "yellow")
                if bot:
                    t.append("  " + _("bot (its secrets live on the host's machine)"), style="italic")
                if (seat == s.viewer) if s.start is not None else (fp == s.own_fingerprint):
                    t.append("  " + pgettext("tag", "you"), style="bold")
            else:
                t.append("  " + _("(empty seat)"), style="dim")
            t.append("\n")
        clocks = s.start.clocks if s.start is not None else s.clocks
        if clocks is not None:   # shown before anyone is ready: the start must carry these, or a joiner goes
            t.append(_("Clocks: the others may end the table once a seat's link has been down {gone}, or a "
                       "connected seat has kept the game waiting {clock}.").format(
                gone=duration(clocks[0]), clock=duration(clocks[1])) + "\n", style="dim")
        if s.start is not None:
            t.append("\n" + _("Table fingerprint — read it aloud; every screen must show the same:") + "\n")
            t.append(f"  {s.start.fingerprint}\n", style="bold reverse")
            if not isinstance(s, WatchSession) and not s.confirmed:
                t.append(_("The same on every screen? Ctrl+R says so; the cards are dealt once every player "
                           "has. Not the same: Esc leaves the table.") + "\n", style="bold")
            elif s.setup_progress is None and not s.started:
                waiting = [seat for seat in s.unconfirmed if seat != s.viewer]
                t.append((_("Waiting for {seats} to confirm the fingerprint.").format(
                    seats=", ".join(colour(seat) for seat in waiting)) if waiting else
                          _("Waiting for every player to confirm the fingerprint.")) + "\n", style="italic")
            progress = s.setup_progress
            if progress is not None:
                done, all_ = progress
                t.append(_("Shuffling and proving every deck: step {done} of {all}").format(done=done, all=all_),
                         style="italic")
        elif s.error:
            t.append("\n" + _("Esc leaves the table."), style="italic")
        elif not isinstance(s, WatchSession):
            t.append("\n" + _("The game starts when every seat is taken and everyone is ready: "
                               "Ctrl+R says you are {state}.").format(
                state=_("not ready any more") if s.ready else _("ready")), style="italic")
        if s.result is not None:
            t.append("\n" + s.result_words(), style="bold")
        self.query_one("#lobby-body", Static).update(t)
        self.query_one("#lobby-chat", Static).update(chat_text(s.chat_lines[-5:]))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action == "ready" and self._failed)

    def action_ready(self) -> None:
        """Ready to begin; once the seats are final, the fingerprint is the same here as on the other screens."""
        if self.session.start is not None:
            self.session.confirm()
        else:
            self.session.toggle_ready()
        self._show()

    def action_leave(self) -> None:
        self._done = True
        self.run_worker(self.session.close(), exclusive=False)
        self.app.pop_screen()
