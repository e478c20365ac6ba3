"""Whole networked tables in one process, on a virtual clock, faults drawn from a seed.

The real :class:`~ankh.net.io.host.HostNode`, :class:`~ankh.net.io.join.JoinNode`
and :class:`~ankh.net.io.node.WatchNode` run as ``ankh host``/``join``/``watch``
run them, with their real links (Noise over byte streams, keepalives and all),
but:

- the event loop's clock is virtual (:class:`VirtualLoop`): when nothing is
  ready, it jumps to the next timer, so five minutes of a seat's patience
  take no time at all;
- the links go over an in-memory network (:class:`SimNet`, installed with
  :func:`ankh.net.io.transport.set_network`), which delays, cuts, corrupts,
  duplicates, reorders and partitions what they carry, as the seed says;
- the randomness that decides the table (identities, seat secrets, table
  ids, nonces) comes from the seed (:func:`ankh.net.fair.entropy.set_source`),
  so a seed plays the same table again, byte for byte.

After each table :func:`check` says what went wrong, if anything: a seat or
spectator that did not end, or ended with another result than the others;
an honest seat blamed; ``ankh verify`` of the final transcript disagreeing.

A test scripts one table with :class:`Scene` instead: it starts each node,
waits for what a node is told, and kills, restarts, cuts or tampers with it
at the step it chooses (docs/lan.md, *Scripted tables*).

The games come in through the registry (``--register ID=MODULE`` adds one,
as a test's game is added); each seat is played by the game's random bot.
Replay one table with::

    PYTHONHASHSEED=0 python -m ankh.net.io.sim --game tiny --register tiny=tests.tinygame --seed 7 --faults cut
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import errno
import functools
import hashlib
import heapq
import importlib
import os
import random
import selectors
import sys
import tempfile
import weakref
from collections.abc import Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core.game import allows, register
from ..fair import deck, entropy, group
from ..files import home
from ..wire.envelope import Identity
from ..play.peer import game_of
from ..files.verify import verify_transcript
from . import transport
from ..tablecore.join import JoinTable
from ..tablecore.result import Result
from .node import HostNode, JoinNode, WatchNode
from .savedir import SaveDir

#: The faults a table can be played through (``--faults``): the network's, each described in
#: :class:`SimNet`; a seat killed and restarted (``kill``), gone for good (``gone``), connected but
#: never moving again (``still``); and people whose screens are a step behind (``stale``, see
#: :func:`bot_decide`).
FAULTS = ("delay", "cut", "corrupt", "duplicate", "reorder", "partition", "kill", "still", "gone", "stale")
VIRTUAL_LIMIT = 4 * 3600.0  # virtual seconds a table may take before it counts as stuck

# asyncio's bounds for a turn of its loop (asyncio/base_events.py), which VirtualLoop._run_once keeps
_MIN_SCHEDULED, _MIN_CANCELLED, _MAX_TIMEOUT = 100, 0.5, 24 * 3600

_WHO: contextvars.ContextVar[str] = contextvars.ContextVar("ankh_sim_who", default="?")


class Stalled(RuntimeError):
    """Nothing is ready and no timer is set: every task waits for something that never comes."""


# -- the virtual clock ----------------------------------------------------------------------------

class _JumpingSelector(selectors.BaseSelector):
    """The loop's selector: looks at the real one without waiting (only the
    loop's own wake-up pipe is there), and where the loop would wait for
    its next timer, moves the virtual clock to it instead."""

    def __init__(self, loop: VirtualLoop) -> None:
        self._real = selectors.DefaultSelector()
        self._loop = loop

    def register(self, fileobj, events, data=None):
        return self._real.register(fileobj, events, data)

    def unregister(self, fileobj):
        return self._real.unregister(fileobj)

    def modify(self, fileobj, events, data=None):
        return self._real.modify(fileobj, events, data)

    def get_map(self):
        return self._real.get_map()

    def close(self) -> None:
        self._real.close()

    def select(self, timeout: float | None = None):
        if timeout == 0:  # callbacks are ready: the loop's wake-up pipe is looked at when they ran
            self._loop.came_to_hold()
            return []
        # (the system is asked only when something may wait there: the wake-up pipe was written,
        # or another file was registered; a simulated table's links are in memory)
        loop = self._loop
        ready = self._real.select(0) if loop.woken or len(self._real.get_map()) > 1 else []
        loop.woken = False
        if self._loop.came_to_hold() or ready:  # (what holds now is seen before time moves)
            return ready
        if timeout is None:
            raise Stalled(f"nothing to do at {self._loop.time():.3f} s and no timer set")
        self._loop.now += timeout
        return []


class VirtualLoop(asyncio.SelectorEventLoop):
    """An asyncio loop whose ``time()`` is virtual: it starts at 0 and moves
    only when every task waits, straight to the next timer."""

    simulated = True   # the only loop on which randomness may come from a seed (net/fair/entropy.py)

    def __init__(self) -> None:
        self.now = 0.0
        self.woken = True  # the wake-up pipe may hold a byte (written from another thread)
        # each node's tasks, in the order they were made (to kill its process; not a WeakSet, whose
        # order is that of the tasks' addresses in memory, which a replay in another process does not share)
        self.tasks_of: dict[str, weakref.WeakKeyDictionary[asyncio.Task, None]] = {}
        self.waiting_on: list[tuple[Callable[[], bool], asyncio.Future]] = []  # (Scene.when)
        super().__init__(selector=_JumpingSelector(self))
        self.set_task_factory(self._task)

    def time(self) -> float:
        return self.now

    def _write_to_self(self) -> None:
        self.woken = True
        super()._write_to_self()

    def _run_once(self) -> None:
        """asyncio's own turn of the loop (``BaseEventLoop._run_once``, Python 3.11), step
        for step, less what a virtual clock never needs (its debug timings): the timers
        leave their heap in the same order, so a seed plays the same table.  A table's
        processor time goes largely to these turns."""
        scheduled = self._scheduled
        sched_count = len(scheduled)
        if sched_count > _MIN_SCHEDULED and self._timer_cancelled_count / sched_count > _MIN_CANCELLED:
            kept = []
            for handle in scheduled:
                if handle._cancelled:
                    handle._scheduled = False
                else:
                    kept.append(handle)
            heapq.heapify(kept)
            self._scheduled = scheduled = kept
            self._timer_cancelled_count = 0
        else:
            while scheduled and scheduled[0]._cancelled:
                self._timer_cancelled_count -= 1
                handle = heapq.heappop(scheduled)
                handle._scheduled = False
        ready = self._ready
        timeout = None
        if ready or self._stopping:
            timeout = 0
        elif scheduled:
            timeout = min(max(0, scheduled[0]._when - self.now), _MAX_TIMEOUT)
        event_list = self._selector.select(timeout)
        if event_list:
            self._process_events(event_list)
        event_list = None
        end_time = self.now + self._clock_resolution
        while scheduled:
            handle = scheduled[0]
            if handle._when >= end_time:
                break
            handle = heapq.heappop(scheduled)
            handle._scheduled = False
            if handle._when > self.now and not handle._cancelled:
                # Due within the clock's resolution, so run now, as asyncio does: its time has
                # come. (A real clock moves on by itself; this one would stay just short of it,
                # and a wait until then would be asked again, for ever, at the same instant.)
                self.now = handle._when
            ready.append(handle)
        if self._debug:  # (as asyncio does it, timings and all)
            for _ in range(len(ready)):
                handle = ready.popleft()
                if not handle._cancelled:
                    self._current_handle = handle
                    try:
                        handle._run()
                    finally:
                        self._current_handle = None
        else:
            popleft = ready.popleft
            for _ in range(len(ready)):
                handle = popleft()
                if not handle._cancelled:
                    handle._run()
        handle = None

    def _task(self, loop: asyncio.AbstractEventLoop, coro: Any, context: contextvars.Context | None = None):
        task = asyncio.Task(coro, loop=loop, context=context)
        who = context.get(_WHO, "?") if context is not None else _WHO.get()  # (the node that made it)
        self.tasks_of.setdefault(who, weakref.WeakKeyDictionary())[task] = None
        return task

    def came_to_hold(self) -> bool:
        """Whether a condition waited on (:meth:`Scene.when`) holds now that the
        last callbacks ran; the waits it ends go on at once."""
        if not self.waiting_on:  # (the loop asks at each of its turns: most tables wait on nothing)
            return False
        held = False
        for condition, future in list(self.waiting_on):
            if not future.done() and condition():
                future.set_result(None)
                held = True
        self.waiting_on = [(c, f) for c, f in self.waiting_on if not f.done()]
        return held

    def kill(self, who: str) -> list[asyncio.Task]:
        """Cancel every task of node ``who``, as ``kill -9`` ends its process."""
        tasks = [t for t in list(self.tasks_of.pop(who, {})) if not t.done()]
        for t in tasks:
            t.cancel()
        return tasks


# -- the network ----------------------------------------------------------------------------------

class Deterministic:
    """Bytes from a seed (SHA-256 in counter mode): the table's randomness in the simulator."""

    def __init__(self, seed: bytes) -> None:
        self._seed, self._n = seed, 0

    def __call__(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hashlib.sha256(self._seed + self._n.to_bytes(8, "big")).digest()
            self._n += 1
        return out[:n]


@dataclass
class Rates:
    """How often each fault strikes: per chunk of bytes written, or per table."""

    latency: tuple[float, float] = (0.0005, 0.002)  # seconds, without the delay fault
    delay: tuple[float, float] = (0.001, 0.4)
    cut: float = 0.004
    corrupt: float = 0.003
    duplicate: float = 0.003
    reorder: float = 0.003


class _End:
    """One end of an in-memory stream socket: what its owner reads, how it writes to the other end."""

    def __init__(self, net: SimNet, owner: str, address: tuple[str, int]) -> None:
        self.net, self.owner, self.address = net, owner, address
        self.reader = asyncio.StreamReader(limit=2 ** 24)
        self.peer: _End | None = None
        self.closing = False
        self.last_at = 0.0
        self.held: bytes | None = None  # a chunk kept back to arrive after the next (reorder)
        self.hold_after: int | None = None  # (Scene.hold) chunks written that go before the rest waits
        self.written = 0
        self.waiting: list[bytes] = []  # what waits for Scene.release

    def send(self, data: bytes) -> None:
        net, peer = self.net, self.peer
        if self.closing or peer is None or not data:
            return
        if (self.owner, peer.owner) in net.dark:
            return  # lost on the way (a test darkened the wire)
        if self.hold_after is not None:
            self.written += 1
            if self.written > self.hold_after:
                self.waiting.append(data)
                return
        rng, faults, r = net.rng, net.faults, net.rates
        if "cut" in faults and rng.random() < r.cut:
            net.count("cut")
            self.reset()
            return
        if "corrupt" in faults and rng.random() < r.corrupt:
            net.count("corrupt")
            i = rng.randrange(len(data))
            data = data[:i] + bytes([data[i] ^ (1 + rng.randrange(255))]) + data[i + 1:]
        chunks = [data]
        if "duplicate" in faults and rng.random() < r.duplicate:
            net.count("duplicate")
            chunks.append(data)
        if self.held is not None:
            chunks.insert(1, self.held)
            self.held = None
        elif "reorder" in faults and rng.random() < r.reorder:
            net.count("reorder")
            self.held = chunks.pop()
            if not chunks:
                return
        low, high = r.delay if "delay" in faults else r.latency
        now = net.loop.time()
        at = max(self.last_at + 1e-6, now + rng.uniform(low, high), net.healed_at(self.owner, peer.owner))
        self.last_at = at
        for chunk in chunks:
            net.loop.call_at(at, peer.arrive, chunk)

    def arrive(self, data: bytes) -> None:
        if not self.reader.at_eof() and not self.closing:
            self.reader.feed_data(data)

    def close(self) -> None:
        """Our side closes: what was written still arrives, then the other end reads the end."""
        if self.closing:
            return
        self.closing = True
        self.reader.feed_eof()
        peer = self.peer
        if peer is not None:
            self.net.loop.call_at(max(self.last_at, self.net.loop.time()) + 1e-6, peer._eof)

    def _eof(self) -> None:
        if not self.reader.at_eof():
            self.reader.feed_eof()

    def reset(self) -> None:
        """The link is cut: both ends read the end at once; what was under way is lost."""
        for end in (self, self.peer):
            if end is not None:
                end.closing = True
                end._eof()


class _Writer:
    """What :class:`~ankh.net.io.transport.Connection` uses of an ``asyncio.StreamWriter`` (and its transport)."""

    def __init__(self, end: _End) -> None:
        self._end = end
        self.transport = self

    def write(self, data: bytes) -> None:
        self._end.send(bytes(data))

    async def drain(self) -> None:
        if self._end.closing:
            raise ConnectionResetError(errno.ECONNRESET, "connection reset")

    def is_closing(self) -> bool:
        return self._end.closing

    def close(self) -> None:
        self._end.close()

    async def wait_closed(self) -> None:
        return None

    def get_write_buffer_size(self) -> int:
        return 0

    def abort(self) -> None:
        self._end.reset()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        end = self._end
        if name == "sockname":
            return end.address
        if name == "peername":
            return end.peer.address if end.peer is not None else default
        return default


class _Socket:
    def __init__(self, address: tuple[str, int]) -> None:
        self._address = address

    def getsockname(self) -> tuple[str, int]:
        return self._address


class _Server:
    def __init__(self, net: SimNet, address: tuple[str, int]) -> None:
        self.net, self.sockets = net, [_Socket(address)]

    def close(self) -> None:
        self.net.servers.pop(self.sockets[0].getsockname(), None)

    async def wait_closed(self) -> None:
        return None


class SimNet:
    """An in-memory network of stream sockets, one address per node, with faults from a seed.

    Faults, each on only when named in ``faults``:

    - ``delay``: each chunk written arrives 1 to 400 ms later (in order);
    - ``cut``: a chunk written may reset its link instead (both ends read its end);
    - ``corrupt``: a chunk may arrive with one byte changed;
    - ``duplicate``: a chunk may arrive twice;
    - ``reorder``: a chunk may arrive after the next one;
    - ``partition``: a node may be cut off from everyone for a few seconds
      (what it writes or is written meanwhile arrives when it heals, unless
      its link ended meanwhile; it can connect to nobody meanwhile).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, rng: random.Random, faults: frozenset[str],
                 rates: Rates | None = None) -> None:
        self.loop, self.rng, self.faults = loop, rng, faults
        self.rates = rates or Rates()
        self.servers: dict[tuple[str, int], tuple[transport.Accept, contextvars.Context]] = {}
        self.addresses: dict[str, str] = {}
        self.partitions: dict[str, tuple[float, float]] = {}  # node -> (from, until)
        self.counts: dict[str, int] = {}
        self.ends: list[_End] = []
        self.dark: set[tuple[str, str]] = set()  # (from, to): what ``from`` writes to ``to`` is lost (Scene.darken)
        self.holding: dict[tuple[str, str], int] = {}  # (from, to): on new links, chunks before the rest waits
        self._port = 40000

    def count(self, fault: str) -> None:
        self.counts[fault] = self.counts.get(fault, 0) + 1

    def address_of(self, node: str) -> str:
        if node not in self.addresses:
            self.addresses[node] = f"10.0.0.{len(self.addresses) + 1}"
        return self.addresses[node]

    def _free_port(self) -> int:
        self._port += 1
        return self._port

    def cut_off(self, node: str, start: float, length: float) -> None:
        self.partitions[node] = (start, start + length)

    def healed_at(self, *nodes: str) -> float:
        """When ``nodes`` can next reach each other (now, unless one is cut off)."""
        now, at = self.loop.time(), 0.0
        for node in nodes:
            start, until = self.partitions.get(node, (0.0, 0.0))
            if start <= now < until:
                at = max(at, until)
        return at

    def crash(self, node: str) -> None:
        """``node``'s process ended: the system closes its sockets (what it wrote
        still arrives, then the other end reads the end), its servers are gone."""
        for end in self.ends:
            if end.owner == node:
                end.close()
        self.ends = [e for e in self.ends if not e.closing]
        for address, (_, context) in list(self.servers.items()):
            if context.get(_WHO) == node:
                del self.servers[address]

    async def open_connection(self, host: str, port: int, local_addr: tuple | None) -> tuple[Any, Any]:
        me = _WHO.get()
        if self.healed_at(me) > self.loop.time():
            await asyncio.sleep(3.0)
            raise TimeoutError(errno.ETIMEDOUT, "timed out")
        found = self.servers.get((host, port))
        if found is None:
            raise ConnectionRefusedError(errno.ECONNREFUSED, "connection refused")
        accept, context = found
        client = _End(self, me, (self.address_of(me), self._free_port()))
        server = _End(self, context.get(_WHO), (host, port))
        client.peer, server.peer = server, client
        for end in (client, server):
            end.hold_after = self.holding.get((end.owner, end.peer.owner))
        self.ends += [client, server]
        self.loop.create_task(accept(server.reader, _Writer(server)), context=context.copy())
        return client.reader, _Writer(client)

    async def start_server(self, accept: transport.Accept, host: str | None, port: int) -> Any:
        me = _WHO.get()
        address = (host if host not in (None, "", "::", "0.0.0.0") else self.address_of(me),
                   port or self._free_port())
        if address in self.servers:  # (as a system refuses a port another program listens on)
            raise OSError(errno.EADDRINUSE, f"address already in use: {address[0]}:{address[1]}")
        self.servers[address] = (accept, contextvars.copy_context())
        return _Server(self, address)


# -- a table --------------------------------------------------------------------------------------

@dataclass
class Table:
    """One simulated table: what ran and how it ended."""

    seed: int
    kind: str
    faults: frozenset[str]
    results: dict[str, Any] = field(default_factory=dict)  # node name -> Result (or the exception it raised)
    honest: set[str] = field(default_factory=set)  # the seats (by name) that play by the rules
    seats: int = 3
    cheat: str = ""  # the cheat's MODULE:NAME, for the replay command
    cheater: str | None = None  # the seat that cheats (and did: ``cheated``), if any
    cheated: bool = False
    # a seat would not sign that another left, or name its forfeit, because it never reached
    # it directly (the table then stops with no verdict, which each says in its own words)
    apart: bool = False
    transcript: bytes | None = None
    counts: dict[str, int] = field(default_factory=dict)
    virtual_seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    through: dict[str, str] = field(default_factory=dict)  # spectator -> the node whose watch point it watched last
    seat_of: dict[str, int] = field(default_factory=dict)  # node -> its seat at the table (the order they sat)
    quick: bool = False  # computed in the simulator's group, not on the curve

    def replay_command(self) -> str:
        faults = ",".join(sorted(self.faults)) or "none"
        extra = f" --register {self.kind}={_REGISTERED[self.kind]}" if self.kind in _REGISTERED else ""
        extra += f" --cheat {self.cheat}" if self.cheat else ""
        extra += " --quick" if self.quick else ""
        return (f"PYTHONHASHSEED=0 python -m ankh.net.io.sim --game {self.kind}{extra} --seats {self.seats}"
                f" --seed {self.seed} --faults {faults}")


_REGISTERED: dict[str, str] = {}  # games added with --register (named again in the replay command)


def register_game(spec: str) -> None:
    """``ID=MODULE``: make a game outside the distribution (a test's) known, as ``core.game.register``."""
    game_id, _, module = spec.partition("=")
    register(game_id, module)
    _REGISTERED[game_id] = module


def cheat_named(spec: str) -> Cheat:
    """``MODULE:NAME``: a cheat from a catalogue (a test's), by the name the replay command gives."""
    module, _, name = spec.partition(":")
    cheat = getattr(importlib.import_module(module), name)
    cheat.spec = spec
    return cheat


def draw(seed: int, faults: Sequence[str] = FAULTS, cheats: Sequence[str] = (), cheat_every: int = 8
         ) -> tuple[frozenset[str], str | None]:
    """The faults of a sweep's table ``seed``: each of ``faults`` with probability one half,
    and one of ``cheats`` on one table in ``cheat_every`` (``scripts/bench/simulate``)."""
    rng = random.Random(f"faults/{seed}")
    chosen = frozenset(f for f in faults if rng.random() < 0.5)
    cheat = rng.choice(list(cheats)) if cheats and cheat_every and rng.randrange(cheat_every) == 0 else None
    return chosen, cheat


def bot_decide(kind: str, rng: random.Random, still: Callable[[], bool] = lambda: False, bot_kind: str = "random",
               stale: Callable[[], None] | None = None):
    """A seat played by the game's random bot, or its ``bot_kind`` (``still()`` true: it never moves again).
    With ``stale``, a person whose screen is a step behind the table: now and then they answer a decision
    with what they chose at the one before, which is no move here (``stale()`` counts it), and the table
    must ask again."""
    bot = game_of(kind).bot(bot_kind, rng)
    parked: list[asyncio.Event] = []  # (held here: a task waiting on what nobody holds would be collected)
    last: tuple | None = None        # the answer to the decision before

    async def decide(peer, decision):
        nonlocal last
        if still():
            parked.append(asyncio.Event())
            await parked[-1].wait()  # connected, never moving
        await asyncio.sleep(rng.uniform(0.0, 0.5))
        if stale is not None and last is not None and not allows(decision, last) and rng.random() < 0.5:
            stale()
            return last
        last = bot.choose(peer.engine.copy(), decision)
        return last

    return decide


Cheat = Callable[[type[JoinTable]], type[JoinTable]]


def play(seed: int, kind: str = "tiny", faults: frozenset[str] | set[str] = frozenset(), *,
         seats: int = 3, watchers: int = 1, cheat: Cheat | None = None, rates: Rates | None = None,
         save_root: Path | None = None, quick: bool = False) -> Table:
    """Play one table of ``seats`` (the host and ``seats - 1`` joiners, each a bot)
    and ``watchers`` spectators through ``faults``, everything drawn from ``seed``.
    ``cheat`` (a maker of a joiner's table, a subclass of JoinTable) makes seat 2's joiner
    cheat (a test's catalogue).

    With ``quick`` the table computes in the simulator's group (``group.SimulatedGroup``:
    the curve's algebra with none of its hardness, every proof made and checked as on the
    curve, about half the table's time saved), for sweeps of many tables.  Its files then
    read only inside the simulator, and a seed plays a game of its own: the points' bytes
    order a few things (a quick seed replays with ``--quick``)."""
    faults = frozenset(faults)
    unknown = faults - set(FAULTS)
    if unknown:
        raise ValueError(f"no such fault: {', '.join(sorted(unknown))} (known: {', '.join(FAULTS)})")
    table = Table(seed, kind, faults, seats=seats, cheat=getattr(cheat, "spec", ""), quick=quick)
    loop = VirtualLoop()
    rng = random.Random(seed)
    net = SimNet(loop, random.Random(rng.getrandbits(64)), faults, rates)
    with (tempfile.TemporaryDirectory(prefix="ankh-sim-", dir=_MEMORY) if save_root is None
          else _kept(save_root)) as root, _proofs_in_turn(), \
            (group.simulated() if quick else contextlib.nullcontext()):
        try:
            loop.run_until_complete(_run(table, net, rng, Path(root), seats, watchers, cheat))
        except Stalled as exc:
            table.problems.append(f"stalled: {exc}")
        finally:
            table.virtual_seconds = loop.time()
            table.counts.update(net.counts)
            _close(loop)
        if not table.problems:
            table.problems = check(table)
    return table


#: where a table's files go: memory where the system has it (a journal's fsync costs nothing there)
_MEMORY = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


@contextlib.contextmanager
def _proofs_in_turn() -> Iterator[None]:
    """Shuffle proofs checked in this thread, one shadow after the other: the
    simulator's nodes share one process, and a table per core (``--jobs``)
    keeps every core busy without the proof threads' hand-offs."""
    pool, deck._POOL = deck._POOL, _InTurn()  # type: ignore[assignment]
    try:
        yield
    finally:
        deck._POOL = pool


class _InTurn:
    def map(self, fn: Callable[..., Any], *iterables: Any) -> Iterator[Any]:
        return map(fn, *iterables)


class _kept:
    def __init__(self, path: Path) -> None:
        self.path = path

    def __enter__(self) -> Path:
        self.path.mkdir(parents=True, exist_ok=True)
        return self.path

    def __exit__(self, *exc: Any) -> None:
        return None


def _close(loop: asyncio.AbstractEventLoop) -> None:
    for _ in range(10):  # (a task cancelled may start another)
        tasks = [t for t in asyncio.all_tasks(loop) if not t.done()]
        if not tasks:
            break
        for t in tasks:
            t.cancel()
        with contextlib.suppress(Stalled):
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
    loop.close()


def _node_context(name: str, lives: dict[str, int], seed: bytes, loop: VirtualLoop, net: SimNet,
                  root: Path) -> contextvars.Context:
    """A node's context; each start of a node draws from its own stream, as a
    program started again draws fresh randomness from its operating system."""
    lives[name] = life = lives.get(name, 0) + 1
    ctx = contextvars.copy_context()
    ctx.run(_WHO.set, name)
    ctx.run(entropy.set_source, Deterministic(seed + name.encode() + b"/" + life.to_bytes(2, "big")), loop)
    ctx.run(transport.set_network, net)
    ctx.run(home.set_home, root / "home" / name)
    return ctx


async def _run(table: Table, net: SimNet, rng: random.Random, root: Path, seats: int, watchers: int,
               cheat: Cheat | None) -> None:
    loop = asyncio.get_running_loop()
    kind, faults = table.kind, table.faults
    seed_bytes = table.seed.to_bytes(8, "big", signed=True)

    lives: dict[str, int] = {}

    def context(name: str) -> contextvars.Context:
        return _node_context(name, lives, seed_bytes, loop, net, root)

    def exits(name: str, task: asyncio.Task) -> asyncio.Task:
        """When ``name``'s program returns, its process ends: what it left running stops, its links close."""
        def ended(_: asyncio.Task) -> None:
            loop.kill(name)
            net.crash(name)
        task.add_done_callback(ended)
        return task

    def spawn(name: str, make: Callable[[], Coroutine[Any, Any, Any]]) -> asyncio.Task:
        ctx = context(name)
        return exits(name, loop.create_task(ctx.run(make), context=ctx))

    names = ["host", *(f"seat{i}" for i in range(1, seats))]
    cheater = table.cheater = names[-1] if cheat is not None else None
    table.honest = {n for n in names if n != cheater}
    # which seat suffers a seat's faults (never the host: a host that leaves pauses the table)
    victim = names[1 + rng.randrange(seats - 1 - (cheater is not None))]
    still_from = rng.uniform(0.0, 2.0) if "still" in faults else None
    if still_from is not None:
        table.counts["still"] = 1
    def stale_answer() -> None:
        table.counts["stale"] = table.counts.get("stale", 0) + 1

    stale = stale_answer if "stale" in faults else None  # (every seat's screen may be behind)
    host_ctx = context("host")
    host: HostNode = host_ctx.run(lambda: HostNode(
        Identity.generate(), "host", seats=seats, bots=0, kind=kind, advertise=False,
        decide=bot_decide(kind, random.Random(rng.getrandbits(64)), stale=stale), report=lambda e: None,
        save_root=root / "host", bind=net.address_of("host")))
    host.auto_agree = True
    port = await loop.create_task(host.open(), context=host_ctx)
    tasks: dict[str, asyncio.Task] = {"host": exits("host", loop.create_task(host.run(), context=host_ctx))}
    joiners: dict[str, JoinNode] = {}
    changed = asyncio.Event()  # a joiner carried out an effect, or a program ended (what ``_kill`` waits on)

    async def join(name: str) -> Any:
        core = cheat(JoinTable) if name == cheater and cheat is not None else JoinTable
        quiet = (lambda: loop.time() >= still_from) if name == victim and still_from is not None else (lambda: False)
        identity, decide = Identity.generate(), bot_decide(kind, random.Random(rng.getrandbits(64)), quiet, stale=stale)
        while True:
            node = _Telling(identity, name, decide=decide, report=lambda e: None, save_root=root / name, core=core)
            node.auto_agree, node.changed = True, changed
            joiners[name] = node
            try:
                return await node.run(host.bind, port)
            except transport.ConnectionClosed:
                if node.start is not None:
                    raise
            await asyncio.sleep(1.0)  # the table could not be reached: the person tries again

    watching: dict[str, WatchNode] = {}

    async def watch(name: str) -> Any:
        identity = Identity.generate()
        while True:
            w = watching[name] = WatchNode(identity, report=lambda e: None)
            try:
                result = await w.run(host.bind, port)
            except transport.ConnectionClosed:
                if w.spectator is not None:
                    raise
            else:  # (its only link dropped before the table started: it says the table closed)
                if w.spectator is not None:
                    return result
            if tasks["host"].done():
                return None  # the table ended before this spectator got in: it saw nothing to judge
            await asyncio.sleep(1.0)  # as for a seat

    for name in names[1:]:
        tasks[name] = spawn(name, lambda name=name: join(name))
    for i in range(watchers):
        tasks[f"watch{i}"] = spawn(f"watch{i}", lambda name=f"watch{i}": watch(name))
    if "partition" in faults:
        for _ in range(1 + rng.randrange(2)):
            net.cut_off(rng.choice(names), rng.uniform(0.0, 2.5), rng.uniform(0.5, 12.0))
            net.count("partition")
    chores: list[asyncio.Task] = []
    if "kill" in faults or "gone" in faults:
        tasks[victim].add_done_callback(lambda _: changed.set())
        chores.append(loop.create_task(_kill(table, loop, net, rng, victim, joiners, tasks, kind, context, exits,
                                             "kill" in faults, changed)))
    while (late := {t for t in [*tasks.values(), *chores] if not t.done()}) and loop.time() < VIRTUAL_LIMIT:
        await asyncio.wait(late, timeout=VIRTUAL_LIMIT - loop.time(), return_when=asyncio.FIRST_COMPLETED)
    for name, task in tasks.items():
        if task in late:
            table.problems.append(f"{name} had not ended after {VIRTUAL_LIMIT:g} virtual seconds")
            task.cancel()
        else:
            exc = task.exception()
            table.results[name] = exc if exc is not None else task.result()
    at = {address: node for node, address in net.addresses.items()}
    for name, w in watching.items():
        if w.core.address is not None:
            table.through[name] = at.get(w.core.address[0], "?")
    table.seat_of = {"host": 0, **{name: node.core.seat for name, node in joiners.items() if node.core.seat is not None}}
    cheating = joiners.get(cheater) if cheater is not None else None
    table.cheated = cheating is not None and bool(getattr(cheating.core, "cheated", False))
    table.apart = any(node.core.apart is not None or node.core.kept_apart for node in joiners.values())
    if host.save is not None:
        out = host.save.path / "game.ankh"
        table.transcript = out.read_bytes() if out.exists() else None


async def _kill(table: Table, loop: VirtualLoop, net: SimNet, rng: random.Random, victim: str,
                joiners: dict[str, JoinNode], tasks: dict[str, asyncio.Task], kind: str,
                context: Callable[[str], contextvars.Context], exits: Callable[[str, asyncio.Task], asyncio.Task],
                back: bool, changed: asyncio.Event) -> None:
    """Kill ``victim``'s process once it journaled a number of steps drawn from the
    seed (its tasks stop, the system closes its links, as with ``kill -9``); with ``back``, start it again
    from its save a little later.  It looks again each time ``changed`` is set: the victim
    carried out an effect (its journal, its save) or its program ended."""
    steps = rng.randrange(0, 40)
    task = tasks[victim]
    # (a seat gone for good goes once the game started: before, the table would wait for a player to come)
    while (node := joiners.get(victim)) is None or node.saved_steps < steps or (node.save is None and not back):
        if task.done():
            return
        changed.clear()
        await changed.wait()
    await asyncio.gather(*loop.kill(victim), return_exceptions=True)
    net.crash(victim)
    save = node.save.path if node.save is not None else None
    if save is not None:
        node.save.close()
    table.counts["kill" if back else "gone"] = 1
    if not back:
        table.honest.discard(victim)  # a seat gone for good is not there to end with the others
        tasks.pop(victim)
        return
    await asyncio.sleep(rng.uniform(0.5, 20.0))
    ctx = context(victim)
    decide = bot_decide(kind, random.Random(rng.getrandbits(64)))
    if save is None:  # killed in the lobby: it comes back with the same command
        def again() -> JoinNode:
            node_again = JoinNode(node.identity, victim, decide=decide, report=lambda e: None,
                                  save_root=node.save_root)  # (its nonce from the seed, as its first start's)
            node_again.auto_agree = True
            return node_again

        coro = _until_in(again, node.address, first=ctx.run(again))
    else:
        coro = JoinNode.resume(node.identity, SaveDir(save), decide=decide, report=lambda e: None, auto_agree=True)
    tasks[victim] = exits(victim, loop.create_task(coro, context=ctx))


async def _until_in(make: Callable[[], JoinNode], address: tuple[str, int], first: JoinNode | None = None) -> Any:
    """A joiner's program (``first``, else one ``make`` makes) that could not reach the table
    before it began (a partition, a cut handshake) ends with that; the person runs it again
    (``make``) a second later, as many times as it takes (the host waits in its lobby for that
    player, as long as it takes)."""
    node = first if first is not None else make()
    while True:
        try:
            return await node.run(*address)
        except transport.ConnectionClosed:
            if node.start is not None:
                raise
        await asyncio.sleep(1.0)
        node = make()


class _Telling(JoinNode):
    """A joiner that sets ``changed`` after each effect it carries out (the simulator waits on that, not a clock)."""

    changed: asyncio.Event | None = None

    def _carry_out(self, effect: Any) -> None:
        try:
            super()._carry_out(effect)
        finally:
            if self.changed is not None:
                self.changed.set()


# -- a scripted table ----------------------------------------------------------------------------

class Scene:
    """One table a test plays step by step, on the virtual clock and the
    in-memory network: it opens the host, seats joiners and spectators (each
    played by the game's random bot unless told otherwise), waits for what a
    node is told (``until``), and kills, restarts or makes a node leave, cuts,
    darkens or holds its links, at the point it chooses.  Every node's events
    are kept, in order, in ``told``.

    ``run(script)`` plays ``script(scene)`` (a coroutine function) to its end
    and returns what it returns; nothing waits in real time.
    """

    def __init__(self, seed: int, root: Path, kind: str = "tiny", faults: frozenset[str] | set[str] = frozenset(),
                 rates: Rates | None = None, bot: str = "random") -> None:
        self.seed, self.root, self.kind, self.bot_kind = seed, Path(root), kind, bot
        self.loop = VirtualLoop()
        self.rng = random.Random(seed)
        self.net = SimNet(self.loop, random.Random(self.rng.getrandbits(64)), frozenset(faults), rates)
        self.nodes: dict[str, Any] = {}         # name -> its HostNode, JoinNode or WatchNode (the latest start)
        self.tasks: dict[str, asyncio.Task] = {}  # name -> its program (what ``ankh host/join/watch`` runs)
        self.told: dict[str, list[Any]] = {}    # name -> every event it reported, across restarts
        self.homes: dict[str, Path] = {}        # name -> its home, where not ``root/home/NAME`` (a test's fixture)
        self.also: dict[str, Callable[[Any], None]] = {}  # name -> told each of its events too (a trace)
        self._contexts: dict[str, contextvars.Context] = {}
        self._lives: dict[str, int] = {}
        self._news: asyncio.Event | None = None

    # -- running ----------------------------------------------------------------------------------

    def run(self, script: Callable[[Scene], Coroutine[Any, Any, Any]]) -> Any:
        try:
            return self.loop.run_until_complete(self._script(script))
        finally:
            _close(self.loop)

    async def _script(self, script: Callable[[Scene], Coroutine[Any, Any, Any]]) -> Any:
        self._news = asyncio.Event()
        return await script(self)

    def _context(self, name: str) -> contextvars.Context:
        ctx = _node_context(name, self._lives, self.seed.to_bytes(8, "big", signed=True), self.loop, self.net,
                            self.root)
        if name in self.homes:
            ctx.run(home.set_home, self.homes[name])
        self._contexts[name] = ctx
        return ctx

    def _report(self, name: str) -> Callable[[Any], None]:
        told = self.told.setdefault(name, [])

        def report(event: Any) -> None:
            told.append(event)
            if name in self.also:
                self.also[name](event)
            if self._news is not None:
                self._news.set()
        return report

    def _spawn(self, name: str, ctx: contextvars.Context, coro: Coroutine[Any, Any, Any]) -> asyncio.Task:
        task = self.loop.create_task(coro, context=ctx)

        def ended(_: asyncio.Task) -> None:  # its process ends: what it left running stops, its links close
            if self.tasks.get(name) is task:
                self.loop.kill(name)
                self.net.crash(name)
            if self._news is not None:
                self._news.set()
        task.add_done_callback(ended)
        self.tasks[name] = task
        return task

    def bot(self, still_after: int | None = None) -> Callable[..., Coroutine[Any, Any, Any]]:
        """A seat's bot (its own stream from the seed); with ``still_after``, it
        makes that many moves and then never moves again, its link up."""
        moves = [0]
        decide = bot_decide(self.kind, random.Random(self.rng.getrandbits(64)),
                            lambda: still_after is not None and moves[0] >= still_after, self.bot_kind)

        async def counted(peer, decision):
            choice = await decide(peer, decision)
            moves[0] += 1
            return choice
        return counted

    def address(self, name: str) -> str:
        return self.net.address_of(name)

    # -- the nodes --------------------------------------------------------------------------------

    async def host(self, name: str = "host", *, seats: int = 3, bots: int = 0, decide: Any = None,
                   auto_agree: bool = True, cls: type[HostNode] = HostNode, **options: Any) -> HostNode:
        """Open the table (``options``: HostNode's, e.g. ``gone_after``, ``move_clock``; ``cls``: a test's)."""
        ctx = self._context(name)
        node: HostNode = ctx.run(lambda: cls(
            Identity.generate(), name, seats=seats, bots=bots, kind=self.kind, advertise=False,
            decide=decide or self.bot(), report=self._report(name), save_root=self.root / name,
            bind=self.address(name), **options))
        node.auto_agree = auto_agree
        self.nodes[name] = node
        await self.loop.create_task(node.open(), context=ctx)
        self._spawn(name, ctx, node.run())
        return node

    def join(self, name: str, at: tuple[str, int] | None = None, *, decide: Any = None, auto_agree: bool = True,
             core: type[JoinTable] = JoinTable, identity: Identity | None = None, **attributes: Any) -> None:
        """A joiner (its table ``core``, a cheat's) at the host's table (or at ``at``), with
        ``attributes`` set (``abandon_after``); it tries again a second later
        when the table cannot be reached before the game starts.  ``identity``: a
        person's own (the same ``ankh join`` run again), else a new one."""
        host = self._host()
        address = at or (host.bind, host.port)
        ctx = self._context(name)
        identity = identity or ctx.run(Identity.generate)
        decide = decide or self.bot()

        def make() -> JoinNode:
            node = JoinNode(identity, name, decide=decide, report=self._report(name), save_root=self.root / name,
                            core=core)
            node.auto_agree = auto_agree
            for key, value in attributes.items():
                setattr(node, key, value)
            self.nodes[name] = node
            return node
        self._spawn(name, ctx, ctx.run(_until_in, make, address))

    def watch(self, name: str, at: tuple[str, int] | None = None) -> None:
        """A spectator, through the host's watch point (or the one at ``at``)."""
        host = self._host()
        address = at or (host.bind, host.port)
        ctx = self._context(name)
        identity = ctx.run(Identity.generate)
        node = WatchNode(identity, report=self._report(name))
        self.nodes[name] = node
        self._spawn(name, ctx, ctx.run(lambda: node.run(*address)))

    def start(self, name: str, program: Callable[[], Coroutine[Any, Any, Any]]) -> asyncio.Task:
        """Any ``program`` as node ``name``'s process (its address, randomness and home its own)."""
        ctx = self._context(name)
        return self._spawn(name, ctx, ctx.run(program))

    def _host(self) -> HostNode:
        return next(n for n in self.nodes.values() if isinstance(n, HostNode))

    async def kill(self, name: str) -> Path | None:
        """``kill -9`` of ``name``'s process: its tasks stop, the system closes its
        links; returns its save's folder (None: it had none yet)."""
        await asyncio.gather(*self.loop.kill(name), return_exceptions=True)
        self.net.crash(name)
        node = self.nodes[name]
        save = getattr(node, "save", None)
        if save is None:
            return None
        save.close()
        return save.path

    async def resume(self, name: str, save: Path, *, decide: Any = None, auto_agree: bool = True,
                     bind: str | None = None) -> Any:
        """``name`` starts again from its save (``ankh host/join --load``), with the
        same identity (one it never ran with: the identity in its home)."""
        ctx = self._context(name)
        identity = self.nodes[name].identity if name in self.nodes else ctx.run(home.load_identity).identity
        decide = decide or self.bot()
        report = self._report(name)
        if SaveDir(save).load()[1].get("role") == "host":
            node = await self.loop.create_task(
                HostNode.resume(identity, SaveDir(save), decide=decide, report=report,
                                bind=bind or self.address(name)), context=ctx)
            node.auto_agree = auto_agree
            self.nodes[name] = node
            await self.loop.create_task(node.open(), context=ctx)
            return self._spawn(name, ctx, node.run())

        def started(node: JoinNode) -> None:
            self.nodes[name] = node
        return self._spawn(name, ctx, ctx.run(lambda: JoinNode.resume(
            identity, SaveDir(save), decide=decide, report=report, started=started, auto_agree=auto_agree)))

    def do(self, name: str, action: Callable[[], Any]) -> Any:
        """``action()`` as ``name``'s own code (what it starts is its own): a person
        at that seat leaving (``node.leave``), getting ready, chatting."""
        return self._contexts[name].run(action)

    # -- the wire ---------------------------------------------------------------------------------

    def _links(self, a: str, b: str) -> list[_End]:
        """The open ends ``a`` writes into towards ``b``."""
        return [e for e in self.net.ends if e.owner == a and e.peer is not None and e.peer.owner == b
                and not e.closing]

    def cut(self, a: str, b: str) -> None:
        """The cable between ``a`` and ``b`` is pulled: every link between them
        ends at once on both ends; what was under way is lost."""
        for end in self._links(a, b) + self._links(b, a):
            end.reset()

    def darken(self, a: str, b: str, dark: bool = True) -> None:
        """From now on what ``a`` writes to ``b`` is lost, on every link, and
        nothing closes (the network goes dark that way); ``dark=False``: it carries again."""
        (self.net.dark.add if dark else self.net.dark.discard)((a, b))

    def hold(self, a: str, b: str, after: int) -> None:
        """On links between ``a`` and ``b`` made from now on, what ``a`` writes after its
        first ``after`` chunks waits (on the wire) until :meth:`release`."""
        self.net.holding[(a, b)] = after

    def release(self, a: str, b: str) -> int:
        """What waits from ``a`` to ``b`` goes on, in order; how many chunks waited."""
        self.net.holding.pop((a, b), None)
        waited = 0
        for end in [e for e in self.net.ends if e.owner == a and e.peer is not None and e.peer.owner == b]:
            end.hold_after, waiting, end.waiting = None, end.waiting, []
            waited += len(waiting)
            for data in waiting:
                end.send(data)
        return waited

    def inject(self, a: str, b: str, data: bytes) -> None:
        """``data`` written into every link from ``a`` to ``b`` by someone on the wire."""
        for end in self._links(a, b):
            end.send(data)

    # -- waiting ----------------------------------------------------------------------------------

    async def until(self, name: str, what: Callable[[Any], bool], within: float = VIRTUAL_LIMIT) -> Any:
        """The first event ``name`` was told (already, or from now on) for which
        ``what`` holds; an AssertionError when its program ends first, or after
        ``within`` virtual seconds."""
        assert self._news is not None
        deadline = self.loop.time() + within
        seen = 0
        while True:
            told = self.told.get(name, [])
            for event in told[seen:]:
                if what(event):
                    return event
            seen = len(told)
            task = self.tasks.get(name)
            if task is not None and task.done():
                raise AssertionError(f"{name} ended without being told that; last: {told[-6:]}")
            if self.loop.time() >= deadline:
                raise AssertionError(f"{name} was not told that within {within:g} virtual s; last: {told[-6:]}")
            self._news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), deadline - self.loop.time())

    async def when(self, condition: Callable[[], bool], within: float = VIRTUAL_LIMIT) -> None:
        """Once ``condition()`` holds of the nodes' state (looked at each time the
        loop ran what was ready, before its clock moves on); an AssertionError
        after ``within`` virtual seconds."""
        if condition():
            return
        held = self.loop.create_future()
        self.loop.waiting_on.append((condition, held))
        try:
            await asyncio.wait_for(held, within)
        except TimeoutError:
            raise AssertionError(f"that did not come to hold within {within:g} virtual s") from None

    async def results(self, *names: str) -> list[Any]:
        """How the programs of ``names`` ended (each its Result), once they all have."""
        return [await self.tasks[name] for name in names]


