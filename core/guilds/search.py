"""The search bot: Monte Carlo search over sampled hidden information.

1. **Candidates**: the heuristic bot's choice and the options that look best
   one step ahead (each played in one sampled world, its chance drawn, and
   the position evaluated), ``WIDTH`` in all (every option when there are
   few).
2. **Worlds**: a determinization fills in what the seat cannot see -- the
   other seats' development tokens and the stack's order, the kind of each
   stolen card it took no part in (drawn from the victim's cards) -- and
   keeps everything it can see.
3. **Rollouts**: in each world every candidate is played, then heuristic bots
   carry the game on, with dice and steals drawn from a generator shared by
   the candidates of that world, until the seat's next turn begins or the
   game ends.  Value: the seat's chance to win there (:func:`chances`): 1
   for a win, 0 for a loss, else its share of a softmax over every seat's
   worth, so the chances of the seats sum to 1; a seat's worth in VP
   (its points, its income by pips over the rounds the leader leaves, its
   guild points toward memberships and presidencies held or within reach,
   its cards and how near they are to its next building, its foundations,
   the arrests and rank its guards promise, its parchments).
4. **Choice**: worlds are added until the budget (a number of worlds, or a
   deadline on a clock the caller injects) runs out; the heuristic's choice
   stands unless another beats it by more than ``CONFIDENCE`` standard errors
   of the paired differences.

The core reads no clock and creates no generator: both are injected.
"""
from __future__ import annotations

import math
from typing import Callable

from ..game import (DealCard, Decision, forced, PickRandom, Reveal, RollDie, RulesError, ShowCards, StealRandom,
                    win_chances)
from .board import (
    ALCHEMISTS, BEGGARS, COST_FOUNDATION, COST_HOUSE, COST_VILLA, DEV_IDS, D_KIND, D_RESOURCE,
    FOUNDATIONS, HOUSES, NUM_VERTICES, PALACE, TARGET_VP, TOKENS, TRACK, TRACK_BIT, UNIVERSITY,
    VERTEX_DISTRICTS,
)
from .bots import PIPS, HeuristicBot, PlayoutBot
from .state import CAPTAIN, HOUSE, NO_RANK, VILLA, State

WIDTH = 5
TRADES = 2            # trade offers or counters weighed besides the listed options
MAX_STEPS = 4000
CONFIDENCE = 1.0
HORIZON = 1           # rollouts stop when the seat's turn has come round this often
TEMPERATURE = 1.25    # VP of worth per unit of log-odds between two seats (fitted: scripts/bench/calibrate,
                      # on bot games apart from those the review is measured on)


def determinize(s: State, seat: int, rng) -> State:
    """A world consistent with what ``seat``'s engine knows, in simulation."""
    w = s.copy()
    known = {c for c in w.dcard if c is not None}
    unknown = [h for h, c in enumerate(w.dcard) if c is None]
    pool = [c for c in DEV_IDS if c not in known]
    rng.shuffle(pool)
    for h, c in zip(unknown, pool):
        w.dcard[h] = c
    # a hidden card this seat never saw may be any kind, but the cards a
    # pending trade has committed (the offer, the answers given) must still be
    # in their seat's hand: the seat was seen to hold them
    held = [[0] * 6 for _ in range(w.players)]
    if w.trade is not None:
        p, give = w.trade[0], w.trade[1]
        held[p] = list(give)
        for q, gives, _ in w.trade[4]:
            held[q] = [max(a, b) for a, b in zip(held[q], gives)]
    for q in range(w.players):
        have = w.res[q * 5:q * 5 + 5]
        unseen = []
        for h in w.hid[q]:
            c = w.rcard.get(h)
            if c is None:
                unseen.append(h)
            else:
                have[c] += 1
        need = [r for r in range(5) for _ in range(max(0, held[q][r] - have[r]))]
        for h in unseen:
            w.rcard[h] = need.pop() if need else rng.randrange(5)
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
    if t is DealCard or t is Reveal or t is ShowCards:
        return w.known_answer(req)
    raise RulesError(f"no answer for {req!r}")


# Where each vertex's buildings act: (token, kind, resource) for every number
# token of the districts it touches.
_VERTEX_TOKENS = tuple(tuple((t, D_KIND[d], D_RESOURCE[d]) for t, (d, _) in enumerate(TOKENS)
                             if d in VERTEX_DISTRICTS[v]) for v in range(NUM_VERTICES))
