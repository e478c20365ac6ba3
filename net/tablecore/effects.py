"""What a table's core asks of the world around it: one class per kind of effect.

A core (:class:`~ankh.net.tablecore.host.HostTable`,
:class:`~ankh.net.tablecore.join.JoinTable`,
:class:`~ankh.net.tablecore.watch.WatchTable`, and what they share in
:mod:`~ankh.net.tablecore.seats`) never sends, writes or waits.
Each of its entry points queues effects, in the order they must happen, and
its driver (``net/io/host.py``, ``join.py``, ``node.py`` on real links; the
simulator runs them on virtual ones) carries them out.  A :class:`~ankh.net.play.events.TableEvent` queued among them is
for the screens, as it is.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


class Effect:
    """Something a core needs done outside itself."""

    __slots__ = ()


# -- the links ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Send(Effect):
    """``msg`` (a message, or bytes already encoded) to the link of ``seat``, if it has one.
    ``or_stop``: if that link closed meanwhile, the step stops there, as a read of the
    closed link would (the driver raises its link's ``ConnectionClosed``)."""
    seat: int
    msg: Any
    or_stop: bool = False


@dataclass(frozen=True)
class Broadcast(Effect):
    """``msg`` to every seat's link."""
    msg: dict[str, Any]


@dataclass(frozen=True)
class Close(Effect):
    """Close the link of ``seat``, saying ``why``."""
    seat: int
    why: str


@dataclass(frozen=True)
class Unlink(Effect):
    """Close ``link`` (the driver's handle of a link, no seat's now: a newer
    link took its seat), saying ``why``."""
    link: Any
    why: str


@dataclass(frozen=True)
class Dial(Effect):
    """Make a link to ``address``, its handshake given ``timeout`` seconds (None:
    the whole time a link's handshake may take)."""
    address: tuple[str, int]
    timeout: float | None = None


@dataclass(frozen=True)
class Wait(Effect):
    """Wait ``secs`` seconds, then try again."""
    secs: float


@dataclass(frozen=True)
class GiveUp(Effect):
    """Stop trying, and tell the caller ``why`` as the link's own failure (no result: nothing was seen)."""
    why: str


@dataclass(frozen=True)
class Announce(Effect):
    """The table's advert on the LAN changes (``seats_taken``, ``phase``)."""
    changes: dict[str, Any]


# -- the spectators ----------------------------------------------------------------------------

@dataclass(frozen=True)
class WatchIntro(Effect):
    """What a new spectator is sent first (the table, its start, its roster);
    ``chat``: whether spectators may read the table's chat (None: as it was)."""
    intro: Any
    chat: bool | None = None


@dataclass(frozen=True)
class WatchLog(Effect):
    """The signed log as it stands: every spectator gets the steps it lacks."""
    log: list


@dataclass(frozen=True)
class WatchSay(Effect):
    """A chat line, to the spectators who may read the table's chat."""
    msg: dict[str, Any]


@dataclass(frozen=True)
class WatchSend(Effect):
    """An encoded message to every spectator."""
    data: bytes


@dataclass(frozen=True)
class WatchEnd(Effect):
    """The table ended before the game's end: its last words (encoded), for
    every spectator, now or when it comes back."""
    messages: tuple[bytes, ...]


@dataclass(frozen=True)
class WatchClose(Effect):
    """This seat's spectators are sent away, told ``why``."""
    why: str


@dataclass(frozen=True)
class OpenWatchPoint(Effect):
    """Serve spectators too, and tell the host where (a joiner's watch point); ``at``: open
    it there and tell no host (a seat started again in its own wait at the audit, where
    the others' links to it come back, the host having gone)."""
    at: tuple[str, int] | None = None


@dataclass(frozen=True)
class WatchPoints(Effect):
    """Where else the spectators may watch from."""
    points: list


@dataclass(frozen=True)
class LinkSeat(Effect):
    """Keep a direct link to ``seat``'s watch point at ``address`` (its identity
    key ``key`` must answer there): what only the seats' own links may carry
    (a cheat's evidence) goes there too, around the host."""
    seat: int
    address: tuple
    key: bytes


@dataclass(frozen=True)
class TellSeats(Effect):
    """``msg`` to every seat this one has a direct link to (``keep``: and to
    those it links to later)."""
    msg: dict
    keep: bool = True


# -- the seats' work ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Think(Effect):
    """Ask ``seat``'s player (a person or a bot) for ``decision``; its answer
    goes back with ``decided`` (or ``forget`` if none comes)."""
    seat: int
    peer: Any
    decision: Any


@dataclass(frozen=True)
class Again(Effect):
    """More is queued than one slice of work: deliver it again once the links had their turn."""


@dataclass(frozen=True)
class CheckPlayers(Effect):
    """Pin (or warn of) the identity of each ``(name, key)`` met at this table."""
    people: tuple[tuple[str, bytes], ...]


# -- the save ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class CreateSave(Effect):
    """Begin this table's save at ``path``: its header and the local seats' secrets."""
    path: Path
    roster: Any
    info: dict[str, Any]
    secrets: dict[int, Any]


@dataclass(frozen=True)
class KeepSeat(Effect):
    """Keep on disk, before it is sent, what makes a joined seat the same one when its
    program is started again before its game's save exists: its ``nonce`` (in the
    host's start, which every seat signs) and, once the seats are set, its
    ``secrets`` for that game (the host's roster holds their key).  The driver
    keeps them for the host whose key the link proved."""
    nonce: bytes
    secrets: Any = None


@dataclass(frozen=True)
class LetGoSeat(Effect):
    """What :class:`KeepSeat` kept is in the game's save now: forget it."""


@dataclass(frozen=True)
class Journal(Effect):
    """Append finished steps (each a list of frames) to the journal."""
    steps: tuple[list[bytes], ...]


@dataclass(frozen=True)
class JournalEnding(Effect):
    """How the table ended before the game's end (``journal.ending``)."""
    record: dict[str, Any]


@dataclass(frozen=True)
class JournalWait(Effect):
    """A note of a joined seat's own wait at the audit (``journal.wait_note``)."""
    note: dict[str, Any]


@dataclass(frozen=True)
class WriteTranscript(Effect):
    """The complete game, for ``ankh verify`` (its path is then told as ``TranscriptSaved``)."""
    transcript: Any


@dataclass(frozen=True)
class WriteAbandoned(Effect):
    """Why the table was abandoned, kept beside the save."""
    text: str
