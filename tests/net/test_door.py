"""Who may hold a link to a seat's process (``ankh.net.admission``): strangers
and spectators are bounded in all and by address, and never take the room
kept for the seats."""
from __future__ import annotations

from ankh.net.admission import (
    ACCEPT_BURST, FD_HEADROOM, SEATS_KEPT, TOO_MANY_FROM_YOU, TOO_MANY_SPECTATORS, Door, address_key,
)


def test_strangers_from_one_address_are_bounded_and_the_oldest_make_way() -> None:
    door = Door(spectators=10, pending=4, pending_per_address=2, per_address=3)
    assert door.arrive("a1", "10.0.0.1") == (None, [])
    assert door.arrive("a2", "10.0.0.1") == (None, [])
    assert door.arrive("a3", "10.0.0.1") == (TOO_MANY_FROM_YOU, [])   # its own address is full
    assert door.arrive("b1", "10.0.0.2") == (None, [])
    assert door.arrive("c1", "10.0.0.3") == (None, [])
    # The strangers' room is full: the oldest one makes way for the newcomer.
    assert door.arrive("d1", "10.0.0.4") == (None, ["a1"])
    assert not door.is_stranger("a1") and door.is_stranger("d1")


def test_spectators_are_bounded_in_all_and_by_address_and_seats_are_not() -> None:
    door = Door(spectators=3, pending=50, pending_per_address=50, per_address=2)
    for i in range(6):
        door.arrive(f"w{i}", "192.168.1.5" if i < 3 else f"192.168.1.{10 + i}")
    assert door.watch("w0") is None and door.watch("w1") is None
    assert door.watch("w2") == TOO_MANY_FROM_YOU
    assert door.watch("w3") is None
    assert door.watch("w4") == TOO_MANY_SPECTATORS
    for i in range(8):  # seats never compete with spectators
        door.arrive(f"s{i}", "192.168.1.5")
        door.sit(f"s{i}")
    door.leave("w0")
    door.arrive("w9", "192.168.1.5")
    assert door.watch("w9") is None


def test_one_ipv6_machine_counts_as_one_address() -> None:
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1234") == "2001:db8::/64"
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key("::ffff:10.0.0.7") == "10.0.0.7"
    assert address_key("10.0.0.7") != address_key("10.0.0.8")


def test_the_door_fits_the_open_files_limit() -> None:
    for limit in (128, 256, 1024, 20000):
        door = Door.for_descriptors(limit)
        links = door.spectators + door.pending + SEATS_KEPT
        assert links <= max(limit - FD_HEADROOM - ACCEPT_BURST, SEATS_KEPT + 8)
        assert door.spectators >= 1 and door.pending >= 4
