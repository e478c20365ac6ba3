"""Networked games with no screen: ``ankh host --headless`` and ``ankh join --headless``.

For scripts, tests and benchmarks.  A bot plays the seat; one line is printed
per public event, and the last line is ``result: …`` in the same words on
every seat, so that scripts can compare peers.  Exit status: 0 for a game
played to its end and audited fair, 1 for a game that ended otherwise
(aborted, cheating found, abandoned), 2 for a usage or connection error.

With ``--agree-to-end`` a headless seat agrees at once when the table offers
to end a game that a seat left for good (nobody sits at it to be asked);
without it, it never agrees, and the table waits for the seat as long as ever.
"""
from __future__ import annotations

import asyncio
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

from ankh.core.game import COLOURS, forced
from ankh.net.files import home
from ankh.net.wire.errors import LocalProtocolError, RemoteProtocolError, Words
from ankh.net.wire.envelope import Identity, fingerprint
from ankh.net.play.events import (
    Advertised, Alert, Away, Back, Chat, ChatHidden, Decided, Gone, HostKey, Joined, Listening, NotAdvertised, Over,
    Paused, Played, Saving, SetupOver, Started, TableEvent, TranscriptSaved, Waiting, WatchLost, WatchMoved,
    WatchPointOpen, WatchWaiting,
)
from ankh.net.io.node import HostNode, JoinNode, WatchNode, find_table
from ankh.net.io.savedir import SaveDir
from ankh.net.tablecore.result import Result
from ankh.net.io.transport import ConnectionClosed
from ankh.net.files.journal import unfinished_seat
from ankh.net.play.leave import News
from ankh.net.play.peer import Audited, GameOver, Logged, Moved

from ankh.tui.bots import make_bot


def _line(event: TableEvent, said: dict) -> str | None:
    """The line a headless seat prints for ``event`` (None: nothing)."""
    match event:
        case Played(event=Logged(event=e)):
            return e.text
        case Played(event=GameOver()):
            return "game over (provisional until the audit passes)"
        case Played(event=Audited(outcome=o)):
            return "audit: fair" if o.fair else "audit: " + "; ".join(m for _, m in o.violations)
        case Listening(port=port):
            return f"listening on port {port}"
        case Joined(seat=seat, name=name, fingerprint=fp):
            return f"{name} sits at seat {seat + 1} ({COLOURS[seat]}), key {fp}"
        case Started(start=start):
            return f"table fingerprint: {start.fingerprint}"
        case Gone(seat=seat, why=why):
            return f"link to {COLOURS[seat]} lost ({why}); waiting"
        case Waiting(seats=waiting, gone=gone):
            slow = [s for s in waiting if s in gone]
            now = time.monotonic()
            if slow and now - said["waiting"] >= 5:
                said["waiting"] = now
                return "waiting for " + ", ".join(f"{COLOURS[s]} (link down for {gone[s]:.0f} s)" for s in slow)
        case Back(seat=seat):
            return f"link to {COLOURS[seat]} back"
        case Paused(seat=seat):
            return f"paused: {COLOURS[seat]} (the host) left the table; waiting for it to come back"
        case Away(news=news):
            return _away_line(news, said)
        case Advertised(service=service):
            return f"advertised on the LAN as {service}"
        case NotAdvertised(why=why):
            return f"not advertised on the LAN ({why}); players can join with HOST:PORT"
        case Alert(text=text):
            return f"warning: {text}"
        case Chat(seat=seat, name=name, text=text):
            return f"chat: {COLOURS[seat]} ({name}): {text}"
        case ChatHidden():
            return "chat: this table hides the players' chat from spectators"
        case WatchMoved(address=(h, p)):
            return f"watching through {h}:{p} now"
        case WatchLost(address=(h, p), why=why):
            return f"lost the watch point {h}:{p} ({why}); looking for another"
        case WatchWaiting(secs=secs) if time.monotonic() - said["waiting"] >= 5:
            said["waiting"] = time.monotonic()
            return f"no watch point answers (for {secs:.0f} s); trying again"
        case WatchPointOpen(host=h, port=p):
            return f"spectators can watch through {h}:{p}"
        case Saving(path=path):
            return f"saving to {path}"
        case TranscriptSaved(path=path):
            return f"transcript: {path}"
        case Over(result=result):
            return f"result: {result.text}"
    return None


