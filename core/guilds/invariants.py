"""The invariants of a guild-variant state (for tests and long checks):
resource conservation, piece limits and one piece per vertex, guild points
never fall, a president has at least 3 points, a locked presidency never
moves, the robber never on the Laboratory (nor the Thieves' Guild: it has no
token), at most 10 assassins, at most 2 parchment actions a turn, receipts
between 0 and 2, one guard a turn and never the turn it was acquired.

``check(state, before)`` raises :class:`Broken` naming the first invariant
that fails, and returns the snapshot to pass as ``before`` next time."""
from __future__ import annotations

from typing import Any

from .board import BANK_START, FOUNDATIONS, HOUSES, LABORATORY, TRACK, VILLAS


class Broken(AssertionError):
    """An invariant does not hold."""


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise Broken(what)


def check(s, before: Any = None) -> tuple:
    """``s`` must see every card (a table's state)."""
    n = s.players
    hands = [s.true_hand(p) for p in range(n)]
    for r in range(5):
        _need(s.bank[r] + sum(h[r] for h in hands) == BANK_START, f"resource {r} not conserved")
    _need(all(min(h) >= 0 for h in hands), "a negative hand")
    for p in range(n):
        for piece, limit in enumerate((FOUNDATIONS, HOUSES, VILLAS)):
            on_board = s.occ.count(p * 3 + piece)
            _need(s.sup[p * 3 + piece] >= 0 and on_board + s.sup[p * 3 + piece] == limit,
                  f"seat {p}'s pieces do not add up")
        _need(0 <= s.rcpt[p] <= 2, "receipts out of range")
    for g in range(5):
        if s.pres[g] >= 0:
            _need(s.gp[s.pres[g] * 5 + g] >= 3, "a president under 3 points")
    if before is not None:
        pres, lock, gp, turn, guards = before
        for g in range(5):
            if lock[g]:
                _need(s.lock[g] and s.pres[g] == pres[g], "a locked presidency moved")
        _need(all(a >= b for a, b in zip(s.gp, gp)), "guild points fell")
    _need(s.robber != LABORATORY, "the robber on the Laboratory")
    _need(s.track >> len(TRACK) == 0 and bin(s.track).count("1") <= 10, "the track overflows")
    _need(s.pacts <= 2, "more than 2 parchment actions")
    # guards played: face-up ones plus those covered or promoted
    played = sum(s.gup) + sum(s.arrests) + 3 * sum(1 for r in s.rank if r)
    if before is not None and before[3] == s.turn:
        _need(played - before[4] <= 1, "two guards in one turn")
    if s.guard_played:
        held = {h for q in range(n) for h in s.dev[q]}
        fresh = [h for h in range(s.dtop) if h not in held and s.dturn[h] == s.turn
                 and s.dcard[h] and s.dcard[h][0] == "g"]
        _need(not fresh, "a guard played the turn it was acquired")
    return (s.pres[:], s.lock[:], s.gp[:], s.turn,
            played if before is None or before[3] != s.turn else before[4])
