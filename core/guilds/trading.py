"""Trading between players in phase C: an offer (give, want, to whom), each
asked seat's answer (decline, accept, or a counter), the offerer's choice of
a deal, and the exchange once both seats' hidden cards are settled.
"""
from __future__ import annotations

from ..game import COLOURS, IllegalAction
from .board import KINDS, PARCHMENT, RESOURCES
from .state import State
from .pieces import settle, t_settle


MAX_OFFERS = 3          # trade offers per turn (ours: keeps every turn finite)


# s.trade = (offerer, give_kind, give_n, want_kind, want_n, asked seats, answers)
# where answers[i] is None (declined), "accept", or (kind, n) a counter.

def holdings(s: State, p: int) -> list[int]:
    """What ``p`` may trade, by kind: its resources (as this engine knows
    them) and its parchments."""
    h = s.hand(p)
    h.append(s.parch[p])
    return h


O_GIVE = tuple(tuple(("give", k, n) for n in (1, 2)) for k in range(6))
O_COUNTER = tuple(tuple(("counter", k, n) for n in (1, 2)) for k in range(6))
O_CANCEL = ("cancel",)


def t_trade_give(s: State, p: int) -> None:
    have = holdings(s, p)
    opts: list[tuple] = [o for k in range(6) for o in O_GIVE[k][:min(2, have[k])]]
    opts.append(O_CANCEL)
    s.ask(p, "offer", opts, "offer which cards?", r_trade_give, p)


def r_trade_give(s: State, opt, p: int) -> None:
    if opt[0] == "give":
        s.push(t_trade_want, p, opt[1], opt[2])


def t_trade_want(s: State, p: int, gk: int, gn: int) -> None:
    opts = [("want", k, n) for k in range(6) if k != gk for n in (1, 2)]
    s.ask(p, "offer", opts, "ask for which cards?", r_trade_want, p, gk, gn)


def r_trade_want(s: State, opt, p: int, gk: int, gn: int) -> None:
    if opt[1] == gk:
        raise IllegalAction("no like-for-like trades")
    others = [q for q in range(s.players) if q != p]
    opts = [("to", q) for q in others] + [("to-all",)]
    s.ask(p, "offer", opts, "offer to whom?", r_trade_to, p, gk, gn, opt[1], opt[2])


def r_trade_to(s: State, opt, p: int, gk: int, gn: int, wk: int, wn: int) -> None:
    n = s.players
    asked: list[int] = [opt[1]] if opt[0] == "to" else [(p + i) % n for i in range(1, n)]
    s.trade = [p, gk, gn, wk, wn, asked, []]
    s.log("offer", p, f"{COLOURS[p]} offers {gn} {KINDS[gk]} for {wn} {KINDS[wk]} to "
          + (COLOURS[asked[0]] if len(asked) == 1 else "all"))
    s.push(t_trade_choose)
    for q in reversed(asked):
        s.push(t_trade_answer, q)


def t_trade_answer(s: State, q: int) -> None:
    p, gk, gn, wk, wn, asked, answers = s.trade
    have = holdings(s, q)
    opts: list[tuple] = [("decline",)]
    if have[wk] >= wn:
        opts.append(("accept",))
    opts += [o for k in range(6) if k != gk for o in O_COUNTER[k][:min(2, have[k])]
             if o[1:] != (wk, wn)]
    s.ask(q, "answer", opts, f"{COLOURS[p]} offers {gn} {KINDS[gk]} for {wn} {KINDS[wk]}",
          r_trade_answer, q)


def r_trade_answer(s: State, opt, q: int) -> None:
    verb = opt[0]
    if verb == "accept":
        s.trade[6] = s.trade[6] + [(q, s.trade[3], s.trade[4])]
    elif verb == "counter":
        s.trade[6] = s.trade[6] + [(q, opt[1], opt[2])]
    s.log("answer", q, f"{COLOURS[q]} " + ("declines" if verb == "decline" else "accepts"
                                            if verb == "accept" else
                                            f"asks to give {opt[2]} {KINDS[opt[1]]} instead"))


def t_trade_choose(s: State) -> None:
    p = s.trade[0]
    deals = s.trade[6]
    if not deals:
        s.trade = None
        return
    opts = [("deal", q, k, n) for q, k, n in deals] + [("cancel",)]
    s.ask(p, "deal", opts, "trade with whom?", r_trade_choose, p)


def r_trade_choose(s: State, opt, p: int) -> None:
    if opt[0] == "cancel":
        s.trade = None
        return
    q, wk, wn = opt[1], opt[2], opt[3]
    gk, gn = s.trade[1], s.trade[2]
    s.trade = None
    s.push(t_trade_exec, p, q, gk, gn, wk, wn)
    s.push(t_settle, q)
    settle(s, p)


def move_kind(s: State, a: int, b: int, kind: int, n: int) -> None:
    if kind == PARCHMENT:
        if s.parch[a] < n:
            raise IllegalAction(f"{COLOURS[a]} has too few parchments")
        s.parch[a] -= n
        s.parch[b] += n
    else:
        if s.res[a * 5 + kind] < n:
            raise IllegalAction(f"{COLOURS[a]} has too few {RESOURCES[kind]}")
        s.res[a * 5 + kind] -= n
        s.res[b * 5 + kind] += n


def t_trade_exec(s: State, p: int, q: int, gk: int, gn: int, wk: int, wn: int) -> None:
    move_kind(s, p, q, gk, gn)
    move_kind(s, q, p, wk, wn)
    s.log("trade", p, f"{COLOURS[p]} gives {gn} {KINDS[gk]} to {COLOURS[q]} for {wn} {KINDS[wk]}")
