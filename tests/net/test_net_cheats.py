"""The cheat catalogue: each cheat is detected, pinned on the right seat, and
leaves nothing applied at the seat that caught it."""

from __future__ import annotations

import random

import pytest
from ankh.net.fair import deck as decks
from ankh.net.fair import group
from ankh.net.wire.envelope import INNER, open_frame
from ankh.net.wire.errors import Equivocation, RemoteProtocolError, Stalled
from ankh.net.play.ledger import BODIES, INNER_KINDS
from ankh.net.play.ops import Roll
from ankh.net.fair.seal import digest as seal_digest
from ankh.net.play.seat import Link
from ankh.net.files.verify import verify_transcript

from .nethelp import Tamper, cheat_body, decode, identity, reseal, resign, small_decks, swap_scalar, table


def caught(exc: RemoteProtocolError, t, tamper: Tamper, seat: int) -> int:
    """Common checks; returns the seat that reported the cheat."""
    assert exc.seat == seat, str(exc)
    assert exc.who == t.names[seat]
    reporter = exc.reporter  # type: ignore[attr-defined]
    assert t.seats[reporter].ledger.digest() == tamper.digests[reporter], "something was applied"
    return reporter


def test_forged_signature_compromises_the_link() -> None:
    t = table(3, seed=b"forged")
    tamper = Tamper(t, 1, "hello", lambda f: f[:9] + bytes([f[9] ^ 0x40]) + f[10:])
    with pytest.raises(RemoteProtocolError) as info:
        t.roll("first")
    reporter = caught(info.value, t, tamper, 1)
    assert "signature" in info.value.message
    assert t.seats[reporter].links[1] is Link.COMPROMISED
    # once compromised, even the genuine frame is refused
    with pytest.raises(RemoteProtocolError):
        t.seats[reporter].receive(tamper.target, via=1)


def test_message_forged_in_another_seats_name_is_pinned_on_the_sender() -> None:
    t = table(3, seed=b"impostor", decks=small_decks())
    for s in t.seats:
        s.request(Roll("x"))
    frame = t.seats[2].data_to_send()[0]
    forged = bytes([1]) + frame[1:]  # seat 2 claims to be seat 1
    before = t.seats[0].ledger.digest()
    with pytest.raises(RemoteProtocolError) as info:
        t.seats[0].receive(forged, via=2)
    assert info.value.seat == 2 and "signature" in info.value.message
    assert t.seats[0].ledger.digest() == before
    assert t.seats[0].links[2] is Link.COMPROMISED
    # a genuine frame of seat 1 handed on by seat 0 is refused too (seats talk directly)
    genuine = t.seats[1].data_to_send()[0]
    with pytest.raises(RemoteProtocolError) as info:
        t.seats[2].receive(genuine, via=0)
    assert info.value.seat == 0 and "relayed" in info.value.message


def test_replayed_message_is_ignored() -> None:
    # A frame seen before, byte for byte (a resend after a reconnect), changes
    # nothing and blames nobody: links resend whatever the peer may lack.
    t = table(3, seed=b"replay", decks=small_decks())
    old = t.transcript().ops[0][1]  # seat 1's hello
    before = t.seats[0].ledger.digest(), t.seats[0]._seq_in.snapshot()
    assert t.seats[0].receive(old, via=1) == []
    assert (t.seats[0].ledger.digest(), t.seats[0]._seq_in.snapshot()) == before
    assert t.seats[0].links[1] is Link.OPEN


def test_reordered_messages() -> None:
    # Two tables from the same seed say exactly the same things; the second runs ahead.
    a = table(3, seed=b"order", decks=small_decks())
    b = table(3, seed=b"order", decks=small_decks())
    assert a.transcript().to_bytes() == b.transcript().to_bytes()
    b.roll("one")
    b.roll("two")
    first, second = b.transcript().ops[-2][1], b.transcript().ops[-1][1]
    for s in a.seats:
        s.request(Roll("one"))
    before = a.seats[0].ledger.digest()
    with pytest.raises(RemoteProtocolError) as info:
        a.seats[0].receive(second, via=1)
    assert info.value.seat == 1 and "out-of-order" in info.value.message
    assert a.seats[0].ledger.digest() == before
    a.seats[0].receive(first, via=1)  # the right one is still welcome


