"""An encrypted, mutually authenticated link between two installs (sans-I/O).

Bytes in, events out, in the style of h11: the caller feeds whatever arrived
on the connection to :meth:`Link.receive_data`, gets :class:`LinkUp`,
:class:`Message` and :class:`LinkClosed` events back, and writes out whatever
:meth:`Link.data_to_send` returns.  No sockets, no clock.

The handshake is Noise_XX_25519_ChaChaPoly_BLAKE2s (the ``noiseprotocol``
package) with a prologue of ``ankh/link/v1``, a zero byte and the caller's
prologue (protocol version and table id), so a link is bound to one table.
The Noise static keys are fresh for every link; what binds the link to a
player is the first encrypted record each side sends::

    AUTH | Ed25519 public key (32) | signature (64)

where the signature covers ``ankh/link-auth/v1``, a zero byte, the signer's
role (``I`` initiator / ``R`` responder) and the handshake hash.  The peer's
identity key is known, and :class:`LinkUp` reported, only once that signature
checks.  Application messages sent before then wait in a queue.

On the wire every Noise message is preceded by its length (2 bytes, big
endian, 1 to 65,535).  An encrypted record is one type byte then its body:
``AUTH``, ``MORE``/``LAST`` (pieces of an application message of at most
``max_message`` bytes, 1 MiB by default), ``PING`` (keepalive) and ``CLOSE``
(a reason).  Noise's nonces make replayed, reordered, dropped or altered
records undecryptable.

Anything wrong from the peer — garbage, a bad length, a record that does not
decrypt, a bad signature, a message over the limit, a record out of place —
ends the link with a :class:`LinkClosed` event saying why, and when the
encryption is already set up a ``CLOSE`` record tells the peer the same.
``receive_data`` never raises.  ``send`` raises :class:`LinkError` (a
:class:`LocalProtocolError`) only for the caller's own mistakes: sending on a
closed link, or a message over the limit.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from noise.connection import Keypair, NoiseConnection
from noise.constants import MAX_NONCE
from noise.state import CipherState
from noise.exceptions import (
    NoiseHandshakeError,
    NoiseInvalidMessage,
    NoiseMaxNonceError,
    NoiseValueError,
)

from .envelope import KEY_LEN, SIG_LEN, Identity, fingerprint, verify_signature
from .errors import LocalProtocolError, Words

NOISE_NAME = b"Noise_XX_25519_ChaChaPoly_BLAKE2s"
PROLOGUE_PREFIX = b"ankh/link/v1\x00"
AUTH_DOMAIN = b"ankh/link-auth/v1\x00"

MAX_NOISE = 65535                    # one Noise message, the Noise limit
TAG = 16                             # ChaChaPoly's authentication tag
MAX_PIECE = MAX_NOISE - TAG - 1      # body bytes in one record
MAX_MESSAGE = 1024 * 1024            # one application message, reassembled
MAX_REASON = 200                     # bytes of a CLOSE reason

AUTH, MORE, LAST, PING, CLOSE = 1, 2, 3, 4, 5

_LEN = struct.Struct(">H")
_NONCE_PAD = bytes(4)  # ChaChaPoly's nonce in Noise: four zero bytes, then the counter, little-endian
_NOISE_ERRORS = (NoiseHandshakeError, NoiseInvalidMessage, NoiseMaxNonceError, NoiseValueError,
                 InvalidTag, ValueError)


class LinkError(LocalProtocolError):
    """The caller misused a link: sent on a closed one, or a message over the limit."""


@dataclass(frozen=True)
class LinkUp:
    """The handshake is done and the peer proved it holds ``peer_key``."""
    peer_key: bytes
    handshake_hash: bytes


@dataclass(frozen=True)
class Message:
    data: bytes


@dataclass(frozen=True)
class LinkClosed:
    reason: str


Event = LinkUp | Message | LinkClosed


def _clean(text: str) -> str:
    """A peer's words, safe to show: printable, one line, bounded."""
    return "".join(c if c.isprintable() else "?" for c in text)[:MAX_REASON]