# -- what must hold after every table -------------------------------------------------------------

def _culprit(text: str) -> str:
    """An "aborted: … broke the rules: why" result as the seat it names (the why may differ)."""
    head, sep, _ = str(text).partition(" broke the rules: ")
    return head + sep if head.startswith("aborted: ") and sep else text


def check(table: Table) -> list[str]:
    """What went wrong at this table (nothing: an empty list)."""
    problems: list[str] = []
    texts: dict[str, str] = {}
    verified = functools.lru_cache(maxsize=1)(verify_transcript)  # (the transcript is verified once)
    verdictless = True  # no seat finished the game, ended it by votes or named a cheat
    # A spectator the cheat's own watch point served last followed the cheat's own log, in which
    # the frame it signed otherwise for the host is not: past that step it names the cheat for
    # signing two frames under one number (``GamePeer.judge``), but where its log stands before the
    # cheat's frame reached it, it may say only that the table ended early, blaming nobody honest.
    served: dict[str, str] = {}  # results compared with nobody's, checked only to blame no one honest
    # A seat the votes that ended the table name as gone is not told how, should it come back
    # (it hears only that the table ended: ``HostTable._tell_the_end``), nor waited for: its
    # result is its own partial view (that the table ended, or that the host did not come
    # back), compared with nobody's, and only checked to blame no one honest.
    host = table.results.get("host")
    voted_out = set(host.ending.stop.gone) if isinstance(host, Result) and host.ending is not None else set()
    for name, result in table.results.items():
        if result is None:  # a spectator that never got in before the table closed (``_run``)
            continue
        if not isinstance(result, BaseException) and (table.seat_of.get(name) in voted_out or (
                name.startswith("watch") and table.seat_of.get(table.through.get(name, "")) in voted_out)):
            served[name] = result.text  # (and a spectator that watched through it last, its view)
            continue
        # A result that says only where its own log stood (``Result.partial``: whom the game waited
        # for, naming nobody) where the verdict was not its to read: a spectator reads no forfeit
        # (a watch point can keep back the disclosures), and a cheat the host alone saw (a log
        # hash that is not the hash of the log it sent) proves nothing elsewhere.  Where the host
        # alone refused a disclosure for its log hash, a seat names the forfeit its own wait finds.
        if isinstance(host, Result) and isinstance(result, Result) and (result.partial or result.forfeit) and (
                host.alone or (host.forfeit and name.startswith("watch"))):
            served[name] = result.text
            continue
        # The host names a forfeit; a seat whose audit waited for exactly those seats, none of
        # them proved there on its direct link (a seat killed for good there, its link silent),
        # says whom the game waited for: the same ending, worded from what that seat saw.
        if isinstance(host, Result) and isinstance(result, Result) and host.forfeit and not host.alone \
                and result.partial and result.audit_waited and set(result.audit_waited) == set(host.forfeit):
            served[name] = result.text
            continue
        if isinstance(result, BaseException):
            problems.append(f"{name} raised {type(result).__name__}: {result}")
        elif (table.cheated and table.through.get(name) == table.cheater and not result.finished
              and f"({table.cheater})" not in result.text):
            served[name] = result.text
        elif name in table.honest or name.startswith("watch"):
            texts[name] = result.text
            verdictless = verdictless and not result.finished and result.ending is None \
                and not str(result.text).startswith("aborted")
    # A paused table has no result yet: each says so in its own words (the host left, or its seats did).
    paused = all(str(t).startswith("paused: ") for t in texts.values())
    # A cheat's altered frame lost with a link never reached anyone (what it sent again was honest):
    # a table that every honest seat finished fair, or ended on the seats' votes (the frame may
    # have been lost on the way to a seat that then left), with one result everywhere and a
    # transcript that verifies as that (the host's log holds every frame it took: an altered one
    # in it would be a violation), saw no cheat.  A seat the votes name as gone is not asked: its
    # result is its own partial view (seed 70381: back after the end, it found the host closed).
    honest = [r for n, r in table.results.items()
              if n in table.honest and table.seat_of.get(n) not in voted_out]
    ended = "fair" if all(isinstance(r, Result) and r.finished and r.fair for r in honest) else \
        "abandoned" if all(isinstance(r, Result) and r.ending is not None for r in honest) else None
    cheated = table.cheated and not (
        texts and ended is not None and len(set(texts.values())) == 1 and table.transcript is not None
        and verified(table.transcript).status == ended)
    # Seats and spectators that name the cheat name it for the first of its frames each of them
    # saw (a spectator served by the cheat may see its own story first, and then two of them).
    texts = {n: _culprit(t) for n, t in texts.items()}
    if len(set(texts.values())) > 1 and not (table.apart and verdictless) and not paused:
        problems.append("the seats ended with different results: "
                        + "; ".join(f"{n}: {t!r}" for n, t in sorted(texts.items())))
    for name, text in {**texts, **served}.items():  # a result names a seat (beside its colour) only to blame it
        for honest in sorted(table.honest):
            if f"({honest})" in text:
                problems.append(f"{name} blames honest {honest}: {text!r}")
        if cheated and name not in served and f"({table.cheater})" not in text:
            problems.append(f"{name} does not name the cheat {table.cheater}: {text!r}")
    if host is not None and not isinstance(host, BaseException) and (host.finished or host.ending is not None):
        if table.transcript is None:
            problems.append("the host's table ended but it wrote no transcript")
        else:
            report = verified(table.transcript)
            expected = "abandoned" if host.ending is not None else "fair" if host.fair else "violation"
            if report.status != expected:
                problems.append(f"ankh verify says {report.status!r} of a table the seats ended {expected!r}")
    return problems


# -- the command ----------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ankh.net.io.sim", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tiny")
    parser.add_argument("--register", action="append", default=[], metavar="ID=MODULE")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--faults", default="none", help=f"comma-separated, of: {', '.join(FAULTS)}")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--cheat", metavar="MODULE:NAME", help="the last seat cheats as this callable makes it")
    parser.add_argument("--quick", action="store_true",
                        help="compute in the simulator's group (no hardness, quicker), not on Curve25519")
    args = parser.parse_args(argv)
    for spec in args.register:
        register_game(spec)
    faults = frozenset() if args.faults == "none" else frozenset(args.faults.split(","))
    table = play(args.seed, args.game, faults, seats=args.seats, cheat=cheat_named(args.cheat) if args.cheat else None,
                 quick=args.quick)
    for name, result in sorted(table.results.items()):
        print(f"{name}: {'never got in before the table closed' if result is None else getattr(result, 'text', result)}")
    print(f"virtual_seconds={table.virtual_seconds:.1f} faults={table.counts}")
    for p in table.problems:
        print(f"PROBLEM: {p}")
    return 1 if table.problems else 0


if __name__ == "__main__":
    sys.exit(main())
