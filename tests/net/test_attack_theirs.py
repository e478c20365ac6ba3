"""Attacks on the frames a seat hands on to the host around it (``theirs``:
``JoinTable._theirs``, ``HostTable._on_theirs``) and on the watch point's wait
for a spectator whose link dropped (``Watchers.settle``): the host, a joiner
and a spectator cheat, on the simulator, to get an honest seat blamed, to bend
an ending, to slow the host, or to keep a table open for ever.  A test here
asserts what an honest person must see; where the system does not hold yet,
it is marked ``xfail(strict=True)`` with the mechanism."""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ankh.net.wire import envelope
from ankh.net.wire.envelope import HEADER_LEN, Identity, seal
from ankh.net.play.events import Over
from ankh.net.io import sim
from ankh.net.io.seatlinks import PROLOGUE
from ankh.net.io.transport import ConnectionClosed, connect
from ankh.net.wire.lobby import encode
from ankh.net.play.peer import AUDIT
from ankh.net.tablecore.effects import Send, TellSeats
from ankh.net.tablecore.host import HostTable
from ankh.net.tablecore.join import JoinTable

from . import simtable
from .nethelp import decode, resign
from .test_attack_links import three_seats
from .test_attack_review3 import MakesUpAFrameFarAhead, signed_ahead, thinking, yellow_withholds


# -- 1. a seat that says the seats a frame the host can never take ---------------------------------

class SaysAFrameOneAhead(MakesUpAFrameFarAhead):
    """Keeps its move at step 12 from everyone, and says on its direct links its
    last frame (that move) signed again one sequence number further on: a frame
    the other seats' logs lack, within the four they look at, so they counted it
    as a word from it; but one the host never takes (it takes only the very next
    frame it lacks from a seat)."""

    ahead = 1


class SaysAFrameThreeAhead(SaysAFrameOneAhead):
    """The same, three numbers past its move (the last a seat's window takes)."""

    ahead = 3


class SaysItsMoveForALaterStep(SaysAFrameOneAhead):
    """Says on its direct links, under the very number the host and the seats
    lack from it, its move signed again for two steps further on: the host takes
    it (the next frame it lacks) and holds it for that step, which never comes,
    so it never passes it on; the seats' logs lack it for ever, and it is a word
    from yellow to them every few seconds."""

    ahead = 0
    later = 2


@pytest.mark.parametrize("core", [SaysAFrameOneAhead, SaysAFrameThreeAhead, SaysItsMoveForALaterStep],
                         ids=["one number past", "three numbers past", "its number, for a later step"])
def test_a_seat_that_says_the_seats_only_a_frame_the_host_cannot_take_cannot_hold_the_table_for_ever(
        tmp_path: Path, core: type[SaysAFrameOneAhead]) -> None:
    """Yellow moves, sends the move to nobody, and says on its seat links only a
    frame the host cannot take into the step under way: one signed under a number
    past the move (green's log lacks both; the host drops it, not the next one),
    or its move's number for a later step (the host holds it for that step and
    never passes it on).  Green counted it as a word from yellow every few seconds
    and never signed that yellow left: the table waited for ever, the veto that
    ``theirs`` was to end.  Green must sign that yellow left."""
    t, results = yellow_withholds(tmp_path, core)
    green = t.nodes["joiner 2"].core
    assert all("say yellow left the game" in r.text for r in results), [r.text for r in results]
    if core.later:  # the host took the frame and held it for its step: green's log never got it
        assert t.nodes["host"].table.hub.host.protocol.have()[1] == green.peer.protocol.have()[1] + 1


# -- 2. a spectator that drops and comes back, again and again, after the game -----------------------

