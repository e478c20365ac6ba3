"""A joined seat killed in its own wait at the audit and started again from its save
(docs/fairness.md, *A log hash only the host can check*, "At the audit"): its journal
notes that wait, so the seat goes on with it rather than wait for a host that ended
the table.  Attacks on the simulator: what the seat heard before it was killed still
counts, and a program killed over and over still comes to the end of its wait."""
from __future__ import annotations

import asyncio
from pathlib import Path

from ankh.net.io import sim
from ankh.net.io.watchers import SETTLE
from ankh.net.play.events import Alert

from . import simtable
from .test_attack_review6 import GREEN
from .test_audit_alone import RefusesGreensDisclosureAlone


async def honest_green_refused(t: sim.Scene) -> None:
    """The host refuses green's honest disclosure on its word alone; yellow keeps its own wait."""
    await t.host(seats=3, core=RefusesGreensDisclosureAlone)
    t.join("joiner 1")
    await t.until("host", lambda e: getattr(e, "seat", None) == 1)
    t.join("joiner 2")
    await t.when(lambda: t.nodes["joiner 1"].core.provisional)


def test_a_disclosure_heard_before_the_seat_was_killed_still_clears_its_seat_once_started_again(
        tmp_path: Path) -> None:
    """Yellow hears green's honest disclosure on the direct link, then is killed; green's
    words no longer reach it (its program, say, is done saying them).  Started again,
    yellow goes on with its wait and still names nobody: the note in its journal says
    green's disclosure came round (a seat that forgot it would name green)."""
    async def script(t: sim.Scene):
        await honest_green_refused(t)
        await t.when(lambda: GREEN in t.nodes["joiner 1"].core.disclosed)
        await asyncio.sleep(t.nodes["joiner 1"].core.here_every() + 1)  # (a beat: the note is on the disk)
        t.darken("joiner 2", "joiner 1")
        save = await t.kill("joiner 1")
        assert save is not None
        return await (await t.resume("joiner 1", save))

    t = simtable.scene(4, tmp_path)
    resumed = t.run(script)
    assert not resumed.forfeit and "(joiner 2)" not in resumed.text and resumed.partial, resumed.text
    assert "did not come back" not in resumed.text, "it did not wait for the host again"
    told = [str(e.text) for e in t.told["joiner 1"] if isinstance(e, Alert)]
    assert sum("this seat waits for the disclosure of green" in text for text in told) == 2, told


def test_a_seat_killed_again_and_again_in_its_own_wait_still_comes_to_its_end(tmp_path: Path) -> None:
    """Green withholds its disclosure (the host refuses it, green goes dark to yellow);
    yellow is killed in its wait, started again and killed again a second later, three
    times over: each start takes at least a beat off what is left (a note that could
    not be written since counts as that beat), so the wait is never longer than it had
    left, and it ends naming nobody: green's link to it never came back."""
    async def script(t: sim.Scene):
        await honest_green_refused(t)
        t.darken("joiner 2", "joiner 1")
        await asyncio.sleep(20)
        lefts = [t.nodes["joiner 1"].core.late_left()]
        for _ in range(3):
            old = t.nodes["joiner 1"]
            save = await t.kill("joiner 1")
            assert save is not None
            await t.resume("joiner 1", save)
            await t.when(lambda: t.nodes["joiner 1"] is not old and t.nodes["joiner 1"].core.provisional)
            lefts.append(t.nodes["joiner 1"].core.late_left())
            await asyncio.sleep(1)
        save = await t.kill("joiner 1")
        again = t.loop.time()
        resumed = await (await t.resume("joiner 1", save))
        return lefts, t.loop.time() - again, resumed

    t = simtable.scene(4, tmp_path)
    lefts, took, resumed = t.run(script)
    beat = t.nodes["joiner 1"].core.here_every()
    assert lefts[0] - beat <= lefts[1] <= lefts[0], (lefts, beat)  # (the last note came within a beat of the kill)
    assert all(later <= earlier - beat + 1e-6 for earlier, later in zip(lefts[1:], lefts[2:])), (lefts, beat)
    # (its program then gives spectators their last seconds: green's new link, held dark
    # in its handshake, may be one coming for the end)
    assert took <= lefts[-1] - beat + SETTLE + 1e-6, (lefts, took, beat)
    assert not resumed.forfeit and "waited for green" in resumed.text, resumed.text
