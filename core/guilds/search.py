"""The search bot: Monte Carlo search over sampled hidden information.

1. **Candidates**: the heuristic bot's choice, ``end`` where offered, and
   others drawn at random, ``WIDTH`` in all (every option when there are few).
2. **Worlds**: a determinization fills in what the seat cannot see -- the
   other seats' development tokens and the stack's order, the kind of each
   stolen card it took no part in (drawn from the victim's cards) -- and
   keeps everything it can see.
3. **Rollouts**: in each world every candidate is played, then heuristic bots
   carry the game on, with dice and steals drawn from a generator shared by
   the candidates of that world, until the seat's next turn begins or the
   game ends.  Value: 1 for a win, 0 for a loss, else the position's
   evaluation for the seat squashed into (0, 1).
4. **Choice**: worlds are added until the budget (a number of worlds, or a
   deadline on a clock the caller injects) runs out; the heuristic's choice
   stands unless another beats it by more than ``CONFIDENCE`` standard errors
   of the paired differences.

The core reads no clock and creates no generator: both are injected.
"""
from __future__ import annotations

import math
from typing import Callable

from ..game import DealCard, Decision, PickRandom, Reveal, RollDie, RulesError, StealRandom
from .board import DEV_IDS
from .bots import HeuristicBot
from .state import State

WIDTH = 5
MAX_STEPS = 4000
CONFIDENCE = 1.5


def determinize(s: State, seat: int, rng) -> State:
    """A world consistent with what ``seat``'s engine knows, in simulation."""
    w = s.copy()
    known = {c for c in w.dcard if c is not None}
    unknown = [h for h, c in enumerate(w.dcard) if c is None]
    pool = [c for c in DEV_IDS if c not in known]
    rng.shuffle(pool)
    for h, c in zip(unknown, pool):
        w.dcard[h] = c
    for q in range(w.players):
        counts = w.res[q * 5:q * 5 + 5]
        for h in w.hid[q]:
            if w.rcard[h] is not None:
                counts[w.rcard[h]] += 1
        for h in w.owe[q]:
            if w.rcard[h] is not None:
                counts[w.rcard[h]] -= 1
        for h in w.owe[q]:
            if w.rcard[h] is None:
                kinds = [r for r in range(5) for _ in range(max(0, counts[r]))]
                r = kinds[rng.randrange(len(kinds))] if kinds else 0
                w.rcard[h] = r
                counts[r] -= 1
    w.events = []
    return w.simulate()


def answer(w: State, req, rng):
    """A world's answer to a request (everything in a world is known)."""
    t = type(req)
    if t is RollDie:
        if req.dice == 1:
            return rng.randint(1, req.sides)
        return tuple(rng.randint(1, req.sides) for _ in range(req.dice))
    if t is StealRandom:
        counts = w.true_hand(req.victim)
        cards = [r for r in range(5) for _ in range(max(0, counts[r]))]
        i = rng.randrange(len(cards))
        return req.handles[i % len(req.handles)], cards[i]
    if t is PickRandom:
        return tuple(rng.sample(list(req.items), req.k))
    if t is DealCard or t is Reveal:
        return w.known_answer(req)
    raise RulesError(f"no answer for {req!r}")


def evaluate(w: State, seat: int) -> float:
    """The position for ``seat``: its VP (Vetinari tokens included) and means,
    against the best other seat."""
    def worth(q: int) -> float:
        vets = sum(1 for h in w.dev[q] if w.dcard[h] and w.dcard[h][0] == "v")
        guards = len(w.dev[q]) - vets
        return (w.vp(q, vets) + 0.12 * min(w.hand_size(q), 8) + 0.05 * min(w.parch[q], 8)
                + 0.4 * w.memberships(q) + 0.02 * sum(w.gp[q * 5:q * 5 + 5])
                + 0.3 * (w.gup[q] + guards) + 0.3 * (2 - w.sup[q * 3]))
    mine = worth(seat)
    best = max(worth(q) for q in range(w.players) if q != seat)
    return 1 / (1 + math.exp(-(mine - best) / 2))


class SearchBot:
    name = "search"

    def __init__(self, rng, clock: Callable[[], float] | None = None, budget: float = 1.0,
                 worlds: int = 24):
        self.rng = rng
        self.clock = clock
        self.budget = budget
        self.worlds = worlds
        self.heuristic = HeuristicBot(rng)

    def choose(self, state: State, decision: Decision) -> tuple:
        opts = decision.options
        if len(opts) == 1:
            return opts[0]
        if opts[-1][0] == "win":
            return opts[-1]
        cands = self.candidates(state, decision)
        if len(cands) == 1:
            return cands[0]
        deadline = None if self.clock is None else self.clock() + self.budget * 0.9
        stats: dict[tuple, list[float]] = {c: [] for c in cands}
        n = 0
        while n < self.worlds:
            seed = self.rng.random()
            world = determinize(state, decision.seat, self.rng)
            values = []
            for c in cands:
                if n and deadline is not None and self.clock() >= deadline:
                    break       # a world is used whole or not at all
                values.append(self.rollout(world, decision.seat, c, seed))
            if len(values) < len(cands):
                break
            for c, v in zip(cands, values):
                stats[c].append(v)
            n += 1
        return self.pick(cands, stats)

    def candidates(self, s: State, d: Decision) -> list[tuple]:
        fav = self.heuristic.choose(s, d)
        if len(d.options) <= WIDTH:
            return [fav] + [o for o in d.options if o != fav]
        out = [fav]
        if ("end",) in d.options and fav != ("end",):
            out.append(("end",))
        rest = [o for o in d.options if o not in out]
        self.rng.shuffle(rest)
        return out + rest[:WIDTH - len(out)]

    def pick(self, cands: list[tuple], stats: dict) -> tuple:
        fav = cands[0]
        base = stats[fav]
        best, best_mean = fav, sum(base) / len(base)
        for c in cands[1:]:
            diffs = [a - b for a, b in zip(stats[c], base)]
            k = len(diffs)
            mean = sum(diffs) / k
            var = sum((x - mean) ** 2 for x in diffs) / max(1, k - 1)
            se = math.sqrt(var / k) if k > 1 else float("inf")
            if mean > CONFIDENCE * se and sum(stats[c]) / k > best_mean:
                best, best_mean = c, sum(stats[c]) / k
        return best

    def rollout(self, world: State, seat: int, option: tuple, seed: float) -> float:
        fate = _Fate(seed)
        w = world.copy()
        bot = HeuristicBot(fate)
        try:
            w.choose(option)
        except RulesError:
            return 0.0
        start_turn = w.turn
        steps = 0
        while w.outcome is None and steps < MAX_STEPS:
            if w.active == seat and w.turn > start_turn:
                break
            d = w.pending
            if type(d) is Decision:
                w.choose(bot.choose(w, d))
            else:
                w.fulfil(answer(w, d, fate))
            steps += 1
        if w.outcome is not None:
            return 1.0 if seat in w.outcome.winners else 0.0
        return evaluate(w, seat)


class _Fate:
    """A small deterministic generator (xorshift) for rollouts: the same seed
    gives every candidate of a world the same dice."""

    def __init__(self, seed: float):
        self.x = int(seed * 2 ** 53) | 1

    def _next(self) -> int:
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        self.x = x
        return x

    def random(self) -> float:
        return (self._next() >> 11) / 2 ** 53

    def randrange(self, n: int) -> int:
        return self._next() % n

    def randint(self, a: int, b: int) -> int:
        return a + self.randrange(b - a + 1)

    def sample(self, items: list, k: int) -> list:
        items = list(items)
        self.shuffle(items)
        return items[:k]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]
