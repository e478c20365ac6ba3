"""The guild variant's trades in a benchmark's games, counted from the moves
(``scripts/bench/bots`` and ``scripts/bench/search`` print them): accepted
trades between players, those with more than one kind on a side, trades
with the bank, and cards discarded on a 7."""
from __future__ import annotations


class TradeTally:
    def __init__(self) -> None:
        self.games = self.player = self.multi = self.bank = self.sevens = 0

    def move(self, s, opt: tuple) -> None:
        """Count ``opt``, about to be chosen in state ``s``."""
        verb = opt[0]
        if verb == "deal":
            for q, gives, wants in s.trade[4]:
                if q == opt[1]:
                    self.player += 1
                    self.multi += sum(1 for n in gives if n) > 1 or sum(1 for n in wants if n) > 1
        elif verb == "bank":
            self.bank += 1
        elif verb == "discard":
            self.sevens += 1

    def figures(self) -> str:
        n = max(1, self.games)
        return (f"player_trades_per_game={self.player / n:.2f} "
                f"multi_kind_trades_per_game={self.multi / n:.2f} "
                f"bank_trades_per_game={self.bank / n:.2f} "
                f"cards_lost_to_sevens_per_game={self.sevens / n:.2f}")
