"""A third review of the seats' direct links around the host (``net/io/seatlinks.py``,
``JoinTable.seat_said``): a seat, the host and a spectator cheat, on the
simulator, to keep a table from ever ending, to get an honest seat blamed or
named gone, or to keep an honest seat from the evidence.  A test here asserts
what an honest person must see; where the system does not hold yet, it is
marked ``xfail(strict=True)`` with the mechanism."""
from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from ankh.core.game import COLOURS
from ankh.net.wire.envelope import HEADER_LEN, seal, signed_slot
from ankh.net.play.events import Alert, Over
from ankh.net.io import sim
from ankh.net.wire.lobby import encode
from ankh.net.tablecore.effects import Broadcast, Send, TellSeats
from ankh.net.tablecore.join import HELD, JoinTable

from . import simtable
from .nethelp import decode
from .test_attack_links import EndsAsItRobs, dial_green, robbing, seat_both, three_seats, unsigned, watch_each
from .test_seat_links import DeafToGreen, DropsTheThiefsWord, deaf_to_green

JOINERS = ("joiner 1", "joiner 2")


def signed_ahead(frame: bytes, identity: Any, ahead: int, step: int | None = None) -> bytes:
    """``frame`` signed again by its sender under a sequence number ``ahead`` further
    on (one its log holds nothing for yet), for step ``step`` if given."""
    payload = decode(frame)
    body = payload["body"] if step is None else {**payload["body"], "op": {**payload["body"]["op"], "i": step}}
    return seal(identity, payload["from"], payload["game"], payload["seq"] + ahead, payload["kind"], body)


# -- 1. a seat that keeps its move from the host, and says it on the seat links only ----------------

class KeepsItsMoveFromTheHost(JoinTable):
    """From its move at step 12 on, sends the host nothing more (its link stays up,
    as a hung program's would), but says on its direct links, as every seat does,
    the last frame it signed: one the other seats' logs do not hold."""

    withholding = False

    def _outgoing(self, frames: list[bytes]) -> list[bytes]:
        if frames and self.peer is not None and self.peer.ledger().index >= 12:
            self.withholding = True
        return [] if self.withholding else frames


class KeepsItsMoveFromEveryone(KeepsItsMoveFromTheHost):
    """The same, silent on its direct links too: a seat that hung."""

    def say_here(self) -> None:
        if not self.withholding:
            super().say_here()


class MakesUpAFrameFarAhead(KeepsItsMoveFromEveryone):
    """Hangs, but says on its direct links a frame it signs for the purpose: its
    last one again, under a sequence number a million ahead (never to be sent)."""

    ahead = 10**6  # sequence numbers past its last frame
    later = 0  # steps past its last frame's (0: that one's)

    def say_here(self) -> None:
        super().say_here()
        if self.withholding and self.secrets is not None:
            protocol = self.peer.protocol
            mine = [2**32] * protocol.roster.size
            mine[self.seat] = protocol.have()[self.seat] - 1
            last = protocol.frames_after(mine)[-1]
            step = decode(last)["body"]["op"]["i"] + self.later if self.later else None
            ahead = signed_ahead(last, self.secrets.identity, self.ahead, step)
            self._do(TellSeats({"t": "mine", "f": ahead}, keep=False))


def yellow_withholds(tmp_path: Path, core: type[JoinTable]) -> tuple[sim.Scene, list]:
    """A table of three whose yellow plays as ``core`` (one that keeps its moves from
    the host from some point on: ``withholding``), played until the host and
    green end, an hour at most after that point: the scene, and how the host and
    green ended (it fails if they still wait then)."""
    async def script(t: sim.Scene) -> Any:
        await t.host(seats=3, move_clock=60, gone_after=60)
        t.join("joiner 1", core=core)
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2")
        await t.when(lambda: t.nodes["joiner 1"].core.withholding)
        try:
            return await asyncio.wait_for(t.results("host", "joiner 2"), 3600)
        except TimeoutError:
            return None

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    green = t.nodes["joiner 2"].core
    assert results is not None, (
        f"an hour later the table still waits for yellow (green last heard yellow at {green.silence.heard.get(1)})")
    return t, results


