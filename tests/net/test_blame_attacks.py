"""Attacks on blame: a file made only of an honest seat's own signed frames
must never get it named by ``ankh verify``, and a host's early word must
never make one honest seat say another forfeits."""
from __future__ import annotations

import random

import pytest
from ankh.core.morpork.bots.random_bot import RandomBot
from ankh.net.files import verify
from ankh.net.play.peer import AUDIT
from ankh.net.files.transcript import Transcript

from .nethelp import decode
from .star import Star, star_peers


def audit_withheld(seed: bytes, *withheld: int) -> Star:
    """A whole game of three through the star, up to its audit, where the
    host never gets the ``withheld`` seats' disclosures (it drops them, or they are slow)."""
    star = Star(star_peers(3, seed))
    silent: set[int] = set()  # from its disclosure on, nothing of theirs gets through

    def link(frame: bytes, sender: int, recipient: int) -> list[bytes]:
        if sender in withheld and (sender in silent or decode(frame)["kind"] == "audit"):
            silent.add(sender)
            return []
        return [frame]

    star.link = link
    bots = [RandomBot(random.Random(f"{seed!r}:{s}")) for s in range(3)]
    with pytest.raises(AssertionError, match="stalled"):
        star.play(bots)
    assert star.peers[0].phase == AUDIT and star.peers[0].waiting_for() == withheld
    return star


@pytest.fixture(scope="module")
def in_audit() -> Star:
    return audit_withheld(b"blame-attacks", 2)


def test_an_honest_frame_handed_on_again_as_evidence_names_nobody_in_verify(in_audit: Star) -> None:
    """A file whose last step holds Green's honest disclosure, with that same
    frame as the "evidence" of its ending: every frame in it is honest, so the
    verifier must not name Green (a live seat takes the repeat as harmless)."""
    host = in_audit.peers[0].protocol.transcript()
    green = [f for f in host.pending if f[0] == 1]
    assert green, "Green's disclosure is in the step under way"
    forged = Transcript(host.roster, host.ops, host.pending, blame=green)
    report = verify.verify_transcript(forged.to_bytes())
    assert not any(v.seat == 1 for v in report.violations), str(report)
    # and at a live seat the same repeat proves nothing
    assert in_audit.peers[2].judge(green) is None


def test_a_host_that_says_bye_as_the_audit_begins_makes_no_honest_seat_say_another_forfeits() -> None:
    """The host relays neither joiner's disclosure and says bye at once: each
    joiner's log waits for the other.  Neither may say the other withheld its
    disclosure (they would blame each other on the host's doing, with nothing
    waited at all); each says what its log shows: the game waited for it."""
    import time

    from ankh.net.wire.envelope import Identity
    from ankh.net.tablecore.join import JoinTable

    star = audit_withheld(b"blame-bye", 1, 2)
    results = {}
    for seat, other in ((1, 2), (2, 1)):
        assert star.peers[seat].phase == AUDIT and star.peers[seat].waiting_for() == (other,)
        node = JoinTable(Identity.generate(), "joiner", clock=time.monotonic)
        node.peer, node.seat = star.peers[seat], seat
        node.flush()  # what the seat does after every frame it takes
        node._stopped()
        results[seat] = str(node.result.text)
    assert not any(r.startswith("forfeit") for r in results.values()), results
    assert results == {1: "the table ended the game while it waited for green",
                       2: "the table ended the game while it waited for yellow"}, results


def test_a_disclosure_anyone_can_make_up_names_no_receiver() -> None:
    """Bob sends Cat an honest private message.  A disclosure is no one's
    signed word, so Ann (or the host, or any joiner handing on "evidence")
    can make up a false one: it must not name Cat, who said nothing."""
    from ankh.net.fair.evidence import proven
    from ankh.net.fair.seal import Boxes

    from .test_net_blame import _log, _passed

    t, _pos, outer = _passed(b"made-up-disclosure")
    before = _log(t.seats[0])[: -len(t.transcript().ops[-1])]
    eph = decode(outer)["body"]["eph"]
    for made_up in (Boxes(t.seats[0].secrets.box_private, t.game_id).disclose(eph), b"\x80"):
        assert proven(t.roster, before, (outer, made_up)) is None
    # Cat's own, true disclosure shows the message is honest: nobody is named either
    assert proven(t.roster, before, (outer, Boxes(t.seats[2].secrets.box_private, t.game_id).disclose(eph))) is None


def test_an_honest_frame_handed_to_a_spectator_as_evidence_before_its_step_names_nobody() -> None:
    """The host hands spectators one honest message of the step under way as
    "evidence", then the whole step as usual: the spectator must take the
    message once, not say its signer sent it out of turn."""
    from ankh.net.play.peer import Spectator

    star = Star(star_peers(3, b"spectator-evidence"))
    star.play([RandomBot(random.Random(f"spectator:{s}")) for s in range(3)])
    log = star.peers[0].protocol.transcript()
    k = next(k for k, op in enumerate(log.ops) if k > 20 and len(op) >= 2)
    spectator = Spectator(log.roster)
    spectator.feed([f for op in log.ops[:k] for f in op])
    assert spectator.judge([log.ops[k][1]]) is None
    spectator.feed(log.ops[k])
    assert spectator.ledger().index == k + 1


def test_a_spectator_past_a_step_names_the_signer_of_another_frame_for_it_and_nobody_for_the_same() -> None:
    """A spectator a cheat's own watch point served holds the cheat's own frame of a step
    and went on past it; the host then hands on, as evidence, the other frame the cheat
    signed for that step under the same number.  The spectator names the cheat for signing
    two; the frame it holds, handed on again, names nobody."""
    from ankh.net.play.peer import Spectator

    from .nethelp import resign

    star = Star(star_peers(3, b"spectator-past-the-step"))
    star.play([RandomBot(random.Random(f"past:{s}")) for s in range(3)])
    log = star.peers[0].protocol.transcript()
    k = next(k for k, op in enumerate(log.ops) if k > 20 and decode(op[0])["kind"] == "move")
    sender = decode(log.ops[k][0])["from"]
    spectator = Spectator(log.roster)
    spectator.feed([f for op in log.ops[: k + 2] for f in op])
    assert spectator.ledger().index == k + 2
    assert spectator.judge([log.ops[k][0]]) is None
    other = resign(log.ops[k][0], star.peers[sender].protocol.secrets.identity, lambda body: body.__setitem__("move", ["x"]))
    verdict = spectator.judge([other])
    assert verdict is not None and verdict.seat == sender and "two different messages" in str(verdict)
