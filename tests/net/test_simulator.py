"""Whole networked tables in the simulator (``ankh.net.io.sim``): the real
host, joiners and spectator on a virtual clock and an in-memory network,
each fault drawn from a seed.  Every table must end with one result on every
honest seat and spectator (or the same blame naming the cheat), blame no
honest seat, and leave a transcript ``ankh verify`` agrees with; a seed plays
the same table again; and the checks catch a table that breaks."""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import math

import pytest

from ankh.net.fair import group
from ankh.net.io import sim
from ankh.net.io.savedir import SaveDir
from ankh.net.tablecore import seats
from ankh.net.tablecore.result import Result
from ankh.net.files.transcript import Transcript

from tests import tinygame

from . import simcheats

tinygame.install()
sim.register_game("tiny=tests.tinygame")


def played(seed: int, faults: set[str] | frozenset[str] = frozenset(), **kw) -> sim.Table:
    table = sim.play(seed, "tiny", faults, **kw)
    assert not table.problems, f"{table.problems}\nreplay: {table.replay_command()}"
    return table


def texts(table: sim.Table) -> set[str]:
    return {r.text for r in table.results.values()}


def texts_of_seats(table: sim.Table) -> set[str]:
    return {r.text for name, r in table.results.items() if not name.startswith("watch")}


# one seed per fault: each drawn so that the fault strikes while the game is under way
FAULT_SEEDS = {"cut": 3, "corrupt": 0, "duplicate": 2, "reorder": 0, "partition": 1, "kill": 2, "delay": 1}


@pytest.mark.parametrize("fault", sorted(FAULT_SEEDS))
def test_a_table_through_a_fault_ends_the_game_with_one_result_everywhere(fault: str) -> None:
    table = played(FAULT_SEEDS[fault], {fault})
    assert fault == "delay" or table.counts.get(fault), table.counts  # the fault struck
    assert set(table.results) == {"host", "seat1", "seat2", "watch0"}
    (text,) = texts(table)
    assert " win" in text and all(r.finished and r.fair for r in table.results.values())


def test_a_seat_that_never_moves_again_is_left_by_the_others_who_end_the_table() -> None:
    table = played(0, {"still"})
    (text,) = texts(table)
    assert text.startswith("abandoned: ") and "left the game" in text
    assert table.virtual_seconds >= 60  # the others waited for it first (virtual time: no wait here)


def test_a_seat_gone_for_good_is_left_and_the_table_ended_without_it() -> None:
    table = played(1, {"gone"})
    assert table.counts == {"gone": 1}
    assert set(table.results) == {"host", "seat2", "watch0"}  # seat1 went, and says nothing more
    (text,) = texts(table)
    assert text.startswith("abandoned: ") and "yellow left the game" in text


@pytest.mark.parametrize("cheat", ["illegal_move", "wrong_key"])
def test_a_cheating_seat_is_named_by_every_honest_seat_and_the_spectator(cheat: str) -> None:
    table = played(0, cheat=sim.cheat_named(f"tests.net.simcheats:{cheat}"))
    assert table.cheated and table.cheater == "seat2"
    honest = {r.text for name, r in table.results.items() if name != "seat2"}
    (text,) = honest
    assert "(seat2) broke the rules" in text
    assert cheat in simcheats.CATALOGUE


def test_a_seed_plays_the_same_table_again_byte_for_byte() -> None:
    first, again = (played(3, {"cut", "delay"}) for _ in range(2))
    assert first.counts == again.counts and texts(first) == texts(again)
    assert first.virtual_seconds == again.virtual_seconds
    assert first.transcript == again.transcript and first.transcript is not None


def test_a_seed_whose_seat_is_killed_in_the_lobby_and_comes_back_plays_the_same_table_again() -> None:
    """(Seed 39: the seat is killed before it saved anything and runs its command again: its new
    nonce comes from the seed too, so the game's id, its dice and its end are the same each time.)"""
    first, again = (played(39, {"duplicate", "kill", "stale"}) for _ in range(2))
    assert first.counts["kill"] == 1 and first.transcript is not None
    assert first.transcript == again.transcript and first.virtual_seconds == again.virtual_seconds


