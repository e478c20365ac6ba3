"""The guild variant between real peers on loopback: headless ``ankh``
processes for 3 seats (4 on the simulator) play whole games among thieves to
one result and ``ankh verify`` says fair; a cheating seat (a forged steal, a hidden card
shown as another, an illegal build) is refused by the honest host and named
(and a seat killed with ``kill -9`` comes back from its save: test_lan; a
spectator over loopback: test_guilds_attacks)."""
from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from ankh.net.wire.envelope import Identity
from ankh.net.io.node import HostNode
from ankh.net.files.verify import verify_transcript

from tests.guilds.thief import ThiefBot

from . import simtable
from .nethelp import swap_scalar
from .procs import Peers
from .test_lan import host_and_joiners, peers, simulated_whole_game, verify_all  # noqa: F401  (peers: the fixture)
from .test_lan_cheats import CheatingJoiner

THIEF_CLI = "tests.guilds.thiefcli"  # the ankh command, with the tests' thief bot


def test_headless_guild_peers_play_a_whole_game_among_thieves(peers: Peers, tmp_path: Path, seats: int = 3) -> None:
    host, joiners = host_and_joiners(peers, tmp_path, seats, seed=seats, game="guilds", bot="thief", module=THIEF_CLI)
    everyone = [host, *joiners]
    assert [p.finish(timeout=600) for p in everyone] == [0] * seats
    assert len({p.result for p in everyone}) == 1, {p.result for p in everyone}
    assert len({p.value("table fingerprint:") for p in everyone}) == 1
    verify_all(everyone)
    # (whether the thieves got to steal depends on the seats' fresh entropy; the proof of every
    # steal, counted, is tested on seeded games: tests/net/test_guilds_net.py)


def test_simulated_guild_peers_play_a_whole_game_among_thieves(tmp_path: Path, monkeypatch) -> None:
    """The same for 4 seats, on the simulator."""
    simtable.with_thieves(monkeypatch)
    simulated_whole_game(tmp_path, 4, "guilds", "thief")


def thief_decide(seed: int):
    bots: dict[int, ThiefBot] = {}

    async def decide(peer, decision):
        await asyncio.sleep(0)
        bot = bots.setdefault(peer.me, ThiefBot(random.Random(f"{seed}:{peer.me}")))
        return bot.choose(peer.engine.copy(), decision)

    return decide


async def guild_game_with_cheat(where: Path, **cheat):
    """An honest host (and a bot of its own) and a cheating joiner, over loopback."""
    host = HostNode(Identity.generate(), "honest", seats=3, bots=1, decide=thief_decide(1), report=lambda e: None,
                    save_root=where / "h", bind="127.0.0.1", advertise=False, kind="guilds")
    port = await host.open()
    joiner = CheatingJoiner(Identity.generate(), "cheat", decide=thief_decide(2), report=lambda e: None,
                            save_root=where / "cheat", **cheat)
    results = await asyncio.wait_for(asyncio.gather(host.run(), joiner.run("127.0.0.1", port)), 600)
    return host, results, joiner


def other_card(body: dict) -> None:
    body["cards"] = ["ore" if body["cards"][0] != "ore" else "brick", *body["cards"][1:]]


@pytest.mark.parametrize("kind,mutate,says", [
    ("steal", lambda body: body.__setitem__("s", swap_scalar(body["s"], 0, 3)), "re-randomised"),
    ("show", other_card, "does not hold"),
    ("move", lambda body: body.__setitem__("move", ["villa", 0]), "illegal move 'villa 0'"),
], ids=["forged-steal", "card-shown-as-another", "illegal-build"])
def test_a_cheating_seat_is_refused_and_named_over_real_sockets(tmp_path: Path, kind: str, mutate, says: str) -> None:
    for game in range(3):  # (the seats' fresh entropy may give the cheat no such message in a game: another)
        host, (host_result, _), cheat = asyncio.run(
            guild_game_with_cheat(tmp_path / f"game{game}", kind=kind, mutate=mutate, n=1))
        if cheat.cheated:
            break
    assert cheat.cheated
    assert host_result.text.startswith("aborted: ") and "(cheat) broke the rules" in host_result.text, host_result.text
    assert says in host_result.text, host_result.text
    assert not host_result.finished
    # refused at its step: nothing of it is in the host's log, which verifies as far as it goes
    assert verify_transcript(host.hub.host.protocol.transcript().to_bytes()).status == "incomplete"
