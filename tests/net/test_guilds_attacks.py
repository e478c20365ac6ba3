"""Cheats against the guild variant's networked play, where the random steal
takes from hands of face-up cards: each is tried by a modified client (or a
tampering host) and the seat that cheated, and no other, is named by every
seat and by ``ankh verify``."""
from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from typing import Any, Callable

import pytest

from ankh.core.game import Decision, ShowCards, allows
from ankh.core.guilds.board import SHADES_SPOT
from ankh.core.guilds.seven import assassin_options, robber_options, victims
from ankh.core.guilds.offers import TO_ALL, offer_option
from ankh.core.guilds.trading import MAX_OFFERS, holdings
from ankh.core.guilds.turn import phase_c_options
from ankh.core.guilds.views import view_for
from ankh.net.fair import group, steal
from ankh.net.wire.envelope import Identity
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.io.node import HostNode, WatchNode
from ankh.net.play.ops import StealCard
from ankh.net.play.peer import GamePeer, Spectator
from ankh.net.files.transcript import Transcript, next_hash
from ankh.net.files.verify import verify_transcript

from .nethelp import decode, resign, swap_scalar
from .star import Star, star_peers
from .stealgames import rebuilt_mid_steal, secrets_of_hidden_cards, tampered
from .test_guilds_net import guild_bots, knowledge, steal_steps, thieves
from .test_hidden_lies import Liar



def guild_star(players: int, seed: bytes, liar: int, lie) -> Star:
    return Star(star_peers(players, seed, "guilds", cheat=liar, cheat_as=lambda proto: Liar(proto, lie)))


def others_options(peer: GamePeer, options: Callable[[Any, int], list[tuple]], d: Decision) -> list[tuple]:
    """What a seat that does not see ``peer``'s hidden cards would accept from
    it now (an upper bound on them) that its own rules, which know them, would not."""
    view = view_for(peer.engine, None)
    return [o for o in options(view, peer.me) if not allows(d, o)]


class Robber:
    """A bot that robs whenever it may (steals are what these cheats need)."""

    def __init__(self, bot):
        self.bot = bot

    def choose(self, engine, d: Decision) -> tuple:
        robs = [o for o in d.options if o[0] == "rob"]
        if robs:
            return robs[0]
        if d.kind == "seven":
            moves = [o for o in d.options if o[0] == "robber" and o[1] != SHADES_SPOT]
            if moves:
                return moves[0]
        return self.bot.choose(engine, d)


def robbers(players: int, seed: int) -> list[Robber]:
    return [Robber(b) for b in guild_bots(players, seed)]


class Trader(Robber):
    """Once ``liar`` has lied, a bot that takes every trade it is offered, and
    a deal with the liar whenever it may."""

    def __init__(self, bot, liar: GamePeer):
        super().__init__(bot)
        self.liar = liar

    def choose(self, engine, d: Decision) -> tuple:
        if self.liar.lies:
            if d.kind == "answer" and ("accept",) in d.options:
                return ("accept",)
            if d.kind == "deal":
                return next((o for o in d.options if o[0] == "deal" and o[1] == self.liar.me), d.options[0])
        return super().choose(engine, d)


def run(star: Star, bots, max_rounds: int = 20_000) -> dict[int, RemoteProtocolError]:
    """Play until every seat has stopped on an error or the game ends: the
    host relays every frame it took before it works on it, as the real host
    does, so that every seat checks the cheat itself.  Returns each seat's error."""
    errors: dict[int, RemoteProtocolError] = {}
    hub, peers = star.hub, star.peers

    def guard(s: int, fn) -> bool:
        if s in errors:
            return False
        try:
            star.events[s] += fn()
        except RemoteProtocolError as exc:
            errors[s] = exc
        return True

    guard(0, hub.start)
    hub.relay()
    for s, p in enumerate(peers[1:], 1):
        guard(s, p.start)
    for _ in range(max_rounds):
        moved = True
        while moved:
            moved = False
            for s, p in enumerate(peers[1:], 1):
                for sent in p.data_to_send():  # a cheat's frames go out even once its own rules stopped
                    for frame in star.link(sent, s, 0):
                        guard(0, lambda: hub.from_seat(s, frame, pump=False))
                        hub.relay()
                        guard(0, hub.pump)
                        hub.relay()
                    moved = True
                for sent in hub.outbox(s):
                    for frame in star.link(sent, 0, s):
                        moved = guard(s, lambda: p.receive(frame, via=0)) or moved
        if len(errors) == len(peers) or all(p.phase == "done" for p in peers):
            return errors
        acted = False
        for s, p in enumerate(peers):
            d = None if s in errors else p.decision
            if d is not None:
                option = bots[s].choose(p.engine, d)
                acted = guard(s, (lambda: hub.host_choose(option)) if s == 0 else (lambda: p.choose(option))) or acted
                hub.relay()
        if not acted:  # nothing moves: the seats still going wait for one that stopped, or it is a stall
            if errors:
                return errors
            waiting = sorted({w for p in peers for w in p.waiting_for()})
            raise AssertionError(f"the game stalled, waiting for {waiting}")
    raise AssertionError("the game did not end")


