"""Attacks on the seats' direct links (``net/io/seatlinks.py``) and on the
clocks a lobby shows: each seat, the host, a spectator's source and a
stranger cheat, on the simulator, to get an honest seat blamed, named gone,
or a table ended against a present person.  A test here asserts what an
honest person must see; where the system does not hold, it fails."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from ankh.net.fair import steal
from ankh.net.wire.envelope import HEADER_LEN, pack
from ankh.core.game import COLOURS
from ankh.net.play.events import Alert, Over, Played, Saving, WatchPointOpen
from ankh.net.io import sim
from ankh.net.io.seatlinks import PROLOGUE
from ankh.net.io.transport import ConnectionClosed, connect
from ankh.net.wire.envelope import Identity
from ankh.net.wire.lobby import decode, encode, points_message
from ankh.net.play.peer import Logged
from ankh.net.fair.seal import Boxes
from ankh.net.wire.lobby import frames_message
from ankh.net.tablecore.effects import Broadcast, Send, TellSeats, WatchPoints
from ankh.net.tablecore.host import HostTable
from ankh.net.tablecore.join import JoinTable

from . import simtable
from .simtable import exit_status
from .test_seat_links import DropsTheThiefsWord
from .test_steal_blame import wrong_key

JOINERS = ("joiner 1", "joiner 2")


def robbing(monkeypatch: pytest.MonkeyPatch, host: DropsTheThiefsWord, also: Any = None) -> None:
    """The host's key for a card stolen from it opens to no card (only the thief
    sees it); ``also(thief)`` is called at that moment."""
    real = steal.make_open

    def make_open(st: Any, keys: Any, master: bytes, boxes: Boxes, seq: int, box: bytes, eph: bytes) -> dict:
        body = real(st, keys, master, boxes, seq, box, eph)
        if st.victim != 0:
            return body
        if st.thief not in host.robbed and also is not None:
            also(st.thief)
        host.robbed.add(st.thief)
        return wrong_key(body, st, boxes, seq, box, eph)
    monkeypatch.setattr(steal, "make_open", make_open)


async def seat_both(t: sim.Scene, core: type = DropsTheThiefsWord, **joiner: Any) -> Any:
    host = await t.host(seats=3, core=core)
    host.table.robbed = set()
    t.join("joiner 1", **joiner)
    await t.until("host", lambda e: getattr(e, "seat", None) == 1)
    t.join("joiner 2", **joiner)
    await t.until("host", lambda e: getattr(e, "seat", None) == 2)
    return host


def robbed(monkeypatch: pytest.MonkeyPatch, core: type = DropsTheThiefsWord,
           before: Any = lambda t: None) -> Any:
    """A table where ``core``, the host, robs a joiner (``before(t)``: how the
    scene is set first): the joiners' results."""
    async def script(t: sim.Scene) -> list:
        before(t)
        host = await seat_both(t, core)
        robbing(monkeypatch, host.table)
        return await t.results(*JOINERS)
    return script


async def watch_each(t: sim.Scene) -> dict[str, WatchPointOpen]:
    points = {name: await t.until(name, lambda e: isinstance(e, WatchPointOpen)) for name in JOINERS}
    for name, point in points.items():
        t.watch(f"watch {name}", at=(point.host, point.port))
    return points


def the_host_is_named(t: sim.Scene, results: list) -> None:
    host = t.nodes["host"].table
    if not host.robbed:
        pytest.fail("nobody stole from the host in this game: the seed cannot test this")
    texts = [r.text for r in results]
    assert all(text.startswith("aborted: ") and "(host) broke the rules" in text for text in texts), texts


def nobody_honest_is_named(t: sim.Scene, results: list) -> None:
    """Kept apart from the thief, the other joiner cannot hear its evidence; but
    it signs no vote naming the thief gone (it never reached it directly) and
    names nobody: the thief names the host."""
    host = t.nodes["host"].table
    if not host.robbed:
        pytest.fail("nobody stole from the host in this game: the seed cannot test this")
    (thief,) = host.robbed
    other = JOINERS[2 - thief]
    by_name = dict(zip(JOINERS, results))
    assert by_name[JOINERS[thief - 1]].text.startswith("aborted: red (host) broke the rules"), by_name
    text = by_name[other].text
    assert "left" not in text and "broke the rules" not in text, text
    told = [str(e.text) for e in t.told[other] if isinstance(e, Alert)]
    assert any(f"you cannot agree to end the table without {COLOURS[thief]}" in line for line in told), told