def test_the_replay_command_names_the_game_the_seed_the_faults_and_the_cheat() -> None:
    table = sim.Table(7, "tiny", frozenset({"cut", "kill"}), cheat="tests.net.simcheats:wrong_key")
    assert table.replay_command() == (
        "PYTHONHASHSEED=0 python -m ankh.net.io.sim --game tiny --register tiny=tests.tinygame"
        " --cheat tests.net.simcheats:wrong_key --seats 3 --seed 7 --faults cut,kill")


# --- the checks can fail ----------------------------------------------------------------------------

def test_a_transcript_ankh_verify_disagrees_with_is_caught(monkeypatch) -> None:
    real = SaveDir.finish

    def short(self, transcript: Transcript):
        transcript.ops = transcript.ops[:-2]  # the audit's last steps lost on the way to the file
        return real(self, transcript)

    monkeypatch.setattr(SaveDir, "finish", short)
    table = sim.play(1, "tiny")
    assert any("ankh verify says" in p for p in table.problems), table.problems


@pytest.mark.parametrize("says,caught", [
    ("red wins with 99", "different results"),             # one seat counts the scores its own way
    ("aborted: red (host) broke the rules", "blames honest host"),  # one seat blames an honest one
])
def test_a_seat_that_ends_otherwise_is_caught(monkeypatch, says: str, caught: str) -> None:
    real = seats.outcome_result

    def own_way(driver):
        return real(driver) if driver.me != 1 else Result(says, fair=True, finished=True)

    monkeypatch.setattr(seats, "outcome_result", own_way)  # (the seats' core ends the game)
    table = sim.play(1, "tiny")
    assert any(caught in p for p in table.problems), table.problems


# --- tables the simulator found broken, kept as they were found ---------------------------------------

@pytest.mark.parametrize("seed", [2, 48])
def test_a_joiner_whose_new_link_ends_as_it_comes_up_tries_again_instead_of_crashing(seed: int) -> None:
    # the link a joiner made to get back ended before its rejoin was sent, and the
    # ConnectionClosed ended the joiner's program (at these seeds)
    table = sim.play(seed, "tiny", {"corrupt", "cut", "delay", "duplicate", "partition", "still"})
    assert not any(isinstance(r, BaseException) for r in table.results.values()), table.problems
    assert not any("raised" in p for p in table.problems), table.problems


def test_no_seeded_randomness_outside_the_simulator() -> None:
    """A real program's tables draw from the operating system: a seeded source
    is refused anywhere but on the simulator's loop."""
    from ankh.net.fair import entropy

    with pytest.raises(RuntimeError):
        entropy.set_source(lambda n: bytes(n), None)

    async def on_asyncio_own_loop() -> None:
        entropy.set_source(lambda n: bytes(n), asyncio.get_running_loop())

    with pytest.raises(RuntimeError):
        asyncio.run(on_asyncio_own_loop())
    assert entropy.random_bytes(32) != bytes(32)


@pytest.mark.parametrize("seed,faults,cheat", [
    (23, {"duplicate", "gone", "kill", "partition", "reorder", "still"}, "illegal_move"),  # a cheat named
    (30, {"delay", "gone", "reorder", "still"}, None),  # a seat that left early: no verdict, none reached it
])
def test_a_seat_whose_link_was_down_when_the_table_ended_early_hears_how_when_it_comes_back(
        seed: int, faults: set[str], cheat: str | None) -> None:
    # the host ended the table and closed it at once: a seat whose link was down then
    # never heard how, and waited 600 s for a host that had gone ("paused: ... did not
    # come back") or took the host's close as the end ("the host closed the table")
    table = sim.play(seed, "tiny", faults, cheat=getattr(simcheats, cheat) if cheat else None)
    assert not table.problems, table.problems


def test_a_spectator_the_cheat_served_says_the_table_ended_early_and_blames_nobody() -> None:
    # seed 36: the spectator lost the host's watch point and moved to the cheat's own; the cheat's
    # log holds the legal move it kept for itself where the host refused the illegal one it was
    # sent, so the host's evidence proves nothing there: the spectator can say only that the
    # table ended before its end (the check once wanted it to name the cheat too)
    faults = {"corrupt", "cut", "delay", "gone", "kill", "partition", "still"}
    # (the path a table takes may differ with the order of a set's items, which differs from one
    # process to the next: where another seat served the spectator last, it names the cheat)
    table = played(36, faults, cheat=simcheats.illegal_move)
    assert table.cheated and "(seat2) broke the rules" in table.results["host"].text
    watched = table.results["watch0"].text
    if table.through["watch0"] == "seat2":
        assert watched == "the table ended the game before its end", watched
    else:
        assert "(seat2) broke the rules" in watched, watched


