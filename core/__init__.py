"""The rules of the games, as machines that never touch randomness, clocks or
I/O.

:mod:`ankh.core.game` is the contract every game keeps (decisions, the
table's requests, events, outcomes, the :class:`~ankh.core.game.Game` object);
:mod:`ankh.core.registry` holds one record a game (id, names, seats, networked
or not, its rules and screens packages, its build group), which the rules, the
screens, the ``ankh`` command and the build read.  Each game is a package
beside them, a peer of the others, importing none of them:
:mod:`ankh.core.morpork` (Discworld: Ankh-Morpork) and :mod:`ankh.core.guilds`
(the guild variant for Catan).
"""
