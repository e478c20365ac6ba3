"""What a seat may see of a guild-variant state, and the state as JSON.

``view_for(state, seat)`` is a copy of the state in which every hidden card
the seat may not know is unknown: other seats' development tokens and the
stack (``dcard`` None), and hidden resource handles of steals it took no part
in (``rcard`` None).  A spectator (seat None) sees only what is public.
"""
from __future__ import annotations

from typing import Any

from ..game import COLOURS, Decision
from .board import (
    DISTRICT_IDS, KINDS, RESOURCES, SPOT_IDS, TRACK, TRACK_BIT, VERTEX_IDS, is_guard,
)
from .state import PIECE_NAMES, RANK_NAMES, State


def view_for(state: State, seat: int | None) -> State:
    v = state.copy()
    mine_dev = set(state.dev[seat]) if seat is not None else set()
    held = {h for q in range(state.players) for h in state.dev[q]}
    for h in range(len(v.dcard)):
        if h in mine_dev:
            continue
        if h in held or h >= state.dtop:
            v.dcard[h] = None
    for h in v.rcard:
        if seat is None or h not in state.hid[seat]:
            v.rcard[h] = None
    return v


def cards_json(counts) -> dict[str, int]:
    """Six counts of a trade (resources, then parchments) by name, those above 0."""
    return {k: n for k, n in zip(RESOURCES + ("parchment",), counts) if n}


def trade_json(trade) -> dict[str, Any] | None:
    """The offer being answered (public: every seat sees it), or None: who
    offers what for what to whom, and the answers that would deal, each from
    the answering seat's side."""
    if trade is None:
        return None
    p, give, want, asked, answers = trade
    return {"offerer": COLOURS[p], "give": cards_json(give), "want": cards_json(want),
            "asked": [COLOURS[q] for q in asked],
            "answers": [{"seat": COLOURS[q], "gives": cards_json(g), "wants": cards_json(w)}
                        for q, g, w in answers]}


def vp_public(state: State, q: int) -> int:
    return state.vp(q)


def state_json(state: State, viewer: int | None = None, running_scores: Any = ()) -> dict[str, Any]:
    """The state as seat ``viewer`` sees it (None: as it is): board, hands as
    known, the guild table, VP, who leads, and what is pending."""
    s = view_for(state, viewer) if viewer is not None else state
    n = s.players
    pieces = {VERTEX_IDS[v]: {"seat": COLOURS[o // 3], "piece": PIECE_NAMES[o % 3]}
              for v, o in enumerate(s.occ) if o >= 0}
    players = []
    for q in range(n):
        hand = s.hand(q) if (viewer == q or not s.hid[q]) else None
        dev = [s.dcard[h] or "hidden" for h in s.dev[q]]
        players.append({
            "seat": COLOURS[q],
            "cards": s.hand_size(q),
            "hand": dict(zip(RESOURCES, hand)) if hand is not None else None,
            "public_hand": dict(zip(RESOURCES, s.res[q * 5:q * 5 + 5])),
            "hidden_cards": len(s.hid[q]),
            "parchments": s.parch[q],
            "receipts_up": s.rcpt[q],
            "tokens": dev,
            "guards_up": s.gup[q], "arrests": s.arrests[q], "rank": RANK_NAMES[s.rank[q]],
            "vetinari_shown": s.vshown[q],
            "supply": dict(zip(PIECE_NAMES, s.sup[q * 3:q * 3 + 3])),
            "vp": s.vp(q),
        })
    top = max(p["vp"] for p in players)
    guilds = {RESOURCES[g]: {
        "points": {COLOURS[q]: s.gp[q * 5 + g] for q in range(n)},
        "president": COLOURS[s.pres[g]] if s.pres[g] >= 0 else None,
        "locked": s.lock[g]} for g in range(5)}
    d = s.pending
    pending = None
    if isinstance(d, Decision):
        pending = {"seat": COLOURS[d.seat], "kind": d.kind, "prompt": d.prompt,
                   "options": len(d.options)}
    elif d is not None:
        pending = {"request": type(d).__name__}
    return {
        "game": "guilds",
        "viewer": COLOURS[viewer] if viewer is not None else None,
        "current": COLOURS[s.active],
        "players": players,
        "board": {"pieces": pieces, "robber": SPOT_IDS[s.robber], "fire": s.fire,
                  "track": [t for t in TRACK if s.track & TRACK_BIT[t]],
                  "bank": dict(zip(RESOURCES, s.bank)),
                  "stack": 19 - s.dtop, "districts": list(DISTRICT_IDS)},
        "guilds": guilds,
        "leaders": [p["seat"] for p in players if p["vp"] == top],
        "turn": s.turn, "active": COLOURS[s.active], "phase": s.phase,
        "pending": pending,
        "trade": trade_json(s.trade),
        "outcome": None if s.outcome is None else s.outcome.to_json(),
        "running_scores": [{"turn": t, "current": None if c is None else COLOURS[c],
                            "scores": list(sc)} for t, c, sc in running_scores],
        "kinds": list(KINDS),
        "used_guards": sum(1 for h in range(s.dtop) if s.dcard[h] and is_guard(s.dcard[h])
                           and not any(h in s.dev[q] for q in range(n))),
    }
