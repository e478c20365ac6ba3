"""A game's last frames lost with a link: the seat that lacks them gets them
and the game ends finished and alike on both ends, instead of one end
leaving with the whole game and the other waiting for it for ever."""
from __future__ import annotations

from pathlib import Path

from ankh.net.wire.envelope import HEADER_LEN, unpack_strict
from ankh.net.play.events import Over
from ankh.net.io import sim
from ankh.net.tablecore.host import HostTable
from ankh.net.tablecore.join import JoinTable

from . import simtable


def final_signature(frame: bytes) -> bool:
    return unpack_strict(frame[HEADER_LEN:])["kind"] == "sync"


class JoinerWhoseLastFrameIsLost(JoinTable):
    """Its signature of the final log is never delivered (written into a link
    that is then cut, as far as the host can tell)."""

    dropped = False

    def _outgoing(self, frames: list[bytes]) -> list[bytes]:
        if self.peer is not None and self.peer.audit is not None and not self.dropped:
            kept = [f for f in frames if not final_signature(f)]
            self.dropped = len(kept) < len(frames)
            return kept
        return frames


class HostWhoseLastFrameIsLost(HostTable):
    """Its own signature of the final log never reaches the joiner."""

    dropped = False

    def _send_outbox(self, seat: int) -> None:
        if self.hub is not None and self.hub.host.audit is not None and not self.dropped:
            frames = self.hub.outbox(seat)
            kept = [f for f in frames if not (f[0] == 0 and final_signature(f))]
            self.dropped = len(kept) < len(frames)
            self.hub.requeue(seat, kept)
        super()._send_outbox(seat)


def lose_the_last_frame(tmp_path: Path, core: type[HostTable] = HostTable,
                        join_core: type[JoinTable] = JoinTable) -> list:
    """(On the simulator: the real host and joiner, the link between them cut once one end is over.)"""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=2, core=core)
        t.join("joiner", core=join_core)
        lossy = "host" if core is not HostTable else "joiner"
        await t.until(lossy, lambda e: isinstance(e, Over))  # the game is over at the end that lost its frame
        assert t.nodes[lossy].table.dropped if lossy == "host" else t.nodes[lossy].core.dropped
        t.cut("host", "joiner")  # and then the link drops
        return await t.results("host", "joiner")

    return simtable.scene(11, tmp_path).run(script)


def test_a_joiner_whose_last_frame_was_lost_delivers_it_before_leaving(tmp_path: Path) -> None:
    host_result, joiner_result = lose_the_last_frame(tmp_path, join_core=JoinerWhoseLastFrameIsLost)
    assert host_result.finished and joiner_result.finished
    assert host_result.text == joiner_result.text and host_result.fair


def test_a_host_whose_last_frame_was_lost_waits_for_the_joiner_to_get_it(tmp_path: Path) -> None:
    host_result, joiner_result = lose_the_last_frame(tmp_path, core=HostWhoseLastFrameIsLost)
    assert host_result.finished and joiner_result.finished
    assert host_result.text == joiner_result.text and host_result.fair