_CHANCE = tuple(PIPS.get(v, 0) / 36 for v in range(13))
_TOKEN_CHANCE = tuple(_CHANCE[v] for _, v in TOKENS)
# What a card's worth of income from each special district is worth, in cards
# (the Laboratory works one 5-or-10 in two; a Palace point is a guild point).
_SPECIAL = {UNIVERSITY: 0.45, PALACE: 0.7, BEGGARS: 0.9, ALCHEMISTS: 0.5}
CARD = 0.17          # VP a resource card is worth (a house with its foundation: six cards)


def income(w: State, q: int) -> tuple[list[float], float]:
    """Seat ``q``'s expected resource cards per roll by kind, and the cards'
    worth of everything else its buildings bring per roll."""
    inc = [0.0] * 5
    other = 0.0
    occ, robber = w.occ, w.robber
    lo = q * 3 + HOUSE
    for v in range(NUM_VERTICES):
        o = occ[v]
        if o < lo or o > lo + 1:
            continue
        for t, kind, r in _VERTEX_TOKENS[v]:
            if t == robber:
                continue
            if r is not None:
                inc[r] += _TOKEN_CHANCE[t] * (o - lo + 1)
            else:
                other += _TOKEN_CHANCE[t] * _SPECIAL[kind]
    return inc, other


def worth(w: State, q: int, rounds: float) -> float:
    """Seat ``q``'s position in VP: its points (every Vetinari token: a world
    knows them all), its income over the ``rounds`` still to come, its guild
    points toward memberships and presidencies, its cards and how near they
    are to its next building, its foundations, the arrests and the rank its
    guards promise, its parchments."""
    dc = w.dcard
    vets = sum(1 for h in w.dev[q] if dc[h] and dc[h][0] == "v")
    guards = len(w.dev[q]) - vets
    value = float(w.vp(q, vets))
    inc, other = income(w, q)
    kinds = sum(1 for x in inc if x > 0)
    value += (sum(inc) + other) * w.players * rounds * CARD * 0.5 + 0.15 * kinds
    gp, b = w.gp, q * 5
    for g in range(5):
        mine = gp[b + g]
        if mine >= 3:
            value += 0.3
        pres = w.pres[g]
        if w.lock[g]:
            continue
        if pres == q:
            rival = max(gp[x * 5 + g] for x in range(w.players) if x != q)
            value -= 0.5 * 0.5 ** (mine - rival)     # how easily it is taken
        else:
            gap = (3 - mine) if pres < 0 else gp[pres * 5 + g] + 1 - mine
            value += 0.5 * 0.6 ** max(0, gap)
    hand = w.true_hand(q)
    size = sum(hand)
    value += CARD * min(size, 7)
    if size > 7 and not w.rcpt[q]:
        value -= 0.05 * (size - 7)
    sup, b3 = w.sup, q * 3
    founds = FOUNDATIONS - sup[b3]
    value += 0.35 * founds
    goals = []
    if sup[b3 + VILLA] and sup[b3 + HOUSE] < HOUSES:
        goals.append(COST_VILLA)
    if founds and sup[b3 + HOUSE]:
        goals.append(COST_HOUSE)
    if sup[b3]:
        goals.append(COST_FOUNDATION)
    missing = min((sum(max(0, c[r] - hand[r]) for r in range(5)) for c in goals), default=4)
    value += 0.3 * 0.5 ** missing
    # Face-up guards arrest the assassins on the track (a VP each, one a
    # turn, on the totals they stand on); three of them make a rank.
    ready = w.gup[q] + 0.7 * guards
    value += 0.75 * min(ready, rounds * sum(_CHANCE[t] for t in TRACK if w.track & TRACK_BIT[t]))
    if w.rank[q] == NO_RANK:
        value += (0.3 if CAPTAIN in w.rank else 0.6) * min(ready, 3) / 3
    value += 0.06 * min(w.parch[q], 10) + 0.03 * w.rcpt[q]
    return value


def values(w: State) -> list[float]:
    """Every seat's worth in VP (:func:`worth`), over the rounds the leader leaves."""
    lead = max(w.vp(q) for q in range(w.players))
    rounds = max(1.0, TARGET_VP - lead)
    return [worth(w, q, rounds) for q in range(w.players)]


