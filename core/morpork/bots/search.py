"""The search bot: information-set Monte Carlo search over its own decision.

How it decides
--------------
1. **Candidates.**  The heuristic bot (:mod:`.heuristic`) scores every option
   of the decision with its one-turn look-ahead; the best ``width`` are the
   candidates (all of them when there are few).  One candidate left: done.
2. **Worlds.**  A *determinization* is a complete guess of everything the
   seat cannot see, drawn at random but consistent with everything it has
   seen (:func:`determinize`): the cards in other hands that it has not seen,
   the order of the draw pile (green above brown), the other seats' hidden
   personalities and the unused ones, the order of the event deck.  What the
   seat has seen -- its own hand, cards shown or given to it, face-up cards,
   personalities it was shown -- stays as it is.
3. **Rollouts.**  In each world every candidate is played and the game is
   carried forward by heuristic bots at every seat (including its own) with
   dice and random picks drawn from a generator shared by all candidates of
   that world (common random numbers: the candidates are compared on the same
   futures), until the seat's next turn begins (``horizon`` turns) or the game
   ends.  The result is the seat's chance to win there (:func:`chances`): 1
   for a win (a share of 1 on a shared win), 0 for a loss, otherwise its
   share of a softmax over every seat's heuristic evaluation, so the chances
   of the seats sum to 1.
4. **Choice.**  Worlds are added until the budget runs out -- a number of
   worlds (``worlds``), or a deadline on an injected clock; every candidate
   always has the same number of worlds.  The heuristic's favourite stands
   unless another candidate beats it in the same worlds by more than
   ``CONFIDENCE`` standard errors of the paired differences; among those that
   do, the best mean wins.  Few worlds thus never make the bot worse than
   the heuristic it starts from.

Only step 2 touches hidden information, and it replaces all of it: the bot's
decision depends on the seat's information and its generator alone (the
tests swap the unseen cards and require the same decision).  The core never
reads a clock or creates a generator: the caller injects both (see
``ankh.tui.bots``, which also spreads the worlds over worker processes with
:func:`merge` of the per-worker :func:`search_stats`).
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

from ...game import win_chances
from ..model import (
    EVENTS, DealCard, Decision, PassCard, PickRandom, Reveal, RollDie, RulesError, ShowCards,
    deck_lists, personality_list,
)
from ..state import State, handles
from .heuristic import MAX_INNER, PRUNE_ABOVE, PRUNE_KEEP, Context, HeuristicBot

EVENT_IDS = tuple(e["id"] for e in EVENTS)
WIDTH = 4             # candidates searched per decision
HORIZON = 1           # rollouts stop when the seat's turn has come round this often
TEMPERATURE = 630.0   # heuristic evaluation units per unit of log-odds between two seats (fitted:
                      # scripts/bench/calibrate, on bot games apart from those the review is measured on)
MAX_STEPS = 3000      # safety net on the steps of one rollout

CONFIDENCE = 1.0      # standard errors a candidate must beat the heuristic's favourite by

# option -> [worlds, total value, total and total square of (value - the favourite's value)]
Stats = dict[tuple, list[float]]


# --- worlds ------------------------------------------------------------------------------


def determinize(s: State, seat: int, rng) -> State:
    """A copy of ``s`` in which every card and personality ``seat`` has not seen
    is replaced by a random guess consistent with what it has seen.  Reads
    nothing hidden: the guess depends only on the seat's knowledge and ``rng``."""
    w = s.copy()
    n = s.players
    # Player cards.
    seen = s.seen[seat]
    ncards = len(s.card)
    known = {s.card[h] for h in handles(seen) if s.card[h] is not None}
    hidden = [h for h in range(ncards) if not seen >> h & 1 or s.card[h] is None]
    green, brown = deck_lists(n)
    g_ids = sorted(c for c in green if c not in known)
    b_ids = sorted(c for c in brown if c not in known)
    g_at = [h for h in hidden if h < len(green)]
    if len(g_at) == len(g_ids):
        # The rulebook's deck: green cards above brown, so a handle's colour is public.
        rng.shuffle(g_ids)
        rng.shuffle(b_ids)
        ids = iter(g_ids + b_ids)
        for h in g_at + [h for h in hidden if h >= len(green)]:
            w.card[h] = next(ids)
    else:  # a deck stacked by a record: any unseen card may be anywhere
        pool = g_ids + b_ids
        rng.shuffle(pool)
        for h, cid in zip(hidden, pool):
            w.card[h] = cid
    # Personalities.
    pseen = s.pers_seen[seat]
    pknown = {s.pers[h] for h in handles(pseen) if s.pers[h] is not None}
    phidden = [h for h in range(len(s.pers)) if not pseen >> h & 1 or s.pers[h] is None]
    pool = sorted(p for p in personality_list(n) if p not in pknown)
    rng.shuffle(pool)
    for h, pid in zip(phidden, pool):
        w.pers[h] = pid
    # Events still in the deck (drawn ones are public).
    drawn = {s.event[h] for h in s.events_done}
    pool = sorted(e for e in EVENT_IDS if e not in drawn)
    rng.shuffle(pool)
    for h, eid in zip(sorted(s.event_deck), pool):
        w.event[h] = eid
    return w


