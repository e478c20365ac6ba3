"""Attacks on how a spectator learns that a table stopped in the middle of a
step: its watch point's ``pending`` (the frames of the step under way) before
its last word ``bye`` (``net/tablecore/watch.py``).  The watch point is the
host or a joiner, either of them the cheat; the table is played in memory
(``test_join_table.Table``, two seats: red the host, yellow the joiner
``green``), and the spectator is a ``WatchTable`` fed what the watch point
chooses to say.

A test that holds is a regression test.  A test that fails says how the
spectator should behave where the attack works today (see each docstring)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ankh.net.wire.envelope import HEADER_LEN, unpack_strict
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.wire.lobby import decode, encode
from ankh.net.play.peer import AUDIT
from ankh.net.tablecore.effects import WatchEnd, WatchIntro, WatchLog
from ankh.net.tablecore.watch import WatchTable

from .simtable import scene, verify
from .test_join_table import Clock, Table, of

HOST_POINT = ("10.0.0.1", 4000)
JOINER_POINT = ("10.0.0.2", 4100)
NAMED = re.compile(r"\((host|green)\)")  # a seat named beside its colour: blame


def played(tmp_path: Path, seed: int = 1) -> Table:
    t = Table(tmp_path, save=True, seed=seed)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.result is not None and t.host.result is not None)
    assert t.host.result.finished and t.host.result.fair and t.joiner.result.text == t.host.result.text
    return t


def watching(t: Table, *, through_joiner: bool = False, clock: Clock | None = None) -> WatchTable:
    """A spectator linked to the host's watch point (or the joiner's), told the table as a newcomer is."""
    w = WatchTable(clock=clock or Clock())
    w.watch(*(JOINER_POINT if through_joiner else HOST_POINT))
    intro(w, t, through_joiner=through_joiner)
    return w


def intro(w: WatchTable, t: Table, *, through_joiner: bool = False) -> None:
    key = (t.identity if through_joiner else t.host.identity).public_key
    w.linked(w.point(), key)
    for m in of(WatchIntro, t.out if through_joiner else t.host_out)[-1].intro:
        assert w.received(decode(m)) is None


def steps(t: Table) -> list[list[bytes]]:
    """The whole log in steps (the last two: the audit, then the final sync)."""
    return [list(step) for _, step in of(WatchLog, t.host_out)[-1].log]


def flat(steps_: list[list[bytes]]) -> list[bytes]:
    return [f for step in steps_ for f in step]


def signer(frame: bytes) -> int:
    return unpack_strict(frame[HEADER_LEN:])["from"]


def stalled_at_the_audit(t: Table, keep: list[int], *, through_joiner: bool = False) -> WatchTable:
    """A watch point feeds every step before the audit, holds the audit back for half the
    table's patience, then hands on only the disclosures of the seats in ``keep`` as
    ``pending``, and says its last word."""
    log = steps(t)
    clock = Clock()
    w = watching(t, through_joiner=through_joiner, clock=clock)
    w.received({"t": "frames", "f": flat(log[:-2])})
    assert w.spectator is not None and w.spectator.phase == AUDIT
    clock.now += w.abandon_after / 2
    held = [f for f in log[-2] if signer(f) in keep]
    if held:
        w.received({"t": "pending", "f": held})
    w.received({"t": "bye", "why": "forfeit: the seats withheld the audit disclosure"})
    assert w.result is not None
    return w


# -- a watch point that holds back honest seats' disclosures ---------------------------------------


@pytest.mark.parametrize("keep", [[], [0], [1]], ids=["none", "red only", "yellow only"])
def test_a_host_that_holds_back_the_audit_from_its_spectators_gets_no_honest_seat_named(
        tmp_path: Path, keep: list[int]) -> None:
    """Both seats disclosed and finished the game, audited and fair, and the journal
    verifies fair.  The host's watch point holds the audit step back from its spectators
    for half the table's patience, hands on only some disclosures as ``pending`` and says
    ``bye``: the spectator's own log "waited" at the audit that long, and it once said
    "forfeit: red (host) / yellow (green) withheld the audit disclosure" of honest seats.
    A watch point's silence is no more evidence than its word: the spectator names
    nobody, and says whom the game waited for (its result says it saw only part)."""
    t = played(tmp_path)
    rc, out = verify(t.save.journal_path)
    assert rc == 0 and out.startswith("fair"), out
    w = stalled_at_the_audit(t, keep)
    assert not NAMED.search(w.result.text), w.result.text
    waited = " and ".join(c for s, c in enumerate(("red", "yellow")) if s not in keep)
    assert w.result.text == f"the table ended the game while it waited for {waited}", w.result.text
    assert w.result.partial and not w.result.forfeit


def test_a_joiner_watch_point_that_holds_back_the_host_s_disclosure_gets_no_one_named(tmp_path: Path) -> None:
    """The same through a joiner's watch point: the joiner (not the table's relay, no
    power over the seats' logs) made every spectator watching through it say "forfeit:
    red (host) withheld the audit disclosure", though the host and the joiner itself
    finished the game fair.  A spectator reads no forfeit through any watch point: it
    says whom the game waited for, and names nobody."""
    t = played(tmp_path)
    w = stalled_at_the_audit(t, keep=[1], through_joiner=True)
    assert not NAMED.search(w.result.text), w.result.text


def test_a_spectator_of_a_seat_that_gave_up_on_a_host_gone_at_the_audit_names_nobody(tmp_path: Path) -> None:
    """SUCCEEDS TODAY, with no cheat at all (fails).  The host's machine goes down as the
    game reaches its audit (its disclosure never reaches the joiner).  The joiner waits
    for it the table's patience and stops: "paused: red (the host) did not come back
    ...; the game waits in your saves" -- a game to be carried on.  Its watch point
    hands its spectators the pending audit (its own disclosure) and that last word; the
    spectator, whose log waited at the audit past half the patience, says "forfeit: red
    (host) withheld the audit disclosure".  It should say no forfeit: the seat it
    watches through did not say the table ended, it paused."""
    t = Table(tmp_path, save=False)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.peer is not None and t.joiner.peer.phase == AUDIT)
    t.to_joiner.clear(), t.to_host.clear(), t.thinking.clear()  # the host is gone from here on
    t.joiner_effects()
    w = watching(t, through_joiner=True, clock=t.clock)
    w.received({"t": "frames", "f": [f for _, step in of(WatchLog, t.out)[-1].log for f in step]})
    assert w.spectator is not None and w.spectator.phase == AUDIT
    t.clock.now += t.joiner.abandon_after
    assert t.joiner.host_away(t.joiner.abandon_after)
    told = [decode(m) for e in of(WatchEnd, t.joiner_effects()) for m in e.messages]  # its last words
    assert t.joiner.result.text.startswith("paused: red (the host) did not come back")
    assert [m["t"] for m in told] == ["pending", "bye"]
    for m in told:
        w.received(m)
    assert w.result is not None and not w.result.text.startswith("forfeit"), w.result.text
    assert not NAMED.search(w.result.text), w.result.text


def test_a_spectator_that_came_late_to_the_audit_names_nobody_even_when_told_a_forfeit(tmp_path: Path) -> None:
    """HOLDS.  A spectator whose log reached the audit just now names nobody, whatever
    the watch point hands on and says."""
    t = played(tmp_path)
    log = steps(t)
    w = watching(t)
    w.received({"t": "frames", "f": flat(log[:-2])})
    w.received({"t": "pending", "f": log[-2][:1]})
    w.received({"t": "bye", "why": "forfeit: yellow (green) withheld the audit disclosure"})
    assert w.result is not None and not NAMED.search(w.result.text), w.result.text


# -- pending frames that do not belong where they are sent ---------------------------------------


def test_a_pending_that_does_not_check_mid_game_leaves_the_log_where_it_stood(tmp_path: Path) -> None:
    """SUCCEEDS TODAY (fails).  In the middle of the game a watch point sends ``pending``
    with a frame of a later step first and the rest of the log after it, and no ``bye``.
    The first frame fails (ignored, as meant), but the frames behind it stay in the
    spectator's queue: its log no longer stands where it stood.  The honest rest of the
    log then "does not check" and the spectator ends "aborted: the log does not check:
    green (seat 1, ...): message for step 7, but this is step 5" -- naming a seat for
    a frame the watch point put out of place.  It should end with the seats' result."""
    t = played(tmp_path)
    log = steps(t)
    w = watching(t)
    w.received({"t": "frames", "f": flat(log[:5])})
    w.received({"t": "pending", "f": log[7] + flat(log[5:])})
    w.received({"t": "frames", "f": flat(log[5:])})
    assert w.result is not None and w.result.text == t.host.result.text, w.result and w.result.text


