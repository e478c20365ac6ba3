"""Who may hold a link to a listening seat (sans-I/O): strangers cannot
exhaust the host, nor keep a player out.

Every link is one of four kinds, counted apart:

- a **stranger**: accepted, but it has done no work we can check yet (no
  handshake).  Strangers are few (``pending`` in all, ``pending_per_address``
  from one address, ``pending_per_prefix`` from one network) and short-lived
  (the I/O shell closes one that does not finish in time).  An address is an
  IPv4 address or an IPv6 /64 (one machine holds a whole /64); a network an
  IPv4 /24 or an IPv6 /48 (one site).  When a room is full, a newcomer is
  never refused: a stranger of the **busiest** address in that room makes
  way for it (of the newcomer's own address when that address is at its
  bound, of the busiest in its network when its network is), an **idle**
  one first (one that has sent nothing yet, see ``heard``), the oldest of
  those.  A flood holds many links from its addresses and a player holds
  one, so the flood's links go first, whatever their rate; and a player
  whose handshake is under way has spoken, so it outlives the idle links of
  a flood even from its own address.
- a **caller**: a stranger that has proved a key (its handshake is done) but
  not yet said what it wants (``join``, ``rejoin`` or ``watch``).  Callers
  have a room of their own, bounded as the strangers' is and shared out the
  same way, and no stranger ever pushes one out: a flood of links that never
  send a byte cannot evict a player whose handshake is done.
- a **spectator**: at most ``spectators`` in all, and ``per_address`` from
  one address (an IPv6 address counts by its /64: one machine holds many).
- a **seat**: a player of the table (or, for an SSH server, a connection
  that holds a session: one logged in without a session is still a caller).  Seats never compete with strangers or spectators: the room
  kept for them (``seats_kept``) is outside both.

``Door.for_descriptors(limit)`` sizes the door to a process's limit of open
files, so that links can never take the descriptors the seats, the saves
and the discovery need (nor those of a burst of connections accepted before
the door has seen them: ``ACCEPT_BURST``, the listening socket's backlog).
"""
from __future__ import annotations

import ipaddress
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .errors import Words

MAX_LINKS = 1024          # links a seat's process holds at most, of every kind
SEATS_KEPT = 16           # room kept for seats (four seats, each coming back on a new link)
PENDING = 64              # strangers at once (and callers at once, in a room of their own)
PENDING_PER_ADDRESS = 32  # strangers from one address at once (a spectators' process, an SSH server's players)
PENDING_PER_PREFIX = 48   # strangers from one network at once (an IPv4 /24, an IPv6 /48)
PER_ADDRESS = 64          # spectators from one address
FD_HEADROOM = 64          # descriptors left for everything but links (files, discovery, the terminal)
ACCEPT_BURST = 32         # connections a server accepts at once, before its door has seen them

TOO_MANY = Words("too many connections: try again later")
TOO_MANY_FROM_YOU = Words("too many connections from your address")
TOO_MANY_SPECTATORS = Words("this table has as many spectators as it can serve")