def blamed_by_all_honest(star: Star, errors: dict[int, RemoteProtocolError], cheat: int) -> list[RemoteProtocolError]:
    honest = [s for s in range(len(star.peers)) if s != cheat]
    assert set(honest) <= set(errors), f"seats {sorted(set(honest) - set(errors))} went on: {errors}"
    for s in honest:
        assert errors[s].seat == cheat, (s, str(errors[s]))
    return [errors[s] for s in honest]


def verified_blame(star: Star, cheat: int) -> Any:
    saved = max((p.protocol.transcript() for s, p in enumerate(star.peers) if s != cheat), key=lambda t: len(t.ops))
    report = verify_transcript(saved.to_bytes())
    assert report.status == "violation", str(report)
    assert [v.seat for v in report.violations] == [cheat], str(report)
    return report


# --- a seat that claims a move its hidden cards cannot pay ------------------------------------------

PAID = ("found", "house", "villa", "dev", "gp", "bank", "refresh")


def short_build(peer: Liar, d: Decision):
    if peer.lies or d.kind != "action" or not peer.engine.hid[peer.me]:
        return None
    extra = [o for o in others_options(peer, phase_c_options, d) if o[0] in PAID]
    return extra[0] if extra else None


SEED = 5  # a game in which seat 1 robs three times, its victims 0, 2 and 3


@pytest.mark.parametrize("liar", [1, 2, 3])
def test_a_seat_that_builds_with_hidden_cards_it_does_not_hold_is_named_by_every_seat(liar: int) -> None:
    """The thief (seat 1) or a victim (seats 2, 3) of its steals: the other
    seats' rules offer it a build its hidden cards might pay, its show proves
    they do not, and every honest seat and ``ankh verify`` name it."""
    star = guild_star(4, b"guild%d" % SEED, liar, short_build)
    errors = run(star, robbers(4, SEED))
    assert star.peers[liar].lies, "the seed was chosen for a game where the liar holds hidden cards"
    blames = blamed_by_all_honest(star, errors, liar)
    assert all("do not pay for its move" in str(e) or "illegal move" in str(e) for e in blames), blames
    verified_blame(star, liar)


# --- a trade one side cannot pay: that side is named, never its honest counterparty -----------------

def give_options(view, me: int) -> list[tuple]:
    """Offers of one or two cards of a kind for a card another seat is seen to
    hold, to all, that the public's bound on the seat's cards allows (an offer
    is a move of phase C)."""
    have = holdings(view, me)
    held = [w for w in range(5) if any(view.res[q * 5 + w] for q in range(view.players) if q != me)]
    moves = []
    for k in range(6):
        for n in (1, 2):
            for w in held:
                if n <= have[k] and w != k and view.offers < MAX_OFFERS:
                    give, want = [0] * 6, [0] * 6
                    give[k], want[w] = n, 1
                    moves.append(offer_option(give, want, TO_ALL))
    return moves


def accept_options(view, me: int) -> list[tuple]:
    want = view.trade[2]
    have = holdings(view, me)
    return [("accept",)] if all(have[k] >= want[k] for k in range(6)) else []


def short_trade(kind: str, options):
    def lie(peer, d: Decision):
        if peer.lies == 1 and d.kind == "deal":   # its own rules, which know its cards, list no such deal
            deals = [("deal", a[0]) for a in peer.engine.trade[4] if ("deal", a[0]) not in d.options]
            return deals[0] if deals else None
        if peer.lies or d.kind != kind or not peer.engine.hid[peer.me]:
            return None
        extra = [o for o in others_options(peer, options, d) if o[0] in ("offer", "accept")]
        return extra[0] if extra else None
    return lie