@pytest.mark.parametrize("step", ["deal", "reveal"])
def test_wrong_key_in_a_deal_or_reveal(step: str) -> None:
    t = table(3, seed=b"badkey-" + step.encode(), decks=small_decks())
    cheat = 1
    if step == "reveal":
        (pos,) = t.deal("player", cheat)

    def wrong_key(frame: bytes) -> bytes:
        return resign(frame, identity(t, cheat), lambda b: b.__setitem__("k", swap_scalar(b["k"], 0, 12345)))

    tamper = Tamper(t, cheat, "keys", wrong_key)
    with pytest.raises(RemoteProtocolError) as info:
        if step == "deal":
            t.deal("player", 0)
        else:
            t.reveal("player", [pos])
    reporter = caught(info.value, t, tamper, cheat)
    assert "wrong key" in info.value.message
    # nothing was applied: the honest frame is still accepted afterwards
    t.seats[reporter].receive(tamper.target, via=cheat)


def test_wrong_key_in_a_private_pass() -> None:
    t = table(3, seed=b"badpass", decks=small_decks())
    (pos,) = t.deal("player", 1)
    tamper = Tamper(
        t, 1, "sealed", lambda f: reseal(t, f, 2, lambda b: b.__setitem__("k", swap_scalar(b["k"], 0, 777)))
    )
    with pytest.raises(RemoteProtocolError) as info:
        t.pass_cards("player", [pos], 2)
    assert caught(info.value, t, tamper, 1) == 2  # only the receiver can see inside
    assert t.known(2, "player", pos) is None
    # The receiver can show everyone the signed lie: the inner frame is signed by
    # seat 1 (under the inner context), the signed outer frame carries its hash,
    # and its key fails against public data alone.
    outer, inner = info.value.evidence
    env = open_frame(inner, game_id=t.game_id, keys=t.ledger.keyring, kinds=INNER_KINDS, label=INNER)
    assert env.sender == 1 and env.seq == decode(outer)["seq"]
    assert decode(outer)["body"]["h"] == seal_digest(inner)
    d = t.seats[0].ledger.deck("player")
    b = env.body
    ctx = decks.keys_context(t.game_id, b["basis"], 1, "player", [pos])
    msg = decks.KeyMessage(b["k"], b["A"], b["As"], b["s"])
    assert decks.verify_keys(ctx, msg, [pos], d.E[1], d.lock_input(1), d.locked[1]) is None


@pytest.mark.parametrize("field", ["z", "zs", "R", "T"])
def test_bad_lock_proof(field: str) -> None:
    t = table(3, seed=b"badlock-" + field.encode())

    def spoil(body: dict) -> None:
        if field == "z":
            body["z"] = group.scalar_to_bytes(group.scalar_from_bytes(body["z"]) + 1)
        elif field == "zs":
            body["zs"] = swap_scalar(body["zs"], 3, 99)
        elif field == "R":
            body["R"] = group.mul(2, body["R"])
        else:
            body["T"] = body["T"][32:64] + body["T"][:32] + body["T"][64:]

    tamper = Tamper(t, 2, "lock", lambda f: resign(f, identity(t, 2), spoil))
    with pytest.raises(RemoteProtocolError) as info:
        t.setup(small_decks())
    caught(info.value, t, tamper, 2)
    assert "proof fails" in info.value.message


def test_bad_key_proof() -> None:
    t = table(3, seed=b"badkeyproof", decks=small_decks())
    tamper = Tamper(
        t, 0, "keys", lambda f: resign(f, identity(t, 0), lambda b: b.__setitem__("s", swap_scalar(b["s"], 0, 5)))
    )
    with pytest.raises(RemoteProtocolError) as info:
        t.draw("personalities")
    caught(info.value, t, tamper, 0)


