"""Cheating seats over real sockets: the honest host refuses the cheat, names
the cheater, and the game ends as aborted on both sides.  (A seat that
withholds its audit disclosure, and a wrong key in a private message proven
to every seat and a spectator: on the simulator.)"""
from __future__ import annotations

import asyncio
import random

import pytest

from ankh.net.play.events import Alert, Joined, Started
from ankh.core.morpork.bots.random_bot import RandomBot
from ankh.net.wire.envelope import Identity
from ankh.net.io import sim
from ankh.net.io.node import PROLOGUE, HostNode, JoinNode, Result, WatchNode
from ankh.net.io.transport import ConnectionClosed, serve, server_port
from ankh.net.wire.lobby import encode
from ankh.net.play.ops import Show
from ankh.net.tablecore.join import JoinTable
from ankh.net.files.verify import verify_transcript

from . import simcheats, simtable
from .nethelp import decode, resign, swap_scalar


def bot_decide(seed: int):
    rng = random.Random(seed)

    async def decide(peer, decision):
        return RandomBot(rng).choose(peer.engine.copy(), decision)

    return decide


def host_node(where, name: str = "honest", *, seats: int = 2, report=lambda e: None) -> HostNode:
    """A host on loopback whose seat a bot plays, saving under ``where``/h."""
    return HostNode(Identity.generate(), name, seats=seats, bots=0, decide=bot_decide(1), report=report,
                    save_root=where / "h", bind="127.0.0.1", advertise=False)


def join_node(where, name: str, cls: type = JoinNode, *, seed: int = 2, report=lambda e: None, **kw) -> JoinNode:
    """A joiner (of class ``cls``) whose seat a bot plays, saving under ``where``/``name``."""
    return cls(Identity.generate(), name, decide=bot_decide(seed), report=report, save_root=where / name, **kw)


class CheatingTable(JoinTable):
    """Sends its ``n``-th frame of ``kind`` altered by ``mutate`` and signed again
    (each given by a subclass: see :class:`CheatingJoiner`)."""

    kind, mutate, left = "", staticmethod(lambda body: None), 0
    cheated = False

    def _outgoing(self, frames):
        out = []
        for f in frames:
            if decode(f)["kind"] == self.kind and not self.cheated:
                self.left -= 1
                if self.left == 0:
                    f = resign(f, self.secrets.identity, self.mutate)  # signed with this seat's game key
                    self.cheated = True
            out.append(f)
        return out


class CheatingJoiner(JoinNode):
    """A joiner whose table is a :class:`CheatingTable`."""

    def __init__(self, *a, kind: str, mutate, n: int = 3, **kw):
        core = type("Cheating", (CheatingTable,), {"kind": kind, "mutate": staticmethod(mutate), "left": n})
        super().__init__(*a, core=core, **kw)

    cheated = property(lambda self: self.core.cheated)


async def play_with_cheat(tmp_path, **cheat) -> tuple[Result, Result, CheatingJoiner]:
    reports: list = []
    host = host_node(tmp_path, report=reports.append)
    port = await host.open()
    joiner = join_node(tmp_path, "cheat", CheatingJoiner, **cheat)
    host_result, join_result = await asyncio.wait_for(asyncio.gather(host.run(), joiner.run("127.0.0.1", port)), 120)
    return host_result, join_result, joiner


def test_an_illegal_move_over_the_wire_is_refused_and_named(tmp_path) -> None:
    host, _, cheat = asyncio.run(play_with_cheat(
        tmp_path, kind="move", mutate=lambda body: body.__setitem__("move", ["pay", 99]), n=5))
    assert cheat.cheated
    assert host.text.startswith("aborted: yellow (cheat) broke the rules") and "illegal move" in host.text
    assert not host.finished


def test_a_wrong_key_over_the_wire_is_refused_and_named(tmp_path) -> None:
    host, _, cheat = asyncio.run(play_with_cheat(
        tmp_path, kind="keys", mutate=lambda body: body.__setitem__("k", swap_scalar(body["k"], 0, 12345)), n=2))
    assert cheat.cheated
    assert host.text.startswith("aborted: yellow (cheat) broke the rules"), host.text
    assert not host.finished


