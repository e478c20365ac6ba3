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
    Think, WatchIntro, WatchLog, WriteTranscript,
)
from ankh.net.tablecore.host import HostTable
from ankh.net.tablecore.join import JOIN_AGAIN, REJOIN, JoinTable
from ankh.net.tablecore.seats import CLOSING, DONE, GAME_OVER, PAUSED, Saved

from tests import tinygame

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