def _replace_point(t, cheat: int, index: int, new_point) -> None:
    """``cheat`` swaps one point of its shuffle of the personalities (and keeps to its story)."""

    def edit(body: dict) -> None:
        pts = body["pts"]
        body["pts"] = pts[: 32 * index] + new_point(pts) + pts[32 * (index + 1) :]

    cheat_body(t, cheat, "shuffle", edit, when=lambda op: getattr(op, "deck", None) == "personalities")


def test_card_changed_after_the_shadows_were_committed_fails_the_proof() -> None:
    t = table(3, seed=b"duplicate")
    _replace_point(t, 1, 2, lambda pts: pts[32 * 5 : 32 * 6])  # position 2 := position 5
    watch = Tamper(t, 1, "open", lambda f: f, when=lambda body: body["op"]["deck"] == "personalities")
    with pytest.raises(RemoteProtocolError) as info:
        t.setup(small_decks())
    caught(info.value, t, watch, 1)
    assert "proof fails" in info.value.message


def test_audit_still_checks_every_disclosure() -> None:
    t = table(3, seed=b"substitute", decks=small_decks())
    t.deal("personalities", 0, 3)

    def lie(body: dict) -> None:  # seat 2 discloses another permutation than the one it used
        entry = body["decks"][1]
        perm = bytearray(entry["perm"])
        perm[0], perm[1] = perm[1], perm[0]
        entry["perm"] = bytes(perm)

    cheat_body(t, 2, "audit", lie)
    outcome = t.audit()
    assert [seat for seat, _ in outcome.violations] == [2]
    assert "personalities" not in outcome.decks and "player" in outcome.decks