TRADE_SEED = 18  # a game in which seat 0 is asked for cards while it holds hidden ones


@pytest.mark.parametrize("side,liar", [("action", 1), ("answer", 0)])
def test_a_trade_one_side_cannot_pay_names_that_side_not_its_honest_counterparty(side: str, liar: int) -> None:
    """The liar offers cards it does not hold, or accepts an offer with cards it
    does not hold; an honest seat takes the deal.  Both sides show their hidden
    cards before the exchange; the rules name the side whose cards fall short,
    and every honest seat (the counterparty among them) and ``ankh verify`` agree."""
    options = give_options if side == "action" else accept_options
    seed = SEED if side == "action" else TRADE_SEED
    star = guild_star(4, b"guild%d" % seed, liar, short_trade(side, options))
    errors = run(star, [Trader(b, star.peers[liar]) for b in guild_bots(4, seed)])
    assert star.peers[liar].lies, "the seed was chosen for a game where the liar trades holding hidden cards"
    blames = blamed_by_all_honest(star, errors, liar)
    assert all("do not pay for its move" in str(e) or "illegal move" in str(e) for e in blames), blames
    verified_blame(star, liar)


def test_a_bluffed_offer_that_only_the_victim_could_see_through_is_judged_alike_by_every_seat() -> None:
    """The thief offers a card it does not hold, which the seat it stole from
    knows, and nobody takes the offer: no card moves, so no show proves the
    bluff, and every seat (the victim among them) lets it pass as the public
    rules do.  Refused by the victim alone, the victim would stop while the
    others, who cannot check its evidence, went on: the honest seat would be
    the one the game waits for."""
    star = guild_star(4, b"guild%d" % SEED, 1, short_trade("action", give_options))
    errors = run(star, robbers(4, SEED))
    assert star.peers[1].lies, "the seed was chosen for a game where the thief trades holding a stolen card"
    honest = [0, 2, 3]
    assert not errors or set(honest) <= set(errors), f"the honest seats disagree: {errors}"
    assert all(e.seat == 1 for e in errors.values()), errors


# --- a victim that steals over another hand than its own ---------------------------------------------

class OtherHand(GamePeer):
    """A modified client: as a victim, it runs its first steal over a hand with
    one face-up card changed (its proofs are sound, for that hand)."""

    swapped = 0

    def _steal_op(self, req):
        op = super()._steal_op(req)
        if self.viewer == req.victim and not self.swapped:
            slots = list(op.slots)
            i = next(i for i, s in enumerate(slots) if isinstance(s, str))
            slots[i] = "brick" if slots[i] != "brick" else "ore"
            self.swapped += 1
            op = dataclasses.replace(op, slots=tuple(slots))
        return op


@pytest.mark.parametrize("cheat", [3, 0])
def test_a_victim_that_commits_to_another_hand_than_the_public_one_is_named(cheat: int) -> None:
    """Every seat builds the victim's hand from its own rules: a steal message
    over any other hand answers another step.  The seats that see it name the
    victim; the host's evidence names it at the others, at a spectator, and in
    ``ankh verify`` of the host's journal."""
    star = Star(star_peers(4, b"guild%d" % SEED, "guilds", cheat=cheat, cheat_as=OtherHand))
    errors = run(star, robbers(4, SEED))
    assert star.peers[cheat].swapped
    honest = [s for s in range(4) if s != cheat]
    caught = [s for s in honest if s in errors]
    assert caught and all(errors[s].seat == cheat and "different step" in str(errors[s]) for s in caught), errors
    evidence = list(errors[caught[0]].evidence)
    for s in honest:
        if s not in errors:  # a seat the host did not relay the frame to: the evidence convinces it
            verdict = star.peers[s].judge(evidence)
            assert verdict is not None and verdict.seat == cheat, verdict
    journal = star.peers[caught[0]].protocol.transcript()
    watcher = Spectator(journal.roster)
    watcher.feed(journal.frames())
    verdict = watcher.judge(evidence)
    assert verdict is not None and verdict.seat == cheat, verdict
    journal.blame = evidence
    report = verify_transcript(journal.to_bytes())
    assert [v.seat for v in report.violations] == [cheat], str(report)


# --- ankh verify on a guild game's log, tampered ------------------------------------------------------