@pytest.mark.parametrize("point", ["host", "joiner 1"])
def test_a_spectator_that_drops_again_and_again_after_the_game_cannot_keep_the_table_open_for_ever(
        tmp_path: Path, point: str) -> None:
    """A spectator's link dropped in the game's last seconds has ten seconds to come
    back for its end (``Watchers.settle``).  Mallory watches through the host's
    watch point (or a joiner's), and comes back every five seconds (a new key
    each time) and drops again without a goodbye, the game over or not: each
    drop starts the ten seconds again.  That process must still end (the host
    waited as long as mallory went on, its listening socket and its advert up:
    for ever; a joiner's watch point stops listening at the end)."""
    async def script(t: sim.Scene) -> Any:
        address = await simtable.two_seats_watched_at(t, point)
        drops = [0]

        async def mallory() -> None:
            while True:
                try:
                    conn = await connect(*address, Identity.generate(), PROLOGUE)
                except ConnectionClosed:
                    return  # the watch point closed
                conn.send_nowait(encode({"t": "watch", "from": 0}))
                with contextlib.suppress(ConnectionClosed):
                    await conn.recv()  # (told the table: a spectator for sure)
                if t.nodes[point].result is not None:
                    drops[0] += 1
                conn.close("gone")  # no goodbye: a link that dropped
                await asyncio.sleep(5.0)
        t.start("mallory", mallory)
        await t.until(point, lambda e: isinstance(e, Over))
        try:
            await asyncio.wait_for(asyncio.shield(t.tasks[point]), 600)
        except TimeoutError:
            return False, drops[0]
        return True, drops[0]

    t = simtable.scene(4, tmp_path)
    ended, drops = t.run(script)
    assert ended, f"ten minutes after the game {point} still waits: mallory dropped {drops} times since"


# -- 3. what a seat hands the host: junk, replays, frames it may not hand on -------------------------

def frames_of(core: Any, seat: int) -> list[bytes]:
    """The frames signed by ``seat`` in ``core``'s log (a joiner's), in order."""
    return [f for _, frames in core.peer.ledger().log for f in frames if f[0] == seat]


def handed(t: sim.Scene, name: str, frames: list[bytes]) -> None:
    """``name`` hands the host each of ``frames`` as another seat's (``theirs``)."""
    node = t.nodes[name]
    for f in frames:
        t.do(name, lambda f=f: node._call(node.core._do, Send(0, {"t": "theirs", "f": f})))


def forged(core: Any, seat: int, seq: int) -> bytes:
    """``seat``'s last frame in ``core``'s log, under ``seq``, signed by ``core``'s own
    game key with ``seat``'s byte in front: a bad signature."""
    payload = decode(frames_of(core, seat)[-1])
    return seal(core.secrets.identity, seat, payload["game"], seq, payload["kind"], payload["body"])


def test_junk_replays_and_frames_a_seat_may_not_hand_on_are_dropped_and_name_nobody(tmp_path: Path) -> None:
    """Yellow hands the host, as others' frames: nothing, garbage, a frame of the
    largest size, the host's own frames and green's again (replays), its own next
    frame, green's frames under green's next numbers signed by yellow, and
    green's move signed by green's game key for another game.  The host takes
    none, crashes on none, names nobody; the game ends fair, the same for all."""
    async def script(t: sim.Scene) -> list:
        await three_seats(t)
        await t.until("joiner 2", simtable.decided(2))
        yellow, green = t.nodes["joiner 1"].core, t.nodes["joiner 2"].core
        have = yellow.peer.protocol.have()
        ident, payload = green.secrets.identity, decode(frames_of(yellow, 2)[-1])  # (green's game key)
        pieces = [b"", b"\x02", bytes(64 * 1024), b"\x02" + bytes(64) + b"\xc1" * 40,
                  *frames_of(yellow, 0), *frames_of(yellow, 2),
                  signed_ahead(frames_of(yellow, 1)[-1], yellow.secrets.identity, 1),
                  *(forged(yellow, 2, have[2] + n) for n in range(4)),
                  seal(ident, 2, bytes(16), have[2], payload["kind"], payload["body"]),
                  seal(ident, 2, bytes(16), payload["seq"], payload["kind"], payload["body"])]
        handed(t, "joiner 1", pieces)
        return await t.results("host", "joiner 1", "joiner 2")

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert len({r.text for r in results}) == 1 and all(r.finished and r.fair for r in results), \
        [r.text for r in results]


