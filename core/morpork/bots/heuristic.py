"""A heuristic bot: plays toward its own personality and against the leader.

How it decides
--------------
Every option of a decision is tried on a *copy* of the state (``State.copy``)
and the copy is scored with a position evaluation (:meth:`HeuristicBot.evaluate`);
the best score wins, ties broken by the bot's own generator.  When a decision
has many options (more than ``PRUNE_ABOVE``: placements, moves ...) a cheap
first pass keeps the ``PRUNE_KEEP`` most promising ones for the full look.

After an option is applied, the copy is carried forward ("settled") only
through steps that need no hidden information:

* the bot's own further decisions inside the same card (targets, placements,
  the card's remaining optional symbols ...) are taken greedily, each by a
  one-step evaluation; the look-ahead stops at the bot's next card choice
  (decision kinds ``turn``/``another``/``extra``/``end``), so a card is judged
  with all its symbols, and the last card of a turn together with the refill;
* a ``Reveal`` of player cards is answered only when the seat has already
  seen every card in it (in practice: its own card being played or
  discarded), with those known ids;
* ``DealCard`` (player cards) and ``PassCard`` are answered with ``None``, the
  answer of an engine that may not know the card: the copy then holds an
  unknown card, which the evaluation counts as an average card;
* another seat's interrupt window is answered ``pass`` -- its options are never
  looked at, since they depend on that seat's hand; another seat's
  ``give``/``choice``/``pick``/``area``/``move``/``target`` decision takes its first
  option (those options come from public information only, and the identity
  of a card given is never read);
* everything else stops the look-ahead and the position is evaluated as it
  stands: a die roll, a random pick, a random event (the event deck), a
  personality, cards shown to one seat, any other decision of another seat.

What it looks at
----------------
Public information: the board (minions, trolls, demons, trouble markers,
buildings, City Area cards), every seat's money, loans, penalty cards, hand
*size* and minions/buildings left, the number of cards left in the draw pile,
whose turn it is, and the options of its own decision.  Private information
of its own seat: the identities of the cards it holds or has seen
(``state.card[h]`` for ``h`` in ``state.hand[seat]`` or marked in ``state.seen[seat]``), its
own personality (``state.pers[state.personality[seat]]``) and personalities it
has been shown (``state.pers_seen[seat]``: Mrs Cake, Zorgo).  It never reads
another seat's card identities, another seat's hidden personality, the unused
personalities it was not shown, the order of the draw pile or of the event
deck, or the options of another seat's decision (beyond taking the first of
the public kinds above).  ``tests/bots`` check this by running the bot on an
engine that knows only that seat's cards and requiring the same choices.

The evaluation
--------------
Opponents' personalities are unknown, so each opponent is treated as a
uniform mix of the personalities the seat cannot account for (all but its
own and any it was shown).  In rough victory-point units the score is

* progress toward the bot's own condition -- Vetinari: demon-free areas with
  a minion; the Lords: areas controlled, plus ties and narrow deficits as
  half-steps; Dragon King: trouble markers; Chrysoprase: net worth;
  Commander Vimes: cards gone from the draw pile -- with a large bonus once
  the condition is met;
* minus each opponent's expected closeness to a win (steeply convex, so the
  player nearest to a win -- the leader -- matters most): its minion areas,
  controlled areas and net worth, the trouble count, and the draw pile
  running out (if Vimes may be among the opponents);
* plus a share of (own points - best opponent's points), for games decided
  on points;
* plus the future use of the City Area cards held (per-turn value times the
  own turns likely left);
* plus the value of the cards in hand to this personality (a pending refill
  counts as average cards), so a good card is not spent on nothing and an
  interrupt is kept for a minion worth saving.

A look-ahead that reaches the end of the game scores a win or a loss (the
draw pile running out: a win for Vimes, a probable loss for anyone else
when a Vimes may be in the game, otherwise decided on points).
"""
from __future__ import annotations

from typing import Sequence