def _ip(host: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not host:
        return None
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def address_key(host: str | None) -> str:
    """What counts as one address: an IPv4 address (IPv4-mapped IPv6 too), or an IPv6 /64."""
    ip = _ip(host)
    if ip is None:
        return host or "?"
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def prefix_key(host: str | None) -> str:
    """What counts as one network: an IPv4 /24, an IPv6 /48."""
    ip = _ip(host)
    if ip is None:
        return host or "?"
    bits = 48 if isinstance(ip, ipaddress.IPv6Address) else 24
    return str(ipaddress.ip_network((ip, bits), strict=False))


class _Room:
    """Links waiting in one room (strangers, or callers), oldest first, with
    their address and network.  When the room (or an address's or a
    network's share of it) is full, one link makes way: an idle one (it has
    sent nothing) before one that spoke, of the busiest address, the oldest."""

    def __init__(self, size: int, per_address: int, per_prefix: int) -> None:
        self.size = size
        self.per_address = per_address
        self.per_prefix = per_prefix
        self.links: dict[object, tuple[str, str, int]] = {}   # ticket -> (address, network, arrival)
        self.of_address: dict[str, dict[object, None]] = {}    # each address's links, oldest first
        self.idle_of: dict[str, dict[object, None]] = {}       # of those, the ones that sent nothing yet
        self.of_prefix: dict[str, dict[str, None]] = {}        # each network's addresses that hold links
        self.by_prefix: Counter[str] = Counter()
        self._arrivals = 0

    def __contains__(self, ticket: object) -> bool:
        return ticket in self.links

    def __len__(self) -> int:
        return len(self.links)

    def held(self, address: str) -> int:
        return len(self.of_address.get(address, ()))

    def add(self, ticket: object, where: tuple[str, str], idle: bool = True) -> list[object]:
        """Take ``ticket`` in; returns the links that made way for it."""
        address, prefix = where
        evicted = []
        while self.links and (self.held(address) >= self.per_address
                              or self.by_prefix[prefix] >= self.per_prefix
                              or len(self.links) >= self.size):
            if self.held(address) >= self.per_address:
                scope = [address]
            elif self.by_prefix[prefix] >= self.per_prefix:
                scope = list(self.of_prefix[prefix])
            else:
                scope = list(self.of_address)
            victim = self._victim(scope)
            self.remove(victim)
            evicted.append(victim)
        self._arrivals += 1
        self.links[ticket] = (address, prefix, self._arrivals)
        self.of_address.setdefault(address, {})[ticket] = None
        self.of_prefix.setdefault(prefix, {})[address] = None
        if idle:
            self.idle_of.setdefault(address, {})[ticket] = None
        self.by_prefix[prefix] += 1
        return evicted

    def _victim(self, scope: list[str]) -> object:
        """The link that makes way, among the links of the addresses in ``scope``."""
        rooms = self.idle_of if any(a in self.idle_of for a in scope) else self.of_address
        victim, rank = None, (0, 0)
        for address in scope:
            if links := rooms.get(address):
                ticket = next(iter(links))
                mine = (-len(self.of_address[address]), self.links[ticket][2])  # busiest, then oldest
                if victim is None or mine < rank:
                    victim, rank = ticket, mine
        return victim

    def heard(self, ticket: object) -> None:
        """The link sent something: it is not idle."""
        where = self.links.get(ticket)
        if where is not None:
            self._forget(self.idle_of, where[0], ticket)

    @staticmethod
    def _forget(rooms: dict[str, dict[Any, None]], key: str, member: object) -> None:
        members = rooms.get(key)
        if members is not None:
            members.pop(member, None)
            if not members:
                del rooms[key]

    def remove(self, ticket: object) -> tuple[str, str] | None:
        where = self.links.pop(ticket, None)
        if where is None:
            return None
        address, prefix, _arrival = where
        self._forget(self.of_address, address, ticket)
        self._forget(self.idle_of, address, ticket)
        if address not in self.of_address:
            self._forget(self.of_prefix, prefix, address)
        self.by_prefix[prefix] -= 1
        if not self.by_prefix[prefix]:
            del self.by_prefix[prefix]
        return address, prefix


@dataclass
class Door:
    """The counts of a listening seat's links, and the decisions on them.
    ``Door`` holds tickets (any object the shell chooses: one per link)."""

    spectators: int = MAX_LINKS - SEATS_KEPT - 2 * PENDING
    pending: int = PENDING
    pending_per_address: int = PENDING_PER_ADDRESS
    per_address: int = PER_ADDRESS
    pending_per_prefix: int = PENDING_PER_PREFIX
    _watching: dict[object, str] = field(default_factory=dict)
    _seated: dict[object, tuple[str, str] | None] = field(default_factory=dict)  # ticket -> where

    def __post_init__(self) -> None:
        per_prefix = min(self.pending_per_prefix, self.pending)
        self._strangers = _Room(self.pending, self.pending_per_address, per_prefix)
        self._callers = _Room(self.pending, self.pending_per_address, per_prefix)

    @classmethod
    def for_descriptors(cls, limit: int, most: int = MAX_LINKS) -> Door:
        """A door for a process that may open ``limit`` files."""
        links = max(SEATS_KEPT + 8, min(most, limit - FD_HEADROOM - ACCEPT_BURST))
        pending = max(4, min(PENDING, links // 8))
        return cls(spectators=max(1, links - SEATS_KEPT - 2 * pending), pending=pending,
                   pending_per_prefix=max(pending * 3 // 4, 2))

    @property
    def links(self) -> int:
        return len(self._strangers) + len(self._callers) + len(self._watching) + len(self._seated)

    @property
    def strangers(self) -> int:
        """Links accepted whose handshake is not done yet (nor given up)."""
        return len(self._strangers)

    def arrive(self, ticket: object, host: str | None) -> list[object]:
        """A new link from ``host`` (never refused): the older strangers the
        shell must close to make room for it."""
        return self._strangers.add(ticket, (address_key(host), prefix_key(host)))

    def proven(self, ticket: object) -> list[object]:
        """The stranger has done work we can check (its handshake): it is a
        caller now, out of the strangers' reach.  Returns the older callers
        the shell must close to make room for it."""
        where = self._strangers.remove(ticket)
        if where is None:
            return []
        return self._callers.add(ticket, where, idle=False)

    def heard(self, ticket: object) -> None:
        """The stranger sent its first bytes: it is no longer idle, and idle
        strangers make way before it."""
        self._strangers.heard(ticket)

    def watch(self, ticket: object) -> str | None:
        """The stranger or caller asks to watch: why not, or None (it is a spectator now)."""
        where = self._callers.remove(ticket) or self._strangers.remove(ticket)
        if where is None:
            return TOO_MANY
        key = where[0]
        if len(self._watching) >= self.spectators:
            return TOO_MANY_SPECTATORS
        if Counter(self._watching.values())[key] >= self.per_address:
            return TOO_MANY_FROM_YOU
        self._watching[ticket] = key
        return None

    def sit(self, ticket: object) -> None:
        """The stranger or caller is a player of the table (the lobby decides
        whether it sits; for an SSH server, it has a session)."""
        self._seated[ticket] = self._callers.remove(ticket) or self._strangers.remove(ticket)

    def stand(self, ticket: object) -> list[object]:
        """The seat holds nothing any more (an SSH connection whose last
        session ended): it waits among the callers again, where it may make
        way for newer ones.  Returns the callers the shell must close."""
        where = self._seated.pop(ticket, None)
        if where is None:
            return []
        return self._callers.add(ticket, where, idle=False)

    def is_stranger(self, ticket: object) -> bool:
        return ticket in self._strangers

    def is_caller(self, ticket: object) -> bool:
        return ticket in self._callers

    def leave(self, ticket: object) -> None:
        self._strangers.remove(ticket)
        self._callers.remove(ticket)
        self._watching.pop(ticket, None)
        self._seated.pop(ticket, None)
