"""The yardsticks of the guild bots' trading (``scripts/bench/bots --trading-vs``):
the heuristic bot that never trades with players, and the one that answers
offers but makes none."""
from __future__ import annotations

from .bots import HeuristicBot


class BankOnlyBot(HeuristicBot):
    """The heuristic bot that never trades with players (it makes no offer,
    declines every one, uses the bank alone): the yardstick for trading."""
    name = "bank-only"
    trades = False


class AnsweringBot(HeuristicBot):
    """The heuristic bot that makes no offer but answers offers as it does."""
    name = "answering"
    proposes = False