def test_a_spectator_checks_votes_that_end_the_table_in_the_middle_of_a_steal() -> None:
    # seed 5 (38 before the seats linked to each other): the table ended by the seats' votes
    # while a steal's pick (which every seat answers) waited for the seat that had gone; the
    # spectator took the steal for its first step (the victim's alone), refused the votes,
    # and said only that the table closed
    table = played(5, {"corrupt", "delay", "gone", "partition", "reorder"})
    (text,) = texts(table)
    assert text.startswith("abandoned: red and green say yellow left the game")


def test_answers_to_a_decision_already_gone_are_not_played_and_the_seat_is_asked_again() -> None:
    """A person's screen may be a step behind the table: a key pressed at the decision before
    reaches the table as the answer to the next one.  It is no move there: the table asks again
    (it once waited for ever), and nobody is blamed."""
    table = played(0, {"stale"})
    assert table.counts.get("stale", 0) >= 3, table.counts
    (text,) = texts(table)
    assert " win" in text and all(r.finished and r.fair for r in table.results.values())


def test_a_spectator_whose_first_links_failed_as_the_game_ended_sees_its_end_within_seconds() -> None:
    """Its two first links failed (a cut, a corrupted record) and the game of the test
    table was over two seconds later: the spectator once tried to reach the closed table
    for four virtual hours, and the table counted as stuck.  The host now waits a few
    seconds for a spectator whose link dropped, and this one comes back in time for the
    end (one that never gets in stops trying once the table is gone: ``sim._run``)."""
    table = played(53, {"corrupt", "cut", "reorder", "still"})
    assert table.virtual_seconds < 60, table.virtual_seconds
    (text,) = texts(table)
    assert " win" in text and table.results["watch0"].finished


def test_a_spectator_hears_a_forfeit_and_says_whom_the_game_waited_for() -> None:
    """Yellow went for good as the game ended, and withheld its audit disclosure: the host
    declared its forfeit after the table's wait.  Green, whose direct link to yellow went
    silent with yellow's program (as an honest seat's link gone dark would), says whom the
    game waited for, naming nobody: the same ending, from what it saw.  The spectator, who
    follows whole steps only, is handed the audit's frames its watch point holds before its
    last word; it checks them and says the same: a watch point that held back an honest
    seat's disclosure would have told it the same (``test_attack_pending``)."""
    table = played(1262, {"cut", "gone", "partition", "stale"})
    host, green = table.results["host"], table.results["seat2"]
    assert host.text.startswith("forfeit: yellow (seat1) withheld the audit disclosure"), host.text
    assert green.text == "the table ended the game while it waited for yellow" and green.audit_waited == (1,), green
    watched = table.results["watch0"]
    assert watched.text == "the table ended the game while it waited for yellow", watched.text
    assert watched.partial


@pytest.mark.parametrize("seed,faults", [(1, set()), (5, set()), (8, {"cut", "duplicate", "kill", "reorder"})])
def test_a_log_hash_only_the_host_can_check_is_named_there_and_nobody_honest_is_blamed(
        seed: int, faults: set[str]) -> None:
    """Green signs a roll over a log hash that is not the log's.  Only the host knows the
    log it sent every seat, so only it names green; yellow and the spectator, handed the
    frame, cannot tell a lie from a host that told green another story (its own frame
    signed twice, which only green holds): they say whom the game waited for and blame
    nobody, and their results say they saw only part (``Result.partial``)."""
    table = played(seed, faults, cheat=simcheats.bogus_log_hash)
    host = table.results["host"]
    assert host.alone and host.text.startswith(f"aborted: {_colour(table)} (seat2) broke the rules: signed a log hash")
    for name in ("seat1", "watch0"):
        result = table.results[name]
        assert result.partial and "(" not in result.text and _colour(table) in result.text, (name, result.text)


