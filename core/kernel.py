"""The engine every game's rules run on: a state machine whose work still to
do is a stack of tasks, and which stops whenever something must be asked.

A *task* is a function called with the state and its arguments; it may change
the state, push further tasks (:meth:`Machine.push`), or stop the machine by
asking a seat (:meth:`Machine.ask`) or the table (:meth:`Machine.request`).
The answer is handed to the *continuation* named there, with its arguments:
``fn(state, answer, *args)``.  A continuation checks the answer before it
changes anything, so that one it refuses (a :class:`~.game.RulesError`)
leaves the state as it was, still waiting.

A game's state is a :class:`Machine` with the game's own fields beside the
engine's (:data:`FIELDS`); the game says which answers it already knows
(:meth:`Machine.known_answer`) and how a table's answer is checked
(:meth:`Machine.checked_answer`).  Nothing here touches randomness, a clock or
I/O.  Compiled with mypyc with both games' rules (``scripts/backend/ankh_build.py``).
"""
from __future__ import annotations

from typing import Any, Callable, Final, Self

from .game import COLOURS, Decision, Event, IllegalAction, MalformedAction, RulesError, fast_new

# Work to do: a function called with the state (and, for a continuation, the
# answer) and these arguments.
Task = tuple[Callable[..., None], tuple[Any, ...]]

#: The engine's attributes, with which every game's ``FIELDS`` begin (a
#: compiled class has no ``__slots__`` attribute; code that walks a state's
#: fields uses the game's ``FIELDS``).
FIELDS: Final = ("stack", "pending", "resume", "outcome", "events", "narrate", "trust", "auto")


