"""The printed components, re-expressed as data (the rules reference is the
source; ``tests/core/test_catalog.py`` checks this package against it).

Areas are numbered 1..12 as on the board (the d12 picks area N); inside the
engine they are indexed 0..11.
"""
from __future__ import annotations

from .areas import AREAS
from .brown_cards import BROWN_CARDS
from .events import EVENTS
from .green_cards import GREEN_CARDS
from .personalities import PERSONALITIES

CARDS = GREEN_CARDS + BROWN_CARDS

__all__ = ["AREAS", "CARDS", "EVENTS", "PERSONALITIES"]