@pytest.mark.parametrize("core,goes_on", [
    (KeepsItsMoveFromEveryone, False),
    (KeepsItsMoveFromTheHost, True),
    (MakesUpAFrameFarAhead, False),
], ids=["silent everywhere", "says it on the seat links", "says a made-up frame far ahead"])
def test_a_seat_that_keeps_its_move_from_the_host_but_tells_the_seats_cannot_hold_the_table_for_ever(
        tmp_path: Path, core: type[JoinTable], goes_on: bool) -> None:
    """Yellow moves, sends its move only on its seat link (or nowhere), and
    then waits with its link up.  Green hears yellow's new frame there every ten
    seconds.  The table must not wait for ever: either the move reaches the
    host another way and the game goes on (green hands it on: ``theirs``), or
    the host and green end it.  (Green, hearing yellow, never signed that it
    left, and the table waited an hour and more.)"""
    _, results = yellow_withholds(tmp_path, core)
    if goes_on:  # every move of yellow's reached the host around it, to the game's end
        assert all(r.finished and r.fair for r in results) and len({r.text for r in results}) == 1, results
    else:
        assert all("say yellow left the game" in r.text for r in results), [r.text for r in results]


# -- 4. the host's bye, then the thief's evidence: one ending, everywhere --------------------------


def late_evidence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *,
                  watched: bool) -> tuple[sim.Scene, dict[str, str], str]:
    """The host robs the thief and says ``bye`` at once (``EndsAsItRobs``): the scene,
    how each joiner (and, ``watched``, a spectator through each) ended, and the
    joiner that was not robbed, whose result the thief's evidence replaces."""
    names = (*JOINERS, *((f"watch {n}" for n in JOINERS) if watched else ()))

    async def script(t: sim.Scene) -> list:
        host = await seat_both(t, EndsAsItRobs)
        robbing(monkeypatch, host.table)
        if watched:
            await watch_each(t)
        return await t.results(*names)

    t = simtable.scene(3, tmp_path)
    by_name = dict(zip(names, (r.text for r in t.run(script))))
    host = t.nodes["host"].table
    if not host.robbed:
        pytest.fail("nobody stole from the host in this game: the seed cannot test this")
    (thief,) = host.robbed
    other = JOINERS[1 - (thief - 1)]
    assert by_name[other].startswith("aborted: red (host) broke the rules"), by_name  # (what the LATE linger mends)
    return t, by_name, other


def test_the_spectators_of_a_seat_whose_result_the_late_evidence_replaced_see_that_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host robs the thief and says ``bye`` at once; the other joiner names the
    host once the thief's evidence reaches it on the seat link (``LATE``).  Its
    spectators, and its screen, must say so too: one ending, the host named."""
    t, by_name, other = late_evidence(tmp_path, monkeypatch, watched=True)
    endings = [e.result.text for e in t.told[other] if isinstance(e, Over)]
    assert by_name[f"watch {other}"] == by_name[other] and len(endings) == 1, (by_name, endings)


# -- 2. an honest seat that crashed and carried on is not framed as signing twice ----------------

class HandsOnGreensWord(JoinTable):
    """Keeps every frame green says on its seat link (``mine``) and hands each to
    the host as "evidence": were green, carried on from its journal, ever to sign
    another frame under a number it had used before, the pair would name it."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.greens: list[bytes] = []

    def seat_said(self, seat: int, msg: dict[str, Any]) -> None:
        if seat == 2 and msg["t"] == "mine" and self.result is None:
            self.greens.append(msg["f"])
            self._do(Send(0, {"t": "blame", "f": [msg["f"]]}))
        super().seat_said(seat, msg)


def thinking(t: sim.Scene, secs: float = 3.0) -> Any:
    """A bot that thinks ``secs`` (virtual) seconds over each move: the seats say
    "mine" on their links many times in a game."""
    bot = t.bot()

    async def decide(peer: Any, decision: Any) -> Any:
        await asyncio.sleep(secs)
        return await bot(peer, decision)
    return decide


def mid_step(node: Any) -> bool:
    """``node``'s own part of the step under way is signed, and the step waits for others."""
    peer = node.core.peer
    if peer is None:
        return False
    ledger = peer.protocol.ledger
    return ledger.op is not None and node.core.seat in ledger.got and bool(ledger.pending())


