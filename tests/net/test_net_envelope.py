"""Envelopes: identity, signing context, strict bounded decoding, sequence numbers."""

from __future__ import annotations

import re

import msgpack
import pytest
from ankh.net.wire.envelope import (
    HEADER_LEN,
    MAX_FRAME,
    Identity,
    KeyRing,
    SeqTracker,
    context,
    fingerprint,
    open_frame,
    pack,
    seal,
    unpack_strict,
)
from ankh.net.wire.errors import LocalProtocolError, RemoteProtocolError
from ankh.net.wire.schema import Bin, Int, List, Map, Str

GAME = b"G" * 16
OTHER = b"H" * 16
ALICE = Identity.from_seed(b"a" * 32)
BOB = Identity.from_seed(b"b" * 32)
KEYS = KeyRing([ALICE.public_key, BOB.public_key])
KINDS = {
    "note": Map({"text": Str(64), "n": Int(0, 1000)}, optional={"blob": Bin(max_len=4096), "xs": List(Int(0, 9), 8)})
}


def test_identity_and_fingerprint() -> None:
    assert Identity.from_seed(ALICE.seed).public_key == ALICE.public_key
    assert re.fullmatch(r"[a-z2-7]{4}(-[a-z2-7]{4}){3}", ALICE.fingerprint)
    assert ALICE.fingerprint == fingerprint(ALICE.public_key) != BOB.fingerprint
    assert len(Identity.generate().public_key) == 32
    with pytest.raises(LocalProtocolError):
        Identity.from_seed(b"short")


def test_round_trip() -> None:
    frame = seal(BOB, 1, GAME, 7, "note", {"text": "hi", "n": 3, "xs": [1, 2]})
    env = open_frame(frame, game_id=GAME, keys=KEYS, kinds=KINDS)
    assert (env.sender, env.seq, env.kind, env.body) == (1, 7, "note", {"text": "hi", "n": 3, "xs": [1, 2]})
    assert env.frame == frame and len(env.digest) == 32


def test_signature_is_bound_to_protocol_version_and_game() -> None:
    assert context(GAME) == b"ankh/v1/" + GAME
    frame = seal(BOB, 1, OTHER, 0, "note", {"text": "hi", "n": 1})
    with pytest.raises(RemoteProtocolError) as info:
        open_frame(frame, game_id=GAME, keys=KEYS, kinds=KINDS)
    assert info.value.seat is None and "signature" in info.value.message


def test_a_signature_found_good_once_is_good_for_those_bytes_only() -> None:
    # (signatures found good are remembered: a frame that comes again is not checked again)
    frame = seal(BOB, 1, GAME, 8, "note", {"text": "hi", "n": 3})
    assert open_frame(frame, game_id=GAME, keys=KEYS, kinds=KINDS).seq == 8
    assert open_frame(frame, game_id=GAME, keys=KEYS, kinds=KINDS).seq == 8
    altered = frame.replace(b"hi", b"ho")
    assert altered != frame
    with pytest.raises(RemoteProtocolError) as info:
        open_frame(altered, game_id=GAME, keys=KEYS, kinds=KINDS)
    assert "signature" in info.value.message
    # the same bytes under another key: the other signer did not sign them
    with pytest.raises(RemoteProtocolError):
        open_frame(frame, game_id=GAME, keys=KeyRing([ALICE.public_key, ALICE.public_key]), kinds=KINDS)


def test_sender_must_be_the_signer() -> None:
    payload = pack({"game": GAME, "seq": 0, "from": 0, "kind": "note", "body": {"text": "x", "n": 1}})
    frame = bytes([1]) + BOB.sign(context(GAME) + payload) + payload
    with pytest.raises(RemoteProtocolError) as info:
        open_frame(frame, game_id=GAME, keys=KEYS, kinds=KINDS)
    assert info.value.seat == 1


def _signed(obj: object, raw: bytes | None = None) -> bytes:
    payload = raw if raw is not None else pack(obj)
    return bytes([1]) + BOB.sign(context(GAME) + payload) + payload


