"""The star: one seat's process relays every frame to the others (sans-I/O).

The hosting seat accepts a frame with its own protocol first (signature,
sequence, step, proofs) and only then passes it on (a frame for a later step
waits at the hub until it is checked), so a relayed frame is one
the host could check; the other seats accept it on its signature anyway
(``SeatProtocol(relay=host)``), and the log hash in every message exposes a
host that tells different seats different things.  The host takes frames
from any link (``ANY_LINK``): a seat that comes back may hold frames of
others that a restarted host lost, and hands them over, each accepted on
its signature.  Private deliveries are encrypted to their recipient end to
end, so relaying them reveals nothing.

Seats that come (back) with a ``have`` vector (how many frames they hold from
each sender) get every accepted frame they lack: the signed log is the
resend queue, so a dropped link or a restarted process loses nothing, and a
frame delivered twice is ignored by its receiver.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..wire.errors import LocalProtocolError
from .peer import GamePeer
from .seat import ANY_LINK


class Hub:
    """Routes frames between the hosting seat and ``seats`` others.

    ``outbox(seat)`` gives the frames to deliver to a seat (local or over a
    link); nothing here knows which seats are local.
    """

    def __init__(self, host: GamePeer):
        if host.protocol.relay != ANY_LINK:
            raise LocalProtocolError("the hosting seat's protocol must take frames from any link (ANY_LINK)")
        self.host = host
        self.size = host.protocol.roster.size
        self._out: dict[int, list[bytes]] = {s: [] for s in range(self.size) if s != host.me}
        self._relayed = len(host.protocol.checked)  # frames of the log passed on so far
        self.events: list[Any] = []

    def start(self) -> list[Any]:
        self.events += self.host.start()
        self.relay()
        return self._take()

    def from_seat(self, seat: int, frame: bytes, *, pump: bool = True) -> list[Any]:
        """A frame from seat ``seat``'s link.  Raises RemoteProtocolError naming the seat at fault.

        With ``pump`` False the hosting seat stops once it accepted the frame,
        so that the relay can go out before it works on what follows:
        :meth:`pump` goes on."""
        self.events += self.host.receive(frame, via=seat, pump=pump)
        self.relay()
        return self._take()

    def host_choose(self, option: tuple, *, pump: bool = True) -> list[Any]:
        self.events += self.host.choose(option, pump=pump)
        self.relay()
        return self._take()

    def pump(self, *, until_move: bool = False) -> list[Any]:
        """The hosting seat goes as far as it can without outside input (see :meth:`GamePeer.pump`)."""
        self.events += self.host.pump(until_move=until_move)
        self.relay()
        return self._take()

    def catch_up(self, seat: int, have: Iterable[int]) -> None:
        """Seat ``seat`` (re)connected holding ``have`` frames from each sender: queue the rest."""
        have = list(have)
        if len(have) != self.size or any(type(n) is not int or n < 0 for n in have):
            raise LocalProtocolError("a have vector gives a count for every seat")
        self._out[seat] = self.host.protocol.frames_after(have, checked=True)

    def outbox(self, seat: int) -> list[bytes]:
        out, self._out[seat] = self._out[seat], []
        return out

    def requeue(self, seat: int, frames: list[bytes]) -> None:
        """Frames taken from ``outbox(seat)`` but not delivered yet go back in front."""
        self._out[seat][:0] = frames

    def relay(self) -> None:
        """Pass on every frame the hosting seat has taken into its log since the
        last time (its own among them): a frame held for a later step goes on
        only once it is checked, so a seat never sees a frame its hub did not
        check (which is how a seat knows whom to blame when hashes differ)."""
        self.host.data_to_send()  # the hosting seat's own frames are in its log already
        checked = self.host.protocol.checked
        for frame in checked[self._relayed:]:
            for s in self._out:
                if s != frame[0]:
                    self._out[s].append(frame)
        self._relayed = len(checked)

    def _take(self) -> list[Any]:
        out, self.events = self.events, []
        return out
