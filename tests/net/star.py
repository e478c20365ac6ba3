"""Whole games through :class:`GamePeer` and :class:`Hub`, in memory: the same
objects the networked game runs, with the links replaced by lists."""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from ankh.core.game import COLOURS
from ankh.net.wire.envelope import HEADER_LEN, Identity, unpack_strict
from ankh.net.play.hub import Hub
from ankh.net.play.peer import GamePeer
from ankh.net.play.seat import ANY_LINK, SeatProtocol
from ankh.net.files.secrets import SeatSecrets
from ankh.net.files.transcript import Roster

# link(frame, sender, recipient) -> frames to deliver (tests drop, repeat or alter)
Link = Callable[[bytes, int, int], list[bytes]]


def seat_secrets(players: int, seed: bytes, kind: str = "morpork") -> tuple[Roster, list[SeatSecrets]]:
    def fresh(label: str) -> bytes:
        return hashlib.sha256(b"ankh/test-star/" + seed + label.encode()).digest()

    ids = [Identity.from_seed(fresh(f"identity/{i}")) for i in range(players)]
    roster = Roster(fresh("game")[:16], tuple(COLOURS[:players]), tuple(i.public_key for i in ids), kind=kind)
    return roster, [SeatSecrets(roster.game_id, i, ids[i], fresh(f"master/{i}")) for i in range(players)]


def star_peers(players: int, seed: bytes = b"star", kind: str = "morpork", cheat: int | None = None,
               cheat_as: Callable[[SeatProtocol], GamePeer] = GamePeer) -> list[GamePeer]:
    """A seat per player, seat 0 the host that relays; seat ``cheat`` (if any)
    runs ``cheat_as`` (a modified client) instead of the honest peer."""
    roster, secrets = seat_secrets(players, seed, kind)
    return [(cheat_as if s.seat == cheat else GamePeer)(SeatProtocol(roster, s, relay=ANY_LINK if s.seat == 0 else 0))
            for s in secrets]


class Star:
    """Seat 0 hosts and relays; seats 1.. talk only to it."""

    def __init__(self, peers: Sequence[GamePeer], link: Link | None = None):
        self.peers = list(peers)
        self.hub = Hub(self.peers[0])
        self.link = link or (lambda frame, a, b: [frame])
        self.events: dict[int, list[Any]] = {s: [] for s in range(len(peers))}
        self.started = False

    def pump(self) -> bool:
        """Deliver everything queued; True if anything moved."""
        moved = False
        if not self.started:
            self.started = True
            self.events[0] += self.hub.start()
            for s, p in enumerate(self.peers[1:], 1):
                self.events[s] += p.start()
        progress = True
        while progress:
            progress = False
            for s, p in enumerate(self.peers[1:], 1):
                for frame in p.data_to_send():
                    for f in self.link(frame, s, 0):
                        self.events[0] += self.hub.from_seat(s, f)
                    progress = True
                for frame in self.hub.outbox(s):
                    for f in self.link(frame, 0, s):
                        self.events[s] += p.receive(f, via=0)
                    progress = True
            moved = moved or progress
        return moved

    def rejoin(self, seat: int, peer: GamePeer) -> None:
        """Seat ``seat`` comes back as ``peer`` (rebuilt from its saved log): each
        side sends what the other lacks; repeats are ignored."""
        self.peers[seat] = peer
        self.hub.catch_up(seat, peer.protocol.have())
        for frame in peer.protocol.frames_after(self.hub.host.protocol.have()):
            self.hub.from_seat(seat, frame)

    def play(self, bots: Sequence[Any], max_rounds: int = 100_000,
             after_round: Callable[["Star"], None] | None = None) -> None:
        """Play to the end; ``bots[seat].choose(engine, decision)`` sees only its
        own seat's engine.  ``after_round`` (if given) sees the table after
        every round of deliveries and decisions."""
        for _ in range(max_rounds):
            self.pump()
            if after_round is not None:
                after_round(self)
            if all(p.phase == "done" for p in self.peers):
                return
            acted = False
            for s, p in enumerate(self.peers):
                d = p.decision
                if d is not None:
                    option = bots[s].choose(p.engine, d)
                    if s == 0:
                        self.events[0] += self.hub.host_choose(option)
                    else:
                        self.events[s] += p.choose(option)
                    acted = True
            if not acted and not self.pump():
                waiting = sorted({w for p in self.peers for w in p.waiting_for()})
                raise AssertionError(f"the game stalled, waiting for {waiting}")
        raise AssertionError("the game did not end")