from ..scoring import (
    board_stats, control_value, personality_met, points, reveals_seen_personalities, score, t_final_reveal,
)
from ..model import (
    LOAN_REPAY, NUM_AREAS, PERSONALITY, DealCard, Decision, PassCard, Reveal, RulesError,
    personality_list,
)
from .values import (
    CHRYSOPRASE, DRAGON, LORDS, VETINARI, VIMES, ability_values, average_value, card_values,
)

WIN = 10_000.0
VIMES_FEAR = 150.0
# Own decisions where a look-ahead stops: the next card choice of the bot.
BOUNDARY = frozenset({"turn", "another", "extra", "end", "check-win"})
# Other seats' decisions a look-ahead may take (first option); public options only.
OTHER_FIRST = frozenset({"give", "choice", "pick", "area", "move", "target"})
MAX_INNER = 8          # own decisions followed greedily inside one look-ahead
PRUNE_ABOVE = 16       # decisions with more options are pruned by a cheap first pass
PRUNE_KEEP = 8
MAX_SETTLE = 400       # safety net on automatic steps in one look-ahead

# --- the bot ---------------------------------------------------------------------------------------


class Context:
    """What the deciding seat knows, computed once per decision."""

    __slots__ = ("seat", "pid", "known", "values", "avg", "opp_pers", "need", "draw0",
                 "players", "p_vimes", "need_vet", "need_lord", "opp_w", "ability")

    def __init__(self, s, seat: int):
        self.seat = seat
        self.players = n = s.players
        own_h = s.personality[seat]
        self.pid = pid = s.pers[own_h]  # the seat's own personality (always known to it)
        known = s.seen[seat]
        for h in s.hand[seat]:
            known |= 1 << h
        self.known = known  # a bitmask of handles
        self.values = card_values(pid)
        self.avg = average_value(pid)
        # Personalities accounted for: own, and any the seat has been shown.
        seen = s.pers_seen[seat]
        exact: dict[int, str] = {}
        placed = {pid}
        for q in range(n):
            h = s.personality[q]
            if q != seat and seen >> h & 1 and s.pers[h] is not None:
                exact[q] = s.pers[h]
                placed.add(s.pers[h])
        for h in s.unused_pers:
            if seen >> h & 1 and s.pers[h] is not None:
                placed.add(s.pers[h])
        pool = [x for x in personality_list(n) if x not in placed]
        self.opp_pers = {}
        for q in range(n):
            if q == seat:
                continue
            if q in exact:
                self.opp_pers[q] = {exact[q]: 1.0}
            elif pool:
                w = 1.0 / len(pool)
                self.opp_pers[q] = {x: w for x in pool}
            else:
                self.opp_pers[q] = {}
        self.need = {x: PERSONALITY[x]["thresholds"].get(n) for x in personality_list(n)}
        self.draw0 = len(s.card) - 5 * n  # the draw pile after the deal
        self.p_vimes = sum(d.get(VIMES, 0.0) for d in self.opp_pers.values())
        self.ability = ability_values(pid)
        self.need_vet = self.need[VETINARI]
        self.need_lord = self.need["lord-rust"]
        # Per opponent: the chance it is Vetinari, a Lord, the Dragon King, Chrysoprase.
        self.opp_w = [(q, (d.get(VETINARI, 0.0), sum(d.get(x, 0.0) for x in LORDS),
                           d.get(DRAGON, 0.0), d.get(CHRYSOPRASE, 0.0)))
                      for q, d in self.opp_pers.items()]


