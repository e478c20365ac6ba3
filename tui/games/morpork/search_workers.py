"""The hard bot: :class:`ankh.core.morpork.bots.search.SearchBot` with a clock, its
worlds spread over worker processes so that every core searches.

The core's search is deterministic given its generator and a number of
worlds; here it gets a deadline instead.  For each decision the candidates
are chosen once (in this process), every worker searches its own worlds of
the same candidates until the deadline, and the statistics are merged
(``search.merge``) before the choice.  Where worker processes cannot be
started the search runs in this process alone.
"""
from __future__ import annotations

import atexit
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ankh.core.morpork.bots.search import WIDTH, SearchBot, merge
from ankh.core.morpork.model import Decision

HARD_BUDGET: float | None = 0.8  # seconds of search per decision; None: HARD_WORLDS alone
HARD_WORLDS: int | None = None     # worlds per decision (None: as many as the budget allows)
HARD_WIDTH = WIDTH                 # candidates searched per decision
MAX_WORKERS = 4
_LEVEL = object()  # "as the hard level is set": HARD_BUDGET, HARD_WORLDS

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_pool_failed = False


def workers() -> int:
    """Processes that search one decision: one per core, at most MAX_WORKERS."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        n = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, n))


def _get_pool() -> ProcessPoolExecutor | None:
    global _pool, _pool_failed
    with _lock:
        if _pool is None and not _pool_failed and workers() > 1:
            try:
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["ankh.core.morpork.bots.search"])
                _pool = ProcessPoolExecutor(workers(), mp_context=ctx, initializer=_watch,
                                            initargs=(os.getpid(),))
                atexit.register(_pool.shutdown, cancel_futures=True)
            except (OSError, ValueError, ImportError):
                _pool_failed = True
        return _pool


def _watch(pid: int) -> None:
    """In a worker: leave as soon as the program that started it is gone (even
    killed, when nothing shuts the pool down)."""
    def watch() -> None:
        while True:
            time.sleep(0.5)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:  # the pid now belongs to someone else's process
                os._exit(0)
    threading.Thread(target=watch, daemon=True).start()


def _search_part(state, seat: int, cands: list, seed: float, budget: float | None,
                 worlds: int | None) -> dict:
    """One worker's share: ``worlds`` worlds, or as many as ``budget`` seconds allow."""
    bot = SearchBot(random.Random(seed), clock=time.perf_counter, budget=budget or 0.0)
    deadline = None if budget is None else time.perf_counter() + budget
    return bot.search(state, seat, cands, bot.rng, deadline, worlds)


def _warm() -> int:
    return os.getpid()


class ParallelSearchBot:
    """``ParallelSearchBot(rng, budget=HARD_BUDGET, worlds=HARD_WORLDS)``: the
    search bot at the hard level, thinking ``budget`` seconds a decision (or
    ``worlds`` worlds, whichever ends first) on every core.  With no budget
    the worlds alone limit it, and its decisions depend on ``rng`` only."""

    name = "search"

    def __init__(self, rng, budget=_LEVEL, worlds=_LEVEL):
        self.rng = rng
        self.budget: float | None = HARD_BUDGET if budget is _LEVEL else budget
        self.worlds: int | None = HARD_WORLDS if worlds is _LEVEL else worlds
        if self.budget is None and self.worlds is None:
            raise ValueError("the search needs a budget, a number of worlds, or both")
        self.bot = SearchBot(rng, worlds=self.worlds or 1, width=HARD_WIDTH)
        pool = _get_pool()
        if pool is not None:
            pool.submit(_warm)   # start the workers now, not at the first decision

    def choose(self, state, decision: Decision) -> tuple:
        start = time.perf_counter()
        cands = self.bot.candidates(state, decision)
        if len(cands) == 1:
            return cands[0]
        n = workers() if self.worlds is None else max(1, min(workers(), self.worlds))
        seeds = [self.rng.random() for _ in range(n)]
        left = None if self.budget is None else max(0.05, self.budget - (time.perf_counter() - start))
        share = None if self.worlds is None else -(-self.worlds // n)
        pool = _get_pool()
        parts = None
        if pool is not None:
            try:
                futures = [pool.submit(_search_part, state, decision.seat, cands, seed, left, share)
                           for seed in seeds]
                parts = [f.result(timeout=None if left is None else left + 30) for f in futures]
            except (BrokenProcessPool, OSError, TimeoutError):
                parts = None
        if parts is None:  # no workers: search here (the same worlds when they are counted)
            if left is None:
                parts = [_search_part(state, decision.seat, cands, seed, None, share)
                         for seed in seeds]
            else:
                parts = [_search_part(state, decision.seat, cands, seeds[0], left, self.worlds)]
        return self.bot.pick(cands, merge(parts))