# -- the host keeps the seats apart: the cheat's evidence does not reach the other seat, but nobody
# -- honest is named gone (a seat signs no vote naming a seat it never reached directly) -------------

class WithholdsTheSeats(DropsTheThiefsWord):
    """Says where the watch points are, as an older host does: with no seat for
    any of them.  The joiners never link to each other."""

    def _watch_point(self, seat: int, port: int) -> None:
        link = self.linked.get(seat)
        if link is None or link[1] is None:
            return
        self.points[seat] = (link[1][0], port)
        points = [self.points[s] for s in sorted(self.points)]
        self._do(WatchPoints(points))
        self._do(Broadcast(self._points_said(points)))

    def _points_said(self, points: list) -> dict:
        return points_message(points)


class PointsAtItself(WithholdsTheSeats):
    """Names its own address for every joiner's seat (and never the right one):
    each joiner dials the host, whose key does not answer for the other seat,
    and tries again for ever."""

    def _points_said(self, points: list) -> dict:
        return {"t": "points", "at": [{"host": self.bind, "port": self.port, "seat": s} for s in sorted(self.points)]}


@pytest.mark.parametrize("core", [WithholdsTheSeats, PointsAtItself])
def test_a_host_that_keeps_the_seats_apart_cannot_get_the_thief_named_gone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, core: type) -> None:
    """A host that names no seat for the watch points, or its own address: the
    game goes on over the star and the thief's evidence has the host as its
    only road again, but the other seat, which never reached the thief
    directly, signs no vote naming it gone."""
    async def script(t: sim.Scene) -> list:
        host = await seat_both(t, core)
        robbing(monkeypatch, host.table)
        await watch_each(t)
        return await t.results(*JOINERS, *(f"watch {n}" for n in JOINERS))

    t = simtable.scene(3, tmp_path)
    results = t.run(script)
    nobody_honest_is_named(t, results[:2])


