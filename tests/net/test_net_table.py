"""Honest games at 2, 3 and 4 seats: every step works, and every seat knows
exactly what it should -- no more (checked by trying to unlock every hidden
card with the seat's own material), no less."""

from __future__ import annotations

import random

import pytest
from ankh.net.wire.errors import LocalProtocolError
from ankh.net.play.ops import Deal
from ankh.net.play.seat import CardSeen, StepDone
from ankh.net.files.verify import verify_transcript

from .nethelp import attempt_unlock, full_decks, small_decks, table


def play(players: int, rng: random.Random):
    """A scripted game; returns (table, what each seat should know, public positions)."""
    t = table(players, seed=b"honest-%d" % players, decks=full_decks(players))
    should: dict[int, set[tuple[str, int]]] = {s: set() for s in range(players)}
    public: set[tuple[str, int]] = set()
    hands: dict[int, list[int]] = {s: [] for s in range(players)}

    def give(seat: int, deck: str, positions) -> None:
        for p in positions:
            should[seat].add((deck, p))

    for s in range(players):
        hand = t.deal("player", s, 5)
        hands[s].extend(hand)
        give(s, "player", hand)
        give(s, "personalities", t.deal("personalities", s))
    faces = [t.roll(f"roll-{i}") for i in range(12)]
    assert all(1 <= f <= 12 for f in faces)
    for p in t.draw("events", 2):
        public.add(("events", p))

    for turn in range(3 * players):
        actor = turn % players
        # play a card face up
        played = hands[actor].pop(rng.randrange(len(hands[actor])))
        revealed = t.reveal("player", [played])
        assert revealed[played] == t.known(actor, "player", played)
        public.add(("player", played))
        # draw back up
        new = t.deal("player", actor)
        hands[actor].extend(new)
        give(actor, "player", new)
        other = (actor + 1) % players
        if turn % 3 == 0 and hands[actor]:
            # a gift: actor passes a hidden card to the next seat
            gift = hands[actor].pop(0)
            seen = t.pass_cards("player", [gift], other)
            assert seen[gift] == t.known(actor, "player", gift)
            hands[other].append(gift)
            give(other, "player", [gift])
        elif turn % 3 == 1 and hands[other]:
            # a steal at random from the next seat's hand
            (i,) = t.pick(1, len(hands[other]), f"steal-{turn}")
            stolen = hands[other].pop(i)
            t.pass_cards("player", [stolen], actor)
            hands[actor].append(stolen)
            give(actor, "player", [stolen])
        else:
            # look at the next seat's hand
            t.look("player", hands[other], actor)
            give(actor, "player", hands[other])
    # the last seat looks at the unused personalities
    unused = list(range(players, len(t.ledger.deck("personalities").spec.cards)))
    t.look("personalities", unused, players - 1)
    give(players - 1, "personalities", unused)
    return t, should, public


@pytest.mark.parametrize("players", [2, 3, 4])
def test_honest_game_and_exact_knowledge(players: int) -> None:
    t, should, public = play(players, random.Random(players))
    attempts = {}
    for s in range(players):
        for name, d in t.ledger.decks.items():
            for p in range(d.size):
                attempts[s, name, p] = (attempt_unlock(t, s, name, p), t.known(s, name, p))
    # every seat holds the same public log
    logs = {t.transcript(s).to_bytes() for s in range(players)}
    assert len(logs) == 1
    outcome = t.audit()
    assert outcome.fair, outcome.violations
    assert set(outcome.decks) == {"player", "personalities", "events"}
    for name, order in outcome.decks.items():
        assert sorted(order) == sorted(t.ledger.deck(name).spec.cards)
    for (s, name, p), (tried, known) in attempts.items():
        if (name, p) in should[s] or (name, p) in public:
            assert tried == outcome.decks[name][p], (s, name, p)
            assert known == outcome.decks[name][p], (s, name, p)
        else:
            assert tried is None, f"seat {s} can unlock {name}[{p}]"
            assert known is None
    report = verify_transcript(t.transcript().to_bytes())
    assert report.fair, report.violations
    assert report.seats == t.names
    assert report.rolls == 12 + sum(1 for op in t.ledger.history if type(op).__name__ == "Pick")
    assert report.dealt == t.ledger.dealt > 0
    assert report.revealed == len(public)
    sizes = {"player": 101, "personalities": 7, "events": 12} if players > 2 else {"player": 99, "personalities": 6}
    assert dict(report.decks) == {"events": 12, **sizes}


def test_two_player_decks_are_smaller() -> None:
    decks = {d.name: d for d in full_decks(2)}
    assert decks["player"].size == 99
    assert [len(s) for s in decks["player"].segments] == [48, 51]
    assert decks["personalities"].size == 6


def test_green_cards_come_before_brown() -> None:
    t = table(2, seed=b"segments", decks=small_decks())
    outcome = t.audit()
    order = outcome.decks["player"]
    assert all(c.startswith("g") for c in order[:6]) and all(c.startswith("b") for c in order[6:])


def test_seats_agree_on_dice_and_picks_and_renew_chains() -> None:
    t = table(2, seed=b"dice", chain_length=4)
    faces = [t.roll(f"r{i}") for i in range(30)]
    picks = [t.pick(3, 7, f"p{i}") for i in range(5)]
    assert all(1 <= f <= 12 for f in faces) and len(set(faces)) > 5
    for pick in picks:
        assert len(set(pick)) == 3 and all(0 <= i < 7 for i in pick)
    for s in t.seats:
        assert s.ledger.results == t.seats[0].ledger.results
        assert s.ledger.chains[0].generation >= 8  # 35 reveals on chains of 4
    report = verify_transcript(t.transcript().to_bytes())
    assert report.violations == () and report.status == "incomplete"  # no audit yet


def test_events_are_sans_io() -> None:
    t = table(2, seed=b"events", decks=small_decks())
    a, b = t.seats
    op = Deal("player", 1, (0,))
    a.request(op)
    b.request(op)
    events = []
    for frame in a.data_to_send():
        events += b.receive(frame, via=0)
    assert [type(e) for e in events] == [StepDone, CardSeen]
    assert events[0].result == (0,)
    assert events[1].card == b.card("player", 0)
    assert a.card("player", 0) is None
    assert b.data_to_send() == [] and not b.busy()


def test_impossible_requests_are_local_errors() -> None:
    t = table(2, seed=b"local", decks=small_decks())
    with pytest.raises(LocalProtocolError):
        t.deal("nope", 0)
    with pytest.raises(LocalProtocolError):
        t.pick(3, 2, "too many")
    t.deal("personalities", 0, 7)
    with pytest.raises(LocalProtocolError):
        t.deal("personalities", 1)  # the deck is exhausted
    t.audit()
    with pytest.raises(LocalProtocolError):
        t.roll("after the end")


def test_revealing_the_top_card_takes_it_off_the_deck() -> None:
    t = table(2, seed=b"top", decks=small_decks())
    assert t.deal("player", 0, 2) == (0, 1)
    assert list(t.reveal("player", [2])) == [2]  # the top card, turned face up
    assert t.deal("player", 1) == (3,)
    t.reveal("player", [7])  # a card deep in the deck does not move the top
    assert t.deal("player", 1) == (4,)
    assert t.draw("player", 2).keys() == {5, 6}
    assert t.deal("player", 0) == (8,)
