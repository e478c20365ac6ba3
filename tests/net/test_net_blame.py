"""Blame lands on the cheater or on nobody, never on an honest seat; weak keys,
twin scalars and unfinished games are not passed off as fair."""

from __future__ import annotations

import msgpack
import pytest
from ankh.net.fair import group
from ankh.net.wire.envelope import Identity, KeyRing, fingerprint, pack
from ankh.net.wire.errors import Equivocation, LocalProtocolError, RemoteProtocolError, Stalled
from ankh.net.fair.seal import Boxes, open_disclosed
from ankh.net.fair.seal import digest as seal_digest
from ankh.net.files.transcript import Roster, Transcript, find_equivocation
from ankh.net.files.verify import verify_transcript

from .nethelp import Tamper, decode, identity, resign, small_decks, table

IDENTITY_POINT = bytes([1]) + bytes(31)
ORDER_8_POINT = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
NON_CANONICAL = bytes([0xED]) + b"\xff" * 30 + bytes([0x7F])  # y = p, the encoding of y = 0 plus p


@pytest.mark.parametrize(
    "weak", [IDENTITY_POINT, ORDER_8_POINT, NON_CANONICAL], ids=["identity", "order-8", "non-canonical"]
)
def test_weak_signing_key_is_refused_when_the_roster_forms(weak: bytes) -> None:
    if weak == IDENTITY_POINT:  # a lax check lets anyone sign anything under it; ours refuses
        assert not KeyRing([weak]).verify(0, IDENTITY_POINT + bytes(32), b"any message at all")
    good = Identity.from_seed(b"k" * 32).public_key
    with pytest.raises(LocalProtocolError, match="signing key is unusable"):
        Roster(b"g" * 16, ("Ann", "Bob"), (good, weak))
    # A saved game whose roster holds such a key is refused by the verifier too.
    t = table(2, seed=b"weak-key")
    t.roll("x")
    saved = msgpack.unpackb(t.transcript().to_bytes(), raw=False)
    saved["keys"][1] = weak
    report = verify_transcript(pack(saved))
    assert not report.fair and "signing key is unusable" in report.violations[0].message


def test_display_names_are_unique() -> None:
    keys = tuple(Identity.from_seed(bytes([i]) * 32).public_key for i in range(2))
    for twin in ("Ann", "ann", "ANN", " ann"):
        with pytest.raises(LocalProtocolError, match="share a name"):
            Roster(b"g" * 16, ("Ann", twin), keys)
    Roster(b"g" * 16, ("Ann", "Anne"), keys)


def _twin(blob: bytes, index: int = 0) -> bytes:
    s = int.from_bytes(blob[32 * index : 32 * (index + 1)], "little")
    return blob[: 32 * index] + (group.L - s).to_bytes(32, "little") + blob[32 * (index + 1) :]


@pytest.mark.parametrize("field", ["k", "s"])
def test_twin_scalar_re_signed_is_refused(field: str) -> None:
    # k and L - k open the same lock (everything holds up to sign); only one form is accepted,
    # so a seat cannot sign a second, "equivalent" version of a message.
    t = table(3, seed=b"twin-" + field.encode(), decks=small_decks())
    tamper = Tamper(t, 1, "keys", lambda f: resign(f, identity(t, 1), lambda b: b.__setitem__(field, _twin(b[field]))))
    with pytest.raises(RemoteProtocolError) as info:
        t.draw("personalities")
    assert info.value.seat == 1
    reporter = info.value.reporter  # type: ignore[attr-defined]
    assert t.seats[reporter].ledger.digest() == tamper.digests[reporter]
    with pytest.raises(group.GroupError, match="non-canonical"):
        group.scalar_from_bytes(_twin(decode(tamper.target)["body"][field]))


def test_bogus_log_hash_with_no_equivocation_names_its_signer() -> None:
    t = table(3, seed=b"bogus-basis", decks=small_decks())
    tamper = Tamper(t, 1, "dice", lambda f: resign(f, identity(t, 1), lambda b: b.__setitem__("basis", bytes(32))))
    with pytest.raises(RemoteProtocolError) as info:
        t.roll("x")
    assert not isinstance(info.value, Equivocation)
    assert (info.value.seat, info.value.who) == (1, "Bob")
    assert "log hash" in info.value.message and info.value.evidence == (tamper.replacement,)
    # messages about a seat give its name, its seat number and its identity's fingerprint
    assert str(info.value).startswith(f"Bob (seat 1, {fingerprint(t.seats[1].secrets.owner)}): ")


