"""Property tests (seeded loops): encodings round-trip, and random, mutated or
truncated input never raises anything but RemoteProtocolError -- even when it
carries a valid signature -- and is never applied."""

from __future__ import annotations

import copy
import random
from typing import Any

import msgpack
import pytest
from ankh.net.wire.envelope import Identity, KeyRing, context, open_frame, pack, seal, unpack_strict
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.play.ledger import BODIES
from ankh.net.play.ops import Deal, Show
from ankh.net.play.seat import SeatProtocol
from ankh.net.files.secrets import SeatSecrets
from ankh.net.files.transcript import Transcript
from ankh.net.files.verify import verify_transcript

from .nethelp import decode, small_decks, table

GAME = b"F" * 16
ANY = {"note": lambda v, path: v}


def random_value(rng: random.Random, depth: int = 0, floats: bool = True) -> Any:
    choice = rng.randrange(9 if depth < 3 else 6)
    if choice == 0:
        return rng.randrange(-(2**63), 2**64)
    if choice == 1:
        return rng.randrange(0, 300)
    if choice == 2:
        return rng.randbytes(rng.choice([0, 1, 31, 32, 33, 64, rng.randrange(200)]))
    if choice == 3:
        return "".join(rng.choice("abcdefé ✓-/") for _ in range(rng.randrange(20)))
    if choice == 4:
        return rng.choice([True, False])
    if choice == 5:
        return rng.choice([None, 1.5, float("inf")]) if floats else None
    if choice in (6, 7):
        return [random_value(rng, depth + 1, floats) for _ in range(rng.randrange(5))]
    return {f"k{rng.randrange(8)}": random_value(rng, depth + 1, floats) for _ in range(rng.randrange(5))}


def test_encoding_round_trips() -> None:
    rng = random.Random(1)
    me = Identity.from_seed(b"f" * 32)
    keys = KeyRing([me.public_key])
    decoded = 0
    for seq in range(300):
        body = {f"f{i}": random_value(rng, floats=False) for i in range(rng.randrange(6))}
        frame = seal(me, 0, GAME, seq, "note", body)
        try:
            env = open_frame(frame, game_id=GAME, keys=keys, kinds=ANY)
        except RemoteProtocolError as exc:
            # only when a decoding limit is exceeded (nesting, an over-long string...)
            assert exc.message.startswith("malformed message") and exc.seat == 0
            continue
        assert env.body == body and env.seq == seq
        assert unpack_strict(pack(env.body)) == body
        decoded += 1
    assert decoded > 200


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    op = rng.randrange(5)
    if op == 0 and data:
        i = rng.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]
    if op == 1:
        return data[: rng.randrange(len(data) + 1)]
    if op == 2:
        return data + rng.randbytes(rng.randrange(1, 40))
    if op == 3 and data:
        i = rng.randrange(len(data))
        return data[:i] + rng.randbytes(rng.randrange(1, 10)) + data[i:]
    return rng.randbytes(rng.randrange(300))


@pytest.fixture(scope="module")
def game() -> tuple:
    t = table(3, seed=b"fuzz", decks=small_decks())
    t.deal("player", 2)
    t.pass_cards("player", [0], 1)
    t.roll("fuzz")
    return t, t.transcript()


def test_random_and_damaged_frames(game: tuple) -> None:
    t, transcript = game
    rng = random.Random(2)
    frames = transcript.frames()
    for _ in range(1500):
        original = rng.choice(frames)
        data = mutate_bytes(rng, original)
        if data == original:
            continue
        with pytest.raises(RemoteProtocolError):
            open_frame(data, game_id=t.game_id, keys=t.ledger.keyring, kinds=BODIES)
    for _ in range(150):
        original = rng.choice(frames)
        data = mutate_bytes(rng, original)
        if data == original:
            continue
        fresh = SeatProtocol(t.roster, t.seats[0].secrets)
        with pytest.raises(RemoteProtocolError):
            fresh.receive(data, via=rng.randrange(1, 3))
    for bad in (b"", rng.randbytes(50), pack({"magic": "ankh-seat-secrets"})):
        with pytest.raises(RemoteProtocolError):
            SeatSecrets.from_bytes(bad)
        with pytest.raises(RemoteProtocolError):
            Transcript.from_bytes(bad)


def paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += paths(v, prefix + (i,))
    return out


def mutate_structure(rng: random.Random, payload: dict) -> dict:
    payload = copy.deepcopy(payload)
    path = rng.choice(paths(payload)[1:])
    parent = payload
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    action = rng.randrange(4)
    if action == 0 and isinstance(parent, dict):
        del parent[last]
    elif action == 1 and isinstance(parent, dict):
        parent[f"extra{rng.randrange(3)}"] = random_value(rng)
    elif action == 2 and isinstance(parent[last], bytes) and parent[last]:
        b = bytearray(parent[last])
        b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        parent[last] = bytes(b)
    else:
        parent[last] = random_value(rng)
    return payload


def resigned(t, payload: dict, canonical: bool) -> bytes:
    sender = payload.get("from") if isinstance(payload.get("from"), int) and 0 <= payload["from"] < 3 else 1
    data = pack(payload) if canonical else msgpack.packb(payload, use_bin_type=True)
    me = t.seats[sender].secrets.identity
    return bytes([sender]) + me.sign(context(t.game_id) + data) + data


@pytest.mark.parametrize("step", ["keys", "sealed"])
def test_signed_but_malformed_messages_are_refused_and_not_applied(step: str) -> None:
    # Seat 0 is waiting for seat 1's part of a step; seat 1 (validly signing)
    # sends it mangled in every way we can think of.
    t = table(3, seed=b"fuzz-" + step.encode(), decks=small_decks())
    if step == "keys":
        op = Deal("player", 0, (0,))
    else:
        t.deal("player", 1)
        op = Show("player", (0,), 0)
    for s in t.seats:
        s.request(op)
    genuine = next(f for f in t.seats[1].data_to_send() if decode(f)["kind"] == step)
    victim = t.seats[0]
    history = [decode(f) for f in t.transcript().frames() if f[0] == 1]
    before = victim.ledger.digest(), victim._seq_in.snapshot()
    seqs = copy.deepcopy(victim._seq_in)
    rng = random.Random(3)
    original = decode(genuine)
    refused = 0
    for i in range(300):
        base = original if i % 4 else rng.choice(history)
        payload = mutate_structure(rng, base)
        if i % 5 == 0:
            payload["seq"] = original["seq"]
        frame = resigned(t, payload, canonical=i % 7 != 0)
        if frame == genuine:
            continue
        try:
            victim.receive(frame, via=1)
        except RemoteProtocolError:
            refused += 1
        else:
            # The only thing a well-formed but mangled message can achieve is to
            # wait in the buffer for a later step (where it will be checked).
            held = [e for e in victim._buffer if e.frame == frame]
            assert held and held[0].body["op"]["i"] > victim.ledger.index, f"accepted: {payload!r}"
            victim._buffer.clear()
            victim._seq_in = copy.deepcopy(seqs)
        assert (victim.ledger.digest(), victim._seq_in.snapshot()) == before
    assert refused > 250
    victim.receive(genuine, via=1)  # and the genuine part is still welcome


def test_verifier_never_raises_on_damaged_transcripts(game: tuple) -> None:
    t, transcript = game
    rng = random.Random(4)
    good = transcript.to_bytes()
    assert verify_transcript(good).status == "incomplete"  # clean, but not audited yet
    for i in range(40):
        if i % 2:
            data = mutate_bytes(rng, good)
        else:
            ops = [list(op) for op in transcript.ops]
            j = rng.randrange(len(ops))
            k = rng.randrange(len(ops[j]))
            payload = mutate_structure(rng, decode(ops[j][k]))
            ops[j][k] = resigned(t, payload, canonical=True)
            data = Transcript(t.roster, ops).to_bytes()
        report = verify_transcript(data)  # never raises
        assert not report.fair and report.status == ("violation" if report.violations else "incomplete")
        assert all(v.seat in (None, 0, 1, 2) for v in report.violations)
        assert all(v.name == (None if v.seat is None else t.names[v.seat]) for v in report.violations)
