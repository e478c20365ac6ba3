"""The public record of a game: the roster and every signed message, in order.

A transcript can be saved (msgpack) and audited offline by ``verify``.  It
holds public messages only: private key deliveries are in it as ciphertext.

Peers agree on what happened by comparing a running hash of the accepted log:
``H(0) = SHA256("ankh/v1/log" | game id | roster)`` and, after step m,
``H(m+1) = SHA256(H(m) | SHA256(step descriptor) | SHA256(frame) for each
message of the step in seat order)``.  Every message carries the hash its
sender had when the step began (its *basis*); a message whose basis differs
from ours means someone told different things to different seats, and
``find_equivocation`` names who from the seats' logs.
"""

from __future__ import annotations

import hashlib
import io
import re
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import msgpack
import nacl.bindings as sodium

from ...core.registry import DEFAULT
from ..wire.envelope import (
    GAME_ID_LEN,
    HEADER_LEN,
    MAX_FRAME,
    MAX_SEATS,
    KeyRing,
    _DECODE_ERRORS,
    fingerprint,
    _no_ext,
    pack,
    signed_slot,
)
from ..wire.errors import Equivocation, LocalProtocolError, RemoteProtocolError
from ..wire.lookalike import fold

MAX_TRANSCRIPT = 64 * 1024 * 1024
MAX_OPS = 100_000
MAGIC = "ankh-transcript"
DEFAULT_KIND = DEFAULT  # the game of a table, file or advert that names none
KIND = re.compile(r"[a-z][a-z0-9]{0,15}")
GONE_AFTER = 60  # seconds a seat the game waits for is gone before the others may end the table
MOVE_CLOCK = 300  # seconds a connected seat may keep the game waiting before the same
MAX_CLOCK = 86400
_ERRORS = (*_DECODE_ERRORS, msgpack.OutOfData, StopIteration)


def certificate_message(game_id: bytes, seat: int, key: bytes) -> bytes:
    """What an install's identity signs to vouch for its per-game key at one seat."""
    return pack(["ankh/v1/game-key", game_id, seat, key])


@dataclass(frozen=True)
class Charter:
    """The table's terms for a seat that leaves, bound into the roster's hash
    (so into every signature of the game, and into what ``ankh verify``
    checks): the gone-wait and the move clock, in whole seconds, and the
    **voices**: for each seat, the seat that speaks for it (itself for a
    person, the host's seat 0 for a bot the host runs).  Seats of one voice
    count once in a vote to end the table (``net/play/leave.py``)."""

    gone_after: int = GONE_AFTER
    move_clock: int = MOVE_CLOCK
    voices: tuple[int, ...] = ()

    def problem(self, seats: int) -> str | None:
        """What is wrong with these terms for a table of ``seats`` (None: nothing)."""
        if any(type(v) is not int or not 1 <= v <= MAX_CLOCK for v in (self.gone_after, self.move_clock)):
            return f"the table's clocks are whole seconds, 1 to {MAX_CLOCK}"
        v = self.voices
        if len(v) != seats or any(type(x) is not int or not 0 <= x <= s or v[x] != x for s, x in enumerate(v)):
            return "each seat speaks for itself or for the seat of the program that runs it, seated before it"
        return None

    def wire(self) -> dict[str, Any]:
        return {"clock": self.move_clock, "gone": self.gone_after, "voices": list(self.voices)}

    @classmethod
    def of_wire(cls, obj: Any) -> Charter:
        """From a file's ``charter`` field (checked by the roster it enters)."""
        if type(obj) is not dict or sorted(obj) != ["clock", "gone", "voices"] or type(obj["voices"]) is not list:
            raise LocalProtocolError("a table's terms are its clock, gone-wait and voices")
        return cls(obj["gone"], obj["clock"], tuple(obj["voices"]))