def _colour(table: sim.Table) -> str:
    """The cheat's colour (seat 2 of the roster, whose order the seed draws)."""
    return table.results["host"].text.split()[1]


def test_a_spectator_cut_off_in_the_last_second_comes_back_for_the_end() -> None:
    """The spectator's link to the host broke a second before the game's end; the seat it
    tried next had closed its watch point as the game ended, and the host closed a moment
    later, so the spectator tried closed doors for ten minutes and said "no watch point
    answered".  A watch point now waits a few seconds for a spectator whose link dropped
    to come back for the last steps."""
    table = played(1095, {"delay", "duplicate", "gone", "kill", "partition"})
    (text,) = texts(table)
    assert " win" in text and table.virtual_seconds < 60, table.virtual_seconds


def test_a_seat_voted_out_that_comes_back_hears_only_that_the_table_ended() -> None:
    """Yellow kept still, so red and green voted it out; its link was down as the votes
    went round.  Back, it hears only that the table ended (its own log, one move further
    or counting its absence from its return, would refuse the votes and blame the host):
    it says so, and blames nobody, while the others say it left."""
    table = played(1102, {"corrupt", "cut", "delay", "gone", "kill", "stale", "still"})
    by_seat = {name: table.results[name] for name in table.seat_of if name in table.results}
    out = [name for name, seat in table.seat_of.items() if seat in table.results["host"].ending.stop.gone]
    assert out and all(by_seat[name].text == "the table ended the game before its end" for name in out)
    assert {r.text for name, r in table.results.items() if name not in out} \
        == {table.results["host"].text} and "left the game" in table.results["host"].text


def test_a_process_killed_in_the_simulator_stops_its_tasks_in_the_order_they_were_made() -> None:
    """So that a table replays the same in any process: a set of tasks is ordered by
    where they lie in memory, which a replay in a new process does not share."""
    loop = sim.VirtualLoop()
    try:
        ctx = contextvars.copy_context()
        ctx.run(sim._WHO.set, "seat1")

        async def idle() -> None:
            await asyncio.sleep(3600)

        made = [loop.create_task(idle(), context=ctx) for _ in range(64)]
        assert loop.kill("seat1") == made
        loop.run_until_complete(asyncio.gather(*made, return_exceptions=True))
    finally:
        loop.close()


def test_a_wait_until_an_instant_just_ahead_of_the_virtual_clock_ends_there() -> None:
    """Seed 41954 of a quick sweep (``--faults duplicate,partition``) stood still: its host waited
    for the seats' goodbyes until an instant one step of the float ahead of the virtual clock;
    asyncio runs a timer due within its clock's resolution at once, and the clock, which moves
    only when nothing is ready, stayed short of it, so the wait was asked again, for ever, at the
    same instant.  A timer that runs finds its time come."""
    loop = sim.VirtualLoop()
    asked: list[float] = []

    async def wait_until_just_ahead() -> float:
        loop.now = 31.321796622805067
        deadline = math.nextafter(loop.now, math.inf)
        nothing = asyncio.Event()
        while (left := deadline - loop.time()) > 0 and len(asked) < 100:
            asked.append(left)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(nothing.wait(), left)  # (as the host's driver waits: ``_while``)
        return deadline

    try:
        deadline = loop.run_until_complete(wait_until_just_ahead())
    finally:
        loop.close()
    assert len(asked) == 1 and loop.time() == deadline


def test_a_spectator_cut_off_as_the_game_ended_finds_a_seat_s_watch_point_still_open() -> None:
    """A joiner closed its watch point the moment its game was over, though it waited a
    few seconds more for a spectator whose link had dropped: the spectator, cut off twice
    near the end, found every door shut and said "no watch point answered"."""
    table = played(1229, {"corrupt", "delay", "duplicate", "gone", "kill", "still"})
    (text,) = texts(table)
    assert " win" in text


def test_a_spectator_told_by_its_watch_point_that_the_game_paused_says_so() -> None:
    """The host paused the table (every other player away) and yellow, on its own, gave up
    on the host: the spectator watching through yellow heard "paused" and took it for the
    end of the game ("the table ended the game while it waited for yellow and green")."""
    table = played(1178, {"duplicate", "gone", "stale"})
    assert all(r.text.startswith("paused: ") for r in table.results.values()), texts(table)
    assert table.results["watch0"].text == "paused: the game waits, saved, for its players to come back"


