"""A review's searches spread over worker processes, a few worlds at a time.

A search of a decision is the same worlds in the same order whoever plays
them: its candidates come from its generator, then each world is drawn from
it in turn (the cards dealt again, then the seed of that world's futures).
So a search of 32 worlds is cut into parts of a few worlds each, played in
any process: a part draws the worlds before its own from the generator
without playing them (:func:`part`), and the parts, put back in order, are
the values of the whole search, to the last bit.  Cut so, the long searches
of a review (32 worlds a decision searched again, three times the worlds
where the game ended) never leave one core working alone while the others
wait: every core has parts until the last few.
"""
from __future__ import annotations

import multiprocessing
import os
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, NamedTuple

from ankh.core.game import Decision, Game, get


class Spent(NamedTuple):
    """The processor time of one search, or one part of one (what the review benchmark adds up)."""
    phase: int       # 0: the first pass, 1: the decisions searched again, 2...: those in doubt, round by round
    n: int           # the decision's place in the seat's choices
    first: bool      # a part of the search's first worlds (False: the worlds added where the game ended)
    cpu: float       # its processor time, seconds
    pid: int         # the process that searched
    total: float     # that process's processor time so far (its start included)


# a search: the decision's place in the seat's choices, and its worlds, seed, values before, again, decisive
Task = tuple[int, int, str, "list[list[float]] | None", int, int]


def part(rules: Game, n: int, state: Any, decision: Decision, chosen: tuple, worlds: int, seed: str,
         again: int = 0, skip: int = 0) -> tuple[list[tuple], list[list[float]]]:
    """The candidates of the search of the seat's ``n``-th choice with
    ``seed`` (the choice last if the bot has it not), and their values in
    ``worlds`` worlds of it after the first ``skip`` (drawn, not played):
    those worlds of the review's search (``again``: of its how-manieth
    search again, from a generator of its own)."""
    bot = rules.bot("search", random.Random(f"{seed}:{n}"), worlds=worlds)
    cands = bot.candidates(state, decision)
    if chosen not in cands:
        cands = cands + [chosen]
    if again:
        bot = rules.bot("search", random.Random(f"{seed}:{again}:{n}"), worlds=worlds)
    if skip:
        bot.worlds = skip
        bot.weigh(state, decision, [])   # the generator past the worlds before, none of them played
        bot.worlds = worlds
    weighed = bot.weigh(state, decision, cands)
    return cands, [weighed[o] for o in cands]


def _elsewhere(game: str, n: int, state: Any, decision: Decision, chosen: tuple, worlds: int, seed: str,
               again: int, skip: int) -> tuple[list[tuple], list[list[float]], float, int, float]:
    """:func:`part` in a worker process (the game by its id), with its processor time."""
    start = time.process_time()
    cands, values = part(get(game), n, state, decision, chosen, worlds, seed, again, skip)
    now = time.process_time()
    return cands, values, now - start, os.getpid(), now


class Workers:
    """``jobs`` worker processes for every search of one review, started at
    the first that needs them (a review all kept needs none) and kept to its
    end: one start, not one a round of searches."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.pool: ProcessPoolExecutor | None = None
        self.failed = jobs < 2

    def start(self) -> bool:
        """Whether the workers run (False: they cannot be started here; search in this process)."""
        if self.pool is None and not self.failed:
            try:
                self.pool = ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("forkserver"))
            except (OSError, ValueError, ImportError):
                self.failed = True
        return self.pool is not None

    def close(self) -> None:
        """The workers stopped: parts not started are dropped, those running end first."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def searches(self, rules: Game, seen: list[tuple[Any, Decision, tuple]], tasks: list[Task], step: int,
                 ended: Callable[[list[list[float]]], bool], stop: Callable[[], bool], phase: int,
                 timed: Callable[[Spent], None]) -> Iterator[tuple[list[tuple], list[list[float]]]]:
        """The searches ``tasks`` name, in order, until ``stop`` says so: each
        one's candidates and their values in its worlds (not those before),
        every search cut in parts of ``step`` worlds, all sent to the workers
        at once.  A search whose worlds show the game ``ended`` and asks
        for more (its ``decisive`` worlds) gets them in more parts."""
        assert self.pool is not None
        pool = self.pool
        parts: list[dict[int, list[list[float]]]] = [{} for _ in tasks]
        cands: list[list[tuple]] = [[] for _ in tasks]
        needed = [len(range(0, t[1], step)) for t in tasks]
        looked = [False] * len(tasks)   # whether its first worlds were looked at for an end of the game
        running: dict[Future[Any], tuple[int, int, bool]] = {}

        def send(i: int, skip: int, count: int) -> None:
            n, worlds, seed, _before, again, _decisive = tasks[i]
            future = pool.submit(_elsewhere, rules.id, n, *seen[n], count, seed, again, skip)
            running[future] = (i, skip, skip < worlds)

        def joined(i: int) -> list[list[float]]:
            got = [parts[i][k] for k in sorted(parts[i])]
            return [[v for got_k in got for v in got_k[c]] for c in range(len(cands[i]))]

        for i, (_n, worlds, *_rest) in enumerate(tasks):
            for skip in range(0, worlds, step):
                send(i, skip, min(step, worlds - skip))
        out = 0
        try:
            while out < len(tasks):
                while out < len(tasks) and looked[out] and len(parts[out]) == needed[out]:
                    if stop():
                        return
                    yield cands[out], joined(out)
                    out += 1
                if out == len(tasks):
                    return
                finished, _running = wait(list(running), return_when=FIRST_COMPLETED)
                for future in finished:
                    i, skip, first = running.pop(future)
                    cands[i], parts[i][skip], cpu, pid, total = future.result()
                    timed(Spent(phase, tasks[i][0], first, cpu, pid, total))
                    if not looked[i] and len(parts[i]) == needed[i]:
                        looked[i] = True
                        worlds, decisive = tasks[i][1], tasks[i][5]
                        if decisive > worlds and ended(joined(i)):
                            for skip in range(worlds, decisive, step):
                                send(i, skip, min(step, decisive - skip))
                                needed[i] += 1
        finally:
            for future in running:
                future.cancel()
