"""The Textual application: ``ankh`` with no subcommand opens it on the title
screen; a new game puts you against bots."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Iterable

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.geometry import Size
from textual.screen import Screen

from ankh.tui.i18n import _, Localised, N_, NP_, translated
from ankh.core.game import get
from ankh.tui.bots import net_bot_kinds
from ankh.core.game import DEFAULT
from ankh.tui.games import ui
from ankh.tui.screens.dialogs import MIN_HEIGHT, MIN_WIDTH, TooSmall
from ankh.tui.screens.title import GameSetup, TitleScreen


# Textual's own words that the game shows (its command palette's commands).
TEXTUAL_WORDS = (N_("Theme"), N_("Change the current theme"), N_("Quit"),
                 N_("Quit the application as soon as possible"))


class AnkhApp(Localised, App[int]):
    """Discworld: Ankh-Morpork.  ``session`` opens straight into a game (tests,
    ``--load``); ``bot_delay`` paces the bots so a person can follow them (at a
    table hosted here, at most :data:`~ankh.tui.netplay.BOT_PACE`: the others wait too)."""

    CSS_PATH = "app.tcss"
    TITLE = N_("Discworld: Ankh-Morpork")
    # Textual's command palette key, declared here so that its words are translated.
    BINDINGS = [Binding("ctrl+p", "command_palette", NP_("key", "palette"), show=False, priority=True,
                        tooltip=N_("Open the command palette"))]

    def __init__(self, session=None, *, bot_delay: float = 0.4, seed: int | None = None,
                 ansi: bool = False, interface: str | None = None, net: tuple | None = None,
                 table_name: str | None = None, advertise: bool = True, game: str | None = None) -> None:
        super().__init__()
        self.game_kind = game       # the game to host or join from the command line (None: default / any)
        self.title = _(self.TITLE)
        self.start_session = session
        self.interface = interface  # the LAN on this address only (default: every interface)
        self.start_net = net        # ("host", seats, bots) or ("join", address or None): straight to it
        self.table_name = table_name  # the name shown at tables (default: the one in the settings)
        self.advertise = advertise    # announce the tables opened here on the LAN
        self.bot_delay = bot_delay
        self.seed = seed
        self.force_ansi = ansi

    def get_default_screen(self) -> Screen:
        return TitleScreen()

    def on_mount(self) -> None:
        if self.force_ansi or (not self.is_headless and self.console.color_system == "standard"):
            self.theme = "ansi-dark"
        if self.start_session is not None:
            self.open_game(self.start_session)
        elif self.start_net is not None:
            if self.start_net[0] == "host":
                self.start_host(*self.start_net[1:])
            elif self.start_net[0] == "load":
                self.start_net_load(self.start_net[1])
            elif self.start_net[0] == "watch":
                self.start_watch(self.start_net[1])
            elif self.start_net[1] is not None:
                self.start_join(self.start_net[1])
            else:
                self.screen.action_choose("join")
        self.check_size()

    # --- size ------------------------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self.check_size(event.size)

    def check_size(self, size: Size | None = None) -> None:
        size = size or self.size
        small = size.width < MIN_WIDTH or size.height < MIN_HEIGHT
        showing = isinstance(self.screen, TooSmall)
        if small and not showing:
            self.push_screen(TooSmall())
        elif not small and showing:
            self.pop_screen()

    # --- games -----------------------------------------------------------------------------------

    def open_game(self, session) -> None:
        self.push_screen(ui(session.rules.id).game_screen()(session, bot_delay=self.bot_delay))

    def start_new(self, setup: GameSetup) -> None:
        from ankh.tui.session import GameSession
        from ankh.core.game import get
        self.open_game(GameSession.new(setup.players, setup.you, setup.bots, setup.kind, seed=self.seed,
                                       game=get(setup.game)))

    def start_load(self, path: Path) -> None:
        from ankh.tui.session import GameSession
        try:
            session = GameSession.load(path)
        except Exception as e:  # a damaged record: say why, stay on the title
            self.notify(_("Cannot load {name}: {why}").format(name=path.name, why=e), severity="error", timeout=8)
            return
        self.open_game(session)

    def start_host(self, seats: int, bots: int, port: int = 0, spectator_chat: bool = True,
                   bot_kind: str | None = None, game: str | None = None) -> None:
        """Open a table of ``game`` (None: the one the command line chose, else the
        default) on the network and wait in its lobby (its bots play at one of
        the levels in :func:`net_bot_kinds`, by default its first)."""
        from ankh.tui.netplay import NetSession
        from ankh.tui.screens.lobby import LobbyScreen
        game = game or self.game_kind
        session = NetSession(bot_kind=bot_kind or net_bot_kinds(get(game))[0], interface=self.interface,
                             name=self.table_name, advertise=self.advertise, kind=game, bot_delay=self.bot_delay)
        session.host(seats=seats, bots=bots, port=port, spectator_chat=spectator_chat)
        self.push_screen(LobbyScreen(session, bot_delay=self.bot_delay))

    def start_net_load(self, path: Path) -> None:
        """Carry on a saved networked game: back at the table where it stopped."""
        from ankh.net.io.savedir import DamagedSave
        from ankh.tui.netplay import NetSession
        from ankh.tui.screens.lobby import LobbyScreen
        session = NetSession(interface=self.interface, bot_delay=self.bot_delay)
        try:
            session.load(path)
        except DamagedSave as e:  # said, and the save left as it is
            self.notify(translated(e.args[0]), severity="error", timeout=8)
            return
        self.push_screen(LobbyScreen(session, bot_delay=self.bot_delay))

    def start_watch(self, address: tuple[str, int]) -> None:
        """Watch a table: the public game, followed live."""
        from ankh.tui.netplay import WatchSession
        from ankh.tui.screens.lobby import LobbyScreen
        session = WatchSession(interface=self.interface)
        session.follow(*address)
        self.push_screen(LobbyScreen(session, bot_delay=self.bot_delay))

    def start_join(self, address: tuple[str, int]) -> None:
        """Sit at a table by its address and wait in its lobby (back at your
        seat, if the table's game is on and you have its save)."""
        from ankh.tui.netplay import NetSession
        from ankh.tui.screens.lobby import LobbyScreen
        session = NetSession(interface=self.interface, name=self.table_name, kind=self.game_kind)
        session.join(*address)
        self.push_screen(LobbyScreen(session, bot_delay=self.bot_delay))

    # --- actions ---------------------------------------------------------------------------------

    def current_game(self) -> str | None:
        """The id of the game on screen (None: none yet, the default game)."""
        for screen in reversed(self.screen_stack):
            game = getattr(getattr(screen, "session", None), "rules", None)
            if game is not None:
                return game.id
        return None

    def action_help(self, tab: str = "rules", game: str | None = None) -> None:
        """Open the help (built once, then kept) at ``tab``: rules, cards or keys;
        of ``game`` (None: the game on screen)."""
        game = game or self.current_game()
        name = "help" if game in (None, DEFAULT) else f"help-{game}"   # each game has its own rules
        if not self.is_screen_installed(name):
            self.install_screen(ui(game).help_screen()(tab), name)
        help_screen = self.get_screen(name)
        if self.screen is not help_screen:
            from textual.containers import VerticalScroll
            for page in help_screen.query(VerticalScroll):   # opened again: at the top, not where it was left
                page.scroll_home(animate=False, immediate=True)
            self.push_screen(help_screen)
        help_screen.show_tab(tab)

    def action_to_title(self) -> None:
        while len(self.screen_stack) > 1 and not isinstance(self.screen, TitleScreen):
            self.pop_screen()

    def action_new_game(self) -> None:
        self.action_to_title()
        self.screen.action_choose("new")

    def action_load_game(self) -> None:
        self.action_to_title()
        self.screen.action_choose("load")

    def action_command_palette(self) -> None:
        """Textual's command palette, asking in the player's language."""
        from textual.command import CommandPalette
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(placeholder=_("Search for commands…"), id="--command-palette"))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The game's own commands; of Textual's, only those the game has no
        word for (theme, quit)."""
        playing = hasattr(screen, "commands")  # a game's screen: its own commands
        if playing:
            yield from screen.commands()
        else:
            yield SystemCommand(_("New game"), _("Start a new game against bots"), self.action_new_game)
            yield SystemCommand(_("Load game"), _("Resume a saved game"), self.action_load_game)
        yield SystemCommand(_("Rules"), _("How to play"), lambda: self.action_help("rules"))
        yield SystemCommand(_("Card reference"), _("Search every card, area, event and personality"),
                            lambda: self.action_help("cards"))
        yield SystemCommand(_("Keys"), _("Every key of the game"), lambda: self.action_help("keys"))
        if not playing:
            yield SystemCommand(_("Title screen"), _("Back to the title screen"), self.action_to_title)
        for command in super().get_system_commands(screen):
            if command.title in ("Theme", "Quit"):
                yield SystemCommand(_(command.title), _(command.help), command.callback, command.discover)


# The shortest pause the command line gives the bots (``--bot-delay 0``): they
# still think in a worker, so the screen stays alive while a hard bot searches
# (a pause of 0 runs them on the screen's own thread, for tests).
SHORTEST_BOT_DELAY = 0.01


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="ankh", description="Play Discworld: Ankh-Morpork in the terminal.")
    p.add_argument("--seed", type=int, default=None, help="seed for new games (default: random)")
    p.add_argument("--bot-delay", type=float, default=0.4, metavar="SECONDS",
                   help="pause before each bot decision so you can follow it (default 0.4)")
    p.add_argument("--load", type=Path, default=None, metavar="FILE", help="resume a saved game or record")
    p.add_argument("--ansi", action="store_true", help="use the 16 terminal colours only")
    p.add_argument("--interface", metavar="ADDR", default=None,
                   help="host and look for tables on this address only (default: every interface)")
    p.add_argument("--net", nargs="+", default=None, help=argparse.SUPPRESS)
    p.add_argument("--name", default=None, help=argparse.SUPPRESS)          # ankh host/join --name
    p.add_argument("--no-advertise", action="store_true", help=argparse.SUPPRESS)  # ankh host --no-advertise
    p.add_argument("--game", help=argparse.SUPPRESS)  # ankh host/join --game
    return p.parse_args(argv)


def run(argv: list[str] | None = None) -> int:
    """Run the game; returns the exit status."""
    args = parse_args(argv)
    session = None
    if args.load is not None:
        from ankh.tui.session import GameSession
        try:
            session = GameSession.load(args.load)
        except OSError as e:
            print(f"ankh: cannot read {args.load}: {e.strerror}", file=sys.stderr)
            return 2
        except UnicodeDecodeError:
            print(_("ankh: {path} is not a text record").format(path=args.load), file=sys.stderr)
            return 2
        except Exception as e:
            print(f"ankh: {args.load}: {e}", file=sys.stderr)
            return 1
    # Textual sizes the screen with shutil.get_terminal_size, which believes
    # COLUMNS/LINES when they are exported (readline does that): in a real
    # terminal they are stale after the first resize, so ask the terminal.
    if sys.__stderr__ is not None and sys.__stderr__.isatty():
        os.environ.pop("COLUMNS", None)
        os.environ.pop("LINES", None)
    net = None
    if args.net:  # from 'ankh host' / 'ankh join' / 'ankh watch' without --headless
        from ankh.tui.headless import parse_address
        if args.net[0] == "host":
            # host SEATS BOTS PORT [chat|quiet [BOT-KIND]]
            _role, seats, bots, port, *rest = args.net
            chat = rest[0] if rest else "chat"
            kind = rest[1] if len(rest) > 1 else None
            net = ("host", int(seats), int(bots), int(port), chat != "quiet", kind)
        elif args.net[0] == "load":
            from ankh.net.io.savedir import DamagedSave, SaveDir
            try:  # a damaged save is said before the screen opens, and left as it is
                SaveDir(Path(args.net[1])).load()
            except DamagedSave as e:
                print(f"ankh: {translated(e.args[0])}", file=sys.stderr)
                return 2
            net = ("load", Path(args.net[1]))
        elif args.net[0] == "watch":
            net = ("watch", parse_address(args.net[1]))
        else:
            address = args.net[1] if len(args.net) > 1 else None
            if address:
                net = ("join", parse_address(address))
            else:
                net = ("join", None)
    app = AnkhApp(session, bot_delay=max(SHORTEST_BOT_DELAY, args.bot_delay), seed=args.seed, ansi=args.ansi,
                  interface=args.interface, net=net, table_name=args.name, advertise=not args.no_advertise,
                  game=args.game)
    result = app.run()
    return result if isinstance(result, int) else (app.return_code or 0)
