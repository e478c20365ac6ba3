"""A seat's journal after a crash: a last record cut short is dropped on
reading, and cut off before the seat appends again, so every later record
reads back whole and in order."""
from __future__ import annotations

from pathlib import Path

import pytest

from ankh.net.files import journal
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.io.savedir import SaveDir

from .star import seat_secrets


def steps(n: int, size: int = 300) -> list[list[bytes]]:
    return [[bytes([i]) * size, bytes([i, i]) * 7] for i in range(n)]


@pytest.mark.parametrize("cut", [1, 5, 150, 299])
def test_a_record_cut_short_is_cut_off_before_the_seat_appends_again(tmp_path: Path, cut: int) -> None:
    roster, secrets = seat_secrets(2, b"journal")
    save = SaveDir(tmp_path / "net-game")
    save.create(roster, {"role": "join"}, {1: secrets[1]})
    for frames in steps(3):
        save.append(frames)
    save.close()
    whole = save.journal_path.read_bytes()
    # killed while writing a fourth record: only its first bytes reached the disk
    save.journal_path.write_bytes(whole + journal.step(steps(4)[3])[:cut])
    assert journal.read(save.journal_path.read_bytes())[0].ops == [list(s) for s in steps(3)]
    assert journal.whole_length(save.journal_path.read_bytes()) == len(whole)

    save.reopen()                                   # the seat carries on from its save
    again = [b"after the crash" * 20, b"x"]
    save.append(again)
    save.close()
    transcript, info = journal.read(save.journal_path.read_bytes())
    assert transcript.ops == [list(s) for s in steps(3)] + [again] and info == {"role": "join"}


def test_a_damaged_record_in_the_middle_is_still_refused(tmp_path: Path) -> None:
    roster, _ = seat_secrets(2, b"journal")
    data = journal.header(roster, {}) + b"".join(journal.step(s) for s in steps(2))
    broken = data[: len(journal.header(roster, {}))] + b"\xc1" + data[len(journal.header(roster, {})):]
    with pytest.raises(RemoteProtocolError):
        journal.whole_length(broken)
    assert journal.whole_length(journal.header(roster, {})) == len(journal.header(roster, {}))


async def test_a_step_a_seat_finishes_alone_while_taking_up_its_game_is_journaled(tmp_path: Path) -> None:
    """A seat killed just before a step only it sends to (a card it reveals or
    passes...) finishes that step as soon as it takes up its save again: the
    step goes into the journal with the next ones, so that the journal still
    holds every step in order and verifies."""
    import random

    from ankh.core.morpork.bots.random_bot import RandomBot
    from ankh.net.io.node import JoinNode
    from ankh.net.play.peer import GamePeer
    from ankh.net.play.seat import SeatProtocol
    from ankh.net.files.verify import verify_transcript
    from ankh.net.files.transcript import Transcript

    from .star import Star, star_peers

    star = Star(star_peers(2, seed=b"alone"))
    star.play([RandomBot(random.Random(s)) for s in range(2)])
    joiner = star.peers[1].protocol
    log = [list(frames) for _, frames in joiner.ledger.log]
    roster, secrets = joiner.roster, joiner.secrets

    def resumed(k: int) -> GamePeer:
        return GamePeer.resume(SeatProtocol(roster, secrets, relay=0), [f for step in log[:k] for f in step])

    # the first place where the seat, taking up its first k steps, finishes one more on its own
    k = next(k for k in range(1, len(log)) if len(resumed(k).protocol.ledger.log) > k)
    save = SaveDir(tmp_path / "net-game")
    save.create(roster, {"role": "join"}, {1: secrets})
    for frames in log[:k]:
        save.append(frames)
    save.close()

    transcript, _info = journal.read(save.journal_path.read_bytes())
    node = JoinNode(secrets.identity, "joiner", decide=lambda *_: None, report=lambda *_: None, save_root=None)
    node.save, node.core.save_path = save, save.path
    node.core.start_msg = {"t": "start", "names": list(roster.names), "keys": list(roster.keys)}
    save.reopen()
    node.core._begin(roster, secrets, frames=transcript.frames(), journaled=len(transcript.ops))
    node.core.journal_steps(node.peer)
    save.close()
    again = journal.read(save.journal_path.read_bytes())[0]
    assert len(again.ops) == len(node.peer.protocol.ledger.log) > k
    report = verify_transcript(Transcript(roster, again.ops).to_bytes())
    assert not report.violations, str(report)


def note(left: float = 120.0, **kw) -> dict:
    return {"why": "refused: green broke the rules", "left": left, "mine": ["10.0.0.2", 4343], "disclosed": [],
            "points": [(2, "10.0.0.3", 4242)], "pending": [b"frame"], **kw}


def test_the_notes_of_an_own_wait_read_back_the_last_one_and_steps_and_ending_still_follow(tmp_path: Path) -> None:
    """A seat that keeps its own wait at the audit notes it (each note what it knows then):
    the journal reads back its steps as before and the last note as ``own_wait``; steps
    and the ending may follow the notes, and a transcript of it knows nothing of them."""
    roster, secrets = seat_secrets(3, b"journal")
    save = SaveDir(tmp_path / "net-game")
    save.create(roster, {"role": "join"}, {1: secrets[1]})
    save.append(steps(1)[0])
    save.note_wait(**note())
    save.note_wait(**note(110.0, disclosed=[2]))
    save.append(steps(2)[1])
    transcript, info = journal.read(save.journal_path.read_bytes())
    assert transcript.ops == [list(s) for s in steps(2)] and not transcript.forfeit
    assert info["own_wait"] == {**note(110.0, disclosed=[2]), "points": [[2, "10.0.0.3", 4242]]}
    save.ending(forfeit=[2], pending=[b"frame"])
    save.close()
    transcript, info = journal.read(save.journal_path.read_bytes())
    assert transcript.forfeit == [2] and info["own_wait"]["left"] == 110.0
    assert journal.read(journal.header(roster, {"role": "join", "own_wait": note()}))[1] == {"role": "join"}, \
        "only a note says the seat kept its own wait"


@pytest.mark.parametrize("bad", [
    {"left": -1.0}, {"left": True}, {"left": float("nan")}, {"mine": ["h", 0]}, {"mine": ["h"]}, {"mine": [1, 2]},
    {"disclosed": [300]}, {"disclosed": ["2"]},
    {"points": [[2, "h"]]}, {"points": [[2, "h", 0]]}, {"pending": ["frame"]}, {"why": b"x"}, {"extra": 1},
])
def test_a_doctored_note_of_the_own_wait_is_refused_naming_its_record(bad: dict) -> None:
    roster, _ = seat_secrets(2, b"journal")
    record = {**note(), **bad}
    data = journal.header(roster, {}) + journal.step(steps(1)[0]) + journal.pack({journal.WAIT: record})
    with pytest.raises(RemoteProtocolError, match="journal record 1 is malformed"):
        journal.read(data)


def test_nothing_follows_the_ending_not_even_a_note() -> None:
    roster, _ = seat_secrets(2, b"journal")
    data = journal.header(roster, {}) + journal.ending(forfeit=[1]) + journal.wait_note(**note())
    with pytest.raises(RemoteProtocolError, match="follows the game's ending"):
        journal.read(data)