def _printer(out=sys.stdout):
    over = []
    said = {"waiting": 0.0}

    def report(event: TableEvent) -> None:
        if over:
            return  # the result is the last line
        line = _line(event, said)
        if isinstance(event, Over):
            over.append(line)
        if line is not None:
            print(line, file=out, flush=True)

    return report


class Trace:
    """``--trace FILE``: when things happened, for measuring a table across
    processes (``scripts/bench/lan``).  One line per event, the time first
    (``time.monotonic()``, one clock for every process on a Linux machine):

    - ``T start``: the table is full, the seats are final;
    - ``T setup``: the setup is over here (every deck shuffled, proven, locked);
    - ``T decided SEAT MOVE``: this process's seat decided the game's move
      number MOVE (a bot's thinking is over; ``forced`` follows when the
      rules left one option, decided as soon as the rules got there);
    - ``T applied SEAT MOVE``: SEAT's move number MOVE was applied here;
    - ``T stolen THIEF VICTIM MOVE``: a random steal that followed move number
      MOVE is over here (a game whose steal event names its ``victim``).
    """

    def __init__(self, path: str, report):
        self.file = open(path, "w", encoding="utf-8", buffering=1)
        self.report = report
        self.decided: set[int] = set()
        self.last = -1  # the last move applied here

    def __call__(self, event: TableEvent) -> None:
        now = time.monotonic()
        if self.file.closed:
            pass
        else:
            match event:
                case Played(seat=seat, event=Moved() as e):
                    if e.seat == seat and e.index not in self.decided:
                        self.file.write(f"{now:.6f} decided {e.seat} {e.index} forced\n")
                    self.file.write(f"{now:.6f} applied {e.seat} {e.index}\n")
                    self.last = e.index
                case Played(event=Logged(event=e)) if e.kind == "steal" and "victim" in (e.data or {}):
                    self.file.write(f"{now:.6f} stolen {e.seat} {e.data['victim']} {self.last}\n")
                case Decided(seat=seat, move=move):
                    self.decided.add(move)
                    self.file.write(f"{now:.6f} decided {seat} {move}\n")
                case Started():
                    self.file.write(f"{now:.6f} start\n")
                case SetupOver():
                    self.file.write(f"{now:.6f} setup\n")
        self.report(event)
        if isinstance(event, Over):
            self.file.close()


def _away_line(news: News, said: dict) -> str | None:
    """A seat the game waits for is away: every 5 s who and how long; the offer
    to end the table and who agreed, as they change."""
    offer = (news.offer, news.agreed)
    if offer != said.get("offer") and news.offer is not None:
        said["offer"] = offer
        return (f"offer: end the table without {' and '.join(COLOURS[s] for s in news.offer.gone)} "
                f"(agreed: {', '.join(COLOURS[s] for s in news.agreed) or 'nobody yet'}; {news.need} needed)")
    now = time.monotonic()
    if news.away and now - said.get("away", 0.0) >= 5:
        said["away"] = now
        return "away: " + ", ".join(
            f"{COLOURS[a.seat]} ({'connected, no move' if a.link else 'link down'} for {a.secs:.0f} s)"
            for a in news.away)
    return None


def _reporter(args):
    report = _printer()
    return Trace(args.trace, report) if args.trace else report


def _bot_decider(kind: str, seed: int | None):
    bots: dict[int, Any] = {}

    async def decide(peer, decision) -> tuple:
        if forced(decision):     # (one option and a space of other moves is a choice)
            return decision.options[0]
        bot = bots.get(peer.me)
        if bot is None:
            rng = random.Random(None if seed is None else f"{seed}:{peer.me}")
            bot = bots[peer.me] = (make_bot(kind, rng, peer.game), rng)
        state = peer.engine.copy()
        return await asyncio.to_thread(bot[0].choose, state, decision)

    return decide


