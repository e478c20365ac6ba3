"""The thief's evidence against the key of its stolen card: handed on (the
``blame`` message), it names the victim at every other seat, at a spectator
and in ``ankh verify`` when the victim's own signed part is wrong.  Evidence
that clears the victim names nobody, the thief included, since anyone may
hand it on: a repeated honest message, a made-up or re-used disclosure, a
plaintext the victim knows as well, even the thief's true disclosure beside
a right part (a victim that told the thief another story could use it).
Whole tiny games through GamePeers and the hub, in memory."""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from ankh.net.fair import group, steal
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.fair.evidence import proven
from ankh.net.play.ops import StealOpen, from_wire
from ankh.net.play.peer import Spectator
from ankh.net.fair.seal import Boxes, digest
from ankh.net.files.transcript import Transcript
from ankh.net.files.verify import verify_transcript

from tests import tinygame

from .nethelp import decode, resign
from .star import Star, star_peers
from .test_tinygame import bots

tinygame.install()

# change(body, steal, boxes, seq, thief's box key, ephemeral secret) -> the body the victim signs
Change = Callable[..., dict[str, Any]]


def wrong_key(body: dict[str, Any], st: Any, boxes: Boxes, seq: int, box: bytes, eph_private: bytes) -> dict[str, Any]:
    """A key that opens the picked slot to no card, sealed and hashed as the real one."""
    plaintext = group.scalar_to_bytes(777)
    eph, ct = boxes.seal(st.victim, st.thief, seq, box, plaintext, eph_private)
    return {**body, "eph": eph, "ct": ct, "h": digest(plaintext)}


def garbled(body: dict[str, Any], *_: Any) -> dict[str, Any]:
    """A private part that does not open."""
    return {**body, "ct": body["ct"][::-1]}


def cheating_victims(monkeypatch: pytest.MonkeyPatch, change: Change) -> None:
    """Every victim signs its ``steal-open`` with the private part ``change`` makes."""
    real = steal.make_open

    def make_open(st: Any, keys: Any, master: bytes, boxes: Boxes, seq: int, box: bytes, eph: bytes) -> dict:
        return change(real(st, keys, master, boxes, seq, box, eph), st, boxes, seq, box, eph)

    monkeypatch.setattr(steal, "make_open", make_open)


def steal_of(frame: bytes) -> StealOpen:
    _, op = from_wire(decode(frame)["body"]["op"])
    assert isinstance(op, StealOpen)
    return op


def log_of(peer: Any) -> list[bytes]:
    return [f for _, frames in peer.ledger().log for f in frames]


@dataclass
class Refused:
    star: Star
    error: RemoteProtocolError
    victim: int
    thief: int


def play_until_refused(seed: int) -> Refused:
    """A tiny game of three, played until the thief of the first steal refuses its private part."""
    star = Star(star_peers(3, seed=b"steal-blame-%d" % seed, kind="tiny"))
    with pytest.raises(RemoteProtocolError) as info:
        star.play(bots(3, seed))
    op = steal_of(info.value.evidence[0])
    return Refused(star, info.value, op.victim, op.thief)


def spectator_of(star: Star, upto: int | None = None) -> Spectator:
    """A spectator that followed the host's log (its first ``upto`` steps)."""
    log = star.peers[0].protocol.transcript()
    spectator = Spectator(log.roster)
    spectator.feed([f for step in log.ops[:upto] for f in step])
    return spectator


def verified(star: Star, seat: int, evidence: list[bytes]) -> list[int | None]:
    """The seats ``ankh verify`` names in ``seat``'s saved game, ended with ``evidence``."""
    t = star.peers[seat].protocol.transcript()
    report = verify_transcript(Transcript(t.roster, t.ops, t.pending, blame=evidence).to_bytes())
    return [v.seat for v in report.violations]


@pytest.mark.parametrize("change", [wrong_key, garbled], ids=["wrong-key", "does-not-open"])
def test_the_thiefs_evidence_names_the_victim_at_every_seat_a_spectator_and_verify(
    change: Change, monkeypatch: pytest.MonkeyPatch
) -> None:
    cheating_victims(monkeypatch, change)
    r = play_until_refused(6)
    assert r.error.seat == r.victim and len(r.error.evidence) == 2
    frame, second = r.error.evidence
    assert len(second) == 32 if change is wrong_key else len(second) > 32  # the plaintext, or the disclosure
    evidence = list(r.error.evidence)
    for seat, peer in enumerate(r.star.peers):
        if seat == r.thief:
            continue
        verdict = peer.judge(evidence)  # each against its own log, whether it took the frame yet or not
        assert verdict is not None and verdict.seat == r.victim, (seat, verdict)
        assert verified(r.star, seat, evidence) == [r.victim]
    verdict = spectator_of(r.star).judge(evidence)
    assert verdict is not None and verdict.seat == r.victim


@pytest.fixture(scope="module")
def honest() -> Star:
    star = Star(star_peers(3, seed=b"tiny-steal6", kind="tiny"))
    star.play(bots(3, 6))
    return star


def steal_opens(star: Star) -> list[tuple[int, bytes]]:
    """(step, frame) of every steal-open in the game."""
    ops = star.peers[0].protocol.transcript().ops
    return [(i, step[0]) for i, step in enumerate(ops) if decode(step[0])["kind"] == "steal-open"]


