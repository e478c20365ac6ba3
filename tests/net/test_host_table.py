"""The host's table as a state machine (``net/tablecore/host.py``): messages
in, effects out, with no socket, file or clock.  Each test plays what links
would say and reads what the table asks to be done."""
from __future__ import annotations

import pytest

from ankh.net.wire.admission import TOO_MANY_SPECTATORS, Door
from ankh.net.wire.envelope import Identity
from ankh.net.play.events import Joined, LobbySeats, Started
from ankh.net.wire.lobby import Start, decode
from ankh.net.files.secrets import SeatSecrets
from ankh.net.tablecore.effects import (
    Announce, Broadcast, Close, CreateSave, Send, Think, Unlink, WatchIntro,
)
from ankh.net.tablecore.host import HostTable, Refused, Watcher
from ankh.net.tablecore.seats import GAME_OVER


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def table(seats: int = 3, **kw) -> HostTable:
    t = HostTable(Identity.generate(), "host", clock=Clock(), seats=seats, **kw)
    t.opened()
    t.take()
    return t


def join(t: HostTable, name: str, ready: bool = True, link: object = None,
         ident: Identity | None = None) -> tuple[Identity, bytes, int]:
    ident, nonce = ident or Identity.generate(), name.encode().ljust(16, b".")
    seat = t.arrive(ident.public_key, ("10.0.0.9", 5000), {"t": "join", "name": name, "nonce": nonce,
                                                           "ready": int(ready)}, link)
    assert isinstance(seat, int)
    return ident, nonce, seat


def of(kind: type, effects: list) -> list:
    return [e for e in effects if isinstance(e, kind)]


def test_a_joiner_is_seated_told_the_lobby_and_the_advert_counts_it() -> None:
    t = table()
    _, _, seat = join(t, "green")
    out = t.take()
    assert seat == 1
    assert [(e.seat, e.name) for e in of(Joined, out)] == [(1, "green")]
    lobby = of(Broadcast, out)[0].msg
    assert lobby["t"] == "lobby" and [s["name"] for s in lobby["seats"]] == ["host", "green"]
    assert of(Announce, out) == [Announce({"seats_taken": 2})]
    assert len(of(LobbySeats, out)) == 1 and not of(Started, out)  # a seat still empty


def test_a_full_table_is_refused_and_a_stranger_that_says_nothing_known_too() -> None:
    t = table(seats=2)
    join(t, "green")
    late = t.arrive(Identity.generate().public_key, None, {"t": "join", "name": "late", "nonce": b"n" * 16})
    assert late == Refused("the table is full")
    assert isinstance(t.arrive(b"k" * 32, None, {"t": "hello"}), Refused)
    assert t.arrive(b"k" * 32, None, {"t": "watch", "from": 7}) == Watcher(7)


def test_a_seat_that_leaves_the_lobby_moves_the_seats_after_it_up() -> None:
    t = table(seats=4)
    green_link, yellow_link = object(), object()
    join(t, "green", link=green_link)
    join(t, "yellow", ready=False, link=yellow_link)
    t.take()
    t.closed(green_link, "the peer closed the link")
    t.take()
    assert [s.name for s in t.lobby.seats] == ["host", "yellow"]
    assert set(t.linked) == {1} and t.links == {1: yellow_link}  # yellow's link is seat 1's now
    assert t.seat_of(green_link) is None
    t.heard(yellow_link, {"t": "ready", "ready": 1})  # what it says is seat 1's
    assert t.lobby.seats[1].ready


def test_a_newer_link_takes_the_seat_the_older_closes_and_speaks_for_nobody() -> None:
    t = table()
    old, new = object(), object()
    green, _, seat = join(t, "green", link=old)
    t.take()
    assert join(t, "green", link=new, ident=green)[2] == seat  # back, with the same nonce, on a new link
    out = t.take()
    assert out[0] == Unlink(old, "replaced by a new connection")  # before anything is said on the new one
    assert t.links[seat] is new and t.seat_of(old) is None
    assert t.heard(old, {"t": "chat", "seat": seat, "n": 1, "text": "hi", "sig": b""}) is False
    assert t.take() == []  # not the seat's word: not even checked
    t.closed(old, "the peer closed the link")
    assert t.take() == [] and t.links[seat] is new and [s.name for s in t.lobby.seats] == ["host", "green"]


