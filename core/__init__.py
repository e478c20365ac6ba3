"""The rules of the games, as machines that never touch randomness, clocks or
I/O.

:mod:`ankh.core.game` is the contract every game keeps (decisions, the
table's requests, events, outcomes, the :class:`~ankh.core.game.Game` object)
and the registry of games by id.  Each game is a package beside it, a peer
of the others, importing none of them: :mod:`ankh.core.morpork` (Discworld:
Ankh-Morpork).
"""