def parse_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"expected HOST:PORT, not {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def host(args) -> int:
    profile = home.load_identity()
    name = args.name or profile.name
    decide = _bot_decider(args.bot, args.seed)
    report = _reporter(args)

    async def main() -> Result:
        if args.load:
            node = await HostNode.resume(profile.identity, SaveDir(Path(args.load)), decide=decide, report=report,
                                         bind=args.bind)
        else:
            node = HostNode(profile.identity, name, seats=args.seats, bots=args.bots, decide=decide, report=report,
                            save_root=home.saves_dir(), bind=args.bind, port=args.port,
                            advertise=not args.no_advertise, spectator_chat=not args.no_spectator_chat,
                            kind=args.game, gone_after=args.gone_after, move_clock=args.move_clock)
        node.auto_agree = args.agree_to_end  # (a loaded table keeps the clocks every seat checked at its start)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):  # the host leaves: the table is paused, not over
            loop.add_signal_handler(sig, node.leave)
        await node.open()
        return await node.run()

    return _finish(main)


FULL = "the table is full"  # a table refusing a join because its game is on


def join(args) -> int:
    profile = home.load_identity()
    name = args.name or profile.name
    decide = _bot_decider(args.bot, args.seed)
    report = _reporter(args)

    async def main() -> Result:
        if args.load:
            return await JoinNode.resume(profile.identity, SaveDir(Path(args.load)), decide=decide, report=report,
                                         auto_agree=args.agree_to_end)
        if args.address:
            h, p = parse_address(args.address)
        else:
            print("looking for an open table on the LAN", flush=True)
            h, p = await find_table(args.find_timeout, interfaces=[args.interface] if args.interface else None)
            print(f"found a table at {h}:{p}", flush=True)
        turned_away: list[Path] = []
        host_fp = ""

        def first_try(event: TableEvent) -> None:
            nonlocal host_fp
            if isinstance(event, HostKey):
                host_fp = fingerprint(event.key)
            full = isinstance(event, Over) and FULL in event.result.text
            saved = unfinished_seat(home.saves_dir(), host_fp) if full else None
            if saved is not None:
                turned_away.append(saved)  # not the last word: the seat's save carries on
            else:
                report(event)
        node = JoinNode(profile.identity, name, decide=decide, report=first_try, save_root=home.saves_dir(),
                        want=args.game)
        node.auto_agree = args.agree_to_end
        result = await node.run(h, p)
        if not turned_away:
            return result
        saved = turned_away[0]
        print(f"back to the seat saved in {saved}", flush=True)
        return await JoinNode.resume(profile.identity, SaveDir(saved), decide=decide, report=report,
                                     auto_agree=args.agree_to_end, address=(h, p))

    return _finish(main)


def watch(args) -> int:
    """Follow a table as a spectator, printing its public log."""
    report = _printer()

    async def main() -> Result:
        if args.address:
            h, p = parse_address(args.address)
        else:
            print("looking for a table on the LAN", flush=True)
            h, p = await find_table(args.find_timeout, interfaces=[args.interface] if args.interface else None,
                                    open_only=False)
            print(f"found a table at {h}:{p}", flush=True)
        return await WatchNode(Identity.generate(), report=report).run(h, p)

    return _finish(main)


def _finish(main) -> int:
    try:
        result = asyncio.run(main())
    except (ValueError, ConnectionClosed, LocalProtocolError, RemoteProtocolError, OSError) as exc:
        print(f"ankh: {_why(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0 if result.finished and result.fair else 1


def _why(exc: BaseException) -> str:
    """Why the command could not run, in the person's language: an error goes to the
    person (standard error), not to the scripts that read the printed lines (a save
    another program is playing, say: ``SaveDir.load``)."""
    from ankh.tui.i18n import translated
    words = next((a for a in exc.args if isinstance(a, Words)), None)
    return translated(getattr(exc, "reason", None) or words or str(exc))
