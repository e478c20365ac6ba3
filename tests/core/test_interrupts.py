"""The six interrupt cards, and how their windows open."""
from __future__ import annotations

from ankh.core.morpork.model import COLOURS

from .cards import game

RED, YELLOW, GREEN = 0, 1, 2


def test_gaspode_stops_an_assassination():
    sc = game(red=["mr-gryle"], yellow=["gaspode"])
    sc.do("red: play mr-gryle", "red: assassinate the-shades yellow")
    assert sc.waiting == "yellow:window"
    assert "interrupt gaspode" in sc.options()
    sc.do("yellow: interrupt gaspode")
    assert sc.minions("the-shades", "yellow") == 1
    assert "gaspode" in [sc.s.card[h] for h in sc.s.discard]
    assert len(sc.hand("yellow")) == 4  # no replacement until yellow's own refill


def test_deaths_two_assassinations_against_one_gaspode():
    # FAQ: one Gaspode stops only the first; the second may hit the same minion.
    sc = game(red=["death"], yellow=["gaspode"],
              extra="area the-shades: red yellow yellow trouble")
    sc.do("red: play death", "red: assassinate the-shades yellow", "yellow: interrupt gaspode")
    assert sc.minions("the-shades", "yellow") == 2 and sc.trouble("the-shades")
    sc.do("red: assassinate the-shades yellow")
    assert sc.minions("the-shades", "yellow") == 1


def test_susan_cancels_a_removal_even_by_an_event():
    sc = game(red=["the-dean"], yellow=["susan"], events=("the-dragon",),
              extra="rolls: 7\narea the-shades: yellow")
    sc.do("red: play the-dean")
    assert sc.waiting == "yellow:window" and "interrupt susan" in sc.options()
    assert "interrupt gaspode" not in sc.options()
    sc.do("yellow: interrupt susan")
    assert sc.minions("the-shades", "yellow") == 1


def test_gaspode_is_not_offered_against_a_random_event():
    # A7: Gaspode answers another player's card only.
    sc = game(red=["the-dean"], yellow=["gaspode"], events=("the-dragon",),
              extra="rolls: 7\narea the-shades: yellow")
    sc.do("red: play the-dean")
    assert sc.minions("the-shades", "yellow") == 0  # no window: nothing could answer


def test_igor_moves_the_minion_instead_under_the_placement_rule():
    sc = game(red=["mr-gryle"], yellow=["igor"],
              extra="area the-shades: yellow trouble\narea the-scours: empty\narea dolly-sisters: yellow")
    sc.do("red: play mr-gryle", "red: assassinate the-shades yellow", "yellow: interrupt igor")
    # A6: a different area, next to (or with) one of yellow's minions
    opts = set(sc.options())
    assert "minion the-shades" not in opts
    assert "minion nap-hill" in opts and "minion longwall" not in opts
    sc.do("yellow: minion nap-hill")
    assert sc.minions("nap-hill", "yellow") == 1 and sc.minions("the-shades", "yellow") == 0
    assert not sc.trouble("the-shades")


def test_fresh_start_club_works_like_igor():
    sc = game(red=["mr-gryle"], yellow=["fresh-start-club"])
    sc.do("red: play mr-gryle", "red: assassinate the-shades yellow",
          "yellow: interrupt fresh-start-club", "yellow: minion the-hippo")
    assert sc.minions("the-hippo", "yellow") == 1 and sc.minions("the-shades", "yellow") == 0
    assert sc.s.supply[YELLOW] == 9


def test_wallace_sonky_stops_text():
    sc = game(red=["the-thieves-guild"], yellow=["wallace-sonky"])
    sc.do("red: play the-thieves-guild", "red: scroll")
    assert sc.waiting == "yellow:window"
    sc.do("yellow: interrupt wallace-sonky")
    assert sc.money("yellow") == 10 and sc.money("red") == 10


def test_wallace_sonky_protects_only_its_player():
    sc = game(red=["the-thieves-guild"], yellow=["wallace-sonky"], players=3)
    sc.do("red: play the-thieves-guild", "red: scroll", "yellow: interrupt wallace-sonky")
    assert sc.money("yellow") == 10 and sc.money("green") == 8 and sc.money("red") == 12


def test_wallace_sonky_does_not_stop_symbols():
    sc = game(red=["mr-gryle"], yellow=["wallace-sonky"])
    sc.do("red: play mr-gryle", "red: assassinate the-shades yellow")
    # yellow's window had only "pass": applied without asking
    assert sc.minions("the-shades", "yellow") == 0


def test_wallace_sonky_stops_a_move_by_text():
    sc = game(red=["the-duckman"], yellow=["wallace-sonky"])
    sc.do("red: play the-duckman", "red: scroll", "red: move the-shades yellow dimwell",
          "yellow: interrupt wallace-sonky")
    assert sc.minions("the-shades", "yellow") == 1 and sc.minions("dimwell", "yellow") == 0


def test_gaspode_stops_a_move_by_another_players_card():
    sc = game(red=["foul-ole-ron"], yellow=["gaspode"])
    sc.do("red: play foul-ole-ron", "red: scroll", "red: move the-shades yellow dimwell",
          "yellow: interrupt gaspode")
    assert sc.minions("the-shades", "yellow") == 1


def test_windows_are_asked_whether_or_not_an_interrupt_is_held():
    # Yellow holds no interrupt, but has cards: an engine that cannot see
    # yellow's hand must ask all the same, so asking leaks nothing.  Here the
    # local engine knows yellow holds nothing, so the window shows one option.
    sc = game(red=["mr-gryle"], yellow=["groat"])
    s = sc.s.copy()
    from ankh.core.morpork.windows import t_guard
    s.push(lambda st: None)
    t_guard(s, YELLOW, "remove", ("symbol", RED), 6)
    assert s.pending.seat == YELLOW and s.pending.options == (("pass",),)


def test_doctor_mossy_lawn_ends_the_turn_and_takes_back_the_card():
    sc = game(red=["mr-boggis", "doctor-mossy-lawn", "groat"])
    sc.do("red: play mr-boggis", "red: scroll")
    assert "interrupt doctor-mossy-lawn" in sc.options()
    sc.do("red: interrupt doctor-mossy-lawn")
    # the Thieves'-style money stays; the minion symbol is forfeited
    assert sc.money("red") == 12
    assert "mr-boggis" in sc.hand("red")
    assert "doctor-mossy-lawn" in [sc.s.card[h] for h in sc.s.discard]
    # A14: the turn ends with the normal refill
    assert len(sc.hand("red")) == 5 and sc.waiting == "yellow:turn"


def test_doctor_mossy_lawn_needs_a_card_played_first():
    sc = game(red=["doctor-mossy-lawn", "groat"])
    assert "interrupt doctor-mossy-lawn" not in sc.options()
    assert "play doctor-mossy-lawn" not in sc.options()


def test_interrupt_cards_return_nothing_until_own_refill():
    sc = game(red=["mr-gryle"], yellow=["gaspode"])
    sc.do("red: play mr-gryle", "red: assassinate the-shades yellow", "yellow: interrupt gaspode")
    assert len(sc.hand("yellow")) == 4
    assert COLOURS[sc.s.current] == "yellow"