def _twist_point(rng: random.Random) -> bytes:
    p = group.P
    while True:
        u = rng.randrange(2, p - 1)
        if pow((u * u * u + group.A * u * u + u) % p, (p - 1) // 2, p) == p - 1:
            return u.to_bytes(32, "little")


def test_point_off_the_curve_is_pinned_on_whoever_published_it() -> None:
    # A point on the twist slipped into a shuffle is refused on arrival.
    t = table(3, seed=b"twist")
    bad = _twist_point(random.Random(1))
    assert not group.is_valid_point(bad)
    _replace_point(t, 1, 3, lambda pts: bad)
    with pytest.raises(RemoteProtocolError) as info:
        t.setup(small_decks())
    assert info.value.seat == 1 and "outside the prime-order group" in info.value.message


def test_withheld_reveal_is_reported_as_a_stall_by_name() -> None:
    t = table(3, seed=b"stall")
    t.roll("warm-up")
    t.wire = lambda f, s, r: None if s == 2 and decode(f)["kind"] == "dice" else f
    with pytest.raises(Stalled) as info:
        t.roll("assassinate")
    assert info.value.seats == (2,) and info.value.names == ("Cat",)
    assert "Cat" in str(info.value) and "roll" in str(info.value)
    assert t.seats[0].waiting_for() == (2,)


def test_equivocation_is_caught_by_the_running_hash() -> None:
    t = table(3, seed=b"equivocate")

    def other_order(frame: bytes) -> bytes:
        def swap_first_two(body: dict) -> None:
            body["pts"] = body["pts"][32:64] + body["pts"][:32] + body["pts"][64:]

        return resign(frame, identity(t, 1), swap_first_two)

    Tamper(t, 1, "shuffle", other_order, only_to={2})  # seat 2 hears another story
    with pytest.raises(Equivocation) as info:
        t.setup(small_decks())
    assert info.value.seat == 1 and info.value.who == "Bob"
    first, second = info.value.evidence
    for frame in (first, second):
        env = open_frame(frame, game_id=t.game_id, keys=t.ledger.keyring, kinds=BODIES)
        assert env.sender == 1
    assert first != second and decode(first)["seq"] == decode(second)["seq"]


def test_equivocation_in_the_last_message_is_caught_by_sync() -> None:
    t = table(3, seed=b"equivocate-late", decks=small_decks())
    (pos,) = t.deal("player", 1)
    garbled = lambda f: resign(f, identity(t, 1), lambda b: b.__setitem__("ct", b["ct"][::-1]))  # noqa: E731
    Tamper(t, 1, "sealed", garbled, only_to={0})  # seat 0 cannot open it anyway
    t.pass_cards("player", [pos], 2)
    assert t.known(2, "player", pos) is not None
    with pytest.raises(Equivocation) as info:
        t.sync()
    assert info.value.seat == 1


def _with_small_order_part(point: bytes) -> bytes:
    """P + T with T the point of order 2: its u-coordinate is 1/u(P)."""
    return pow(group.to_int(point), -1, group.P).to_bytes(32, "little")


def test_lock_output_with_a_small_order_component_is_refused_on_arrival(monkeypatch: pytest.MonkeyPatch) -> None:
    t = table(3, seed=b"small-order-lock")
    cheat = t.seats[1]
    honest, mul_n, made = cheat._body, group.mul_n, {}

    def body(op):  # seat 1 locks position 3 of the player deck as a[3]*X[3] + T, and proves it
        if getattr(op, "deck", None) != "player" or type(op).__name__ != "LockDeck":
            return honest(op)
        d = cheat.ledger.deck("player")
        target = (cheat.secrets.deck(d.spec).a(3)[1], d.lock_input(1)[3])

        def tainted(n: bytes, point: bytes) -> bytes:
            out = mul_n(n, point)
            return _with_small_order_part(out) if (n, point) == target else out

        monkeypatch.setattr(group, "mul_n", tainted)
        try:
            made.update(honest(op), basis=cheat.ledger.basis)
        finally:
            monkeypatch.setattr(group, "mul_n", mul_n)
        return {k: v for k, v in made.items() if k != "basis"}

    cheat._body = body  # type: ignore[method-assign]
    with pytest.raises(RemoteProtocolError) as info:
        t.setup(small_decks())
    assert info.value.seat == 1 and "outside the prime-order group" in info.value.message
    # The lock proof alone cannot see it: multiplying by a clamped scalar wipes the part out.
    d = t.seats[info.value.reporter].ledger.deck("player")  # type: ignore[attr-defined]
    ctx = decks.lock_context(t.game_id, made["basis"], 1, "player", d.E[1])
    msg = decks.LockMessage(made["Y"], made["T"], made["R"], made["z"], made["zs"])
    Y, bad = decks.verify_lock(ctx, d.E[1], d.lock_input(1), msg)
    assert bad == [] and not group.is_valid_point(Y[3])
    assert len(d.locked) == 1


def test_shuffle_output_with_a_small_order_component_is_refused_before_its_proof() -> None:
    t = table(3, seed=b"small-order-shuffle")

    def plant(body: dict) -> None:
        pts = group.split_points(body["pts"])
        pts[2] = _with_small_order_part(pts[2])
        body["pts"] = b"".join(pts)

    cheat_body(t, 2, "shuffle", plant, when=lambda op: getattr(op, "deck", None) == "personalities")
    watch = Tamper(t, 2, "shuffle", lambda f: f, when=lambda body: body["op"]["deck"] == "personalities")
    with pytest.raises(RemoteProtocolError) as info:
        t.setup(small_decks())
    caught(info.value, t, watch, 2)
    assert "outside the prime-order group" in info.value.message
    d = t.seats[0].ledger.deck("personalities")
    assert len(d.shuffled) == 2 and d.candidate is None  # Cat's shuffle never got in


def test_box_key_with_a_small_order_component_is_refused_at_hello() -> None:
    t = table(3, seed=b"small-order-box")
    spoil = lambda b: b.__setitem__("box", _with_small_order_part(b["box"]))  # noqa: E731
    tamper = Tamper(t, 2, "hello", lambda f: resign(f, identity(t, 2), spoil))
    with pytest.raises(RemoteProtocolError) as info:
        t.roll("x")
    caught(info.value, t, tamper, 2)
    assert "box key" in info.value.message
