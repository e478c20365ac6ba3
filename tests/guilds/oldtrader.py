"""The guild variant's heuristic bot as it traded when an offer was one or
two cards of one kind for one or two of another: the networked games of the
tests were chosen with it (which seat robs whom, when), so they keep it.  It
makes the same moves in today's notation."""
from __future__ import annotations

from ankh.core.guilds.board import PARCHMENT
from ankh.core.guilds.bots import HeuristicBot
from ankh.core.guilds.offers import TO_ALL, offer_option
from ankh.core.guilds.trading import holdings


class OldTraderBot(HeuristicBot):
    name = "old-trader"

    def offer_first(self, s, p):
        return None             # it offered only once nothing else was bought

    def phase_c_trade(self, s, p, by, need, sur):
        if self.space is not None and sum(need) == 1 and sum(sur) >= 1 and s.offers == 0:
            return self.old_offer(s, p, self.space)
        return None

    def old_offer(self, s, p, space):
        """One card it has spare for one it lacks, to all (None: it had none to give)."""
        need = self.needs(s, p)
        sur = self.surplus(s, p)
        have = holdings(s, p)
        gives = [k for k in range(6) if have[k] >= 1 and (k == PARCHMENT or sur[k] >= 1)]
        if not gives:
            return None
        gk = max(gives, key=lambda k: (sur[k] if k != PARCHMENT else 0.5, -k))
        wants = [k for k in range(5) if k != gk and need[k]]
        wk = wants[0] if wants else (1 if gk == 0 else 0)
        give, want = [0] * 6, [0] * 6
        give[gk], want[wk] = 1, 1
        return offer_option(give, want, TO_ALL)

    def k_answer(self, s, q, opts):
        p, give, want = s.trade[0], s.trade[1], s.trade[2]
        if ("accept",) not in opts:
            return ("decline",)
        gk = next(k for k in range(6) if give[k])
        wk = next(k for k in range(6) if want[k])
        need = self.needs(s, q)
        sur = self.surplus(s, q)
        gets = gk != PARCHMENT and need[gk] > 0
        gives_spare = wk == PARCHMENT and s.parch[q] >= 4 or wk != PARCHMENT and sur[wk] >= want[wk]
        if gets and gives_spare and s.vp(p) < 10:
            return ("accept",)
        return ("decline",)

    def k_deal(self, s, p, opts):
        need = self.needs(s, p)
        for q, gives, _wants in s.trade[4]:
            k = next(k for k in range(6) if gives[k])
            if ("deal", q) in opts and (k == PARCHMENT or need[k]):
                return ("deal", q)
        return ("cancel",)
