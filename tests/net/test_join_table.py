"""A joined seat's table as a state machine (``net/tablecore/join.py``): what the
host says goes in, effects come out, with no socket, process or clock.  Each
test plays a host's table (``HostTable``) and a joiner's against each other,
carrying what each sends to the other in memory, and reads what the joiner's
table asks to be done."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from ankh.net.wire.envelope import Identity
from ankh.net.wire.errors import LocalProtocolError
from ankh.net.play.events import Back, Gone, HostKey, LobbySeats, Over, Paused, Saving, Started, TableEvent, Waiting
from ankh.net.io.savedir import SaveDir
from ankh.net.wire.lobby import decode, encode
from ankh.net.play.peer import game_of
from ankh.net.tablecore.effects import (
    Again, Broadcast, Close, CreateSave, Effect, Journal, JournalEnding, KeepSeat, LetGoSeat, OpenWatchPoint, Send,
    TellSeats, Think, WatchIntro, WatchLog, WriteTranscript,
)
from ankh.net.tablecore.host import HostTable
from ankh.net.tablecore.join import JOIN_AGAIN, REJOIN, JoinTable
from ankh.net.tablecore.seats import CLOSING, DONE, GAME_OVER, PAUSED, Saved

from tests import tinygame
from tests.net import nethelp

tinygame.install()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def wire(msg: Any) -> dict[str, Any]:
    """A message as the other end reads it (encoded, then decoded)."""
    return decode(msg if isinstance(msg, bytes) else encode(msg))


def of(kind: type, effects: list) -> list:
    return [e for e in effects if isinstance(e, kind)]


class Table:
    """A host's table of two seats and a joiner's, the link between them in
    memory; every seat played by the game's random bot; the joiner's save, if
    it keeps one, written as its effects say."""

    def __init__(self, tmp_path: Path, *, save: bool = True, want: str | None = None, seed: int = 1) -> None:
        self.clock = Clock()
        self.host = HostTable(Identity.generate(), "host", clock=self.clock, seats=2, kind="tiny")
        self.identity = Identity.generate()
        self.joiner = JoinTable(self.identity, "green", clock=self.clock, save_root=tmp_path if save else None,
                                want=want, address=("10.0.0.1", 4000))
        self.bot = game_of("tiny").bot("random", random.Random(seed))
        self.to_host: list[dict[str, Any]] = []
        self.to_joiner: list[dict[str, Any]] = []
        self.thinking: list[tuple[Any, Think]] = []
        self.out: list[Any] = []  # every effect the joiner's table asked for, in order
        self.host_out: list[Any] = []  # and the host's
        self.seated = False
        self.link_up = True
        self.save: SaveDir | None = None
        self.host.opened()
        self._host_effects()

    def _host_effects(self) -> None:
        for e in self.host.take():
            self.host_out.append(e)
            match e:
                case Send(seat=1, msg=msg) | Broadcast(msg=msg):
                    self.to_joiner.append(wire(msg))
                case Think():
                    self.thinking.append((self.host, e))
                case Again():
                    self.host.flush()
                    self._host_effects()

    def joiner_effects(self) -> list[Any]:
        """What the joiner's table asked for since the last call (and carried out here)."""
        new = self.joiner.take()
        for e in new:
            match e:
                case Send(seat=0, msg=msg) if self.link_up:
                    self.to_host.append(wire(msg))
                case Close(seat=0):
                    self.link_up = False
                case Think():
                    self.thinking.append((self.joiner, e))
                case CreateSave(path=path, roster=roster, info=info, secrets=secrets):
                    self.save = SaveDir(path)
                    self.save.create(roster, info, secrets)
                case Journal(steps=steps) if self.save is not None:
                    for frames in steps:
                        self.save.append(frames)
        self.out += new
        return new

    def pump(self, until: Any = lambda: False, moves: int = 10_000) -> None:
        """Carry the messages both ways and answer the decisions, until nothing
        moves or ``until()`` holds."""
        self.joiner_effects()
        while not until() and moves > 0:
            if self.to_host:
                msg = self.to_host.pop(0)
                if not self.seated:
                    self.seated = self.host.arrive(self.identity.public_key, ("10.0.0.2", 5000), msg) == 1
                else:
                    self.host.received(1, msg)
                self._host_effects()
            elif self.to_joiner:
                if self.link_up:
                    self.joiner.received(self.to_joiner.pop(0))
                else:
                    self.to_joiner.clear()
            elif self.thinking:
                core, think = self.thinking.pop(0)
                moves -= 1
                core.decided(think.seat, think.decision, self.bot.choose(think.peer.engine.copy(), think.decision))
                self._host_effects()
            else:
                break
            self.joiner_effects()

    def told(self, kind: type) -> list:
        return of(kind, self.out)


