"""A game's last frames lost with a link: the seat that lacks them gets them
and the game ends finished and alike on both ends, instead of one end
leaving with the whole game and the other waiting for it for ever."""
from __future__ import annotations

import asyncio
from pathlib import Path

from ankh.net.envelope import HEADER_LEN, Identity, unpack_strict
from ankh.net.io.node import HostNode, JoinNode
from ankh.net.tablecore.host import HostTable

from .test_lobby_reconnect import Cutter
from .test_watch import bot_decide


def final_signature(frame: bytes) -> bool:
    return unpack_strict(frame[HEADER_LEN:])["kind"] == "sync"


class JoinerWhoseLastFrameIsLost(JoinNode):
    """Its signature of the final log is never delivered (written into a link
    that is then cut, as far as the host can tell)."""

    lost = False

    def _outgoing(self, frames: list[bytes]) -> list[bytes]:
        if self.peer is not None and self.peer.audit is not None and not self.lost:
            kept = [f for f in frames if not final_signature(f)]
            self.lost = len(kept) < len(frames)
            return kept
        return frames


class HostWhoseLastFrameIsLost(HostTable):
    """Its own signature of the final log never reaches the joiner."""

    lost = False

    def _send_outbox(self, seat: int) -> None:
        if self.hub is not None and self.hub.host.audit is not None and not self.lost:
            frames = self.hub.outbox(seat)
            kept = [f for f in frames if not (f[0] == 0 and final_signature(f))]
            self.lost = len(kept) < len(frames)
            self.hub.requeue(seat, kept)
        super()._send_outbox(seat)


async def lose_the_last_frame(tmp_path: Path, core=HostTable, join_cls=JoinNode):
    host = HostNode(Identity.generate(), "host", seats=2, bots=0, decide=bot_decide(11), report=lambda e: None,
                    save_root=tmp_path / "h", bind="127.0.0.1", advertise=False, core=core)
    cutter = Cutter(await host.open())
    via = await cutter.open()
    joiner = join_cls(Identity.generate(), "joiner", decide=bot_decide(12), report=lambda e: None,
                      save_root=tmp_path / "j")
    game = asyncio.ensure_future(host.run())
    seat = asyncio.ensure_future(joiner.run("127.0.0.1", via))
    lossy = host.table if core is not HostTable else joiner
    while lossy.result is None:  # the game is over at the end that lost its frame
        await asyncio.sleep(0.01)
    assert lossy.lost
    cutter.cut()  # and then the link drops
    try:
        return await asyncio.wait_for(asyncio.gather(game, seat), 60)
    finally:
        cutter.close()


def test_a_joiner_whose_last_frame_was_lost_delivers_it_before_leaving(tmp_path: Path) -> None:
    host_result, joiner_result = asyncio.run(lose_the_last_frame(tmp_path, join_cls=JoinerWhoseLastFrameIsLost))
    assert host_result.finished and joiner_result.finished
    assert host_result.text == joiner_result.text and host_result.fair


def test_a_host_whose_last_frame_was_lost_waits_for_the_joiner_to_get_it(tmp_path: Path) -> None:
    host_result, joiner_result = asyncio.run(lose_the_last_frame(tmp_path, core=HostWhoseLastFrameIsLost))
    assert host_result.finished and joiner_result.finished
    assert host_result.text == joiner_result.text and host_result.fair
