"""Attacks on the notes of a joined seat's own wait at the audit (docs/fairness.md,
"At the audit": a seat started again in its own wait goes on with it; docs/lan.md,
saves and journals): notes doctored, cut, out of place or from another table, a
save carried on again once its wait named the forfeit, and the journal's size."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Callable

import msgpack
import pytest

from ankh.net.files import journal
from ankh.net.io import sim
from ankh.net.play.events import Alert
from ankh.net.tablecore.effects import Send
from ankh.net.tablecore.join import JoinTable

from . import simcheats, simtable
from .nethelp import decode
from .test_attack_review6 import GREEN
from .test_audit_alone import RefusesGreensDisclosureAlone

BOGUS = simcheats.resigning("audit", lambda body: body.__setitem__("basis", bytes(32)), 1)
TALKING = simcheats.talking(BOGUS)  # (and keeps talking on its direct links: it is there, and withholds)


def records(save: Path) -> list[Any]:
    """The records of the journal in ``save`` (its header first)."""
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed((save / journal.JOURNAL_FILE).read_bytes()[len(journal.pack(journal.MAGIC)):])
    return list(unpacker)


def rewrite(save: Path, kept: list[Any], tail: bytes = b"") -> None:
    (save / journal.JOURNAL_FILE).write_bytes(journal.pack(journal.MAGIC) + b"".join(journal.pack(r) for r in kept)
                                              + tail)


async def green_withholds(t: sim.Scene, talks: bool = False) -> None:
    """Green signs its disclosure over a bogus log hash; the host ends the table alone
    and yellow keeps its own wait for green.  Green's program ends on the host's word,
    or (``talks``) keeps talking on its direct links."""
    await t.host(seats=3)
    t.join("joiner 1")
    await t.until("host", lambda e: getattr(e, "seat", None) == 1)
    t.join("joiner 2", core=(TALKING if talks else BOGUS)(JoinTable))
    await t.when(lambda: t.nodes["joiner 1"].core.provisional)


async def resumed_after(t: sim.Scene, doctor: Callable[[Path], None], wait: float = 20) -> tuple[Path, Any, float]:
    """Yellow killed ``wait`` seconds into its own wait, its save then ``doctor``-ed and
    carried on: the save, how the seat ended (or what it raised), and how long it took."""
    await green_withholds(t)
    await asyncio.sleep(wait)
    save = await t.kill("joiner 1")
    assert save is not None
    doctor(save)
    again = t.loop.time()
    try:
        resumed = await (await t.resume("joiner 1", save))
    except Exception as exc:  # noqa: BLE001 - what a seat started again says
        resumed = exc
    return save, resumed, t.loop.time() - again


def notes(save: Path) -> list[dict[str, Any]]:
    return [r[journal.WAIT] for r in records(save) if journal.is_wait_note(r)]


def doctor_last_note(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    """The save's last note of the own wait changed by ``change``."""
    def doctor(save: Path) -> None:
        kept = records(save)
        (last,) = [i for i, r in enumerate(kept) if journal.is_wait_note(r)][-1:]
        change(kept[last][journal.WAIT])
        rewrite(save, kept)
    return doctor


def told(t: sim.Scene, name: str) -> list[str]:
    return [str(e.text) for e in t.told[name] if isinstance(e, Alert)]


def names_nobody(t: sim.Scene, save: Path, resumed: Any) -> None:
    """The seat started again named nobody (its host gone), and its save names nobody."""
    assert not resumed.forfeit and "withheld" not in resumed.text, resumed.text
    assert any("does not fit its log" in text for text in told(t, "joiner 1")), told(t, "joiner 1")
    code, out = simtable.verify(save)
    assert code == 3 and "violation" not in out, out


def test_a_note_whose_audit_frames_were_doctored_is_set_aside_naming_nobody(tmp_path: Path) -> None:
    """The host's audit disclosure in the last note is damaged: the seat started again
    must not forget that its log took it and name the host; it says the note does not
    fit, waits for the host as a save without notes does, and names nobody."""
    def damage(note: dict[str, Any]) -> None:
        assert any(f[:1] == b"\x00" for f in note["pending"]), note
        note["pending"] = [f[:-1] + bytes([f[-1] ^ 1]) if f[:1] == b"\x00" else f for f in note["pending"]]

    t = simtable.scene(4, tmp_path)
    save, resumed, _ = t.run(lambda t: resumed_after(t, doctor_last_note(damage)))
    names_nobody(t, save, resumed)