@pytest.mark.parametrize("name,twin", [("Ann", " ANN "), ("Bob", "Вob")])   # case; a Cyrillic letter
def test_a_name_that_differs_only_in_case_or_look_alike_letters_is_refused_in_the_lobby(tmp_path, name,
                                                                                          twin) -> None:
    async def go():
        host = host_node(tmp_path, name)
        port = await host.open()
        joiner = join_node(tmp_path, twin)
        result = await asyncio.wait_for(joiner.run("127.0.0.1", port), 30)
        seated = [s.name for s in host.lobby.seats]
        await host.close()
        return result, seated

    result, seated = asyncio.run(go())
    assert result.text.startswith(f"refused: the name {twin!r} is too like {name!r}"), result.text
    assert seated == [name]  # the table waits on for a player it can seat


def test_a_bogus_log_hash_is_blamed_on_its_signer(tmp_path) -> None:
    host, joiner, cheat = asyncio.run(play_with_cheat(
        tmp_path, kind="dice", mutate=lambda body: body.__setitem__("basis", bytes(32)), n=3))
    assert cheat.cheated
    assert host.text.startswith("aborted: yellow (cheat) broke the rules"), host.text
    assert "log hash" in host.text and "unknown" not in host.text
    assert not host.finished


def private_liar(armed: list) -> type[JoinTable]:
    """A table that puts a wrong key in its first private message to another joiner
    (``armed`` is shared, so that of two such joiners only the first to get the chance lies)."""
    return type("Liar", (PrivateLiar,), {"armed": armed})


class PrivateLiar(JoinTable):
    armed: list = []
    cheated = False

    def _begin(self, roster, secrets, frames=None, journaled=0):
        super()._begin(roster, secrets, frames, journaled)
        proto = self.peer.protocol
        honest = proto._key_body

        def lying(op):
            body = honest(op)
            if isinstance(op, Show) and op.to not in (0, self.seat) and self.armed:
                self.armed.clear()
                self.cheated = True
                body["k"] = swap_scalar(body["k"], 0, 777)  # its proof no longer holds
            return body

        proto._key_body = lying


def test_a_wrong_key_in_a_private_message_is_proven_to_every_seat_and_spectator(tmp_path) -> None:
    """(On the simulator: the real host, joiners and spectator; at this seed a card is
    shown privately to a joiner, which gives a liar its chance.)"""
    async def script(t: sim.Scene) -> list:
        armed = [True]
        await t.host("honest", seats=3)
        t.join("one", core=private_liar(armed))
        await t.until("honest", lambda e: isinstance(e, Joined) and e.name == "one")
        t.join("two", core=private_liar(armed))
        await t.until("honest", lambda e: isinstance(e, Started))
        t.watch("spectator")
        return await t.results("honest", "one", "two", "spectator")

    t = simtable.scene(0, tmp_path, "morpork")
    *results, seen = t.run(script)
    (liar,) = [t.nodes[name] for name in ("one", "two") if t.nodes[name].core.cheated]
    colour = ("red", "yellow", "green")[liar.seat]
    blamed = f"aborted: {colour} ({liar.name}) broke the rules"
    for result in (*results, seen):  # the host, both joiners and the spectator
        assert result.text.startswith(blamed), result.text
        assert "private message to" in result.text and "wrong key" in result.text
    assert not any("abandoned" in r.text for r in results)
    # the host's journal keeps the receiver's evidence: ankh verify names the liar too
    (journal,) = (tmp_path / "honest").glob("net-*/journal.ankh")
    report = verify_transcript(journal)
    assert [v.seat for v in report.violations] == [liar.seat], str(report)
    assert "wrong key" in report.violations[0].message


class Withholder(JoinTable):
    """Plays the whole game, then keeps its audit disclosure to itself (and says nothing more)."""

    silent = False

    def _outgoing(self, frames):
        out = []
        for f in frames:
            self.silent = self.silent or decode(f)["kind"] == "audit"
            if not self.silent:
                out.append(f)
        return out