def test_a_cheat_whose_altered_frame_was_lost_with_its_link_cheated_nobody() -> None:
    """The cheat altered its second move, but the link that carried it broke; back, it
    sent again what its log holds, the honest move.  Everyone finished fair, the
    transcript verifies fair: nobody is to be named."""
    table = played(1185, {"corrupt", "cut", "delay", "duplicate", "reorder", "stale"},
                   cheat=simcheats.illegal_move)
    (text,) = texts(table)
    assert " win" in text and all(r.finished and r.fair for r in table.results.values())


def test_a_spectator_may_name_the_cheat_for_another_of_its_frames() -> None:
    """The spectator watched through the cheat's own watch point, which told it its own
    story, and then the host's evidence: it names the cheat for signing two frames under
    one number, where the seats name it for the wrong key.  One culprit everywhere."""
    table = played(1081, {"cut", "delay", "gone", "kill", "partition", "reorder", "still"},
                   cheat=simcheats.wrong_key)
    assert all("yellow (seat2) broke the rules" in r.text for r in table.results.values() if r is not None), \
        texts(table)


def test_a_spectator_whose_last_record_was_lost_comes_back_for_it() -> None:
    """The host sent the spectator the table's last words and closed 0.3 s later; the
    record that carried them arrived corrupted, and the spectator found every watch
    point shut.  A watch point now waits for its spectators to hang up (each says
    ``bye`` once it holds the end), and one whose link dropped instead comes back."""
    table = played(2276, {"corrupt", "cut", "delay", "gone", "reorder"})
    (text,) = texts_of_seats(table)
    assert table.results["watch0"].text == text and "left the game" in text


@pytest.mark.parametrize("seed,faults", [
    (2001, {"corrupt", "cut", "delay", "duplicate", "partition", "reorder", "still"}),
    (2282, {"cut", "delay", "duplicate", "partition", "still"}),
])
def test_a_seat_voted_out_whose_link_was_down_as_the_table_ended_blames_nobody(seed: int, faults: set[str]) -> None:
    """The still seat was voted out; its link was down when the table ended, and the host does
    not wait for a seat it left: at 2282 it had closed when the seat came back, which says that
    the host did not come back; at 2001 the seat's new link was up as the host's end waited for
    links that had not said what they want (one may be a spectator's), and it heard only that
    the table ended.  Either is its own view (as the spectator's that watched through it), and
    names nobody; the others say it left."""
    table = played(seed, faults)
    out = {name for name, seat in table.seat_of.items() if seat in table.results["host"].ending.stop.gone}
    assert out and all(table.results[name].text.startswith("paused: ")
                       or table.results[name].text == "the table ended the game before its end" for name in out)
    assert len({r.text for name, r in table.results.items()
                if name not in out and table.through.get(name) not in out}) == 1


# --- the simulator's quick group -----------------------------------------------------------------------

def test_a_fixed_sweep_of_tables_through_faults_breaks_nothing() -> None:
    """Forty tables, faults and cheats drawn from each seed as ``scripts/bench/simulate``
    draws them, in the simulator's quick group: every table's check holds (one result,
    or the same blame naming the cheat; no honest seat blamed; ``ankh verify`` agrees)."""
    failed = []
    for seed in range(40):
        faults, cheat = sim.draw(seed, sim.FAULTS, simcheats.CATALOGUE)
        table = sim.play(seed, "tiny", faults, cheat=sim.cheat_named(f"tests.net.simcheats:{cheat}") if cheat else None,
                         quick=True)
        if table.problems:
            failed.append(f"{table.problems[0]}\n  replay: {table.replay_command()}")
    assert not failed, "\n".join(failed)


def test_the_quick_group_ends_with_its_table() -> None:
    """The simulator's group, which hides nothing, is the group only inside a quick
    table: after it, and after one that fails, points are the curve's again."""
    n = bytes(range(32))
    curve = group.mul_base_n(n)
    table = sim.play(3, "tiny", quick=True)
    assert table.results and not table.problems and "--quick" in table.replay_command()
    assert group.mul_base_n(n) == curve
    with pytest.raises(RuntimeError), group.simulated():
        assert group.mul_base_n(n) != curve
        raise RuntimeError
    assert group.mul_base_n(n) == curve


