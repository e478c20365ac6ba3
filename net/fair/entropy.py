"""Where the table's randomness comes from: the operating system's, always,
except in the simulator (:mod:`ankh.net.io.sim`), which draws it from its
seed so that a seed plays the same table again.

Only what decides a table comes from here: identities, seat secrets, table
ids and nonces.  The default is :func:`os.urandom`; a source is set for the
current context (an asyncio task and what it starts) by :func:`set_source`,
never for the whole process.
"""
from __future__ import annotations

import contextvars
import os
from collections.abc import Callable

Source = Callable[[int], bytes]

_SOURCE: contextvars.ContextVar[Source] = contextvars.ContextVar("ankh_entropy", default=os.urandom)


def random_bytes(n: int) -> bytes:
    """``n`` bytes of randomness from the current source (the operating system's)."""
    return _SOURCE.get()(n)


def set_source(source: Source, loop: object) -> None:
    """From now on in the current context, randomness comes from ``source``
    (for a context made for it: see :func:`contextvars.copy_context`).  Only
    for the simulator's event ``loop``: any other is refused, so that no
    program playing a real table runs on anything but its system's randomness."""
    if getattr(loop, "simulated", False) is not True:
        raise RuntimeError("a table's randomness comes from the operating system outside the simulator")
    _SOURCE.set(source)