class Link:
    """One end of a link.  ``prologue`` must be the same on both ends.

    ``expected_peer`` (optional) is the identity key the peer must prove; any
    other key ends the link.
    """

    def __init__(self, initiator: bool, identity: Identity, prologue: bytes, *,
                 expected_peer: bytes | None = None, max_message: int = MAX_MESSAGE) -> None:
        if type(prologue) is not bytes:
            raise LinkError("the prologue is bytes")
        self.initiator = initiator
        self.identity = identity
        self.expected_peer = expected_peer
        self.max_message = max_message
        self.peer_key: bytes | None = None
        self.handshake_hash: bytes | None = None
        self.closed_reason: str | None = None
        self.records_in = 0  # whole records decrypted: proof of life (bytes alone may be garbage)
        self._out = bytearray()
        self._in = bytearray()
        self._pending: list[bytes] = []       # sent before the peer was authenticated
        self._pieces: list[bytes] = []        # an incoming message being reassembled
        self._pieces_len = 0
        self._encrypting = False              # Noise transport keys are ready
        self._prologue = PROLOGUE_PREFIX + prologue
        self._noise_state: NoiseConnection | None = None
        self._sending: CipherState | None = None    # Noise's transport states, once the handshake is done
        self._receiving: CipherState | None = None
        if initiator:
            self._emit(bytes(self._noise.write_message()))

    @property
    def _noise(self) -> NoiseConnection:
        """The Noise state, made when first needed: a responder makes it on its
        peer's first record, so a connection that never speaks (a flood at a
        host's door) costs no key and no cryptography."""
        if self._noise_state is None:
            noise = NoiseConnection.from_name(NOISE_NAME)
            static = X25519PrivateKey.generate().private_bytes(
                serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
            noise.set_keypair_from_private_bytes(Keypair.STATIC, static)
            noise.set_prologue(self._prologue)
            if self.initiator:
                noise.set_as_initiator()
            else:
                noise.set_as_responder()
            noise.start_handshake()
            self._noise_state = noise
        return self._noise_state

    # -- state ----------------------------------------------------------------------

    @property
    def up(self) -> bool:
        return self.peer_key is not None and self.closed_reason is None

    @property
    def closed(self) -> bool:
        return self.closed_reason is not None

    def data_to_send(self) -> bytes:
        if not self._out:  # (asked after every read and every send: mostly nothing)
            return b""
        out = bytes(self._out)
        self._out.clear()
        return out

    # -- sending --------------------------------------------------------------------

    def send(self, message: bytes) -> None:
        """Queue one application message (delivered whole, in order, or not at all)."""
        if not isinstance(message, (bytes, bytearray, memoryview)):
            raise LinkError("a message is bytes")
        message = bytes(message)
        if len(message) > self.max_message:
            raise LinkError(f"message of {len(message)} bytes is over the {self.max_message}-byte limit")
        if self.closed_reason is not None:
            raise LinkError(f"the link is closed ({self.closed_reason})")
        if self.peer_key is None:
            self._pending.append(message)
            return
        self._send_message(message)

    def ping(self) -> None:
        """Queue a keepalive (nothing happens before the link is up or after it closed)."""
        if self.up:
            self._record(PING, b"")

    def close(self, reason: str = "closed") -> None:
        """End the link, telling the peer why when the encryption allows it."""
        self._close(reason)

    def _send_message(self, message: bytes) -> None:
        pieces = [message[i:i + MAX_PIECE] for i in range(0, len(message), MAX_PIECE)] or [b""]
        for piece in pieces[:-1]:
            self._record(MORE, piece)
        self._record(LAST, pieces[-1])

    def _record(self, kind: int, body: bytes) -> None:
        plain = bytes([kind]) + body
        state = self._sending
        if state is None or len(plain) > MAX_NOISE or state.n >= MAX_NONCE:
            self._emit(self._noise.encrypt(plain))  # (and what Noise says of a record it will not make)
            return
        # Noise's own transport step (ChaChaPoly under the next nonce, no associated data), without
        # the library's four calls around it: a link encrypts every record it sends.
        self._emit(state.cipher.cipher.encrypt(_NONCE_PAD + state.n.to_bytes(8, "little"), plain, None))
        state.n += 1

    def _emit(self, noise_message: bytes) -> None:
        self._out += _LEN.pack(len(noise_message)) + noise_message

    def _close(self, reason: str, *, tell_peer: bool = True) -> list[Event]:
        if self.closed_reason is not None:
            return []
        self.closed_reason = reason
        if tell_peer and self._encrypting:
            try:
                self._record(CLOSE, reason.encode("utf-8")[:MAX_REASON])
            except _NOISE_ERRORS:
                pass
        self._pending.clear()
        self._pieces.clear()
        self._in.clear()
        return [LinkClosed(reason)]

    # -- receiving ------------------------------------------------------------------

    def receive_data(self, data: bytes) -> list[Event]:
        """Feed bytes from the peer; ``b""`` means the peer closed the connection."""
        if self.closed_reason is not None:
            return []
        if not isinstance(data, (bytes, bytearray, memoryview)):
            return self._close(Words("the link was fed something other than bytes"))
        if not data:
            if self._in:
                return self._close(Words("connection closed in the middle of a record"), tell_peer=False)
            if self.peer_key is None:
                return self._close(Words("connection closed during the handshake"), tell_peer=False)
            return self._close(Words("connection closed by the peer"), tell_peer=False)
        self._in += data
        events: list[Event] = []
        while len(self._in) >= 2 and self.closed_reason is None:
            (size,) = _LEN.unpack_from(self._in)
            if size == 0:
                events += self._close(Words("malformed record: zero length"))
                break
            if len(self._in) < 2 + size:
                break
            record = bytes(self._in[2:2 + size])
            del self._in[:2 + size]
            events += self._receive_record(record)
        return events

    def _receive_record(self, record: bytes) -> list[Event]:
        state = self._receiving
        if state is None:
            return self._handshake_step(record)
        try:
            if len(record) > MAX_NOISE or state.n >= MAX_NONCE:
                plain = self._noise.decrypt(record)
            else:  # (as Noise decrypts: the nonce moves on only past a record that decrypted)
                plain = state.cipher.cipher.decrypt(_NONCE_PAD + state.n.to_bytes(8, "little"), record, None)
                state.n += 1
        except _NOISE_ERRORS:
            return self._close(Words("a record failed to decrypt (corrupted, injected, replayed or out of order)"))
        self.records_in += 1
        if not plain:
            return self._close(Words("malformed record: empty"))
        kind, body = plain[0], plain[1:]
        if self.peer_key is None:
            if kind == CLOSE:
                return self._close(Words("the peer closed the link: {why}", why=_clean(body.decode("utf-8", "replace"))),
                                   tell_peer=False)
            if kind != AUTH:
                return self._close(Words("the peer sent data before proving its identity"))
            return self._authenticate(body)
        if kind in (MORE, LAST):
            return self._piece(kind, body)
        if kind == PING:
            return [] if not body else self._close(Words("malformed keepalive"))
        if kind == CLOSE:
            return self._close(Words("the peer closed the link: {why}", why=_clean(body.decode("utf-8", "replace"))),
                               tell_peer=False)
        if kind == AUTH:
            return self._close(Words("the peer tried to authenticate twice"))
        return self._close(Words("unknown record type {kind}", kind=kind))

    def _handshake_step(self, record: bytes) -> list[Event]:
        try:
            payload = self._noise.read_message(record)
            if payload:
                return self._close(Words("malformed handshake: unexpected payload"))
            if not self._noise.handshake_finished:
                self._emit(bytes(self._noise.write_message()))
        except _NOISE_ERRORS:
            return self._close(Words("handshake failed: the peer's handshake message is invalid "
                                     "(another protocol version or table, or garbage)"))
        if self._noise.handshake_finished:
            self._encrypting = True
            protocol = self._noise.noise_protocol  # the transport's two cipher states, as Noise split them
            self._sending, self._receiving = protocol.cipher_state_encrypt, protocol.cipher_state_decrypt
            self.handshake_hash = bytes(self._noise.get_handshake_hash())
            signature = self.identity.sign(self._auth_data(self.initiator))
            self._record(AUTH, self.identity.public_key + signature)
        return []

    def _auth_data(self, initiator: bool) -> bytes:
        assert self.handshake_hash is not None
        return AUTH_DOMAIN + (b"I" if initiator else b"R") + self.handshake_hash

    def _authenticate(self, body: bytes) -> list[Event]:
        if len(body) != KEY_LEN + SIG_LEN:
            return self._close(Words("malformed identity proof"))
        key, signature = body[:KEY_LEN], body[KEY_LEN:]
        if not verify_signature(key, signature, self._auth_data(not self.initiator)):
            return self._close(Words("the peer's identity proof does not check: its signature "
                                     "is not by the key it claims"))
        if self.expected_peer is not None and key != self.expected_peer:
            return self._close(Words("the peer is {key}, not the expected {expected}",
                                     key=fingerprint(key), expected=fingerprint(self.expected_peer)))
        self.peer_key = key
        assert self.handshake_hash is not None
        events: list[Event] = [LinkUp(key, self.handshake_hash)]
        pending, self._pending = self._pending, []
        for message in pending:
            self._send_message(message)
        return events

    def _piece(self, kind: int, body: bytes) -> list[Event]:
        self._pieces_len += len(body)
        if self._pieces_len > self.max_message:
            return self._close(Words("the peer sent a message over the {limit}-byte limit", limit=self.max_message))
        if kind == MORE and not body:
            return self._close(Words("malformed record: empty piece"))
        self._pieces.append(body)
        if kind == MORE:
            return []
        message = b"".join(self._pieces)
        self._pieces.clear()
        self._pieces_len = 0
        return [Message(message)]
