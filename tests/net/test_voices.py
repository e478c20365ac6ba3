"""An ending no voter can bend (docs/fairness.md, *A seat that leaves for good*):
votes count by voice (a program and the bots it runs are one), one voice
alone never ends a table that began with three voices or more, a seat signs
a vote only on its own clock, and the table's clocks and voices are bound
into the roster's hash, so into what spectators and ``ankh verify`` check.

The cheating hosts are the real host's table with one thing changed
(``core=``), on the simulator."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ankh.net.files import verify
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.play.events import Joined
from ankh.net.io import sim
from ankh.net.play.leave import Ending, Patience, Silence, Stop, can_end, check_votes, needed, vote
from ankh.net.wire.lobby import Lobby, Seat, Start
from ankh.net.play.peer import AUDIT
from ankh.net.tablecore.host import HostTable
from ankh.net.files.transcript import Charter, Roster, Transcript

from . import simtable
from .nethelp import small_decks, table
from .simtable import exit_status, verify as verify_cli

# -- the rule --------------------------------------------------------------------------------------


def test_more_than_half_of_the_voices_left_and_never_one_voice_alone_at_a_table_of_three() -> None:
    people3, people4 = (0, 1, 2), (0, 1, 2, 3)
    assert needed(people3, (2,)) == 2 and can_end(people3, (2,))
    assert not can_end(people3, (1, 2))  # the host alone names both joiners gone: never
    assert needed(people4, (3,)) == 2 and needed(people4, (2, 3)) == 2 and not can_end(people4, (1, 2, 3))
    assert needed((0, 1), (1,)) == 1 and can_end((0, 1), (1,))  # a table of two: the one left ends it
    host_and_bot = (0, 0, 2)  # red hosts with its bot at yellow; green is the one other person
    assert can_end(host_and_bot, (2,)) and needed(host_and_bot, (2,)) == 1  # two voices: as a table of two
    bots_and_two = (0, 0, 2, 3)  # three voices: red (and its bot), green, blue
    assert not can_end(bots_and_two, (2, 3))  # red and its bot are one voice, alone
    assert needed(bots_and_two, (3,)) == 2


@pytest.fixture(scope="module")
def both_away() -> tuple:
    """A table of three people whose roll waits for Bob and Cat (seats 1 and 2)."""
    t = table(3, seed=b"voices", decks=small_decks())
    t.wire = lambda f, s, r: None if s in (1, 2) else f
    from ankh.net.play.ops import Roll
    for s in t.seats:
        s.request(Roll("never settled"))
    t._pump()
    L = t.seats[0].ledger
    return t, t.transcript(0), L.index, L.basis


def test_one_voice_naming_every_other_gone_is_refused_by_the_rule_and_by_verify(both_away) -> None:
    t, transcript, step, basis = both_away
    votes = [vote(t.seats[0].secrets, Stop(step, basis, (1, 2)))]
    with pytest.raises(RemoteProtocolError, match="one voice alone cannot end a table of 3 voices"):
        check_votes(t.roster, votes, step=step, basis=basis, waited=(1, 2))
    report = verify.verify_transcript(Transcript(t.roster, transcript.ops, transcript.pending, end=votes).to_bytes())
    assert report.status == "violation" and "one voice alone" in str(report), str(report)


def test_a_program_and_its_bots_vote_as_one_voice_and_a_departed_voice_votes_not(both_away) -> None:
    t, _transcript, step, basis = both_away
    stop = Stop(step, basis, (2,))
    # as a table told by its lobby that seat 1 is the host's bot (no charter: the last release's
    # tables): two voices, red's and cat's; red alone may end it without cat, as at a table of two
    ending = check_votes(t.roster, [vote(t.seats[0].secrets, stop)], step=step, basis=basis, waited=(1, 2),
                         bots=(1,))
    assert ending.voters == (0,)
    # the same vote at a table of three people: one voice of the two left is not enough
    with pytest.raises(RemoteProtocolError, match="it takes 2 of the 2 voices left"):
        check_votes(t.roster, [vote(t.seats[0].secrets, stop)], step=step, basis=basis, waited=(1, 2))
    # the host named gone, its bot votes on: refused
    gone_host = Stop(step, basis, (0,))
    with pytest.raises(RemoteProtocolError, match="voice the votes say left"):
        check_votes(t.roster, [vote(t.seats[s].secrets, gone_host) for s in (1, 2)], step=step, basis=basis,
                    bots=(1,))


def test_the_host_makes_no_offer_when_one_voice_would_be_left_it_stops_instead(both_away) -> None:
    t, _transcript, step, basis = both_away
    p = Patience(t.roster, gone_after=60, move_clock=300)
    p.tick(100.0, step, basis, (1, 2), {1: 0.0, 2: 0.0}, local=(0,))
    assert p.offer is None and p.alone
    p.tick(101.0, step, basis, (1, 2), {1: 0.0}, local=(0,))  # Cat connected again, thinking: Bob alone away
    assert p.offer == Stop(step, basis, (1,)) and not p.alone


def test_a_seat_signs_on_its_own_silence_not_on_the_hosts_count() -> None:
    s = Silence(0.0)
    s.tick(10.0, 7, (2,))
    s.heard_from(2, 30.0)
    stop = Stop(7, bytes(32), (2,))
    assert not s.ready(stop, 89.0, 60)  # the host says 65 s: our own clock says 59
    assert s.ready(stop, 90.0, 60)
    s.tick(91.0, 8, (2,))  # the game moved on: the wait starts again at the new step
    assert not s.ready(stop, 200.0, 60) and not s.ready(Stop(8, bytes(32), (2,)), 150.0, 60)
    assert s.ready(Stop(8, bytes(32), (2,)), 151.0, 60)
    assert not s.ready(Stop(8, bytes(32), (1,)), 1000.0, 60)  # our log does not wait for seat 1


# -- the charter in the roster's hash ------------------------------------------------------------------

def test_the_clocks_and_voices_are_in_the_start_and_the_roster_hash_and_an_old_start_reads_as_before() -> None:
    lobby = Lobby(bytes(16), 3, gone_after=90, move_clock=400)
    for i, (name, bot) in enumerate((("ann", False), ("bot 1", True), ("cat", False))):
        lobby.seats.append(Seat(name, bytes([i + 1]) * 32, bytes([i]) * 16, bot))
    msg = lobby.start_message()
    assert msg["voices"] == [0, 0, 2] and (msg["gone"], msg["clock"]) == (90, 400)
    start, seat = Start.from_message(msg, my_key=bytes([3]) * 32, my_nonce=bytes([2]) * 16,
                                     bots={bytes([2]) * 32})
    assert seat == 2 and start.charter == Charter(90, 400, (0, 0, 2))
    with pytest.raises(RemoteProtocolError, match="bots are not the ones its lobby showed"):
        Start.from_message(msg, my_key=bytes([3]) * 32, my_nonce=bytes([2]) * 16, bots=set())
    for forged in ([0, 0, 0], [0, 1, 1], [1, 1, 2]):  # cat spoken for by another; a voice seated after
        with pytest.raises(RemoteProtocolError):
            Start.from_message({**msg, "voices": forged}, my_key=bytes([3]) * 32, my_nonce=bytes([2]) * 16)
    old = {k: v for k, v in msg.items() if k != "voices"}
    with pytest.raises(RemoteProtocolError, match="clocks and voices are missing"):
        Start.from_message(old, my_key=bytes([3]) * 32, my_nonce=bytes([2]) * 16, bots={bytes([2]) * 32})
    # a save of the last release (its start without voices) reads, with no charter: its hash as it was
    saved, _ = Start.from_message(old, my_key=bytes([3]) * 32, my_nonce=bytes([2]) * 16)
    assert saved.charter is None and (saved.gone_after, saved.move_clock) == (90, 400)


def test_verify_refuses_a_record_whose_clocks_were_shortened_after_the_fact(both_away, tmp_path: Path) -> None:
    t, transcript, _step, _basis = both_away
    r = t.roster
    bound = Roster(r.game_id, r.names, r.keys, r.identities, r.certs, r.kind, Charter(60, 300, (0, 1, 2)))
    assert bound.digest() != r.digest() and Roster(r.game_id, r.names, r.keys, r.identities, r.certs,
                                                   r.kind).digest() == r.digest()
    # the game as played (no charter here) verifies; the same frames under a charter that says
    # otherwise do not: every signature covers the roster's hash
    good = Transcript(r, transcript.ops, transcript.pending).to_bytes()
    assert verify.verify_transcript(good).violations == ()
    forged = Transcript(bound, transcript.ops, transcript.pending).to_bytes()
    report = verify.verify_transcript(forged)
    assert report.status == "violation", str(report)


# -- on the simulator: the breaks of issue 26 ---------------------------------------------------------

def watched(core: type[HostTable]):
    """A table of three hosted by ``core``, two joiners and a spectator: how each ends."""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=3, core=core)
        await seat_two(t)
        t.watch("watch0")
        return await t.results("host", "joiner 1", "joiner 2", "watch0")
    return script


async def seat_two(t: sim.Scene) -> None:
    for n in (1, 2):
        t.join(f"joiner {n}")
        await t.until("host", lambda e, n=n: isinstance(e, Joined) and e.seat == n)


class LoneEnder(HostTable):
    """Break 1: once a step waits for both joiners, the host drops what they
    send, signs alone that both left, and ends the table."""

    deaf = False

    def received(self, seat: int, msg: dict) -> bool:
        if msg["t"] == "frames" and self.hub is not None and self.result is None:
            host = self.hub.host
            if not self.deaf and host.phase != AUDIT and host.protocol.ledger.index >= 12 \
                    and {1, 2} <= set(host.waiting_for()):
                self.deaf = True
            if self.deaf:
                return False
        return super().received(seat, msg)

    def tick(self) -> None:
        if self.deaf and self.result is None and self.hub is not None:
            host = self.hub.host
            step, basis = host.stop()
            stop = Stop(step, basis, (1, 2))
            votes = (vote(host.protocol.secrets, stop),)
            self._last_words([{"t": "ended", "votes": list(votes)}], spare=(1, 2))
            self.record_ending(host, Ending(stop, (0,), votes))
            return
        super().tick()


@pytest.mark.parametrize("seed", [3, 11, 19])
def test_a_host_alone_cannot_end_a_table_of_three_for_the_spectator_or_verify(tmp_path: Path, seed: int) -> None:
    t = simtable.scene(seed, tmp_path)
    host, one, two, watcher = t.run(watched(LoneEnder))
    assert t.nodes["host"].table.deaf  # the cheat struck
    assert host.text.startswith("abandoned: red says yellow and green left")  # its own word
    for joiner in (one, two):
        assert joiner.text.startswith("aborted: the host ended the table without the seats' agreement"), joiner.text
    assert not watcher.text.startswith("abandoned"), watcher.text
    rc, out = verify_cli(simtable.transcript(t, "host"))
    assert rc == 1 and "one voice alone cannot end a table of 3 voices" in out, out


class Hurried(HostTable):
    """Break 3: while the game waits for green, the host holds green's frames
    and says green has been gone 65 s; ten seconds later it lets them through."""

    held: list | None = None
    since = 0.0
    voters: set

    def received(self, seat: int, msg: dict) -> bool:
        if self.held is None and seat == 2 and msg["t"] == "frames" and self.hub is not None \
                and self.hub.host.protocol.ledger.index >= 12 and self.hub.host.phase != AUDIT:
            self.held, self.since, self.voters = [], self.clock(), set()
        if self.held is not None and self.since and seat == 2 and msg["t"] == "frames":
            self.held.append(msg)
            return False
        if msg["t"] == "vote" and self.held is not None:
            self.voters.add(seat)
        return super().received(seat, msg)

    def tick(self) -> None:
        if self.held is not None and self.since:
            if self.clock() - self.since < 10:
                self.gone_since[2] = self.clock() - 65  # "green has been gone 65 s"
            else:
                self.since = 0.0  # the lie is over: green's frames go on
                self.gone_since.pop(2, None)
                held, self.held = self.held, []
                for msg in held:
                    super().received(2, msg)
        super().tick()


@pytest.mark.parametrize("seed", [4, 12, 20])
def test_a_host_cannot_shorten_the_gone_wait_for_a_third_seat(tmp_path: Path, seed: int) -> None:
    t = simtable.scene(seed, tmp_path)
    results = t.run(watched(Hurried))
    core = t.nodes["host"].table
    assert core.held is not None  # the lie was told
    assert 1 not in core.voters  # yellow heard from green less than the gone-wait ago: it signed nothing
    texts = {r.text for r in results}
    assert len(texts) == 1 and all(exit_status(r) == 0 for r in results), texts
    path = simtable.transcript(t, "host")
    rc, out = verify_cli(path)
    assert rc == 0 and out.startswith("fair: "), out
    # the table's clocks are in the file, bound into every signature: shortened there, nothing verifies
    played = Transcript.load(path)
    assert played.roster.charter == Charter(60, 300, (0, 1, 2))
    for forged in (Charter(1, 300, (0, 1, 2)), Charter(60, 1, (0, 1, 2)), Charter(60, 300, (0, 0, 2))):
        path.write_bytes(Transcript(replace(played.roster, charter=forged), played.ops).to_bytes())
        rc, out = verify_cli(path)
        assert rc == 1 and out.startswith("violation: "), out


def test_a_table_reduced_to_one_voice_pauses_naming_nobody_and_carries_on_from_its_save(tmp_path: Path) -> None:
    """Both joiners of a table of three drop for longer than the gone-wait: the
    host alone may not end it.  It pauses (its save a game under way, which
    ``ankh verify`` calls incomplete), and once all three start again from
    their saves the game is played to its end."""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=3, gone_after=3)
        await seat_two(t)
        await t.until("joiner 2", simtable.decided(1))
        saves = [await t.kill("joiner 1"), await t.kill("joiner 2")]
        (paused,) = await t.results("host")
        assert paused.text.startswith("paused: every other player is away, and one player alone does not end a "
                                      "table of three or more; the game is saved in "), paused.text
        host_save = t.nodes["host"].table.save_path
        rc, out = verify_cli(host_save / "journal.ankh")
        assert rc == 3 and out.startswith("incomplete: "), out
        await t.resume("host", host_save)
        for n, save in zip((1, 2), saves):
            await t.resume(f"joiner {n}", save)
        return await t.results("host", "joiner 1", "joiner 2")

    t = simtable.scene(6, tmp_path)
    results = t.run(script)
    texts = {r.text for r in results}
    assert len(texts) == 1 and all(exit_status(r) == 0 for r in results), texts
