"""Attacks on the simulator's quick group, the seal's X25519 through the group and
the answers ``illegal_move`` keeps, and on the verdict only the host can give (a log
hash that is not the hash of the log it sent) (review 4).  An attack that fails is kept as a
regression test; one that succeeds is written as the code should behave."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from ankh.net.fair import deck as decks
from ankh.net.fair import group, seal
from ankh.net.play import peer as peers_mod
from ankh.net.fair.deck import DeckSpec
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.io import sim
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from tests import tinygame

from . import simcheats
from .nethelp import swap_scalar
from .star import Star, star_peers
from .test_peer import bots

tinygame.install()
sim.register_game("tiny=tests.tinygame")

P = 2**255 - 19
ORDER8 = (325606250916557431795983626356110631294008115727848805560023387167927233504,
          39382357235489614581723060781553021112529911719440698176882885853963445705823)


def _rfc7748(private: bytes, public: bytes) -> bytes | None:
    """X25519 as the seal computed it before (OpenSSL through ``cryptography``); None: refused."""
    try:
        return X25519PrivateKey.from_private_bytes(private).exchange(X25519PublicKey.from_public_bytes(public))
    except ValueError:
        return None


def _seal(private: bytes, public: bytes) -> bytes | None:
    try:
        return seal._exchange(private, public)
    except RemoteProtocolError:
        return None


def test_the_seals_x25519_is_the_old_one_for_every_key_a_peer_can_send() -> None:
    """libsodium's ladder agrees with the old X25519 byte for byte, refusals included:
    the points of small order (canonical or not, high bit set or not), the encodings
    of p and above, the high bit set on an ordinary point, and random keys."""
    rng = random.Random(7)
    us = [0, 1, *ORDER8, P - 1, P, P + 1, *(P + k for k in range(2, 19)), 2**255 - 1, 9]
    us += [u | 2**255 for u in list(us) if u < 2**255] + [u + P for u in ORDER8]
    us += [rng.getrandbits(256) for _ in range(64)]
    for u in us:
        public = u.to_bytes(32, "little")
        for _ in range(2):
            private = rng.randbytes(32)
            assert _seal(private, public) == _rfc7748(private, public), hex(u)
    for _ in range(32):
        private = rng.randbytes(32)
        old = X25519PrivateKey.from_private_bytes(private).public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        assert seal.box_public(private) == old


@pytest.mark.parametrize("size", [0, 1, 16, 31, 33, 64])
def test_the_seal_refuses_a_key_of_the_wrong_length(size: int) -> None:
    """The old X25519 refused a key that is not 32 bytes; libsodium through PyNaCl
    reads 32 bytes wherever the buffer ends (a short key is completed with whatever
    memory follows it: one 1-byte key gave dozens of different shared secrets).  Every
    key off the wire is checked for 32 bytes first, so no peer reaches it, but the
    seal and the group must refuse it themselves, as they did."""
    key = bytes(range(1, size + 1))
    with pytest.raises(RemoteProtocolError):
        seal._exchange(b"\x11" * 32, key)
    with pytest.raises(group.GroupError):
        group.mul_n(b"\x11" * 32, key)
    with pytest.raises((group.GroupError, ValueError)):
        seal.box_public(key)


def _sim_proof() -> tuple:
    spec = DeckSpec.player([f"g{i}" for i in range(3)], [f"b{i}" for i in range(4)])
    secrets = decks.DeckSecrets(b"q" * 32, b"g" * 16, spec)
    X = list(spec.points())
    E, Z = decks.shuffle(X, secrets)
    ctx = decks.shuffle_context(b"g" * 16, 0, spec.name, E)
    commitments = decks.commit_shadows(ctx, X, Z, secrets, spec)
    bits = [random.Random(3).randrange(2) for _ in range(decks.SHADOWS)]
    f, perms = decks.open_shadows(ctx, X, Z, secrets, spec, bits)
    return ctx, spec, X, Z, E, commitments, bits, f, perms


def test_a_proof_checked_in_the_quick_group_is_checked_again_on_the_curve() -> None:
    """A shuffle proof's answer is kept under the digest of its bytes, not of the
    group it was checked in.  In the simulator's group anyone forges any proof (a
    discrete logarithm is a division); a process that checked one there answers
    "proven" for the same bytes on the curve, unchecked.  On the curve those bytes
    prove nothing and must be refused."""
    with group.simulated():
        proof = _sim_proof()
        assert decks.verify_shadows(*proof) == []
    assert decks.verify_shadows(*proof) != []


def test_the_quick_group_ends_with_overlapping_tables_in_two_threads() -> None:
    """``group.simulated()`` swaps a process-wide global and puts back what it found.
    Two quick tables in two threads of one process that end in the other order than
    they began leave the whole process in the group that hides nothing: every table
    and every ``ankh verify`` after them.  Once both have ended the curve must be back."""
    n, before = bytes(range(32)), group._arithmetic
    curve = group.mul_base_n(n)
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()

    def quick_table(after: threading.Event | None, inside: threading.Event, until: threading.Event,
                    out: threading.Event | None) -> None:
        if after is not None:
            after.wait(10)
        try:
            with group.simulated():
                inside.set()
                until.wait(10)
        except RuntimeError:
            pass  # refused: a quick table is already under way in this process
        finally:
            inside.set()
            if out is not None:
                out.set()

    threads = [threading.Thread(target=quick_table, args=(None, first_in, second_in, first_out)),
               threading.Thread(target=quick_table, args=(first_in, second_in, first_out, None))]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert group.mul_base_n(n) == curve, "the process is left in the simulator's group"
    finally:
        group._arithmetic = before


@pytest.fixture(scope="module")
def honest_log():
    peers = star_peers(3, seed=b"review4")
    Star(peers).play(bots(3, 7))
    L = peers[0].protocol.ledger
    frames = [f for _, fs in L.log for f in fs]
    cards = {name: dict(enumerate(order)) for name, order in L.audit.decks.items()}
    return L.roster, frames, cards


def _rigged(cards: dict, deck: str, seed: int) -> dict:
    positions, names = list(cards[deck]), list(cards[deck].values())
    random.Random(seed).shuffle(names)
    return {**cards, deck: dict(zip(positions, names, strict=True))}


def _answer(exc: RemoteProtocolError | None) -> tuple | None:
    return None if exc is None else (type(exc), exc.seat, exc.who, exc.message, exc.evidence, str(exc))


def test_the_answer_illegal_move_keeps_is_the_answer_it_would_find(honest_log) -> None:
    """``illegal_move`` keeps its answer under a digest of its inputs.  The inputs are
    reprs of a frozen roster, strings, ints and length-prefixed frames, joined by a
    byte no repr holds: no two inputs share a key by construction.  The answer kept
    is a copy: a caller that changes the exception it got (its seat, its label)
    changes nothing the next caller gets; and each change of an input (a card, the
    words, a frame) is replayed afresh."""
    roster, frames, cards = honest_log
    peers_mod._REPLAYED.clear()
    rigged = _rigged(cards, "personality", 1)
    first = peers_mod.illegal_move(roster, frames, rigged, "rigged")
    assert first is not None and first.seat is not None
    fresh = _answer(first)
    first.seat, first.who, first.message, first.label = 0, "someone else", "changed", "label"
    again = peers_mod.illegal_move(roster, iter(frames), rigged, "rigged")
    assert again is not first and _answer(again) == fresh
    again.blamed(None).message = "changed again"
    assert _answer(peers_mod.illegal_move(roster, frames, rigged, "rigged")) == fresh
    # every input is in the key: the honest cards, other words, a shorter log
    assert peers_mod.illegal_move(roster, frames, cards, "rigged") is None
    other = peers_mod.illegal_move(roster, frames, rigged, "other words")
    assert other is not None and "other words" in other.message and other.seat == fresh[1]
    assert peers_mod.illegal_move(roster, frames[:1], rigged, "rigged") is None
    # the kept answers are those found afresh
    peers_mod._REPLAYED.clear()
    assert _answer(peers_mod.illegal_move(roster, frames, rigged, "rigged")) == fresh


# -- a cheat that signs its cheat over a log hash that is not the log's ---------------------


def _over_a_bogus_log_hash(kind: str, cheat: Callable[[dict[str, Any]], None]):
    def mutate(body: dict[str, Any]) -> None:
        cheat(body)
        body["basis"] = bytes(32)
    return simcheats.resigning(kind, mutate, 2)


BOGUS = {
    "illegal move": ("move", lambda body: body.__setitem__("move", ["pay", 99])),
    "wrong key": ("keys", lambda body: body.__setitem__("k", swap_scalar(body["k"], 0, 12345))),
}


@pytest.mark.parametrize("seed", [1, 3])
@pytest.mark.parametrize("cheat", list(BOGUS))
def test_a_cheat_signed_over_a_bogus_log_hash_is_named_by_the_host_and_no_honest_seat_by_anyone(
        cheat: str, seed: int) -> None:
    """A frame's log hash is checked before anything else in it, so a seat that signs a
    wrong key or an illegal move over a log hash that is not the log's chooses the
    verdict only the host can give: the host names it (``Result.alone``), and the
    other seat and the spectator, to whom the frame proves nothing (the host could
    have told the signer another story, under which the move was legal), say whom
    the game waited for.  The cheat gains nothing (the table ends) and is named by
    the host; nobody names an honest seat, and the simulator's check says so."""
    faults, _ = sim.draw(seed)
    table = sim.play(seed, "tiny", faults, cheat=_over_a_bogus_log_hash(*BOGUS[cheat]), quick=True)
    assert table.problems == []
    host = table.results["host"]
    assert host.alone and "(seat2) broke the rules: signed a log hash" in host.text
    for name, result in table.results.items():
        if name in table.honest or name.startswith("watch"):
            assert result is None or not any(f"({h})" in result.text for h in table.honest), (name, result.text)
            if name != "host" and result is not None:
                assert result.partial or "(seat2) broke the rules" in result.text, (name, result.text)


@pytest.mark.parametrize("seed", [1, 2])
def test_an_audit_disclosure_signed_over_a_bogus_log_hash_then_silence_is_named_by_the_host_alone(seed: int) -> None:
    """At the end-of-game audit a seat that withholds its disclosure forfeits.  A loser
    (or a seat whose hidden lie the audit would show) may send its disclosure signed
    over a bogus log hash instead: the host ends the table at once on its word alone,
    and names it.  The other seat does not end on that word: it keeps its own wait, but
    the cheat's program ends there and its direct link goes silent, which the other
    seat cannot tell from an honest seat's link gone dark (docs/fairness.md, "At the
    audit"): it names nobody and says whom the game waited for.  (One that keeps
    talking on its link is named: ``test_audit_alone``.)"""
    bogus = simcheats.resigning("audit", lambda body: body.__setitem__("basis", bytes(32)), 1)
    table = sim.play(seed, "tiny", cheat=bogus, quick=True)
    assert table.problems == []
    host, seat1 = table.results["host"], table.results["seat1"]
    assert host.alone and "(seat2) broke the rules" in host.text
    assert seat1.partial and not seat1.forfeit and "waited for green" in seat1.text, seat1.text
