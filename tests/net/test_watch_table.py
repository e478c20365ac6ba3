"""A spectator's table as a state machine (``net/tablecore/watch.py``): what a
watch point says goes in, events for the screen come out, with no socket or
clock.  The table it watches is played in memory (``test_join_table.Table``)."""
from __future__ import annotations

from pathlib import Path

from ankh.net.wire.envelope import Identity
from ankh.net.play.events import ChatHidden, Over, Paused, Played, Started, WatchLost, WatchMoved, WatchWaiting
from ankh.net.wire.lobby import decode
from ankh.net.tablecore.effects import Close, Dial, GiveUp, Send, Wait, WatchIntro, WatchLog
from ankh.net.tablecore.seats import CLOSING, PAUSED
from ankh.net.tablecore.waits import RETRY_EVERY
from ankh.net.tablecore.watch import FEED_SLICE, LEAVE_SILENT_AFTER, WatchTable

from .test_join_table import Clock, Table, of

HOST = ("10.0.0.1", 4000)


def played(tmp_path: Path) -> Table:
    t = Table(tmp_path, save=False)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.result is not None and t.host.result is not None)
    return t


def following(t: Table, clock: Clock | None = None) -> WatchTable:
    """A spectator linked to the host's watch point, told the table as the host tells a newcomer."""
    w = WatchTable(clock=clock or Clock())
    w.watch(*HOST)
    assert w.linked(w.point(), t.host.identity.public_key) == {"t": "watch", "from": 0}
    for m in of(WatchIntro, t.host_out)[-1].intro:
        assert w.received(decode(m)) is None
    return w


def frames_of(t: Table) -> list[bytes]:
    return [f for _, step in of(WatchLog, t.host_out)[-1].log for f in step]


def test_a_spectator_follows_the_whole_game_in_slices_and_ends_with_the_seats_result(tmp_path: Path) -> None:
    t = played(tmp_path)
    w = following(t)
    assert isinstance(w.take()[-1], Started) and w.spectator is not None
    msg = {"t": "frames", "f": frames_of(t)}
    pieces = w.pieces(msg)
    assert len(pieces) > 1 and all(len(p["f"]) <= FEED_SLICE for p in pieces)
    assert [f for p in pieces for f in p["f"]] == msg["f"]
    for p in pieces:
        assert w.received(p) is None
    out = w.take()
    assert of(Played, out) and isinstance(out[-1], Over)
    assert w.result is not None and w.result.text == t.host.result.text == t.joiner.result.text


def test_a_watch_point_that_is_no_seat_of_the_table_is_left(tmp_path: Path) -> None:
    t = played(tmp_path)
    w = WatchTable(clock=Clock())
    w.watch(*HOST)
    w.linked(w.point(), Identity.generate().public_key)  # a stranger's link
    lobby, start, _ = of(WatchIntro, t.host_out)[-1].intro
    w.received(decode(lobby))
    why = w.received(decode(start))
    assert why == "that watch point is not a seat of the table"
    assert w.take() == [Close(0, "not a seat of this table")] and w.start is None


def test_a_table_whose_spectators_may_not_read_its_chat_says_so_once(tmp_path: Path) -> None:
    t = played(tmp_path)
    w = WatchTable(clock=Clock())
    w.watch(*HOST)
    w.linked(w.point(), t.host.identity.public_key)
    _, start, _ = of(WatchIntro, t.host_out)[-1].intro
    w.received({**decode(start), "chat": 0})
    assert of(ChatHidden, w.take()) == [ChatHidden()]


def test_a_paused_table_is_told_once_and_a_closed_one_ends_the_watch(tmp_path: Path) -> None:
    t = played(tmp_path)
    w = following(t)
    w.received({"t": "points", "at": [{"host": "10.0.0.1", "port": 4100}]})
    assert w.points == [HOST, ("10.0.0.1", 4100)]
    w.take()
    w.lost("the peer closed: " + PAUSED)
    w.lost("the peer closed: " + PAUSED)
    assert w.take() == [Paused(0)] and w.paused and w.point() == HOST
    w.lost("a cut")
    assert w.take() == [WatchLost(HOST, "a cut")] and w.point() == ("10.0.0.1", 4100)
    w.linked(w.point(), t.joiner.identity.public_key)
    assert w.take() == [WatchMoved(("10.0.0.1", 4100))]
    w.lost("the peer closed: " + CLOSING)
    assert str(w.result.text) == "the table closed: the peer closed: " + CLOSING


