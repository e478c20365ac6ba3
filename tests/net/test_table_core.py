"""The table's sans-I/O parts, with no sockets and no clock: the time is a value."""
from __future__ import annotations

from ankh.net.envelope import Identity, fingerprint
from ankh.net.events import LobbySeats
from ankh.net.lobby import CHAT_RATE, CHAT_WINDOW, Lobby
from ankh.net.tablecore.chat import ChatLimit
from ankh.net.tablecore.waits import abandoned_words, late_seats


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
