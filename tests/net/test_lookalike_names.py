"""Two players at one table never pass for each other: names that look the
same once compatibility forms, case, spaces and letters of other alphabets
drawn like Latin ones are set aside (a fullwidth ``Ｂ``, a Cyrillic ``о`` or
``В``) are refused in the lobby with a clear message, and by every seat's
roster; names that only resemble each other (``José`` and ``Jose``, ``Ali``
and ``All``) sit together.  Over real sockets: tests/net/test_lan_cheats.py."""
from __future__ import annotations

import os

import pytest

from ankh.net.wire.envelope import Identity
from ankh.net.wire.errors import LocalProtocolError, RemoteProtocolError
from ankh.net.wire.lobby import Lobby
from ankh.net.wire.lookalike import fold
from ankh.net.files.transcript import Roster

TWINS = [
    ("Bob", "Ｂob"),        # a fullwidth B (NFKC)
    ("Bob", "Bоb"),         # a Cyrillic o
    ("Bob", "Вob"),         # a Cyrillic Ve
    ("Rincewind", "rincewind"),
    ("Ann", " ANN "),
    ("Alpha", "Αlpha"),     # a Greek Alpha
    ("ﬁona", "fiona"),      # a ligature (NFKC)
]


def keys(n: int) -> tuple[bytes, ...]:
    return tuple(Identity.generate().public_key for _ in range(n))


@pytest.mark.parametrize("first,second", TWINS)
def test_a_look_alike_name_is_refused_in_the_lobby_and_by_the_roster(first, second):
    lobby = Lobby(os.urandom(16), 3)
    lobby.sit(first, keys(1)[0], os.urandom(16))
    with pytest.raises(RemoteProtocolError) as refused:
        lobby.sit(second, keys(1)[0], os.urandom(16))
    assert str(refused.value) == (
        f"the name {second!r} is too like {first!r}, already at the table (names must differ by more than "
        "case, spaces and letters that look alike): join under another")
    assert [s.name for s in lobby.seats] == [first]
    with pytest.raises(LocalProtocolError, match="two players share a name"):
        Roster(os.urandom(16), (first, second), keys(2))


@pytest.mark.parametrize("first,second", [("José", "Jose"), ("Ali", "All"), ("Bob", "Bob 2"), ("Zoë", "Zoe")])
def test_names_that_only_resemble_each_other_sit_together(first, second):
    lobby = Lobby(os.urandom(16), 3)
    lobby.sit(first, keys(1)[0], os.urandom(16))
    lobby.sit(second, keys(1)[0], os.urandom(16))
    assert [s.name for s in lobby.seats] == [first, second]
    assert Roster(os.urandom(16), (first, second), keys(2)).names == (first, second)


def test_the_folded_name_is_how_it_looks():
    assert fold("  Ｂоb   the\tBuilder ") == "bob the builder"
