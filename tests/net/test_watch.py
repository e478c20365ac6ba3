"""Spectators over real sockets: they follow a 4-seat game from its start or
from its middle, end in the same public state as the seats, never receive a
key that was not public, and cannot hold the table up or harm it."""
from __future__ import annotations

import asyncio
import random

from ankh.net.play.events import Chat, Over, Paused, Played, WatchLost
from ankh.core.morpork.bots.random_bot import RandomBot
from ankh.core.morpork.views import view_for
from ankh.net.fair import group
from ankh.net.wire.envelope import Identity
from ankh.net.io.node import HostNode, WatchNode
from ankh.net.io.transport import connect
from ankh.net.wire.lobby import encode
from ankh.net.io.node import PROLOGUE


def bot_decide(seed: int):
    rng = random.Random(seed)

    async def decide(peer, decision):
        await asyncio.sleep(0)
        return RandomBot(rng).choose(peer.engine, decision)

    return decide


def public(state) -> tuple:
    v = view_for(state, None)
    return (v.turn, tuple((a.minions, a.trolls, a.demons, a.trouble, a.building) for a in v.areas),
            tuple((s.money, s.hand_size, s.minions_left, s.loans, s.penalties) for s in v.seats),
            v.discard, v.events_done, v.outcome)


async def watched_game(tmp_path):
    host = HostNode(Identity.generate(), "host", seats=4, bots=3, decide=bot_decide(1), report=lambda e: None,
                    save_root=tmp_path, bind="127.0.0.1", advertise=False)
    port = await host.open()
    early = WatchNode(Identity.generate(), report=lambda e: None)
    early.keep = True
    late = WatchNode(Identity.generate(), report=lambda e: None)
    game = asyncio.ensure_future(host.run())
    # The spectators come once the setup's proofs no longer keep the host (in this process)
    # from answering a handshake in time on a busy machine; each asks for the log from its start.
    while host.hub is None or host.hub.host.engine.turn < 2:
        await asyncio.sleep(0.05)
    first = asyncio.ensure_future(early.run("127.0.0.1", port))
    # A spectator that never reads, and one that talks garbage.
    stuck = await connect("127.0.0.1", port, Identity.generate(), PROLOGUE)
    stuck.send_nowait(encode({"t": "watch", "from": 0}))
    rude = await connect("127.0.0.1", port, Identity.generate(), PROLOGUE)
    rude.send_nowait(encode({"t": "watch", "from": 0}))
    rude.send_nowait(b"\x00garbage")
    while host.hub is None or host.hub.host.engine.turn < 12:
        await asyncio.sleep(0.05)
    second = asyncio.ensure_future(late.run("127.0.0.1", port))   # joins in the middle
    results = await asyncio.wait_for(asyncio.gather(game, first, second), 300)
    stuck.close()
    return host, early, late, results, rude


def test_spectators_follow_the_game_and_learn_nothing_secret(tmp_path) -> None:
    host, early, late, (hr, er, lr), rude = asyncio.run(watched_game(tmp_path))
    assert hr.finished and hr.fair
    assert er.text == hr.text and lr.text == hr.text and er.fair and lr.fair
    seat_state = public(host.hub.host.engine)
    assert public(early.spectator.engine) == seat_state == public(late.spectator.engine)
    assert rude.closed  # cut off for talking; the game went on
    # Nothing the spectator received before the audit holds a per-card key of a
    # card still hidden at the end (a hand card never shown).
    peers = host.local
    engine = host.hub.host.engine
    hidden = [h for hand in engine.hand for h in hand]
    secret = set()
    for seat, peer in peers.items():
        spec = peer.protocol.ledger.deck("player").spec
        ds = peer.protocol.secrets.deck(spec)
        secret |= {group.scalar_to_bytes(ds.key(h)) for h in hidden}
    before_audit = []
    for frame in early.seen:
        if b"audit" in frame:
            break
        before_audit.append(frame)
    blob = b"".join(before_audit)
    assert secret and not any(k in blob for k in secret)