@pytest.mark.parametrize("when", ["mid step", "after a move"])
def test_a_seat_killed_and_carried_on_from_its_journal_signs_nothing_twice(tmp_path: Path, when: str) -> None:
    """Green is killed (its part of a step out, or just after a move) and started
    again from its save.  Every frame it said on its seat links, before and after,
    is the one the log holds under that number, and the game ends fair."""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=3, decide=thinking(t), gone_after=20, move_clock=20)  # each seat says "mine" every 5 s
        t.join("joiner 1", core=HandsOnGreensWord, decide=thinking(t))
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2", decide=thinking(t))
        await t.until("host", lambda e: getattr(e, "seat", None) == 2)
        green = t.nodes["joiner 2"]
        if when == "mid step":
            await t.when(lambda: green.core.peer is not None and green.core.peer.ledger().index > 6
                         and mid_step(green))
        else:
            await t.until("joiner 2", simtable.decided(1))
        save = await t.kill("joiner 2")
        assert save is not None
        task = await t.resume("joiner 2", save, decide=thinking(t))
        return [await t.tasks["host"], await t.tasks["joiner 1"], await task]

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert len({r.text for r in results}) == 1 and all(r.finished and r.fair for r in results), \
        [r.text for r in results]
    yellow = t.nodes["joiner 1"].core
    protocol = yellow.peer.protocol
    log = {signed_slot(f, protocol.ledger.keyring, protocol.roster.game_id): f
           for _, frames in protocol.ledger.log for f in frames}
    said = {signed_slot(f, protocol.ledger.keyring, protocol.roster.game_id): f for f in yellow.greens}
    assert len(said) >= 2 and all(log[slot] == frame for slot, frame in said.items())




