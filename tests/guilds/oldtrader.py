"""The guild variant's heuristic bot as it traded when an offer was one or
two cards of one kind for one or two of another: the networked games of the
tests were chosen with it (which seat robs whom, when), so they keep it.  It
makes the same moves in today's notation."""
from __future__ import annotations

from ankh.core.game import space_of
from ankh.core.guilds.board import COST_DEV, PARCHMENT
from ankh.core.guilds.bots import VERTEX_VALUE, HeuristicBot
from ankh.core.guilds.offers import TO_ALL, offer_option
from ankh.core.guilds.state import HOUSE
from ankh.core.guilds.trading import holdings


class OldTraderBot(HeuristicBot):
    name = "old-trader"

    def choose(self, s, d):
        self.decision = d
        return super().choose(s, d)

    def k_action(self, s, p, opts):
        by = {}
        for o in opts:
            by.setdefault(o[0], []).append(o)
        for verb in ("villa", "p-villa", "house", "p-house"):
            if verb in by:
                return self.best(by[verb], lambda o: VERTEX_VALUE[o[1]])
        if "found" in by and s.sup[p * 3 + HOUSE]:
            return self.best(by["found"], lambda o: VERTEX_VALUE[o[1]] + self.rng.random())
        if "promote" in by:
            return by["promote"][0]
        if "guard" in by and self._robber_hurts_me(s, p):
            return by["guard"][0]
        # guild points that win a presidency or a membership
        for o in by.get("gp", ()):
            g = o[1]
            mine = s.gp[p * 5 + g] + 1
            pres = s.pres[g]
            if (pres != p and not s.lock[g] and (pres < 0 and mine >= 3 or
                                                 pres >= 0 and mine > s.gp[pres * 5 + g])):
                return o
            if mine == 3:
                return o
        if "dev" in by and self.target(s, p) is COST_DEV:
            return ("dev",)
        if "p-card" in by and s.parch[p] >= 4:
            need = self.needs(s, p)
            return self.best(by["p-card"], lambda o: need[o[1]])
        need = self.needs(s, p)
        sur = self.surplus(s, p)
        if "bank" in by and sum(need):
            good = [o for o in by["bank"] if need[o[2]] and sur[o[1]] >= s.rate(p, o[1])]
            if good:
                return self.best(good, lambda o: sur[o[1]])
        space = space_of(self.decision)
        if space is not None and sum(need) == 1 and sum(sur) >= 1 and s.offers == 0:
            offer = self.old_offer(s, p, space)
            if offer is not None:
                return offer
        if "refresh" in by and s.rcpt[p] == 0 and s.hand_size(p) >= 6:
            return self.best(by["refresh"], lambda o: sur[o[1]])
        if "guard" in by and s.gup[p] < 3 and self.rng.random() < 0.5:
            return by["guard"][0]
        return ("end",)

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