class HeuristicBot:
    name = "heuristic"

    def __init__(self, rng):
        self.rng = rng
        self.errors: list[tuple] = []  # look-ahead steps the engine refused (should stay empty)

    # --- the interface ----------------------------------------------------------------------

    def choose(self, state, decision: Decision) -> tuple:
        opts: Sequence[tuple] = decision.options
        if len(opts) == 1:
            return opts[0]
        seat = decision.seat
        ctx = Context(state, seat)
        if decision.kind == "check-win":
            met = ctx.pid is not None and personality_met(state, seat, ctx.pid)
            want = ("win",) if met else ("no-win",)
            return want if want in opts else opts[0]
        if decision.kind == "discard" and not any(
                o[0] == "discard" and o[1] in state.hand[seat] for o in opts):
            # Cable Street: a card of another player's (shown to this seat) to throw away.
            return max(opts, key=lambda o: (ctx.values.get(state.card[o[1]], 0.0)
                                            if ctx.known >> o[1] & 1 else 0.0, self.rng.random()))
        if len(opts) > PRUNE_ABOVE:
            # Many options (placements, moves ...): a cheap first pass without the
            # greedy continuation picks the candidates worth a full look.
            quick = sorted(opts, key=lambda o: self.value_of(state, o, ctx, inner=0), reverse=True)
            opts = quick[:PRUNE_KEEP]
        best, best_v = opts[0], None
        for o in opts:
            v = self.value_of(state, o, ctx, inner=MAX_INNER) + self.rng.random() * 1e-6
            if best_v is None or v > best_v:
                best, best_v = o, v
        return best

    # --- look-ahead --------------------------------------------------------------------------

    def value_of(self, s, option, ctx: Context, inner: int) -> float:
        try:
            return self._value_of(s, option, ctx, inner)
        except RulesError as e:
            # The engine refused a step of the look-ahead (it should not):
            # never prefer this option, and keep the problem for inspection.
            if len(self.errors) < 100:
                self.errors.append((option, repr(e)))
            return -2 * WIN

    def _value_of(self, s, option, ctx: Context, inner: int) -> float:
        s2 = s.copy()
        s2.choose(option)
        stop = self.settle(s2, ctx)
        while stop == "own" and inner > 0:
            d = s2.pending
            if d.kind in BOUNDARY:
                break
            inner -= 1
            if len(d.options) == 1:
                o = d.options[0]
            else:
                o = max(d.options, key=lambda x: self.value_of(s2, x, ctx, 0))
            s2.choose(o)
            stop = self.settle(s2, ctx)
        return self.evaluate(s2, ctx)

    def settle(self, s, ctx: Context) -> str:
        """Carry a copy forward through steps that need no hidden information."""
        me = ctx.seat
        for _ in range(MAX_SETTLE):
            if reveals_seen_personalities(s):  # every seat knows them: the game is decided
                s.fulfil(tuple(s.pers[h] for h in s.pending.handles))
                continue
            if s.outcome is not None or s.ending:
                return "end"
            p = s.pending
            if p is None:
                return "stop"
            if isinstance(p, Decision):
                if p.seat == me:
                    return "own"
                if p.kind == "window":
                    s.choose(("pass",))
                    continue
                if p.kind in OTHER_FIRST:
                    s.choose(p.options[0])
                    continue
                return "stop"
            if isinstance(p, Reveal):
                if p.deck == "player" and all(ctx.known >> h & 1 and s.card[h] is not None
                                              for h in p.handles):
                    s.fulfil(tuple(s.card[h] for h in p.handles))
                    continue
                return "stop"
            if isinstance(p, PassCard):
                s.fulfil(None)
                continue
            if isinstance(p, DealCard):
                if p.deck != "player":
                    return "stop"
                s.fulfil((None,) * len(p.handles))
                continue
            return "stop"
        return "stop"

    # --- evaluation --------------------------------------------------------------------------

    def evaluate(self, s, ctx: Context) -> float:
        me = ctx.seat
        n = ctx.players
        if s.outcome is not None:
            if me in s.outcome.winners:
                return WIN
            return -WIN
        if s.ending:
            return self.terminal(s, ctx)
        pid = ctx.pid
        presence, control, board, bval = board_stats(s)
        trouble = s.trouble_count()
        v = self.own_value(s, ctx, presence, control, bval, trouble)
        v += self.income_value(s, ctx)
        # Opponents' expected danger.
        nv, nl = ctx.need_vet, ctx.need_lord
        for q, (wv, wl, wd, wc) in ctx.opp_w:
            d = 0.0
            if wv:
                d += wv * closeness(presence[q] / nv)
            if wl:
                d += wl * closeness(control[q] / nl)
            if wd:
                d += wd * closeness(trouble / 8.0)
            if wc:
                d += wc * closeness((s.money[q] - LOAN_REPAY * len(s.loans[q]) + bval[q]) / 50.0)
            v -= d
        refill = max(0, 5 - len(s.hand[me]) - len(s.penalties[me]))
        gone = (ctx.draw0 - len(s.draw) + refill) / ctx.draw0  # of the draw pile, with the refill
        if ctx.p_vimes:
            v -= ctx.p_vimes * VIMES_FEAR * gone ** 4
        # Points: own score against the best other score.
        mine = points(s, me, board, bval)
        best_other = max(points(s, q, board, bval) for q in range(n) if q != me)
        v += 0.35 * (mine - best_other) + 0.15 * mine
        # Cards in hand (a pending refill counts as average cards).
        vals = ctx.values
        known = ctx.known
        hv = 0.0
        for h in s.hand[me]:
            hv += vals.get(s.card[h], 0.0) if known >> h & 1 and s.card[h] else ctx.avg
        hv += refill * ctx.avg
        v += hv - 3.0 * len(s.penalties[me])
        # The draw pile: Vimes wants it gone.
        if pid == VIMES:
            v += 60.0 * gone + 120.0 * gone ** 4
        return v

    def terminal(self, s, ctx: Context) -> float:
        """The look-ahead reached the end of the game (all that is left is to
        reveal the personalities)."""
        me = ctx.seat
        detail, winner = "draw-pile", None
        for task in reversed(s.stack):
            if task[0] is t_final_reveal:
                detail, winner = task[1], task[2]
                break
        if detail == "personality":
            return WIN if winner == me else -WIN
        if detail == "draw-pile":
            if ctx.pid == VIMES:
                return WIN
            pv = min(1.0, ctx.p_vimes)
        else:
            pv = 0.0
        mine = score(s, me)
        best_other = max(score(s, q) for q in range(s.players) if q != me)
        pts = WIN / 2 if mine > best_other else (0.0 if mine == best_other else -WIN / 2)
        return -WIN * pv + (1 - pv) * pts

    def own_value(self, s, ctx: Context, presence, control, bval, trouble) -> float:
        me, pid = ctx.seat, ctx.pid
        if pid == VETINARI:
            need = ctx.need_vet
            k = presence[me]
            return (600.0 if k >= need else 0.0) + 22.0 * k + 6.0 * max(0, k - (need - 3)) ** 2
        if pid in LORDS:
            need = ctx.need_lord
            return (600.0 if control[me] >= need else 0.0) + control_value(s, me, need)
        if pid == DRAGON:
            t = trouble
            return (600.0 if t >= 8 else 0.0) + 25.0 * t + 5.0 * max(0, t - 4) ** 2
        if pid == CHRYSOPRASE:
            nw = s.money[me] - LOAN_REPAY * len(s.loans[me]) + bval[me]
            return (600.0 if nw >= 50 else 0.0) + 2.5 * nw + 0.05 * max(0, nw - 30) ** 2
        return 0.0

    def income_value(self, s, ctx: Context) -> float:
        """Future use of the City Area cards held: per-turn value times the
        own turns likely left (from the size of the draw pile)."""
        me = ctx.seat
        total = 0.0
        table = ctx.ability
        for a in range(NUM_AREAS):
            if s.city_owner[a] == me and not s.demons[a]:
                total += table[a]
        if not total:
            return 0.0
        turns_left = min(8.0, len(s.draw) / (1.6 * ctx.players))
        return 0.5 * total * turns_left


def closeness(f: float) -> float:
    """How dangerous a seat is at fraction ``f`` of a win condition (1 = met)."""
    return 600.0 if f >= 1.0 else 200.0 * f ** 4
