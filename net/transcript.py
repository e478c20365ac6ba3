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
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import nacl.bindings as sodium

from .envelope import (
    GAME_ID_LEN,
    HEADER_LEN,
    MAX_FRAME,
    MAX_SEATS,
    MAX_SEQ,
    KeyRing,
    context,
    pack,
    unpack_strict,
)
from .errors import Equivocation, LocalProtocolError, RemoteProtocolError

MAX_TRANSCRIPT = 64 * 1024 * 1024
MAX_OPS = 100_000
MAGIC = "ankh-transcript"


@dataclass(frozen=True)
class Roster:
    """Who sits at the table: the game id, names and signing keys by seat."""

    game_id: bytes
    names: tuple[str, ...]
    keys: tuple[bytes, ...]

    def __post_init__(self) -> None:
        if type(self.game_id) is not bytes or len(self.game_id) != GAME_ID_LEN:
            raise LocalProtocolError("a game id is 16 bytes")
        if not 1 <= len(self.names) <= MAX_SEATS or len(self.names) != len(self.keys):
            raise LocalProtocolError("a roster needs one name and one key per seat")
        if any(type(k) is not bytes or len(k) != 32 for k in self.keys) or len(set(self.keys)) != len(self.keys):
            raise LocalProtocolError("roster keys must be distinct 32-byte Ed25519 keys")
        if any(type(n) is not str or not 0 < len(n) <= 32 or not n.isprintable() for n in self.names):
            raise LocalProtocolError("player names are 1 to 32 printable characters")
        if len({" ".join(n.casefold().split()) for n in self.names}) != len(self.names):
            raise LocalProtocolError("two players share a name")
        for seat, key in enumerate(self.keys):
            problem = weak_key(key)
            if problem is not None:
                raise LocalProtocolError(f"seat {seat}'s signing key is unusable: {problem}")

    @property
    def size(self) -> int:
        return len(self.names)

    def keyring(self) -> KeyRing:
        return KeyRing(self.keys)

    def digest(self) -> bytes:
        return hashlib.sha256(pack([list(self.names), list(self.keys)])).digest()

    def who(self, seat: int | None) -> str | None:
        if seat is None or not 0 <= seat < len(self.names):
            return None
        return self.names[seat]

    def genesis(self) -> bytes:
        return hashlib.sha256(b"ankh/v1/log" + self.game_id + self.digest()).digest()


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
    roster: Roster
    ops: list[list[bytes]] = field(default_factory=list)

    def frames(self) -> list[bytes]:
        return [f for op in self.ops for f in op]

    def to_bytes(self) -> bytes:
        return pack(
            {
                "magic": MAGIC,
                "v": 1,
                "game": self.roster.game_id,
                "names": list(self.roster.names),
                "keys": list(self.roster.keys),
                "ops": [list(op) for op in self.ops],
            }
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        with open(path, "wb") as fh:
            fh.write(self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes) -> Transcript:
        """Parse a saved transcript.  Raises only RemoteProtocolError."""
        obj = unpack_strict(
            data,
            max_size=MAX_TRANSCRIPT,
            max_str=64,
            max_bin=MAX_FRAME,
            max_array=MAX_OPS,
            max_map=16,
            max_depth=4,
            canonical=False,
        )
        if type(obj) is not dict or obj.get("magic") != MAGIC or obj.get("v") != 1:
            raise RemoteProtocolError("not an ankh transcript (version 1)")
        game, names, keys, ops = obj.get("game"), obj.get("names"), obj.get("keys"), obj.get("ops")
        if type(names) is not list or type(keys) is not list or type(ops) is not list:
            raise RemoteProtocolError("malformed transcript header")
        try:
            roster = Roster(game, tuple(names), tuple(keys))
        except LocalProtocolError as exc:
            raise RemoteProtocolError(f"malformed transcript roster: {exc}") from None
        out: list[list[bytes]] = []
        for op in ops:
            if type(op) is not list or any(type(f) is not bytes or len(f) <= HEADER_LEN for f in op):
                raise RemoteProtocolError("malformed transcript entry")
            out.append(list(op))
        return cls(roster, out)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Transcript:
        with open(path, "rb") as fh:
            data = fh.read(MAX_TRANSCRIPT + 1)
        return cls.from_bytes(data)


def find_equivocation(views: Mapping[int, Sequence[bytes]], roster: Roster) -> Equivocation | None:
    """Two validly signed, different frames with the same (sender, seq)?

    ``views`` maps each seat to the frames it accepted.  Returns an
    Equivocation naming the sender, with both frames as evidence.
    """
    keys = roster.keyring()
    ctx = context(roster.game_id)
    seen: dict[tuple[int, int], bytes] = {}
    for _, frames in sorted(views.items()):
        for frame in frames:
            signer = frame[0]
            if signer >= roster.size or not keys.verify(signer, frame[1:HEADER_LEN], ctx + frame[HEADER_LEN:]):
                continue
            try:
                payload = unpack_strict(frame[HEADER_LEN:])
                seq = payload["seq"]
            except (RemoteProtocolError, KeyError, TypeError):
                continue
            if type(seq) is not int or not 0 <= seq <= MAX_SEQ:
                continue
            other = seen.setdefault((signer, seq), frame)
            if other != frame:
                return Equivocation(
                    f"signed two different messages with sequence number {seq}",
                    seat=signer,
                    who=roster.who(signer),
                    evidence=(other, frame),
                )
    return None