@pytest.fixture(scope="module")
def guild_game() -> Star:
    star = Star(star_peers(4, b"guild%d" % SEED, "guilds"))
    assert run(star, robbers(4, SEED)) == {}
    return star


def test_ankh_verify_says_the_guild_game_with_steals_is_fair(guild_game: Star) -> None:
    report = verify_transcript(guild_game.peers[2].protocol.transcript().to_bytes())
    assert report.status == "fair" and "3 random steals proven" in str(report), str(report)


@pytest.mark.parametrize("what", ["proof", "hand"])
def test_ankh_verify_names_a_victim_that_changes_a_card_of_its_public_hand(guild_game: Star, what: str) -> None:
    def change(body: dict) -> None:
        if what == "proof":
            body["s"] = swap_scalar(body["s"], 0, 7)
        else:  # the step's hand says brick where the public knows another card
            body["op"]["slots"] = ["brick" if body["op"]["slots"][0] != "brick" else "ore"] + body["op"]["slots"][1:]

    data, victim = tampered(guild_game, "steal", change)
    report = verify_transcript(data)
    assert [v.seat for v in report.violations] == [victim], str(report)
    assert "re-randomised" in report.violations[0].message


def test_ankh_verify_names_a_thief_that_shows_another_card_than_it_took(guild_game: Star) -> None:
    def other_card(body: dict) -> None:
        body["cards"] = ["brick" if body["cards"][0] != "brick" else "ore"] + body["cards"][1:]

    data, thief = tampered(guild_game, "show", other_card)
    report = verify_transcript(data)
    assert [v.seat for v in report.violations] == [thief], str(report)
    assert "does not hold" in report.violations[0].message


# --- a seat rebuilt from its log in the middle of a steal from a face-up hand --------------------------

@pytest.mark.parametrize("everywhere", [False, True])
@pytest.mark.parametrize("role", ["victim", "thief"])
def test_a_guild_seat_rebuilt_in_the_middle_of_a_steal_carries_on_knowing_its_cards(
        role: str, everywhere: bool) -> None:
    """The victim goes down as it sends its opening, or the thief before the
    opening reaches it; rebuilt from its saved log, it carries on (with steals
    everywhere, through later steals of hidden cards it holds: it finds their
    slots again from its log), its rules know the kind of every hidden card it
    holds, and the game verifies fair."""
    seed = MIXED if everywhere else SEED
    bots = hidden_robbers(4, seed) if everywhere else robbers(4, seed)

    def knows_own(star: Star) -> None:
        for seat, peer in enumerate(star.peers):
            e = peer.engine
            if not isinstance(e.pending, ShowCards):  # (the victim's look comes right after its steal)
                assert all(e.rcard[h] is not None for h in e.hid[seat]), (seat, e.hid[seat])

    star, fresh = rebuilt_mid_steal(
        lambda link: Star(star_peers(4, b"guild%d" % seed, "guilds"), link), bots, role, knows_own)
    assert len({p.final_hash for p in star.peers}) == 1 and None not in {p.final_hash for p in star.peers}
    assert verify_transcript(fresh.protocol.transcript().to_bytes()).status == "fair"
    if everywhere:  # the seed was chosen for a game where the rebuilt seat is robbed holding hidden cards
        assert any(op.victim == fresh.me and any(type(e) is int for e in op.slots) for op in steal_steps(fresh))


# --- what a spectator learns of a stolen face-up card ----------------------------------------------------

def test_a_spectator_of_a_guild_game_never_learns_a_stolen_card_before_it_is_shown(guild_game: Star) -> None:
    """Fed the public log step by step, a spectator's rules never know the kind
    of a hidden card; no slot key or steal secret is anywhere in the stream, and
    the thief's card is public exactly from its holder's show on."""
    host = guild_game.peers[0].protocol
    watcher = Spectator(host.roster)
    never, until_audit = secrets_of_hidden_cards(dict(enumerate(guild_game.peers)), "res", None)
    assert len(never) > 3 * 4 and until_audit
    frames = list(host.transcript().frames())
    audit = next(i for i, f in enumerate(frames) if decode(f)["kind"] == "audit")
    assert not any(k in b"".join(frames) for k in never)
    assert not any(k in b"".join(frames[:audit]) for k in until_audit)
    for step in host.transcript().ops:
        watcher.feed(step)
        e = watcher.engine
        assert all(c is None for c in e.rcard.values()), e.rcard
    assert watcher.engine.outcome == guild_game.peers[1].engine.outcome


