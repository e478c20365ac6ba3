"""What a table tells the screens (and the headless runner): one class per
kind of news, matched by type.  The network layer knows no game: a game's own
events arrive wrapped in :class:`Played`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..wire.envelope import fingerprint
from .leave import News
from ..wire.lobby import Lobby, Start, clocks_of
from ..tablecore.result import Result
from ..files.transcript import DEFAULT_KIND, GONE_AFTER, MOVE_CLOCK


class TableEvent:
    """Something the table has to say (every event below is one)."""

    __slots__ = ()


@dataclass(frozen=True)
class Sitter:
    """One seat as a lobby shows it."""

    name: str
    key: bytes
    bot: bool
    ready: bool

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


# --- the lobby ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Listening(TableEvent):
    """The host's table is open on ``port``."""
    port: int


@dataclass(frozen=True)
class Advertised(TableEvent):
    """The table is announced on the LAN under ``service``."""
    service: str


@dataclass(frozen=True)
class NotAdvertised(TableEvent):
    """The table could not be announced on the LAN (HOST:PORT still works)."""
    why: str


@dataclass(frozen=True)
class LobbySeats(TableEvent):
    """Who sits at the table before the deal, and how many seats it has."""
    seats: tuple[Sitter, ...]
    total: int
    kind: str = DEFAULT_KIND  # the game the table plays
    clocks: tuple[int, int] = (GONE_AFTER, MOVE_CLOCK)  # the gone-wait and move clock the start will carry

    @classmethod
    def of(cls, lobby: Lobby) -> LobbySeats:
        return cls(tuple(Sitter(s.name, s.key, s.bot, s.ready) for s in lobby.seats), lobby.total, lobby.kind,
                   (lobby.gone_after, lobby.move_clock))

    @classmethod
    def of_message(cls, msg: Mapping[str, Any]) -> LobbySeats:
        return cls(tuple(Sitter(s["name"], s["key"], bool(s["bot"]), bool(s["ready"])) for s in msg["seats"]),
                   msg["total"], msg.get("kind", DEFAULT_KIND), clocks_of(msg))


@dataclass(frozen=True)
class Joined(TableEvent):
    """Someone sat at ``seat`` (the host's view)."""
    seat: int
    name: str
    fingerprint: str


@dataclass(frozen=True)
class HostKey(TableEvent):
    """The key the host proved when this seat connected."""
    key: bytes


@dataclass(frozen=True)
class Started(TableEvent):
    """The seats are final: the table's game, its fingerprint."""
    start: Start


@dataclass(frozen=True)
class Confirming(TableEvent):
    """The seats whose players have not confirmed the table fingerprint yet."""
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Saving(TableEvent):
    """This seat's save of the game is ``path``."""
    path: Path


# --- the game ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Played(TableEvent):
    """A game event as ``seat`` (None: a spectator) saw it: the peer's own event."""
    seat: int | None
    event: Any


@dataclass(frozen=True)
class SetupOver(TableEvent):
    """Every deck is shuffled, proven and locked: the deal begins."""
    seat: int


@dataclass(frozen=True)
class Decided(TableEvent):
    """This process's ``seat`` decided the game's move number ``move``."""
    seat: int
    move: int


@dataclass(frozen=True)
class Chat(TableEvent):
    """A chat line, checked (plain text)."""
    seat: int
    name: str
    text: str


@dataclass(frozen=True)
class ChatRefused(TableEvent):
    """A seat said too much too fast: its line was not passed on."""
    seat: int


@dataclass(frozen=True)
class ChatHidden(TableEvent):
    """The table hides its players' chat from spectators."""


@dataclass(frozen=True)
class Alert(TableEvent):
    """Something a person must know (a key that changed, a refusal): words to show."""
    text: str


# --- links and waits ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Waiting(TableEvent):
    """Who the game waits for, and how long each seat's link has been down."""
    seats: tuple[int, ...]
    gone: Mapping[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Away(TableEvent):
    """A seat the game waits for is away; the offer to end the table."""
    news: News


@dataclass(frozen=True)
class Gone(TableEvent):
    """The link to ``seat`` dropped (``why``); the table waits for it."""
    seat: int
    why: str


@dataclass(frozen=True)
class Back(TableEvent):
    """The link to ``seat`` is back."""
    seat: int


@dataclass(frozen=True)
class Paused(TableEvent):
    """The host (``seat``) left: the game waits for it to load its save again."""
    seat: int


# --- spectators --------------------------------------------------------------------------------

@dataclass(frozen=True)
class WatchPointOpen(TableEvent):
    """Spectators can watch through this seat at ``host:port``."""
    host: str
    port: int


@dataclass(frozen=True)
class WatcherCame(TableEvent):
    """A spectator is watching through this process (``count`` so far)."""
    count: int


@dataclass(frozen=True)
class WatcherLeft(TableEvent):
    """A spectator's link closed (``why``)."""
    why: str


@dataclass(frozen=True)
class WatchLost(TableEvent):
    """The watch point at ``address`` went (``why``): looking for another."""
    address: tuple[str, int]
    why: str


@dataclass(frozen=True)
class WatchWaiting(TableEvent):
    """No watch point answers, for ``secs`` seconds so far."""
    secs: float


@dataclass(frozen=True)
class WatchMoved(TableEvent):
    """Now watching through ``address``."""
    address: tuple[str, int]


# --- the end -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class TranscriptSaved(TableEvent):
    """The whole game, for ``ankh verify``, is in ``path``."""
    path: Path


@dataclass(frozen=True)
class Over(TableEvent):
    """How the table ended: the last word."""
    result: Result