def test_a_replaced_link_that_closes_because_the_game_is_over_counts_its_seat_done() -> None:
    t = table()
    old, new = object(), object()
    green, _, seat = join(t, "green", link=old)
    join(t, "green", link=new, ident=green)
    t.closed(old, "the peer closed the link: " + GAME_OVER)
    assert seat in t.seats_done and t.links[seat] is new


def test_the_door_seats_a_joiner_and_lets_spectators_in_while_there_is_room() -> None:
    door = Door(spectators=1)
    for ticket, host in (("green", "10.0.0.1"), ("w1", "10.0.0.2"), ("w2", "10.0.0.3")):
        door.arrive(ticket, host)
    t = table(door=door)
    seat = t.arrive(Identity.generate().public_key, None, {"t": "join", "name": "g", "nonce": b"n" * 16},
                    ticket="green")
    assert seat == 1 and not door.is_stranger("green")  # a player's link: out of the strangers' room
    assert t.arrive(b"k" * 32, None, {"t": "watch", "from": 3}, ticket="w1") == Watcher(3)
    assert t.arrive(b"j" * 32, None, {"t": "watch", "from": 0}, ticket="w2") == Refused(TOO_MANY_SPECTATORS)


def test_a_chat_line_for_another_seat_closes_the_link_that_sent_it() -> None:
    t = table()
    join(t, "green")
    t.take()
    assert t.received(1, {"t": "chat", "seat": 2, "n": 1, "text": "hi", "sig": b""}) is False
    assert of(Close, t.take()) == [Close(1, "a chat line for another seat")]


def test_the_game_begins_when_every_seat_sent_its_key_and_the_save_comes_first(tmp_path) -> None:
    t = table(seats=2, save_root=tmp_path)
    green, nonce, seat = join(t, "green")
    out = t.take()
    start_msg = next(e.msg for e in of(Broadcast, out) if e.msg["t"] == "start")
    start, me = Start.from_message(start_msg, my_key=green.public_key, my_nonce=nonce)
    assert me == seat and t.unconfirmed == [1]
    secrets = SeatSecrets.generate(start.game_id, seat, green)
    t.received(seat, {"t": "key", "key": secrets.identity.public_key, "cert": secrets.cert})
    out = t.take()
    kinds = [type(e) for e in out]
    roster = next(e.msg for e in of(Broadcast, out) if e.msg["t"] == "roster")
    assert roster["keys"][1] == secrets.identity.public_key
    first_frames = next(i for i, e in enumerate(out) if isinstance(e, Send) and decode(e.msg)["t"] == "frames")
    assert kinds.index(CreateSave) < first_frames  # the save begins before the game's first frame goes out
    assert of(WatchIntro, out) and t.hub is not None
    # the game's first steps go to the joiner, and nothing is asked of a seat that is not here
    assert all(e.seat == 1 for e in of(Send, out))
    assert all(e.seat == 0 for e in of(Think, out))


def test_a_table_of_a_game_that_cannot_be_networked_or_of_too_many_seats_is_refused() -> None:
    from ankh.net.wire.errors import LocalProtocolError

    with pytest.raises(LocalProtocolError, match="seats"):
        HostTable(Identity.generate(), "host", clock=Clock(), seats=9)


def test_the_advert_says_the_table_its_seats_and_that_it_plays_once_the_game_began() -> None:
    t = table(seats=2, bots=0)
    advert = t.advert()
    assert advert["table_id"] == t.lobby.table and advert["host_key"] == t.identity.public_key
    assert (advert["host_name"], advert["seats_taken"], advert["seats_total"]) == ("host", 1, 2)
    assert (advert["phase"], advert["game"]) == ("lobby", t.lobby.kind)
    green, nonce, seat = join(t, "green")
    start, _ = Start.from_message(next(e.msg for e in of(Broadcast, t.take()) if e.msg["t"] == "start"),
                                  my_key=green.public_key, my_nonce=nonce)
    secrets = SeatSecrets.generate(start.game_id, seat, green)
    t.received(seat, {"t": "key", "key": secrets.identity.public_key, "cert": secrets.cert})
    assert t.hub is not None and t.advert()["phase"] == "playing" and t.advert()["seats_taken"] == 2


def test_a_link_that_says_what_is_no_message_is_closed_saying_why() -> None:
    t = table()
    link = object()
    join(t, "green", link=link)
    t.take()
    t.garbled(link, "not msgpack")
    assert t.take() == [Unlink(link, "malformed message: not msgpack")]