def hear(lines: list):
    """A report that keeps the chat lines heard, as (seat, name, text)."""
    return lambda e: lines.append((e.seat, e.name, e.text)) if isinstance(e, Chat) else None


async def chatty_table(tmp_path):
    heard: dict[str, list] = {"host": [], "joiner": [], "watcher": []}
    host = HostNode(Identity.generate(), "host", seats=2, bots=0, decide=bot_decide(3),
                    report=hear(heard["host"]),
                    save_root=tmp_path / "h", bind="127.0.0.1", advertise=False)
    port = await host.open()
    from ankh.net.io.node import JoinNode
    joiner = JoinNode(Identity.generate(), "joiner", decide=bot_decide(4),
                      report=hear(heard["joiner"]), save_root=tmp_path / "j")
    watcher = WatchNode(Identity.generate(), report=hear(heard["watcher"]))
    game = asyncio.ensure_future(host.run())
    seat = asyncio.ensure_future(joiner.run("127.0.0.1", port))
    while host.hub is None or joiner.peer is None:
        await asyncio.sleep(0.02)
    watching = asyncio.ensure_future(watcher.run("127.0.0.1", port))
    while watcher.spectator is None:
        await asyncio.sleep(0.02)
    host.chat("hello \x1b[31mred[/b] \x07 world")
    for i in range(8):                                   # a flood: only the first lines get through
        joiner.chat(f"line {i} " + "x" * 300)
    await asyncio.sleep(1.0)
    await asyncio.wait_for(asyncio.gather(game, seat, watching), 300)
    return heard


def test_chat_is_signed_plain_text_bounded_and_rate_limited(tmp_path) -> None:
    heard = asyncio.run(chatty_table(tmp_path))
    # The host's line reached the joiner and the spectator as plain text: the
    # escape sequence and the bell are gone, the markup is only characters.
    for who in ("joiner", "watcher"):
        assert (0, "host", "hello [31mred[/b] world") in heard[who], heard[who]
    from ankh.net.wire.lobby import CHAT_RATE, MAX_CHAT
    passed = [t for s, n, t in heard["host"] if s == 1]
    assert len(passed) == CHAT_RATE and all(len(t) <= MAX_CHAT for t in passed)
    assert any("not passed on" in t for s, n, t in heard["joiner"] if s == 0)
    assert sum(1 for s, n, t in heard["watcher"] if s == 1) == CHAT_RATE


def test_a_spectator_is_told_when_the_host_leaves_and_the_game_is_paused(tmp_path) -> None:
    """The host's person leaves a game under way: a spectator watching through
    the host hears that the game is paused (not that its watch point moved),
    then, nobody answering, that the table is gone."""
    heard: list = []

    async def main():
        host = HostNode(Identity.generate(), "host", seats=2, bots=1, decide=bot_decide(5), report=lambda e: None,
                        save_root=tmp_path, bind="127.0.0.1", advertise=False)
        port = await host.open()
        game = asyncio.ensure_future(host.run())
        watcher = WatchNode(Identity.generate(), report=heard.append)
        watcher.abandon_after = 1.0
        watching = asyncio.ensure_future(watcher.run("127.0.0.1", port))
        while not any(isinstance(e, Played) for e in heard):  # (a spectator that gave up says why)
            assert not watching.done(), f"the spectator stopped before the game began: {watching.result()}"
            await asyncio.sleep(0.02)
        host.leave()
        await asyncio.wait_for(game, 30)
        return await asyncio.wait_for(watching, 30)

    result = asyncio.run(main())
    kinds = [type(e) for e in heard]
    assert Paused(0) in heard and Over in kinds and kinds.index(Paused) < kinds.index(Over), kinds
    assert WatchLost not in kinds[:kinds.index(Paused)]
    assert result.text.startswith("the table closed: no watch point answered"), result.text