@pytest.mark.parametrize("seed,faults,cheat", [
    (10144, {"corrupt", "delay", "duplicate", "gone", "kill", "reorder", "still"}, simcheats.illegal_move),
    (10980, {"corrupt", "cut", "gone", "partition", "stale", "still"}, simcheats.wrong_key),
])
def test_a_spectator_past_the_step_of_the_cheat_s_frame_names_the_cheat_or_nobody(seed: int, faults: set[str],
                                                                                  cheat) -> None:
    """Seeds 10144 and 10980 (a wrong key, likewise) of a quick sweep: the spectator followed the cheat's own watch point, whose log
    holds the legal move the cheat kept for itself, two steps past it, and then the host's, which
    handed on the illegal move it was sent for that step: the spectator named nobody and said its
    log waited for every seat.  Both frames are the cheat's, under one number: a spectator past the
    step names it for signing two (``test_blame_attacks``); one the cheat served last may say only
    where its log stood, naming nobody."""
    table = played(seed, faults, cheat=cheat, quick=True)
    watched = table.results["watch0"].text
    assert "yellow (seat2) broke the rules" in watched or (
        table.through["watch0"] == "seat2" and "(" not in watched), watched


def test_a_spectator_that_came_back_to_a_seat_as_it_paused_hears_that_the_game_paused() -> None:
    """Seed 10249 of a quick sweep: the host paused (the others away), and yellow gave up on it
    600 s later, a tenth of a second after the spectator came back to yellow's watch point: the
    goodbye went only to the spectators yellow had told the table, the link closed at once, and
    the spectator, finding every watch point shut, said only that none answered.  A seat's last
    word now waits, as the host's does, for each spectator to hold the log, and the watch point
    for the spectators to take it (a few seconds at most)."""
    table = played(10249, {"corrupt", "delay", "duplicate", "gone"}, quick=True)
    assert table.results["watch0"].text == "paused: the game waits, saved, for its players to come back"
    assert all(r.text.startswith("paused: ") for r in table.results.values() if r is not None), texts(table)


@pytest.mark.parametrize("seed,faults", [
    (10149, {"cut", "delay", "gone", "kill", "partition", "still"}),
    (10360, {"corrupt", "cut", "delay", "gone", "kill", "partition", "reorder", "stale"}),
    (10446, {"corrupt", "cut", "kill", "partition", "reorder", "still"}),
])
def test_a_seat_killed_in_the_lobby_that_cannot_reach_the_table_at_once_tries_again(seed: int, faults: set[str]) -> None:
    """Seeds of a quick sweep: a seat killed in the lobby came back with the same command, but
    the table was cut off from it then (a partition, a cut handshake), and its program ended
    with "could not reach": the host waited in its lobby for a player who never came, and the
    table never ended.  The person tries again, as on the first start; the game is played."""
    table = played(seed, faults, quick=True)
    assert table.counts.get("kill") == 1 and isinstance(table.results["host"], Result)
    assert all(r is None or isinstance(r, Result) for r in table.results.values()), texts(table)


def test_a_cheat_whose_altered_frame_was_lost_before_the_table_was_ended_by_votes_cheated_nobody() -> None:
    """Seed 10586 of a quick sweep: as for seed 1185, the cheat's altered move was lost with its
    link and it sent again the honest one its log holds; here a seat then left for good and the
    others ended the table.  Nobody saw a cheat (the host's log, which holds every frame it took,
    verifies with no violation): every result says the table was ended by votes, naming nobody."""
    table = played(10586, {"cut", "duplicate", "gone", "partition"}, cheat=simcheats.illegal_move, quick=True)
    (text,) = texts(table)
    assert table.cheated and text.startswith("abandoned: ") and "broke the rules" not in text


def test_a_seat_killed_and_resumed_that_is_handed_back_its_own_frame_blames_nobody() -> None:
    """Seed 10563 of a quick sweep: a seat killed and resumed from its save signed again the frame
    it had sent before the crash (derived: the same bytes), and the host handed that frame back to
    it; the seat, which counts only the others' frames, took it for one out of order and named the
    honest host.  Its own frame handed back tells it nothing: the game is played to its end."""
    table = played(10563, {"corrupt", "duplicate", "kill", "partition", "reorder", "stale", "still"}, quick=True)
    (text,) = texts(table)
    assert " win" in text and table.counts.get("kill") == 1


