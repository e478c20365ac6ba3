"""Who may hold a link to a listening seat (sans-I/O): strangers cannot
exhaust the host.

Every link is one of three kinds, counted apart:

- a **stranger**: accepted, but it has not yet proved a key and said what it
  wants (``join``, ``rejoin`` or ``watch``).  Strangers are few (``pending``
  in all, ``pending_per_address`` from one address) and short-lived (the
  I/O shell closes one that does not finish in time).  When the strangers'
  room is full, the oldest stranger makes way for the newcomer: a real
  player's handshake takes milliseconds, so a flood of idle links cannot
  keep it out, only push out other idle links.
- a **spectator**: at most ``spectators`` in all, and ``per_address`` from
  one address (an IPv6 address counts by its /64: one machine holds many).
- a **seat**: a player of the table.  Seats never compete with strangers or
  spectators: the room kept for them (``seats_kept``) is outside both.

``Door.for_descriptors(limit)`` sizes the door to a process's limit of open
files, so that links can never take the descriptors the seats, the saves
and the discovery need (nor those of a burst of connections accepted before
the door has seen them: ``ACCEPT_BURST``, the listening socket's backlog).
"""
from __future__ import annotations

import ipaddress
from collections import Counter
from dataclasses import dataclass, field

from .errors import Words

MAX_LINKS = 1024          # links a seat's process holds at most, of every kind
SEATS_KEPT = 16           # room kept for seats (four seats, each coming back on a new link)
PENDING = 64              # strangers at once
PENDING_PER_ADDRESS = 32  # strangers from one address at once (a spectators' process, an SSH server's players)
PER_ADDRESS = 64          # spectators from one address
FD_HEADROOM = 64          # descriptors left for everything but links (files, discovery, the terminal)
ACCEPT_BURST = 32         # connections a server accepts at once, before its door has seen them

TOO_MANY = Words("too many connections: try again later")
TOO_MANY_FROM_YOU = Words("too many connections from your address")
TOO_MANY_SPECTATORS = Words("this table has as many spectators as it can serve")


def address_key(host: str | None) -> str:
    """What counts as one address: an IPv4 address (IPv4-mapped IPv6 too), or an IPv6 /64."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass
class Door:
    """The counts of a listening seat's links, and the decisions on them.
    ``Door`` holds tickets (any object the shell chooses: one per link)."""

    spectators: int = MAX_LINKS - SEATS_KEPT - PENDING
    pending: int = PENDING
    pending_per_address: int = PENDING_PER_ADDRESS
    per_address: int = PER_ADDRESS
    _strangers: dict[object, str] = field(default_factory=dict)   # ticket -> address key, oldest first
    _watching: dict[object, str] = field(default_factory=dict)
    _seated: set[object] = field(default_factory=set)

    @classmethod
    def for_descriptors(cls, limit: int, most: int = MAX_LINKS) -> Door:
        """A door for a process that may open ``limit`` files."""
        links = max(SEATS_KEPT + 8, min(most, limit - FD_HEADROOM - ACCEPT_BURST))
        pending = max(4, min(PENDING, links // 8))
        return cls(spectators=max(1, links - SEATS_KEPT - pending), pending=pending)

    @property
    def links(self) -> int:
        return len(self._strangers) + len(self._watching) + len(self._seated)

    def arrive(self, ticket: object, host: str | None) -> tuple[str | None, list[object]]:
        """A new link from ``host``: (why it is refused or None, the older
        strangers the shell must close to make room for it)."""
        key = address_key(host)
        if sum(1 for k in self._strangers.values() if k == key) >= self.pending_per_address:
            return TOO_MANY_FROM_YOU, []
        evicted = []
        while len(self._strangers) >= self.pending:
            oldest = next(iter(self._strangers))
            del self._strangers[oldest]
            evicted.append(oldest)
        self._strangers[ticket] = key
        return None, evicted

    def watch(self, ticket: object) -> str | None:
        """The stranger asks to watch: why not, or None (it is a spectator now)."""
        key = self._strangers.pop(ticket, None)
        if key is None:
            return TOO_MANY
        if len(self._watching) >= self.spectators:
            return TOO_MANY_SPECTATORS
        if Counter(self._watching.values())[key] >= self.per_address:
            return TOO_MANY_FROM_YOU
        self._watching[ticket] = key
        return None

    def sit(self, ticket: object) -> None:
        """The stranger is a player of the table (the lobby decides whether it sits)."""
        self._strangers.pop(ticket, None)
        self._seated.add(ticket)

    def is_stranger(self, ticket: object) -> bool:
        return ticket in self._strangers

    def leave(self, ticket: object) -> None:
        self._strangers.pop(ticket, None)
        self._watching.pop(ticket, None)
        self._seated.discard(ticket)
