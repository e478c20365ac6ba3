"""The ``ankh`` command."""
from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ankh", description="Discworld: Ankh-Morpork in the terminal.")
    sub = parser.add_subparsers(dest="command")
    rp = sub.add_parser("replay", help="replay a game record")
    rp.add_argument("file", help="a record file (see docs/record.md)")
    rp.add_argument("--json", action="store_true", help="print the final state as JSON")
    vp = sub.add_parser("verify", help="audit a saved networked game's transcript")
    vp.add_argument("file")
    # Options of the game itself (no subcommand), handed on to ankh.tui.app.run.
    parser.add_argument("--seed", type=int, help="seed for new games (default: random)")
    parser.add_argument("--bot-delay", type=float, metavar="SECONDS",
                        help="pause before each bot decision (default 0.4)")
    parser.add_argument("--load", metavar="FILE", help="resume a saved game or a record")
    parser.add_argument("--ansi", action="store_true", help="use the 16 terminal colours only")
    args, rest = parser.parse_known_args(argv)
    if args.command == "replay":
        return replay(args.file, args.json)
    if args.command == "verify":
        from ankh.net.verify import main as verify_main
        return verify_main([args.file])
    from ankh.tui.app import run
    game = []
    for opt in ("seed", "bot_delay", "load"):
        if getattr(args, opt) is not None:
            game += ["--" + opt.replace("_", "-"), str(getattr(args, opt))]
    if args.ansi:
        game.append("--ansi")
    return run(game + rest)


def replay(path: str, as_json: bool) -> int:
    from ankh.core.model import RulesError
    from ankh.core.views import state_json
    from ankh.net.local import LocalGame, SetupError
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print(f"ankh: cannot read {path}: {e.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"ankh: {path} is not a text record", file=sys.stderr)
        return 2
    try:
        game = LocalGame.from_text(text)
    except (RulesError, SetupError) as e:
        print(f"ankh: {path}: {e}", file=sys.stderr)
        return 1
    if as_json:
        json.dump(state_json(game.state, game.running_scores), sys.stdout, indent=2)
        print()
    else:
        for event in game.log:
            print(event.text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
