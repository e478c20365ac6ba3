"""The random steal proven end to end on the tiny game (a roll of 5 takes a
card at random from the next seat's hidden hand): at a local table and in
its record; through GamePeers and the hub, where only the thief and the
victim ever learn the card; a seat rebuilt from its saved log in the middle
of a steal; real peers and a spectator over loopback, whose stream holds no
key of a hidden card; and ``ankh verify``, fair on such a game and naming
the cheat on a tampered one."""
from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from ankh.core.game import ShowCards, StealRandom, get
from ankh.net.wire.envelope import Identity
from ankh.net.wire.errors import LocalProtocolError
from ankh.net.io.node import HostNode, WatchNode
from ankh.net.play.local import LocalGame
from ankh.net.play.peer import Logged
from ankh.net.play.ops import StealCard
from ankh.net.files.verify import verify_transcript

from tests import tinygame

from .nethelp import decode, resign, swap_scalar
from .star import Star, star_peers
from .stealgames import rebuilt_mid_steal, secrets_of_hidden_cards, tampered
from .test_tinygame import bots, run_tiny

tinygame.install()
TINY = get("tiny")


def steals_in(events: list[Any]) -> list[tuple[int, int, int]]:
    """(thief, victim, handle taken) of each steal among a seat's events."""
    return [(e.event.seat, e.event.data["from"], e.event.data["handle"]) for e in events
            if isinstance(e, Logged) and e.event.kind == "steal"]


# --- one table ---------------------------------------------------------------------------------

def test_a_local_table_steals_into_fresh_handles_and_its_record_replays_the_same() -> None:
    seen = 0
    for seed in range(12):
        game = LocalGame.new(3, seed, dict(enumerate(bots(3, seed))), TINY)
        while game.state.outcome is None:
            req = game.state.pending
            before = [list(h) for h in game.state.hands]
            game.step()
            if isinstance(req, StealRandom):
                seen += 1
                assert tuple(before[req.victim]) == req.hand
                if isinstance(game.state.pending, ShowCards):
                    game.step()  # the victim looks at its new hand
                s, table = game.state, game.table
                (taken,) = [h for h in s.hands[req.thief] if h not in before[req.thief]]
                assert taken in req.handles and sorted(s.hands[req.victim] + [taken]) == list(req.handles)
                # the same cards, under new handles: the one taken is now the thief's
                assert sorted(table.card("cards", h) for h in req.handles) == sorted(
                    table.card("cards", h) for h in req.hand)
                assert all(s.card[h] == table.card("cards", h) for h in req.handles)
                assert not set(req.hand) & set(s.card)
        again = LocalGame.from_text(game.save_text())
        assert again.state.scores == game.state.scores and again.state.hands == game.state.hands
    assert seen >= 3


# --- in memory: every seat its own engine, the host relaying -------------------------------------

def knowledge_checker(thefts: dict[int, tuple[int, int]]):
    """After every round: a seat knows the cards of its own hand, the card a thief
    took from it, and no other hidden card; thief and victim agree on that card."""
    def check(star: Star) -> None:
        for s, p in enumerate(star.peers):
            for thief, victim, handle in steals_in(star.events[s]):
                thefts[handle] = (thief, victim)
        for s, p in enumerate(star.peers):
            if p.audit is not None:
                continue
            for q, hand in enumerate(p.engine.hands):
                for h in hand:
                    knows = q == s or (h in thefts and thefts[h][1] == s)
                    assert (p.engine.card[h] is not None) == knows, (s, q, h)
        for h, (thief, victim) in thefts.items():
            t, v = star.peers[thief].engine, star.peers[victim].engine
            if h in t.card and h in v.card:
                assert t.card[h] == v.card[h] is not None
    return check


