"""The title screen: new local game, load a saved game, rules, quit."""
from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ankh.core.game import DEFAULT, get
from ankh.core.registry import ENTRIES
from ankh.tui.bots import bot_kinds, bot_label, default_bot_kind
from ankh.tui.games import name as game_name, shown
from ankh.tui.i18n import _, Localised, N_, NP_
from ankh.tui.remote import ssh_note
from ankh.tui.screens.dialogs import Titled
from ankh.tui.seats import _assemble, colour, seat_tag
from ankh.tui.widgets.choices import Choices
from ankh.tui.widgets.stepper import Stepper, game_stepper

BANNER = r"""
 ___  _                        _    _
|   \(_)___ __ __ __ _____ _ _| |__| |
| |) | (_-</ _|\ V  V / _ \ '_| / _` |
|___/|_/__/\__| \_/\_/\___/_| |_\__,_|
     A N K H  -  M O R P O R K
"""

# A new game of each game with screens (its record's line and key), then the rest.
MENU = (
    *((e.id, e.menu, e.key) for e in ENTRIES.values() if e.screens is not None),
    ("host", N_("Host a table on the network"), "o"),
    ("join", N_("Join a table on the network"), "j"),
    ("load", N_("Load a saved game"), "l"),
    ("rules", N_("Rules and card reference"), "r"),
    ("settings", N_("Settings (language)"), "s"),
    ("quit", N_("Quit"), "q"),
)


@dataclass(frozen=True)
class GameSetup:
    players: int
    you: int
    bots: int
    kind: str
    game: str = DEFAULT


