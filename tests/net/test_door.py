"""Who may hold a link to a seat's process (``ankh.net.wire.admission``): strangers
and spectators are bounded in all and by address, and never take the room
kept for the seats."""
from __future__ import annotations

from ankh.net.wire.admission import (
    ACCEPT_BURST, FD_HEADROOM, SEATS_KEPT, TOO_MANY_FROM_YOU, TOO_MANY_SPECTATORS, Door, address_key,
    prefix_key,
)


def test_a_full_address_makes_way_from_its_own_oldest_strangers() -> None:
    door = Door(spectators=10, pending=4, pending_per_address=2, per_address=3)
    assert door.arrive("a1", "10.0.0.1") == []
    assert door.arrive("a2", "10.0.0.1") == []
    assert door.arrive("a3", "10.0.0.1") == ["a1"]   # its own address is full: its oldest goes
    assert door.arrive("b1", "10.0.0.2") == []
    assert door.arrive("c1", "10.0.0.3") == []
    # The strangers' room is full: the busiest address (10.0.0.1, two links) makes way,
    # not the oldest link in the room.
    assert door.arrive("d1", "10.0.0.4") == ["a2"]
    assert not door.is_stranger("a2") and door.is_stranger("b1") and door.is_stranger("d1")


def test_a_flood_from_many_addresses_never_pushes_out_a_lone_player() -> None:
    """32 addresses each open links without end; a player's one link, among
    them, is never the one that makes way (its address holds the fewest)."""
    door = Door(spectators=10, pending=64, pending_per_address=32, per_address=3, pending_per_prefix=48)
    door.arrive("player", "127.0.0.1")
    for i in range(20000):
        evicted = door.arrive(("flood", i), f"127.0.0.{2 + i % 32}")
        assert "player" not in evicted
    assert door.is_stranger("player")


def test_idle_strangers_make_way_before_one_that_spoke_even_from_its_own_address() -> None:
    door = Door(spectators=10, pending=8, pending_per_address=3, per_address=3)
    door.arrive("player", "10.0.0.1")
    door.heard("player")                       # its handshake is under way
    for i in range(100):                       # its own address floods: idle links only
        assert "player" not in door.arrive(("idle", i), "10.0.0.1")
    assert door.is_stranger("player")
    door.heard(("idle", 99))                   # it holds the player, idle 98, and 99 that spoke
    assert door.arrive("last", "10.0.0.1") == [("idle", 98)]   # the one idle link
    door.heard("last")
    assert door.arrive("later", "10.0.0.1") == ["player"]      # none idle: the oldest


def test_a_talking_player_outlives_a_flood_of_one_link_per_address() -> None:
    """Hundreds of addresses of one link each (every address as busy as the
    player's): the idle links make way, never the player that spoke."""
    door = Door(spectators=10, pending=64, pending_per_address=32, per_address=3, pending_per_prefix=48)
    door.arrive("player", "192.0.2.1")
    door.heard("player")
    for i in range(5000):
        evicted = door.arrive(("flood", i), f"198.51.{i % 250}.{i // 250 % 250}")
        assert "player" not in evicted and len(evicted) <= 1
    assert door.is_stranger("player")


def test_among_as_busy_addresses_the_oldest_link_makes_way() -> None:
    door = Door(spectators=10, pending=3, pending_per_address=3, per_address=3)
    for t, host in (("a", "10.0.0.1"), ("b", "10.0.0.2"), ("c", "10.0.0.3")):
        door.arrive(t, host)
    assert door.arrive("d", "10.0.0.4") == ["a"]
    door.heard("b")
    assert door.arrive("e", "10.0.0.5") == ["c"]   # idle before the older one that spoke


def test_one_network_is_bounded_and_its_busiest_address_makes_way() -> None:
    door = Door(spectators=10, pending=10, pending_per_address=10, per_address=3, pending_per_prefix=4)
    for i in range(3):
        door.arrive(f"x{i}", "192.0.2.7")
    door.arrive("y", "192.0.2.8")
    door.arrive("z", "198.51.100.1")            # another network: not counted with them
    assert door.arrive("w", "192.0.2.9") == ["x0"]
    assert door.is_stranger("y") and door.is_stranger("z")
    door.heard("x1")
    door.heard("x2")
    assert door.arrive("v", "192.0.2.10") == ["y"]   # the network's idle links go first


def test_a_link_whose_handshake_is_done_is_out_of_the_strangers_reach() -> None:
    door = Door(spectators=10, pending=4, pending_per_address=4, per_address=3)
    door.arrive("joiner", "10.0.0.9")
    assert door.proven("joiner") == []
    assert door.is_caller("joiner") and not door.is_stranger("joiner")
    for i in range(1000):   # a flood of links that never speak, from one address and from many
        assert "joiner" not in door.arrive(i, f"10.0.{i % 3}.1")
    assert door.is_caller("joiner")
    door.sit("joiner")
    assert not door.is_caller("joiner")


def test_callers_share_their_own_room_as_strangers_do() -> None:
    door = Door(spectators=10, pending=3, pending_per_address=3, per_address=3)
    for t, host in (("a1", "10.0.0.1"), ("a2", "10.0.0.1"), ("b", "10.0.0.2")):
        door.arrive(t, host)
        door.proven(t)
    door.arrive("c", "10.0.0.3")
    assert door.proven("c") == ["a1"]   # the busiest address's oldest caller
    assert door.watch("c") is None      # a caller that asks to watch is a spectator


def test_a_seat_that_holds_nothing_any_more_waits_among_the_callers_again() -> None:
    door = Door(spectators=10, pending=2, pending_per_address=2, per_address=3)
    for t in ("a", "b"):
        door.arrive(t, "10.0.0.1")
        door.proven(t)
    door.sit("a")
    assert not door.is_caller("a")
    door.arrive("c", "10.0.0.1")
    assert door.proven("c") == []          # "a" sits: it leaves room
    assert door.stand("a") == ["b"]        # back among the callers, its address full: the oldest goes
    assert door.is_caller("a") and door.stand("a") == []


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
    assert prefix_key("10.0.0.7") == prefix_key("10.0.0.8") == "10.0.0.0/24"
    assert prefix_key("2001:db8:1:2::1") == prefix_key("2001:db8:1:ffff::1") == "2001:db8:1::/48"


def test_the_door_fits_the_open_files_limit() -> None:
    for limit in (128, 256, 1024, 20000):
        door = Door.for_descriptors(limit)
        links = door.spectators + 2 * door.pending + SEATS_KEPT  # strangers and callers
        assert links <= max(limit - FD_HEADROOM - ACCEPT_BURST, SEATS_KEPT + 8)
        assert door.spectators >= 1 and door.pending >= 4