def chances(w: State, temperature: float = TEMPERATURE) -> list[float]:
    """Each seat's estimated chance to win from the position ``w`` (summing to
    1): over, 1 shared by the winners; else a share of every seat's worth
    (:func:`~ankh.core.game.win_chances`), fitted to who won bot games."""
    if w.outcome is not None:
        return win_chances(w.players, w.outcome.winners, None, temperature)
    return win_chances(w.players, None, values(w), temperature)


def evaluate(w: State, seat: int) -> float:
    """The seat's estimated chance to win from the position (:func:`chances`)."""
    return chances(w)[seat]


class SearchBot:
    name = "search"

    def __init__(self, rng, clock: Callable[[], float] | None = None, budget: float = 1.0,
                 worlds: int = 64):
        self.rng = rng
        self.clock = clock
        self.budget = budget
        self.worlds = worlds
        self.heuristic = HeuristicBot(rng)

    def choose(self, state: State, decision: Decision) -> tuple:
        opts = decision.options
        if forced(decision):
            return opts[0]
        if opts[-1][0] == "win":
            return opts[-1]
        cands = self.candidates(state, decision)
        if len(cands) == 1:
            return self.heuristic.settle(state, cands[0])
        return self.heuristic.settle(state, self.pick(cands, self.weigh(state, decision, cands)))

    def evaluate(self, state: State, decision: Decision, also: tuple | None = None) -> list[tuple[tuple, float]]:
        """The options this bot weighs at ``decision`` (and ``also``, an option it
        would not have: a choice under review), best first, each with its
        estimated chance for the seat (0 to 1), from the seat's knowledge alone
        (every world it searches is dealt again from what the seat has seen):
        what a hint and a review show."""
        cands = self.candidates(state, decision)
        if also is not None and also not in cands:
            cands = cands + [also]
        stats = self.weigh(state, decision, cands)
        rated = [(c, sum(stats[c]) / len(stats[c])) for c in cands]
        return sorted(rated, key=lambda r: -r[1])

    def weigh(self, state: State, decision: Decision, cands: list[tuple]) -> dict[tuple, list[float]]:
        """Each candidate's value in each world searched (the same worlds for all;
        at least one, then more until ``worlds`` or the clock's budget)."""
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
        return stats

    def candidates(self, s: State, d: Decision) -> list[tuple]:
        """The heuristic's choice first, then the options that look best one
        step ahead in one sampled world."""
        seen = self.heuristic.counters
        fav = self.heuristic.prefer(s, d)
        if not seen.fresh(s, fav):      # a counter made before to this offer: not again
            fav = ("decline",)
        # trades too many to list: the few the heuristic would make, weighed by the search
        made = self.heuristic.made_offers(s)
        trades = [o for o in self.heuristic.trades_to_try(s, d)
                  if o != fav and seen.fresh(s, o) and o not in made][:TRADES]
        rest = [o for o in d.options if o != fav]
        if len(rest) < WIDTH:
            return [fav] + trades + rest
        world = determinize(s, d.seat, self.rng)
        fate = self.rng.random()
        score = {o: self.glance(world, d.seat, o, fate) for o in rest}
        rest.sort(key=lambda o: -score[o])
        return [fav] + trades + rest[:WIDTH - 1 - len(trades)]

    def glance(self, world: State, seat: int, option: tuple, seed: float) -> float:
        """The position right after ``option`` (chance drawn), for ``seat``."""
        fate = _Fate(seed)
        w = world.copy()
        try:
            w.choose(option)
            while w.outcome is None and type(w.pending) is not Decision:
                w.fulfil(answer(w, w.pending, fate))
        except RulesError:
            return -1.0
        if w.outcome is not None:
            return 2.0 if seat in w.outcome.winners else -1.0
        return evaluate(w, seat)

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
        bot = PlayoutBot(fate)
        try:
            w.choose(option)
        except RulesError:
            return 0.0
        seen, turns = w.turn, 0
        steps = 0
        while w.outcome is None and steps < MAX_STEPS:
            if w.active == seat and w.turn > seen:
                seen, turns = w.turn, turns + 1
                if turns == HORIZON:
                    break
            d = w.pending
            if type(d) is Decision:
                w.choose(bot.choose(w, d))
            else:
                w.fulfil(answer(w, d, fate))
            steps += 1
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