# --- steals from hands that hold hidden cards (public cards by kind, hidden ones by slot) ---------------

class HiddenRobber(Robber):
    """A bot that robs a seat holding hidden cards wherever it can (the most of them)."""

    def choose(self, engine, d: Decision) -> tuple:
        robs = [o for o in d.options if o[0] == "rob"]
        if robs:
            return max(robs, key=lambda o: len(engine.hid[o[1]]))
        if d.kind == "seven":
            def reach(o: tuple) -> int:
                w = engine.copy()
                w.robber = o[1]
                return max([len(engine.hid[q]) + 1 for q in victims(w, d.seat)], default=0)
            spots = [o for o in d.options if o[0] == "robber"]
            if spots and max(map(reach, spots)):
                return max(spots, key=reach)
        return super().choose(engine, d)


def hidden_robbers(players: int, seed: int) -> list[HiddenRobber]:
    """Thieves (each takes a licence at setup, sets the dice to 7 and keeps its
    hidden cards) that rob hidden cards wherever they can: steals are many, and
    some take from hands that hold hidden cards."""
    return [HiddenRobber(b) for b in thieves(players, seed)]


MIXED = 2  # a game whose steals take hidden cards of every seat, the rebuilt ones' among them


def mixed_steals(star: Star) -> list[list[int]]:
    return [[x for x in decode(f)["body"]["op"]["slots"] if isinstance(x, int)]
            for step in star.peers[0].protocol.transcript().ops for f in step if decode(f)["kind"] == "steal"]


def test_steals_from_hands_holding_hidden_cards_agree_and_verify_fair() -> None:
    star = guild_star(4, b"guild%d" % MIXED, -1, None)
    star.play(hidden_robbers(4, MIXED), after_round=knowledge)
    assert sum(1 for hidden in mixed_steals(star) if hidden) >= 3
    assert len({p.final_hash for p in star.peers}) == 1 and None not in {p.final_hash for p in star.peers}
    report = verify_transcript(star.peers[3].protocol.transcript().to_bytes())
    assert report.status == "fair", str(report)


@pytest.mark.parametrize("how", ["omit", "reuse"])
def test_a_victim_that_leaves_out_or_repeats_a_hidden_card_is_named(how: str) -> None:
    """Seat 1, robbed while it holds hidden cards, signs a steal message whose
    hand leaves one of its hidden slots out, or names one twice: the host names
    it at once (the hand is not the one its rules ask for), and ``ankh verify``
    names it from the host's journal and its evidence."""
    cheated: list[bytes] = []

    def link(frame: bytes, a: int, b: int) -> list[bytes]:
        payload = decode(frame)
        if a == 1 and payload["kind"] == "steal" and not cheated:
            slots = payload["body"]["op"]["slots"]
            hidden = [i for i, x in enumerate(slots) if isinstance(x, int)]
            if hidden:
                def change(body: dict) -> None:
                    if how == "omit":
                        del body["op"]["slots"][hidden[0]]
                    else:
                        body["op"]["slots"][hidden[-1] if len(hidden) > 1 else 0] = slots[hidden[0]]
                cheated.append(resign(frame, star.peers[1].protocol.secrets.identity, change))
                return cheated[-1:]
        return [frame]

    star = Star(guild_star(4, b"guild%d" % MIXED, -1, None).peers, link)
    errors = run(star, hidden_robbers(4, MIXED))
    assert cheated, "the seed was chosen for a game where seat 1 is robbed holding hidden cards"
    assert set(errors) == {0} and errors[0].seat == 1 and "different step" in str(errors[0]), errors
    assert all(star.peers[s].judge(list(errors[0].evidence)).seat == 1 for s in (2, 3))
    journal = star.peers[0].protocol.transcript()
    journal.blame = list(errors[0].evidence)
    report = verify_transcript(journal.to_bytes())
    assert [v.seat for v in report.violations] == [1], str(report)