def test_a_spectator_whose_link_stalled_as_the_game_ended_is_cut_and_comes_back_for_the_end() -> None:
    """Seed 11026 of a quick sweep: the spectator's link to its watch point stalled in the middle
    of a record (its length came corrupted: the spectator waited for bytes that never came, and
    could not tell for 5 s) as the game ended; the watch point gave it 3 s, closed, and every
    other had closed too: the spectator said no watch point answered.  A watch point now cuts,
    at that deadline, a link whose spectator has not hung up, and lets it come back for the end."""
    table = played(11026, {"corrupt", "gone", "kill", "partition", "reorder", "stale", "still"}, quick=True)
    (text,) = texts(table)
    assert " win" in text


@pytest.mark.parametrize("seed,faults", [
    (11302, {"corrupt", "cut", "duplicate", "reorder", "stale"}),
    (11584, {"corrupt", "cut", "delay", "gone", "partition", "still"}),
    (12931, {"corrupt", "delay", "duplicate", "gone", "kill", "partition"}),
    (12955, {"corrupt", "cut", "delay", "duplicate", "partition", "reorder", "stale"}),
    (13115, {"corrupt", "cut", "delay", "duplicate", "gone", "partition", "stale"}),
])
def test_a_joiner_whose_link_ends_as_it_comes_back_to_its_seat_before_the_game_tries_again(
        seed: int, faults: set[str]) -> None:
    """Seeds of a quick sweep: a joiner whose link dropped once the seats were set linked again,
    and the host had closed that new link as it came up (a record that failed to decrypt).  Its
    ``join`` was said after the link was up, outside the try, and the ConnectionClosed ended its
    program: the others ended the table without it (at 11302 and 11584 the simulator then ran the
    joiner again, as a person would, with a new nonce: "the table is full", and the host waited
    for the seat for ever).  The ``join`` goes first on a new link as the
    ``rejoin`` does, a link that ends meanwhile is a try that failed, and the game is played."""
    table = played(seed, faults, quick=True)
    assert all(isinstance(r, Result) for r in table.results.values()), table.results
    (text,) = texts(table)
    assert "decrypt" not in text


def test_a_host_whose_seat_came_back_after_the_end_closes_once_every_seat_said_done() -> None:
    """Seed 138 of a sweep: a seat whose link dropped in the game's last step came back after
    the end, was sent what it lacked and the host's ``done``.  A newcomer's arrival was the one
    step of the host's table its process took without asking its waits again; here the
    seed's corrupt record then fell on the seat's own ``done``, and the host, which cannot tell
    a seat that heard the end from one whose link dropped first, waited out its farewell (the
    table took 53 virtual s).  Every step now wakes the waits: in this schedule the seat's
    ``done`` comes through and the host closes on it, the game over at about 23 s."""
    table = played(138, {"corrupt", "cut", "delay", "partition", "reorder", "stale"}, quick=True)
    (text,) = texts(table)
    assert " win" in text
    assert table.virtual_seconds < seats.FAREWELL, table.virtual_seconds  # (not 30 s after the end)


def test_a_spectator_whose_first_word_had_not_reached_the_table_when_it_ended_judges_nothing() -> None:
    """Seed 20605 of a quick sweep: the cheat was named at the deal, 0.04 virtual s in, and the
    table closed; the spectator's ``watch`` was still held on the wire (a chunk reordered after
    one that never came), so it never got in and said the table closed.  It saw nothing: it is
    no result to compare with the seats', as for a spectator whose link failed then."""
    table = played(20605, {"gone", "kill", "reorder"}, cheat=simcheats.wrong_key, quick=True)
    assert table.results["watch0"] is None
    assert all(table.results[n].text.startswith("aborted: yellow (seat2) broke the rules") for n in ("host", "seat1"))


