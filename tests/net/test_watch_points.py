"""Every seat is a watch point: a spectator watches through a joiner as well as
through the host, re-attaches to another seat when the one it watches through
dies (missing nothing, repeating nothing), a watch-only port seats nobody, and
a table that hides its chat from spectators hides it at every watch point."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from ankh.net.play.events import Chat, ChatHidden, Saving, Started, WatchLost, WatchMoved, WatchPointOpen
from ankh.net.wire.envelope import Identity
from ankh.net.io import sim
from ankh.net.io.node import PROLOGUE, HostNode, JoinNode, WatchNode
from ankh.net.io.transport import ConnectionClosed, connect
from ankh.net.io.watchers import WATCH_ONLY
from ankh.net.wire.lobby import encode

from . import simtable
from .procs import Peers
from .simtable import exit_status, logged
from .test_watch import bot_decide


@pytest.fixture
def peers():
    ps = Peers()
    yield ps
    ps.stop_all()


def table_of_two(peers: Peers, tmp_path: Path, seed: int):
    host = peers.start(["host", "--headless", "--bot", "random", "--seats", "2", "--bind", "127.0.0.1",
                        "--no-advertise", "--seed", str(seed)], tmp_path / "host")
    port = host.value("listening on port")
    joiner = peers.start(["join", f"127.0.0.1:{port}", "--headless", "--bot", "random", "--seed", str(seed + 1),
                          "--name", "joiner"], tmp_path / "join")
    point = joiner.value("spectators can watch through")
    return host, port, joiner, point


def turns(lines: list[str]) -> list[str]:
    return [l for l in lines if l.startswith("turn ")]


def test_a_spectator_watches_through_a_joiner_to_the_end(peers: Peers, tmp_path: Path) -> None:
    host, port, joiner, point = table_of_two(peers, tmp_path, 61)
    assert not point.endswith(f":{port}")
    watcher = peers.start(["watch", point, "--headless"], tmp_path / "watch")
    assert watcher.finish() == 0 and host.finish() == 0 and joiner.finish() == 0
    assert watcher.result == host.result == joiner.result
    assert turns(watcher.lines) == turns(host.lines) and turns(host.lines)
    assert not any(l.startswith("watching through") for l in watcher.lines)  # it never had to move


def test_a_spectator_reattaches_when_its_seat_dies_and_misses_nothing(tmp_path: Path) -> None:
    """(On the simulator: the real host, joiner and spectator, the joiner killed as with ``kill -9``.)"""
    async def script(t: sim.Scene) -> list:
        host = await t.host(seats=2)
        t.join("joiner")
        point = await t.until("joiner", lambda e: isinstance(e, WatchPointOpen))
        assert point.port != host.port
        save = (await t.until("joiner", lambda e: isinstance(e, Saving))).path
        t.watch("watch", at=(point.host, point.port))
        await t.until("watch", lambda e: isinstance(e, Started))   # it watches through the joiner ...
        await t.until("joiner", logged("turn 4:"))
        await t.kill("joiner")  # ... which dies in the middle of the game (the spectator may still be catching up)
        lost = await t.until("watch", lambda e: isinstance(e, WatchLost))
        assert lost.address == (point.host, point.port)
        moved = await t.until("watch", lambda e: isinstance(e, WatchMoved))
        assert moved.address == (host.bind, host.port)  # on to the host, which the joiner named
        await t.resume("joiner", save)
        return await t.results("watch", "host", "joiner")

    t = simtable.scene(71, tmp_path, "morpork")
    results = t.run(script)
    assert [exit_status(r) for r in results] == [0, 0, 0]
    assert len({r.text for r in results}) == 1

    def turns(name: str) -> list[str]:
        return [e.event.event.text for e in t.told[name] if logged("turn ")(e)]
    # The whole public log once, in order: nothing lost at the move, nothing twice.
    assert turns("watch") == turns("host")
    assert len(turns("watch")) == len(set(turns("watch"))) > 4


async def quiet_table(tmp_path: Path):
    heard: dict[str, list] = {"host": [], "joiner": [], "via host": [], "via joiner": []}
    hidden: list[str] = []

    def hear(who):
        def report(event):
            if isinstance(event, Chat):
                heard[who].append((event.seat, event.name, event.text))
            elif isinstance(event, ChatHidden):
                hidden.append(who)
        return report

    host = HostNode(Identity.generate(), "host", seats=2, bots=0, decide=bot_decide(5), report=hear("host"),
                    save_root=tmp_path / "h", bind="127.0.0.1", advertise=False, spectator_chat=False)
    port = await host.open()
    joiner = JoinNode(Identity.generate(), "joiner", decide=bot_decide(6), report=hear("joiner"),
                      save_root=tmp_path / "j")
    game = asyncio.ensure_future(host.run())
    seat = asyncio.ensure_future(joiner.run("127.0.0.1", port))
    while joiner.watch_port == 0:
        await asyncio.sleep(0.02)
    watchers = {"via host": WatchNode(Identity.generate(), report=hear("via host")),
                "via joiner": WatchNode(Identity.generate(), report=hear("via joiner"))}
    for w in watchers.values():
        w.keep = True
    runs = [asyncio.ensure_future(watchers["via host"].run("127.0.0.1", port)),
            asyncio.ensure_future(watchers["via joiner"].run("127.0.0.1", joiner.watch_port))]
    while any(w.spectator is None for w in watchers.values()):
        await asyncio.sleep(0.02)
    # A seat's attempts at the watch-only port: no seat, no way into the game.
    refused = []
    for first in ({"t": "join", "name": "intruder", "nonce": b"n" * 16},
                  {"t": "rejoin", "game": joiner.peer.protocol.roster.game_id, "have": [0, 0]}):
        conn = await connect("127.0.0.1", joiner.watch_port, Identity.generate(), PROLOGUE)
        conn.send_nowait(encode(first))
        with pytest.raises(ConnectionClosed) as exc:
            while True:
                await conn.recv()
        refused.append(exc.value.reason)
    host.chat("the host's secret plan zebra")
    joiner.chat("the joiner's secret plan quagga")
    results = await asyncio.wait_for(asyncio.gather(game, seat, *runs), 300)
    return host, joiner, watchers, heard, hidden, refused, results


def test_a_table_can_hide_its_chat_from_every_watch_point(tmp_path: Path) -> None:
    host, joiner, watchers, heard, hidden, refused, results = asyncio.run(quiet_table(tmp_path))
    assert len({r.text for r in results}) == 1 and results[0].finished
    # The seats talk to each other ...
    assert (0, "host", "the host's secret plan zebra") in heard["joiner"]
    assert (1, "joiner", "the joiner's secret plan quagga") in heard["host"]
    # ... and no byte of it reaches a spectator, through the host or through the joiner,
    # each of which was told once that the chat is hidden.
    for who, w in watchers.items():
        assert not heard[who]
        assert w.raw and not any(b"zebra" in m or b"quagga" in m for m in w.raw), who
    assert sorted(hidden) == ["via host", "via joiner"]
    # The watch-only port turned both seat requests away, and the game went on with its two seats.
    assert len(refused) == 2 and all(r.endswith(WATCH_ONLY) for r in refused), refused
    assert len(host.hub.host.protocol.roster.keys) == 2


def test_the_log_goes_to_spectators_in_whole_steps() -> None:
    from ankh.net.wire.lobby import MAX_LINK_MESSAGE, decode, steps_messages

    steps = [[bytes([i % 251]) * (100 + 997 * (i % 7)) for _ in range(1 + i % 4)] for i in range(400)]
    messages = steps_messages(steps, max_bytes=20_000)
    assert len(messages) > 1
    sent = [decode(m)["f"] for m in messages]
    assert [f for batch in sent for f in batch] == [f for step in steps for f in step]
    cuts, at = set(), 0                     # every message ends where a step ends
    for step in steps:
        at += len(step)
        cuts.add(at)
    at = 0
    for batch in sent:
        at += len(batch)
        assert at in cuts and len(batch) <= 256
    assert all(len(m) <= MAX_LINK_MESSAGE for m in messages)