def test_a_flood_of_badly_signed_frames_handed_on_costs_the_host_few_signature_checks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Yellow hands the host two hundred frames at once, each under green's next
    number (or one of the next few) and signed by yellow: each was a signature
    check at the host, which drops it without a word (a bad signature on a
    seat's own frames ends the game and names it: here it costs yellow
    nothing).  The host must check no more of them than a seat checks of the
    frames said on its direct links (four a fifth of a second per seat:
    ``JoinTable._theirs``)."""
    bad: set[bytes] = set()
    checked = [0]
    real = envelope.verify_signature

    def verify_signature(public_key: bytes, signature: bytes, data: bytes) -> bool:
        if signature in bad and sim._WHO.get() == "host":
            checked[0] += 1
        return real(public_key, signature, data)
    monkeypatch.setattr(envelope, "verify_signature", verify_signature)

    async def script(t: sim.Scene) -> list:
        host = (await t.host(seats=3, decide=thinking(t))).table  # (a few seconds over each move)
        t.join("joiner 1", decide=thinking(t))
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2", decide=thinking(t))
        await t.until("joiner 2", simtable.decided(2))
        yellow = t.nodes["joiner 1"].core
        have = host.hub.host.protocol.have()[2]
        pieces = []
        for n in range(200):  # (green's next number now, or the next few: green may sign meanwhile)
            f = forged(yellow, 2, have + n % 4)
            f = f[:1] + bytes([n % 256]) + f[2:]  # two hundred signatures, none the same
            bad.add(f[1:HEADER_LEN])
            pieces.append(f)
        handed(t, "joiner 1", pieces)
        return await t.results("host", "joiner 1", "joiner 2")

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert all(r.finished and r.fair for r in results), [r.text for r in results]
    assert 1 <= checked[0] <= 20, f"the host checked {checked[0]} of the 200 signatures at once"


# -- 4. a cheat's frame that another seat hands on names its signer, never that seat ----------------

class MovesAroundTheHost(JoinTable):
    """From its first move at step 12 on, sends the host nothing (its link stays up)
    and says on its direct links its move instead of its last frames: ``twin`` of
    the move it signed, or that move itself."""

    twin: Callable[[bytes, Any], bytes] | None = None
    kept: bytes | None = None  # the move it keeps from the host
    said: bytes | None = None  # what it says on its seat links instead

    def _outgoing(self, frames: list[bytes]) -> list[bytes]:
        out = []
        for f in frames:
            if self.kept is None and self.peer is not None and self.peer.ledger().index >= 12 \
                    and decode(f)["kind"] == "move":
                self.kept = f
                self.said = self.twin(f, self.secrets.identity) if self.twin is not None else f
            if self.kept is None:
                out.append(f)
        return super()._outgoing(out)

    def say_here(self) -> None:
        if self.said is None:
            super().say_here()
        else:
            self._do(TellSeats({"t": "mine", "f": self.said}, keep=False))


def illegal(frame: bytes, identity: Identity) -> bytes:
    """The move signed again as one the rules refuse (tiny plays "play" and "pass")."""
    return resign(frame, identity, lambda body: body.__setitem__("move", ["pay", 99]))


class MovesIllegallyAroundTheHost(MovesAroundTheHost):
    """Says an illegal move on its seat links, which green hands on to the host."""

    twin = staticmethod(illegal)


class SignsTwoMovesAroundTheHost(MovesAroundTheHost):
    """Says its move on its seat links, and once green handed it on and the host took
    it, sends the host another move under the same number (an illegal one)."""

    host_table: Any = None  # (the test's look at the host: has it taken the move yet?)

    def say_here(self) -> None:
        super().say_here()
        host = self.host_table
        if self.kept is not None and host.hub.host.protocol.have()[self.seat] > decode(self.kept)["seq"]:
            self._do(Send(0, {"t": "frames", "f": [illegal(self.kept, self.secrets.identity)]}))


@pytest.mark.parametrize("core", [MovesIllegallyAroundTheHost, SignsTwoMovesAroundTheHost],
                         ids=["an illegal move", "two moves under one number"])
def test_a_cheats_move_handed_on_by_another_seat_names_the_cheat_and_never_that_seat(
        tmp_path: Path, core: type[MovesAroundTheHost]) -> None:
    """Yellow keeps its move from the host and says on its seat links an illegal
    one (or its move, and then, once the host took it from green, a second move
    under the same number straight to the host).  Green hands yellow's frame on;
    the host takes it as yellow's.  Every seat and the transcript name yellow,
    never green, and the host hears green say it heard the end (green's link is
    not the one a cheat's frame came on)."""
    class Cheat(core):
        pass

    async def script(t: sim.Scene) -> list:
        host = await t.host(seats=3)
        Cheat.host_table = host.table
        t.join("joiner 1", core=Cheat)
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2")
        return await t.results("host", "joiner 2")

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    host = t.nodes["host"].table
    assert t.nodes["joiner 1"].core.kept is not None
    texts = [r.text for r in results]
    assert all(text.startswith("aborted: yellow") and "green" not in text for text in texts), texts
    code, out = simtable.verify(t.nodes["joiner 2"].save.path)
    assert code == 1 and "joiner 1 (seat 1" in out and "joiner 2" not in out, out
    assert 2 in host.seats_done, "the host stopped listening to green, who handed the cheat's move on"


# -- 5. a host that drops a seat's disclosure whoever brings it -----------------------------------

class DropsGreensDisclosure(HostTable):
    """Takes nothing more signed by green from its audit disclosure on, on green's
    link or handed on by yellow (``theirs``): at the audit the table does not
    wait, the seat it waits for forfeits."""

    dropped = 0

    def received(self, seat: int, msg: dict) -> bool:
        if msg["t"] in ("frames", "theirs"):
            frames = msg["f"] if msg["t"] == "frames" else [msg["f"]]
            kept = [f for f in frames if not (f[:1] == b"\x02" and (self.dropped or decode(f)["kind"] == "audit"))]
            if len(kept) < len(frames):
                self.dropped += 1
                if not kept:
                    return False
                msg = {**msg, "f": kept if msg["t"] == "frames" else kept[0]}
        return super().received(seat, msg)


def test_a_host_that_drops_a_seats_disclosure_whoever_brings_it_cannot_get_the_others_to_say_it_withheld_it(
        tmp_path: Path) -> None:
    """Green discloses at the audit and finishes; the host drops its disclosure, on
    green's link and from yellow, who hears it on its direct link (green says it
    on, finished) every few seconds for the whole wait.  The host then says green
    forfeits.  Yellow holds green's signed disclosure: it must not say that green
    withheld it (nor may the host's word alone make it)."""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=3, core=DropsGreensDisclosure)
        t.join("joiner 1")
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2")
        return await t.results("host", "joiner 1", "joiner 2")

    t = simtable.scene(4, tmp_path)
    host, yellow, green = [r.text for r in t.run(script)]
    assert t.nodes["host"].table.dropped >= 1 and host.startswith("forfeit: green"), host
    assert t.nodes["joiner 1"].core.silence.heard.get(2, 0.0) > t.nodes["joiner 1"].core._audit_since
    assert "green (joiner 2) withheld" not in yellow, yellow


