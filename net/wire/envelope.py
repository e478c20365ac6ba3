"""Signed message envelopes: identity, framing, strict decoding, sequence numbers.

A frame on the wire is::

    signer (1 byte) | Ed25519 signature (64 bytes) | payload

and the payload is the canonical msgpack encoding of the map
``{game, seq, from, kind, body}``.  The signature covers
``b"ankh/v1/" + game_id + payload``: the protocol version and the game id are
the signing context, so a message can never be replayed into another game or
another protocol version.

Untrusted bytes are checked in a fixed order: size cap, signer, signature,
bounded decode, canonical form, field types, the kind's body schema.  Every
failure is a ``RemoteProtocolError``; nothing else escapes ``open_frame``.
Failures before the signature is known good carry ``seat=None`` (the caller
blames the link the bytes came from); failures after it carry the signer.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgpack
import nacl.bindings as sodium
import nacl.exceptions
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..fair.entropy import random_bytes
from .errors import LocalProtocolError, RemoteProtocolError
from .schema import Validator

PROTOCOL = b"ankh/v1/"
INNER = b"ankh/v1/inner/"  # the signing context of a frame sealed inside a private message
GAME_ID_LEN = 16
SIG_LEN = 64
KEY_LEN = 32
HEADER_LEN = 1 + SIG_LEN
MAX_SEATS = 8

# Hard limits on anything decoded from a peer.
MAX_FRAME = 64 * 1024
MAX_STR = 64
MAX_BIN = 16 * 1024
MAX_ARRAY = 256
MAX_MAP = 32
MAX_DEPTH = 6
MAX_SEQ = 2**32 - 1

_ENVELOPE_KEYS = frozenset({"game", "seq", "from", "kind", "body"})


# -- identity -----------------------------------------------------------------


def fingerprint(public_key: bytes) -> str:
    """A short, human-comparable name for a public key: ``xxxx-xxxx-xxxx-xxxx``."""
    digest = hashlib.sha256(b"ankh/fingerprint/v1" + public_key).digest()[:10]
    text = base64.b32encode(digest).decode("ascii").lower()
    return "-".join(text[i : i + 4] for i in range(0, 16, 4))


class Identity:
    """An Ed25519 signing key (one per install)."""

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self._key = private_key
        self.public_key: bytes = private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @classmethod
    def generate(cls) -> Identity:
        """A fresh identity from the operating system's randomness."""
        return cls.from_seed(random_bytes(32))

    @classmethod
    def from_seed(cls, seed: bytes) -> Identity:
        if type(seed) is not bytes or len(seed) != 32:
            raise LocalProtocolError("an identity seed is 32 bytes")
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @property
    def seed(self) -> bytes:
        return self._key.private_bytes(
            serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
        )

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data)

    def __repr__(self) -> str:
        return f"Identity({self.fingerprint})"


class KeyRing:
    """The public keys of the seats of one game, indexed by seat."""

    def __init__(self, public_keys: Sequence[bytes]) -> None:
        if not 1 <= len(public_keys) <= MAX_SEATS:
            raise LocalProtocolError(f"a game has 1 to {MAX_SEATS} seats")
        if any(len(k) != KEY_LEN for k in public_keys):
            raise LocalProtocolError(f"a public key is {KEY_LEN} bytes")
        self.raw = tuple(public_keys)

    def __len__(self) -> int:
        return len(self.raw)

    def verify(self, seat: int, signature: bytes, data: bytes) -> bool:
        return verify_signature(self.raw[seat], signature, data)


