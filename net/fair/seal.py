"""Private delivery of card keys: per-message X25519 + HKDF + ChaCha20-Poly1305.

Each seat publishes an X25519 box key in its hello.  A private message from
seat s to seat t is encrypted under a key derived from a fresh ephemeral key
of s and t's box key: ``K = X25519(eph, box[t])``; the outer (public) message
carries the ephemeral public key and a hash of the plaintext.  The plaintext
is itself a frame signed by s, under its own signing context (``INNER``), so
it can never pass for an outer message: if s lies in it, t can show everyone
the signed lie, and nobody can present the pair as two messages of one slot.

Because every message has its own K, the receiver can open one message to
the world (``disclose``: K with a proof that it is ``box_private * eph``)
without opening any other: a message that does not decrypt, or whose
plaintext does not match the signed hash, becomes a dispute anyone can
settle (``open_disclosed``).
"""

from __future__ import annotations

import hashlib

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from . import group
from ..wire.envelope import pack, unpack_strict
from ..wire.errors import RemoteProtocolError

LABEL = b"ankh/v1/seal"


def box_public(private: bytes) -> bytes:
    """The X25519 public key of a box's private key (RFC 7748: the base point times the clamped key)."""
    return group.mul_base_n(private)


def _exchange(private: bytes, public: bytes) -> bytes:
    """X25519 (RFC 7748): our clamped private key times their public key."""
    try:
        return group.mul_n(private, public)
    except group.GroupError:
        raise RemoteProtocolError("key of small order") from None


def _aead(game_id: bytes, sender: int, to: int, eph: bytes, shared: bytes) -> ChaCha20Poly1305:
    secret = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=game_id, info=LABEL + bytes([sender, to]) + eph
    ).derive(shared)
    return ChaCha20Poly1305(secret)


def _aad(game_id: bytes, sender: int, to: int, seq: int, eph: bytes) -> bytes:
    return LABEL + game_id + bytes([sender, to]) + seq.to_bytes(4, "little") + eph


def _decrypt(game_id: bytes, sender: int, to: int, seq: int, eph: bytes, shared: bytes, ct: bytes) -> bytes:
    try:
        return _aead(game_id, sender, to, eph, shared).decrypt(
            seq.to_bytes(12, "little"), ct, _aad(game_id, sender, to, seq, eph)
        )
    except InvalidTag:
        raise RemoteProtocolError("private message does not decrypt") from None


def digest(inner: bytes) -> bytes:
    """The hash of a sealed plaintext that the outer message signs."""
    return hashlib.sha256(LABEL + inner).digest()


class Boxes:
    """One seat's side of private deliveries (its box key)."""

    def __init__(self, private: bytes, game_id: bytes) -> None:
        self._private = private
        self._game_id = game_id

    def seal(
        self, sender: int, to: int, seq: int, peer_public: bytes, plaintext: bytes, eph_private: bytes
    ) -> tuple[bytes, bytes]:
        """Encrypt to ``peer_public`` under a per-message ephemeral key; returns (eph, ct)."""
        eph = box_public(eph_private)
        aead = _aead(self._game_id, sender, to, eph, _exchange(eph_private, peer_public))
        return eph, aead.encrypt(seq.to_bytes(12, "little"), plaintext, _aad(self._game_id, sender, to, seq, eph))

    def open(self, sender: int, to: int, seq: int, eph: bytes, ciphertext: bytes) -> bytes:
        """Decrypt a message sent to us.  Raises RemoteProtocolError."""
        shared = _exchange(self._private, eph)
        return _decrypt(self._game_id, sender, to, seq, eph, shared, ciphertext)

    def disclose(self, eph: bytes) -> bytes:
        """This message's key K, with a proof that K = box_private * eph (and nothing more)."""
        b_n = bytearray(self._private[:32])
        b_n[0] &= 248
        b_n[31] = (b_n[31] & 127) | 64
        scalar = int.from_bytes(b_n, "little") % group.L
        shared = group.mul_n(bytes(b_n), eph)
        E = group.mul_base_n(bytes(b_n))
        A, As, s = group.dleq_prove(LABEL + b"/disclose" + eph, scalar, E, [eph], [shared], self._private)
        return pack({"K": shared, "A": A, "As": As, "s": s})


def open_disclosed(
    game_id: bytes, sender: int, to: int, seq: int, box: bytes, eph: bytes, ct: bytes, disclosure: bytes
) -> bytes:
    """What anyone can do with a receiver's disclosure: check K against the receiver's
    box key and open that one message.  Raises RemoteProtocolError (``seat`` None)
    if the disclosure is false (the receiver lied), or with the reason the message fails."""
    try:
        d = unpack_strict(disclosure, max_size=256)
        shared, A, As, s = d["K"], d["A"], d["As"], d["s"]
        group.check_group_point(eph)
        # The proof multiplies K by a clamped integer, which wipes out a small-order
        # part: K + T would pass it and then fail to decrypt an honest message.
        group.check_group_point(shared)
        bad = group.dleq_verify(LABEL + b"/disclose" + eph, box, [eph], [shared], A, [As], s)
    except (KeyError, TypeError, group.GroupError, RemoteProtocolError):
        bad = [-1]
    if bad:
        raise RemoteProtocolError("false disclosure: that is not the message's key")
    return _decrypt(game_id, sender, to, seq, eph, shared, ct)