@pytest.mark.parametrize(
    "payload, why",
    [
        ({"game": GAME, "seq": 0, "from": 1, "kind": "nope", "body": {}}, "unknown message kind"),
        ({"game": GAME, "seq": 0, "from": 1, "kind": "note", "body": {"text": "x"}}, "missing field"),
        ({"game": GAME, "seq": 0, "from": 1, "kind": "note", "body": {"text": "x", "n": 1, "z": 1}}, "unexpected"),
        ({"game": GAME, "seq": 0, "from": 1, "kind": "note", "body": {"text": "x", "n": True}}, "integer"),
        ({"game": GAME, "seq": 0, "from": 1, "kind": "note", "body": {"text": "x", "n": 1.5}}, "integer"),
        ({"game": GAME, "seq": 0, "from": 1, "kind": "note", "body": {"text": "x", "n": 1001}}, "not in"),
        ({"game": GAME, "seq": -1, "from": 1, "kind": "note", "body": {"text": "x", "n": 1}}, "sequence"),
        ({"game": OTHER, "seq": 0, "from": 1, "kind": "note", "body": {"text": "x", "n": 1}}, "another game"),
        ({"game": GAME, "seq": 0, "from": 1, "kind": "note"}, "envelope fields"),
        ([GAME, 0, 1, "note", {}], "envelope fields"),
    ],
)
def test_bad_fields_are_the_signers_fault(payload: object, why: str) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        open_frame(_signed(payload), game_id=GAME, keys=KEYS, kinds=KINDS)
    assert info.value.seat == 1
    assert why in info.value.message


def test_non_canonical_encoding_is_rejected() -> None:
    body = {"n": 1, "text": "x"}
    unsorted = msgpack.packb({"seq": 0, "game": GAME, "from": 1, "kind": "note", "body": body}, use_bin_type=True)
    with pytest.raises(RemoteProtocolError) as info:
        open_frame(_signed(None, unsorted), game_id=GAME, keys=KEYS, kinds=KINDS)
    assert "canonical" in info.value.message
    canonical = pack({"seq": 0, "game": GAME, "from": 1, "kind": "note", "body": body})
    assert open_frame(_signed(None, canonical), game_id=GAME, keys=KEYS, kinds=KINDS).body == body


def test_bytes_found_to_hold_are_remembered_for_what_they_were_checked_for_only() -> None:
    # (bytes that come again are not checked again: only the same bytes, for the same limits)
    nested = pack([[[[1]]]])
    assert unpack_strict(nested) == unpack_strict(nested) == [[[[1]]]]
    got = unpack_strict(nested)
    got[0].append(2)  # (each decoding is the caller's own)
    assert unpack_strict(nested) == [[[[1]]]]
    with pytest.raises(RemoteProtocolError, match="nested too deeply"):
        unpack_strict(nested, max_depth=3)
    loose = msgpack.packb({"b": 1, "a": 2})
    assert unpack_strict(loose, canonical=False) == {"a": 2, "b": 1}
    with pytest.raises(RemoteProtocolError, match="canonical"):
        unpack_strict(loose)


@pytest.mark.parametrize(
    "data, why",
    [
        (msgpack.packb("x" * 65), "max_str_len"),
        (msgpack.packb(b"x" * 20000), "max_bin_len"),
        (msgpack.packb(list(range(300))), "max_array_len"),
        (msgpack.packb({str(i): i for i in range(40)}), "max_map_len"),
        (msgpack.packb([[[[[[[1]]]]]]]), "nested too deeply"),
        (msgpack.packb({1: 2}), "not allowed for map key"),
        (msgpack.packb(1) + b"\x01", "trailing data"),
        (msgpack.packb(1) + b"\x92", "trailing data"),  # an incomplete second object
        (msgpack.packb(msgpack.ExtType(5, b"abc")), "max_ext_len"),
        (b"\xc1", "malformed message"),  # a reserved byte
        (b"\x92\x01", "No more data"),  # truncated
        (msgpack.packb("caf\u00e9".encode("latin-1"), use_bin_type=False), "decode"),  # not UTF-8
    ],
)
def test_decoding_limits(data: bytes, why: str) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        unpack_strict(data)
    assert info.value.message.startswith("malformed message")
    assert why in info.value.message


def test_frame_size_cap_and_truncation() -> None:
    with pytest.raises(LocalProtocolError):
        seal(BOB, 1, GAME, 0, "note", {"text": "x", "n": 1, "blob": b"x" * MAX_FRAME})
    for bad in (b"", b"\x01" * HEADER_LEN, b"\x01" * (MAX_FRAME + 1), bytes([9]) + b"\x00" * 80):
        with pytest.raises(RemoteProtocolError) as info:
            open_frame(bad, game_id=GAME, keys=KEYS, kinds=KINDS)
        assert info.value.seat is None


def test_sequence_numbers_count_up_without_gaps() -> None:
    seqs = SeqTracker(2)
    seqs.check(1, 0)
    seqs.advance(1)
    with pytest.raises(RemoteProtocolError, match="replayed"):
        seqs.check(1, 0)
    with pytest.raises(RemoteProtocolError, match="out-of-order"):
        seqs.check(1, 2)
    seqs.check(1, 1)
    assert seqs.snapshot() == (0, 1)
