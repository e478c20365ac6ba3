"""The rules of Discworld: Ankh-Morpork, as a machine that never touches
randomness, clocks or I/O.

Work still to do lives on ``State.stack`` as tuples ``(task, args)``; a task
may change the state, push further tasks, or stop the machine by asking a
seat (``State.ask``) or the table (``State.request``); the answer is handed to
the continuation named there (the engine every game runs on,
:mod:`ankh.core.kernel`).  Whether something is asked at all depends
only on public information, so every engine in a networked game -- each
knowing different cards -- asks the same questions in the same order.

The modules import one way, from the bottom up:

- ``catalog`` (the printed components as data), ``model`` (values the engine
  speaks in), ``state`` (the state and its queries), ``scoring`` (points,
  personalities' goals, the end of the game);
- ``board``: primitives -- minions placed, moved and removed, buildings,
  trouble, money, cards between piles and hands;
- ``windows``: interrupt windows and the removals and moves they guard;
- ``abilities`` (City Area cards), ``effects_common``, ``effects_hands`` and
  ``effects_board`` (card texts), ``events`` (random events);
- ``turn`` (the turn, its card symbols, and the tables of texts and events)
  and ``setup`` (a new game, scenarios) on top.

A regular install compiles the hot modules (``scripts/backend/ankh_build.py``
lists them) to C extensions with mypyc; the same source runs as plain Python
(the reference, and every editable install).  What that asks of the code: the
types annotated are the types stored (a compiled module checks them at run
time); a compiled class has no ``__slots__`` attribute (``state.FIELDS`` names
a state's attributes) and calls its own methods directly, so patching a method
on the class changes nothing for the compiled callers; what travels inside a
pickled state (requests, the outcome) is a named tuple, as a compiled frozen
dataclass would not unpickle.

Readings of ambiguous rules (RULES.md section 14) are named where they are
implemented, as ``A<n>``.
"""