def test_a_note_from_another_table_fed_to_a_seat_names_nobody(tmp_path: Path) -> None:
    """The last note of a save of the same scene at another table (another game id)
    replaces this save's: its frames do not check against this log, so the note is
    set aside; the seat names nobody, and its save names nobody."""
    other = simtable.scene(5, tmp_path / "other")
    elsewhere, _, _ = other.run(lambda t: resumed_after(t, lambda save: None, wait=5))
    (foreign, *_) = notes(elsewhere)[-1:]

    def swap(note: dict[str, Any]) -> None:
        assert note["pending"] != foreign["pending"]
        note.update(foreign)

    t = simtable.scene(4, tmp_path / "here")
    save, resumed, _ = t.run(lambda t: resumed_after(t, doctor_last_note(swap)))
    names_nobody(t, save, resumed)


def test_a_note_with_absurd_seconds_left_waits_no_more_than_a_whole_own_wait(tmp_path: Path) -> None:
    t = simtable.scene(4, tmp_path)
    save, resumed, took = t.run(lambda t: resumed_after(t, doctor_last_note(lambda n: n.update(left=9e8))))
    half = t.nodes["joiner 1"].core.abandon_after / 2
    assert took <= half + 1e-6, (took, half)
    assert not resumed.forfeit and "waited for green" in resumed.text, resumed.text


def test_a_journal_cut_in_the_middle_of_its_last_note_goes_on_from_the_note_before(tmp_path: Path) -> None:
    """A crash in the middle of writing a note: the cut record is dropped as any cut
    last record is, and the seat goes on with the note before (no more time than it
    said was left), and names nobody: green's program, done, never links to it again."""
    said: list[float] = []

    def cut(save: Path) -> None:
        path = save / journal.JOURNAL_FILE
        assert journal.is_wait_note(records(save)[-1])
        said.append(notes(save)[-2]["left"])
        path.write_bytes(path.read_bytes()[:-7])

    t = simtable.scene(4, tmp_path)
    save, resumed, took = t.run(lambda t: resumed_after(t, cut))
    assert took <= said[0] + 1e-6, (took, said)
    assert not resumed.forfeit and "waited for green" in resumed.text, resumed.text
    code, out = simtable.verify(save)
    assert code == 3 and "violation" not in out, out


def test_a_note_after_the_ending_is_refused_with_a_clear_message_naming_nobody(tmp_path: Path) -> None:
    def after(save: Path) -> None:
        rewrite(save, records(save), journal.ending(forfeit=[GREEN]) + journal.wait_note(
            why="", left=5.0, mine=None, disclosed=[], points=[], pending=[]))

    t = simtable.scene(4, tmp_path)
    save, resumed, _ = t.run(lambda t: resumed_after(t, after))
    assert "is damaged and cannot be carried on" in str(resumed) and "follows the game's ending" in str(resumed), \
        resumed
    code, out = simtable.verify(save)
    assert "follows the game's ending" in out and "(seat" not in out, out


def test_a_save_whose_wait_named_the_forfeit_carried_on_again_changes_nothing(tmp_path: Path) -> None:
    """Yellow's wait ends naming green; its save carried on again (the person runs
    ``--load`` once more) is refused with a message, and the save is left as it was:
    no second ending, the same verdict."""
    async def script(t: sim.Scene) -> tuple[Path, bytes, Any]:
        await green_withholds(t, talks=True)
        (first,) = await t.results("joiner 1")
        assert first.forfeit == (GREEN,), first.text
        save = t.nodes["joiner 1"].save.path
        before = (save / journal.JOURNAL_FILE).read_bytes()
        try:
            again = await (await t.resume("joiner 1", save))
        except Exception as exc:  # noqa: BLE001 - what a seat started again says
            again = exc
        return save, before, again

    t = simtable.scene(4, tmp_path)
    save, before, again = t.run(script)
    assert isinstance(again, Exception) and str(again), again
    assert (save / journal.JOURNAL_FILE).read_bytes() == before
    code, out = simtable.verify(save)
    assert code == 1 and out.startswith("violation: joiner 2 (seat 2") and "host (seat 0" not in out, out


