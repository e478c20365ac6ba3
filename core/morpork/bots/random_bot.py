"""The random bot: uniform among the legal options."""
from __future__ import annotations

from ..model import Decision


class RandomBot:
    name = "random"

    def __init__(self, rng):
        self.rng = rng

    def choose(self, state, decision: Decision) -> tuple:
        return self.rng.choice(decision.options)
