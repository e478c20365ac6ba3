"""The dice beacon: hash chains, renewal, and exactly uniform outcomes."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest
from ankh.net.fair import dice
from ankh.net.fair.dice import ChainState, OwnChain, Stream, build_chain, sha256
from ankh.net.wire.errors import RemoteProtocolError

# chi-square critical values at p = 0.0001, far beyond any honest fluctuation
CHI2_DF11 = 40.0


def chi_square(counts: Counter, outcomes: list, total: int) -> float:
    expected = total / len(outcomes)
    return sum((counts[o] - expected) ** 2 / expected for o in outcomes)


def test_chain_links() -> None:
    chain = build_chain(b"s" * 32, 5)
    assert len(chain) == 6 and all(sha256(chain[i]) == chain[i + 1] for i in range(5))
    state = ChainState.committed(chain[-1], 5)
    state = state.after(chain[4], None)
    assert state.anchor == chain[4] and state.remaining == 4
    with pytest.raises(RemoteProtocolError, match="preimage"):
        state.after(chain[4], None)  # the same value again
    with pytest.raises(RemoteProtocolError, match="preimage"):
        state.after(chain[2], None)  # skipping one
    with pytest.raises(RemoteProtocolError, match="too early"):
        state.after(chain[3], (b"n" * 32, 5))


def test_renewal_rules() -> None:
    chain = build_chain(b"s" * 32, 2)
    state = ChainState.committed(chain[-1], 2)
    with pytest.raises(RemoteProtocolError, match="without a renewal"):
        state.after(chain[1], None).after(chain[0], None)
    renewed = state.after(chain[1], (b"n" * 32, 7))
    with pytest.raises(RemoteProtocolError, match="twice"):
        renewed.after(chain[0], (b"m" * 32, 7))
    fresh = renewed.after(chain[0], None)
    assert (fresh.anchor, fresh.remaining, fresh.generation) == (b"n" * 32, 7, 1)


def test_own_chain_follows_public_state_across_generations() -> None:
    own = OwnChain(lambda g: bytes([g + 1]) * 32, 3)
    state = ChainState.committed(own.commitment(0), 3)
    values = []
    for _ in range(10):
        value, renew = own.reveal(state)
        state = state.after(value, renew)
        values.append(value)
    assert state.generation == 3 and len(set(values)) == 10


def test_rejection_sampling_is_exact() -> None:
    # Feed every possible byte once: each face must be accepted equally often.
    class Exhaustive(Stream):
        def __init__(self) -> None:
            self._bytes = iter(range(256))

        def _take(self, count: int) -> bytes:
            return bytes([next(self._bytes) for _ in range(count)])

    s = Exhaustive()
    faces = []
    try:
        while True:
            faces.append(s.below(12))
    except StopIteration:
        pass
    counts = Counter(faces)
    assert sorted(counts) == list(range(12)) and len(set(counts.values())) == 1


def test_d12_faces_are_uniform() -> None:
    rng = random.Random(12)
    total = 12000
    values = [[rng.randbytes(32) for _ in range(3)] for _ in range(100)]
    counts = Counter(dice.roll(b"g" * 16, i, "test", 12, 1, values[i % 100]) for i in range(total))
    assert sorted(counts) == list(range(1, 13))
    assert chi_square(counts, list(range(1, 13)), total) < CHI2_DF11


def test_pick_is_uniform_over_ordered_pairs() -> None:
    rng = random.Random(4)
    total = 6000
    outcomes = list(permutations(range(4), 2))
    counts = Counter(dice.pick(b"g" * 16, i, "test", 2, 4, [rng.randbytes(32)]) for i in range(total))
    assert set(counts) == set(outcomes)
    assert chi_square(counts, outcomes, total) < CHI2_DF11


def test_outcomes_depend_on_every_input() -> None:
    values = [b"a" * 32, b"b" * 32]
    base = [dice.roll(b"g" * 16, i, "p", 12, 1, values) for i in range(40)]
    assert base == [dice.roll(b"g" * 16, i, "p", 12, 1, values) for i in range(40)]
    assert base != [dice.roll(b"h" * 16, i, "p", 12, 1, values) for i in range(40)]
    assert base != [dice.roll(b"g" * 16, i, "q", 12, 1, values) for i in range(40)]
    assert base != [dice.roll(b"g" * 16, i, "p", 12, 1, [values[0], b"c" * 32]) for i in range(40)]
    assert base != [dice.roll(b"g" * 16, i + 1, "p", 12, 1, values) for i in range(40)]