def test_the_journal_of_a_seat_whose_result_the_late_evidence_replaced_keeps_the_evidence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host robs the thief and says ``bye`` at once; the other joiner names the
    host once the thief's evidence comes round.  Its save must say so too:
    ``ankh verify`` of it names the host (docs/fairness.md: "replaces the
    result ... in its journal")."""
    t, _, other = late_evidence(tmp_path, monkeypatch, watched=False)
    code, out = simtable.verify(t.nodes[other].save.path)
    assert code == 1 and "red" in out and "host" in out, (code, out)


# -- 2b. the journal's last step lost with the machine (written, never synced to disk) ------------

class RemembersItsJournal(JoinTable):
    """Notes how long its journal was when it decided a move of two options or more
    (the length the disk may still hold if the machine goes down as it sends it:
    ``SaveDir.append`` flushes, it does not sync)."""

    before: int | None = None
    frames_then = 0

    def decided(self, seat: int, decision: Any, option: tuple) -> None:
        if self.before is None and len(decision.options) >= 2 and self.save_path is not None:
            self.before = (self.save_path / "journal.ankh").stat().st_size
            self.frames_then = self.peer.protocol.have()[self.seat]
        super().decided(seat, decision, option)


def choosing(index: int) -> Any:
    """A player that takes a second over each move and picks its ``index``-th option."""
    async def decide(peer: Any, decision: Any) -> Any:
        await asyncio.sleep(1.0)
        return decision.options[index if len(decision.options) > 1 else 0]
    return decide


def test_a_seat_whose_machine_lost_the_move_it_sent_carries_on_and_names_nobody(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Green decides a move and sends it; its machine goes down at once, and the
    disk keeps only what was synced.  The journal was synced before the move
    went out, so green carries on with it: nobody honest is named, nobody is
    voted gone, and the game ends fair (before, a journal flushed but not
    synced could lose the move, and green then refused it from the host,
    naming the honest host)."""
    synced: dict[str, int] = {}
    real = os.fdatasync

    def fdatasync(fd: int) -> None:
        real(fd)
        synced[os.readlink(f"/proc/self/fd/{fd}")] = os.fstat(fd).st_size
    monkeypatch.setattr(os, "fdatasync", fdatasync)

    async def script(t: sim.Scene) -> list:
        host = await t.host(seats=3, decide=thinking(t, 1.0))
        t.join("joiner 1", decide=thinking(t, 1.0))
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2", core=RemembersItsJournal, decide=choosing(0))
        await t.until("host", lambda e: getattr(e, "seat", None) == 2)
        green = t.nodes["joiner 2"]
        await t.when(lambda: green.core.before is not None
                     and host.table.hub.host.protocol.have()[2] > green.core.frames_then)
        on_disk = synced.get(str((green.core.save_path / "journal.ankh").resolve()), 0)
        assert on_disk > green.core.before  # the move's step reached the disk before the host had it
        save = await t.kill("joiner 2")
        assert save is not None
        with open(save / "journal.ankh", "r+b") as fh:  # the power cut: what was not synced is gone
            fh.truncate(on_disk)
        task = await t.resume("joiner 2", save, decide=choosing(0))
        return [await t.tasks["host"], await t.tasks["joiner 1"], await task]

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert len({r.text for r in results}) == 1 and all(r.finished and r.fair for r in results), \
        [r.text for r in results]


# -- 3. the seats "reached" directly: only a person's seat, its key proved, counts ---------------

def test_neither_the_host_nor_a_spectator_can_stand_in_for_a_seat_green_never_reached(tmp_path: Path) -> None:
    """Yellow and green cannot reach each other (a Wi-Fi that isolates its clients).
    The host's identity and a spectator's each link to green's watch point saying
    they are yellow (seat 1), then hand it a "mine" and a "blame".  Green takes
    none of it as a link to yellow: once yellow is gone, it is told it cannot
    agree to end the table without yellow, and signs no vote."""
    async def script(t: sim.Scene) -> Any:
        t.darken("joiner 1", "joiner 2")
        t.darken("joiner 2", "joiner 1")
        host = await t.host(seats=3, move_clock=30, gone_after=30)
        t.join("joiner 1")
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2")
        t.watch("watch")
        await t.until("joiner 2", simtable.decided(1))
        green = t.nodes["joiner 2"]
        log = [f for _, frames in green.core.peer.ledger().log for f in frames]
        tried = []

        async def stand_in() -> None:
            for name in ("host", "watch"):
                conn = await dial_green(t, name, 1)
                conn.send_nowait(encode({"t": "mine", "f": [f for f in log if f[0] == 1][-1]}))
                conn.send_nowait(encode({"t": "blame", "f": [unsigned(10 ** 6)]}))
                tried.append(name)
        t.start("mallory", stand_in)
        await t.when(lambda: len(tried) == 2)
        await t.kill("joiner 1")
        told = await t.until("joiner 2", lambda e: isinstance(e, Alert) and "cannot agree" in str(e.text))
        await asyncio.sleep(300)
        return green.core, host.table, told

    t = simtable.scene(4, tmp_path)
    green, host, told = t.run(script)
    assert green.reached == set() and green._handed == {}, (green.reached, green._handed)
    assert f"without {COLOURS[1]}" in str(told.text)
    assert green.result is None and (host.result is None or "left" not in host.result.text)


# -- 5. a seat that never says it heard the evidence ------------------------------------------------

def test_a_seat_that_never_says_heard_keeps_the_thief_no_longer_than_the_tables_longer_clock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host robs the thief; nothing the other joiner writes reaches the thief any
    more (its ``heard`` among it).  The other joiner still takes the evidence and
    names the host; the thief, which cannot know that, keeps its links and tries
    again for the longer of the table's clocks (300 s: the move clock), then its program ends:
    not sooner, never for ever."""
    async def script(t: sim.Scene) -> Any:
        host = await seat_both(t)
        await t.when(lambda: all(len(t.nodes[n].seats.out) == 1 for n in JOINERS))  # both links up
        robbing(monkeypatch, host.table, lambda thief: t.darken(JOINERS[2 - thief], JOINERS[thief - 1]))
        await t.when(lambda: bool(host.table.robbed))
        (thief,) = host.table.robbed
        name, other = JOINERS[thief - 1], JOINERS[2 - thief]
        await t.until(name, lambda e: isinstance(e, Over))
        ended = t.loop.time()
        try:
            result = await asyncio.wait_for(asyncio.shield(t.tasks[name]), 1200)
        except TimeoutError:
            pytest.fail(f"{name}'s program still runs twenty minutes after its result")
        return result, t.loop.time() - ended, await t.tasks[other], t.nodes[name].core

    t = simtable.scene(3, tmp_path)
    thief, lingered, other, core = t.run(script)
    assert thief.text.startswith("aborted: red (host) broke the rules"), thief.text
    assert other.text.startswith("aborted: red (host) broke the rules"), other.text
    assert core.took == set() and 300 <= lingered <= 330, (core.took, lingered)


# -- 2c. a twin made of an honest seat's own frame ---------------------------------------------------

def malleated(frame: bytes) -> list[bytes]:
    """Other byte strings for one signed frame: its signature's scalar plus the group
    order (the textbook Ed25519 malleability), and its payload with a byte more."""
    order = 2**252 + 27742317777372353535851937790883648493
    sig = frame[1:HEADER_LEN]
    s = int.from_bytes(sig[32:], "little") + order
    return [frame[:1] + sig[:32] + s.to_bytes(32, "little") + frame[HEADER_LEN:], frame + b"\x00"]


def test_an_honest_seats_frame_changed_on_the_wire_is_no_twin_of_it(tmp_path: Path) -> None:
    """Yellow hands green the host's last frame (as green holds it) in other bytes that
    would verify under a lax Ed25519 or a lax decoder, alone and beside the
    original: two frames "signed" under one number would name the host.  Green
    names nobody, and the game ends fair."""
    async def script(t: sim.Scene) -> list:
        await three_seats(t)
        await t.until("joiner 2", simtable.decided(2))
        green = t.nodes["joiner 2"].core
        ours = [f for _, frames in green.peer.ledger().log for f in frames if f[0] == 0][-1]
        for other in malleated(ours):
            for piece in ([other], [ours, other], [other, ours]):
                t.do("joiner 2", lambda: green.seat_said(1, {"t": "blame", "f": piece}))
        return await t.results("host", "joiner 1", "joiner 2")

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert len({r.text for r in results}) == 1 and all(r.finished and r.fair for r in results), \
        [r.text for r in results]


# -- 3b. "reached" once, then moved away: the host names another address later ------------------

# (A link that is up and proved stays up whatever address the host names later: SeatLinks.link.)


def elsewhere(host: Any) -> dict[str, Any]:
    """The host's ``points`` naming its own address for every joiner's watch point
    (no joiner's key answers there)."""
    return {"t": "points", "at": [{"host": host.bind, "port": host.port, "seat": s} for s in sorted(host.points)]}


def test_a_host_that_names_other_addresses_once_the_seats_linked_cannot_get_the_thief_named_gone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Yellow and green link to each other's watch points; the host then tells each
    that the other's watch point is at its own address, robs the thief and drops
    its evidence.  The other joiner must not sign that the thief left."""
    class Redirects(DropsTheThiefsWord):
        def redirect(self) -> None:
            self._do(Broadcast(elsewhere(self)))

    async def script(t: sim.Scene) -> list:
        host = await seat_both(t, Redirects)
        await t.when(lambda: all(len(t.nodes[n].core.reached) == 1 for n in JOINERS)
                     and all(len(t.nodes[n].seats.out) == 1 for n in JOINERS))
        t.do("host", host.table.redirect)
        at_the_host = (host.table.bind, host.table.port)
        await t.when(lambda: all(set(t.nodes[n].core.seat_points.values()) == {at_the_host} for n in JOINERS))
        assert all(len(t.nodes[n].seats.out) == 1 for n in JOINERS)  # the links that were up stay up
        robbing(monkeypatch, host.table)
        return await t.results(*JOINERS)

    t = simtable.scene(3, tmp_path)
    results = t.run(script)
    host = t.nodes["host"].table
    if not host.robbed:
        pytest.fail("nobody stole from the host in this game: the seed cannot test this")
    (thief,) = host.robbed
    other = JOINERS[2 - thief]
    text = dict(zip(JOINERS, results))[other].text
    assert "left" not in text, text


def test_a_host_that_names_other_addresses_then_keeps_back_a_seats_moves_cannot_get_it_signed_gone(
        tmp_path: Path) -> None:
    """As ``DeafToGreen`` (tests/net/test_seat_links.py), with the seats' links moved
    away first: the host tells each joiner that the other's watch point is at its
    own address, then takes nothing more from green.  Yellow must not sign that
    green left while green is there and has moved."""
    class MovesThenDeaf(DeafToGreen):
        def received(self, seat: int, msg: dict) -> bool:
            deaf = self.deaf_since
            done = super().received(seat, msg)
            if deaf is None and self.deaf_since is not None:
                self._do(Broadcast(elsewhere(self)))
            return done

    t = simtable.scene(3, tmp_path)
    host = t.run(deaf_to_green(MovesThenDeaf))
    assert 1 in t.nodes["joiner 2"].core.reached and 2 in t.nodes["joiner 1"].core.reached
    assert 1 not in host.voters and (host.result is None or "left" not in host.result.text), \
        host.result.text if host.result else host.voters


# -- 6. the hold for evidence ahead of the log: a seat fills its own share, never another's ------

def test_a_seat_that_signs_junk_for_the_next_steps_fills_only_its_own_share_of_the_hold(tmp_path: Path) -> None:
    """Yellow signs frames of its own for each of the next four steps and hands green
    eight pairs of them (its whole allowance): green keeps two of them at most
    until its log gets there, and room for the other seat's evidence stays."""
    async def script(t: sim.Scene) -> Any:
        await three_seats(t)
        await t.until("joiner 2", simtable.decided(1))
        yellow, green = t.nodes["joiner 1"].core, t.nodes["joiner 2"].core
        index = green.peer.ledger().index
        mine = [f for _, frames in green.peer.ledger().log for f in frames if f[0] == 1][-1]
        for n in range(8):
            ahead = signed_ahead(mine, yellow.secrets.identity, 100 + n, index + 1 + n % 4)
            t.do("joiner 2", lambda: green.seat_said(1, {"t": "blame", "f": [ahead, bytes(32)]}))
        return list(green._held), green.peer.ledger().index == index

    t = simtable.scene(4, tmp_path)
    held, still = t.run(script)
    assert still, "green's log moved on while yellow handed it the pieces: the test looks at nothing"
    assert 1 <= len(held) <= HELD // 2 and {by for _, _, by in held} == {1}, held
