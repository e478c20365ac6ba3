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

from ankh.net import steal
from ankh.net.envelope import HEADER_LEN, pack
from ankh.net.events import Played, WatchPointOpen
from ankh.net.io import sim
from ankh.net.io.seatlinks import PROLOGUE
from ankh.net.io.transport import connect
from ankh.net.lobby import encode, points_message
from ankh.net.peer import Logged
from ankh.net.seal import Boxes
from ankh.net.tablecore.effects import Broadcast, TellSeats, WatchPoints
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


# -- the host keeps the seats apart, and the cheat's evidence is lost again -------------------------

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
        self._do(Broadcast(points_message(points)))


class PointsAtItself(DropsTheThiefsWord):
    """Names its own address for every joiner's seat: each joiner dials the host,
    whose key does not answer for the other seat, and tries again for ever."""

    def _watch_point(self, seat: int, port: int) -> None:
        super()._watch_point(seat, port)
        self._do(Broadcast({"t": "points", "at": [{"host": self.bind, "port": self.port, "seat": s}
                                                  for s in sorted(self.points)]}))


@pytest.mark.parametrize("core", [WithholdsTheSeats, PointsAtItself])
def test_a_host_that_keeps_the_seats_apart_still_gets_the_thief_named_gone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, core: type) -> None:
    """docs/fairness.md says a host that names a wrong address or none "stalls its
    own table": it does not; the game goes on over the star, the thief's evidence
    has the host as its only road again, and the other seat signs it gone."""
    async def script(t: sim.Scene) -> list:
        host = await seat_both(t, core)
        robbing(monkeypatch, host.table)
        await watch_each(t)
        return await t.results(*JOINERS, *(f"watch {n}" for n in JOINERS))

    t = simtable.scene(3, tmp_path)
    the_host_is_named(t, t.run(script))


def test_joiners_that_reach_only_the_host_get_the_thief_named_gone(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Over a VPN, an SSH tunnel or a Wi-Fi with client isolation only the host is
    reachable (docs/lan.md: the star works there): no seat link ever comes up,
    nothing says so, and the host drops the thief's evidence as before."""
    async def script(t: sim.Scene) -> list:
        t.darken("joiner 1", "joiner 2")
        t.darken("joiner 2", "joiner 1")
        host = await seat_both(t)
        robbing(monkeypatch, host.table)
        return await t.results(*JOINERS)

    t = simtable.scene(3, tmp_path)
    the_host_is_named(t, t.run(script))


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