class TitleScreen(Localised, Screen):
    BINDINGS = [
        *(Binding(e.key, f"choose('{e.id}')", e.key_word) for e in ENTRIES.values() if e.screens is not None),
        Binding("o", "choose('host')", NP_("key", "Host")),
        Binding("j", "choose('join')", NP_("key", "Join")),
        Binding("l", "choose('load')", NP_("key", "Load")),
        Binding("r", "choose('rules')", NP_("key", "Rules")),
        Binding("s", "choose('settings')", NP_("key", "Settings"), show=False),
        Binding("q", "choose('quit')", NP_("key", "Quit")),
    ]

    def compose(self) -> ComposeResult:
        with Middle():
            with Center():
                yield Static(Text(BANNER.strip("\n"), style="bold"), id="banner")
            with Center():
                yield Static(Text(_("The city is yours to rule, if you can keep your aims secret."),
                                  style="italic"), id="tagline")
            note = ssh_note()
            if note is not None:
                with Center():
                    yield Static(note, id="ssh-note")
            with Center():
                yield Choices(
                    *[Option(Text.assemble((f"{key}  ", "bold"), _(label)), id=name)
                      for name, label, key in MENU],
                    id="menu")
        # the menu shows every command: without the palette's hint the footer fits 80 columns in French
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#menu", OptionList).focus()

    @on(OptionList.OptionSelected, "#menu")
    def _menu(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(event.option.id)

    def action_choose(self, what: str) -> None:
        app = self.app
        if what == "new" or what in shown():   # "new": the game asked for (--game), else the default
            app.push_screen(NewGameScreen((app.game_kind or DEFAULT) if what == "new" else what), self._start)
        elif what == "host":   # the network's screens (and the network's modules) once asked for
            from ankh.tui.screens.lobby import HostDialog
            app.push_screen(HostDialog(app.game_kind or DEFAULT), lambda got: app.start_host(*got) if got else None)
        elif what == "join":
            from ankh.tui.screens.lobby import JoinScreen
            app.push_screen(JoinScreen(getattr(app, "interface", None)),
                            lambda got: None if not got else app.start_watch(got[1:]) if got[0] == "watch"
                            else app.start_join(got))
        elif what == "load":
            app.push_screen(LoadScreen(), self._load)
        elif what == "rules":   # whose rules: one game's or the other's
            from ankh.tui.screens.dialogs import Pick
            app.push_screen(Pick(_("Which game's rules?"), [(g, game_name(g)) for g in shown()]),
                            lambda g: app.action_help("rules", game=g) if g else None)
        elif what == "settings":
            from ankh.tui.screens.settings import SettingsScreen
            app.push_screen(SettingsScreen())
        elif what == "quit":
            app.exit(0)

    def _start(self, setup: GameSetup | None) -> None:
        if setup is not None:
            self.app.start_new(setup)

    def _load(self, path) -> None:
        if path is None:
            return
        if path.is_dir():  # a networked game: back to its table
            self.app.start_net_load(path)
        else:
            self.app.start_load(path)


class NewGameScreen(Titled, Localised, ModalScreen[GameSetup | None]):
    """Seats, bots and your colour; Enter starts."""

    BINDINGS = [
        Binding("enter", "start", NP_("key", "Start"), key_display="⏎"),
        Binding("escape", "cancel", NP_("key", "Back")),
        Binding("up", "app.focus_previous", NP_("key", "Field"), key_display="↑↓"),
        Binding("down", "app.focus_next", show=False),
    ]

    def __init__(self, game: str = DEFAULT) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        rules = get(self.game)
        kinds = bot_kinds(rules)
        players = 3 if 3 in rules.seats else rules.seats[0]
        with Vertical(id="new-game", classes="dialog"):
            yield Static(Text(_("New game"), style="bold"), classes="dialog-title")
            yield game_stepper(self.game)
            yield Stepper(_("Players"), [(str(n), n) for n in rules.seats], rules.seats.index(players),
                          id="players")
            yield Stepper(_("Your colour"), self._colours(players), 0, id="colour")
            yield Stepper(_("Bots"), self._bots(players), players - 1, id="bots")
            yield Stepper(_("Bots play"), [(bot_label(k), k) for k in kinds],
                          kinds.index(default_bot_kind(rules)), id="kind")
            yield Static(id="summary")
            yield Static(Text(_("↑↓ field   ←→ change   Enter start   Esc back"), style="dim"))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#game" if self.game != DEFAULT else "#players", Stepper).focus()
        self._summarise()

    @staticmethod
    def _colours(players: int):
        return [(seat_tag(s).plain, s) for s in range(players)]

    @staticmethod
    def _bots(players: int):
        return [(str(n), n) for n in range(players)]

    @on(Stepper.Changed)
    def _changed(self, event: Stepper.Changed) -> None:
        if event.stepper.id == "game":   # another game: its seats and bots
            self.game = event.stepper.value
            self.refresh(recompose=True)
            self.call_after_refresh(self._refocus)
            return
        if event.stepper.id == "players":
            n = event.stepper.value
            colour = self.query_one("#colour", Stepper)
            colour.set_choices(self._colours(n), min(colour.value, n - 1))
            bots = self.query_one("#bots", Stepper)
            bots.set_choices(self._bots(n), n - 1)
        self._summarise()

    def setup(self) -> GameSetup:
        return GameSetup(
            players=self.query_one("#players", Stepper).value,
            you=self.query_one("#colour", Stepper).value,
            bots=self.query_one("#bots", Stepper).value,
            kind=self.query_one("#kind", Stepper).value,
            game=self.game,
        )

    def _refocus(self) -> None:
        self.query_one("#game", Stepper).focus()
        self._summarise()

    def _summarise(self) -> None:
        s = self.setup()
        others = [colour(i) for i in range(s.players) if i != s.you]
        bots, people = others[: s.bots], others[s.bots:]
        t = _assemble(_("You play {seat}"), seat=seat_tag(s.you))
        if bots:
            t.append(_("; bots play {colours}").format(colours=", ".join(bots)))
        if people:
            t.append(_("; {colours} also play here (taking turns at this keyboard)").format(
                colours=", ".join(people)))
        t.append(".")
        self.query_one("#summary", Static).update(t)

    def action_start(self) -> None:
        self.dismiss(self.setup())

    def action_cancel(self) -> None:
        self.dismiss(None)


class LoadScreen(Titled, Localised, ModalScreen):
    """Saved games, newest first; ``d`` deletes the highlighted one (it asks)."""

    BINDINGS = [
        Binding("escape", "cancel", NP_("key", "Back")),
        Binding("d", "delete", NP_("key", "Delete")),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="load-game", classes="dialog"):
            yield Static(Text(_("Load a saved game"), style="bold"), classes="dialog-title")
            yield Choices(id="saves")
            yield Static(id="no-saves")
            yield Static(Text(_("↑↓ choose   Enter load   d delete   Esc back"), style="dim"))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._list()

    def _list(self) -> None:
        from ankh.tui.session import list_saves, saves_dir

        self.saves = list_saves()
        choices = self.query_one("#saves", Choices)
        # Damaged saves are listed too (with why), so they can be deleted.
        choices.set_options(
            Option(Text.assemble((i.path.stem, "bold" if i.ok else "dim"), (f" · {i.game}" if i.game else ""),
                                 "\n  ", (i.summary, "dim" if i.ok else "italic")), id=str(n))
            for n, i in enumerate(self.saves))
        choices.display = bool(self.saves)
        empty = self.query_one("#no-saves", Static)
        empty.display = not self.saves
        empty.update(_("No saved games yet in {folder}.").format(folder=saves_dir()))
        if self.saves:
            choices.highlighted = 0
            choices.focus()

    @on(OptionList.OptionSelected, "#saves")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        info = self.saves[int(event.option.id)]
        if not info.ok:
            self.notify(_("{name} {why}. Press d to delete it.").format(name=info.path.name, why=info.summary),
                        severity="warning", timeout=5)
            return
        self.dismiss(info.path)

    def action_delete(self) -> None:
        from ankh.tui.screens.dialogs import Confirm
        from ankh.tui.session import delete_save

        choices = self.query_one("#saves", OptionList)
        if not self.saves or choices.highlighted is None:
            return
        info = self.saves[choices.highlighted]

        def answer(yes: bool | None) -> None:
            if yes:
                delete_save(info.path)
                self.notify(_("Deleted {name}.").format(name=info.path.name), timeout=3)
                self._list()

        self.app.push_screen(Confirm(_("Delete the saved game {name}? This cannot be undone.").format(
            name=info.path.stem), _("Delete"), _("Keep")), answer)

    def action_cancel(self) -> None:
        self.dismiss(None)
