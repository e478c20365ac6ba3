"""Cheating seats over real sockets: the honest host refuses the cheat, names
the cheater, and the game ends as aborted on both sides."""
from __future__ import annotations

import asyncio
import random

import pytest

from ankh.core.morpork.bots.random_bot import RandomBot
from ankh.net.envelope import Identity
from ankh.net.io.node import HostNode, JoinNode, Result

from .nethelp import decode, resign, swap_scalar


def bot_decide(seed: int):
    rng = random.Random(seed)

    async def decide(peer, decision):
        return RandomBot(rng).choose(peer.engine.copy(), decision)

    return decide


class CheatingJoiner(JoinNode):
    """Sends its ``n``-th frame of ``kind`` altered by ``mutate`` and signed again."""

    def __init__(self, *a, kind: str, mutate, n: int = 3, **kw):
        super().__init__(*a, **kw)
        self.kind, self.mutate, self.left = kind, mutate, n
        self.cheated = False

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


async def play_with_cheat(tmp_path, **cheat) -> tuple[Result, Result, CheatingJoiner]:
    reports: list[tuple[str, object]] = []
    host = HostNode(Identity.generate(), "honest", seats=2, bots=0, decide=bot_decide(1),
                    report=lambda w, d: reports.append((w, d)), save_root=tmp_path / "h",
                    bind="127.0.0.1", advertise=False)
    port = await host.open()
    joiner = CheatingJoiner(Identity.generate(), "cheat", decide=bot_decide(2), report=lambda w, d: None,
                            save_root=tmp_path / "j", **cheat)
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
