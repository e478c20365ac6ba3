"""Every card's symbols, left to right: each does what the symbol says, in
printed order, and each except the random event may be skipped."""
from __future__ import annotations

import pytest

from ankh.core.morpork.catalog import CARDS
from ankh.core.morpork.turn import SYMBOL_PROMPTS
from ankh.core.morpork.model import AREA_INDEX, COLOURS

from .cards import game

PLAYABLE = [c for c in CARDS if "interrupt" not in c]

POSITION = """
money red: 40
area the-hippo: red
area the-shades: red yellow yellow trouble
area the-scours: red yellow yellow trouble
area dolly-sisters: red yellow trouble
"""


def use_symbols(card: dict, skip: bool = False):
    """Play ``card`` as red and use (or skip) each symbol; check each effect."""
    sc = game(red=[card["id"]], extra=POSITION, events=("riots",))
    sc.do(f"red: play {card['id']}")
    s = sc.s
    kills = iter([("the-shades", "yellow"), ("the-scours", "yellow")])
    for sym in card["symbols"]:
        if sym.startswith("money:"):
            # Taken without a decision: check it arrived.
            continue
        if sym == "event":
            assert s.events_done, "the random event must be drawn"
            continue
        if sym == "play_another":
            if sc.waiting == "red:another":
                sc.do("red: stop")
            continue
        if sc.waiting != "red:action" or not s.pending.prompt.endswith(SYMBOL_PROMPTS[sym]):
            continue  # nothing could be done with this symbol: skipped without asking
        if skip:
            sc.do("red: skip")
            continue
        if sym == "minion":
            before = sc.minions("nap-hill", "red")
            sc.do("red: minion nap-hill")
            assert sc.minions("nap-hill", "red") == before + 1
        elif sym == "building":
            sc.do("red: build the-hippo")
            assert sc.building("the-hippo") == "red"
            assert s.city_owner[AREA_INDEX["the-hippo"]] == COLOURS.index("red")
        elif sym == "assassinate":
            area, who = next(kills)
            before = sc.minions(area, who)
            sc.do(f"red: assassinate {area} {who}")
            assert sc.minions(area, who) == before - 1
            assert not sc.trouble(area), "a removal takes the trouble marker away"
        elif sym == "remove_trouble":
            area = next(a for a in ("dolly-sisters", "the-scours", "the-shades") if sc.trouble(a))
            sc.do(f"red: remove-trouble {area}")
            assert not sc.trouble(area)
        elif sym == "scroll":
            sc.do("red: skip")
    return sc


@pytest.mark.parametrize("card", PLAYABLE, ids=[c["id"] for c in PLAYABLE])
def test_symbols_do_what_they_say(card):
    start_money = 40
    sc = use_symbols(card)
    money = sum(int(sym[6:]) for sym in card["symbols"] if sym.startswith("money:"))
    built = 12 if "building" in card["symbols"] else 0
    if card["id"] == "the-royal-mint" or "building" in card["symbols"]:
        assert sc.building("the-hippo") == "red"
    assert sc.money("red") == start_money + money - built
    assert card["id"] in [sc.s.card[h] for h in sc.s.discard] or sc.s.loans[0] or sc.s.penalties[1]


@pytest.mark.parametrize("card", PLAYABLE, ids=[c["id"] for c in PLAYABLE])
def test_every_symbol_but_the_event_may_be_skipped(card):
    sc = use_symbols(card, skip=True)
    s = sc.s
    assert sc.building("the-hippo") is None
    assert sc.minions("the-shades", "yellow") == 2 and sc.minions("the-scours", "yellow") == 2
    assert sc.trouble("dolly-sisters")
    assert bool(s.events_done) == ("event" in card["symbols"])


def test_symbols_follow_printed_order():
    # The Agony Aunts: assassinate, then $2, then a minion: the money arrives
    # only after the assassination has been decided.
    sc = game(red=["the-agony-aunts"], extra=POSITION)
    sc.do("red: play the-agony-aunts")
    assert sc.options()[0].startswith("assassinate")
    assert sc.money("red") == 40
    sc.do("red: assassinate the-shades yellow")
    assert sc.money("red") == 42
    assert sc.options()[0].startswith("minion")


def test_peeled_nuts_is_a_legal_play_that_does_nothing():
    sc = game(red=["the-peeled-nuts"])
    before = sc.s.copy()
    sc.do("red: play the-peeled-nuts")
    assert sc.waiting == "yellow:turn"
    assert sc.s.minions == before.minions and sc.money("red") == 10


def test_interrupt_cards_cannot_be_the_turns_card():
    sc = game(red=["gaspode", "susan"])
    assert "play gaspode" not in sc.options()
    assert "play susan" not in sc.options()


def test_holding_only_interrupts_means_passing_then_refilling():
    sc = game(red=["gaspode", "susan", "igor", "fresh-start-club", "wallace-sonky"])
    # Passing is red's only option, so it is taken at once.
    assert "red passes" in sc.log_text()
    assert len(sc.hand("red")) == 5  # nothing played, so nothing drawn
    assert sc.waiting == "yellow:turn"


def test_play_another_chains_and_refill_to_five():
    sc = game(red=["pink-pussy-cat-club", "sergeant-angua", "groat"])
    sc.do("red: play pink-pussy-cat-club", "red: play sergeant-angua",
          "red: remove-trouble the-shades", "red: play groat", "red: minion the-hippo")
    assert sc.money("red") == 13
    assert len(sc.hand("red")) == 5
    assert sc.waiting == "yellow:turn"


def test_refill_draws_nothing_above_five():
    sc = game(red=["hex"], deck=["groat", "dwarves", "ruby", "mr-gryle"])
    sc.do("red: play hex", "red: scroll")
    # Hex's building symbol cannot be used (trouble everywhere red stands).
    assert sc.waiting == "yellow:turn"
    assert {"groat", "dwarves", "ruby"} <= set(sc.hand("red")) and "mr-gryle" not in sc.hand("red")
    assert len(sc.hand("red")) == 7