def answer(w: State, req, rng):
    """The table's answer in a determinized world (every identity is set)."""
    if isinstance(req, RollDie):
        return rng.randint(1, 12)
    if isinstance(req, (DealCard, Reveal, ShowCards)):
        deck = w.card if req.deck == "player" else w.pers if req.deck == "personality" else w.event
        return tuple(deck[h] for h in req.handles)
    if isinstance(req, PassCard):
        return w.card[req.handle]
    if isinstance(req, PickRandom):
        return tuple(rng.sample(list(req.items), req.k))
    raise RulesError(f"unknown request {req!r}")


# --- the bot -------------------------------------------------------------------------------


class SearchBot:
    """``SearchBot(rng, clock=None, budget=1.0, worlds=None)``: ``rng`` is a
    ``random.Random``-like generator; with a ``clock`` (seconds, monotonic) the
    search stops adding worlds once ``budget`` seconds have passed, and with
    ``worlds`` once that many have been searched (whichever comes first; with
    neither, :data:`DEFAULT_WORLDS`)."""

    name = "search"
    DEFAULT_WORLDS = 16

    def __init__(self, rng, clock: Callable[[], float] | None = None, budget: float = 1.0,
                 worlds: int | None = None, width: int = WIDTH, horizon: int = HORIZON):
        self.rng = rng
        self.clock = clock
        self.budget = budget
        self.worlds = worlds if worlds is not None or clock is not None else self.DEFAULT_WORLDS
        self.width = width
        self.horizon = horizon
        self.heuristic = HeuristicBot(rng)
        self.last: Stats = {}   # the statistics behind the last decision

    # --- the interface ----------------------------------------------------------------

    def choose(self, state: State, decision: Decision) -> tuple:
        cands = self.candidates(state, decision)
        if len(cands) == 1:
            return cands[0]
        deadline = self.clock() + self.budget if self.clock is not None else None
        stats = self.search(state, decision.seat, cands, self.rng, deadline, self.worlds)
        return self.pick(cands, stats)

    def evaluate(self, state: State, decision: Decision, also: tuple | None = None) -> list[tuple[tuple, float]]:
        """The options this bot weighs at ``decision`` (and ``also``, an option it
        would not have: a choice under review), best first, each with its
        estimated chance for the seat (0 to 1), from the seat's knowledge alone
        (every world it searches is dealt again from what the seat has seen):
        what a hint and a review show."""
        cands = self.candidates(state, decision)
        if also is not None and also not in cands:
            cands = cands + [also]
        deadline = self.clock() + self.budget if self.clock is not None else None
        stats = self.search(state, decision.seat, cands, self.rng, deadline, self.worlds)
        rated = [(o, stats[o][1] / stats[o][0]) for o in cands]
        return sorted(rated, key=lambda r: -r[1])

    def weigh(self, state: State, decision: Decision, cands: list[tuple]) -> dict[tuple, list[float]]:
        """Each candidate's value in each world searched, the same worlds for all
        (``worlds`` of them, or :data:`DEFAULT_WORLDS`): what a review needs to
        tell how sure a difference between two candidates is.  The worlds are
        those :meth:`evaluate` would search with the same generator."""
        stats: dict[tuple, list[float]] = {o: [] for o in cands}
        for _ in range(self.worlds or self.DEFAULT_WORLDS):
            w = determinize(state, decision.seat, self.rng).simulate()
            seed = self.rng.random()
            for o in cands:
                stats[o].append(self.rollout(w, decision.seat, o, seed))
        return stats

    def candidates(self, s: State, d: Decision) -> list[tuple]:
        """The options worth searching, best first by the heuristic's look-ahead."""
        opts: Sequence[tuple] = d.options
        if len(opts) == 1:
            return [opts[0]]
        h = self.heuristic
        if d.kind == "check-win" or (d.kind == "discard" and not any(
                o[0] == "discard" and o[1] in s.hand[d.seat] for o in opts)):
            return [h.choose(s, d)]   # decided by rule, or from public knowledge only
        ctx = Context(s, d.seat)
        if len(opts) > PRUNE_ABOVE:
            opts = sorted(opts, key=lambda o: h.value_of(s, o, ctx, inner=0), reverse=True)
            opts = opts[:PRUNE_KEEP]
        scored = sorted(((h.value_of(s, o, ctx, inner=MAX_INNER), i) for i, o in enumerate(opts)),
                        reverse=True)
        return [opts[i] for _, i in scored[:self.width]]

    def pick(self, cands: list[tuple], stats: Stats) -> tuple:
        """The heuristic's favourite (``cands[0]``) unless another candidate is
        better in the same worlds, clearly (see the module's notes)."""
        self.last = stats
        best = cands[0]
        k, total = stats[best][0], stats[best][1]
        best_v = total / k
        for o in cands[1:]:
            k, total, d, d2 = stats[o]
            if k < 2 or total / k <= best_v + 1e-12:
                continue
            mean = d / k
            var = max(0.0, (d2 - k * mean * mean) / (k - 1))
            if mean > CONFIDENCE * math.sqrt(var / k):
                best, best_v = o, total / k
        return best

    # --- the search -------------------------------------------------------------------

    def search(self, s: State, seat: int, cands: list[tuple], rng, deadline: float | None,
               worlds: int | None) -> Stats:
        """Per candidate, (worlds searched, total value): whole worlds are added
        until ``worlds`` are done or another world would likely end after
        ``deadline`` (at least one world is always searched)."""
        stats: Stats = {o: [0, 0.0, 0.0, 0.0] for o in cands}
        done = 0
        start = self.clock() if deadline is not None else 0.0  # type: ignore[misc]
        while worlds is None or done < worlds:
            if done and deadline is not None:
                now = self.clock()  # type: ignore[misc]
                if now + (now - start) / done > deadline:
                    break  # another world would end after the deadline
            w = determinize(s, seat, rng).simulate()  # rollouts need no words nor checks
            seed = rng.random()
            first = None
            for o in cands:
                v = self.rollout(w, seat, o, seed)
                if first is None:
                    first = v
                st = stats[o]
                st[0] += 1
                st[1] += v
                st[2] += v - first
                st[3] += (v - first) ** 2
            done += 1
        return stats

    def rollout(self, w: State, seat: int, option: tuple, seed: float) -> float:
        """Play ``option`` in world ``w`` (left unchanged), then heuristic bots at
        every seat until the seat's next turn (or the end); value for ``seat``."""
        s = w.copy()
        fate = _Fate(seed)
        bot = HeuristicBot(fate)
        try:
            s.choose(option)
            turns = 0
            start = s.turn
            for _ in range(MAX_STEPS):
                if s.outcome is not None:
                    break
                p = s.pending
                if isinstance(p, Decision):
                    if s.turn != start and s.current == seat and p.kind != "check-win":
                        # The seat's turn has come round, its win checked (the
                        # turn's card is asked, or was taken as the only one).
                        turns += 1
                        start = s.turn
                        if turns >= self.horizon:
                            break
                    s.choose(bot.choose(s, p))
                else:
                    s.fulfil(answer(s, p, fate))
        except RulesError:
            return 0.0  # never prefer an option the rules refused on the way
        return chances(s, bot)[seat]


