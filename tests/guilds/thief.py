"""A guild bot for tests that steals whenever it can: it takes a licence (a
house in the Thieves' Guild) at setup, sets the dice to 7 with parchments, moves the robber where there is someone to rob, and robs,
a hand holding hidden cards first (a later steal from a hand an earlier one
hid); while it holds hidden cards itself it ends its turn rather than spend
them (so that they stay hidden for the next steal).  Otherwise it plays as
the heuristic bot.  (Steals are rare between the
shipped bots: receipts protect a hand.)"""
from __future__ import annotations

from ankh.core.game import Decision, RulesError
from ankh.core.guilds.board import LICENCE_VERTICES
from .oldtrader import OldTraderBot


class ThiefBot(OldTraderBot):
    name = "thief"

    def choose(self, state, decision):
        opts = decision.options
        if opts[-1][0] == "win":
            return opts[-1]
        if ("fix", 7) in opts:
            return ("fix", 7)
        if decision.kind == "setup":
            licences = [o for o in opts if o[1] in LICENCE_VERTICES]
            if licences:
                return self._pick(licences)
        if state.hid[decision.seat] and ("end",) in opts:
            return ("end",)
        robs = [o for o in opts if o[0] == "rob"]
        if robs:
            return self._pick([o for o in robs if state.hid[o[1]]] or robs)
        spots = [o for o in opts if o[0] == "robber"]
        if len(spots) > 1:
            rated = [(self._robbable_after(state, o), o) for o in spots]
            best = max(r for r, _ in rated)
            if best:
                return self._pick([o for r, o in rated if r == best])
        return super().choose(state, decision)

    def _pick(self, options):
        return options[int(self.rng.random() * len(options))]

    @staticmethod
    def _robbable_after(state, option) -> int:
        """0: nobody to rob there; 1: someone; 2: someone holding hidden cards."""
        s = state.copy()
        s.narrate = False
        try:
            s.choose(option)
        except RulesError:
            return 0
        p = s.pending
        robs = [o[1] for o in p.options if o[0] == "rob"] if type(p) is Decision else []
        return 2 if any(s.hid[q] for q in robs) else 1 if robs else 0