def test_a_pending_of_junk_before_a_cut_does_not_poison_the_next_watch_point(tmp_path: Path) -> None:
    """SUCCEEDS TODAY (fails).  A joiner's watch point sends ``pending`` of two byte strings
    of junk in the middle of the game, then drops the link.  The first is refused, the
    second stays queued; when the spectator links again (the host's watch point), its
    ``watch`` opening counts the steps it holds from that queue and raises
    RemoteProtocolError out of ``WatchTable.linked`` -- which ``WatchNode.run`` does not
    catch: the spectator's program stops with an error.  It should link again and
    follow the rest of the game to the seats' result."""
    t = played(tmp_path)
    log = steps(t)
    w = watching(t, through_joiner=True)
    w.received({"t": "frames", "f": flat(log[:5])})
    w.received({"t": "pending", "f": [b"junk" * 8, b"more junk" * 8]})
    w.lost("a cut")
    w.points = [HOST_POINT]
    try:
        intro(w, t)
    except RemoteProtocolError as exc:
        pytest.fail(f"the next link fails: {exc}")
    w.received({"t": "frames", "f": flat(log[5:])})
    assert w.result is not None and w.result.text == t.host.result.text, w.result and w.result.text


def test_a_pending_whose_frames_skip_ahead_does_not_make_the_spectator_skip_steps(tmp_path: Path) -> None:
    """SUCCEEDS TODAY (fails).  Valid frames of later steps left queued by a ``pending``
    that failed make the spectator's ``watch`` ask its next watch point for steps
    past those it followed (``steps_followed`` counts the queue); it should ask from
    where its log stands."""
    t = played(tmp_path)
    log = steps(t)
    w = watching(t)
    w.received({"t": "frames", "f": flat(log[:5])})
    w.received({"t": "pending", "f": log[7] + flat(log[20:22])})
    w.lost("a cut")
    assert w.linked(w.point(), t.host.identity.public_key) == {"t": "watch", "from": 5}


