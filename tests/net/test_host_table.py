"""The host's table as a state machine (``net/tablecore/host.py``): messages
in, effects out, with no socket, file or clock.  Each test plays what links
would say and reads what the table asks to be done."""
from __future__ import annotations

import pytest

from ankh.net.envelope import Identity
from ankh.net.events import Joined, LobbySeats, Started
from ankh.net.lobby import Start, decode
from ankh.net.secrets import SeatSecrets
from ankh.net.tablecore.effects import (
    Announce, Broadcast, Close, CreateSave, Renumber, Send, Think, WatchIntro,
)
from ankh.net.tablecore.host import HostTable, Refused, Watcher


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


def join(t: HostTable, name: str, ready: bool = True) -> tuple[Identity, bytes, int]:
    ident, nonce = Identity.generate(), name.encode().ljust(16, b".")
    seat = t.arrive(ident.public_key, ("10.0.0.9", 5000), {"t": "join", "name": name, "nonce": nonce,
                                                           "ready": int(ready)})
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
    join(t, "green")
    yellow, _, _ = join(t, "yellow")
    t.take()
    t.lost(1, "the peer closed the link")
    out = t.take()
    assert of(Renumber, out) == [Renumber((t.identity.public_key, yellow.public_key))]
    assert [s.name for s in t.lobby.seats] == ["host", "yellow"]
    assert set(t.linked) == {1}  # yellow's link is seat 1's now


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
    from ankh.net.errors import LocalProtocolError

    with pytest.raises(LocalProtocolError, match="seats"):
        HostTable(Identity.generate(), "host", clock=Clock(), seats=9)
