"""A networked game as the screens see it (no Textual here).

:class:`NetSession` runs a :class:`~ankh.net.io.node.HostNode` or
:class:`~ankh.net.io.node.JoinNode` in the program's event loop and answers
the game screen the way :class:`~ankh.tui.session.GameSession` does for a
local game: the view of this seat, the log, whose decision it is.  The
person's decisions go to the node when they are made; what happened at the
table comes back through the node's reports, and the screens listening are
told that something changed.
"""
from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from ankh.core.game import Decision, Game, allows, forced, get
from ankh.net.files import home
from ankh.net.wire.envelope import Identity, fingerprint
from ankh.net.play.events import (
    Advertised, Alert, Away, Back, Chat, ChatHidden, Confirming, Gone, HostKey, Listening, LobbySeats, NotAdvertised,
    Over, Paused, Played, Started, TableEvent, Waiting, WatchLost, WatchMoved, WatchWaiting,
)
from ankh.net.io.node import HostNode, JoinNode, WatchNode
from ankh.net.io.savedir import SaveDir
from ankh.net.files.journal import unfinished_seat
from ankh.net.tablecore.result import Result
from ankh.net.play.leave import News
from ankh.net.wire.lobby import Start, table_fingerprint
from ankh.net.play.ops import shuffle_steps
from ankh.net.play.peer import Audited, GameOver, GamePeer, Logged

from ankh.tui.bots import make_bot
from ankh.tui.games import ui
from ankh.tui.headless import FULL
from ankh.tui.i18n import _, translated
from ankh.tui.seats import colour
from ankh.tui.review import every_card_revealed
from ankh.tui.session import Listeners, Next, ReviewSource