class WithholdsItsDisclosure(JoinTable):
    """Sends the host nothing from its audit disclosure on (its link stays up);
    ``says`` it on its direct links or not (a seat that withholds it: its beat there
    says its other frames and the others' frames of its log, or, ``silent``, nothing)."""

    says = False
    silent = False
    withholding = False

    def _outgoing(self, frames: list[bytes]) -> list[bytes]:
        out = []
        for f in frames:  # (the game is over: its audit)
            if self.peer is not None and self.peer.phase == AUDIT and decode(f)["kind"] == "audit":
                self.withholding = True
            if not self.withholding:
                out.append(f)
        return super()._outgoing(out)

    def say_here(self) -> None:
        if self.says or not (self.withholding and self.silent):
            super().say_here()

    def _do(self, effect: Any) -> None:
        if not self.says and self.withholding and isinstance(effect, TellSeats) and effect.msg.get("t") == "mine" \
                and effect.msg["f"][:1] == bytes([self.seat]) and decode(effect.msg["f"])["kind"] == "audit":
            return  # (its disclosure, said nowhere)
        super()._do(effect)


class SaysItsDisclosureAroundTheHost(WithholdsItsDisclosure):
    says = True


class GoesSilent(WithholdsItsDisclosure):
    silent = True


@pytest.mark.parametrize("core,ends", [(WithholdsItsDisclosure, "forfeit"), (SaysItsDisclosureAroundTheHost, "fair"),
                                       (GoesSilent, "host alone")],
                         ids=["says it nowhere", "says it on the seat links", "goes silent"])