@dataclass(frozen=True)
class Roster:
    """Who sits at the table: the game id, names and signing keys by seat.

    ``keys`` sign the game's messages.  With ``identities`` and ``certs``,
    each is a per-game key that the seat's long-term identity certified
    (``certificate_message``), and a seat is shown by its identity's
    fingerprint; the identity's own secret never enters the game.
    """

    game_id: bytes
    names: tuple[str, ...]
    keys: tuple[bytes, ...]
    identities: tuple[bytes, ...] = ()
    certs: tuple[bytes, ...] = ()
    kind: str = DEFAULT_KIND  # the game the table plays: its id in ankh.core.game
    # The table's clocks and voices (None: a table of the last release, which
    # left them out of the hash: it reads with the usual clocks, a voice a seat).
    charter: Charter | None = None

    def __post_init__(self) -> None:
        if type(self.game_id) is not bytes or len(self.game_id) != GAME_ID_LEN:
            raise LocalProtocolError("a game id is 16 bytes")
        if type(self.kind) is not str or not KIND.fullmatch(self.kind):
            raise LocalProtocolError("a game is named by lowercase letters and digits, up to 16")
        if not 1 <= len(self.names) <= MAX_SEATS or len(self.names) != len(self.keys):
            raise LocalProtocolError("a roster needs one name and one key per seat")
        if any(type(k) is not bytes or len(k) != 32 for k in self.keys) or len(set(self.keys)) != len(self.keys):
            raise LocalProtocolError("roster keys must be distinct 32-byte Ed25519 keys")
        if any(type(n) is not str or not 0 < len(n) <= 32 or not n.isprintable() for n in self.names):
            raise LocalProtocolError("player names are 1 to 32 printable characters")
        if len({name_key(n) for n in self.names}) != len(self.names):
            raise LocalProtocolError("two players share a name")
        for seat, key in enumerate(self.keys):
            problem = weak_key(key)
            if problem is not None:
                raise LocalProtocolError(f"seat {seat}'s signing key is unusable: {problem}")
        if self.identities or self.certs:
            self._check_certificates()
        if self.charter is not None:
            problem = self.charter.problem(len(self.names)) if isinstance(self.charter, Charter) else "malformed"
            if problem is not None:
                raise LocalProtocolError(f"the table's terms: {problem}")

    def _check_certificates(self) -> None:
        n = len(self.keys)
        if len(self.identities) != n or len(self.certs) != n:
            raise LocalProtocolError("a roster with identities needs one identity and one certificate per seat")
        if any(type(c) is not bytes or len(c) != 64 for c in self.certs):
            raise LocalProtocolError("a certificate is a 64-byte signature")
        if any(type(k) is not bytes or len(k) != 32 for k in self.identities):
            raise LocalProtocolError("identities are 32-byte Ed25519 keys")
        if len(set(self.identities)) != n:
            raise LocalProtocolError("one identity holds two seats")
        for seat, identity in enumerate(self.identities):
            problem = weak_key(identity)
            if problem is not None:
                raise LocalProtocolError(f"seat {seat}'s identity key is unusable: {problem}")
            message = certificate_message(self.game_id, seat, self.keys[seat])
            if not KeyRing([identity]).verify(0, self.certs[seat], message):
                raise LocalProtocolError(f"seat {seat}'s game key is not certified by its identity")

    @property
    def size(self) -> int:
        return len(self.names)

    @property
    def gone_after(self) -> int:
        return self.charter.gone_after if self.charter is not None else GONE_AFTER

    @property
    def move_clock(self) -> int:
        return self.charter.move_clock if self.charter is not None else MOVE_CLOCK

    def voices(self, bots: Iterable[int] = ()) -> tuple[int, ...]:
        """Who speaks for each seat: the charter's, or for a table without one,
        each seat for itself but the host's ``bots`` (as the seats knew them)."""
        if self.charter is not None:
            return self.charter.voices
        bots = set(bots) - {0}
        return tuple(0 if s in bots else s for s in range(self.size))

    def keyring(self) -> KeyRing:
        return KeyRing(self.keys)

    def digest(self) -> bytes:
        """The roster's hash, in every signature of the game (through the log's
        genesis).  The game's id is in it; the first game's is left out, as
        rosters were hashed before a second game existed."""
        listed: list[Any] = [list(self.names), list(self.keys)]
        if self.identities:
            listed += [list(self.identities), list(self.certs)]
        if self.kind != DEFAULT_KIND:
            listed.append(self.kind)
        if self.charter is not None:
            listed.append(self.charter.wire())
        return hashlib.sha256(pack(listed)).digest()

    def who(self, seat: int | None) -> str | None:
        if seat is None or not 0 <= seat < len(self.names):
            return None
        return self.names[seat]

    def fingerprint(self, seat: int) -> str:
        """The short fingerprint players compare: of the identity, else of the game key."""
        return fingerprint((self.identities or self.keys)[seat])

    def label(self, seat: int) -> str:
        """A seat as messages name it: name, seat number and fingerprint."""
        return f"{self.names[seat]} (seat {seat}, {self.fingerprint(seat)})"

    def genesis(self) -> bytes:
        return hashlib.sha256(b"ankh/v1/log" + self.game_id + self.digest()).digest()


def charter_of(header: Mapping[str, Any]) -> Charter | None:
    """The table's terms in a file's header (None: a file of the last release, without them)."""
    return Charter.of_wire(header["charter"]) if "charter" in header else None


def name_key(name: str) -> str:
    """What two display names must not share at one table: the name as it looks
    (compatibility forms, case, spaces and look-alike letters of other
    alphabets aside: :func:`ankh.net.wire.lookalike.fold`)."""
    return fold(name)


