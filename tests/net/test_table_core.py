"""The table's sans-I/O parts, with no sockets and no clock: the time is a value."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ankh.net.wire.admission import TOO_MANY_SPECTATORS, Door
from ankh.net.wire.envelope import Identity, fingerprint
from ankh.net.play.events import Alert, Back, Gone, LobbySeats, Over, Waiting
from ankh.net.io.savedir import SaveDir
from ankh.net.play.leave import Ending, Stop
from ankh.net.wire.lobby import CHAT_RATE, CHAT_WINDOW, Lobby
from ankh.net.tablecore.chat import ChatLimit
from ankh.net.tablecore.effects import Close, Send, WatchEnd
from ankh.net.tablecore.host import HostTable
from ankh.net.tablecore.join import DELIVER, JOIN_AGAIN, LOBBY_PATIENCE, REJOIN, JoinTable
from ankh.net.tablecore.result import Result
from ankh.net.tablecore.seats import DONE, FAREWELL, GAME_OVER, Refused, Saved, Watcher, pin_people
from ankh.net.tablecore.waits import abandoned_words, late_seats

from .test_join_table import Clock, Table


def test_a_seat_says_at_most_the_rate_in_a_window_and_may_speak_again_after_it() -> None:
    limit = ChatLimit()
    assert all(limit.allow(1, 100.0 + i * 0.1) for i in range(CHAT_RATE))
    assert not limit.allow(1, 100.0 + CHAT_RATE * 0.1)        # one too many, within the window
    assert limit.allow(2, 100.5)                              # another seat is counted apart
    assert limit.allow(1, 100.0 + CHAT_WINDOW + 0.05)         # the first line has left the window
    assert "that one was not passed on" in limit.refusal("bob")


def test_a_refused_line_is_not_counted_against_the_seat() -> None:
    limit = ChatLimit(rate=2, window=10.0)
    assert limit.allow(0, 0.0) and limit.allow(0, 1.0)
    assert not limit.allow(0, 2.0) and not limit.allow(0, 3.0)
    assert limit.allow(0, 10.5)  # only the two lines passed on count: the first has left the window


def test_the_host_and_a_joiner_see_the_same_lobby() -> None:
    lobby = Lobby(bytes(16), 3)
    keys = [Identity.generate().public_key for _ in range(2)]
    lobby.sit("ann", keys[0], bytes(16), ready=True)
    lobby.sit("bot 1", keys[1], bytes(16), bot=True)
    host_view, joiner_view = LobbySeats.of(lobby), LobbySeats.of_message(lobby.message())
    assert host_view == joiner_view
    assert [(s.name, s.bot, s.fingerprint) for s in host_view.seats] == [
        ("ann", False, fingerprint(keys[0])), ("bot 1", True, fingerprint(keys[1]))]
    assert host_view.total == 3


def test_a_table_abandons_only_a_seat_it_waits_for_that_was_gone_long_enough() -> None:
    gone_since = {1: 100.0, 2: 100.0, 3: 450.0}
    assert late_seats(gone_since, (1, 3), now=699.0, after=600.0) == []
    assert late_seats(gone_since, (1, 3), now=700.0, after=600.0) == [1]  # 2 is gone, but not waited for
    assert abandoned_words([1, 3], 600.0) == "abandoned: yellow and blue did not come back within 600 s"


# -- a joiner linking to the host again: the driver tries, the table says what and how long ----------

def test_a_joiner_whose_link_dropped_before_the_game_tries_for_the_lobbys_patience_then_the_table_is_closed() -> None:
    clock = Clock()
    joiner = JoinTable(Identity.generate(), "green", clock=clock, address=("10.0.0.1", 4000))
    joiner.connected(Identity.generate().public_key)
    joiner.take()
    assert joiner.lost("a cut") == JOIN_AGAIN and joiner.take() == [Gone(0, "a cut")]
    assert joiner.relink_due() and [m["t"] for m in joiner.relink_opening()] == ["join"]  # the same seat
    clock.now += LOBBY_PATIENCE - 0.1
    assert joiner.relink_failed("refused") is False and joiner.result is None and joiner.relink_due()
    assert joiner.take() == []  # (no word each try: the screens said the host is gone)
    clock.now += 0.1
    assert joiner.relink_failed("refused") is True and not joiner.relink_due()
    assert str(joiner.result.text) == "the table closed before the game began: refused"


def test_a_joiner_linked_again_before_the_game_asks_for_the_same_seat_and_is_back() -> None:
    clock = Clock()
    joiner = JoinTable(Identity.generate(), "green", clock=clock, address=("10.0.0.1", 4000))
    joiner.connected(Identity.generate().public_key)
    (join,) = [e.msg for e in joiner.take() if isinstance(e, Send)]
    joiner.lost("a cut")
    joiner.take()
    clock.now += 5.0
    assert joiner.relink_failed("timed out") is False
    assert joiner.relink_opening() == [join]  # the same identity and nonce, said with the link's handshake
    assert joiner.relinked() is False  # no game, no watch point to tell
    assert joiner.take() == [Back(0)]
    assert not joiner.relink_due()


def test_a_joiner_whose_link_dropped_during_the_game_rejoins_with_what_it_holds_and_waits_as_the_table_does(
        tmp_path: Path) -> None:
    t = Table(tmp_path, save=False)
    joiner = t.joiner
    joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: joiner.peer is not None and joiner.peer.moves >= 1)
    t.joiner_effects()
    assert joiner.lost("a cut") == REJOIN
    t.joiner_effects()
    have = list(joiner.peer.protocol.have())
    assert joiner.relink_opening() == [{"t": "rejoin", "game": joiner.peer.protocol.roster.game_id, "have": have}]
    assert joiner.awaiting_have  # its own frames wait for the host's ``have``
    t.clock.now += joiner.abandon_after - 1
    assert joiner.relink_failed("timed out") is False and joiner.relink_due() and joiner.result is None
    assert t.joiner_effects() == [Waiting((0,), {0: joiner.abandon_after - 1})]  # the screens say how long
    assert joiner.relinked() is True  # back: its watch point is told to the host again
    assert t.joiner_effects() == [Back(0)] and not joiner.relink_due()
    assert joiner.lost("a cut again") == REJOIN
    t.joiner_effects()
    t.clock.now += joiner.abandon_after
    assert joiner.relink_failed("timed out") is True and not joiner.relink_due()
    assert str(joiner.result.text).startswith("paused: red (the host) did not come back within 600 s")


def test_a_joiner_whose_game_is_over_goes_back_quietly_within_the_farewell_to_deliver_the_end(tmp_path: Path) -> None:
    t = Table(tmp_path, save=False)
    joiner = t.joiner
    joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: joiner.result is not None)
    t.joiner_effects()
    assert joiner.result.finished and not joiner.host_done
    assert joiner.lost("a cut") == DELIVER
    opening = joiner.relink_opening()
    assert [m["t"] for m in opening] == ["rejoin", "done"] and opening[1] == DONE
    t.clock.now += FAREWELL - 0.5
    assert joiner.relink_failed("timed out") is False and t.joiner_effects() == []  # never gives up on a try...
    assert joiner.relink_due()
    t.clock.now += 0.5
    assert not joiner.relink_due()  # ... only once the farewell is over


def test_a_save_carried_on_links_to_the_host_as_a_seat_whose_link_dropped_during_the_game(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.peer is not None and t.joiner.peer.moves >= 1)
    t.save.close()  # the process is killed here
    clock = Clock()
    again = JoinTable(t.identity, "", clock=clock, saved=Saved(*SaveDir(t.save.path).load(), t.save.path))
    again.resumed()
    assert again.relink_due() and [m["t"] for m in again.relink_opening()] == ["rejoin"]
    clock.now += again.abandon_after
    assert again.relink_failed("refused") is True and str(again.result.text).startswith("paused: ")


def test_a_seats_spectators_take_the_last_steps_of_a_game_played_to_its_end_ended_on_votes_or_stopped(
        tmp_path: Path) -> None:
    t = Table(tmp_path, save=False)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.result is not None)
    assert t.joiner.result.finished and t.joiner.closing() is True
    voted = JoinTable(Identity.generate(), "green", clock=Clock())
    voted.end(Result("ended", ending=Ending(Stop(3, bytes(32), (2,)), (0, 1), (b"", b""))))
    assert voted.closing() is True
    stopped = JoinTable(Identity.generate(), "green", clock=Clock())
    result = Result("the table ended the game")
    stopped.end(result, provisional=True)  # the host's word alone, kept back a moment
    assert stopped.take() == []
    # its last word (the step under way and a bye) waits for its spectators too, as the host's
    # does: one that dropped a moment ago comes back for it (sweep seed 10249)
    assert stopped.closing() is True
    told = stopped.take()
    assert Over(result) in told and any(isinstance(e, WatchEnd) for e in told)  # and the result stands, told now


def played(tmp_path: Path, until: Callable[[Table], bool]) -> Table:
    """A host's table and a joiner's (no save) linked and played until ``until(table)``."""
    t = Table(tmp_path, save=False)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: until(t))
    return t


def test_a_link_to_a_seats_watch_point_watches_once_the_game_began_while_the_door_has_room(tmp_path: Path) -> None:
    t = Table(tmp_path, save=False)
    joiner = t.joiner
    joiner.door = Door(spectators=1)
    for ticket, host in (("w1", "10.0.0.5"), ("w2", "10.0.0.6")):
        joiner.door.arrive(ticket, host)
    stranger = Identity.generate().public_key
    assert joiner.at_watch_point({"t": "watch", "from": 0}, stranger, "w1") is None  # no game yet: nothing to see
    joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: joiner.peer is not None)
    assert joiner.at_watch_point({"t": "hello"}, stranger) is None  # this port only serves spectators
    host = t.host.identity.public_key
    assert joiner.at_watch_point({"t": "seat", "seat": 0}, host) is None  # the host's seat: never linked around it
    assert joiner.at_watch_point({"t": "watch", "from": 4}, stranger, "w1") == Watcher(4)
    assert joiner.at_watch_point({"t": "watch", "from": 0}, stranger, "w2") == Refused(TOO_MANY_SPECTATORS)


def test_a_link_to_the_hosts_address_that_another_key_answers_is_told_to_the_person_once() -> None:
    joiner = JoinTable(Identity.generate(), "green", clock=Clock(), address=("10.0.0.1", 4000))
    host = Identity.generate().public_key
    joiner.connected(host)
    joiner.lost("a cut")
    joiner.take()
    impostor = f"the peer is {fingerprint(b'x' * 32)}, not the expected {fingerprint(host)}"
    assert joiner.relink_failed(impostor) is False and joiner.take() == [Alert(impostor)]
    assert joiner.relink_failed(impostor) is False and joiner.take() == []  # (it tries on: once is enough)
    assert joiner.relink_failed("timed out") is False and joiner.take() == []


def test_a_joiner_whose_game_is_over_leaves_its_link_when_the_host_says_nothing_within_the_farewell(
        tmp_path: Path) -> None:
    t = played(tmp_path, lambda t: t.joiner.result is not None)
    joiner = t.joiner
    t.joiner_effects()
    assert not joiner.host_done and not joiner.settled()
    t.clock.now += FAREWELL
    assert joiner.settled() and joiner.farewell_left() <= 0
    joiner.farewell_over()
    assert joiner.take() == [Close(0, GAME_OVER)]


def test_the_host_stays_for_its_seats_and_spectators_only_after_a_game_played_out_or_ended_with_words(
        tmp_path: Path) -> None:
    t = played(tmp_path, lambda t: t.host.result is not None)
    assert t.host.result.finished and t.host.waits_for_seats() and t.host.spectators_settle()
    voted = HostTable(Identity.generate(), "host", clock=Clock(), seats=2)
    assert not voted.waits_for_seats() and not voted.spectators_settle()  # (nothing ended yet)
    voted.end(Result("ended", ending=Ending(Stop(3, bytes(32), (1,)), (0,), (b"",))))
    assert not voted.waits_for_seats() and voted.spectators_settle()
    closed = HostTable(Identity.generate(), "host", clock=Clock(), seats=2)
    closed.leave()  # in the lobby: the table closes, nobody waited for
    assert closed.result is not None and not closed.waits_for_seats() and not closed.spectators_settle()


def test_the_hosts_turn_to_deliver_again_does_nothing_before_the_game() -> None:
    host = HostTable(Identity.generate(), "host", clock=Clock(), seats=2)
    host.opened()
    host.take()
    host.again()
    assert host.take() == []


class Known:
    """Keys met before, in memory (``home.KnownPlayers`` keeps them in a file)."""

    def __init__(self, **pinned: bytes) -> None:
        self.pinned = dict(pinned)

    def check(self, name: str, key: bytes) -> str:
        return "new" if name not in self.pinned else "same" if self.pinned[name] == key else "changed"

    def warning(self, name: str, key: bytes) -> str | None:
        return f"{name} has a new key" if self.check(name, key) == "changed" else None

    def pin(self, name: str, key: bytes) -> None:
        self.pinned[name] = key


def test_people_met_for_the_first_time_are_pinned_and_a_known_name_with_another_key_is_an_alert() -> None:
    known = Known(green=b"g" * 32, yellow=b"y" * 32)
    alerts = list(pin_people(known, (("green", b"g" * 32), ("yellow", b"Y" * 32), ("blue", b"b" * 32))))
    assert alerts == [Alert("yellow has a new key")]
    assert known.pinned == {"green": b"g" * 32, "yellow": b"y" * 32, "blue": b"b" * 32}  # never replaced silently


def test_a_joiner_opens_its_watch_point_and_tells_the_host_where_only_while_its_game_is_not_over(
        tmp_path: Path) -> None:
    t = played(tmp_path, lambda t: t.joiner.peer is not None)
    joiner = t.joiner
    assert joiner.opens_watch_point() and joiner.watch_point(4242) == {"t": "watchpoint", "port": 4242}
    t.host.received(1, joiner.watch_point(4242))  # the host has every spectator told of it
    assert t.host.points == {1: ("10.0.0.2", 4242)}
    t.pump(until=lambda: joiner.result is not None)
    assert not joiner.opens_watch_point()


def test_a_host_whose_game_is_over_stays_for_the_farewell_or_until_every_seat_holds_the_whole_game(
        tmp_path: Path) -> None:
    t = played(tmp_path, lambda t: t.host.result is not None)
    host = t.host
    assert host.waits_for_seats() and not host.everyone_done() and host.farewell_left() == FAREWELL
    t.clock.now += FAREWELL - 1
    assert host.farewell_left() == 1.0
    t.pump()  # the joiner's last frames, and its word that it holds the whole game
    assert host.everyone_done() and host.farewell_left() == 0.0


def test_a_joiner_that_cannot_read_the_host_leaves_the_link_and_before_the_game_the_table() -> None:
    joiner = JoinTable(Identity.generate(), "green", clock=Clock(), address=("10.0.0.1", 4000))
    joiner.connected(Identity.generate().public_key)
    joiner.take()
    assert joiner.malformed("lobby: unexpected field 'gone'") is True
    assert joiner.take()[0] == Close(0, "malformed message: lobby: unexpected field 'gone'")
    assert "another version of ankh" in str(joiner.result.text)


def test_a_joiner_in_the_game_that_cannot_read_the_host_leaves_the_link_and_links_again(tmp_path: Path) -> None:
    t = played(tmp_path, lambda t: t.joiner.peer is not None)
    t.joiner_effects()
    assert t.joiner.malformed("frames: not bytes") is False and t.joiner.result is None
    assert t.joiner_effects() == [Close(0, "malformed message: frames: not bytes")]
    assert t.joiner.lost("malformed message: frames: not bytes") == REJOIN