def test_a_joiner_asks_for_a_seat_sends_its_key_once_the_seats_are_final_and_saves_before_playing(
        tmp_path: Path) -> None:
    t = Table(tmp_path)
    host_key = t.host.identity.public_key
    t.joiner.connected(host_key)
    first = t.joiner_effects()
    assert first[0] == HostKey(host_key)
    join = wire(first[2].msg)
    assert join["t"] == "join" and join["name"] == "green" and join["ready"] == 1
    assert first[1] == KeepSeat(join["nonce"], None)  # kept before it is sent: the start will hold it
    t.pump(until=lambda: t.joiner.peer is not None)
    assert [s.name for s in t.told(LobbySeats)[-1].seats] == ["host", "green"]
    (started,) = t.told(Started)
    assert t.joiner.seat == t.joiner.primary == 1 and started.start.names == ("host", "green")
    sent = [wire(e.msg) for e in t.told(Send)]
    key = next(m for m in sent if m["t"] == "key")
    assert key["key"] == t.joiner.secrets.identity.public_key
    # the seat's secrets are kept before its key goes (the roster will hold it), until the save holds them
    key_at = next(i for i, e in enumerate(t.out) if isinstance(e, Send) and wire(e.msg)["t"] == "key")
    assert t.out.index(KeepSeat(join["nonce"], t.joiner.secrets)) < key_at
    assert t.out.index(LetGoSeat()) == [type(e) for e in t.out].index(CreateSave) + 1
    # the save begins before the seat's first frame goes out, and the spectators are then served
    kinds = [type(e) for e in t.out]
    first_frames = next(i for i, e in enumerate(t.out) if isinstance(e, Send) and wire(e.msg)["t"] == "frames")
    assert kinds.index(CreateSave) < kinds.index(Saving) < first_frames
    assert kinds.index(WatchIntro) < kinds.index(OpenWatchPoint)
    info = t.told(CreateSave)[0].info
    assert (info["role"], info["host"], info["port"]) == ("join", "10.0.0.1", 4000)


def test_a_whole_game_over_the_link_ends_alike_at_both_tables_and_the_joiner_says_it_is_done(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.result is not None and t.host.result is not None)
    assert t.joiner.result is not None and t.joiner.result.finished
    assert t.joiner.result.text == t.host.result.text
    (over,) = t.told(Over)
    assert over.result is t.joiner.result
    assert t.told(WriteTranscript) and t.told(WatchLog)
    assert wire(t.told(Send)[-1].msg) == DONE  # the host need not wait for this seat's last frames
    # once the host says it holds the whole game too, this seat's link is done with
    t.pump()
    assert t.joiner.host_done and t.joiner.settled()
    assert Close(0, GAME_OVER) in t.out


def test_a_table_of_another_game_is_refused_in_the_lobby_and_the_host_told_why(tmp_path: Path) -> None:
    t = Table(tmp_path, want="morpork")
    t.joiner.connected(t.host.identity.public_key)
    t.joiner_effects()
    t.pump(until=lambda: t.joiner.result is not None)
    assert str(t.joiner.result.text).startswith("refused: the table plays"), t.joiner.result.text
    bye = wire(t.told(Send)[-1].msg)
    assert bye["t"] == "bye" and bye["why"] == t.joiner.result.text
    assert t.joiner.peer is None and t.joiner.settled()


