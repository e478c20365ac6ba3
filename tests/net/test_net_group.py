"""The x-only group arithmetic agrees with libsodium's Ed25519 arithmetic, and
the proofs built on it accept what is true and reject what is not."""

from __future__ import annotations

import random

import nacl.bindings as sodium
import pytest
from ankh.net.fair import deck as decks
from ankh.net.fair import group
from ankh.net.wire.errors import LocalProtocolError
from ankh.net.fair.group import GroupError, L
from ankh.net.fair.kept import Kept

RNG = random.Random(25519)


def scalar() -> int:
    return RNG.randrange(1, L)


def ed_point() -> bytes:
    return sodium.crypto_core_ed25519_from_uniform(RNG.randbytes(32))


def u(ed: bytes) -> bytes:
    return group.edwards_to_u(ed).to_bytes(32, "little")


def ed_mul(s: int, ed: bytes) -> bytes:
    return sodium.crypto_scalarmult_ed25519_noclamp(group.scalar_to_bytes(s), ed)


def test_base_point() -> None:
    one = sodium.crypto_scalarmult_ed25519_base_noclamp(group.scalar_to_bytes(1))
    assert u(one) == group.BASE


@pytest.mark.parametrize("trial", range(20))
def test_multiplication_matches_edwards(trial: int) -> None:
    P, s = ed_point(), scalar()
    assert group.mul(s, u(P)) == u(ed_mul(s, P))
    assert group.mul(L - s, u(P)) == u(ed_mul(s, P))  # up to sign
    assert group.mul_base(s) == u(sodium.crypto_scalarmult_ed25519_base_noclamp(group.scalar_to_bytes(s)))
    assert group.multiplier(s)(u(P)) == group.mul(s, u(P))


def test_scalars_without_a_clamped_representative_take_the_slow_path() -> None:
    P = ed_point()
    for s in (8, 40, 8 * 12345):  # s/8 is tiny, so neither s nor -s is 2^254 + 8t with t < 2^251
        assert group.rep(s) is None
        assert group.mul(s, u(P)) == u(ed_mul(s, P))
        assert group.mul_base(s) == group.mul(s, group.BASE)
    assert sum(group.rep(scalar()) is None for _ in range(2000)) == 0


@pytest.mark.parametrize("trial", range(20))
def test_is_sum_matches_edwards_addition(trial: int) -> None:
    P, Q = ed_point(), ed_point()
    plus = sodium.crypto_core_ed25519_add(P, Q)
    minus = sodium.crypto_core_ed25519_sub(P, Q)
    assert group.is_sum(u(plus), u(P), u(Q))
    assert group.is_sum(u(minus), u(P), u(Q))
    assert group.is_sum(u(sodium.crypto_core_ed25519_add(P, P)), u(P), u(P))  # doubling
    assert not group.is_sum(u(sodium.crypto_core_ed25519_add(plus, Q)), u(P), u(Q))
    assert not group.is_sum(u(ed_point()), u(P), u(Q))