def test_real_peers_and_a_spectator_play_guild_steals_and_the_spectator_learns_no_hidden_card(
        tmp_path: Path) -> None:
    """Over loopback, a host with three bots that rob hands holding hidden cards,
    and a spectator: the spectator's stream holds no slot key nor a steal's
    secret scalar, nor before the audit a key of an unrevealed development
    token; its rules never know a hidden card's kind, it sees the hands the
    seats see, and the saved game verifies fair."""
    bots = dict(enumerate(hidden_robbers(4, MIXED)))

    async def decide(peer, decision):
        await asyncio.sleep(0)
        return bots[peer.me].choose(peer.engine, decision)

    async def watched():
        host = HostNode(Identity.generate(), "host", seats=4, bots=3, decide=decide, report=lambda e: None,
                        save_root=tmp_path, bind="127.0.0.1", advertise=False, kind="guilds")
        port = await host.open()
        watcher = WatchNode(Identity.generate(), report=lambda e: None)
        watcher.keep = True
        results = await asyncio.wait_for(asyncio.gather(host.run(), watcher.run("127.0.0.1", port)), 600)
        return host, watcher, results

    host, watcher, (hr, wr) = asyncio.run(watched())
    assert hr.finished and hr.fair and wr.text == hr.text and wr.fair
    seats = Star(list(host.local.values()))
    assert mixed_steals(seats), "a game of thieves has steals"
    spectator, seat = watcher.spectator.engine, host.hub.host.engine
    assert spectator.res == seat.res and spectator.hid == seat.hid
    assert all(c is None for c in spectator.rcard.values())   # nor a development token not turned up
    never, until_audit = secrets_of_hidden_cards(host, "res", "dev")
    audit = next(i for i, f in enumerate(watcher.seen) if decode(f)["kind"] == "audit")
    assert never and until_audit
    assert not any(k in b"".join(watcher.seen) for k in never)
    assert not any(k in b"".join(watcher.seen[:audit]) for k in until_audit)
    report = verify_transcript(host.hub.host.protocol.transcript().to_bytes())
    assert report.status == "fair" and report.steals >= 1, str(report)


def seven_options(view, me: int) -> list[tuple]:
    return robber_options(view, me) + assassin_options(view, me) + [("pass",)]


CLAIMS = {"action": lambda view, me: phase_c_options(view, me) + give_options(view, me),
          "seven": seven_options, "answer": accept_options}


def first_overclaim(peer, d: Decision):
    """The first move, of any kind, that the public's bound on this seat's hidden cards allows and they do not."""
    if peer.lies or d.kind not in CLAIMS or not peer.engine.hid[peer.me]:
        return None
    extra = others_options(peer, CLAIMS[d.kind], d)
    return extra[0] if extra else None


@pytest.mark.parametrize("liar", [0, 1, 2, 3])
def test_with_steals_everywhere_any_seat_that_overclaims_its_hidden_cards_is_named_by_all(
        liar: int) -> None:
    """Every seat a licensed thief: the host or any other seat, thief and victim by
    turns, makes the first move its hidden cards do not allow; every honest
    seat names it, and so does ``ankh verify``."""
    star = guild_star(4, b"guild%d" % MIXED, liar, first_overclaim)
    errors = run(star, hidden_robbers(4, MIXED))
    assert star.peers[liar].lies
    blamed_by_all_honest(star, errors, liar)
    verified_blame(star, liar)


@pytest.fixture(scope="module")
def mixed_game() -> Star:
    star = guild_star(4, b"guild%d" % MIXED, -1, None)
    assert run(star, hidden_robbers(4, MIXED)) == {}
    return star


@pytest.mark.parametrize("how", ["stolen away", "twice"])
def test_ankh_verify_names_a_seat_that_shows_a_slot_it_no_longer_holds_or_one_slot_twice(
        mixed_game: Star, how: str) -> None:
    t = mixed_game.peers[0].protocol.transcript()
    ops = [list(step) for step in t.ops]
    i = next(i for i, step in enumerate(ops) if decode(step[0])["kind"] == "show"
             and len(decode(step[0])["body"]["slots"]) > 1)
    shower = decode(ops[i][0])["from"]

    def change(body: dict) -> None:
        if how == "twice":
            body["cards"][1] = body["cards"][0]
            body["slots"][1] = body["op"]["slots"][1] = body["slots"][0]
        else:  # the first steal's first handle: long gone from every hand
            body["slots"][0] = body["op"]["slots"][0] = 0

    ops[i][0] = resign(ops[i][0], mixed_game.peers[shower].protocol.secrets.identity, change)
    report = verify_transcript(Transcript(t.roster, ops).to_bytes())
    assert [v.seat for v in report.violations] == [shower], str(report)
    assert ("duplicate" if how == "twice" else "not hidden cards of seat") in report.violations[0].message