@pytest.mark.parametrize("players,seed", [(2, 2), (2, 6), (3, 1), (3, 6)])
def test_whole_games_with_steals_agree_and_only_thief_and_victim_learn_the_card(players: int, seed: int) -> None:
    star = Star(star_peers(players, seed=b"tiny-steal%d" % seed, kind="tiny"))
    thefts: dict[int, tuple[int, int]] = {}
    star.play(bots(players, seed), after_round=knowledge_checker(thefts))
    peers = star.peers
    assert thefts, "the seeds were chosen for games with steals"
    assert len({p.final_hash for p in peers}) == 1 and None not in {p.final_hash for p in peers}
    assert len({p.engine.outcome for p in peers}) == 1 and len({str(p.engine.hands) for p in peers}) == 1
    assert all(p.audit is not None and p.audit.fair for p in peers)
    # every seat followed the same steals
    assert len({tuple(steals_in(star.events[s])) for s in range(players)}) == 1
    report = verify_transcript(peers[0].protocol.transcript().to_bytes())
    assert report.status == "fair", str(report)
    assert report.steals == len(thefts) and f"{len(thefts)} random steals proven" in str(report)


def test_a_networked_steal_needs_the_victims_cards_by_their_handles() -> None:
    star = Star(star_peers(2, seed=b"tiny-nohand", kind="tiny"))
    star.pump()  # the decks are shuffled and dealt
    peer = star.peers[0]
    with pytest.raises(LocalProtocolError, match="without naming the victim's cards"):
        peer._op_for(StealRandom("cards", (12, 13, 14), 1, 0, "steal"))
    with pytest.raises(LocalProtocolError, match="no deck and no hand of face-up cards"):
        peer._op_for(StealRandom("res", (12, 13, 14), 1, 0, "steal", (0, 1, 2)))


# --- a seat rebuilt from its log in the middle of a steal ------------------------------------------

def kind_of(frame: bytes) -> str:
    return decode(frame)["kind"]


@pytest.mark.parametrize("role", ["victim", "thief"])
def test_a_seat_rebuilt_from_its_log_in_the_middle_of_a_steal_carries_on(role: str) -> None:
    """The victim goes down as it sends its opening (the rebuilt one sends it
    again); the thief goes down before the opening reaches it (the rebuilt one
    gets it from the host and opens its card)."""
    seed = 1
    thefts: dict[int, tuple[int, int]] = {}
    star, fresh = rebuilt_mid_steal(lambda link: Star(star_peers(3, seed=b"tiny-steal%d" % seed, kind="tiny"), link),
                                    bots(3, seed), role, knowledge_checker(thefts))
    peers = star.peers
    assert len({p.final_hash for p in peers}) == 1 and None not in {p.final_hash for p in peers}
    assert verify_transcript(fresh.protocol.transcript().to_bytes()).status == "fair"
    # the rebuilt seat knows what its steal moved: as thief its card, as victim its new hand
    assert all(fresh.engine.card[h] is not None for h in fresh.engine.hands[fresh.me])


# --- over real sockets, with a spectator ------------------------------------------------------------

def bot_decide(seed: int):
    rng = random.Random(seed)

    async def decide(peer, decision):
        await asyncio.sleep(0)
        return tinygame.RandomBot(rng).choose(peer.engine, decision)

    return decide


async def watched_tiny_game(tmp_path: Path, seed: int):
    host = HostNode(Identity.generate(), "host", seats=3, bots=2, decide=bot_decide(seed), report=lambda e: None,
                    save_root=tmp_path / f"h{seed}", bind="127.0.0.1", advertise=False, kind="tiny")
    port = await host.open()
    watcher = WatchNode(Identity.generate(), report=lambda e: None)
    watcher.keep = True
    game = asyncio.ensure_future(host.run())
    watching = asyncio.ensure_future(watcher.run("127.0.0.1", port))
    results = await asyncio.wait_for(asyncio.gather(game, watching), 300)
    return host, watcher, results