def test_a_pending_that_completes_the_game_ends_with_the_game_s_outcome(tmp_path: Path) -> None:
    """SUCCEEDS TODAY (fails).  A watch point hands on the audit and the final step as
    ``pending`` and says ``bye``: the spectator checks them, its log reaches the game's
    end, audited, but ``_on_pending`` drops the events (and the ``Finished``), so on
    ``bye`` it says "the table ended the game before its end" where both seats and
    ``ankh verify`` say "yellow wins".  Frames that check and finish the game should
    end it as the seats' result."""
    t = played(tmp_path)
    log = steps(t)
    w = watching(t)
    w.received({"t": "frames", "f": flat(log[:-2])})
    w.received({"t": "pending", "f": flat(log[-2:])})
    w.received({"t": "bye", "why": "whatever"})
    assert w.result is not None and w.result.text == t.host.result.text, w.result.text


# -- held: what the change already withstands -------------------------------------------------------


def test_a_pending_of_the_step_under_way_mid_game_then_the_whole_log_ends_as_the_seats(tmp_path: Path) -> None:
    """HOLDS.  A ``pending`` of the step under way sent mid-game without ``bye``, sent
    twice, then the whole log as usual: the frames already held are taken once."""
    t = played(tmp_path)
    log = steps(t)
    w = watching(t)
    w.received({"t": "frames", "f": flat(log[:5])})
    step = next(s for s in log[5:] if len(s) > 1)
    i = log.index(step)
    w.received({"t": "frames", "f": flat(log[5:i])})
    for _ in range(2):
        w.received({"t": "pending", "f": step[:1]})
    w.received({"t": "frames", "f": flat(log[i:])})
    assert w.result is not None and w.result.text == t.host.result.text


def test_a_pending_before_the_roster_or_after_the_result_is_ignored(tmp_path: Path) -> None:
    """HOLDS.  Before the spectator knows the roster, and after its result, a ``pending``
    changes nothing."""
    t = played(tmp_path)
    log = steps(t)
    w = WatchTable(clock=Clock())
    w.watch(*HOST_POINT)
    w.linked(w.point(), t.host.identity.public_key)
    w.received({"t": "pending", "f": flat(log[:3])})
    assert w.spectator is None and w.result is None
    for m in of(WatchIntro, t.host_out)[-1].intro:
        w.received(decode(m))
    w.received({"t": "frames", "f": flat(log)})
    text = w.result.text
    assert text == t.host.result.text
    w.received({"t": "pending", "f": log[-2]})
    w.received({"t": "bye", "why": "forfeit: red (host) withheld the audit disclosure"})
    assert w.result.text == text