def weak_key(key: bytes) -> str | None:
    """Why an Ed25519 public key must not sit at a table (None if it may).

    A key that is not a canonical encoding of a point of the prime-order
    subgroup, or that has small order (the identity point among them), admits
    signatures that verify on many messages or for anyone; such a key is
    refused when the roster forms.  Possession of an accepted key is proven
    by the seat's hello, signed under it over the roster's hash.
    """
    if not sodium.crypto_core_ed25519_is_valid_point(key):
        return "not a canonical point of the prime-order group, or of small order"
    return None


def next_hash(previous: bytes, op_wire: Mapping[str, Any], frames: Sequence[bytes]) -> bytes:
    h = hashlib.sha256(previous)
    h.update(hashlib.sha256(pack(op_wire)).digest())
    for frame in frames:
        h.update(hashlib.sha256(frame).digest())
    return h.digest()


@dataclass
class Transcript:
    """The roster, the frames of every finished step, and those of the step under way.

    ``pending`` holds the frames already accepted for the unfinished last step,
    so that saving a game in the middle of a step loses nothing.  A game
    stopped before its end may also hold what stopped it (the fields of
    :data:`ENDING`): ``blame``, the evidence a seat handed on (the cheater's
    signed frames: ``ankh.net.fair.evidence``); ``forfeit``, the seats whose audit
    disclosure the last step still waited for when the table gave up on them;
    ``end``, the signed votes of the seats that ended the table after a seat
    left for good (``ankh.net.play.leave``).
    """

    roster: Roster
    ops: list[list[bytes]] = field(default_factory=list)
    pending: list[bytes] = field(default_factory=list)
    blame: list[bytes] = field(default_factory=list)
    forfeit: list[int] = field(default_factory=list)
    end: list[bytes] = field(default_factory=list)

    def frames(self) -> list[bytes]:
        return [f for op in self.ops for f in op] + list(self.pending)

    def to_bytes(self) -> bytes:
        obj: dict[str, Any] = {
            "magic": MAGIC,
            "v": 1,
            "game": self.roster.game_id,
            "names": list(self.roster.names),
            "keys": list(self.roster.keys),
            "ops": [list(op) for op in self.ops],
        }
        if self.roster.identities:
            obj["ids"], obj["certs"] = list(self.roster.identities), list(self.roster.certs)
        if self.roster.charter is not None:
            obj["charter"] = self.roster.charter.wire()
        if self.pending:
            obj["pending"] = list(self.pending)
        if self.blame:
            obj["blame"] = list(self.blame)
        if self.forfeit:
            obj["forfeit"] = list(self.forfeit)
        if self.roster.kind != DEFAULT_KIND:
            obj["kind"] = self.roster.kind
        if self.end:
            obj["end"] = list(self.end)
        return pack(obj)

    def save(self, path: str | os.PathLike[str]) -> None:
        with open(path, "wb") as fh:
            fh.write(self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes) -> Transcript:
        """Parse a saved transcript.  Raises only RemoteProtocolError."""
        if type(data) is not bytes or len(data) > MAX_TRANSCRIPT:
            raise RemoteProtocolError("not an ankh transcript: too large")
        return cls._read(io.BytesIO(data))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Transcript:
        with open(path, "rb") as fh:
            return cls._read(fh)

    @classmethod
    def _read(cls, fh: BinaryIO) -> Transcript:
        ending: dict[str, Any] = {}
        roster, stream = read_stream(fh, ending)
        out: list[list[bytes]] = []
        pending: list[bytes] = []
        for where, frame in stream:
            if where is None:
                pending.append(frame)
            elif where == len(out):
                out.append([frame])
            else:
                out[-1].append(frame)
        return cls(roster, out, pending, list(ending.get("blame", ())), list(ending.get("forfeit", ())),
                   list(ending.get("end", ())))


# How a game stopped before its end: the journal's last record holds these
# fields, a transcript's header the first three ("pending" is its unfinished
# step), and ``ankh verify`` reads them as one (``verify._ending``).
ENDING = ("blame", "end", "forfeit", "pending")
_HEADER = ("game", "keys", "magic", "names")  # required, then "ops"; the _OPTIONAL ones may be there
_LISTS = ("blame", "certs", "end", "forfeit", "ids", "keys", "names")
_OPTIONAL = ("blame", "certs", "charter", "end", "forfeit", "ids", "kind")


