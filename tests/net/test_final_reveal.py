"""The end of a networked game turns face up every personality the table has
not seen, those that every seat saw privately among them: a spectator, a
replay of the public log and ``ankh verify`` then name the winner the seats
name.  (Old logs, written before that reveal was asked, are read by
``tests/test_compat.py``.)"""
from __future__ import annotations

import random

from ankh.core.morpork.bots.random_bot import RandomBot
from ankh.net.play.peer import Spectator, describe_outcome, replay
from ankh.net.files.verify import verify_transcript

from .star import Star, star_peers


def test_a_personality_every_seat_saw_privately_is_revealed_to_the_table() -> None:
    # Seed found by search: Commander Vimes starts among the unused personalities;
    # yellow looks at them (Mrs Cake) and sees it, then red takes it (Zorgo).
    star = Star(star_peers(2, seed=b"vimes45"))
    before_end: dict = {}

    def watch(table: Star) -> None:
        engine = table.peers[0].engine
        if not engine.ending and "commander-vimes" in engine.pers:
            vimes = engine.pers.index("commander-vimes")
            before_end.update(vimes=vimes, held=engine.personality[:], seen=engine.pers_seen[:],
                              known=[p.engine.pers[vimes] for p in table.peers])

    star.play([RandomBot(random.Random(f"45:{s}")) for s in range(2)], after_round=watch)
    vimes = before_end["vimes"]
    # Every seat had seen Vimes, each privately, by the time the game ended.
    assert vimes in before_end["held"] and all(mask >> vimes & 1 for mask in before_end["seen"])
    assert before_end["known"] == ["commander-vimes", "commander-vimes"]
    outcome = star.peers[0].engine.outcome
    assert outcome.reason == "vimes" and all(p.engine.outcome == outcome for p in star.peers)
    assert len({p.final_hash for p in star.peers}) == 1

    transcript = star.peers[1].protocol.transcript()
    # The public log alone: a replay, and a spectator following it, as far as the end.
    public = replay(transcript.roster, transcript.frames())
    assert public.engine.outcome == outcome
    assert public.engine.pers[vimes] == "commander-vimes"
    spectator = Spectator(transcript.roster)
    spectator.feed(transcript.frames())
    assert spectator.engine.outcome == outcome and spectator.phase == "done"

    report = verify_transcript(transcript.to_bytes())
    assert report.status == "fair", str(report)
    assert report.rules.endswith(describe_outcome(outcome)) and "red wins: Commander Vimes" in report.rules