def values(s: State, bot: HeuristicBot) -> list[float]:
    """Every seat's heuristic evaluation of the position (each from its own knowledge)."""
    return [bot.evaluate(s, Context(s, q)) for q in range(s.players)]


def chances(s: State, bot: HeuristicBot, temperature: float = TEMPERATURE) -> list[float]:
    """Each seat's estimated chance to win from the position ``s`` (summing to
    1): over, 1 shared by the winners; else a share of every seat's heuristic
    evaluation (:func:`~ankh.core.game.win_chances`), fitted to who won bot games."""
    if s.outcome is not None:
        return win_chances(s.players, s.outcome.winners, None, temperature)
    return win_chances(s.players, None, values(s, bot), temperature)


class _Fate:
    """The chance of one world's futures: a small deterministic generator (the
    core creates no random generators) seeded from the bot's own, so every
    candidate of a world meets the same dice and picks."""

    __slots__ = ("x",)

    def __init__(self, seed: float):
        self.x = int(seed * (1 << 62)) | 1

    def _next(self) -> int:
        # xorshift64*
        x = self.x
        x ^= (x >> 12)
        x ^= (x << 25) & 0xFFFFFFFFFFFFFFFF
        x ^= (x >> 27)
        self.x = x
        return (x * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF

    def random(self) -> float:
        return (self._next() >> 11) / float(1 << 53)

    def randint(self, a: int, b: int) -> int:
        return a + self._next() % (b - a + 1)

    def choice(self, seq):
        return seq[self._next() % len(seq)]

    def sample(self, items: list, k: int) -> list:
        items = list(items)
        out = []
        for _ in range(k):
            out.append(items.pop(self._next() % len(items)))
        return out

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self._next() % (i + 1)
            items[i], items[j] = items[j], items[i]


def merge(parts: list[Stats]) -> Stats:
    """Statistics of several independent searches of the same candidates."""
    out: Stats = {}
    for part in parts:
        for o, st in part.items():
            acc = out.setdefault(o, [0, 0.0, 0.0, 0.0])
            for i, x in enumerate(st):
                acc[i] += x
    return out
