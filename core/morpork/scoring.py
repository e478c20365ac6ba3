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
    """Turn face up every personality in play that the table has not seen
    face up, then decide.  First those some seat has not seen; then those
    every seat has seen privately (one by one: a seat's own, unused ones
    looked at with Mrs Cake and later taken with Zorgo) but nobody showed the
    table: without them a spectator, or a replay of the public log, could not
    tell who is Commander Vimes.  The winner's personality, shown when it
    claimed the win, is public already."""
    held = [s.personality[p] for p in range(s.players)]
    unseen = tuple(h for h in held if not all(s.sees_personality(q, h) for q in range(s.players)))
    public = set(unseen)
    if detail == "personality":
        public.add(s.personality[winner])
    seen = tuple(h for h in held if h not in public)
    s.push(t_decide, detail, winner)
    if seen:
        s.push(t_reveal_seen, seen)
    if unseen:
        s.request(Reveal("personality", unseen), r_final_revealed, unseen)


def t_reveal_seen(s: State, seen) -> None:
    s.request(Reveal("personality", seen), r_final_revealed, seen)


def r_final_revealed(s: State, ids, handles) -> None:
    for h, pid in zip(handles, ids):
        reveal_personality(s, h, pid)


def reveals_seen_personalities(s: State) -> bool:
    """Whether the game waits for the reveal, at its end, of personalities every
    seat has seen privately (:func:`t_final_reveal`'s second step): the only
    reveal that tells no seat anything new, and one that games played before
    it was asked lack (their logs go straight on to the audit)."""
    p = s.pending
    return (s.ending and s.outcome is None and type(p) is Reveal and p.deck == "personality"
            and all(s.sees_personality(q, h) for h in p.handles for q in range(s.players)))


def t_decide(s: State, detail: str, winner) -> None:
    pers = tuple(s.pers[s.personality[p]] for p in range(s.players))
    scores = tuple(score(s, p) for p in range(s.players))
    if detail == "personality":
        s.outcome = Outcome((winner,), "personality", pers[winner], None, pers)
        return
    if detail == "draw-pile" and "commander-vimes" in pers:
        w = pers.index("commander-vimes")
        s.outcome = Outcome((w,), "vimes", "commander-vimes", scores, pers)
        if s.narrate:
            s.log("win", w, f"{COLOURS[w]} is Commander Vimes and wins", personality="commander-vimes")
        return
    top = max(scores)
    tied = [p for p in range(s.players) if scores[p] == top]
    if len(tied) > 1:
        best = max(best_city_card(s, p) for p in tied)
        tied = [p for p in tied if best_city_card(s, p) == best]
    s.outcome = Outcome(tuple(tied), "points", detail, scores, pers)
    if s.narrate:
        s.log("win", tied[0], " and ".join(COLOURS[p] for p in tied) + (" win" if len(tied) > 1 else " wins") + f" on points ({top})",
              winners=tuple(tied), amount=top)


def board_stats(s: State) -> tuple[list[int], list[int], list[int], list[int]]:
    """One pass over the board.  Per seat: demon-free areas holding one of its
    minions, areas it controls, points on the board (5 a minion, a building its
    cost; nothing in demon areas), and the value of its buildings: the
    heuristic bot's evaluation, at every step of every rollout of the search
    (so compiled with the rules; integers only, the same either way)."""
    n = s.players
    presence = [0] * n
    control = [0] * n
    board = [0] * n
    bval = [0] * n
    minions, trolls, demons, building = s.minions, s.trolls, s.demons, s.building
    for a in range(NUM_AREAS):
        if demons[a]:
            continue
        row = minions[a]
        b = building[a]
        if b >= 0:
            bval[b] += COST[a]
        t = trolls[a]
        best, second, who = t, -1, -1
        for q in range(n):
            x = row[q]
            if x:
                presence[q] += 1
                board[q] += 5 * x
            if b == q:
                x += 1
            if x > best:
                second, best, who = best, x, q
            elif x > second:
                second = x
        if who >= 0 and best > second:
            control[who] += 1
    return presence, control, board, bval


def points(s: State, q: int, board: list[int], bval: list[int]) -> int:
    """``engine.score`` from precomputed board points (A15 loans)."""
    return board[q] + bval[q] + after_loans(s.money[q], len(s.loans[q]))


def control_value(s: State, p: int, need: int) -> float:
    """The heuristic bot's worth of ``p``'s control toward ``need`` areas (a
    Lord's): areas controlled, and those held by a margin, tied or nearly
    (compiled with the rules, as :func:`board_stats`; sums of small whole
    numbers, exact either way)."""
    c = 0
    soft = 0.0
    for a in range(NUM_AREAS):
        if s.demons[a]:
            continue
        row = s.minions[a]
        b = s.building[a]
        mine = row[p] + (b == p)
        if not mine:
            continue
        other = s.trolls[a]
        for q in range(s.players):
            if q != p:
                x = row[q] + (b == q)
                if x > other:
                    other = x
        margin = mine - other
        if margin > 0:
            c += 1
            soft += 4.0 if margin >= 2 else 0.0
        elif margin == 0:
            soft += 8.0
        elif margin == -1:
            soft += 2.0
    return 40.0 * c + 8.0 * max(0, c - (need - 2)) ** 2 + soft