def test_a_refusal_by_the_host_before_the_game_is_the_result_in_its_own_words(tmp_path: Path) -> None:
    t = Table(tmp_path)
    assert t.joiner.received({"t": "bye", "why": "refused: the table is full"}) is True
    assert str(t.joiner.result.text) == "refused: the table is full"
    assert t.joiner.result.text.params == {"why": "the table is full"}  # (said in the player's language)


def test_an_ending_heard_from_the_host_is_what_this_seats_own_log_says_and_the_host_hears_it_was_heard(
        tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.peer is not None and t.joiner.peer.moves >= 2)
    assert t.joiner.result is None
    t.joiner_effects()
    assert t.joiner.received({"t": "bye", "why": "the host's own words"}) is True
    out = t.joiner_effects()
    text = str(t.joiner.result.text)
    assert text.startswith("the table ended the game") and "host's own words" not in text, text
    assert wire(of(Send, out)[-1].msg) == DONE
    assert not t.joiner.result.finished
    assert t.joiner.received({"t": "frames", "f": []}) is False  # the game is over here: nothing more is played


def test_a_link_lost_is_joined_again_before_the_game_rejoined_during_it_and_let_go_when_the_table_closed(
        tmp_path: Path) -> None:
    t = Table(tmp_path, save=False)
    assert t.joiner.lost("a cut") == JOIN_AGAIN
    assert t.joiner_effects() == [Gone(0, "a cut")]
    assert [m["t"] for m in t.joiner.relink_opening()] == ["join"]
    t.joiner.relinked()
    assert t.joiner_effects() == [Back(0)]
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.peer is not None and t.joiner.peer.moves >= 1)
    t.joiner_effects()
    assert t.joiner.lost(PAUSED) == REJOIN
    assert Paused(0) in t.joiner_effects()
    assert t.joiner.host_away(5.0) is False
    assert t.joiner_effects() == [Waiting((0,), {0: 5.0})]
    assert t.joiner.lost("the peer closed " + CLOSING) is None
    assert str(t.joiner.result.text) == "the host closed the table before the game ended"


def test_a_seat_carried_on_from_its_journal_is_where_its_save_stops_and_rejoins_with_what_it_holds(
        tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.peer is not None and t.joiner.peer.moves >= 3)
    assert t.save is not None and t.joiner.result is None
    have = list(t.joiner.peer.protocol.have())
    t.save.close()  # the process is killed here
    transcript, info, secrets = SaveDir(t.save.path).load()
    again = JoinTable(t.identity, "", clock=Clock(), saved=Saved(transcript, info, secrets, t.save.path))
    assert (again.name, again.seat, again.address) == ("green", 1, ("10.0.0.1", 4000))
    assert again.host_key == t.host.identity.public_key  # every new link must prove the host it had
    assert again.start == t.joiner.start and again.saving
    assert list(again.peer.protocol.have()) == have
    assert again.lost("killed") == REJOIN
    rejoin = again.rejoin_message()
    assert rejoin == {"t": "rejoin", "game": transcript.roster.game_id, "have": have} and again.awaiting_have
    # the host's answer says what it lacks: this seat sends it, and its own frames go again
    assert again.received({"t": "have", "have": have}) is False and not again.awaiting_have


def test_a_save_of_another_identity_or_of_a_hosted_table_is_not_carried_on(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.peer is not None)
    t.save.close()
    transcript, info, secrets = SaveDir(t.save.path).load()
    with pytest.raises(LocalProtocolError, match="another identity"):
        JoinTable(Identity.generate(), "", clock=Clock(), saved=Saved(transcript, info, secrets, t.save.path))
    with pytest.raises(LocalProtocolError, match="not of a joined table"):
        JoinTable(t.identity, "", clock=Clock(), saved=Saved(transcript, {**info, "role": "host"}, secrets,
                                                             t.save.path))


