"""Bots for the guild variant: ``RandomBot`` (uniform among the options, but
never misses a win) and ``HeuristicBot`` (builds, buys guild points, uses the
robber, assassins, parchments and receipts, makes and answers trade offers:
its trading with players is :class:`.dealing.Trader`).
A bot is ``cls(rng).choose(state, decision)``; ``rng`` is a
``random.Random``-like generator the caller owns.  Bots read only what the
decision's seat may see (give them ``view_for(state, seat)`` at a networked
table)."""
from __future__ import annotations

from .board import (
    COST_DEV, COST_FOUNDATION, COST_HOUSE, COST_VILLA, DISTRICT_VERTICES, D_THIEVES,
    SHADES_SPOT, TOKENS, VERTEX_DISTRICTS, VERTEX_GUILDS, D_RESOURCE, D_KIND,
    RESOURCE, PALACE, UNIVERSITY, BEGGARS, ALCHEMISTS, THIEVES, )
from .state import HOUSE, VILLA
from .dealing import Trader
from .offers import TO_ALL, CounterMemory, OfferSpace, offer_option
from ..game import space_of

PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
KIND_WEIGHT = {RESOURCE: 1.0, UNIVERSITY: 0.55, PALACE: 0.5, BEGGARS: 0.6, ALCHEMISTS: 0.45,
               THIEVES: 0.0}


def _district_value(d: int) -> float:
    toks = [v for dd, v in TOKENS if dd == d]
    return KIND_WEIGHT.get(D_KIND[d], 0.0) * sum(PIPS[v] for v in toks)


DISTRICT_VALUE = tuple(_district_value(d) for d in range(11))
VERTEX_VALUE = tuple(sum(DISTRICT_VALUE[d] for d in ds) + (2.0 if D_THIEVES in ds else 0.0)
                     for ds in VERTEX_DISTRICTS)


class RandomBot:
    name = "random"

    def __init__(self, rng):
        self.rng = rng

    def choose(self, state, decision):
        opts = decision.options
        if opts[-1][0] == "win":        # a win is always the last option
            return opts[-1]
        return opts[int(self.rng.random() * len(opts))]