def test_joiners_that_reach_only_the_host_cannot_get_the_thief_named_gone(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Over a VPN, an SSH tunnel or a Wi-Fi with client isolation only the host is
    reachable (docs/lan.md: the star works there): no seat link ever comes up,
    and the host drops the thief's evidence as before; the other seat is told
    it cannot agree to end the table without the thief, and signs nothing."""
    def apart(t: sim.Scene) -> None:
        t.darken("joiner 1", "joiner 2")
        t.darken("joiner 2", "joiner 1")

    t = simtable.scene(3, tmp_path)
    nobody_honest_is_named(t, t.run(robbed(monkeypatch, before=apart)))


def test_a_few_seconds_without_the_seat_link_when_the_thief_catches_the_host_lose_its_evidence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat links are up; the wire between the joiners drops out for five
    seconds just as the host robs the thief.  The thief tells its links once and
    leaves within two seconds (``DRAIN``): its evidence is gone with them."""
    async def script(t: sim.Scene) -> list:
        host = await seat_both(t)

        def outage(thief: int) -> None:
            t.darken("joiner 1", "joiner 2")
            t.darken("joiner 2", "joiner 1")

            def heal() -> None:
                t.darken("joiner 1", "joiner 2", False)
                t.darken("joiner 2", "joiner 1", False)
            t.loop.call_later(5.0, heal)
        robbing(monkeypatch, host.table, outage)
        await t.when(lambda: all(len(t.nodes[n].seats.out) == 1 for n in JOINERS))  # both links up
        return await t.results(*JOINERS)

    t = simtable.scene(3, tmp_path)
    the_host_is_named(t, t.run(script))


# -- made-up evidence, far-future steps, malformed messages ---------------------------------------

def unsigned(step: Any, body: Any = None) -> bytes:
    """Bytes shaped as a frame of ``step``, signed by nobody."""
    return bytes(HEADER_LEN) + pack({"body": body if body is not None else {"op": {"i": step}}})


async def link_as(t: sim.Scene, name: str, seat: int, pieces: list[list[bytes]]) -> Any:
    """``name``'s identity links to green's watch point as ``seat`` and hands it ``pieces``."""
    await t.until("joiner 2", lambda e: isinstance(e, WatchPointOpen))
    green = t.nodes["joiner 2"]

    async def mallory() -> None:
        conn = await dial_green(t, name, seat)
        for piece in pieces:
            conn.send_nowait(encode({"t": "blame", "f": piece}))
        await t.loop.create_future()
    t.start("mallory", mallory)
    await t.when(lambda: green.core._handed.get(seat, 0) >= len(pieces) or green.result is not None
                 or len(green.seats._in) == 0 and t.loop.time() > 60)
    return green.core


async def three_seats(t: sim.Scene, yellow: type[JoinTable] = JoinTable) -> None:
    await t.host(seats=3)
    t.join("joiner 1", core=yellow)
    await t.until("host", lambda e: getattr(e, "seat", None) == 1)
    t.join("joiner 2")


async def dial_green(t: sim.Scene, name: str, seat: int) -> Any:
    """A link from ``name``'s identity to green's watch point, saying it is ``seat``."""
    point = await t.until("joiner 2", lambda e: isinstance(e, WatchPointOpen))
    conn = await connect(point.host, point.port, t.nodes[name].identity, PROLOGUE,
                         expected_peer=t.nodes["joiner 2"].identity.public_key)
    conn.send_nowait(encode({"t": "seat", "seat": seat}))
    return conn


@pytest.mark.parametrize("name,seat", [("host", 0), ("joiner 1", 1)])
def test_a_seat_cannot_fill_anothers_hold_with_unsigned_evidence_for_far_future_steps(
        tmp_path: Path, name: str, seat: int) -> None:
    """A seat's link hands green four pieces of "evidence" no seat signed, each for
    a step a million steps ahead.  Green keeps four pieces at most until its log
    reaches their step: kept, these crowd out, for the rest of the game, the real
    evidence of a thief that catches the host while green's log is a step behind
    (the host chooses when it relays)."""
    async def script(t: sim.Scene) -> Any:
        await three_seats(t)
        return await link_as(t, name, seat, [[unsigned(10 ** 6 + n)] for n in range(4)])

    t = simtable.scene(4, tmp_path)
    green = t.run(script)
    assert green._held == [], [step for step, _ in green._held]


def test_the_host_is_not_taken_as_a_seat_link(tmp_path: Path) -> None:
    """Only joiners link to each other (docs/fairness.md): the host, whose identity
    is the start's seat 0, has its own link already, and a second road of its
    own, with its own allowance of evidence and room in the hold, is one more
    way to crowd a seat."""
    async def script(t: sim.Scene) -> Any:
        await three_seats(t)
        return await link_as(t, "host", 0, [[unsigned(10 ** 6)]])

    t = simtable.scene(4, tmp_path)
    green = t.run(script)
    assert green._handed.get(0, 0) == 0, "the host's key was taken as a seat's link (seat 0)"


def fuzzed(rng: random.Random, log: list[bytes], mine: list[bytes], resign_mine: Any) -> list[bytes]:
    """One piece of would-be evidence: frames of the log, this seat's own frames
    re-signed with a body changed, unsigned shapes, and bytes, mixed."""
    values = [None, 0, -1, 2 ** 63, "x", b"", [], {}, {"i": 3}, True, 1.5, [1, 2]]

    def one() -> bytes:
        kind = rng.randrange(6)
        if kind == 0:
            return rng.choice(log)
        if kind == 1:
            return rng.randbytes(rng.randrange(0, 200))
        if kind == 2:
            return unsigned(rng.choice(values))
        if kind == 3:
            return unsigned(0, rng.choice(values))
        if kind == 4:
            return bytes(HEADER_LEN) + pack(rng.choice(values))
        frame = rng.choice(mine)
        return resign_mine(frame, rng, values)
    return [one() for _ in range(rng.choice((1, 2)))]


def test_fuzzed_evidence_on_a_seat_link_never_crashes_a_seat_nor_names_anyone(tmp_path: Path) -> None:
    """Yellow hands green three hundred pieces of made-up evidence (its own frames
    re-signed with a field changed, the log's frames paired any way, unsigned
    shapes, random bytes): green's table takes each without an exception, and
    names nobody but yellow itself, for the one thing it proves: yellow signed
    a second message under a number its log holds another for."""
    from .nethelp import resign

    def resign_mine(frame: bytes, rng: random.Random, values: list) -> bytes:
        def change(body: dict) -> None:
            key = rng.choice(sorted(body)) if body else "op"
            body[key] = rng.choice(values) if rng.random() < 0.7 else {**body.get("op", {}), "i": rng.choice(values)}
        return resign(frame, yellow.secrets.identity, change)

    crashes: list[str] = []
    rng = random.Random(26)

    async def script(t: sim.Scene) -> list:
        nonlocal yellow
        await three_seats(t)
        await t.until("joiner 2", simtable.decided(2))
        yellow, green = t.nodes["joiner 1"].core, t.nodes["joiner 2"].core
        for _ in range(300):
            log = [f for _, frames in green.peer.ledger().log for f in frames]
            mine = [f for f in log if f[0] == 1]
            piece = fuzzed(rng, log, mine, resign_mine)
            green._handed.clear()  # (eight a seat: the fuzz looks past the bound)
            try:
                t.do("joiner 2", lambda: green.seat_said(1, {"t": "blame", "f": piece}))
            except Exception as exc:  # noqa: BLE001 - a crash of the seat's table is what is looked for
                crashes.append(f"{type(exc).__name__}: {exc} on {[p[:80].hex() for p in piece]}")
            if green.result is not None:
                break
        return await t.results("host", "joiner 1", "joiner 2")

    yellow: Any = None
    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert crashes == [], crashes[:3]
    texts = {r.text for r in results}
    assert len(texts) == 1, texts
    (text,) = texts
    assert all(r.finished and r.fair for r in results) or text.startswith(
        "aborted: yellow (joiner 1) broke the rules: signed two different messages with sequence number "), text


class Forerunner(JoinTable):
    """Hands its own honest frames to the other seat on the seat link, as
    "evidence", a moment before the host relays them: nothing false in them."""

    def _outgoing(self, frames: list[bytes]) -> list[bytes]:
        if self.seat_points:
            for frame in frames:
                self._do(TellSeats({"t": "blame", "f": [frame]}))
        return frames


def logged_lines(t: sim.Scene, name: str) -> list[str]:
    return [e.event.event.text for e in t.told[name] if isinstance(e, Played) and isinstance(e.event, Logged)]


def test_honest_frames_handed_on_as_evidence_do_not_take_lines_off_a_seats_log(tmp_path: Path) -> None:
    """A seat that "judges" a frame of the step under way takes it into its game
    (``GamePeer.judge`` receives it) and throws away what it led to: green's
    screen then lacks the lines of the game those frames played, which the
    spectator and every other seat show."""
    async def script(t: sim.Scene) -> list:
        await three_seats(t, Forerunner)
        t.watch("watch")
        return await t.results("host", "joiner 1", "joiner 2", "watch")

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert t.nodes["joiner 2"].core._handed.get(1, 0) >= 1
    assert len({r.text for r in results}) == 1 and all(r.finished and r.fair for r in results)
    assert logged_lines(t, "joiner 2") == logged_lines(t, "watch")


# -- many links, a link that claims another seat -----------------------------------------------------

def test_forty_links_from_one_seat_keep_neither_a_spectator_nor_the_game_out(tmp_path: Path) -> None:
    """Yellow opens forty links to green's watch point, each saying it is seat 1
    (its key proves it) and then nothing: a spectator still watches through
    green, and the game ends fair."""
    async def script(t: sim.Scene) -> list:
        await three_seats(t)
        point = await t.until("joiner 2", lambda e: isinstance(e, WatchPointOpen))
        green = t.nodes["joiner 2"]

        async def flood() -> None:
            conns = [await dial_green(t, "joiner 1", 1) for _ in range(40)]
            await t.loop.create_future()
            del conns
        t.start("yellow flood", flood)
        await t.when(lambda: len(green.seats._in) >= 20)
        t.watch("watch", at=(point.host, point.port))
        return await t.results("host", "joiner 1", "joiner 2", "watch")

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert len({r.text for r in results}) == 1 and all(r.finished and r.fair for r in results), \
        [r.text for r in results]


def test_a_link_that_claims_another_seats_number_is_not_taken(tmp_path: Path) -> None:
    """Yellow links to green's watch point saying it is seat 2 (green), then seat 0
    (the host): its key is neither, and green hears nothing from it."""
    async def script(t: sim.Scene) -> Any:
        await three_seats(t)
        await t.until("joiner 2", lambda e: isinstance(e, WatchPointOpen))
        green = t.nodes["joiner 2"]
        closed = []

        async def liar() -> None:
            for claim in (2, 0):
                conn = await dial_green(t, "joiner 1", claim)
                conn.send_nowait(encode({"t": "blame", "f": [unsigned(10 ** 6)]}))
                try:
                    await conn.recv()
                except Exception:  # noqa: BLE001 - the link is closed on it: what is looked for
                    closed.append(claim)
        t.start("liar", liar)
        await t.when(lambda: len(closed) == 2)
        return green.core

    t = simtable.scene(4, tmp_path)
    green = t.run(script)
    assert green._handed == {} and green._held == []


# -- the clocks a lobby shows ------------------------------------------------------------------------

class ShortensTheLobby(HostTable):
    """Once the first joiner sat at the usual clocks, its lobby says 1 s for both."""

    def arrive(self, key: bytes, address: Any, first: dict, *link: Any) -> Any:
        seat = super().arrive(key, address, first, *link)
        if isinstance(seat, int) and seat == 1:
            self.lobby.gone_after = self.lobby.move_clock = 1
            self._lobby_changed()
        return seat


def one_joiner(tmp_path: Path, core: type[HostTable], seats: int) -> tuple[sim.Scene, list]:
    """A table of ``seats`` that ``core`` hosts, and one joiner: how the host and it ended."""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=seats, core=core)
        t.join("joiner 1")
        return await t.results(*(("host",) if seats == 2 else ()), "joiner 1")

    t = simtable.scene(7, tmp_path)
    return t, t.run(script)


