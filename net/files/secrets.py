"""What a seat must keep to continue a game after a crash.

Everything secret a seat uses in a game is derived from two 32-byte values:
a per-game signing key and a per-game master seed.  The per-game key is
certified by the install's long-term identity (``cert``, a signature over
the game id, the seat and the key; see ``transcript.certificate_message``),
and the identity's own secret never enters the game or this file: losing a
secrets file gives away one game, not the install.  From the seed come the
box key for private messages, the one-message keys of private deliveries,
the dice chain seeds (one per chain generation), and for each deck the
shuffle scalar, the permutation, the per-card lock factors and the proof
nonces.  Keys received privately travel in the public transcript (encrypted
to this seat), so secrets + transcript are enough to resume.

``to_bytes`` is secret material: store it readable by the owner only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..fair import group
from ..fair.deck import DeckSecrets, DeckSpec
from ..wire.envelope import GAME_ID_LEN, Identity, pack, unpack_strict
from ..fair.entropy import random_bytes
from ..wire.errors import LocalProtocolError, RemoteProtocolError
from ..fair.seal import box_public
from .transcript import certificate_message

MAGIC = "ankh-seat-secrets"


@dataclass(frozen=True)
class SeatSecrets:
    """``identity`` signs this game's messages (a per-game key when ``cert`` is set,
    vouched for by the long-term identity ``owner``)."""

    game_id: bytes
    seat: int
    identity: Identity
    master: bytes
    cert: bytes = b""
    owner: bytes = b""
    _decks: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if type(self.game_id) is not bytes or len(self.game_id) != GAME_ID_LEN:
            raise LocalProtocolError("a game id is 16 bytes")
        if type(self.master) is not bytes or len(self.master) != 32:
            raise LocalProtocolError("a master seed is 32 bytes")
        if type(self.seat) is not int or not 0 <= self.seat < 8:
            raise LocalProtocolError("bad seat")
        if type(self.cert) is not bytes or type(self.owner) is not bytes or bool(self.cert) != bool(self.owner):
            raise LocalProtocolError("a certificate comes with the identity that made it")

    @classmethod
    def generate(cls, game_id: bytes, seat: int, identity: Identity) -> SeatSecrets:
        """Fresh secrets from the operating system's randomness, with a fresh
        per-game key certified by the install's ``identity``."""
        return cls.certified(game_id, seat, identity, random_bytes(32), random_bytes(32))

    @classmethod
    def certified(cls, game_id: bytes, seat: int, identity: Identity, key_seed: bytes, master: bytes) -> SeatSecrets:
        """Secrets whose signing key (from ``key_seed``) is certified by ``identity``."""
        key = Identity.from_seed(key_seed)
        cert = identity.sign(certificate_message(game_id, seat, key.public_key))
        return cls(game_id, seat, key, master, cert, identity.public_key)

    @property
    def box_private(self) -> bytes:
        return group.derive(self.master, b"box", self.game_id)[:32]

    @property
    def box_public(self) -> bytes:
        return box_public(self.box_private)

    def ephemeral(self, seq: int, to: int) -> bytes:
        """The one-message X25519 key of our private message number ``seq`` (to seat ``to``)."""
        return group.derive(self.master, b"seal-eph", self.game_id, seq.to_bytes(4, "little"), bytes([to]))[:32]

    def dice_seed(self, generation: int) -> bytes:
        return group.derive(self.master, b"dice", self.game_id, generation.to_bytes(4, "little"))[:32]

    def deck(self, spec: DeckSpec) -> DeckSecrets:
        cached = self._decks.get(spec)
        if cached is None:
            cached = self._decks[spec] = DeckSecrets(self.master, self.game_id, spec)
        return cached

    def to_bytes(self) -> bytes:
        return pack(
            {
                "magic": MAGIC,
                "v": 2,
                "game": self.game_id,
                "seat": self.seat,
                "key": self.identity.seed,
                "master": self.master,
                "cert": self.cert,
                "owner": self.owner,
            }
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> SeatSecrets:
        try:
            obj = unpack_strict(data, max_size=1024, max_depth=2)
            if type(obj) is not dict or obj.get("magic") != MAGIC or obj.get("v") != 2:
                raise RemoteProtocolError("not a seat secrets file (version 2)")
            return cls(
                obj["game"], obj["seat"], Identity.from_seed(obj["key"]), obj["master"], obj["cert"], obj["owner"]
            )
        except (KeyError, TypeError, LocalProtocolError) as exc:
            raise RemoteProtocolError(f"malformed seat secrets: {exc}") from None
