"""Every shuffle is proven when it is published: a rigged shuffle is refused at
once, pinned on its author, and nothing is built on it."""

from __future__ import annotations

import random

import pytest
from ankh.net.fair import deck as decks
from ankh.net.fair import dice, group
from ankh.net.fair.deck import DeckSpec
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.play.ops import Challenge, LockDeck, ProveShuffle, ShuffleBy, ShuffleDeck
from ankh.net.files.verify import verify_transcript

from .nethelp import EVENTS, PERSONALITIES, Tamper, cheating_shuffler, decode, identity, resign, rigged_shadows, table


def _all_the_same(Z: list[bytes], E: bytes) -> list[bytes]:
    return [Z[0]] * len(Z)


def _removed(Z: list[bytes], E: bytes) -> list[bytes]:
    return [group.mul(2, Z[0])] + Z[1:]  # a point of the group that is no card


def _duplicated(Z: list[bytes], E: bytes) -> list[bytes]:
    return Z[:3] + [Z[5]] + Z[4:]


ATTACKS = {
    "personalities": ("personalities", PERSONALITIES, _all_the_same),
    "removed": ("events", EVENTS, _removed),
    "duplicated": ("events", EVENTS, _duplicated),
}


@pytest.mark.parametrize("cheat", [0, 1, 3], ids=["first", "middle", "last"])
@pytest.mark.parametrize("attack", list(ATTACKS))
def test_rigged_shuffle_is_refused_at_once_and_named(attack: str, cheat: int) -> None:
    name, cards, rig = ATTACKS[attack]
    t = table(4, seed=f"rig-{attack}-{cheat}".encode())
    cheating_shuffler(t, cheat, name, rig)
    watch = Tamper(t, cheat, "open", lambda f: f)  # records each seat's state before the proof arrives
    with pytest.raises(RemoteProtocolError) as info:
        t.setup([DeckSpec.of(name, cards)])
    exc = info.value
    assert exc.seat == cheat and exc.who == t.names[cheat], str(exc)
    assert "proof fails" in exc.message and name in exc.message
    reporter = exc.reporter  # type: ignore[attr-defined]
    assert reporter != cheat
    seat = t.seats[reporter]
    assert seat.ledger.digest() == watch.digests[reporter], "something was applied"
    d = seat.ledger.deck(name)
    assert len(d.shuffled) == cheat  # the honest shuffles before it, not the rigged one
    # nothing can be built on it: the table still waits for a valid proof from the cheater
    assert isinstance(seat.ledger.op, ProveShuffle) and seat.waiting_for() == (cheat,)
    # The cheater's own record of the game carries its signed proof: the offline
    # verifier refuses it at the same message and names the same seat.
    report = verify_transcript(t.transcript(cheat).to_bytes())
    assert not report.fair
    assert [(v.seat, v.name) for v in report.violations] == [(cheat, t.names[cheat])]
    assert "proof fails" in report.violations[0].message


def _statement(spec: DeckSpec, seed: bytes) -> tuple[decks.DeckSecrets, list[bytes], bytes, list[bytes], bytes]:
    secrets = decks.DeckSecrets(seed * 32, b"g" * 16, spec)
    X = list(spec.points())
    E, Z = decks.shuffle(X, secrets)
    return secrets, X, E, Z, decks.shuffle_context(b"g" * 16, 0, spec.name, E)


def test_honest_proof_passes_every_challenge() -> None:
    spec = DeckSpec.player([f"g{i}" for i in range(5)], [f"b{i}" for i in range(6)])
    secrets, X, E, Z, ctx = _statement(spec, b"h")
    commitments = decks.commit_shadows(ctx, X, Z, secrets, spec)
    rng = random.Random(5)
    for bits in ([0] * decks.SHADOWS, [1] * decks.SHADOWS, *([rng.randrange(2) for _ in range(40)] for _ in range(3))):
        f, perms = decks.open_shadows(ctx, X, Z, secrets, spec, bits)
        assert decks.verify_shadows(ctx, spec, X, Z, E, commitments, bits, f, perms) == []
    # the proof is about this output, this input and this E
    f, perms = decks.open_shadows(ctx, X, Z, secrets, spec, [1] * 40)
    assert decks.verify_shadows(ctx, spec, X, Z[1:] + Z[:1], E, commitments, [1] * 40, f, perms) != []
    assert decks.verify_shadows(ctx, spec, X, Z, group.mul(2, E), commitments, [1] * 40, f, perms) != []
    # a permutation that mixes the segments is not a shuffle of this deck
    mixed = list(range(11))
    mixed[0], mixed[10] = mixed[10], mixed[0]
    assert not decks.permutation_ok(mixed, spec)