def test_the_thiefs_true_disclosure_of_a_right_part_clears_the_victim_and_names_nobody(honest: Star) -> None:
    (_, frame), *_ = steal_opens(honest)
    op = steal_of(frame)
    thief = honest.peers[op.thief].protocol
    disclosure = Boxes(thief.secrets.box_private, thief.roster.game_id).disclose(decode(frame)["body"]["eph"])
    for seat in range(3):
        assert proven(thief.roster, log_of(honest.peers[seat]), (frame, disclosure)) is None
    assert verified(honest, op.victim, [frame, disclosure]) == []


def test_a_victim_that_tells_the_thief_another_story_cannot_turn_the_thiefs_disclosure_against_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The victim signs two steal-opens under one ephemeral key: a right one for the
    others, one that does not open for the thief.  The thief refuses with its true
    disclosure, which opens both.  Handed on beside the right frame (the victim, or a
    host on its side, swapping the frames), it must not name the thief; beside the
    frame the thief got, it names the victim."""
    twins: dict[str, bytes] = {}

    def link(frame: bytes, sender: int, recipient: int) -> list[bytes]:
        body = decode(frame)
        if body["kind"] == "steal-open" and recipient == steal_of(frame).thief and not twins:
            victim = star.peers[body["from"]].protocol.secrets.identity
            twins["good"] = frame
            twins["bad"] = resign(frame, victim, lambda b: b.__setitem__("ct", b["ct"][::-1]))
            return [twins["bad"]]
        return [frame]

    star = Star(star_peers(3, seed=b"steal-blame-twins", kind="tiny"), link)
    with pytest.raises(RemoteProtocolError) as info:
        star.play(bots(3, 6))
    op = steal_of(twins["good"])
    bad, disclosure = info.value.evidence
    assert info.value.seat == op.victim and bad == twins["bad"]
    for seat, peer in enumerate(star.peers):
        if seat == op.thief:
            continue
        assert peer.judge([twins["good"], disclosure]) is None
        verdict = peer.judge([bad, disclosure])
        assert verdict is not None and verdict.seat == op.victim
        assert verified(star, seat, [twins["good"], disclosure]) == []


def test_evidence_anyone_could_make_names_nobody_never_the_victim(honest: Star) -> None:
    opens = steal_opens(honest)
    assert len(opens) >= 2, "two steals in the game"
    (_, frame), (_, later) = opens[0], opens[1]
    op, roster = steal_of(frame), honest.peers[0].protocol.roster
    body = decode(frame)["body"]
    thief, victim = honest.peers[op.thief].protocol, honest.peers[op.victim].protocol
    plaintext = Boxes(thief.secrets.box_private, roster.game_id).open(op.victim, op.thief, decode(frame)["seq"],
                                                                     body["eph"], body["ct"])
    other = next(s for s in range(3) if s not in (op.victim, op.thief))
    made_up = {
        "a disclosure made with another seat's box key": Boxes(
            honest.peers[other].protocol.secrets.box_private, roster.game_id).disclose(body["eph"]),
        "garbage": b"\x80",
        "a plaintext the victim never sealed": group.scalar_to_bytes(4242),
        "the true plaintext (the victim knows it too)": plaintext,
    }
    later_op = steal_of(later)
    later_thief = honest.peers[later_op.thief].protocol
    # the thief's true disclosure of another steal's private part, re-used for this one
    made_up["a disclosure re-used from another steal"] = Boxes(
        later_thief.secrets.box_private, roster.game_id).disclose(decode(later)["body"]["eph"])
    for what, second in made_up.items():
        for seat in range(3):
            assert proven(roster, log_of(honest.peers[seat]), (frame, second)) is None, (what, seat)
        assert verified(honest, other, [frame, second]) == [], what
    # a steal-open the victim did not sign (re-signed by another seat), with the thief's own true disclosure
    forged = resign(frame, honest.peers[other].protocol.secrets.identity, lambda b: None)
    disclosure = Boxes(thief.secrets.box_private, roster.game_id).disclose(body["eph"])
    assert proven(roster, log_of(honest.peers[other]), (forged, disclosure)) is None
    assert verified(honest, other, [forged, disclosure]) == []
    assert victim.roster.size == 3


def test_the_victims_honest_steal_open_handed_on_again_as_evidence_names_nobody(honest: Star) -> None:
    """The honest message repeated (alone, or twice as a pair) proves nothing: not at a
    live seat, nor in ``ankh verify``, nor at a spectator that gets it before its step
    (which then takes the step whole, the message once)."""
    (step, frame), *_ = steal_opens(honest)
    op = steal_of(frame)
    for seat in range(3):
        assert honest.peers[seat].judge([frame, frame]) is None
        assert honest.peers[seat].judge([frame]) is None
    t = honest.peers[0].protocol.transcript()
    # a file cut in the middle of the steal, with its honest steal-open as the "evidence" of its end
    cut = Transcript(t.roster, t.ops[:step], [frame], blame=[frame])
    report = verify_transcript(cut.to_bytes())
    assert op.victim not in [v.seat for v in report.violations], str(report)
    assert verified(honest, 0, [frame, frame]) == []
    spectator = spectator_of(honest, step)
    assert spectator.judge([frame]) is None
    spectator.feed(t.ops[step])
    assert spectator.ledger().index == step + 1