def verify_signature(public_key: bytes, signature: bytes, data: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s Ed25519 signature of ``data``.

    Checked by libsodium, which every seat runs alike (it refuses
    non-canonical and small-order encodings, as RFC 8032's strict reading
    does) and which takes about half the time of the other library we carry:
    every frame of a game is checked by every seat and spectator."""
    if len(public_key) != KEY_LEN or len(signature) != SIG_LEN:
        return False
    # The same frame comes to a seat more than once (from the host and over the seats' links,
    # again from the journal), and ``ankh verify`` reads each frame three times: a signature
    # found good is remembered by a digest of exactly what was checked.
    key = hashlib.sha256(public_key + signature + data).digest()
    if key in _VERIFIED:
        return True
    try:
        sodium.crypto_sign_open(signature + data, public_key)
    except nacl.exceptions.CryptoError:
        return False
    if len(_VERIFIED) >= _VERIFIED_KEPT:
        _VERIFIED.clear()
    _VERIFIED.add(key)
    return True


_VERIFIED: set[bytes] = set()   # digests of (key, signature, data) found good
_VERIFIED_KEPT = 1 << 15


# -- canonical msgpack ----------------------------------------------------------


_LEAVES = frozenset({bytes, str, int, bool, float, type(None)})


def _canon(obj: Any) -> Any:
    if type(obj) in _LEAVES:  # (most of what a message holds: its bytes, numbers and words)
        return obj
    if isinstance(obj, dict):
        return {k: _canon(obj[k]) for k in sorted(obj)}
    if isinstance(obj, (list, tuple)):
        return [_canon(x) for x in obj]
    return obj


def pack(obj: Any) -> bytes:
    """Canonical msgpack: map keys sorted, smallest encodings, bytes as bin."""
    return msgpack.packb(_canon(obj), use_bin_type=True)


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError("extension types are not allowed")


def _depth_ok(obj: Any, limit: int) -> bool:
    stack = [(obj, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


_DECODE_ERRORS = (
    msgpack.UnpackException,
    ValueError,
    TypeError,
    OverflowError,
    RecursionError,
    MemoryError,
    IndexError,
    KeyError,
)


def unpack_strict(
    data: bytes,
    *,
    max_size: int = MAX_FRAME,
    max_str: int = MAX_STR,
    max_bin: int = MAX_BIN,
    max_array: int = MAX_ARRAY,
    max_map: int = MAX_MAP,
    max_depth: int = MAX_DEPTH,
    canonical: bool = True,
) -> Any:
    """Decode exactly one bounded msgpack object, or raise RemoteProtocolError."""
    if type(data) is not bytes:
        raise RemoteProtocolError("malformed message: not bytes")
    if len(data) > max_size:
        raise RemoteProtocolError("malformed message: too large")
    try:  # (one call, no Unpacker object and its buffer: a process decodes every message it gets)
        obj = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=max_str,
            max_bin_len=max_bin,
            max_array_len=max_array,
            max_map_len=max_map,
            max_ext_len=0,
            ext_hook=_no_ext,
        )
    except _DECODE_ERRORS as exc:
        detail = _UNPACKB_SAYS.get(str(exc), str(exc))[:80] or type(exc).__name__
        raise RemoteProtocolError(f"malformed message: {detail}") from None
    # The same bytes come to a process more than once (a frame from the host, over the
    # seats' links, from the journal; every node of a simulated table): bytes found to hold
    # (nested no deeper than ``max_depth``, canonical) are remembered by a digest of exactly
    # them and of what they were checked for.
    key = hashlib.sha256(data).digest() + bytes([canonical]) + max_depth.to_bytes(4, "little", signed=True)
    if key in _HELD:
        return obj
    if not _depth_ok(obj, max_depth):
        raise RemoteProtocolError("malformed message: nested too deeply")
    if canonical:
        try:
            again = pack(obj)
        except _DECODE_ERRORS:
            raise RemoteProtocolError("malformed message: cannot re-encode") from None
        if again != data:
            raise RemoteProtocolError("malformed message: not in canonical form")
    if len(_HELD) >= _VERIFIED_KEPT:
        _HELD.clear()
    _HELD.add(key)
    return obj


_HELD: set[bytes] = set()  # digests of msgpack found to hold (see unpack_strict)
# what msgpack's one-shot decoder says, in the words its streaming one said (a peer is told them)
_UNPACKB_SAYS = {"Unpack failed: incomplete input": "No more data to unpack.",
                 "unpack(b) received extra data.": "trailing data"}


# -- envelopes ------------------------------------------------------------------


@dataclass(frozen=True)
class Envelope:
    game: bytes
    seq: int
    sender: int
    kind: str
    body: Mapping[str, Any]
    frame: bytes

    @property
    def digest(self) -> bytes:
        return hashlib.sha256(self.frame).digest()


def context(game_id: bytes, label: bytes = PROTOCOL) -> bytes:
    return label + game_id


def seal(
    identity: Identity,
    seat: int,
    game_id: bytes,
    seq: int,
    kind: str,
    body: Mapping[str, Any],
    *,
    label: bytes = PROTOCOL,
) -> bytes:
    """Encode and sign one message; returns the frame.

    ``label`` is the signing context: ``INNER`` for a frame sealed inside a
    private message, so it can never pass for a message of the game itself.
    """
    if not 0 <= seat < MAX_SEATS or len(game_id) != GAME_ID_LEN or not 0 <= seq <= MAX_SEQ:
        raise LocalProtocolError("bad envelope header")
    payload = pack({"game": game_id, "seq": seq, "from": seat, "kind": kind, "body": dict(body)})
    if len(payload) + HEADER_LEN > MAX_FRAME:
        raise LocalProtocolError(f"{kind} message too large ({len(payload)} bytes)")
    signature = identity.sign(context(game_id, label) + payload)
    return bytes([seat]) + signature + payload


def _said(frame: bytes, key: str) -> Any:
    """What a frame's payload says under ``key``, its signature not checked; None where it says nothing."""
    if type(frame) is not bytes or len(frame) <= HEADER_LEN:
        return None
    try:
        return unpack_strict(frame[HEADER_LEN:])[key]
    except (RemoteProtocolError, KeyError, TypeError):
        return None


def seq_of(frame: bytes) -> tuple[int, int] | None:
    """(signer, seq) as a frame says, its signature not checked (a cheap look
    before the check); None where it says neither."""
    seq = _said(frame, "seq")
    if type(seq) is not int or not 0 <= seq <= MAX_SEQ:
        return None
    return frame[0], seq


def game_id_of(frame: bytes) -> bytes | None:
    """The game id a frame says, its signature not checked; None where it says none."""
    game = _said(frame, "game")
    return game if type(game) is bytes else None


def signed_slot(frame: bytes, keys: KeyRing, game_id: bytes) -> tuple[int, int] | None:
    """(signer, seq) of a frame validly signed for this game, whatever its body; else None.

    Two different frames with one signer and one sequence number are that
    signer's equivocation, well-formed or not: it signed both."""
    slot = seq_of(frame)
    if slot is None or slot[0] >= len(keys) \
            or not keys.verify(slot[0], frame[1:HEADER_LEN], context(game_id) + frame[HEADER_LEN:]):
        return None
    return slot


def open_frame(
    frame: bytes,
    *,
    game_id: bytes,
    keys: KeyRing,
    kinds: Mapping[str, Validator],
    label: bytes = PROTOCOL,
) -> Envelope:
    """Check and decode one frame.  Raises only RemoteProtocolError."""
    if type(frame) is not bytes:
        raise RemoteProtocolError("malformed frame: not bytes")
    if len(frame) > MAX_FRAME:
        raise RemoteProtocolError("malformed frame: larger than the frame limit")
    if len(frame) <= HEADER_LEN:
        raise RemoteProtocolError("malformed frame: truncated")
    signer = frame[0]
    if signer >= len(keys):
        raise RemoteProtocolError(f"malformed frame: no seat {signer}")
    signature, payload = frame[1:HEADER_LEN], frame[HEADER_LEN:]
    if not keys.verify(signer, signature, context(game_id, label) + payload):
        raise RemoteProtocolError(f"bad signature on a message claiming to be from seat {signer}")
    # From here on the signer vouched for these bytes: any defect is theirs.
    try:
        obj = unpack_strict(payload)
        if type(obj) is not dict or set(obj) != _ENVELOPE_KEYS:
            raise RemoteProtocolError("malformed message: bad envelope fields")
        game, seq, sender, kind, body = obj["game"], obj["seq"], obj["from"], obj["kind"], obj["body"]
        if type(game) is not bytes or game != game_id:
            raise RemoteProtocolError("message for another game")
        if type(seq) is not int or not 0 <= seq <= MAX_SEQ:
            raise RemoteProtocolError("malformed message: bad sequence number")
        if type(sender) is not int or sender != signer:
            raise RemoteProtocolError("malformed message: sender does not match signer")
        if type(kind) is not str or kind not in kinds:
            raise RemoteProtocolError(f"unknown message kind {kind!r}")
        checked = kinds[kind](body, kind)
    except RemoteProtocolError as exc:
        raise exc.blamed(signer) from None
    return Envelope(game=game, seq=seq, sender=signer, kind=kind, body=checked, frame=frame)


def peek_signer(frame: bytes) -> int | None:
    """The seat byte of a frame, without checking anything."""
    return frame[0] if type(frame) is bytes and frame else None


class SeqTracker:
    """Per-sender sequence numbers: each sender counts 0, 1, 2, ... with no gaps.

    Anything else is a replay, a reordering or a dropped message.
    """

    def __init__(self, seats: int) -> None:
        self._next = [0] * seats

    def expected(self, seat: int) -> int:
        return self._next[seat]

    def check(self, seat: int, seq: int) -> None:
        want = self._next[seat]
        if seq < want:
            raise RemoteProtocolError(f"replayed message: seq {seq} from seat {seat} already seen")
        if seq > want:
            raise RemoteProtocolError(f"out-of-order message: seq {seq} from seat {seat}, expected {want}")

    def advance(self, seat: int) -> None:
        self._next[seat] += 1

    def snapshot(self) -> tuple[int, ...]:
        return tuple(self._next)
