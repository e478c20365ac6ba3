"""The dice beacon: committed SHA-256 hash chains, one per seat.

Each seat picks a secret ``x(0)``, computes ``x(k+1) = SHA256(x(k))`` up to
``x(N)`` and publishes ``x(N)`` (signed, in its hello).  Roll number r is
settled when every seat has published the preimage of the last value it
revealed; everyone checks the hash link.  All values were fixed before the
game began, so no seat can steer a roll; the only power left is to refuse to
reveal, which shows as a stalled seat.

The outcome is derived with HKDF over (game id, roll index, what is drawn,
purpose, every revealed value) and rejection sampling, so a die's face is
exactly uniform on 1..sides and ``pick`` draws a uniform k-subset (in a uniform
order) of ``range(n)``.

A chain is renewed, before it runs out, by a fresh commitment attached to a
reveal; the new chain takes over when the old one is exhausted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from ..wire.errors import LocalProtocolError, RemoteProtocolError

CHAIN_LENGTH = 256
MAX_CHAIN_LENGTH = 4096
RENEW_AT = 16
MAX_PICK_N = 1024


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def build_chain(seed: bytes, length: int) -> list[bytes]:
    """``[x(0), x(1), ..., x(length)]`` with x(k+1) = SHA256(x(k))."""
    if len(seed) != 32 or not 1 <= length <= MAX_CHAIN_LENGTH:
        raise LocalProtocolError("a chain needs a 32-byte seed and a sane length")
    values = [seed]
    for _ in range(length):
        values.append(sha256(values[-1]))
    return values


def renew_threshold(length: int) -> int:
    """Renewal is allowed once this many reveals (or fewer) remain."""
    return min(RENEW_AT, max(1, length // 2))


@dataclass(frozen=True)
class ChainState:
    """What everyone knows about one seat's chain.

    ``anchor`` is the last revealed value (or the commitment), ``remaining``
    how many preimages are still available under it, ``pending`` a renewal
    waiting to take over (commitment, length).
    """

    anchor: bytes
    remaining: int
    length: int
    pending: tuple[bytes, int] | None = None
    generation: int = 0

    @classmethod
    def committed(cls, commitment: bytes, length: int) -> ChainState:
        return cls(anchor=commitment, remaining=length, length=length)

    def after(self, value: bytes, renew: tuple[bytes, int] | None) -> ChainState:
        """The state after revealing ``value`` (with an optional renewal).

        Raises RemoteProtocolError (seat unset) when the reveal is not valid.
        """
        if self.remaining == 0:  # pragma: no cover - state never left exhausted
            raise RemoteProtocolError("dice chain exhausted")
        if sha256(value) != self.anchor:
            raise RemoteProtocolError("dice value is not the preimage of the previous one")
        remaining = self.remaining - 1
        pending = self.pending
        if renew is not None:
            if pending is not None:
                raise RemoteProtocolError("dice chain renewed twice")
            if remaining > renew_threshold(self.length):
                raise RemoteProtocolError("dice chain renewed too early")
            commit, length = renew
            if not 1 <= length <= MAX_CHAIN_LENGTH:
                raise RemoteProtocolError("bad dice chain length")
            pending = (commit, length)
        if remaining == 0:
            if pending is None:
                raise RemoteProtocolError("dice chain ran out without a renewal")
            commit, length = pending
            return ChainState(anchor=commit, remaining=length, length=length, generation=self.generation + 1)
        return ChainState(
            anchor=value, remaining=remaining, length=self.length, pending=pending, generation=self.generation
        )


class OwnChain:
    """A seat's secret chains (derived from seeds it can recompute)."""

    def __init__(self, seed_for_generation, length: int) -> None:
        self._seed_for = seed_for_generation
        self._length = length
        self._cache: dict[int, list[bytes]] = {}

    def values(self, generation: int) -> list[bytes]:
        if generation not in self._cache:
            self._cache[generation] = build_chain(self._seed_for(generation), self._length)
            for old in [g for g in self._cache if g < generation - 1]:
                del self._cache[old]
        return self._cache[generation]

    def commitment(self, generation: int) -> bytes:
        return self.values(generation)[-1]

    @property
    def length(self) -> int:
        return self._length

    def reveal(self, state: ChainState) -> tuple[bytes, tuple[bytes, int] | None]:
        """The next value to publish under ``state``, and a renewal if due."""
        values = self.values(state.generation)
        index = state.remaining - 1  # x(remaining - 1) hashes to the anchor x(remaining)
        value = values[index]
        renew = None
        if state.pending is None and state.remaining - 1 <= renew_threshold(state.length):
            renew = (self.commitment(state.generation + 1), self._length)
        return value, renew


