"""What a seat must keep to continue a game after a crash.

Everything secret a seat uses is derived from two 32-byte values: its signing
key (the install's identity) and a per-game master seed.  From the seed come
the box key for private messages, the dice chain seeds (one per chain
generation), and for each deck the shuffle scalar, the permutation, the
per-card lock factors and the proof nonces.  Keys received privately travel
in the public transcript (encrypted to this seat), so secrets + transcript
are enough to resume.

``to_bytes`` is secret material: store it readable by the owner only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from . import group
from .deck import DeckSecrets, DeckSpec
from .envelope import GAME_ID_LEN, Identity, pack, unpack_strict
from .errors import LocalProtocolError, RemoteProtocolError
from .seal import box_public

MAGIC = "ankh-seat-secrets"


@dataclass(frozen=True)
class SeatSecrets:
    game_id: bytes
    seat: int
    identity: Identity
    master: bytes
    _decks: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if type(self.game_id) is not bytes or len(self.game_id) != GAME_ID_LEN:
            raise LocalProtocolError("a game id is 16 bytes")
        if type(self.master) is not bytes or len(self.master) != 32:
            raise LocalProtocolError("a master seed is 32 bytes")
        if type(self.seat) is not int or not 0 <= self.seat < 8:
            raise LocalProtocolError("bad seat")

    @classmethod
    def generate(cls, game_id: bytes, seat: int, identity: Identity) -> SeatSecrets:
        """Fresh secrets from the operating system's randomness."""
        return cls(game_id, seat, identity, os.urandom(32))

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
                "v": 1,
                "game": self.game_id,
                "seat": self.seat,
                "identity": self.identity.seed,
                "master": self.master,
            }
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> SeatSecrets:
        try:
            obj = unpack_strict(data, max_size=1024, max_depth=2)
            if type(obj) is not dict or obj.get("magic") != MAGIC or obj.get("v") != 1:
                raise RemoteProtocolError("not a seat secrets file (version 1)")
            return cls(obj["game"], obj["seat"], Identity.from_seed(obj["identity"]), obj["master"])
        except (KeyError, TypeError, LocalProtocolError) as exc:
            raise RemoteProtocolError(f"malformed seat secrets: {exc}") from None