class Machine:
    __slots__ = FIELDS
    stack: list[Task]       # the work still to do, the next task last
    pending: Any            # the Decision or request waited for, or None
    resume: Any             # its continuation, a Task, or None
    outcome: Any            # how the game ended (the game's Outcome), or None
    events: list[Event]     # what the last step told
    narrate: bool           # whether events are told
    trust: bool             # whether answers are taken without checks
    auto: bool              # whether forced decisions and known answers are taken at once

    def start_machine(self) -> None:
        """No work yet, nothing asked, and every answer checked (a new game)."""
        self.stack = []
        self.pending = None
        self.resume = None
        self.outcome = None
        self.events = []
        self.narrate = True
        self.trust = False
        self.auto = False

    def copy_machine(self, s: Machine) -> None:
        """Give ``s`` (a copy in the making) this engine's work and modes."""
        s.stack = self.stack[:]
        s.pending = self.pending
        s.resume = self.resume
        s.outcome = self.outcome
        s.events = []
        s.narrate = self.narrate
        s.trust = self.trust
        s.auto = self.auto

    def simulate(self) -> Self:
        """Switch this state (and its copies) to simulation, for bots' playouts
        and benchmarks: no events are told, answers are trusted without
        checks, and a decision with one option, or a request whose answer this
        state already knows, is answered at once instead of being asked.  The
        game played is the same; a networked game or an interface never
        simulates (every decision, even a forced one, is a step the peers
        agree on).  Returns the state."""
        self.narrate = False
        self.trust = True
        self.auto = True
        return self

    # --- what a game says -------------------------------------------------------------

    def known_answer(self, req: Any) -> Any:
        """The answer to request ``req`` that this engine already knows (cards
        whose identities it holds), else None: asked only in simulation."""
        return None

    def checked_answer(self, req: Any, answer: Any) -> Any:
        """The table's ``answer`` to ``req``, normalised, once checked; raises
        a :class:`~.game.RulesError` if it cannot be one."""
        raise MalformedAction(f"unknown request {req!r}")

    # --- the engine's interface ---------------------------------------------------------

    def choose(self, option: tuple) -> list[Event]:
        """Answer the pending :class:`~.game.Decision` with one of its options
        (or a move its space allows)."""
        if self.trust:
            return self._resume(option)
        p = self.pending
        if type(p) is not Decision:
            raise IllegalAction(f"no decision is pending (waiting for {p!r})")
        if not isinstance(option, tuple) or not option:
            raise MalformedAction(f"an option is a tuple (verb, *args), not {option!r}")
        if option not in p.options and not (p.space is not None and p.space.allows(option)):
            raise IllegalAction(f"{option!r} is not among the options of {p.kind} for "
                                f"{COLOURS[p.seat]}")
        return self._resume(option)

    def fulfil(self, answer: Any) -> list[Event]:
        """Answer the pending table request."""
        if self.trust:
            return self._resume(answer)
        p = self.pending
        if p is None or type(p) is Decision:
            raise IllegalAction(f"no request is pending (waiting for {p!r})")
        return self._resume(self.checked_answer(p, answer))

    def _resume(self, answer: Any) -> list[Event]:
        pending, resume = self.pending, self.resume
        fn, args = resume
        self.pending = self.resume = None
        self.events = []
        try:
            self._continue(fn, answer, args)
        except RulesError:
            # Continuations check before they change anything: nothing was applied.
            self.pending, self.resume = pending, resume
            raise
        self.run()
        return self.events

    def run(self) -> None:
        """Run queued work until something must be asked or the game is over.
        In simulation a decision with a single option, or a request whose
        answer is known, is answered here."""
        stack = self.stack
        while True:
            while self.pending is None:
                if not stack or self.outcome is not None:
                    return
                fn, args = stack.pop()
                # (the common arities spelled out: a compiled core then calls
                # without packing the arguments into a new tuple)
                n = len(args)
                if n == 1:
                    fn(self, args[0])
                elif n == 2:
                    fn(self, args[0], args[1])
                elif n == 0:
                    fn(self)
                elif n == 3:
                    fn(self, args[0], args[1], args[2])
                else:
                    fn(self, *args)
            if not self.auto:
                return
            pending = self.pending
            answer: Any  # an option (a tuple) or a table's answer (ids, dice ...)
            if type(pending) is Decision:
                if len(pending[2]) != 1:
                    return
                answer = pending[2][0]
            else:
                answer = self.known_answer(pending)
                if answer is None:
                    return
            fn, args = self.resume
            self.pending = self.resume = None
            self._continue(fn, answer, args)

    def _continue(self, fn: Callable[..., None], answer: Any, args: tuple) -> None:
        """Hand ``answer`` to the continuation ``fn`` with its arguments (the
        common arities spelled out, as in :meth:`run`)."""
        n = len(args)
        if n == 1:
            fn(self, answer, args[0])
        elif n == 0:
            fn(self, answer)
        elif n == 2:
            fn(self, answer, args[0], args[1])
        else:
            fn(self, answer, *args)

    # --- what the rules call ------------------------------------------------------------

    def ask(self, seat: int, kind: str, options: Any, prompt: str, fn: Callable[..., None],
            *args: Any) -> None:
        """Stop to ask ``seat`` to choose among ``options``; ``fn`` continues."""
        self.pending = fast_new(Decision, (seat, kind, tuple(options), prompt, None))
        self.resume = (fn, args)

    def ask_space(self, space: Any, seat: int, kind: str, options: Any, prompt: str,
                  fn: Callable[..., None], *args: Any) -> None:
        """:meth:`ask`, where moves beyond ``options`` are allowed: ``space``
        (an object with ``allows(option)``) says which."""
        self.pending = fast_new(Decision, (seat, kind, tuple(options), prompt, space))
        self.resume = (fn, args)

    def request(self, req: Any, fn: Callable[..., None], *args: Any) -> None:
        """Stop to ask the table for ``req``; ``fn`` continues."""
        self.pending = req
        self.resume = (fn, args)

    def push(self, fn: Callable[..., None], *args: Any) -> None:
        """Queue ``fn(state, *args)``, to run before the work queued earlier."""
        self.stack.append((fn, args))

    def log(self, kind: str, seat: int | None, text: str, **data: Any) -> None:
        """Tell a public event (nothing in simulation)."""
        if self.narrate:
            self.events.append(Event(kind, seat, text, data or None))

    def is_over(self) -> bool:
        return self.outcome is not None