# -- outcomes -------------------------------------------------------------------


class Stream:
    """Exactly-uniform integers from HKDF output, by rejection sampling."""

    def __init__(self, ikm: bytes, info: bytes) -> None:
        self._ikm = ikm
        self._info = info
        self._block = 0
        self._buf = b""

    def _refill(self) -> None:
        hkdf = HKDF(
            algorithm=hashes.SHA256(),
            length=64,
            salt=b"ankh/v1/dice",
            info=self._info + self._block.to_bytes(4, "little"),
        )
        self._buf += hkdf.derive(self._ikm)
        self._block += 1

    def _take(self, count: int) -> bytes:
        while len(self._buf) < count:
            self._refill()
        out, self._buf = self._buf[:count], self._buf[count:]
        return out

    def below(self, m: int) -> int:
        """Uniform on range(m)."""
        if m < 1:
            raise LocalProtocolError("below() needs m >= 1")
        if m == 1:
            return 0
        bits = (m - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            x = int.from_bytes(self._take(nbytes), "little") & mask
            if x < m:
                return x


def _info(game_id: bytes, index: int, what: str, purpose: str) -> bytes:
    parts = [game_id, index.to_bytes(4, "little"), what.encode(), purpose.encode()]
    return b"".join(len(p).to_bytes(2, "little") + p for p in parts)


def stream_for(game_id: bytes, index: int, what: str, purpose: str, values: Sequence[bytes]) -> Stream:
    return Stream(b"".join(values), _info(game_id, index, what, purpose))


PLAIN_SIDES = 12  # the die of a roll that names none (the wire's first rolls)


def roll(game_id: bytes, index: int, purpose: str, sides: int, dice: int,
         values: Sequence[bytes]) -> int | tuple[int, ...]:
    """The faces of roll ``index`` from every seat's revealed value: ``dice``
    dice of ``sides`` faces, an int for one die and a tuple for several.  The
    stream is named by the dice (``1d6``, ``2d6``), so each kind of roll has its
    own; the plain die's keeps the name it had before rolls named their dice."""
    if sides < 2 or dice < 1:
        raise LocalProtocolError(f"cannot roll {dice}d{sides}")
    what = f"d{sides}" if (sides, dice) == (PLAIN_SIDES, 1) else f"{dice}d{sides}"
    stream = stream_for(game_id, index, what, purpose, values)
    faces = tuple(stream.below(sides) + 1 for _ in range(dice))
    return faces[0] if dice == 1 else faces


def pick(game_id: bytes, index: int, purpose: str, k: int, n: int, values: Sequence[bytes]) -> tuple[int, ...]:
    """k distinct indices of range(n), uniformly (partial Fisher-Yates)."""
    if not 0 < k <= n <= MAX_PICK_N:
        raise LocalProtocolError(f"cannot pick {k} of {n}")
    stream = stream_for(game_id, index, f"pick/{k}/{n}", purpose, values)
    pool = list(range(n))
    for i in range(k):
        j = i + stream.below(n - i)
        pool[i], pool[j] = pool[j], pool[i]
    return tuple(pool[:k])


def bits(game_id: bytes, index: int, purpose: str, k: int, values: Sequence[bytes]) -> tuple[int, ...]:
    """k fair bits from beacon round ``index`` (the challenge of a shuffle proof)."""
    stream = stream_for(game_id, index, f"bits/{k}", purpose, values)
    return tuple(stream.below(2) for _ in range(k))