def test_a_pending_of_another_game_s_frames_is_ignored(tmp_path: Path) -> None:
    """HOLDS.  The audit of another table's game (other keys, another game id) handed on
    as ``pending``: none checks, and the spectator names nobody."""
    t = played(tmp_path / "a")
    other = played(tmp_path / "b", seed=2)
    log = steps(t)
    w = watching(t)
    w.received({"t": "frames", "f": flat(log[:-2])})
    w.received({"t": "pending", "f": steps(other)[-2]})
    w.received({"t": "bye", "why": "forfeit"})
    assert w.result is not None and not NAMED.search(w.result.text), w.result.text
    assert w.spectator.waiting_for() == (0, 1)


def test_many_large_pendings_then_bye_do_not_crash_the_spectator(tmp_path: Path) -> None:
    """HOLDS.  Forty ``pending`` messages of 256 frames each (junk and duplicates of a
    real frame), then ``bye``: the spectator ends, naming nobody."""
    t = played(tmp_path)
    log = steps(t)
    w = watching(t)
    w.received({"t": "frames", "f": flat(log[:10])})
    for n in range(40):
        frames = [bytes([n]) * 1000, *log[10][:1] * 255]
        w.received(decode(encode({"t": "pending", "f": frames})))
    w.received({"t": "bye", "why": "forfeit"})
    assert w.result is not None and not NAMED.search(w.result.text), w.result.text


@pytest.mark.parametrize("msg", [
    {"t": "pending", "f": []},
    {"t": "pending", "f": [b"x"] * 257},
    {"t": "pending", "f": [b"x" * (64 * 1024 + 1)]},
    {"t": "pending", "f": ["text"]},
    {"t": "pending", "f": b"x"},
    {"t": "pending"},
    {"t": "pending", "f": [b"x"], "extra": 1},
], ids=["empty", "257 frames", "a frame too long", "text", "bytes", "no frames", "extra field"])
def test_a_malformed_pending_is_refused_on_the_link(msg: dict[str, Any]) -> None:
    """HOLDS.  The link's strict decoding refuses a malformed ``pending`` (the driver then
    drops that link): it never reaches the spectator."""
    with pytest.raises(RemoteProtocolError):
        decode(encode(msg))


def test_a_real_withholder_is_named_by_the_seats_and_waited_for_by_every_spectator(tmp_path: Path) -> None:
    """The case the change is for, on the simulator.  ``sly`` keeps its audit
    disclosure, and keeps talking on its direct links; the host forfeits it after the
    table's patience, and so does the other seat, from its own log (sly's link proves it
    there without its disclosure).  A spectator, through the host's watch point or the honest
    joiner's, says whom the game waited for: what it is sent is what a watch point that
    held an honest seat's disclosure back would send it (the test above), so it names
    nobody; the seats, their saves and ``ankh verify`` name the withholder."""
    from ankh.net.play.events import Joined, WatchPointOpen
    from ankh.net.io import sim

    from . import simcheats
    from ankh.net.tablecore.join import JoinTable

    from .test_lan_cheats import Withholder

    async def script(t: sim.Scene) -> list:
        host = await t.host("honest", seats=3)
        host.abandon_after = 3.0
        t.join("fair", abandon_after=3.0)
        await t.until("honest", lambda e: isinstance(e, Joined) and e.name == "fair")
        t.join("sly", core=simcheats.talking(lambda base: Withholder)(JoinTable))
        point = await t.until("fair", lambda e: isinstance(e, WatchPointOpen))
        for name, at in (("watch host", None), ("watch fair", (point.host, point.port))):
            t.watch(name, at=at)
            t.nodes[name].abandon_after = 3.0
        return await t.results("honest", "fair", "watch host", "watch fair")

    results = scene(3, tmp_path).run(script)
    *seats, through_host, through_fair = results
    for result in seats:
        assert result.text.startswith("forfeit: green (sly) withheld the audit disclosure"), [r.text for r in results]
        assert result.forfeit == (2,)
    for result in (through_host, through_fair):
        assert result.text == "the table ended the game while it waited for green", result.text
        assert result.partial
