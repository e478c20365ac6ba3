"""The Guilds of Ankh-Morpork, the guild variant for Catan, as a machine that
never touches randomness, clocks or I/O (docs/guilds.md says the rules in
words, with the readings R1-R40 of the spec).

Work still to do lives on ``State.stack``: a task is ``fn(s, *args)``, pushed
in reverse order of running (the stack is last in, first out); it may change
the state, push further tasks, or stop the machine by asking a seat
(``State.ask``) or the table (``State.request``), whose answer goes to the
continuation named there, ``fn(s, answer, *args)``, which checks before it
changes anything.  That engine is the one every game runs on
(:mod:`ankh.core.kernel`).

The rules' modules import one way, from the bottom up:

- ``board`` (the ring of districts and the vertex graph, computed once) and
  ``state`` (the state and its queries);
- ``pieces``: primitives -- pieces, resource cards, guild points and
  presidencies, hidden cards settled before a seat pays or shows, paying;
- ``districts`` (phase B: production and the special districts) and
  ``seven`` (phase B on a 7: discards, the robber and its steal, assassins);
- ``guards`` (development tokens, guards, winning) and ``trading`` (trades
  between players);
- ``turn`` (the turn, phase A, phase B's order, phase C) and ``rules`` (a new
  game and its setup) on top.

Around them: ``notation`` (options as text), ``record``, ``views``,
``invariants``, ``bots`` and ``search``, and ``game`` (the :class:`Game` the
platform drives).  A regular install compiles ``board``, ``state`` and the
rules' modules with mypyc (``scripts/backend/ankh_build.py``).
"""