def test_point_checks() -> None:
    good = u(ed_point())
    assert group.check_point(good) == good and group.is_valid_point(good)
    for bad in (b"\x00" * 32, (1).to_bytes(32, "little"), (group.P + 3).to_bytes(32, "little"), b"\x09" * 31):
        with pytest.raises(GroupError):
            group.check_point(bad)
        assert not group.is_valid_point(bad)
    # a point with a small-order component, and a point on the twist
    torsion = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
    mixed = sodium.crypto_core_ed25519_add(ed_point(), torsion)
    assert group.check_point(u(mixed)) and not group.is_valid_point(u(mixed))
    p = group.P
    x = next(x for x in range(2, 100) if pow((x**3 + group.A * x * x + x) % p, (p - 1) // 2, p) == p - 1)
    assert not group.is_valid_point(x.to_bytes(32, "little"))
    # multiplying by a clamped scalar wipes out the small-order component
    s = scalar()
    assert group.mul(s, u(mixed)) == group.mul(s, u(sodium.crypto_core_ed25519_sub(mixed, torsion)))
    with pytest.raises(GroupError):
        group.mul(0, good)


def test_card_points_are_fixed_and_distinct() -> None:
    cards = tuple(f"c{i}" for i in range(50))
    pts = group.card_points("test", cards)
    assert len(set(pts)) == 50 and all(group.is_valid_point(p) for p in pts[:5])
    assert group.card_points("other", cards)[0] != pts[0]
    group._card_points.cache_clear()
    assert group.card_points("test", cards) == pts


def test_card_points_are_derived_once_a_process_in_each_group() -> None:
    """Each quick table enters the simulator's group afresh: its card points are kept by
    the group's name, so a sweep derives them once, and never mixes them with the curve's."""
    cards = tuple(f"c{i}" for i in range(50))
    group._card_points.cache_clear()
    on_curve = group.card_points("test", cards)
    with group.simulated():
        quick = group.card_points("test", cards)
    with group.simulated():
        assert group.card_points("test", cards) == quick
    assert group.card_points("test", cards) == on_curve != quick
    assert group._card_points.cache_info().misses == 2  # (once on the curve, once in the simulator's group)


def test_an_answer_is_kept_under_its_inputs_and_the_group_as_a_copy() -> None:
    """``fair.kept``: the shuffle proofs checked and the logs replayed keep their first
    answer under every byte of their inputs and the group's name; a caller that changes
    what it got changes nothing the next one gets; the oldest go past the limit."""
    kept: Kept[list[int]] = Kept(2)
    found: list[bytes] = []

    def finding(answer: list[int]):
        return lambda: found.append(b"") or answer

    assert kept.answer([b"ab", b"c"], finding([1])) == [1]
    got = kept.answer([b"ab", b"c"], finding([2]))
    assert got == [1] and len(found) == 1
    got.append(9)
    assert kept.answer([b"ab", b"c"], finding([2])) == [1]
    assert kept.answer([b"a", b"bc"], finding([3])) == [3]  # (each part length-prefixed: another key)
    with group.simulated():
        assert kept.answer([b"ab", b"c"], finding([4])) == [4]  # (found in another group: no answer there)
    assert len(kept) == 2 and kept.answer([b"ab", b"c"], finding([5])) == [5]  # (the oldest was let go)
    kept.clear()
    assert len(kept) == 0


def test_dleq() -> None:
    e = scalar()
    E = group.mul_base(e)
    Ys = [u(ed_point()) for _ in range(4)]
    Vs = [group.mul(e, y) for y in Ys]
    A, As, s = group.dleq_prove(b"ctx", e, E, Ys, Vs, b"k" * 32)
    As = [As[i : i + 32] for i in range(0, len(As), 32)]
    assert group.dleq_verify(b"ctx", E, Ys, Vs, A, As, s) == []
    assert group.dleq_verify(b"other ctx", E, Ys, Vs, A, As, s) != []
    wrong = list(Vs)
    wrong[2] = group.mul(e + 1, Ys[2])
    assert group.dleq_verify(b"ctx", E, Ys, wrong, A, As, s) != []
    assert group.dleq_verify(b"ctx", group.mul_base(e + 1), Ys, Vs, A, As, s) != []
    assert group.dleq_verify(b"ctx", E, Ys, Vs, A, As, group.scalar_to_bytes(group.scalar_from_bytes(s) + 1)) == [-1]


def test_lock_proof_and_keys() -> None:
    spec = decks.DeckSpec.of("test", [f"c{i}" for i in range(6)])
    mine = decks.DeckSecrets(b"m" * 32, b"g" * 16, spec)
    X = list(spec.points())
    E = group.mul_base(mine.e)
    ctx = decks.lock_context(b"g" * 16, b"b" * 32, 0, "test", E)
    msg = decks.lock(ctx, X, mine)
    Y, bad = decks.verify_lock(ctx, E, X, msg)
    assert bad == [] and Y == [group.mul(mine.a(j)[0], x) for j, x in enumerate(X)]
    # k[j] is bound: e*Y[j] = k[j]*X[j]
    assert all(group.mul(mine.e, Y[j]) == group.mul(mine.key(j), X[j]) for j in range(6))
    assert decks.verify_lock(ctx, group.mul_base(mine.e + 1), X, msg)[1] == [-1]
    swapped = X[1:2] + X[:1] + X[2:]
    assert decks.verify_lock(ctx, E, swapped, msg)[1] != []
    kctx = decks.keys_context(b"g" * 16, b"b" * 32, 0, "test", [1, 4])
    keys = decks.prove_keys(kctx, mine, [1, 4], E, Y)
    want = [group.canonical(mine.key(1)), group.canonical(mine.key(4))]
    assert decks.verify_keys(kctx, keys, [1, 4], E, X, Y) == want
    assert decks.verify_keys(kctx, keys, [1, 3], E, X, Y) is None


def test_permutations_keep_segments() -> None:
    spec = decks.DeckSpec.player([f"g{i}" for i in range(5)], [f"b{i}" for i in range(7)])
    perms = [decks.derive_permutation(bytes([i]) * 32, spec) for i in range(50)]
    assert all(decks.permutation_ok(p, spec) for p in perms)
    assert len({tuple(p) for p in perms}) == 50
    assert not decks.permutation_ok(list(range(11, -1, -1)), spec)
    assert not decks.permutation_ok([0] * 12, spec)
    with pytest.raises(LocalProtocolError, match="deck names"):
        decks.DeckSpec.of("Bad Name", ["a"])
    with pytest.raises(LocalProtocolError, match="duplicate"):
        decks.DeckSpec.of("dup", ["a", "a"])


def test_the_simulators_group_keeps_the_algebra_the_proofs_rest_on() -> None:
    """Inside ``group.simulated()`` (the simulator's quick tables) every proof the
    protocol makes still holds when true and fails when false: products commute,
    sums are named up to sign, a key proof checks and a forged one does not."""
    with group.simulated():
        P, a, b = group.card_points("sim", ("x",))[0], scalar(), scalar()
        assert group.mul(a, group.mul(b, P)) == group.mul(b, group.mul(a, P)) == group.mul(a * b, P)
        Q = group.mul(a, P)
        assert group.is_sum(group.mul(1 + a, P), P, Q) and group.is_sum(group.mul(a - 1, P), P, Q)
        assert not group.is_sum(group.mul(a + 2, P), P, Q)
        assert group.is_valid_point(Q) and group.mul_base(a) == group.mul(a, group.BASE)
        E, Y = group.mul_base(a), [P, group.card_points("sim", ("y",))[0]]
        V = [group.mul(a, y) for y in Y]
        A, As, s = group.dleq_prove(b"ctx", a, E, Y, V, b"k" * 32)
        As = [As[i : i + 32] for i in range(0, len(As), 32)]
        assert group.dleq_verify(b"ctx", E, Y, V, A, As, s) == []
        assert group.dleq_verify(b"ctx", E, Y, [V[0], group.mul(b, Y[1])], A, As, s) != []