def duration(t: float) -> str:
    """A wait as a person reads it: "45 s", "5 min 00 s"."""
    t = int(t)
    return _("{m} min {s:02d} s").format(m=t // 60, s=t % 60) if t >= 60 else _("{s} s").format(s=t)


BOT_PACE = 0.2  # seconds the bots of a hosted table wait before each move, at most


class NetSession(Listeners):
    """One person's seat at a networked table."""

    networked = True
    spectating = False
    path = None
    ply = 0

    def __init__(self, *, bot_kind: str = "heuristic", interface: str | None = None,
                 name: str | None = None, advertise: bool = True, kind: str | None = None,
                 bot_delay: float = BOT_PACE) -> None:
        super().__init__()
        self.kind = kind  # the game to host or to join (None: the default game; joining, any)
        self.bot_kind = bot_kind
        self.bot_pace = min(bot_delay, BOT_PACE)  # seconds a bot seat hosted here waits before each move
        self.interface = interface
        self.name = name            # the name to sit under (default: the profile's)
        self.advertise = advertise  # a hosted table is announced on the LAN
        self.node: HostNode | JoinNode | None = None
        self.log: list = []
        self.lobby_lines: list[str] = []
        self.seats: list[tuple[str, str, bool, bool]] = []  # (name, fingerprint, bot, ready) by seat
        self.start: Start | None = None
        self.address: str | None = None
        self.advertised: str | None = None
        self.status = ""
        self._links_down = False
        self._back_note = ""  # "Link to red is back.", until the game moves on
        self.total = 0
        self.clocks: tuple[int, int] | None = None  # the table's gone-wait and move clock, as its lobby shows them
        self.audit = ""
        self.result: Result | None = None
        self.error: str | None = None
        self.decision: Decision | None = None
        self._future: asyncio.Future | None = None
        self._task: asyncio.Task | None = None
        self._bots: dict[int, Any] = {}
        self.chat_lines: list[tuple[int, str, str]] = []  # (seat, name, text): plain text, already checked
        self.unconfirmed: list[int] = []  # the host's view: seats yet to confirm the table fingerprint
        self.news: News | None = None  # a seat the game waits for is away; the offer to end the table
        self.paused = False  # the host left: the game waits for it to load its save again
        self.notices: list[str] = []  # what the game screen must say once, at length (a pause)
        self.host_fp = ""  # the fingerprint of the key the host proved (a joiner's)

    # --- starting ---------------------------------------------------------------------------------

    def host(self, *, seats: int, bots: int, port: int = 0, spectator_chat: bool = True) -> None:
        profile = home.load_identity()
        bind = self.interface or "0.0.0.0"
        decide = {0: self.decide, **{s: self._bot for s in range(1, bots + 1)}}
        self.node = HostNode(profile.identity, self.name or profile.name, seats=seats, bots=bots, decide=decide,
                             report=self.report, save_root=home.saves_dir(), bind=bind, port=port, ready=False,
                             spectator_chat=spectator_chat, advertise=self.advertise, confirmed=False,
                             **({"kind": self.kind} if self.kind else {}))
        self._task = asyncio.get_running_loop().create_task(self._run_host())

    async def _run_host(self) -> None:
        assert isinstance(self.node, HostNode)
        try:
            await self.node.open()
            await self.node.run()
        except Exception as exc:  # a port in use, no network: say so on the screen
            self.fail(str(exc) or type(exc).__name__)

    def join(self, host: str, port: int) -> None:
        profile = home.load_identity()
        self.node = JoinNode(profile.identity, self.name or profile.name, decide=self.decide, report=self.report,
                             save_root=home.saves_dir(), ready=False, want=self.kind, confirmed=False)
        self.address = f"{host}:{port}"
        self._task = asyncio.get_running_loop().create_task(self._run_join(host, port))

    async def _run_join(self, host: str, port: int) -> None:
        assert isinstance(self.node, JoinNode)
        try:
            await self.node.run(host, port)
        except Exception as exc:
            self.fail(getattr(exc, "reason", None) or str(exc) or type(exc).__name__)
            return
        full = self.result is not None and FULL in self.result.text
        saved = unfinished_seat(home.saves_dir(), self.host_fp) if full and self.host_fp else None
        if saved is not None:  # the game is on, and this is one of its seats (the program died): carry it on
            self.result = None
            self.lobby_lines.append(_("Back to your seat: carrying on the game saved in {path}.").format(
                path=saved) if home.ssh_player() is None else _("Back to your seat: carrying on its saved game."))
            self.changed()
            await self._resume_join(home.load_identity().identity, SaveDir(saved), (host, port))

    def load(self, path: Path) -> None:
        """Carry on a saved networked game (after a crash, or leaving the table)."""
        save = SaveDir(path)
        _transcript, info, secrets = save.load()
        profile = home.load_identity()
        if info.get("role") == "host":
            decide = {0: self.decide, **{s: self._bot for s in info.get("bots", [])}}
            self._task = asyncio.get_running_loop().create_task(self._resume_host(profile.identity, save, decide))
        else:
            self.address = f"{info.get('host')}:{info.get('port')}"
            self._task = asyncio.get_running_loop().create_task(self._resume_join(profile.identity, save))

    async def _resume_host(self, identity, save: SaveDir, decide) -> None:
        try:
            self.node = await HostNode.resume(identity, save, decide=decide, report=self.report,
                                              bind=self.interface or "0.0.0.0")
            self.changed()
            await self.node.open()
            await self.node.run()
        except Exception as exc:
            self.fail(str(exc) or type(exc).__name__)

    async def _resume_join(self, identity, save: SaveDir, address: tuple[str, int] | None = None) -> None:
        try:
            await JoinNode.resume(identity, save, decide=self.decide, report=self.report,
                                  started=self._adopt, address=address)
        except Exception as exc:
            self.fail(getattr(exc, "reason", None) or str(exc) or type(exc).__name__)

    def _adopt(self, node: JoinNode) -> None:
        self.node = node
        self.changed()

    def fail(self, message: str) -> None:
        self.error = message
        self.changed()

    async def close(self) -> None:
        if self.node is not None and self.result is None and isinstance(self.node, HostNode):
            await self.node.close()
        if self._task is not None and not self._task.done():
            self._task.cancel()

    # --- the node's side --------------------------------------------------------------------------

    def report(self, event: TableEvent) -> None:
        match event:
            case Played(event=Logged() as e):
                self.log.append(e.event)
                if self.status == self._back_note:
                    self.status = ""  # the game moves on: the link is back, no need to say it any more
            case Played(event=GameOver()):
                self.audit = _("The game is over; the result stands once the audit passes.")
            case Played(event=Audited(outcome=outcome)):
                self.audit = (_("Audit passed: every card and die was fair.") if outcome.fair else
                              _("The audit found cheating: {what}").format(
                                  what="; ".join(m for _s, m in outcome.violations)))
            case Listening(port=port):
                self.address = f"{self.interface or _('this machine')}:{port}"
            case Advertised(service=service):
                self.advertised = service
            case NotAdvertised(why=why):
                self.lobby_lines.append(_("Not announced on the LAN ({why}): players join with the address.").format(
                    why=why))
            case LobbySeats(seats=seats, total=total, clocks=clocks):
                self.seats = [(s.name, s.fingerprint, s.bot, s.ready) for s in seats]
                self.total, self.clocks = total, clocks
            case Started(start=start):
                self.start = start
            case Confirming(seats=seats):
                self.unconfirmed = list(seats)
            case Alert(text=text):
                self.lobby_lines.append("⚠ " + translated(text))
            case HostKey(key=key):
                self.host_fp = fingerprint(key)
                self.lobby_lines.append(_("The host proved the key {fp} when you connected.").format(fp=fingerprint(key)))
            case Chat(seat=seat, name=name, text=text):
                self.chat_lines.append((seat, name, text))
            case Waiting(seats=waiting, gone=gone):
                self._waiting(waiting, gone)
            case Away(news=news):
                self.news = news
                self._links_down = bool(news.away)
                self.status = self._away_words(news)
            case Paused(seat=seat):
                self.paused = self._links_down = True
                self.status = self._paused_words()
                self.notices.append(_("The game is paused: {colour} ({name}), the host, left the table. This screen "
                                      "carries on by itself when they load the game again; or leave (q). "
                                      "{back}").format(colour=colour(seat), name=self._name(seat),
                                                       back=self.come_back()))
            case Gone(seat=seat, why=why):
                self._links_down = True
                self.status = _("Link to {colour} lost ({why}); waiting for it to come back.").format(
                    colour=colour(seat), why=translated(why))
            case Back(seat=seat):
                self._links_down = self.paused = False
                self.status = self._back_note = _("Link to {colour} is back.").format(colour=colour(seat))
            case Over(result=result):
                self.result = result
        self.changed()

    def _waiting(self, waiting: tuple[int, ...], gone) -> None:
        slow = [s for s in waiting if s in gone]
        self._links_down = bool(gone)
        if self.paused:
            self.status = self._paused_words()
        elif self.news is not None and self.news.away:
            self.status = self._away_words(self.news)
        elif slow:
            self.status = _("Waiting for {who}").format(who=", ".join(
                _("{colour} (link down for {secs} s)").format(colour=colour(s), secs=int(gone[s]))
                for s in slow))
        elif waiting and self.peer is not None and self.peer.decision is None:
            self.status = _("waiting for {who}").format(who=", ".join(colour(s) for s in waiting))
        else:
            self.status = ""

    def _name(self, seat: int) -> str:
        return self.start.names[seat] if self.start is not None and seat < len(self.start.names) else "?"

    def _away_words(self, news: News) -> str:
        """Who the game waits for that is away, how long; the offer to end the table."""
        who = ", ".join((_("{colour} has not moved for {time}") if a.link else _("{colour} gone for {time}"))
                        .format(colour=colour(a.seat), time=duration(a.secs)) for a in news.away)
        if news.offer is None or self.spectating:   # (a spectator has no say in ending the table)
            return who
        if self.viewer in news.offer.gone:  # this seat is the one said to be gone: its own clock decides
            return _("{who}; the host offers to end the table without you: move, or it may end").format(who=who)
        if self.viewer in news.agreed:
            return _("{who}; you agreed to end the table ({agreed} of {need})").format(
                who=who, agreed=len(news.agreed), need=news.need)
        return _("{who}; e ends the table now ({agreed} of {need} agreed)").format(
            who=who, agreed=len(news.agreed), need=news.need)

    def _paused_words(self) -> str:
        return _("Paused: {colour} ({name}), the host, left the table").format(colour=colour(0), name=self._name(0))

    def come_back(self) -> str:
        """How this player comes back to the seat later: the title screen's Load
        list, or the command with the save (no path for a player over SSH, whose
        files live on the serving machine)."""
        node = self.node
        save = node.save.path if isinstance(node, (HostNode, JoinNode)) and node.save is not None else None
        if home.ssh_back_code() is not None:
            return _("To come back, log in again within 10 minutes with the user name {code} and choose this "
                     "game in the title screen's Load list (l).").format(code=home.ssh_back_code())
        if home.ssh_player() is not None or save is None:
            return _("To come back later, log in again and choose this game in the title screen's Load list (l).")
        command = "ankh host --load" if self.hosting else "ankh join --load"
        return _("To come back later, choose this game in the title screen's Load list (l), or run "
                 "{command} {path}").format(command=command, path=save)

    @property
    def hosting(self) -> bool:
        return isinstance(self.node, HostNode)

    @property
    def can_end_table(self) -> bool:
        """The table offers to end the game a seat left, and this seat has not agreed yet."""
        news = self.news
        return (news is not None and news.offer is not None and self.result is None and not self.spectating
                and self.viewer not in news.agreed and self.viewer not in news.offer.gone)

    def end_table(self) -> None:
        """This seat agrees to end the table now, with the scores as they stand."""
        if self.can_end_table and isinstance(self.node, (HostNode, JoinNode)):
            self.node.agree()

    async def decide(self, peer: GamePeer, decision: Decision) -> tuple:
        """The node asks the person at this seat."""
        self.decision = decision
        self._future = asyncio.get_running_loop().create_future()
        self.changed()
        try:
            return await self._future
        finally:
            self.decision = None
            self._future = None

    async def _bot(self, peer: GamePeer, decision: Decision) -> tuple:
        if forced(decision):     # (one option and a space of other moves is a choice)
            return decision.options[0]
        bot = self._bots.get(peer.me)
        if bot is None:
            bot = self._bots[peer.me] = make_bot(self.bot_kind, random.Random(), peer.game)
        state = peer.engine.copy()
        await asyncio.sleep(self.bot_pace)  # a pace a person can follow
        return await asyncio.to_thread(bot.choose, state, decision)

    @property
    def ready(self) -> bool:
        node = self.node
        return node.ready if isinstance(node, JoinNode) else \
            isinstance(node, HostNode) and all(s.ready for s in node.lobby.seats if s.key == node.identity.public_key)

    def toggle_ready(self) -> None:
        if isinstance(self.node, (HostNode, JoinNode)) and self.start is None:
            self.node.set_ready(not self.ready)

    @property
    def confirmed(self) -> bool:
        """Whether this seat's player has confirmed the table fingerprint (the deal waits for every seat's)."""
        return self.node.confirmed if isinstance(self.node, (HostNode, JoinNode)) else True

    def confirm(self) -> None:
        if self.start is not None and isinstance(self.node, (HostNode, JoinNode)):
            self.node.confirm_fingerprint()
            self.changed()

    @property
    def fingerprint(self) -> str | None:
        """The table fingerprint: the same on every screen of this table, to be read aloud."""
        if self.start is not None:
            return self.start.fingerprint
        if self.node is not None and self.node.start is not None:
            return self.node.start.fingerprint
        roster = self.peer.ledger().roster if self.peer is not None else None
        if roster is not None and roster.identities:
            return table_fingerprint(roster.game_id, list(roster.identities))
        return None

    def say(self, text: str) -> None:
        """A chat line from this seat."""
        if self.node is not None:
            self.node.chat(text)

    # --- what the screens read ----------------------------------------------------------------

    def review_source(self) -> ReviewSource | None:
        """The seat's save folder (its secrets and the table's log), for a
        review from the seat's view, and whether the audit disclosed every
        card (a review with every card known is offered then); None for a
        spectator, or with no save."""
        node, peer = self.node, self.peer
        if self.spectating or not isinstance(node, (HostNode, JoinNode)) or node.save is None:
            return None
        return ReviewSource(folder=node.save.path, seat=self.viewer,
                            every_card=peer is not None and every_card_revealed(peer.ledger()))

    def stats(self) -> Any:
        """The figures of the game followed (:mod:`ankh.core.stats`), from its public log."""
        from ankh.tui.stats import stats_of_ledger
        return stats_of_ledger(self.peer.ledger())

    @property
    def peer(self) -> GamePeer | None:
        node = self.node
        if node is None or not node.local:
            return None
        return node.local.get(node.primary)

    @property
    def viewer(self) -> int:
        return self.node.primary if self.node is not None else 0

    @property
    def own_fingerprint(self) -> str:
        """This player's key, as the lobby shows it: its row there ("you") before the deal."""
        return fingerprint(self.node.identity.public_key) if self.node is not None else ""

    @viewer.setter
    def viewer(self, seat: int) -> None:  # one person per networked seat: nothing to hand over
        pass

    @property
    def setup_progress(self) -> tuple[int, int] | None:
        """Steps of the setup done, and in all (shuffles with their proofs, locks), while it runs."""
        peer = self.peer
        if peer is None or peer.phase != "setup":
            return None
        total = 2 + sum(len(shuffle_steps(s, peer.players)) + 1 for s in peer.specs)
        return min(peer.protocol.ledger.index, total), total

    @property
    def started(self) -> bool:
        peer = self.peer
        return peer is not None and peer.phase != "setup"

    @property
    def people(self) -> list[int]:
        return [self.viewer]

    @property
    def players(self) -> int:
        peer = self.peer
        return peer.players if peer is not None else len(self.seats)

    @property
    def rules(self) -> Game:
        """The game the table plays (before the deal: the one asked for)."""
        peer = self.peer
        return peer.game if peer is not None else get(self.kind)

    @property
    def table_game(self) -> str | None:
        """The id of the game the table plays, once known (a joiner learns it
        from the table's first lobby; None before)."""
        node = self.node
        if isinstance(node, HostNode):
            return node.lobby.kind
        if isinstance(node, JoinNode) and node.table:
            return node.game_kind
        return None

    def view(self, seat: int | None = None) -> Any:
        assert self.peer is not None
        return self.rules.view_for(self.peer.engine, self.viewer if seat is None else seat)

    def stolen_card(self, handle: int) -> Any:
        """The card a steal moved under ``handle``, where this seat was its thief
        or its victim (None for anyone else: a spectator never knows it)."""
        return self.peer.stolen.get(handle) if self.peer is not None else None

    @property
    def over(self) -> bool:
        return self.peer is not None and self.peer.engine.outcome is not None

    def next(self) -> Next:
        peer = self.peer
        if peer is None:
            return Next("wait")
        if peer.engine.outcome is not None:
            return Next("over")
        if self.decision is not None and peer.decision == self.decision:
            return Next("person", self.viewer, self.decision)
        return Next("wait")

    def choose(self, option: tuple, asked: Decision) -> bool:
        """Hand the person's answer to the table, if the table still asks ``asked`` (the very
        decision: a screen a step behind must not answer the next one, which may look alike)."""
        if asked is not self.decision or self._future is None or self._future.done() or not allows(asked, option):
            return False
        self._future.set_result(option)
        return True

    def can_undo(self) -> bool:
        return False

    def undo_refusal(self) -> str:
        return _("In a game on the network every move is final: the other seats have applied it.")

    def undo(self) -> None:
        """Never offered: :meth:`can_undo` says no."""

    def save(self) -> None:
        """The node saves the game as it goes (journal and secrets, owner-only)."""

    def think_job(self, nxt: Next):  # pragma: no cover - no bot plays at this screen's seat
        raise RuntimeError("the seats' bots run in the table's node")

    def hint_job(self, nxt: Next) -> None:
        """No hint at a networked table: the other seats play without one."""
        return None

    def apply_bot(self, nxt: Next, option: tuple) -> bool:  # pragma: no cover
        return False

    @property
    def net_alert(self) -> str:
        """What must not be missed: a link down, the result, an error (shown over the status line)."""
        if self.error:
            return translated(self.error)
        if self.result is not None:
            return _("Result: {text}").format(text=self.result_words())
        return self.status if self._links_down else ""

    def result_words(self) -> str:
        """How the table ended, in the player's language where the rules tell it
        (the net layer's own words, the same on every seat, otherwise)."""
        verdict = ui(self.rules.id).verdict
        result = self.result
        if result is None:
            return ""
        if result.ending is not None and result.scores is not None:
            stop = result.ending.stop
            return _("Abandoned: {gone} left; {voters} ended the table. Scores as they stand: {scores}").format(
                gone=_(" and ").join(colour(s) for s in stop.gone),
                voters=_(" and ").join(colour(s) for s in result.ending.voters),
                scores=", ".join(f"{colour(s)} {v}" for s, v in enumerate(result.scores)))
        if result.finished and self.peer is not None and self.peer.engine.outcome is not None:
            words = verdict(self.view()).plain
            return _("{result}; the audit found cheating").format(result=words) if result.fair is False else words
        return translated(result.text)

    @property
    def net_note(self) -> str:
        """Who the table waits for, the audit (added to the status line)."""
        return self.audit or self.status


class WatchSession(NetSession):
    """A spectator's seat at the rail: the public game, followed live."""

    spectating = True  # no decision, no take-back, no word at the table: the screen offers none
    chat_hidden = False  # the table hides its players' chat from spectators

    def follow(self, host: str, port: int) -> None:
        self.node = WatchNode(Identity.generate(), report=self.report)
        self.address = f"{host}:{port}"
        self._task = asyncio.get_running_loop().create_task(self._run_watch(host, port))

    async def _run_watch(self, host: str, port: int) -> None:
        assert isinstance(self.node, WatchNode)
        try:
            await self.node.run(host, port)
        except Exception as exc:
            self.fail(getattr(exc, "reason", None) or str(exc) or type(exc).__name__)

    @property
    def peer(self):  # the spectator's public-only game
        return self.node.spectator if isinstance(self.node, WatchNode) else None

    @property
    def viewer(self):
        return None

    @viewer.setter
    def viewer(self, seat) -> None:
        pass

    @property
    def people(self) -> list[int]:
        return []

    @property
    def setup_progress(self) -> tuple[int, int] | None:
        sp = self.peer
        if sp is None or sp.phase != "setup":
            return None
        total = 2 + sum(len(shuffle_steps(s, sp.players)) + 1 for s in sp.specs)
        return min(sp.ledger().index, total), total

    def next(self) -> Next:
        sp = self.peer
        return Next("over") if sp is not None and sp.engine.outcome is not None else Next("wait")

    def say(self, text: str) -> None:
        """Spectators read the table talk; they do not speak."""

    def choose(self, option: tuple, asked: Decision) -> bool:
        return False

    def undo_refusal(self) -> str:
        return _("You are watching: the players make the moves.")

    def report(self, event: TableEvent) -> None:
        match event:
            case ChatHidden():
                self.chat_hidden = True
            case WatchLost():
                self.status = _("The seat we watched through left; looking for another.")
            case WatchWaiting(secs=secs):
                self.status = _("No seat of the table answers (for {secs} s); trying again.").format(secs=int(secs))
            case WatchMoved(address=(host, port)):
                self.status = _("Watching through {address} now.").format(address=f"{host}:{port}")
            case Paused():  # (told on the status line: a spectator has no seat to come back to)
                self.paused = self._links_down = True
                self.status = self._paused_words()
                self.changed()
                return
        super().report(event)

    @property
    def net_note(self) -> str:
        if self.chat_hidden:
            return self.audit or _("watching; this table hides the players' chat from spectators")
        return self.audit or _("watching")