class HeuristicBot(Trader):
    name = "heuristic"
    space: OfferSpace | None = None

    #: Whether it trades with players (False: a bot that only uses the bank),
    #: and whether it makes offers itself (False: it only answers them).
    trades = True
    proposes = True

    def __init__(self, rng):
        self.rng = rng
        self.made: tuple[int, list[tuple]] = (-1, [])     # (turn, the offers made in it)
        self.counters = CounterMemory()

    # -- what the seat wants ----------------------------------------------------------------

    def target(self, s, p):
        """The cost this seat is saving for, by preference."""
        f = p * 3
        if s.sup[f + VILLA] and any(o == f + HOUSE for o in s.occ):
            return COST_VILLA
        if s.sup[f + HOUSE] and any(o == f for o in s.occ):
            return COST_HOUSE
        if s.sup[f] and s.sup[f + HOUSE]:
            return COST_FOUNDATION
        return COST_DEV

    def needs(self, s, p):
        h = s.hand(p)
        t = self.target(s, p)
        return [max(0, t[r] - h[r]) for r in range(5)]

    def surplus(self, s, p):
        h = s.hand(p)
        t = self.target(s, p)
        return [max(0, h[r] - t[r]) for r in range(5)]

    def leader(self, s, p):
        others = [q for q in range(s.players) if q != p]
        return max(others, key=lambda q: (s.vp(q), s.hand_size(q)))

    # -- choosing -----------------------------------------------------------------------------

    def choose(self, s, d):
        return self.settle(s, self.prefer(s, d))

    def settle(self, s, option):
        """The choice made of ``option``: a counter made before to the same
        offer this turn becomes a decline (:class:`CounterMemory`), and an
        offer is remembered, not to be made again this turn."""
        option = self.counters.settle(s, option)
        if option[0] == "offer":
            self.made_offers(s).append(option)
        return option

    def prefer(self, s, d):
        """The choice this bot prefers at ``d`` (a counter not yet checked
        against the ones it made: :meth:`choose` does)."""
        opts = d.options
        if len(opts) == 1 and space_of(d) is None:
            return opts[0]
        if opts[-1][0] == "win":
            return opts[-1]
        space = space_of(d)
        self.space = space if isinstance(space, OfferSpace) else None
        fn = getattr(self, "k_" + d.kind.replace("-", "_"), None)
        pick = fn(s, d.seat, opts) if fn else None
        return pick if pick is not None else opts[self.rng.randrange(len(opts))]

    def best(self, opts, score):
        return max(opts, key=lambda o: (score(o), -opts.index(o)))

    def k_setup(self, s, p, opts):
        mine = {g for v in s.buildings(p) for g in VERTEX_GUILDS[v]}

        def score(o):
            v = o[1]
            fresh = sum(1.5 for g in VERTEX_GUILDS[v] if g not in mine)
            return VERTEX_VALUE[v] + fresh + self.rng.random() * 0.5
        return self.best(opts, score)

    k_assassin_house = k_setup

    def k_start_card(self, s, p, opts):
        need = self.needs(s, p)
        return self.best(opts, lambda o: need[o[1]])

    def k_before_roll(self, s, p, opts):
        guards = [o for o in opts if o[0] == "guard"]
        if guards and s.robber != SHADES_SPOT and self._robber_hurts_me(s, p):
            return guards[0]
        return ("roll",)

    def _robber_hurts_me(self, s, p):
        if s.robber == SHADES_SPOT:
            return False
        d = TOKENS[s.robber][0]
        return any(s.occ[v] >= 0 and s.occ[v] // 3 == p and s.occ[v] % 3 for v in DISTRICT_VERTICES[d])

    def k_discard(self, s, p, opts):
        h = s.hand(p)
        t = self.target(s, p)
        return self.best(opts, lambda o: h[o[1]] - t[o[1]])

    def _spot_score(self, s, p, spot):
        if spot == SHADES_SPOT:
            return 0.0
        d, v = TOKENS[spot]
        score = 0.0
        lead = self.leader(s, p)
        for x in DISTRICT_VERTICES[d]:
            o = s.occ[x]
            if o >= 0 and o % 3:
                w = PIPS[v] * (o % 3 if D_RESOURCE[d] is not None else 1)
                score += -3 * w if o // 3 == p else w * (2 if o // 3 == lead else 1)
        return score

    def k_seven(self, s, p, opts):
        robs = [o for o in opts if o[0] == "robber"]
        ass = [o for o in opts if o[0] == "assassin"]
        if ass and s.sup[p * 3 + HOUSE] >= 2:
            need = self.needs(s, p)
            return min(ass, key=lambda o: need[o[1]] + need[o[2]])
        if robs:
            best = self.best(robs, lambda o: self._spot_score(s, p, o[1]))
            if self._spot_score(s, p, best[1]) > 0 or self._robber_hurts_me(s, p):
                return best
        return ("pass",) if ("pass",) in opts else robs[0]

    k_guard = k_seven

    def k_victim(self, s, p, opts):
        robs = [o for o in opts if o[0] == "rob"]
        return self.best(robs, lambda o: (s.vp(o[1]), s.hand_size(o[1]))) if robs else opts[0]

    def k_show(self, s, p, opts):
        mine = sum(1 for v in DISTRICT_VERTICES[4] if s.occ[v] >= 0 and s.occ[v] // 3 == p
                   and s.occ[v] % 3)
        need = self.needs(s, p)
        if mine:
            return self.best(opts, lambda o: need[o[1]])
        return self.best(opts, lambda o: -need[o[1]])

    def k_library(self, s, p, opts):
        sur = self.surplus(s, p)
        swaps = [o for o in opts if o[0] == "swap" and sur[o[1]]]
        return self.best(swaps, lambda o: sur[o[1]]) if swaps else ("keep",)

    def k_laboratory(self, s, p, opts):
        need = self.needs(s, p)
        return self.best(opts, lambda o: (need[o[1]], s.bank[o[1]]))

    def k_palace(self, s, p, opts):
        def score(o):
            g = o[1]
            mine = s.gp[p * 5 + g]
            pres = s.pres[g]
            if pres != p and not s.lock[g] and (pres < 0 and mine + 1 >= 3 or
                                                pres >= 0 and mine + 1 > s.gp[pres * 5 + g]):
                return 10
            return 5 - abs(3 - (mine + 1)) if mine < 3 else 1
        return self.best(opts, score)

    # -- phase C ---------------------------------------------------------------------------------

    def k_action(self, s, p, opts):
        by = {}
        for o in opts:
            by.setdefault(o[0], []).append(o)
        for verb in ("villa", "p-villa", "house", "p-house"):
            if verb in by:
                return self.best(by[verb], lambda o: VERTEX_VALUE[o[1]])
        if "found" in by and s.sup[p * 3 + HOUSE]:
            return self.best(by["found"], lambda o: VERTEX_VALUE[o[1]] + self.rng.random())
        offer = self.offer_first(s, p)
        if offer is not None:
            return offer
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
        bank = self.bank_trade(s, p, by, need, sur)
        if bank is not None:
            return bank
        trade = self.phase_c_trade(s, p, by, need, sur)
        if trade is not None:
            return trade
        if "refresh" in by and s.rcpt[p] == 0 and s.hand_size(p) >= 6:
            return self.best(by["refresh"], lambda o: sur[o[1]])
        if "guard" in by and s.gup[p] < 3 and self.rng.random() < 0.5:
            return by["guard"][0]
        return ("end",)

    # -- trades in phase C (with the players: .dealing) ------------------------------------

    def offer_first(self, s, p):
        """An offer to the players before anything else is bought, once
        nothing can be built (a card for a spare one costs less than the
        bank's four), or None."""
        space = self.space
        if space is None or not self.trades or not self.proposes:
            return None
        return self.propose(s, p, space)

    def phase_c_trade(self, s, p, by, need, sur):
        """A trade in phase C once nothing better is bought: down with the
        bank before a 7, or another offer to the players; None if none."""
        if "bank" in by and self.seven_risk(s, p):
            # trade down before a 7 rather than lose half the hand
            spare = [o for o in by["bank"] if need[o[2]] or sur[o[1]] >= s.rate(p, o[1])]
            if spare:
                return self.best(spare, lambda o: (need[o[2]], s.hand(p)[o[1]]))
        space = self.space
        if space is not None and self.trades and self.proposes:
            return self.propose(s, p, space)
        return None

    def bank_trade(self, s, p, by, need, sur):
        """A bank trade of spare cards for a card the next build lacks, or None."""
        if "bank" in by and sum(need):
            good = [o for o in by["bank"] if need[o[2]] and sur[o[1]] >= s.rate(p, o[1])]
            if good:
                return self.best(good, lambda o: sur[o[1]])
        return None

    def seven_risk(self, s, p):
        """Whether a 7 would cost this seat half its hand (no receipt protects it)."""
        return s.hand_size(p) > 7 and not s.rcpt[p]


class PlayoutBot(HeuristicBot):
    """The heuristic bot with quick offers, for a search's playouts (the
    thousands of moves a search plays ahead cannot each weigh every offer):
    once nothing else is bought, every missing card (three at most) for as
    many spare ones, then one missing card for one spare, then for two."""
    name = "playout"

    def offer_first(self, s, p):
        return None

    def offers(self, s, p, space):
        need = self.needs(s, p)
        if not sum(need) or s.offers >= 2 or all(self.feeds(s, q) for q in space.seats):
            return []
        r = max(range(5), key=lambda k: need[k])
        one = [0] * 6
        one[r] = 1
        tries = [(one, 1), (one, 2)]
        if 1 < sum(need) <= 3:
            tries.insert(0, (need + [0], sum(need)))
        out = []
        for want, n in tries:
            give = self.spare_cards(s, p, n, want)
            opt = offer_option(give, want, TO_ALL)
            if any(give) and opt not in out and self.trade_gain(s, p, want, give) > 0 and space.allows(opt):
                out.append(opt)
        return out

    def propose(self, s, p, space):
        offers = self.offers(s, p, space)
        return offers[min(s.offers, len(offers) - 1)] if offers else None

