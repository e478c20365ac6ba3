"""The ``ankh`` command."""
from __future__ import annotations

import argparse
import json
import sys

from ankh.core.game import COLOURS, DEFAULT, GAMES, get
from ankh.tui.bots import net_bot_kinds
from ankh.tui.games import network_refusal, screens_refusal
from ankh.tui.i18n import LANGUAGES, _, choose_language, set_language


class _Formatter(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class _Parser(argparse.ArgumentParser):
    """argparse in the chosen language: its own words (usage, the option
    groups, -h, the error line) are the program's sentences too."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, formatter_class=_Formatter, add_help=False, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                          help=_("show this help message and exit"))

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(2, _("{prog}: error: {message}").format(prog=self.prog, message=message) + "\n")


def _seconds(text: str) -> int:
    """A table's clock: whole seconds, 1 to a day."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 86400:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number of seconds from 1 to 86400").format(text=text))
    return value


def _early_language(argv: list[str] | None) -> str:
    """The language, before the parser that speaks it is built: ``--lang``
    anywhere on the command line, else the saved choice, else the locale."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang")
    known, _rest = pre.parse_known_args(sys.argv[1:] if argv is None else argv)
    return choose_language(known.lang if known.lang in LANGUAGES else None)


def main(argv: list[str] | None = None) -> int:
    set_language(_early_language(argv))
    parser = _Parser(prog="ankh", description=_("Discworld: Ankh-Morpork in the terminal."))
    sub = parser.add_subparsers(dest="command", title=_("commands"))
    rp = sub.add_parser("replay", help=_("replay a game record"))
    rp.add_argument("file", help=_("a record file (see docs/record.md), or a networked game's save: its "
                                   "folder, game.ankh or journal.ankh"))
    rp.add_argument("--json", action="store_true", help=_("print the final state as JSON"))
    rp.add_argument("--stats", action="store_true",
                    help=_("the statistics of the game: the dice, the race, where the cards went (shown at a "
                           "terminal, else printed)"))
    rv = sub.add_parser("review", help=_("the hard bot's review of your moves in a local game's record"))
    rv.add_argument("file", help=_("a local game's record or save"))
    rv.add_argument("--seat", choices=COLOURS, help=_("whose moves (default: the record's first person)"))
    rv.add_argument("--worlds", type=int, default=None, metavar="N",
                    help=_("worlds the hard bot searches at each decision (default 8: more is slower and surer)"))
    rv.add_argument("--every-card", action="store_true",
                    help=_("a networked game's save: review with every card known, as the game's audit disclosed "
                           "them (kept apart from the review from the seat's view)"))
    vp = sub.add_parser("verify", help=_("audit a saved networked game's transcript"))
    vp.add_argument("file")
    hp = sub.add_parser("host", help=_("open a table on the network"))
    hp.add_argument("--seats", type=int, default=2, choices=(2, 3, 4), help=_("seats at the table (default 2)"))
    hp.add_argument("--bots", type=int, default=0, help=_("seats the host fills with bots"))
    hp.add_argument("--port", type=int, default=0, help=_("TCP port (default: any free one)"))
    hp.add_argument("--bind", default="0.0.0.0",
                    help=_("address to listen on, and to advertise on when given (default: all)"))
    hp.add_argument("--no-advertise", action="store_true", help=_("do not announce the table on the LAN"))
    hp.add_argument("--no-spectator-chat", action="store_true",
                    help=_("hide the players' chat from spectators (every seat's watch point honours it)"))
    hp.add_argument("--gone-after", type=_seconds, default=60, metavar="SECONDS",
                    help=_("a seat gone this long: the others may end the table (default 60; told to every "
                           "seat at the deal)"))
    hp.add_argument("--move-clock", type=_seconds, default=300, metavar="SECONDS",
                    help=_("a connected seat that keeps the game waiting this long: the same (default 300)"))
    jp = sub.add_parser("join", help=_("sit at a table on the network"))
    jp.add_argument("address", nargs="?", help=_("HOST:PORT of the table (default: the first open table found)"))
    jp.add_argument("--interface", metavar="ADDR", help=_("look for tables on this interface's address only"))
    jp.add_argument("--find-timeout", type=float, default=10.0, metavar="SECONDS",
                    help=_("how long to look for a table on the LAN (default 10)"))
    wp = sub.add_parser("watch", help=_("watch a table on the network as a spectator"))
    wp.add_argument("address", nargs="?", help=_("HOST:PORT of the table (default: the first table found)"))
    wp.add_argument("--headless", action="store_true", help=_("no screen: print the public log"))
    wp.add_argument("--interface", metavar="ADDR", help=_("look for tables on this interface's address only"))
    wp.add_argument("--find-timeout", type=float, default=10.0, metavar="SECONDS",
                    help=_("how long to look for a table on the LAN (default 10)"))
    sp = sub.add_parser("serve", help=_("let players in over SSH: each gets the game in their terminal"))
    sp.add_argument("--ssh", required=True, metavar="[ADDR:]PORT",
                    help=_("where the SSH server listens (ADDR default: every address)"))
    sp.add_argument("--interface", metavar="ADDR", default="127.0.0.1",
                    help=_("the address the players' tables use (default 127.0.0.1: tables among the "
                         "players of this server; give a LAN address to meet players on the LAN too)"))
    sp.add_argument("--idle", type=float, default=30.0, metavar="MINUTES",
                    help=_("close a session after this long without a key pressed (default 30)"))
    sp.add_argument("--sessions", type=int, default=32, metavar="N",
                    help=_("sessions the server runs at once (default 32)"))
    sp.add_argument("--per-key", type=int, default=3, metavar="N",
                    help=_("sessions one key (or one guest's address) may hold at once (default 3)"))
    sp.add_argument("--allow-join", action="append", default=[], metavar="HOST[:PORT]",
                    help=_("an address the players may type to join a table (besides the tables found "
                           "on the network); may be given more than once"))
    for p in (hp, jp):
        p.add_argument("--headless", action="store_true", help=_("no screen: a bot plays, events are printed"))
        p.add_argument("--bot", default="heuristic", help=_("the bot that plays a headless seat (and a table's bots)"))
        p.add_argument("--name", help=_("your name at the table"))
        p.add_argument("--game", choices=tuple(GAMES), default=None if p is not hp else DEFAULT,
                       help=_("the game: to host (default {default}), or to join (default: any)").format(
                           default=DEFAULT))
        p.add_argument("--load", metavar="DIR", help=_("carry on a saved networked game"))
        p.add_argument("--seed", type=int, help=_("seed for the headless bot"))
        p.add_argument("--agree-to-end", action="store_true",
                       help=_("a headless seat agrees at once when the table offers to end a game a seat left"))
        p.add_argument("--trace", metavar="FILE",
                       help=_("write when things happen to FILE, for benchmarks: one line per event, "
                            "time.monotonic() first (start, setup, decided SEAT MOVE, applied SEAT MOVE)"))
    # The language of the screens (the subcommands that show one take it too);
    # default: the choice saved in the settings, else the locale.
    parser.add_argument("--lang", choices=LANGUAGES, help=_("language of the screens: en or fr"))
    for p in (hp, jp, wp):
        p.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS,
                       help=_("language of the screens: en or fr"))
    # Options of the game itself (no subcommand), handed on to ankh.tui.app.run.
    parser.add_argument("--seed", type=int, help=_("seed for new games (default: random)"))
    parser.add_argument("--bot-delay", type=float, metavar="SECONDS",
                        help=_("pause before each bot decision (default 0.4)"))
    parser.add_argument("--load", metavar="FILE", help=_("resume a saved game or a record"))
    parser.add_argument("--ansi", action="store_true", help=_("use the 16 terminal colours only"))
    parser.add_argument("--interface", metavar="ADDR",
                        help=_("host and look for tables on this address only (default: every interface)"))
    parser.add_argument("--game", choices=tuple(GAMES), default=None,
                        help=_("the game of a new game (default {default})").format(default=DEFAULT))
    parser.add_argument("--headless", action="store_true",
                        help=_("no screen: bots play every seat of a new game to its end, its events are printed"))
    parser.add_argument("--players", type=int, default=None, help=_("seats of a headless game (default: the fewest)"))
    parser.add_argument("--bot", default=None, help=_("the bots of a headless game (default: the normal level)"))
    parser.add_argument("--save", metavar="FILE", help=_("write a headless game's record to FILE"))
    args, rest = parser.parse_known_args(argv)
    if args.command == "replay":
        return replay(args.file, args.json, args.stats)
    if args.command == "review":
        from ankh.tui.review import command as review_command
        return review_command(args.file, args.seat, args.worlds, args.every_card)
    if args.command == "verify":
        from ankh.net.files.verify import main as verify_main
        return verify_main([args.file])
    if args.command == "serve":
        return serve(parser, args)
    if args.command == "watch":
        from ankh.tui import headless
        if args.headless:
            return headless.watch(args)
        from ankh.tui.app import run
        if not args.address:
            return run(["--net", "join", *(["--interface", args.interface] if args.interface else []), *rest])
        return run(["--net", "watch", args.address, *(["--interface", args.interface] if args.interface else []),
                    *rest])
    if args.command in ("host", "join"):
        if args.game is not None and (refusal := network_refusal(args.game)) is not None:
            parser.error(refusal)
        if not args.headless and args.game is not None and (refusal := screens_refusal(args.game)) is not None:
            parser.error(refusal)
        if args.command == "host" and not 0 <= args.bots < args.seats:
            parser.error(_("--bots must be between 0 and {most}").format(most=args.seats - 1))
        if args.headless:
            from ankh.tui import headless
            return headless.host(args) if args.command == "host" else headless.join(args)
        from ankh.tui.app import run
        if args.load:
            net = ["load", args.load]
        elif args.command == "host":
            kinds = net_bot_kinds(get(args.game))
            if args.bot not in kinds:
                parser.error(_("a networked table's bots play {kinds}, not {kind}").format(
                    kinds=_(" or ").join(kinds), kind=args.bot))
            net = ["host", str(args.seats), str(args.bots), str(args.port),
                   "quiet" if args.no_spectator_chat else "chat", args.bot]
        else:
            net = ["join", *([args.address] if args.address else [])]
        interface = getattr(args, "interface", None) or (args.bind if args.command == "host" and
                                                         args.bind != "0.0.0.0" else None)
        table = [*(["--name", args.name] if args.name else []), *(["--game", args.game] if args.game else []),
                 *(["--no-advertise"] if args.command == "host" and args.no_advertise else [])]
        return run(["--net", *net, *(["--interface", interface] if interface else []), *table, *rest])
    if args.headless:
        return local_headless(parser, args)
    if args.game is not None and (refusal := screens_refusal(args.game)) is not None:
        parser.error(refusal)
    from ankh.tui.app import run
    game = [*(["--game", args.game] if args.game else [])]
    for opt in ("seed", "bot_delay", "load"):
        if getattr(args, opt) is not None:
            game += ["--" + opt.replace("_", "-"), str(getattr(args, opt))]
    if args.ansi:
        game.append("--ansi")
    if args.interface:
        game += ["--interface", args.interface]
    return run(game + rest)


def local_headless(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``ankh --headless``: a new local game, bots in every seat, played to its
    end; its events are printed, its record written to ``--save``."""
    import random

    from ankh.net.play.local import LocalGame
    from ankh.tui.bots import bot_kinds, make_bot
    game = get(args.game)
    players = game.seats[0] if args.players is None else args.players
    if players not in game.seats:
        parser.error(_("{game} is for {seats} players").format(
            game=_(game.name), seats=_(" or ").join(str(n) for n in game.seats)))
    kinds = bot_kinds(game)
    kind = args.bot or net_bot_kinds(game)[0]
    if kind not in kinds:
        parser.error(_("{game}'s bots play {kinds}, not {kind}").format(
            game=_(game.name), kinds=_(" or ").join(kinds), kind=kind))
    seed = random.randrange(2**31) if args.seed is None else args.seed
    bots = {seat: make_bot(kind, random.Random(f"{seed}:{seat}"), game) for seat in range(players)}
    local = LocalGame.new(players, seed, bots, game)
    local.advance()
    for event in local.log:
        print(event.text)
    if args.save:
        try:
            with open(args.save, "w", encoding="utf-8") as out:
                out.write(local.save_text())
        except OSError as e:
            print(_("ankh: cannot write {path}: {why}").format(path=args.save, why=e.strerror), file=sys.stderr)
            return 1
    sys.stdout.flush()
    return 0


def serve(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``ankh serve --ssh [ADDR:]PORT``: the game for everyone who logs in over SSH."""
    import asyncio
    import signal

    from ankh.net.files import home
    from ankh.net.io.ssh import SshServer

    host, _sep, port = args.ssh.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) < 65536:
        parser.error(_("--ssh takes [ADDR:]PORT, like 2222 or 0.0.0.0:2222"))
    if args.idle <= 0:
        parser.error(_("--idle must be more than 0 minutes"))
    if args.sessions < 1 or args.per_key < 1:
        parser.error(_("--sessions and --per-key must be at least 1"))
    command = [sys.executable, "-m", "ankh.tui.cli", "--interface", args.interface]
    server = SshServer(command, home.data_dir(), host=host.strip("[]"), port=int(port),
                       idle_timeout=args.idle * 60, log=lambda line: print("ankh:", line, flush=True),
                       max_sessions=args.sessions, per_key=args.per_key, allow_join=args.allow_join)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        bound = await server.start()
        print(f"ankh: serving the game over SSH on {host or '*'}:{bound} "
              f"(host key {server.host_fingerprint}); players' homes in {server.root}", flush=True)
        await stop.wait()
        await server.close()

    try:
        asyncio.run(main())
    except (OSError, home.HomeError) as exc:
        print(f"ankh: cannot serve over SSH: {exc}", file=sys.stderr)
        return 1
    return 0


def replay(path: str, as_json: bool, stats: bool = False) -> int:
    """``ankh replay FILE``: a record's event log, or a networked save's
    public log in the player's language (``--json``: the final state)."""
    import os
    from pathlib import Path
    try:
        return _replay(Path(path), as_json, stats)
    except BrokenPipeError:
        # the reader stopped (``ankh replay FILE | head``): nothing more to say
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _replay(path, as_json: bool, stats: bool = False) -> int:
    import io
    from ankh.core.game import RulesError, SetupError
    from ankh.net.files import journal
    from ankh.net.play.local import LocalGame
    path = journal.save_file(path)  # a networked game's save folder: its finished game, or its journal so far
    try:
        data = path.read_bytes()
    except OSError as e:
        print(_("ankh: cannot read {path}: {why}").format(path=path, why=e.strerror), file=sys.stderr)
        return 2
    if journal.kind_of(io.BytesIO(data)) is not None:
        return _replay_network(path, data, as_json, stats)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        print(_("ankh: {path} is not a text record").format(path=path), file=sys.stderr)
        return 2
    try:
        if stats:
            from ankh.tui.stats import stats_of_record
            return _show_stats(stats_of_record(text))
        game = LocalGame.from_text(text)
    except (RulesError, SetupError) as e:
        print(f"ankh: {path}: {e}", file=sys.stderr)
        return 1
    if as_json:
        json.dump(game.game.state_json(game.state, game.running_scores), sys.stdout, indent=2)
        print()
    else:
        for event in game.log:
            print(event.text)
    sys.stdout.flush()
    return 0


def _show_stats(stats) -> int:
    """The pictures: on screen at a terminal, else printed."""
    from ankh.tui.stats import print_stats, show_stats
    if sys.stdout.isatty():
        show_stats(stats)
    else:
        print_stats(stats)
    sys.stdout.flush()
    return 0


def _replay_network(path, data: bytes, as_json: bool, stats: bool = False) -> int:
    """A networked game's public log: what every seat and spectator saw, the
    hidden cards left hidden."""
    import io
    from ankh.core.game import entry, get
    from ankh.net.files import journal
    from ankh.net.wire.errors import ProtocolError
    from ankh.net.play.peer import Logged, replay as replay_log
    from ankh.net.files.transcript import read_stream
    from ankh.tui.games import ui
    try:
        if journal.is_journal(data[:64]):
            data = journal.read(data)[0].to_bytes()
        roster, stream = read_stream(io.BytesIO(data))
        if stats:
            from ankh.tui.stats import stats_of_log
            return _show_stats(stats_of_log(roster, [frame for _seat, frame in stream]))
        game = replay_log(roster, [frame for _seat, frame in stream])
    except ProtocolError as e:
        print(_("ankh: {path} cannot be replayed: {why}").format(path=path, why=translated_words(e)), file=sys.stderr)
        return 1
    if as_json:
        json.dump(get(roster.kind).state_json(game.engine), sys.stdout, indent=2)
        print()
    else:
        events = [item.event for item in game.history if isinstance(item, Logged)]
        # a game with no screens of its own: its rules' words
        for line in (ui(roster.kind).public_log(events) if entry(roster.kind).screens else
                     [event.text for event in events]):
            print(line)
    sys.stdout.flush()
    return 0


def translated_words(exc) -> str:
    from ankh.tui.i18n import translated
    return translated(getattr(exc, "reason", None) or getattr(exc, "message", None) or str(exc))


if __name__ == "__main__":
    sys.exit(main())