def test_a_whole_own_wait_writes_a_note_a_beat_and_nothing_after_its_ending(tmp_path: Path) -> None:
    """The journal's notes over a whole own wait: about one a beat (and one as it began,
    one for each seat reached or cleared), never one after the ending; the journal
    stays small (a cheat's frames on the direct links add no note)."""
    async def script(t: sim.Scene) -> Path:
        await green_withholds(t, talks=True)
        await t.results("joiner 1")
        return t.nodes["joiner 1"].save.path

    t = simtable.scene(4, tmp_path)
    save = t.run(script)
    core = t.nodes["joiner 1"].core
    kept = records(save)
    assert journal.ending_record(kept[-1]) and not journal.is_wait_note(kept[-1])
    most = core.abandon_after / 2 / core.here_every() + 2 + 2 * len(core.reached)
    assert 1 < len(notes(save)) <= most, (len(notes(save)), most)
    assert (save / journal.JOURNAL_FILE).stat().st_size < 200_000


def test_a_seat_started_again_in_its_wait_still_hears_an_honest_disclosure_once_its_links_come_back(
        tmp_path: Path) -> None:
    """The host refuses green's honest disclosure alone; the links between yellow and
    green are dark (yellow has not heard green yet) when yellow is killed in its own
    wait.  The network comes back and yellow is started again: it opens no watch point
    green knows of (the host, gone, would say where), so green must be heard on
    yellow's link to green's watch point; yellow then names nobody, nor does its save."""
    from .test_own_wait_resumed import honest_green_refused

    async def script(t: sim.Scene) -> tuple[Path, Any]:
        await honest_green_refused(t)
        t.darken("joiner 2", "joiner 1")
        t.darken("joiner 1", "joiner 2")
        await asyncio.sleep(20)
        assert GREEN not in t.nodes["joiner 1"].core.disclosed
        save = await t.kill("joiner 1")
        assert save is not None
        t.darken("joiner 2", "joiner 1", dark=False)
        t.darken("joiner 1", "joiner 2", dark=False)
        return save, await (await t.resume("joiner 1", save))

    t = simtable.scene(4, tmp_path)
    save, resumed = t.run(script)
    assert not resumed.forfeit and "(joiner 2)" not in resumed.text and resumed.partial, resumed.text
    assert GREEN in t.nodes["joiner 1"].core.disclosed
    code, out = simtable.verify(save)
    assert code == 3 and "violation" not in out, out


class LiesWhereGreenIs(RefusesGreensDisclosureAlone):
    """At the audit, tells yellow green's watch point is elsewhere (yellow's link to the
    real one, up, stays up), then refuses green's honest disclosure alone."""

    def received(self, seat: int, msg: dict) -> bool:
        if not self.refused and self.hub is not None and msg["t"] == "frames" and any(
                f[:1] == bytes([GREEN]) and decode(f)["kind"] == "audit" for f in msg["f"]):
            self._do(Send(1, {"t": "points", "at": [{"host": "10.9.9.9", "port": 4444, "seat": GREEN}]}))
        return super().received(seat, msg)


async def lied_to_then_killed(t: sim.Scene) -> tuple[Path, Any]:
    """The host lies where green is and ends the table; yellow is killed at once (before
    green's next word on their direct link) and started again: its save, how it ends."""
    await t.host(seats=3, core=LiesWhereGreenIs)
    t.join("joiner 1")
    await t.until("host", lambda e: getattr(e, "seat", None) == 1)
    t.join("joiner 2")
    await t.when(lambda: t.nodes["joiner 1"].core.provisional)
    assert GREEN not in t.nodes["joiner 1"].core.disclosed
    assert t.nodes["joiner 1"].core.seat_points[GREEN] == ("10.9.9.9", 4444)
    save = await t.kill("joiner 1")
    assert save is not None
    return save, await (await t.resume("joiner 1", save))


def test_a_note_keeps_a_seat_s_watch_point_where_it_was_reached_not_where_the_host_said_last(
        tmp_path: Path) -> None:
    t = simtable.scene(4, tmp_path)
    save, _ = t.run(lied_to_then_killed)
    (green,) = [p for p in notes(save)[0]["points"] if p[0] == GREEN]
    assert green[1] != "10.9.9.9" and green[2] == t.nodes["joiner 2"].watch_port, green


def test_a_host_that_lies_where_a_seat_is_before_it_ends_the_audit_gets_nobody_named_by_a_seat_started_again(
        tmp_path: Path) -> None:
    """Yellow started again links to green's watch point where it reached it, and should
    hear green's honest disclosure and name nobody, nor its save."""
    t = simtable.scene(4, tmp_path)
    save, resumed = t.run(lied_to_then_killed)
    assert not resumed.forfeit and "(joiner 2)" not in resumed.text, resumed.text
    code, out = simtable.verify(save)
    assert code == 3 and "violation" not in out, out


