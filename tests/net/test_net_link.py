"""The sans-I/O link: Noise_XX handshake bound to Ed25519 identities, framing, limits,
and what happens to bytes that were truncated, garbled, injected or replayed."""
from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from ankh.net.wire import link as L
from ankh.net.wire.envelope import Identity
from ankh.net.wire.link import Link, LinkClosed, LinkError, LinkUp, Message

PROLOGUE = b"ankh/1 table=0123456789abcdef"
ALICE = Identity.from_seed(b"A" * 32)
BOB = Identity.from_seed(b"B" * 32)


def pair(**kw):
    return Link(True, ALICE, PROLOGUE, **kw), Link(False, BOB, PROLOGUE)


def pump(a: Link, b: Link) -> tuple[list, list]:
    """Carry bytes both ways until neither has anything to say; events of a and of b."""
    ea, eb = [], []
    while True:
        x, y = a.data_to_send(), b.data_to_send()
        if not x and not y:
            return ea, eb
        if x:
            eb += b.receive_data(x)
        if y:
            ea += a.receive_data(y)


def connected():
    a, b = pair()
    ea, eb = pump(a, b)
    assert ea == [LinkUp(BOB.public_key, a.handshake_hash)]
    assert eb == [LinkUp(ALICE.public_key, b.handshake_hash)]
    return a, b


def closed_reason(events) -> str:
    closes = [e for e in events if isinstance(e, LinkClosed)]
    assert len(closes) == 1 and events[-1] is closes[0], events
    return closes[0].reason


def records(data: bytes) -> list[bytes]:
    """Split wire bytes into whole length-prefixed records (prefix included)."""
    out, i = [], 0
    while i < len(data):
        (n,) = struct.unpack_from(">H", data, i)
        out.append(data[i:i + 2 + n])
        i += 2 + n
    return out


def forged(sender: Link, kind: int, body: bytes) -> bytes:
    """A record encrypted with ``sender``'s keys as its first transport record."""
    cipher = sender._noise.noise_protocol.cipher_state_encrypt
    cipher.n = 0
    record = sender._noise.encrypt(bytes([kind]) + body)
    return struct.pack(">H", len(record)) + record


def test_handshake_authenticates_both_sides_and_carries_messages_both_ways():
    a, b = connected()
    assert a.up and b.up
    assert a.peer_key == BOB.public_key and b.peer_key == ALICE.public_key
    assert a.handshake_hash == b.handshake_hash and len(a.handshake_hash) == 32
    a.send(b"from alice")
    b.send(b"from bob")
    b.send(b"")
    ea, eb = pump(a, b)
    assert eb == [Message(b"from alice")]
    assert ea == [Message(b"from bob"), Message(b"")]


def test_messages_sent_before_the_peer_is_authenticated_wait_for_it():
    a, b = pair()
    a.send(b"early")
    first = a.data_to_send()
    assert b"early" not in first
    eb = b.receive_data(first)
    assert eb == []
    a.receive_data(b.data_to_send())
    third = a.data_to_send()
    assert b"early" not in third
    assert b.receive_data(third) == [LinkUp(ALICE.public_key, b.handshake_hash)]
    # Only once Bob has proved who he is does Alice's message leave, encrypted.
    assert a.receive_data(b.data_to_send()) == [LinkUp(BOB.public_key, a.handshake_hash)]
    fourth = a.data_to_send()
    assert b"early" not in fourth
    assert b.receive_data(fourth) == [Message(b"early")]


def test_a_responder_makes_no_key_until_its_peer_speaks(monkeypatch):
    """A connection that never sends a byte (a flood at a host's door) costs
    the host no cryptography: the responder's Noise state, and its fresh
    key, are made on the peer's first record."""
    made = []
    generate = L.X25519PrivateKey.generate

    class Counting:
        @staticmethod
        def generate():
            made.append(1)
            return generate()

    monkeypatch.setattr(L, "X25519PrivateKey", Counting)
    silent = Link(False, Identity.generate(), b"p")
    assert silent.data_to_send() == b"" and made == []
    assert closed_reason(silent.receive_data(b"")) == "connection closed during the handshake"
    assert made == []
    a, b = pair()
    assert len(made) == 1                  # the initiator's, for its first message
    ea, eb = pump(a, b)
    assert len(made) == 2 and any(isinstance(e, LinkUp) for e in ea) and any(isinstance(e, LinkUp) for e in eb)


