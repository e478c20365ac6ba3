"""Points, personalities' winning conditions, and the end of the game: every
personality revealed, then the winner decided.
"""
from __future__ import annotations

from .model import (
    COLOURS, CONDITION, COST, LOAN_PENALTY, LOAN_REPAY, NUM_AREAS, THRESHOLDS, Outcome, Reveal,
)
from .state import State


# --- personalities, end of game, scoring -------------------------------------------------------


def personality_progress(s: State, p: int, pid: str) -> tuple[int, int | None]:
    """``(have, need)`` toward personality ``pid``'s win, for ``p``.  Commander
    Vimes has no threshold: ``have`` is then the cards left in the draw pile."""
    cond = CONDITION[pid]
    need = THRESHOLDS[pid].get(s.players)
    if cond == "minion_presence":
        have = sum(1 for a in range(NUM_AREAS) if s.minions[a][p] and not s.demons[a])
    elif cond == "area_control":
        have = sum(1 for a in range(NUM_AREAS) if s.controls(p, a))
    elif cond == "trouble_markers_on_board":
        have = s.trouble_count()
    elif cond == "net_worth":
        have = net_worth(s, p)
    else:
        return len(s.draw), None
    return have, need


def personality_met(s: State, p: int, pid: str) -> bool:
    """The start-of-turn win check for personality ``pid`` held by ``p``
    (Commander Vimes wins only when the draw pile runs out)."""
    have, need = personality_progress(s, p, pid)
    return need is not None and have >= need


def net_worth(s: State, p: int) -> int:
    """Chrysoprase: cash + building costs (0 where a demon is) - $12 per loan."""
    worth = s.money[p] - LOAN_REPAY * len(s.loans[p])
    worth += sum(COST[a] for a in range(NUM_AREAS) if s.building[a] == p and not s.demons[a])
    return worth


def score(s: State, p: int) -> int:
    """Points: 5 a minion, a building its cost (nothing in a demon area), $1 a
    point after loans; A15: each loan is repaid with $12 while possible, else -15."""
    return sum(score_parts(s, p))


def scores(s: State) -> tuple[int, ...]:
    """Every seat's points as the game stands (``score``), seat by seat."""
    return tuple(score(s, p) for p in range(s.players))


def score_parts(s: State, p: int) -> tuple[int, int, int, int]:
    """``score`` by source: minions, buildings, money, loans (repaid or -15 each)."""
    minions = buildings = 0
    for a in range(NUM_AREAS):
        if not s.demons[a]:
            minions += 5 * s.minions[a][p]
            if s.building[a] == p:
                buildings += COST[a]
    cash = s.money[p]
    return minions, buildings, cash, after_loans(cash, len(s.loans[p])) - cash


def after_loans(cash: int, loans: int) -> int:
    """Points left from ``cash`` once ``loans`` are settled (A15): each repaid
    with $12 while possible, else -15 points."""
    penalty = 0
    for _ in range(loans):
        if cash >= LOAN_REPAY:
            cash -= LOAN_REPAY
        else:
            penalty += LOAN_PENALTY
    return cash - penalty


def best_city_card(s: State, p: int) -> int:
    """A16: the tie-break looks only at City Area cards actually held."""
    return max((COST[a] for a in range(NUM_AREAS) if s.city_owner[a] == p), default=0)


def end_game(s: State, detail: str) -> None:
    """The game ends now (``draw-pile`` or ``riots``): forget pending work, reveal
    every personality, then decide."""
    s.stack.clear()
    s.chain = None
    s.ending = True
    s.discard += s.in_play  # cards left mid-resolution are done with
    s.in_play.clear()
    s.push(t_final_reveal, detail, None)
    if s.narrate:
        s.log("game-end", None, f"the game ends ({detail})", reason=detail)


def reveal_personality(s: State, h: int, pid: str) -> None:
    s.pers[h] = pid
    bit = 1 << h
    s.pers_seen = [x | bit for x in s.pers_seen]


def t_final_reveal(s: State, detail: str, winner) -> None:
    hidden = tuple(s.personality[p] for p in range(s.players)
                   if not all(s.sees_personality(q, s.personality[p]) for q in range(s.players)))
    if hidden:
        s.request(Reveal("personality", hidden), r_final_revealed, detail, winner, hidden)
    else:
        r_final_revealed(s, (), detail, winner, ())


def r_final_revealed(s: State, ids, detail: str, winner, hidden) -> None:
    for h, pid in zip(hidden, ids):
        reveal_personality(s, h, pid)
    pers = tuple(s.pers[s.personality[p]] for p in range(s.players))
    points = scores(s)
    if detail == "personality":
        s.outcome = Outcome((winner,), "personality", pers[winner], None, pers)
        return
    if detail == "draw-pile" and "commander-vimes" in pers:
        w = pers.index("commander-vimes")
        s.outcome = Outcome((w,), "vimes", "commander-vimes", points, pers)
        if s.narrate:
            s.log("win", w, f"{COLOURS[w]} is Commander Vimes and wins", personality="commander-vimes")
        return
    top = max(points)
    tied = [p for p in range(s.players) if points[p] == top]
    if len(tied) > 1:
        best = max(best_city_card(s, p) for p in tied)
        tied = [p for p in tied if best_city_card(s, p) == best]
    s.outcome = Outcome(tuple(tied), "points", detail, points, pers)
    if s.narrate:
        s.log("win", tied[0], " and ".join(COLOURS[p] for p in tied) + (" win" if len(tied) > 1 else " wins") + f" on points ({top})",
              winners=tuple(tied), amount=top)