def test_verifier_does_not_blame_the_next_sender_for_an_earlier_equivocation(tmp_path) -> None:
    t = table(3, seed=b"handed-in", decks=small_decks())
    (pos,) = t.deal("player", 1)
    garbled = lambda f: resign(f, identity(t, 1), lambda b: b.__setitem__("ct", b["ct"][::-1]))  # noqa: E731
    Tamper(t, 1, "sealed", garbled, only_to={0})  # Bob tells Ann another story than Cat
    t.pass_cards("player", [pos], 2)
    with pytest.raises(Equivocation) as info:
        t.roll("x")
    assert info.value.seat == 1  # live, the seats' logs settle it
    # Cat hands in her record plus Ann's next message: honest Ann's hash disagrees with it.
    ann = next(f for f in t.transcript(0).pending if f[0] == 0)
    handed_in = Transcript(t.roster, t.transcript(2).ops, [ann])
    report = verify_transcript(handed_in.to_bytes())
    assert [v.seat for v in report.violations] == [None]
    message = report.violations[0].message
    assert "Ann (seat 0, " in message and "Bob (seat 1, " in message
    assert fingerprint(t.seats[0].secrets.owner) in message  # the install's identity, as the lobby showed it


def _passed(seed: bytes):
    t = table(3, seed=seed, decks=small_decks())
    (pos,) = t.deal("player", 1)
    t.pass_cards("player", [pos], 2)
    outer = next(f for f in t.transcript().ops[-1] if f[0] == 1)
    return t, pos, outer


def test_receiver_cannot_frame_the_sender_with_the_sealed_inner_frame() -> None:
    t, pos, outer = _passed(b"frame-inner")
    body = decode(outer)["body"]
    receiver = Boxes(t.seats[2].secrets.box_private, t.game_id)
    inner = receiver.open(1, 2, decode(outer)["seq"], body["eph"], body["ct"])
    # The inner frame is validly signed by Bob, with Bob's sequence number: yet it is
    # no message of the game, so the pair is not an equivocation...
    assert decode(inner)["seq"] == decode(outer)["seq"] and inner != outer
    views = {s.seat: s.view() for s in t.seats}
    views[2] = views[2] + [inner]
    assert find_equivocation(views, t.roster) is None
    # ...and handed on as one, it is refused as not authentic (the link that carried it is blamed).
    with pytest.raises(RemoteProtocolError, match="bad signature"):
        t.seats[0].receive(inner, via=1)


def test_a_private_message_that_does_not_open_is_a_dispute_anyone_can_settle() -> None:
    t = table(3, seed=b"dispute", decks=small_decks())
    (pos,) = t.deal("player", 1)
    garble = lambda f: resign(f, identity(t, 1), lambda b: b.__setitem__("ct", b["ct"][::-1]))  # noqa: E731
    Tamper(t, 1, "sealed", garble)  # the same (signed) garbage to everyone
    with pytest.raises(RemoteProtocolError) as info:
        t.pass_cards("player", [pos], 2)
    assert info.value.seat == 1 and info.value.reporter == 2  # type: ignore[attr-defined]
    outer, disclosure = info.value.evidence
    p, body = decode(outer), decode(outer)["body"]
    box = t.seats[0].ledger.box[2]  # public: from Cat's hello
    # a third party checks the disclosed key against Cat's box key, and the message fails to open
    with pytest.raises(RemoteProtocolError, match="does not decrypt"):
        open_disclosed(t.game_id, 1, 2, p["seq"], box, body["eph"], body["ct"], disclosure)
    # a receiver that lies about the key is caught instead
    forged = Boxes(t.seats[0].secrets.box_private, t.game_id).disclose(body["eph"])
    with pytest.raises(RemoteProtocolError, match="false disclosure"):
        open_disclosed(t.game_id, 1, 2, p["seq"], box, body["eph"], body["ct"], forged)


def test_disclosing_one_private_message_opens_no_other() -> None:
    t, pos, first = _passed(b"one-message")
    (other,) = t.deal("player", 1)
    t.pass_cards("player", [other], 2)
    second = next(f for f in t.transcript().ops[-1] if f[0] == 1)
    cat = Boxes(t.seats[2].secrets.box_private, t.game_id)
    box = t.seats[0].ledger.box[2]
    a, b = decode(first), decode(second)
    key = cat.disclose(a["body"]["eph"])
    # the honest first message opens with its key, matches its signed hash: Cat could not accuse Bob
    inner = open_disclosed(t.game_id, 1, 2, a["seq"], box, a["body"]["eph"], a["body"]["ct"], key)
    assert seal_digest(inner) == a["body"]["h"]
    assert a["body"]["eph"] != b["body"]["eph"]
    with pytest.raises(RemoteProtocolError):  # the same key does not open the second
        open_disclosed(t.game_id, 1, 2, b["seq"], box, b["body"]["eph"], b["body"]["ct"], key)


def test_withheld_message_names_seat_and_fingerprint() -> None:
    t = table(3, seed=b"stall-label", decks=small_decks())
    t.wire = lambda f, s, r: None if s == 2 else f
    with pytest.raises(Stalled) as info:
        t.roll("x")
    assert info.value.names == ("Cat",)
    assert f"Cat (seat 2, {fingerprint(t.seats[2].secrets.owner)})" in str(info.value)


def test_secret_scalars_are_uniform_mod_L_not_clamped() -> None:
    # A clamped scalar 2^254 + 8t always has s/8 - 2^251 (mod L) below 2^251: a known
    # bit of every secret.  Reduced from 64 bytes, about half the scalars do.
    inv8 = pow(8, -1, group.L)
    clamped_shape = sum(
        (group.secret_scalar(b"k" * 32, b"test", bytes([i]))[0] * inv8 - 2**251) % group.L < 2**251 for i in range(200)
    )
    assert 60 < clamped_shape < 140
    for i in range(20):  # and the X25519 form multiplies by the same class
        s, n = group.secret_scalar(b"k" * 32, b"test", bytes([i]))
        assert group.mul_n(n, group.BASE) == group.mul_base(s)