def test_the_journal_keeps_a_forfeit_this_seats_own_log_waited_for(tmp_path: Path) -> None:
    """(The audit waiting for the host, which says bye: forfeit only once this
    seat's own clock waited half the table's time.)"""
    t = Table(tmp_path)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.peer is not None and t.joiner.peer.phase == "audit")
    if t.joiner.peer.phase != "audit" or not [s for s in t.joiner.peer.waiting_for() if s != 1]:
        return  # (this seed's audit waits for nobody else here)
    t.clock.now += t.joiner.abandon_after
    t.joiner_effects()
    t.joiner.received({"t": "bye", "why": "gone"})
    out = t.joiner_effects()
    assert str(t.joiner.result.text).startswith("forfeit"), t.joiner.result.text
    assert of(JournalEnding, out) and "forfeit" in of(JournalEnding, out)[0].record


def test_effects_are_events_for_the_screens_or_effects_for_the_driver(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.result is not None)
    assert all(isinstance(e, (Effect, TableEvent)) for e in t.out)


def test_a_chat_line_goes_to_the_host_while_its_link_is_up_and_is_neither_sent_nor_shown_while_it_is_down(
        tmp_path: Path) -> None:
    """A person who says a line while the host's link is down sees it not shown as
    said (nothing carries it); once the link is back, the next line goes."""
    from ankh.net.play.events import Chat

    t = Table(tmp_path, save=False)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.peer is not None and t.joiner.peer.moves >= 1)
    t.joiner_effects()
    t.joiner.chat("first")
    said = t.joiner_effects()
    assert [e.text for e in of(Chat, said)] == ["first"] and any(m.get("t") == "chat" for m in t.to_host)
    t.to_host.clear()
    assert t.joiner.lost(PAUSED) == REJOIN
    t.joiner_effects()
    t.joiner.chat("into the void")
    assert not of(Chat, t.joiner_effects()) and not of(Send, t.joiner.take())
    t.joiner.relinked()
    t.joiner_effects()
    t.joiner.chat("back")
    said = t.joiner_effects()
    assert [e.text for e in of(Chat, said)] == ["back"] and [m["text"] for m in t.to_host if m.get("t") == "chat"] \
        == ["back"]


# -- the own wait at the audit: who is named (docs/fairness.md, "At the audit") ----------------------

class Three:
    """A host's table of three seats and two joiners' (yellow, seat 1; green, seat 2),
    in memory; green's part of the audit never reaches the host (which then ends the
    table at yellow on its word), and green's direct link to yellow carries only what
    a test hands yellow (``JoinTable.seat_said``)."""

    def __init__(self, seed: int = 1) -> None:
        self.clock = Clock()
        self.host = HostTable(Identity.generate(), "host", clock=self.clock, seats=3, kind="tiny")
        self.ids = {1: Identity.generate(), 2: Identity.generate()}
        self.seats = {s: JoinTable(self.ids[s], name, clock=self.clock, address=("10.0.0.1", 4000))
                      for s, name in ((1, "yellow"), (2, "green"))}
        self.bot = game_of("tiny").bot("random", random.Random(seed))
        self.queue: list[tuple[int, int, dict[str, Any]]] = []  # (from, to, message); 0: the host
        self.thinking: list[tuple[Any, Think]] = []
        self.arrived: set[int] = set()
        self.cut = False  # green's part of the audit went out: nothing it sends the host arrives from then on
        self.host.opened()
        self._effects()

    def _effects(self) -> None:
        for e in self.host.take():
            match e:
                case Send(seat=seat, msg=msg) if seat in self.seats:
                    self.queue.append((0, seat, wire(msg)))
                case Broadcast(msg=msg):
                    self.queue += [(0, s, wire(msg)) for s in self.seats]
                case Think():
                    self.thinking.append((self.host, e))
                case Again():
                    self.host.flush()
                    self._effects()
        for s, core in self.seats.items():
            for e in core.take():
                match e:
                    case Send(seat=0, msg=msg):
                        msg = wire(msg)
                        if s == 2 and msg["t"] == "frames":  # (green's part of the audit is lost on its way)
                            kept = []
                            for f in msg["f"]:
                                self.cut = self.cut or nethelp.decode(f)["kind"] == "audit"
                                kept += [] if self.cut else [f]
                            msg["f"] = kept
                        if not (s == 2 and self.cut and not msg.get("f")):
                            self.queue.append((s, 0, msg))
                    case Think():
                        self.thinking.append((core, e))

    def pump(self, until: Any, first: Any = lambda dst: True) -> None:
        """Deliver what is queued, and the bots' decisions, until ``until()``; a message
        to a seat ``first`` refuses waits while another is queued."""
        self._effects()
        moves = 10_000
        while not until() and moves > 0:
            if self.queue:
                ahead = [i for i, (_, dst, _) in enumerate(self.queue) if first(dst)]
                src, dst, msg = self.queue.pop(ahead[0] if ahead else 0)
                if dst:
                    self.seats[dst].received(msg)
                elif src not in self.arrived:
                    self.arrived.add(src)
                    assert self.host.arrive(self.ids[src].public_key, ("10.0.0.2", 5000 + src), msg) == src
                else:
                    self.host.received(src, msg)
            elif self.thinking:
                core, think = self.thinking.pop(0)
                moves -= 1
                core.decided(think.seat, think.decision, self.bot.choose(think.peer.engine.copy(), think.decision))
            else:
                break
            self._effects()