def test_over_ssh_a_table_may_not_send_the_spectator_anywhere(tmp_path: Path) -> None:
    w = WatchTable(clock=Clock(), may_go=lambda host, port: (host, port) == ("10.0.0.7", 22))
    w.watch(*HOST)
    w.received({"t": "points", "at": [{"host": "10.9.9.9", "port": 80}, {"host": "10.0.0.7", "port": 22},
                                      {"host": "10.0.0.1", "port": 5000}]})
    assert w.points == [HOST, ("10.0.0.7", 22), ("10.0.0.1", 5000)]  # (the first point's own machine too)


def test_no_watch_point_answering_for_the_table_s_patience_ends_the_watch() -> None:
    clock = Clock()
    w = WatchTable(clock=clock)
    w.watch(*HOST)
    w.points.append(("10.0.0.2", 4000))
    assert w.unreachable("refused") is None and w.take() == []  # one of two tried: the other at once
    assert w.dial() == Dial(("10.0.0.2", 4000), LEAVE_SILENT_AFTER)
    clock.now += 3
    assert w.unreachable("refused") == Wait(RETRY_EVERY)  # none answers now: a wait, then all again
    assert of(WatchWaiting, w.take()) == [WatchWaiting(3.0)] and w.dial().address == HOST
    clock.now += w.abandon_after
    assert w.unreachable("refused") is None and w.dial().address == ("10.0.0.2", 4000)
    assert isinstance(w.take()[-1], Over) and str(w.result.text).startswith("the table closed: no watch point")


def test_the_only_watch_point_known_gets_the_whole_handshake_and_its_failure_is_the_caller_s() -> None:
    """A person who typed a wrong address hears the link's failure at once (``ankh watch``
    exits 2 with it); nothing is waited for, no result is made up."""
    w = WatchTable(clock=Clock())
    w.watch(*HOST)
    assert w.dial() == Dial(HOST, None)  # (None: the link's whole handshake time)
    assert w.unreachable("connection refused") == GiveUp("connection refused")
    assert w.result is None and w.take() == [] and w.dial() == Dial(HOST, None)


def test_with_other_watch_points_known_a_silent_one_is_left_sooner(tmp_path: Path) -> None:
    t = played(tmp_path)
    w = following(t)
    w.received({"t": "points", "at": [{"host": "10.0.0.1", "port": 4100}]})
    assert w.dial() == Dial(HOST, LEAVE_SILENT_AFTER)
    w.take()
    w.lost("a cut")
    assert w.dial() == Dial(("10.0.0.1", 4100), LEAVE_SILENT_AFTER)
    assert w.unreachable("refused") is None and w.dial().address == HOST  # (never a give-up once it followed)


def test_once_the_spectator_followed_the_game_its_only_watch_point_failing_is_waited_out(tmp_path: Path) -> None:
    t = played(tmp_path)
    w = following(t)
    w.take()
    assert w.spectator is not None and w.dial() == Dial(HOST, LEAVE_SILENT_AFTER)
    assert w.unreachable("refused") == Wait(RETRY_EVERY) and w.result is None


def test_a_link_done_with_is_closed_after_a_bye_only_when_the_watch_holds_its_end(tmp_path: Path) -> None:
    t = played(tmp_path)
    w = following(t)
    w.take()
    w.unlinking()  # (the link dropped mid-game: the watch point may keep the end for this spectator)
    assert w.take() == [Close(0, "done watching")]
    for p in w.pieces({"t": "frames", "f": frames_of(t)}):
        w.received(p)
    assert w.result is not None
    w.take()
    w.unlinking()
    assert w.take() == [Send(0, {"t": "bye", "why": "done watching"}), Close(0, "done watching")]


def test_a_malformed_message_closes_the_link_saying_why_and_another_point_is_tried(tmp_path: Path) -> None:
    t = played(tmp_path)
    w = following(t)
    w.take()
    assert w.malformed("not msgpack") == "malformed message"
    assert w.take() == [Close(0, "malformed message: not msgpack")]
