"""Private delivery of card keys: X25519 + HKDF + ChaCha20-Poly1305.

Each seat publishes an X25519 box key in its hello.  A private message from
seat s to seat t is encrypted under a key derived from the static
Diffie-Hellman secret of (s, t) and the direction s -> t; the nonce is the
sender's message sequence number, which never repeats.  The plaintext is
itself a frame signed by s, so if s lies, t can show everyone the signed lie.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .errors import RemoteProtocolError


def box_public(private: bytes) -> bytes:
    return (
        X25519PrivateKey.from_private_bytes(private)
        .public_key()
        .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    )


class Boxes:
    """One seat's channel keys towards every other seat (cached)."""

    def __init__(self, private: bytes, game_id: bytes) -> None:
        self._private = X25519PrivateKey.from_private_bytes(private)
        self._game_id = game_id
        self._cache: dict[tuple[int, int, bytes], ChaCha20Poly1305] = {}

    def _aead(self, sender: int, to: int, peer_public: bytes) -> ChaCha20Poly1305:
        key = (sender, to, peer_public)
        aead = self._cache.get(key)
        if aead is None:
            try:
                shared = self._private.exchange(X25519PublicKey.from_public_bytes(peer_public))
            except ValueError:
                raise RemoteProtocolError("box key of small order") from None
            secret = HKDF(
                algorithm=hashes.SHA256(),
                length=32,
                salt=self._game_id,
                info=b"ankh/v1/seal" + bytes([sender, to]),
            ).derive(shared)
            aead = self._cache[key] = ChaCha20Poly1305(secret)
        return aead

    def _aad(self, sender: int, to: int, seq: int) -> bytes:
        return b"ankh/v1/seal" + self._game_id + bytes([sender, to]) + seq.to_bytes(4, "little")

    def seal(self, sender: int, to: int, seq: int, peer_public: bytes, plaintext: bytes) -> bytes:
        nonce = seq.to_bytes(12, "little")
        return self._aead(sender, to, peer_public).encrypt(nonce, plaintext, self._aad(sender, to, seq))

    def open(self, sender: int, to: int, seq: int, peer_public: bytes, ciphertext: bytes) -> bytes:
        nonce = seq.to_bytes(12, "little")
        try:
            return self._aead(sender, to, peer_public).decrypt(nonce, ciphertext, self._aad(sender, to, seq))
        except InvalidTag:
            raise RemoteProtocolError("private message does not decrypt") from None