def test_the_handshake_hash_differs_for_every_link():
    a1, b1 = connected()
    a2, b2 = connected()
    assert a1.handshake_hash != a2.handshake_hash


def test_the_same_key_is_expected_and_another_is_refused():
    a, b = pair(expected_peer=BOB.public_key)
    ea, _ = pump(a, b)
    assert isinstance(ea[0], LinkUp)
    a, b = pair(expected_peer=Identity.from_seed(b"C" * 32).public_key)
    ea, eb = pump(a, b)
    assert "not the expected" in closed_reason(ea)
    assert "not the expected" in closed_reason(eb)  # told by a CLOSE record
    assert not a.up


def test_a_wrong_prologue_fails_the_handshake():
    a = Link(True, ALICE, PROLOGUE)
    b = Link(False, BOB, b"ankh/1 table=another-table-id")
    ea, eb = pump(a, b)
    assert "handshake failed" in closed_reason(ea)
    assert not a.up and not b.up
    assert all(not isinstance(e, LinkUp) for e in ea + eb)


class Impostor(Identity):
    """Claims someone else's public key but signs with its own secret."""

    def __init__(self, real: Identity, claimed: bytes):
        super().__init__(real._key)
        self.public_key = claimed


def test_a_peer_signing_with_another_key_than_it_claims_is_refused():
    mallory = Impostor(Identity.from_seed(b"M" * 32), claimed=BOB.public_key)
    a, b = Link(True, ALICE, PROLOGUE), Link(False, mallory, PROLOGUE)
    ea, eb = pump(a, b)
    assert "signature is not by the key it claims" in closed_reason(ea)
    assert a.peer_key is None and not a.up
    assert not any(isinstance(e, LinkUp) for e in ea)


def test_a_proof_reflected_back_is_refused():
    """A man in the middle that echoes our own identity proof cannot pass for us."""
    a, b = pair()
    b.receive_data(a.data_to_send())
    a.receive_data(b.data_to_send())
    # a's own proof, encrypted with b's keys as if b had sent it.
    body = ALICE.public_key + ALICE.sign(L.AUTH_DOMAIN + b"I" + a.handshake_hash)
    eb = b.receive_data(a.data_to_send())  # b is up with Alice
    assert isinstance(eb[0], LinkUp)
    ea = a.receive_data(forged(b, L.AUTH, body))
    assert "signature" in closed_reason(ea)