def test_a_seat_that_keeps_its_disclosure_from_the_host_forfeits_unless_it_reaches_the_host_around_it(
        tmp_path: Path, core: type[WithholdsItsDisclosure], ends: str) -> None:
    """Green keeps its audit disclosure from the host.  Said nowhere, while green's beat
    goes on on its direct links (there, at the audit, without it), it forfeits, in every
    seat's words (hearing a seat's disclosure is no longer a word from a seat that
    withholds it); said on its direct links, yellow hands it on and the game ends in
    full, fair, the same for all.  A green that goes silent on its links as well is
    named by the host alone: yellow cannot tell it from an honest seat whose link went
    dark, and says whom the game waited for (docs/fairness.md, "At the audit")."""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=3)
        t.join("joiner 1")
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2", core=core)
        return await t.results("host", "joiner 1")

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert t.nodes["joiner 2"].core.withholding
    texts = [r.text for r in results]
    if ends == "forfeit":
        assert all(text.startswith("forfeit: green (joiner 2) withheld") for text in texts), texts
    elif ends == "fair":
        assert len(set(texts)) == 1 and all(r.finished and r.fair for r in results), texts
    else:
        host, yellow = results
        assert host.text.startswith("forfeit: green (joiner 2) withheld"), host.text
        assert yellow.partial and yellow.audit_waited == (2,) and "(joiner 2)" not in yellow.text, yellow.text


def test_a_flood_of_evidence_that_proves_nothing_costs_the_host_few_checks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Yellow sends the host two hundred pieces of "evidence" (green's frames signed
    again by yellow's key): each was judged against the host's log, signatures and
    all.  A seat may hand the host eight pieces, as it may another seat."""
    from ankh.net.play import peer
    judged = [0]
    real = peer.Driver.judge

    def counting(self: Any, evidence: list[bytes]) -> Any:
        if sim._WHO.get() == "host":
            judged[0] += 1
        return real(self, evidence)
    monkeypatch.setattr(peer.Driver, "judge", counting)

    async def script(t: sim.Scene) -> list:
        await three_seats(t)
        await t.until("joiner 2", simtable.decided(2))
        yellow = t.nodes["joiner 1"].core
        have = yellow.peer.protocol.have()[2]
        node = t.nodes["joiner 1"]
        for n in range(200):
            f = forged(yellow, 2, have + n)
            t.do("joiner 1", lambda f=f: node._call(node.core._do, Send(0, {"t": "blame", "f": [f, f]})))
        return await t.results("host", "joiner 1", "joiner 2")

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert all(r.finished and r.fair for r in results), [r.text for r in results]
    host = t.nodes["host"].table
    assert host._handed[1] == 200 and judged[0] == 8, (host._handed, judged)