# -- the watch point of a seat started again in its own wait (where it was before) ------------


Hook = Callable[[tuple[str, int], Path], Any]


async def yellow_killed_unheard(t: sim.Scene, between: Hook | None = None, then: Hook | None = None,
                                both: bool = True, table: Callable[[sim.Scene], Any] | None = None
                                ) -> tuple[Path, Any]:
    """The host refuses green's honest disclosure alone; the links between yellow and
    green are dark (``both`` ways, else green's to yellow) when yellow is killed in its
    own wait, not having heard green.  ``between`` (given yellow's old watch point and
    its save) runs while yellow is down; then the network comes back and yellow is
    started again, and ``then`` runs: its save, how it ends (or what it raised).
    ``table``: another start (green withholds, say)."""
    from .test_own_wait_resumed import honest_green_refused

    await (table or honest_green_refused)(t)
    links = [("joiner 2", "joiner 1"), ("joiner 1", "joiner 2")][:2 if both else 1]
    for link in links:
        t.darken(*link)
    await asyncio.sleep(20)
    assert GREEN not in t.nodes["joiner 1"].core.disclosed
    point = t.nodes["joiner 1"].core.own_point
    assert point is not None and point[1] == t.nodes["joiner 1"].watch_port
    save = await t.kill("joiner 1")
    assert save is not None
    if between is not None:
        await between(point, save)
    for link in links if both else ():
        t.darken(*link, dark=False)
    try:
        ending = await t.resume("joiner 1", save)
        if then is not None:
            await then(point, save)
        return save, await ending
    except Exception as exc:  # noqa: BLE001 - what a seat started again says
        return save, exc


def squat(t: sim.Scene, heard: list[str]) -> Hook:
    """Another program (its own identity) listens on yellow's old watch point while
    yellow is down: what links to it, ``heard``, gets nothing said back."""
    from ankh.net.io.driver import PROLOGUE
    from ankh.net.io.transport import serve
    from ankh.net.wire.envelope import Identity

    async def program(point: tuple[str, int]) -> None:
        async def on_link(conn: Any) -> None:
            heard.append("linked")
            await asyncio.sleep(3600)
        await serve(point[0], point[1], Identity.generate(), PROLOGUE, on_link)
        await asyncio.sleep(3600)

    async def between(point: tuple[str, int], save: Path) -> None:
        t.start("squatter", lambda: program(point))
        await asyncio.sleep(1)
    return between


def names_nobody_honest(save: Path, resumed: Any) -> None:
    """Yellow started again named nobody (green is honest), nor does its save."""
    assert not isinstance(resumed, Exception), resumed
    assert not resumed.forfeit and "(joiner 2)" not in resumed.text, resumed.text
    code, out = simtable.verify(save)
    assert code == 3 and "violation" not in out, out


def test_a_program_squatting_the_old_watch_point_gets_no_seat_named_and_the_seat_says_why(tmp_path: Path) -> None:
    """A program on yellow's machine takes yellow's old watch-point port while yellow is
    down: yellow started again cannot open its watch point there; it says so, goes on
    with its wait and names nobody (green's link to it never came back), nor does its
    save; green's link to the squatter fails its handshake (the squatter is not
    yellow), and green names nobody for it either."""
    heard: list[str] = []

    async def script(t: sim.Scene) -> tuple[Path, Any, Any]:
        save, resumed = await yellow_killed_unheard(t, squat(t, heard))
        (green,) = await t.results("joiner 2")
        return save, resumed, green

    t = simtable.scene(4, tmp_path)
    save, resumed, green = t.run(script)
    assert any("cannot open its watch point again at" in text and "in use" in text and "names none" in text
               for text in told(t, "joiner 1")), told(t, "joiner 1")
    names_nobody_honest(save, resumed)
    assert heard and not green.forfeit and "(joiner 1)" not in green.text, green.text
    code, out = simtable.verify(t.nodes["joiner 2"].save.path)
    assert "violation" not in out, out