def read_stream(fh: BinaryIO, ending: dict[str, Any] | None = None) -> tuple[Roster, Iterator[tuple[int | None, bytes]]]:
    """Read a saved transcript one frame at a time, in bounded memory.

    Returns the roster and an iterator of (step number, or None for a frame of
    the unfinished step; frame).  The header must come first, in the canonical
    key order the writer uses.  Raises only RemoteProtocolError (also while
    iterating), and never holds more than one frame of the file at a time
    (but for what stopped a game before its end, which goes into ``ending``:
    two frames of evidence at most, the forfeiting seats, the votes to end).
    """
    unpacker = msgpack.Unpacker(
        fh,
        raw=False,
        strict_map_key=True,
        max_buffer_size=2 * MAX_FRAME,
        max_str_len=64,
        max_bin_len=MAX_FRAME,
        max_array_len=MAX_OPS,
        max_map_len=16,
        max_ext_len=0,
        ext_hook=_no_ext,
    )

    def fail(what: str) -> RemoteProtocolError:
        return RemoteProtocolError(f"not an ankh transcript (version 1): {what}")

    def small(expect: type, limit: int = 64) -> Any:
        try:
            if expect is list:
                size = unpacker.read_array_header()
                if size > limit:
                    raise fail("header list too long")
                return [unpacker.unpack() for _ in range(size)]
            return unpacker.unpack()
        except _ERRORS:
            raise fail("malformed header") from None

    try:
        fields = unpacker.read_map_header()
    except _ERRORS:
        raise fail("not a map") from None
    if not 6 <= fields <= 14:
        raise fail("unexpected fields")
    header: dict[str, Any] = {}
    while True:  # the header, in the canonical (sorted) key order, up to "ops"
        key = small(str)
        if key == "ops":
            break
        if key not in (*_HEADER, *_OPTIONAL) or (header and key <= max(header)):
            raise fail(f"unexpected field {key!r} here")
        header[key] = small(list, MAX_SEATS) if key in _LISTS else small(object)
    if any(key not in header for key in _HEADER) or ("ids" in header) != ("certs" in header):
        raise fail("incomplete header")
    blame, forfeit = header.get("blame", []), header.get("forfeit", [])
    if "blame" in header and (not 1 <= len(blame) <= 2 or any(type(f) is not bytes for f in blame)):
        raise fail("malformed evidence")
    if "forfeit" in header and (not forfeit or any(type(s) is not int or not 0 <= s < MAX_SEATS for s in forfeit)):
        raise fail("malformed forfeit")
    if any(type(v) is not bytes or len(v) > MAX_FRAME for v in header.get("end", ())):
        raise fail("malformed end")
    if ending is not None:
        ending.update({k: header[k] for k in ("blame", "end", "forfeit") if k in header})
    if header["magic"] != MAGIC:
        raise fail("wrong magic")
    game, names, keys = header["game"], header["names"], header["keys"]
    try:
        roster = Roster(game, tuple(names), tuple(keys), tuple(header.get("ids", ())), tuple(header.get("certs", ())),
                        header.get("kind", DEFAULT_KIND), charter_of(header))
    except (LocalProtocolError, TypeError) as exc:
        raise RemoteProtocolError(f"malformed transcript roster: {exc}") from None

    def frame() -> bytes:
        item = unpacker.unpack()
        if unpacker.tell() > MAX_TRANSCRIPT:
            raise fail("too large")
        if type(item) is not bytes or len(item) <= HEADER_LEN:
            raise RemoteProtocolError("malformed transcript entry")
        return item

    def frames() -> Iterator[tuple[int | None, bytes]]:
        try:
            for step in range(unpacker.read_array_header()):
                for _ in range(unpacker.read_array_header()):
                    yield step, frame()
            key = small(str)
            if key == "pending":
                header["pending"] = True
                for _ in range(unpacker.read_array_header()):
                    yield None, frame()
                key = small(str)
            if key != "v" or small(int) != 1:
                raise fail("wrong version")
            if fields != len(header) + 2:  # + "ops" and "v"
                raise fail("unexpected fields")
            try:
                unpacker.unpack()
            except msgpack.OutOfData:
                return
            raise fail("trailing data")
        except RemoteProtocolError:
            raise
        except _ERRORS as exc:
            raise RemoteProtocolError(f"malformed transcript: {str(exc)[:80] or type(exc).__name__}") from None

    return roster, frames()


def find_equivocation(views: Mapping[int, Sequence[bytes]], roster: Roster) -> Equivocation | None:
    """Two validly signed, different frames with the same (sender, seq)?

    ``views`` maps each seat to the frames it accepted.  Returns an
    Equivocation naming the sender, with both frames as evidence.
    """
    keys = roster.keyring()
    seen: dict[tuple[int, int], bytes] = {}
    for _, frames in sorted(views.items()):
        for frame in frames:
            slot = signed_slot(frame, keys, roster.game_id)
            if slot is None:
                continue
            signer, seq = slot
            other = seen.setdefault(slot, frame)
            if other != frame:
                return Equivocation(
                    f"signed two different messages with sequence number {seq}",
                    seat=signer,
                    who=roster.who(signer),
                    evidence=(other, frame),
                )
    return None