def test_real_peers_and_a_spectator_play_steals_and_the_spectator_learns_no_stolen_card(tmp_path: Path) -> None:
    for seed in range(8):  # a game has a steal three times in four: play until one does
        host, watcher, (hr, wr) = asyncio.run(watched_tiny_game(tmp_path, seed))
        if host.hub.host.protocol.ledger.hands:
            break
    else:
        pytest.fail("eight games without a steal")
    assert hr.finished and hr.fair and wr.text == hr.text and wr.fair
    spectator, seat = watcher.spectator.engine, host.hub.host.engine
    assert spectator.scores == seat.scores and spectator.hands == seat.hands
    # the spectator's engine never knew a card of a hand: stolen, kept or dealt
    assert all(spectator.card[h] is None for hand in spectator.hands for h in hand)
    never, until_audit = secrets_of_hidden_cards(host, "cards", "cards")
    stream = b"".join(watcher.seen)
    before_audit = b"".join(f for f in watcher.seen[:next(i for i, f in enumerate(watcher.seen)
                                                          if kind_of(f) == "audit")])
    assert never and until_audit
    assert not any(k in stream for k in never)
    assert not any(k in before_audit for k in until_audit)
    # the seats' saved game verifies, steals and all
    report = verify_transcript(host.hub.host.protocol.transcript().to_bytes())
    assert report.status == "fair" and report.steals >= 1, str(report)


# --- ankh verify ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def game_with_steals() -> Star:
    star = Star(star_peers(3, seed=b"tiny-steal6", kind="tiny"))
    star.play(bots(3, 6))
    return star


def test_ankh_verify_says_a_game_with_steals_is_fair(game_with_steals: Star, tmp_path: Path) -> None:
    path = tmp_path / "game.ankh"
    game_with_steals.peers[1].protocol.transcript().save(path)
    checked = run_tiny("verify", str(path))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("fair: ") and " random steals proven" in checked.stdout
    assert "rules replayed: 6 moves" in checked.stdout


def test_ankh_verify_names_a_victim_that_swaps_a_card_into_its_hand(game_with_steals: Star) -> None:
    data, victim = tampered(game_with_steals, "steal", lambda b: b.__setitem__("s", swap_scalar(b["s"], 0, 7)))
    report = verify_transcript(data)
    assert [v.seat for v in report.violations] == [victim], str(report)
    assert "re-randomised" in report.violations[0].message


def test_ankh_verify_names_a_seat_that_plays_another_card_than_a_steal_left_it(game_with_steals: Star) -> None:
    def other_card(body: dict) -> None:
        body["cards"] = ["c12" if body["cards"][0] != "c12" else "c1"]

    data, thief = tampered(game_with_steals, "show", other_card)
    report = verify_transcript(data)
    assert [v.seat for v in report.violations] == [thief], str(report)
    assert "does not hold" in report.violations[0].message


def test_a_dealt_card_a_steal_took_is_no_deck_card_afterwards() -> None:
    """The victim's positions went into the hand: revealing or showing one (its
    old key would open the card a thief now holds), or listing it in another
    steal, is refused; so is a steal of a card never dealt."""
    from ankh.net.play.ops import Reveal, Show

    class Stolen(Exception):
        pass

    def after_a_steal(star: Star) -> None:
        if star.peers[0].protocol.ledger.hands:
            raise Stolen

    star = Star(star_peers(3, seed=b"tiny-steal1", kind="tiny"))
    with pytest.raises(Stolen):
        star.play(bots(3, 1), after_round=after_a_steal)
    L = star.peers[0].protocol.ledger
    (handed,) = L.handed.values()
    p = min(handed)
    assert "went into a hand" in L.problem(Reveal("cards", (p,)))
    assert "went into a hand" in L.problem(Show("cards", (p,), 0))
    kinds = L.deck("cards").spec.cards
    assert "not hidden cards dealt" in L.problem(StealCard("cards", kinds, 1, 0, (p,)))
    assert "not hidden cards dealt" in L.problem(StealCard("cards", kinds, 1, 0, (11,)))  # still in the deck
    assert "the card kinds are" in L.problem(StealCard("cards", kinds[::-1], 1, 0, (3,)))
