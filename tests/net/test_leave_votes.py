"""Ending a table that a seat left for good: the signed votes of the seats
still there, checked the same way by every seat and by ``ankh verify``
(``net/play/leave.py``; docs/fairness.md, *A seat that leaves for good*)."""
from __future__ import annotations

from pathlib import Path

import pytest
from ankh.net.files import journal, verify
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.play.leave import Patience, Stop, check_votes, needed, vote
from ankh.net.play.ops import Roll
from ankh.net.files.secrets import SeatSecrets
from ankh.net.wire.envelope import Identity
from ankh.net.files.transcript import Transcript

from .nethelp import small_decks, table


@pytest.fixture(scope="module")
def stalled() -> tuple:
    """A table of three whose roll waits for Bob (seat 1), who is gone."""
    t = table(3, seed=b"leave", decks=small_decks())
    t.wire = lambda f, s, r: None if s == 1 else f
    for s in t.seats:
        s.request(Roll("never settled"))
    t._pump()
    L = t.seats[0].ledger
    return t, t.transcript(0), Stop(L.index, L.basis, (1,))


def ended(t, transcript: Transcript, votes: list[bytes]) -> Transcript:
    return Transcript(t.roster, transcript.ops, transcript.pending, end=votes)


def test_most_of_the_seats_left_end_the_table_and_the_verifier_says_abandoned(stalled, tmp_path: Path, capsys):
    t, transcript, stop = stalled
    assert needed((0, 1, 2), (1,)) == 2 and needed((0, 1, 2, 3), (3,)) == 2 and needed((0, 1), (1,)) == 1
    votes = [vote(t.seats[s].secrets, stop) for s in (2, 0)]
    ending = check_votes(t.roster, votes, step=stop.step, basis=stop.basis, waited=(1,))
    assert ending.voters == (0, 2) and ending.stop.gone == (1,)
    path = tmp_path / "game.ankh"
    path.write_bytes(ended(t, transcript, votes).to_bytes())
    report = verify.verify_transcript(path)
    assert report.status == "abandoned" and not report.fair and report.violations == ()
    assert str(report).startswith("abandoned: Ann (seat 0, ") and " and Cat (seat 2, " in str(report)
    assert " say Bob (seat 1, " in str(report) and "left the game at step" in str(report)
    assert "(2 of the 2 voices left, 2 needed)" in str(report)
    assert verify.main([str(path)]) == 4 and capsys.readouterr().out.startswith("abandoned: ")
    assert Transcript.from_bytes(path.read_bytes()).end == votes  # saved and read back as written


def test_a_journal_closed_by_the_votes_verifies_alike_and_nothing_may_follow_them(stalled, tmp_path: Path):
    t, transcript, stop = stalled
    votes = [vote(t.seats[s].secrets, stop) for s in (0, 2)]
    head = journal.header(t.roster, {"role": "host"})
    data = head + b"".join(journal.step(op) for op in transcript.ops) + journal.ending(end=votes)
    read, _info = journal.read(data)
    assert read.end == votes and read.ops == transcript.ops
    # (a journal holds whole steps only: the roll under way is not in it; in a
    # game of the rules, the verifier checks Bob against the rules' next step)
    assert verify.verify_transcript(data).status == "abandoned"
    with pytest.raises(RemoteProtocolError, match="follows the game's ending"):
        journal.read(data + journal.step(transcript.ops[-1]))


@pytest.mark.parametrize("case", ["too few", "a departed seat named wrongly", "another step", "twice",
                                  "a stranger's signature", "votes that disagree"])
def test_an_ending_that_does_not_hold_is_a_violation_naming_what_is_wrong(stalled, case: str) -> None:
    t, transcript, stop = stalled
    ann, cat = t.seats[0].secrets, t.seats[2].secrets
    votes = {
        "too few": [vote(ann, stop)],
        "a departed seat named wrongly": [vote(ann, Stop(stop.step, stop.basis, (2,))),
                                          vote(t.seats[1].secrets, Stop(stop.step, stop.basis, (2,)))],
        "another step": [vote(ann, Stop(stop.step - 1, stop.basis, (1,))),
                         vote(cat, Stop(stop.step - 1, stop.basis, (1,)))],
        "twice": [vote(ann, stop), vote(ann, stop)],
        "a stranger's signature": [vote(ann, stop), vote(SeatSecrets.generate(t.roster.game_id, 2,
                                                                               Identity.generate()), stop)],
        "votes that disagree": [vote(ann, stop), vote(cat, Stop(stop.step, stop.basis, (0, 1)))],
    }[case]
    with pytest.raises(RemoteProtocolError):
        check_votes(t.roster, votes, step=stop.step, basis=stop.basis, waited=(1,))
    report = verify.verify_transcript(ended(t, transcript, votes).to_bytes())
    assert report.status == "violation" and "the end of the table" in str(report) + " ".join(
        v.message for v in report.violations), str(report)


def test_a_departed_seat_cannot_vote(stalled) -> None:
    t, _transcript, stop = stalled
    with pytest.raises(ValueError):
        vote(t.seats[1].secrets, stop)


def test_the_offer_comes_after_the_wait_and_goes_when_the_seat_is_back(stalled) -> None:
    t, _transcript, stop = stalled
    p = Patience(t.roster, gone_after=60, move_clock=300)
    assert not p.tick(100.0, stop.step, stop.basis, (1,), {1: 50.0}, local=(0,)) and p.offer is None
    assert [(a.seat, a.secs, a.link) for a in p.shown()] == [(1, 50.0, False)]  # seen gone at once
    assert p.tick(111.0, stop.step, stop.basis, (1,), {1: 50.0}, local=(0,)) and p.offer == stop
    assert not p.add(vote(t.seats[2].secrets, Stop(stop.step, stop.basis, (0, 1)))) and not p.votes
    assert not p.add(vote(t.seats[2].secrets, stop), seat=0)  # only the voter's own link carries its vote
    assert p.add(vote(t.seats[2].secrets, stop), seat=2) and not p.agreed()
    assert p.add(vote(t.seats[0].secrets, stop)) and p.agreed()
    assert p.tick(112.0, stop.step, stop.basis, (), {}, local=(0,)) and p.offer is None and not p.votes
    # a connected seat that keeps the game waiting: on the move clock
    assert not p.tick(200.0, stop.step, stop.basis, (2,), {}, local=(0,))
    assert p.tick(500.0, stop.step, stop.basis, (2,), {}, local=(0,)) and p.offer.gone == (2,)
