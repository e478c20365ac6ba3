"""How long the table waits for a seat gone, by a clock the caller reads (sans-I/O)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from ...core.game import COLOURS
from ..wire.errors import Words

ABANDON_AFTER = 600.0  # a seat gone this long while the game waits for it: the table may end the game
RETRY_EVERY = 1.0  # seconds between two tries (or rounds of tries) to link again


def late_seats(gone_since: Mapping[int, float], waiting: Iterable[int], now: float,
               after: float = ABANDON_AFTER) -> list[int]:
    """The seats the game waits for whose links have been down ``after`` seconds or more at ``now``."""
    waiting = set(waiting)
    return [s for s, t in gone_since.items() if now - t >= after and s in waiting]


def abandoned_words(late: Iterable[int], after: float = ABANDON_AFTER) -> Words:
    """The table's last word when it ends a game that waited too long for ``late``."""
    names = " and ".join(COLOURS[s] for s in late)
    return Words("abandoned: {names} did not come back within {secs:g} s", names=names, secs=after)