def _log(seat) -> list[bytes]:
    return [f for _, frames in seat.ledger.log for f in frames]


def test_a_receivers_evidence_names_the_liar_at_every_other_seat() -> None:
    from ankh.net.fair.evidence import proven

    from .nethelp import reseal, swap_scalar

    t = table(3, seed=b"evidence-key", decks=small_decks())
    (pos,) = t.deal("player", 1)
    Tamper(t, 1, "sealed", lambda f: reseal(t, f, 2, lambda b: b.__setitem__("k", swap_scalar(b["k"], 0, 777))))
    with pytest.raises(RemoteProtocolError) as info:
        t.pass_cards("player", [pos], 2)
    evidence = info.value.evidence
    outer, inner = evidence
    for seat in (0, 1):  # neither can open the message; both check the pair against their own log
        verdict = proven(t.roster, _log(t.seats[seat]), evidence)
        assert verdict is not None and verdict.seat == 1, verdict
        assert "private message to Cat" in verdict.message and "wrong key" in verdict.message
    # an honest message handed on as "evidence" proves nothing
    t2, pos2, honest_outer = _passed(b"evidence-honest")
    body = decode(honest_outer)["body"]
    honest_inner = Boxes(t2.seats[2].secrets.box_private, t2.game_id).open(1, 2, decode(honest_outer)["seq"],
                                                                          body["eph"], body["ct"])
    before = _log(t2.seats[0])[: -len(t2.transcript().ops[-1])]
    assert proven(t2.roster, before, (honest_outer, honest_inner)) is None
    # nor does a pair that does not belong together
    assert proven(t.roster, _log(t.seats[0]), (outer, honest_inner)) is None


def test_a_disclosure_names_the_sender_at_every_other_seat() -> None:
    from ankh.net.fair.evidence import proven

    t = table(3, seed=b"evidence-dispute", decks=small_decks())
    (pos,) = t.deal("player", 1)
    garble = lambda f: resign(f, identity(t, 1), lambda b: b.__setitem__("ct", b["ct"][::-1]))  # noqa: E731
    Tamper(t, 1, "sealed", garble)
    with pytest.raises(RemoteProtocolError) as info:
        t.pass_cards("player", [pos], 2)
    outer, disclosure = info.value.evidence
    verdict = proven(t.roster, _log(t.seats[0]), (outer, disclosure))
    assert verdict is not None and verdict.seat == 1 and "does not decrypt" in verdict.message
    # a false disclosure names nobody: it is not signed, so Ann could have made it up
    forged = Boxes(t.seats[0].secrets.box_private, t.game_id).disclose(decode(outer)["body"]["eph"])
    assert proven(t.roster, _log(t.seats[0]), (outer, forged)) is None


def test_two_versions_of_one_message_name_their_signer() -> None:
    from ankh.net.fair.evidence import proven

    t = table(3, seed=b"evidence-twins", decks=small_decks())
    t.roll("x")
    frame = t.transcript().ops[-1][1]
    twin = resign(frame, identity(t, 1), lambda b: b.__setitem__("basis", bytes(32)))
    verdict = proven(t.roster, _log(t.seats[0]), (frame, twin))
    assert verdict is not None and verdict.seat == 1 and "sequence number" in verdict.message


def test_a_seat_that_copies_anothers_ephemeral_key_in_the_same_step_cannot_get_it_blamed() -> None:
    """Seats 1 and 2 both send keys to seat 3.  Seat 2 copies seat 1's ephemeral key
    (it sees seat 1's frame first) and the relay hands seat 0 the copy before the
    original: arrival order within a step proves nothing, so seat 0 must not name
    seat 1.  Only ephemeral keys of earlier steps are refused as used; the copy is
    caught by its receiver, whose key does not open it."""
    from ankh.net.fair.seal import box_public

    from .nethelp import cheat_body

    t = table(4, seed=b"copied-eph", decks=small_decks())
    t.sync()  # the decks are ready; position 0 is in no one's hand: seats 0, 1 and 2 send keys to seat 3
    one = t.seats[1]
    copied = box_public(one.secrets.ephemeral(one._seq_out, 3))  # seat 1's next private message, to seat 3
    cheat_body(t, 2, "sealed", lambda body: body.update(eph=copied))
    held: list[bytes] = []

    def wire(frame: bytes, sender: int, recipient: int) -> bytes | list[bytes] | None:
        if recipient == 0 and sender == 1 and b"sealed" in frame and not held:
            held.append(frame)
            return None
        if recipient == 0 and sender == 2 and held:
            return [frame, held.pop()]
        return frame

    t.wire = wire
    with pytest.raises(RemoteProtocolError) as info:
        t.look("player", [0], 3)
    assert info.value.seat == 2, str(info.value)