def test_a_lobby_that_shortens_the_clocks_after_a_joiner_sat_sends_it_away_with_the_reason(tmp_path: Path) -> None:
    t, (yellow,) = one_joiner(tmp_path, ShortensTheLobby, 3)
    assert yellow.text == "refused: the host changed the table's clocks after you sat down", yellow.text
    assert t.nodes["joiner 1"].peer is None


class OlderHost(HostTable):
    """An older ankh's lobby: no clocks in it; its start carries the usual ones."""

    def _lobby_changed(self) -> None:
        real = self.lobby.message
        self.lobby.message = lambda: {k: v for k, v in real().items() if k not in ("gone", "clock")}
        super()._lobby_changed()


def test_an_older_hosts_lobby_without_clocks_and_its_usual_start_are_taken(tmp_path: Path) -> None:
    _, (host, yellow) = one_joiner(tmp_path, OlderHost, 2)
    assert yellow.text == host.text and exit_status(yellow) == 0, yellow.text


# -- a seat that comes back from its save -----------------------------------------------------------

def test_a_seat_resumed_from_its_save_links_again_and_still_names_the_robbing_host(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Green's process is killed early in the game and started again from its save;
    its watch point has a new port.  When the host then robs yellow and drops its
    evidence, green (resumed) still hears it on the seat link and names the host."""
    async def script(t: sim.Scene) -> list:
        host = await seat_both(t)
        robbing(monkeypatch, host.table)
        await t.until("joiner 2", lambda e: isinstance(e, WatchPointOpen))
        if host.table.robbed:
            pytest.fail("the host was robbed before green was killed: the seed cannot test this")
        save = await t.kill("joiner 2")
        assert save is not None
        task = await t.resume("joiner 2", save, auto_agree=True)
        return [await t.tasks["joiner 1"], await task]

    t = simtable.scene(3, tmp_path)
    the_host_is_named(t, t.run(script))


# -- the hold crowded out, end to end -----------------------------------------------------------------

class SlowToYellow(DropsTheThiefsWord):
    """Relays everything to yellow ten seconds late (a slow link, as far as
    anyone can tell), so yellow's log is a step or more behind green's."""

    lag = 10.0

    def _send_outbox(self, seat: int) -> None:
        if seat != 1:
            super()._send_outbox(seat)
            return
        queue = self.__dict__.setdefault("queue", [])
        assert self.hub is not None
        frames = self.hub.outbox(seat)
        if frames:
            queue.append((self.clock(), frames))
        while queue and self.clock() - queue[0][0] >= self.lag and seat in self.linked:
            for m in frames_message(queue.pop(0)[1]):
                self._do(Send(seat, m))

    def tick(self) -> None:
        super().tick()
        if self.hub is not None and self.result is None:
            self._send_outbox(1)


@pytest.mark.parametrize("junk", [False, True], ids=["slow link alone", "hold filled first"])
def test_a_robbed_thiefs_evidence_reaches_a_seat_whose_log_is_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, junk: bool) -> None:
    """Green is robbed by the host while yellow's log is behind (the host relays to
    yellow late): yellow must keep green's evidence until its log gets there.
    With the hold filled first by the host's four unsigned pieces for far-future
    steps (on a seat link as seat 0), it is thrown away, and yellow signs green gone."""
    async def script(t: sim.Scene) -> list:
        host = await seat_both(t, SlowToYellow)
        robbing(monkeypatch, host.table)
        if junk:
            point = await t.until("joiner 1", lambda e: isinstance(e, WatchPointOpen))
            yellow = t.nodes["joiner 1"]

            async def mallory() -> None:
                conn = await connect(point.host, point.port, host.identity, PROLOGUE,
                                     expected_peer=yellow.identity.public_key)
                conn.send_nowait(encode({"t": "seat", "seat": 0}))
                for n in range(4):
                    conn.send_nowait(encode({"t": "blame", "f": [unsigned(10 ** 6 + n)]}))
                await t.loop.create_future()
            t.start("mallory", mallory)
        return await t.results(*JOINERS)

    t = simtable.scene(3, tmp_path)
    the_host_is_named(t, t.run(script))


# -- a seat that names the host on a seat link's word, and a host gone quiet ------------------------

class QuietToTheOther(DropsTheThiefsWord):
    """Once it robbed the thief, relays nothing more to the other joiner (its link
    stays up: the transport's keepalives go on), and drops what the thief says;
    with ``silent``, its broadcasts (its last ``bye``) do not reach it either."""

    silent = False

    def _do(self, effect: Any) -> None:
        if self.__dict__.get("robbed") and (isinstance(effect, Send) and effect.seat not in self.robbed
                                            or self.silent and isinstance(effect, Broadcast)):
            return
        super()._do(effect)


class SilentToTheOther(QuietToTheOther):
    silent = True


@pytest.mark.parametrize("core", [QuietToTheOther, SilentToTheOther])
def test_a_host_that_stops_relaying_to_the_other_seat_as_it_robs_names_nobody_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, core: type) -> None:
    """The other joiner's log stops a step short of the robbery, so the thief's
    evidence (on the seat link) is for a step it has not reached: kept, and not
    judged, since the host relays nothing more (the frames it rests on do not
    come round the host yet).  The other seat then names nobody, never the
    thief, and its program ends (a headless ``ankh join`` exits) even if the
    host says nothing more."""
    import asyncio

    async def script(t: sim.Scene) -> list:
        host = await seat_both(t, core)
        robbing(monkeypatch, host.table)
        await t.when(lambda: bool(host.table.robbed))
        (thief,) = host.table.robbed
        other = JOINERS[1 - (thief - 1)]
        await t.until(other, lambda e: type(e).__name__ == "Over")
        try:
            result = await asyncio.wait_for(asyncio.shield(t.tasks[other]), 600)
        except TimeoutError:
            pytest.fail(f"{other} was told {t.nodes[other].result.text!r}, and its program has not ended "
                        "ten virtual minutes later")
        return [result]

    t = simtable.scene(3, tmp_path)
    (result,) = t.run(script)
    assert "left" not in result.text and "broke the rules" not in result.text, result.text


# -- a host that signed two versions of one message, handed on by a seat --------------------------

@pytest.mark.parametrize("handed", ["both", "alone", "pair"],
                         ids=["both versions", "the other version alone", "with a disclosure"])
def test_a_hosts_second_version_of_a_message_a_seat_holds_proves_it_equivocated(tmp_path: Path,
                                                                                handed: str) -> None:
    """A host that keeps two seats on two versions of its log (each sees one) is
    caught when one hands the other its version: a frame the host signed with a
    sequence number whose frame green holds is different.  Handed on alone (for a
    step that is over at green) or as the outer frame of a pair, green must name
    the host: two frames one seat signed with one number are evidence anywhere."""
    from .nethelp import resign

    async def script(t: sim.Scene) -> Any:
        await three_seats(t)
        await t.until("joiner 2", simtable.decided(2))
        host, green = t.nodes["host"].table, t.nodes["joiner 2"].core
        log = [f for _, frames in green.peer.ledger().log for f in frames]
        ours = [f for f in log if f[0] == 0][-1]
        theirs = resign(ours, host._secrets[0].identity, lambda body: body.update(basis=bytes(32)))
        assert theirs != ours
        piece = {"both": [ours, theirs], "alone": [theirs], "pair": [theirs, b"\x00" * 32]}[handed]
        t.do("joiner 2", lambda: green.seat_said(1, {"t": "blame", "f": piece}))
        return green

    t = simtable.scene(4, tmp_path)
    green = t.run(script)
    assert green.result is not None and "(host) broke the rules" in green.result.text, \
        green.result.text if green.result else "green goes on playing"


def test_malformed_and_oversized_messages_on_a_seat_link_close_that_link_only(tmp_path: Path) -> None:
    """Yellow's links to green's watch point carry random bytes, a message of no
    known kind, a ``blame`` of three frames, a frame of 200 kB and a hundred
    ``blame``s in a row: each link is closed or its words ignored, green takes
    nothing, and the game ends fair for everyone."""
    async def script(t: sim.Scene) -> list:
        await three_seats(t)
        await t.until("joiner 2", lambda e: isinstance(e, WatchPointOpen))
        rng = random.Random(5)
        garbage = [rng.randbytes(60_000), pack({"t": "nonsense", "x": 1}),
                   pack({"t": "blame", "f": [b"a", b"b", b"c"]}), pack({"t": "blame", "f": [bytes(200_000)]}),
                   pack({"t": "seat", "seat": 1})]

        async def mallory() -> None:
            for data in garbage:
                conn = await dial_green(t, "joiner 1", 1)
                conn.send_nowait(data)
            conn = await dial_green(t, "joiner 1", 1)
            for n in range(100):
                conn.send_nowait(encode({"t": "blame", "f": [unsigned(n % 3)]}))
            await t.loop.create_future()
        t.start("mallory", mallory)
        return await t.results("host", "joiner 1", "joiner 2")

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert len({r.text for r in results}) == 1 and all(r.finished and r.fair for r in results), \
        [r.text for r in results]


class EndsAsItRobs(DropsTheThiefsWord):
    """Relays the robbery to everyone, then at once says ``bye`` to the table: the
    other joiner's game is over before the thief's evidence reaches it."""

    def _send_outbox(self, seat: int) -> None:
        super()._send_outbox(seat)
        if self.__dict__.get("robbed") and not self.__dict__.get("said_bye") and seat == 2:
            self.said_bye = True
            self._do(Broadcast({"t": "bye", "why": "the host had to go"}))


def test_a_host_that_says_bye_as_it_robs_does_not_outrun_the_thiefs_evidence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other joiner hears the host's ``bye`` a moment before the thief's
    evidence on the seat link: it must still judge it and name the host, not
    say the table "waited for" the thief it robbed."""
    t = simtable.scene(3, tmp_path)
    the_host_is_named(t, t.run(robbed(monkeypatch, EndsAsItRobs)))
    thief, = t.nodes["host"].table.robbed
    other = JOINERS[2 - thief]
    overs = [e.result.text for e in t.told[other] if isinstance(e, Over)]
    assert len(overs) == 1, overs  # one ending on the screen, not the host's word and then another
    (save,) = [e.path for e in t.told[other] if isinstance(e, Saving)]
    rc, out = simtable.verify(save)
    assert rc != 0 and out.startswith("violation: host (seat 0"), out  # the evidence is in the journal too


# -- a joiner of the last release at this release's table ------------------------------------------

def test_a_joiner_of_the_last_release_is_told_why_it_cannot_sit_not_sent_round_a_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The protocol's name is still ``ankh/1``, but this release's ``lobby`` has two
    fields (``gone``, ``clock``) that the last release's strict schema refuses:
    such a joiner (modelled by its decoder) closes the link as "malformed", joins
    again, is sent the same lobby, and so on.  It must end with a clear word
    within a minute, not go round for ever."""
    import asyncio

    from ankh.net.wire.errors import RemoteProtocolError
    from ankh.net.io import join

    real = join.decode

    def older(data: bytes) -> dict:
        msg = real(data)
        if sim._WHO.get() == "joiner 1" and msg["t"] == "lobby" and ("gone" in msg or "clock" in msg):
            raise RemoteProtocolError("lobby: unexpected field 'gone'")
        return msg
    monkeypatch.setattr(join, "decode", older)

    async def script(t: sim.Scene) -> Any:
        await t.host(seats=2)
        t.join("joiner 1")
        try:
            return await asyncio.wait_for(asyncio.shield(t.tasks["joiner 1"]), 60)
        except TimeoutError:
            links = sum(1 for e in t.told["joiner 1"] if type(e).__name__ == "Gone")
            pytest.fail(f"still going round after a minute: its link lost {links} times, no word why")

    t = simtable.scene(7, tmp_path)
    result = t.run(script)
    assert "version" in result.text or "newer" in result.text, result.text


# -- a newcomer's first word the table cannot take ---------------------------------------------------

async def first_word(t: sim.Scene, identity: Any, msg: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    """A link to the host with ``identity`` that says ``msg`` first: what it was told, and why it closed."""
    host = t.nodes["host"]
    heard: list[dict[str, Any]] = []
    closed = t.loop.create_future()

    async def newcomer() -> None:
        conn = await connect(host.bind, host.port, identity, PROLOGUE, expected_peer=host.identity.public_key)
        conn.send_nowait(encode(msg))
        try:
            while True:
                heard.append(decode(await conn.recv()))
        except ConnectionClosed as exc:
            closed.set_result(exc.reason)
    t.start("newcomer", newcomer)
    return heard, await closed


def test_a_seat_back_with_a_count_for_another_number_of_seats_is_refused_and_its_seat_plays_on(
        tmp_path: Path) -> None:
    """Green's identity links to the host during the game and says ``rejoin`` with a count
    for three seats at a table of two: the table could not take it (it raised), and the link
    was left neither read nor closed, green's own link taken from it.  It is refused, saying
    why; green keeps its link and the game is played to its end."""
    async def script(t: sim.Scene) -> Any:
        host = await t.host(seats=2)
        t.join("green")
        await t.when(lambda: host.hub is not None and 1 in host.conns)
        link = host.conns[1]
        game = host.roster.game_id
        heard, why = await first_word(t, t.nodes["green"].identity, {"t": "rejoin", "game": game, "have": [0, 0, 0]})
        assert host.conns[1] is link
        return heard, why, await t.results("host", "green")

    heard, why, (host_result, green_result) = simtable.scene(7, tmp_path).run(script)
    assert [m["t"] for m in heard] == ["bye"] and "a rejoin gives a count for every seat" in heard[0]["why"]
    assert "a rejoin gives a count for every seat" in why
    assert host_result.fair and green_result.text == host_result.text


class FailsAWatcher(HostTable):
    """A host table with a bug: it raises on a spectator's first word."""

    def _arrive(self, key, address, first, link, ticket):
        if first["t"] == "watch":
            raise KeyError("a bug")
        return super()._arrive(key, address, first, link, ticket)


def test_a_newcomer_the_table_fails_to_take_is_closed_saying_why_and_the_table_goes_on(tmp_path: Path) -> None:
    async def script(t: sim.Scene) -> Any:
        host = await t.host(seats=2, core=FailsAWatcher)
        t.join("green")
        await t.when(lambda: host.hub is not None)
        heard, why = await first_word(t, Identity.generate(), {"t": "watch", "from": 0})
        return heard, why, await t.results("host", "green"), t.told["host"]

    heard, why, (host_result, green_result), told = simtable.scene(7, tmp_path).run(script)
    assert heard == [] and "the table failed to take this link: " in why
    assert any(isinstance(e, Alert) and "failed to take this link" in e.text for e in told)
    assert host_result.fair and green_result.text == host_result.text