@pytest.mark.parametrize("talks", [True, False], ids=["talks on its links", "goes silent"])
def test_a_seat_that_withholds_its_audit_disclosure_forfeits(tmp_path, talks: bool) -> None:
    """(On the simulator: the real host and joiners, the withholder a JoinTable of its own,
    which keeps talking on its direct links (``talks``), or goes silent there too: then
    the honest joiner cannot tell it from a seat whose link went dark, and says whom the
    game waited for; the host alone names it, and its journal says so to ``verify``.)"""
    async def script(t: sim.Scene) -> list:
        host = await t.host("honest", seats=3)
        host.abandon_after = 3.0  # how long the audit waits for a disclosure
        # its own count of the same wait: it names no one before it waited too
        t.join("fair", abandon_after=3.0)
        await t.until("honest", lambda e: isinstance(e, Joined) and e.name == "fair")  # "fair" sits at seat 1
        t.join("sly", core=simcheats.talking(lambda base: Withholder)(JoinTable) if talks else Withholder)
        return await t.results("honest", "fair")

    host, fair = simtable.scene(3, tmp_path).run(script)
    assert host.text.startswith("forfeit: green (sly) withheld the audit disclosure"), host.text
    if talks:  # the honest joiner too, from its own log
        assert fair.text.startswith("forfeit: green (sly) withheld the audit disclosure"), fair.text
    else:
        assert fair.partial and fair.audit_waited == (2,) and "(sly)" not in fair.text, fair.text
    for result in (host, fair):
        assert not result.fair and "abandoned" not in result.text
    (journal,) = (tmp_path / "honest").glob("net-*/journal.ankh")
    report = verify_transcript(journal)
    assert [v.seat for v in report.violations] == [2], str(report)
    assert "withheld its audit disclosure" in report.violations[0].message and "forfeits" in str(report)


@pytest.mark.parametrize("accusation", ["aborted: yellow (fair) broke the rules: illegal move",
                                        "refused: yellow (fair) broke the rules: illegal move"])
def test_a_hosts_bye_that_accuses_a_seat_is_not_taken_as_the_result(tmp_path, accusation: str) -> None:

    async def go():
        host = host_node(tmp_path, "liar")
        port = await host.open()
        fair = join_node(tmp_path, "fair")
        spectator = WatchNode(Identity.generate(), report=lambda e: None)
        joined = asyncio.ensure_future(fair.run("127.0.0.1", port))
        while host.hub is None or host.hub.host.engine.turn < 3:
            await asyncio.sleep(0.05)
        watched = asyncio.ensure_future(spectator.run("127.0.0.1", port))
        while spectator.spectator is None or spectator.spectator.engine.turn < 3:
            await asyncio.sleep(0.05)
        host._broadcast({"t": "bye", "why": accusation})  # no evidence: its own words only
        host.watchers.send(encode({"t": "bye", "why": accusation}))
        host._call(host.table.end, Result(accusation))
        await host.close()
        return await asyncio.wait_for(asyncio.gather(joined, watched), 60)

    fair, seen = asyncio.run(go())
    for result in (fair, seen):
        assert "broke the rules" not in result.text and "fair" not in result.text, result.text
        assert result.text.startswith("the table ended the game"), result.text


def test_a_joiner_back_after_a_drop_rejoins_only_the_host_it_sat_with(tmp_path) -> None:
    from .test_lobby_reconnect import Cutter

    heard: list[bytes] = []

    async def impostor(conn):  # answers at the table's address with another key, and would accuse
        try:
            heard.append(await conn.recv())
            conn.send_nowait(encode({"t": "bye", "why": "aborted: yellow (fair) broke the rules: it cheated"}))
        except ConnectionClosed:
            pass

    async def go():
        host = host_node(tmp_path, "host")
        port = await host.open()
        cutter = Cutter(port)
        via = await cutter.open()
        warnings: list[str] = []
        fair = join_node(tmp_path, "fair", report=lambda e: warnings.append(e.text) if isinstance(e, Alert) else None)
        fair.abandon_after = 4.0
        joined = asyncio.ensure_future(fair.run("127.0.0.1", via))
        while host.hub is None or host.hub.host.engine.turn < 3:
            await asyncio.sleep(0.05)
        server = await serve("127.0.0.1", 0, Identity.generate(), PROLOGUE, impostor)
        cutter.target = server_port(server)  # the table's address now answers with another key
        cutter.cut()
        result = await asyncio.wait_for(joined, 60)
        server.close()
        cutter.close()
        await host.close()
        return result, warnings

    result, warnings = asyncio.run(go())
    assert heard == []  # it said nothing to the impostor: no rejoin, no frames
    # the host never came back (only an impostor answered): the game is paused in the save, not over
    assert result.text.startswith("paused: red (the host) did not come back"), result.text
    assert any("not the expected" in w for w in warnings), warnings