def test_a_spectator_at_the_re_opened_watch_point_watches_and_changes_no_verdict(tmp_path: Path) -> None:
    """A spectator links to yellow's watch point once yellow is started again in its own
    wait: it watches the game to its end (nothing crashes, no seat is counted as
    reached for it), and yellow, having heard green again, names nobody."""
    async def spectate(point: tuple[str, int], save: Path) -> None:
        await t.when(lambda: t.nodes["joiner 1"].watch_port == point[1])
        t.watch("spectator", at=point)
        await asyncio.sleep(2)

    t = simtable.scene(4, tmp_path)
    save, resumed = t.run(lambda t: yellow_killed_unheard(t, then=spectate))
    names_nobody_honest(save, resumed)
    assert t.nodes["joiner 1"].core.reached <= {0, GREEN}, t.nodes["joiner 1"].core.reached
    seen = [type(e).__name__ for e in t.told["spectator"]]
    assert seen[:1] == ["Started"] and "Played" in seen and seen[-1] == "Over", seen


@pytest.mark.parametrize("mine", [["10.9.9.9", 4444], ["", 1], ["x" * 255, 65535]])
def test_a_note_whose_own_watch_point_was_doctored_names_nobody_and_does_not_crash(
        tmp_path: Path, mine: list[Any]) -> None:
    """The save's owner points the note's ``mine`` elsewhere (green's link to yellow stays
    dark): the seat started again opens its watch point there or says it cannot, and
    ends its wait naming nobody honest."""
    async def doctor(point: tuple[str, int], save: Path) -> None:
        doctor_last_note(lambda n: n.update(mine=mine))(save)

    t = simtable.scene(4, tmp_path)
    save, resumed = t.run(lambda t: yellow_killed_unheard(t, doctor, both=False))
    names_nobody_honest(save, resumed)



def test_a_seat_whose_note_of_a_disclosure_was_lost_in_a_crash_hears_it_again(tmp_path: Path) -> None:
    """Yellow hears green's honest disclosure and is killed while writing the note that
    says so (the journal loses it, and any note after): started again, it has forgotten
    it.  Green, done with its game (it heard every disclosure), never links to yellow
    again: yellow must not name it, only say whom the game waited for, nor its save."""
    from .test_own_wait_resumed import honest_green_refused

    async def script(t: sim.Scene) -> tuple[Path, Any]:
        await honest_green_refused(t)
        await t.when(lambda: GREEN in t.nodes["joiner 1"].core.disclosed, within=60)
        save = await t.kill("joiner 1")
        assert save is not None
        kept = records(save)
        first = next(i for i, r in enumerate(kept) if journal.is_wait_note(r) and GREEN in r[journal.WAIT]["disclosed"])
        rewrite(save, kept[:first])
        assert notes(save) and all(GREEN not in n["disclosed"] for n in notes(save))
        return save, await (await t.resume("joiner 1", save))

    t = simtable.scene(4, tmp_path)
    save, resumed = t.run(script)
    names_nobody_honest(save, resumed)
    assert "waited for green" in resumed.text and not t.nodes["joiner 1"].core.reached, resumed.text


def test_a_network_that_lets_only_the_handshake_through_to_a_seat_started_again_gets_nobody_named(
        tmp_path: Path) -> None:
    """Yellow, started again in its own wait, re-opens its watch point; green's new link
    to it proves green (the handshake passes) but what green writes after it is held on
    the wire (the network between them is the attacker's).  Green's honest disclosure
    never reaches yellow: yellow should name nobody, nor its save (docs/fairness.md,
    "What is left": the restarted seat's variant of a direct link gone dark after it was
    reached); it names green."""
    async def hold_after_handshake(point: tuple[str, int], save: Path) -> None:
        t.hold("joiner 2", "joiner 1", after=3)

    t = simtable.scene(4, tmp_path)
    save, resumed = t.run(lambda t: yellow_killed_unheard(t, hold_after_handshake))
    assert GREEN in t.nodes["joiner 1"].core.reached
    names_nobody_honest(save, resumed)



def test_a_withholder_still_running_whose_link_comes_back_is_named_by_a_seat_started_again(tmp_path: Path) -> None:
    """Green signs its part of the audit over a bogus log hash and its program still runs,
    talking on its direct links (they were dark while yellow was down); yellow, started
    again, is reached by green's link to its re-opened watch point, which says green's
    part of the audit over that hash and the others' frames of its log: green is there
    and withholds its disclosure.  Yellow names green, and so does its save."""
    t = simtable.scene(4, tmp_path)
    save, resumed = t.run(lambda t: yellow_killed_unheard(t, table=lambda t: green_withholds(t, talks=True)))
    assert resumed.forfeit == (GREEN,) and "red (host)" not in resumed.text, resumed.text
    code, out = simtable.verify(save)
    assert code == 1 and out.startswith("violation: joiner 2 (seat 2") and "host (seat 0" not in out, out