def test_messages_up_to_the_limit_are_split_and_reassembled():
    a, b = connected()
    big = bytes(range(256)) * (L.MAX_MESSAGE // 256)
    assert len(big) == L.MAX_MESSAGE
    a.send(big)
    wire = a.data_to_send()
    pieces = records(wire)
    assert len(pieces) == -(-len(big) // L.MAX_PIECE)
    assert all(len(p) <= 2 + L.MAX_NOISE for p in pieces)
    assert b.receive_data(wire) == [Message(big)]


def test_sending_over_the_limit_or_on_a_closed_link_is_the_callers_error():
    a, b = connected()
    with pytest.raises(LinkError, match="limit"):
        a.send(b"x" * (L.MAX_MESSAGE + 1))
    a.close("bye")
    with pytest.raises(LinkError, match="closed"):
        a.send(b"x")
    assert closed_reason(b.receive_data(a.data_to_send())) == "the peer closed the link: bye"


def test_a_peer_sending_over_the_limit_is_cut_off():
    a, b = Link(True, ALICE, PROLOGUE, max_message=10 * L.MAX_PIECE), Link(False, BOB, PROLOGUE)
    pump(a, b)
    a.send(b"y" * (3 * L.MAX_PIECE))       # fine for a, too big for b
    b.max_message = 2 * L.MAX_PIECE
    eb = b.receive_data(a.data_to_send())
    assert "over the" in closed_reason(eb)


def test_a_record_length_of_zero_ends_the_link():
    a, b = connected()
    assert "zero length" in closed_reason(b.receive_data(b"\x00\x00"))


def test_truncated_bytes_then_eof_end_the_link_with_a_reason():
    a, b = connected()
    a.send(b"hello")
    wire = a.data_to_send()
    assert b.receive_data(wire[:-3]) == []
    assert "middle of a record" in closed_reason(b.receive_data(b""))


def test_eof_during_the_handshake_and_after_it():
    a, b = pair()
    b.receive_data(a.data_to_send())
    assert "during the handshake" in closed_reason(b.receive_data(b""))
    a, b = connected()
    assert closed_reason(a.receive_data(b"")) == "connection closed by the peer"


def test_replayed_reordered_and_dropped_records_do_not_decrypt():
    for mangle in (lambda r: r[:1] + r,            # a record replayed
                   lambda r: [r[1], r[0], *r[2:]],  # two swapped
                   lambda r: r[1:]):               # one dropped
        a, b = connected()
        for i in range(3):
            a.send(f"m{i}".encode())
        rs = mangle(records(a.data_to_send()))
        events = []
        for r in rs:
            events += b.receive_data(r)
        assert "failed to decrypt" in closed_reason(events)
        # The honest sender is told why, in a record it can read.
        ea = a.receive_data(b.data_to_send())
        assert "failed to decrypt" in closed_reason(ea)


def test_records_are_noise_transport_messages_under_consecutive_nonces():
    """A link's records are Noise's own: the peer's Noise state opens them one after the
    other, and a record Noise's state made in turn is read as the link's own."""
    a, b = connected()
    a.send(b"one")
    a.ping()
    a.send(b"two")
    opened = [b._noise.decrypt(r[2:]) for r in records(a.data_to_send())]
    assert opened == [bytes([L.LAST]) + b"one", bytes([L.PING]), bytes([L.LAST]) + b"two"]
    own = a._noise.encrypt(bytes([L.LAST]) + b"three")  # Noise's step between two of the link's
    a.send(b"four")
    wire = struct.pack(">H", len(own)) + own + a.data_to_send()
    events = b.receive_data(wire)
    assert events == [Message(b"three"), Message(b"four")]


def test_a_flipped_bit_ends_the_link():
    a, b = connected()
    a.send(b"attack at dawn")
    wire = bytearray(a.data_to_send())
    wire[10] ^= 1
    events = b.receive_data(bytes(wire))
    assert not any(isinstance(e, Message) for e in events)
    assert "failed to decrypt" in closed_reason(events)


def test_plaintext_data_before_authentication_is_refused():
    a, b = pair()
    b.receive_data(a.data_to_send())
    a.receive_data(b.data_to_send())
    a.data_to_send()  # a's real msg3 + proof never arrive
    ea = b.receive_data(struct.pack(">H", 5) + b"hello")
    assert "handshake failed" in closed_reason(ea)


def test_data_before_the_proof_is_refused():
    a, b = pair()
    b.receive_data(a.data_to_send())
    a.receive_data(b.data_to_send())
    msg3, _proof = records(a.data_to_send())
    b.receive_data(msg3)
    assert b.handshake_hash is not None and not b.up
    # Alice's real keys, but a message where her proof should be.
    assert "before proving its identity" in closed_reason(b.receive_data(forged(a, L.LAST, b"hi")))


def test_nothing_happens_after_the_link_closed():
    a, b = connected()
    b.receive_data(b"\x00\x00")
    assert b.closed and not b.up
    # The goodbye is the last thing b says: a ping after it is not sent.
    goodbye = b.data_to_send()
    b.ping()
    assert b.data_to_send() == b""
    assert "zero length" in closed_reason(a.receive_data(goodbye))
    b2_events = b.receive_data(b"anything at all")
    assert b2_events == []


def test_keepalives_are_invisible():
    a, b = connected()
    a.ping()
    a.send(b"after")
    assert b.receive_data(a.data_to_send()) == [Message(b"after")]


# -- properties ---------------------------------------------------------------------

messages = st.lists(st.one_of(st.binary(max_size=300),
                              st.integers(0, 3 * L.MAX_PIECE + 5).map(lambda n: b"\x5a" * n)),
                    max_size=6)


@settings(max_examples=40, deadline=None)
@given(messages=messages, cuts=st.lists(st.integers(1, 70000), max_size=40))
def test_any_split_of_the_byte_stream_delivers_the_same_messages(messages, cuts):
    a, b = pair()
    for m in messages:
        a.send(m)
    got = []
    # Deliver the whole conversation, a's bytes cut at arbitrary points.
    for _ in range(4):
        data = a.data_to_send()
        pos = 0
        for c in cuts:
            if pos >= len(data):
                break
            got += b.receive_data(data[pos:pos + c])
            pos += c
        if pos < len(data):
            got += b.receive_data(data[pos:])
        back = b.data_to_send()
        if back:
            a.receive_data(back)
    assert [e.data for e in got if isinstance(e, Message)] == messages
    assert not any(isinstance(e, LinkClosed) for e in got)


def tamper(data: bytes, position: int, garbage: bytes, mode: str) -> bytes:
    cut = min(position, len(data))
    if mode == "insert":
        return data[:cut] + garbage + data[cut:]
    if mode == "replace":
        return data[:cut] + garbage + data[cut + len(garbage):]
    return data[:cut]


@settings(max_examples=150, deadline=None)
@given(before=st.lists(st.binary(max_size=80), max_size=3),
       in_handshake=st.booleans(),
       position=st.integers(0, 500),
       garbage=st.binary(min_size=1, max_size=200),
       mode=st.sampled_from(["insert", "replace", "truncate"]))
def test_garbage_anywhere_never_raises_never_forges_and_ends_the_link_with_a_reason(
        before, in_handshake, position, garbage, mode):
    a, b = pair()
    for m in before:
        a.send(m)
    events = []
    if in_handshake:
        events += b.receive_data(tamper(a.data_to_send(), position, garbage, mode))
        a.receive_data(b.data_to_send())
        events += b.receive_data(a.data_to_send())
    else:
        events += b.receive_data(a.data_to_send())
        a.receive_data(b.data_to_send())
        a.send(b"payload")
        events += b.receive_data(tamper(a.data_to_send(), position, garbage, mode))
    events += b.receive_data(b"")
    got = [e.data for e in events if isinstance(e, Message)]
    # Whatever arrived is a prefix of what Alice really sent, never something else.
    assert got == (before + [b"payload"])[:len(got)]
    assert all(e.peer_key == ALICE.public_key for e in events if isinstance(e, LinkUp))
    # The link always ends (we fed EOF at the latest) with exactly one reason.
    assert closed_reason(events)


class HonestChannel(RuleBasedStateMachine):
    """Both ends send, ping and receive in any interleaving, bytes arriving in any pieces:
    each side gets exactly what the other sent, in order, and the link never closes."""

    def __init__(self):
        super().__init__()
        self.links = pair()
        self.wire = [bytearray(), bytearray()]     # bytes in flight from side 0 / side 1
        self.sent = [[], []]
        self.got = [[], []]

    def _collect(self):
        for side in (0, 1):
            self.wire[side] += self.links[side].data_to_send()

    @rule(side=st.integers(0, 1), message=st.binary(max_size=200) | st.just(b"z" * (L.MAX_PIECE + 7)))
    def send(self, side, message):
        self.links[side].send(message)
        self.sent[side].append(message)
        self._collect()

    @rule(side=st.integers(0, 1))
    def ping(self, side):
        self.links[side].ping()
        self._collect()

    @rule(side=st.integers(0, 1), size=st.integers(1, 70000))
    def deliver(self, side, size):
        chunk = bytes(self.wire[side][:size])
        del self.wire[side][:size]
        if chunk:
            for event in self.links[1 - side].receive_data(chunk):
                assert not isinstance(event, LinkClosed), event
                if isinstance(event, Message):
                    self.got[1 - side].append(event.data)
        self._collect()

    @invariant()
    def each_side_got_a_prefix_of_what_the_other_sent(self):
        for side in (0, 1):
            assert self.got[side] == self.sent[1 - side][:len(self.got[side])]

    def teardown(self):
        for _ in range(6):
            for side in (0, 1):
                self.deliver(side, 10**9)
        assert self.got == [self.sent[1], self.sent[0]]
        assert all(link.up for link in self.links)


HonestChannel.TestCase.settings = settings(max_examples=40, stateful_step_count=30, deadline=None)
test_honest_channel = HonestChannel.TestCase