@pytest.mark.parametrize("rig", ["substituted", "swapped across segments", "other scalar"])
def test_soundness_against_a_prover_cheating_on_one_position(rig: str) -> None:
    """The best cheater survives a challenge only if it guessed every bit of it."""
    spec = DeckSpec.player([f"g{i}" for i in range(5)], [f"b{i}" for i in range(6)])
    secrets, X, E, Z, ctx = _statement(spec, b"s")
    if rig == "substituted":
        bad = Z[:4] + [group.mul(3, Z[4])] + Z[5:]
    elif rig == "swapped across segments":
        bad = list(Z)
        bad[0], bad[10] = Z[10], Z[0]
    else:  # every card right, but under a scalar that is not E's
        bad = [group.mul(5, z) for z in Z]
    rng = random.Random(rig)
    guess = [rng.randrange(2) for _ in range(decks.SHADOWS)]
    commitments, openings = rigged_shadows(ctx, spec, X, bad, E, guess, b"one")
    f = b"".join(s for s, _ in openings)
    perms = b"".join(p for _, p in openings)
    # Only the guessed challenge lets it through...
    assert decks.verify_shadows(ctx, spec, X, bad, E, commitments, guess, f, perms) == []
    # ...and every single shadow catches it when its bit differs from the guess,
    for i in range(decks.SHADOWS):
        flipped = list(guess)
        flipped[i] ^= 1
        assert decks.verify_shadows(ctx, spec, X, bad, E, commitments, flipped, f, perms) == [i]
    # so a random challenge catches it but with probability 2**-40.
    for _ in range(50):
        bits = [rng.randrange(2) for _ in range(decks.SHADOWS)]
        assert decks.verify_shadows(ctx, spec, X, bad, E, commitments, bits, f, perms) != []


def test_challenge_comes_from_the_beacon_after_the_commitments() -> None:
    t = table(3, seed=b"beacon")
    t.setup([DeckSpec.of("personalities", PERSONALITIES)])
    ledger = t.ledger
    kinds = [type(op) for op in ledger.history[1:]]
    assert kinds == [ShuffleDeck, Challenge, ProveShuffle] + [ShuffleBy, Challenge, ProveShuffle] * 2 + [
        LockDeck,
        type(ledger.history[-1]),
    ]
    transcript = t.transcript()
    for index, op in enumerate(ledger.history):
        if isinstance(op, Challenge):
            # committed in the step before, by the seat that then opens, in the step after
            assert decode(transcript.ops[index - 1][0])["body"]["C"]
            values = [decode(f)["body"]["v"] for f in transcript.ops[index]]
            want = dice.bits(t.game_id, index, f"shuffle:personalities:{op.seat}", decks.SHADOWS, values)
            assert ledger.results[index] == want
            assert decode(transcript.ops[index + 1][0])["from"] == op.seat
    assert verify_transcript(transcript.to_bytes()).violations == ()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_honest_tables_prove_every_shuffle(players: int) -> None:
    t = table(players, seed=b"honest-%d" % players)
    t.setup([DeckSpec.of("personalities", PERSONALITIES), DeckSpec.of("events", EVENTS)])
    for s in t.seats:
        for d in s.ledger.decks.values():
            assert len(d.shuffled) == players and d.candidate is None and d.ready
    t.deal("personalities", 0)
    outcome = t.audit()
    assert outcome.fair
    report = verify_transcript(t.transcript().to_bytes())
    assert report.fair and report.audited


def _twin_first(blob: bytes) -> bytes:
    return (group.L - int.from_bytes(blob[:32], "little")).to_bytes(32, "little") + blob[32:]


MANGLE = {
    "short permutations": lambda b: b.__setitem__("perms", b["perms"][:-1]),
    "not a permutation": lambda b: b.__setitem__("perms", b["perms"][:1] * 7 + b["perms"][7:]),
    "zero scalar": lambda b: b.__setitem__("f", bytes(32) + b["f"][32:]),
    "twin scalar": lambda b: b.__setitem__("f", _twin_first(b["f"])),
    "openings swapped": lambda b: b.__setitem__("f", b["f"][32:64] + b["f"][:32] + b["f"][64:]),
}


@pytest.mark.parametrize("mangle", list(MANGLE))
def test_malformed_openings_are_refused_and_pinned_on_the_shuffler(mangle: str) -> None:
    t = table(3, seed=b"mangle-" + mangle.encode())
    tamper = Tamper(t, 1, "open", lambda f: resign(f, identity(t, 1), MANGLE[mangle]))
    with pytest.raises(RemoteProtocolError) as info:
        t.setup([DeckSpec.of("personalities", PERSONALITIES)])
    assert info.value.seat == 1 and "proof fails" in info.value.message
    reporter = info.value.reporter  # type: ignore[attr-defined]
    assert t.seats[reporter].ledger.digest() == tamper.digests[reporter]
    # the genuine proof is still welcome: nothing of the bad one stuck
    t.seats[reporter].receive(tamper.target, via=1)
    assert len(t.seats[reporter].ledger.deck("personalities").shuffled) == 2