def test_a_spectator_whose_watch_point_went_as_the_game_ended_gets_the_end_from_the_host() -> None:
    """Seed 51746 of a quick sweep: the spectator followed seat2's watch point, and seat2 was
    killed 0.3 virtual s before the game ended; seat1's watch point closed as the spectator
    reached it, and the host's link to it was up, its ``watch`` still on the wire, when the
    host found no spectator to wait for and closed: the spectator said no watch point answered
    for 600 s.  A link up that has not said what it wants counts, for the end's wait, as a
    spectator: the host serves it the last steps."""
    table = played(51746, {"delay", "duplicate", "kill", "partition", "reorder"}, quick=True)
    assert table.counts.get("kill") == 1
    assert table.results["watch0"].text == table.results["host"].text
    (text,) = texts(table)
    assert " win" in text


@pytest.mark.parametrize("seed,faults", [
    (55279, {"delay", "gone", "kill", "partition", "reorder"}),
    (58963, {"corrupt", "cut", "delay", "duplicate", "gone", "reorder", "stale"}),
    (63276, {"delay", "duplicate", "gone", "partition", "reorder"}),
])
def test_a_spectator_whose_watch_point_went_as_the_game_ended_is_served_through_its_handshake(
        seed: int, faults: set[str]) -> None:
    """Seeds of a quick sweep (issue 24): the seat whose watch point the spectator followed was
    killed (55279, started again later) or gone for good (58963, 63276) in the game's last second;
    the spectator linked to another seat's watch point and to the host's, and each ended its game
    while the handshake of that link was under way (each chunk up to 0.4 s on the wire): counting
    no spectator, it closed, and the spectator said no watch point answered for 600 s.  The end's
    wait counts a link whose handshake is under way as one that has not said what it wants yet:
    the spectator gets the end from the first watch point it reaches."""
    table = played(seed, faults, quick=True)
    assert table.counts.get("kill", 0) + table.counts.get("gone", 0) == 1
    assert table.results["watch0"].text == table.results["host"].text
    (text,) = texts(table)
    assert " win" in text


@pytest.mark.parametrize("seed,faults,cheat", [
    (70156, {"duplicate", "kill", "stale", "still"}, simcheats.wrong_key),
    (71355, {"corrupt", "gone", "kill", "reorder"}, simcheats.illegal_move),
])
def test_a_spectator_that_reaches_a_seat_after_it_named_the_cheat_gets_its_evidence(seed: int, faults: set[str],
                                                                                    cheat) -> None:
    """Seeds 70156 and 71355 (likewise) of a quick sweep: at 70156 the spectator's links to the
    host and to the cheat's watch point broke (a chunk duplicated: a record replayed) as seat1
    named the cheat, and it reached seat1's watch point after that: seat1 had shown the evidence
    only to the spectators watching then, and its last word was the step under way and its
    ``bye``, so the spectator said only whom the game waited for.  A seat that named the cheat
    hands its evidence on in its last word, as the host does: the spectator checks it against
    its own log and names the cheat as the seats do."""
    table = played(seed, faults, cheat=cheat, quick=True)
    assert table.through["watch0"] == "seat1"
    text = table.results["host"].text
    assert text.startswith("aborted: ") and "(seat2) broke the rules" in text
    assert table.results["seat1"].text == table.results["watch0"].text == text, texts(table)


def test_a_cheat_whose_altered_frame_was_lost_before_a_seat_was_voted_out_cheated_nobody() -> None:
    """Seed 70381 of a quick sweep: as at seed 10586 the cheat's altered key was lost with its
    link and it sent again the honest one its log holds; the still seat was voted out, its link
    down as the table ended, and back 600 s later it found the host closed ("did not come
    back").  That is its own partial view, asked nothing of: the others ended the table on
    their votes, the host's transcript verifies as that, and nobody saw a cheat."""
    table = played(70381, {"cut", "duplicate", "partition", "reorder", "stale", "still"},
                   cheat=simcheats.wrong_key, quick=True)
    assert table.cheated
    out = {name for name, seat in table.seat_of.items() if seat in table.results["host"].ending.stop.gone}
    assert out == {"seat1"} and table.results["seat1"].text.startswith("paused: ")
    (text,) = {r.text for name, r in table.results.items() if name not in out and table.through.get(name) not in out}
    assert text.startswith("abandoned: ") and "broke the rules" not in text