def _at_the_audit_without_green(seed: int) -> Three:
    """Both joiners at (or, green, past) the audit, yellow's log waiting for green's
    part of it (lost on its way to the host), yellow and green linked directly; the
    host then ends the table at yellow (its ``bye``): yellow keeps its own wait."""
    t = Three(seed)
    yellow, green = t.seats[1], t.seats[2]
    yellow.connected(t.host.identity.public_key)
    t.pump(until=lambda: 1 in t.arrived)
    green.connected(t.host.identity.public_key)
    t.pump(until=lambda: False)
    assert yellow.peer.phase == "audit" and yellow.peer.waiting_for() == (2,) and green.peer.phase in ("audit", "final")
    yellow.seat_reached(2, True)
    yellow.seat_reached(2, False)
    yellow.received({"t": "bye", "why": "the host gave up on green"})
    assert yellow.provisional and yellow._own_wait
    return t


def _green_says_here(t: Three) -> list[dict[str, Any]]:
    """What green says on its direct links on its beat: its last frames (its disclosure
    among them), then the others' frames of its log (``_log_since``)."""
    green = t.seats[2]
    green.take()
    green.say_here()
    return [wire(e.msg) for e in green.take() if isinstance(e, TellSeats)]


def _wait_out(t: Three) -> Any:
    yellow = t.seats[1]
    t.clock.now += yellow.abandon_after
    yellow.closing()
    return yellow.result


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_in_its_own_wait_a_seat_names_only_one_whose_link_proves_it_there_without_its_disclosure(seed: int) -> None:
    """A frame green writes on its link once its log is at the audit (the others' frames
    of its log), with no disclosure of it over yellow's log before it, proves green is
    there and withholds: yellow names it.  A link gone silent (dark, or its program
    ended) proves nothing: yellow names nobody and says whom the game waited for.  And
    green's beat as an honest seat says it (its disclosure first) clears it."""
    t = _at_the_audit_without_green(seed)
    said = _green_says_here(t)
    own = [m for m in said if m["f"][:1] == bytes([2])]
    assert own and len(said) > len(own) and said[:len(own)] == own  # (its own frames, its disclosure among them, first)
    silent = _wait_out(t)
    assert silent.partial and not silent.forfeit and "waited for green" in str(silent.text), silent.text

    talking = _at_the_audit_without_green(seed)
    for msg in _green_says_here(talking):  # a withholder: the others' frames, never its disclosure
        if msg["f"][:1] != bytes([2]):
            talking.seats[1].seat_said(2, msg)
    assert talking.seats[1].alive == {2}
    named = _wait_out(talking)
    assert named.forfeit == (2,) and str(named.text).startswith("forfeit: green"), named.text

    honest = _at_the_audit_without_green(seed)
    for msg in _green_says_here(honest):
        honest.seats[1].seat_said(2, msg)
    assert 2 in honest.seats[1].disclosed and not honest.seats[1].alive
    cleared = _wait_out(honest)
    assert not cleared.forfeit and "(green)" not in str(cleared.text), cleared.text
