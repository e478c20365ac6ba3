"""For the tests of any game with steals (the tiny game, the guild variant): a
seat that goes down in the middle of a steal and comes back rebuilt from its
saved log; a saved game with one frame forged; the secrets a spectator must
never see."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ankh.net.fair import group, steal
from ankh.net.io.node import HostNode
from ankh.net.play.ops import StealCard
from ankh.net.play.peer import GamePeer
from ankh.net.play.seat import SeatProtocol
from ankh.net.files.transcript import Transcript, next_hash

from .nethelp import decode, resign
from .star import Star


class Crash(Exception):
    pass


def rebuilt_mid_steal(make_star: Callable[[Any], Star], bots: Sequence[Any], role: str,
                      after_round: Callable[[Star], None]) -> tuple[Star, GamePeer]:
    """Play until the first steal's opening: the victim goes down as it sends
    it, or the thief before it reaches it.  The seat is rebuilt from its log
    (whole steps, up to the steal's pick) and the game played to its end, with
    ``after_round`` after every round.  Returns the table and the rebuilt seat."""
    down: dict[str, int] = {}

    def link(frame: bytes, a: int, b: int) -> list[bytes]:
        if "seat" in down:
            return [] if down["seat"] in (a, b) else [frame]
        payload = decode(frame)
        if payload["kind"] == "steal-open" and "once" not in down:
            op = payload["body"]["op"]
            if role == "victim" and a == op["from"] != 0 or role == "thief" and b == op["to"] != 0:
                down["seat"] = down["once"] = a if role == "victim" else b
                return []
        return [frame]

    star = make_star(link)

    def stop(star: Star) -> None:
        if "seat" in down:
            raise Crash

    try:
        star.play(bots, after_round=stop)
    except Crash:
        pass
    else:
        raise AssertionError("the game ended without the steal looked for")
    seat = down["seat"]
    old = star.peers[seat]
    L = old.protocol.ledger
    # its journal holds whole steps, up to its steal's pick
    cut = max(i for i, (op, _) in enumerate(L.log[:L.index]) if op["t"] == "steal-pick") + 1
    saved = [f for _, frames in L.log[:cut] for f in frames]
    fresh = GamePeer.resume(SeatProtocol(L.roster, old.protocol.secrets, relay=0), saved)
    # the victim sends its opening again at once; the thief waits for it
    assert (fresh.protocol.ledger.steal is None) == (role == "victim")
    del down["seat"]
    star.rejoin(seat, fresh)
    star.events[seat] = []  # the rebuilt seat's own events
    star.play(bots, after_round=after_round)
    return star, fresh


def tampered(star: Star, kind: str, change: Callable[[dict[str, Any]], None]) -> tuple[bytes, int]:
    """The saved game with the first ``kind`` frame changed and signed again by its sender."""
    t = star.peers[0].protocol.transcript()
    ops = [list(step) for step in t.ops]
    i, k = next((i, k) for i, step in enumerate(ops) for k, f in enumerate(step) if decode(f)["kind"] == kind)
    sender = decode(ops[i][k])["from"]
    ops[i][k] = resign(ops[i][k], star.peers[sender].protocol.secrets.identity, change)
    return Transcript(t.roster, ops).to_bytes(), sender


def secrets_of_hidden_cards(seats: "HostNode | dict[int, GamePeer]", hand: str,
                            deck: str | None) -> tuple[set[bytes], set[bytes]]:
    """(keys never public, keys public only from the audit on), of the seats a
    host plays (or of the seats given): every key of a slot of ``hand`` any of
    them learned and every steal's per-slot factors; each one's own key of every
    card of ``deck`` dealt to it and never revealed, and each steal's shuffle
    scalar (the audit links a victim's new slots to its old ones)."""
    never, until_audit = set(), set()
    for seat, peer in (seats.local if isinstance(seats, HostNode) else seats).items():
        L = peer.protocol.ledger
        keys = L.hand_keys.get(hand)
        if keys is not None:
            never |= {group.scalar_to_bytes(k) for _, k in keys._known.values()}
        if deck is not None:
            d = L.deck(deck)
            own = peer.protocol.secrets.deck(d.spec)
            mine = [p for p, s in d.dealt.items() if s == seat and p not in d.public]
            until_audit |= {group.scalar_to_bytes(own.key(p)) for p in mine}
        basis, steals = L.roster.genesis(), 0
        for op, (wire, frames) in zip(L.history, L.log):
            if isinstance(op, StealCard):
                if op.victim == seat:  # its secrets, derived from the log as it stood
                    hands = steal.Hands(hand, op.kinds, L.n)
                    hands.steals = steals
                    ctx = steal.steal_context(L.roster.game_id, basis, hands, op.victim, op.thief)
                    sec = steal.StealSecrets(peer.protocol.secrets.master, ctx, len(op.slots))
                    assert group.mul_base_n(sec.e_n) == decode(frames[0])["body"]["E"]
                    never |= {group.scalar_to_bytes(r) for r, _ in sec.r}  # every slot's own factor
                    until_audit.add(group.scalar_to_bytes(sec.e))
                steals += 1
            basis = next_hash(basis, wire, frames)
    return never, until_audit
