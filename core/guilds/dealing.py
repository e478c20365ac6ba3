"""The guild heuristic bot's trading with players: what a trade is worth to
a seat, the offers it makes towards its next build, its answers, counters
and deals, and the rule by which it feeds no seat close to winning
(:meth:`Trader.feeds`).  :class:`Trader` is a part of
:class:`~.bots.HeuristicBot`: it reads the seat's wants (``target``,
``needs``, ``surplus``), the decision's offer space (``space``) and the
switches ``trades`` and ``proposes`` from it."""
from __future__ import annotations

from .board import TARGET_VP, PARCHMENT
from .offers import TO_ALL, OfferSpace, card_sets, cards_of, counter_option, net, offer_option
from ..game import space_of


#: What a trade must be worth to a bot for it to accept it or counter.
ACCEPT_GAIN = 0.1
#: The most cards a bot's own offer gives, and asks; the best offers it keeps.
OFFER_GIVES, OFFER_WANTS, OFFERS_KEPT = 2, 3, 3


class Trader:
    """The trading half of :class:`~.bots.HeuristicBot`."""

    def made_offers(self, s):
        """The offers this bot made this turn (not those it only weighed)."""
        if self.made[0] != s.turn:
            self.made = (s.turn, [])
        return self.made[1]

    def valuer(self, s, p):
        """``gain(gets, gives)``: what receiving ``gets`` for ``gives`` (six
        counts each) is worth to ``p``, by how far its hand then goes towards
        its next build: cards still missing count most, spare cards a little,
        parchments a little, a hand a 7 would halve less; -99 if it cannot pay."""
        t = self.target(s, p)
        h = s.hand(p)
        parch = s.parch[p]
        exposed = not s.rcpt[p]

        def value(hand, pa):
            missing = spare = size = 0
            for r in range(5):
                d = hand[r] - t[r]
                size += hand[r]
                if d < 0:
                    missing -= d
                else:
                    spare += d
            v = -missing + 0.25 * min(spare, 4) + 0.2 * min(pa, 6)
            if size > 7 and exposed:
                v -= 0.3 * (size - 7)
            return v

        base = value(h, parch)

        def gain(gets, gives):
            after = [h[r] + gets[r] - gives[r] for r in range(5)]
            if min(after) < 0 or parch < gives[PARCHMENT]:
                return -99.0
            return value(after, parch + gets[PARCHMENT] - gives[PARCHMENT]) - base
        return gain

    def trade_gain(self, s, p, gets, gives):
        """What receiving ``gets`` for ``gives`` (six counts each) is worth to ``p``."""
        return self.valuer(s, p)(gets, gives)

    def feeds(self, s, q, change=None):
        """Whether a trade that changes seat ``q``'s cards by ``change`` (six
        counts, what it gets less what it gives; None: any) feeds a seat close
        to winning: one point from the target, or two with the cards then
        paying for its next build.  How far ahead of this seat ``q`` is does
        not count (that froze the leader out of every trade)."""
        return self.feeder(s, q)(change)

    def feeder(self, s, q):
        """:meth:`feeds` for seat ``q``, as a function of the change."""
        vp = s.vp(q)
        if vp != TARGET_VP - 2:
            return lambda change: vp > TARGET_VP - 2
        hand, cost = s.hand(q), self.target(s, q)
        return lambda change: change is None or all(h + n >= c for h, n, c in zip(hand, change, cost))

    def may_take(self, s, p, k):
        """Whether ``p`` may ask for cards of kind ``k``: not one it gave away
        in a trade this turn (it would buy back what it just sold)."""
        return not s.gave[p] >> k & 1

    def spare_cards(self, s, p, count, banned):
        """Up to ``count`` cards ``p`` can spare (surplus first, then parchments), none of ``banned`` kinds."""
        sur = self.surplus(s, p)
        give = [0] * 6
        left = count
        for r in sorted(range(5), key=lambda r: -sur[r]):
            if left <= 0 or not sur[r] or banned[r]:
                continue
            n = min(sur[r], left)
            give[r] = n
            left -= n
        if left > 0 and s.parch[p] >= 2 and not banned[PARCHMENT]:
            give[PARCHMENT] = min(s.parch[p] - 1, 2 * left)
        return give

    def offers(self, s, p, space):
        """Offers towards this seat's next build, best first: any cards it
        holds (two at most) for any the others hold (three at most, none of a
        kind it gave away in a trade this turn), weighed
        by what the trade is worth to it less what it is worth to the one
        who takes it, among those a seat it does not feed (:meth:`feeds`, by
        the cards that seat would get and give) would take (as this bot
        would judge in that seat's place)."""
        if not sum(self.needs(s, p)):
            return []
        partners = [q for q in space.seats if s.vp(q) < TARGET_VP - 1]
        if not partners:
            return []
        mine = self.valuer(s, p)
        theirs = [(self.valuer(s, q), self.feeder(s, q)) for q in partners]
        pool = [0] * 6
        for q in partners:
            for k, n in enumerate(s.hand(q) + [s.parch[q]]):
                pool[k] = max(pool[k], n) if self.may_take(s, p, k) else 0
        wants = card_sets(pool, OFFER_WANTS)
        gives = card_sets(space.have, OFFER_GIVES)
        scored = []
        for want in wants:
            for give in gives:
                if any([give[k] and want[k] for k in range(6)]):
                    continue
                gain = mine(want, give)
                if gain <= 0:
                    continue
                change = net(give, want)
                takers = [x for x in [f(give, want) for f, fed in theirs if not fed(change)]
                          if x > ACCEPT_GAIN]
                if takers:
                    scored.append((gain - min(takers), -sum(give), give, want))
        scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
        out = []
        for _v, _n, give, want in scored[:OFFERS_KEPT]:
            opt = offer_option(give, want, TO_ALL)
            if space.allows(opt):
                out.append(opt)
        return out

    def propose(self, s, p, space):
        """The offer this seat makes now, if any: the best one it has not
        made yet this turn."""
        made = self.made_offers(s)
        for opt in self.offers(s, p, space):
            if opt not in made:
                return opt
        return None

    def counter(self, s, q, space):
        """What this seat would take instead of an offer: the cards it misses
        that the offerer may hold (none of a kind it gave away in a trade this
        turn), for as many spare ones; None if nothing."""
        need = self.needs(s, q)
        other = space.other
        ask = [min(need[r], other[r]) if self.may_take(s, q, r) else 0 for r in range(5)] + [0]
        if not any(ask):
            return None
        offer = self.spare_cards(s, q, sum(ask), ask)
        if not any(offer) or self.trade_gain(s, q, ask, offer) <= ACCEPT_GAIN:
            return None
        opt = counter_option(offer, ask)
        return opt if space.allows(opt) else None

    def trades_to_try(self, s, d):
        """The offers or counter worth weighing at decision ``d`` (a search
        weighs them beside the listed options)."""
        space = space_of(d)
        if not isinstance(space, OfferSpace) or not self.trades:
            return []
        if space.verb == "offer":
            return self.offers(s, d.seat, space) if self.proposes else []
        c = self.counter(s, d.seat, space)
        return [] if c is None else [c]

    def k_answer(self, s, q, opts):
        p, give, want = s.trade[0], s.trade[1], s.trade[2]
        if not self.trades:
            return ("decline",)
        gain = self.trade_gain(s, q, give, want)
        if ("accept",) in opts and gain > ACCEPT_GAIN and not self.feeds(s, p, net(want, give)):
            return ("accept",)
        # a counter: what this seat would take instead
        c = None if self.space is None else self.counter(s, q, self.space)
        return ("decline",) if c is None or self.feeds(s, p, net(cards_of(c[1]), cards_of(c[2]))) else c

    def k_deal(self, s, p, opts):
        """The answer worth most to this seat (a partner's points rank the
        answers, the weakest first, but refuse none), or cancel."""
        best, value = ("cancel",), 0.0
        for q, qgives, qwants in s.trade[4]:
            gain = self.trade_gain(s, p, qgives, qwants) if ("deal", q) in opts else 0.0
            if gain > 0 and not self.feeds(s, q, net(qwants, qgives)) and gain + 1 - 0.05 * s.vp(q) > value:
                best, value = ("deal", q), gain + 1 - 0.05 * s.vp(q)
        return best
