"""Adversarial edge cases of the rules (RULES.md §3-§12, ambiguities A1-A29).

Each test states the rule it checks.  Tests that fail point at engine bugs.
"""
from __future__ import annotations

import pytest

from ankh.core.morpork.scoring import score_parts
from ankh.core.morpork.model import AREA_INDEX
from ankh.core.morpork.state import handles

from .cards import game
from .helpers import check_invariants

RED, YELLOW, GREEN = 0, 1, 2
A = AREA_INDEX
QUIET2 = "personality red: dragon-king-of-arms\npersonality yellow: lord-vetinari"


def discard_ids(sc):
    return [sc.s.card[h] for h in sc.s.discard]


# --- Doctor Mossy Lawn ---------------------------------------------------------------------------


def test_doctor_mossy_lawn_can_be_played_after_the_last_card_is_fully_resolved():
    # §9 / cards.json doctor-mossy-lawn: usable "during your own turn only, after you
    # have played at least one card"; §3.5: "before the refill" is a moment of your
    # own turn; A14: it returns the card played immediately before it (actions done
    # stand).  So after Groat's minion is placed, Mossy must still be offered before
    # the refill -- the engine only asks at the end of the turn when a City Area
    # card could be used (engine.t_end_phase returns early without abilities).
    sc = game(red=["groat", "doctor-mossy-lawn"])
    sc.do("red: play groat", "red: minion the-hippo")
    assert sc.waiting.startswith("red:"), sc.waiting
    assert "interrupt doctor-mossy-lawn" in sc.options()
    sc.do("red: interrupt doctor-mossy-lawn")
    assert sc.minions("the-hippo", "red") == 1  # the action stands
    assert "groat" in sc.hand("red")
    assert "doctor-mossy-lawn" in discard_ids(sc)
    assert len(sc.hand("red")) == 5 and sc.waiting == "yellow:turn"  # normal refill


def test_doctor_mossy_lawn_can_be_played_between_drumknotts_two_cards():
    # §9: Mossy is playable "at any time" of your own turn once a card was played;
    # §4: Drumknott's first extra card is resolved completely before the second
    # starts -- between them the first card is finished and Mossy (an interrupt,
    # not a played card) may take it back.  engine.t_play_extra offers plays only.
    sc = game(red=["drumknott", "groat", "doctor-mossy-lawn", "dwarves"])
    sc.do("red: play drumknott", "red: scroll", "red: play groat", "red: minion the-hippo")
    assert sc.waiting == "red:extra"
    assert "interrupt doctor-mossy-lawn" in sc.options()


# --- game end with a card still in play ----------------------------------------------------------


def test_a_loan_taken_just_before_the_game_ends_is_still_repaid():
    # Mr Bent / cards.json: the loan card is kept in front of the player and $12 must
    # be repaid at scoring (A15).  §3.5: City Area cards may be used between actions,
    # so Unreal Estate may be used after Mr Bent's scroll; drawing the last card ends
    # the game at once (A4).  The loan was taken, so it must be scored.
    sc = game(red=["mr-bent"],
              extra=QUIET2 + "\narea unreal-estate: red building=red\ndraw-pile: 1")
    sc.do("red: play mr-bent", "red: scroll", "red: ability unreal-estate")
    s = sc.s
    assert s.outcome is not None and s.outcome.detail == "draw-pile"
    check_invariants(s)
    assert [s.card[h] for h in s.loans[RED]] == ["mr-bent"]
    assert score_parts(s, RED)[3] == -12


# --- interrupts against forced removals ------------------------------------------------------------


def test_susan_answers_carcer_forcing_the_removal_of_your_own_minion():
    # A10: Carcer's removal is compulsory when a minion is in the rolled area, yours
    # included; A8: Susan/Igor/Fresh Start Club answer *forced* removals of your own
    # minions (only voluntary relocation is excluded); Susan's trigger (cards.json):
    # "one of your minions would be removed ... caused by anything".  Here red has no
    # choice at all (only red's minion stands in the rolled area), yet the engine
    # treats it as "your own choice" (engine.remove_minion skips the window when
    # cause is red's own text) and Susan is never offered.
    sc = game(red=["carcer", "susan"], extra="rolls: 9 12\narea longwall: red\narea nap-hill: empty")
    sc.do("red: play carcer", "red: scroll")
    assert sc.waiting == "red:window" and "interrupt susan" in sc.options()
    sc.do("red: interrupt susan")
    assert sc.minions("longwall", "red") == 1


def test_susan_answers_cosmo_lavish_forcing_the_paid_player_to_remove_their_own_minion():
    # Cosmo Lavish (cards.json): red's card forces yellow to take a minion off an area
    # with trouble (not red's).  If only yellow's own minion qualifies, yellow's
    # removal is forced by another player's card, exactly like The Auditors (which
    # the engine does guard).  Susan ("caused by anything") must be offered.  The
    # engine's effects.r_cosmo_pick passes text(yellow) as the cause -> no window.
    sc = game(red=["cosmo-lavish"], yellow=["susan"], players=3,
              extra="area the-shades: yellow trouble\narea dolly-sisters: red\n"
                    "area the-scours: green")
    sc.do("red: play cosmo-lavish", "red: scroll", "red: target yellow")
    assert sc.waiting == "yellow:window" and "interrupt susan" in sc.options()
    sc.do("yellow: interrupt susan")
    assert sc.minions("the-shades", "yellow") == 1


def test_susan_but_not_gaspode_answers_a_roll_of_one():
    # A8: a roll of 1 on Here'n'Now is a forced removal: Susan yes, Gaspode no.
    sc = game(red=["here-n-now", "susan", "gaspode"], extra="rolls: 1\narea the-scours: empty\n"
              "area dolly-sisters: empty")
    sc.do("red: play here-n-now", "red: scroll")
    assert sc.waiting == "red:window"
    assert "interrupt susan" in sc.options() and "interrupt gaspode" not in sc.options()
    sc.do("red: interrupt susan")
    assert sc.minions("the-shades", "red") == 1


def test_wallace_sonky_answers_the_auditors():
    # §9: Sonky stops the text of another player's card affecting you; The Auditors
    # is text.
    sc = game(red=["the-auditors"], yellow=["wallace-sonky"])
    sc.do("red: play the-auditors", "red: scroll", "yellow: pick the-shades yellow")
    assert sc.waiting == "yellow:window" and "interrupt wallace-sonky" in sc.options()
    sc.do("yellow: interrupt wallace-sonky")
    assert sc.minions("the-shades", "yellow") == 1


@pytest.mark.parametrize("card,moves", [
    ("the-dean", ["red: scroll", "?red: pick unreal-estate yellow"]),
    ("errol", ["red: scroll", "red: pick the-shades yellow"]),
    ("canting-crew", ["red: scroll", "red: move the-shades yellow dimwell"]),
    ("the-bursar", ["red: scroll", "red: pick the-shades yellow", "red: pick the-hippo red"]),
])
def test_gaspode_and_sonky_both_answer_another_players_card_text(card, moves):
    # §6, §9: Gaspode against a move/removal by another player's card; Sonky
    # against its text.
    sc = game(red=[card], yellow=["gaspode", "wallace-sonky"], events=("riots",),
              extra="rolls: 9\narea unreal-estate: yellow\narea the-hippo: red")
    sc.do(f"red: play {card}", *moves)
    assert sc.waiting == "yellow:window"
    assert {"interrupt gaspode", "interrupt wallace-sonky"} <= set(sc.options())


# --- Small Gods ----------------------------------------------------------------------------------------


def test_small_gods_is_not_offered_without_three_dollars():
    # §8, A9: $3 per piece; money never goes negative.
    sc = game(red=["the-dean"], events=("explosion",),
              extra="rolls: 9\narea small-gods: yellow building=yellow\n"
                    "area longwall: yellow building=yellow\nmoney yellow: 2")
    sc.do("red: play the-dean")
    assert sc.building("longwall") is None and sc.money("yellow") == 2


def test_small_gods_cannot_save_in_the_turn_it_was_built():
    # §8: no City Area card in the turn it was gained -- Small Gods included.
    sc = game(red=["drumknott", "the-royal-mint", "the-dean"], events=("explosion",),
              extra=QUIET2 + "\nrolls: 4\narea small-gods: red\nmoney red: 20")
    sc.do("red: play drumknott", "red: scroll", "red: play the-royal-mint", "red: build small-gods",
          "red: play the-dean")
    assert sc.building("small-gods") is None
    assert sc.money("red") == 20 - 18 + 5


# --- supply limits -------------------------------------------------------------------------------------


def test_mr_shine_with_twelve_minions_out_clears_the_origin_and_adds_no_trouble():
    # §1 / A5: the 13th minion comes off first (its area loses its trouble marker);
    # Mr Shine places without trouble even where a minion stands.
    twelve = " ".join(["red"] * 10)
    sc = game(red=["mr-shine"],
              extra=f"area dolly-sisters: {twelve} trouble\narea the-hippo: red red trouble\n"
                    "area the-scours: empty\narea the-shades: yellow\narea longwall: yellow")
    assert sc.s.supply[RED] == 0
    sc.do("red: play mr-shine", "red: scroll", "red: minion longwall from the-hippo")
    assert not sc.trouble("the-hippo") and not sc.trouble("longwall")
    assert sc.minions("longwall", "red") == 1 and sc.minions("the-hippo", "red") == 1
    check_invariants(sc.s)


def test_sybil_vimes_with_six_buildings_out_moves_one_and_cannot_use_the_card_this_turn():
    # A17: full cost to the owner, 6-building relocation, the bought card not usable
    # this turn (§8).
    own = "\n".join(f"area {a}: red building=red" for a in
                    ("dolly-sisters", "the-scours", "the-shades", "dimwell", "nap-hill", "longwall"))
    sc = game(red=["sybil-vimes"],
              extra=own + "\narea dragons-landing: yellow building=yellow\nmoney red: 12")
    sc.do("red: play sybil-vimes", "red: scroll", "?red: area dragons-landing",
          "red: area dimwell")
    assert sc.building("dragons-landing") == "red" and sc.building("dimwell") is None
    assert sc.money("red") == 12 + 3 - 12 and sc.money("yellow") == 10 + 12
    assert sc.s.city_owner[A["dimwell"]] == -1
    assert "ability dragons-landing" not in sc.options()
    check_invariants(sc.s)


# --- the Bursar -------------------------------------------------------------------------------------


def test_bursar_swapping_a_minion_with_a_lone_demon_brings_trouble_both_ways():
    # §5: a departure removes trouble, an arrival adds it if a minion is there; a
    # demon always brings trouble.
    sc = game(red=["the-bursar"], extra="area longwall: demon trouble\narea the-hippo: red")
    sc.do("red: play the-bursar", "red: scroll", "red: pick the-hippo red", "red: pick longwall demon")
    assert sc.s.demons[A["the-hippo"]] == 1 and sc.minions("longwall", "red") == 1
    assert sc.trouble("the-hippo") and not sc.trouble("longwall")


# --- a game ending in the middle of a chain ---------------------------------------------------------------


def test_riots_in_drumknotts_second_card_keeps_every_card_accounted_for():
    # §12: Riots with 8+ trouble ends the game at once on points; cards in play stay
    # in the game (101 cards minus the 2-player removals).
    areas = "\n".join(f"area {a}: trouble" for a in
                      ("unreal-estate", "dragons-landing", "small-gods", "the-hippo", "dimwell"))
    sc = game(red=["drumknott", "groat", "the-dean"], events=("riots",),
              extra="personality red: lord-vetinari\npersonality yellow: commander-vimes\n" + areas)
    sc.do("red: play drumknott", "red: scroll", "red: play groat", "red: minion the-hippo",
          "red: play the-dean")
    s = sc.s
    assert s.outcome is not None and s.outcome.detail == "riots"
    check_invariants(s)
    assert len(s.all_card_handles()) == 99


# --- personalities --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players,seen", [(2, 3), (3, 3), (4, 2)])
def test_mrs_cake_sees_all_unused_personalities_but_one(players, seen):
    # cards.json mrs-cake; §2: Chrysoprase is removed in 2-player games.
    sc = game(red=["mrs-cake"], players=players)
    before = len(handles(sc.s.pers_seen[RED]))
    sc.do("red: play mrs-cake", "red: scroll")
    assert len(handles(sc.s.pers_seen[RED])) - before == seen


# --- abilities timing ---------------------------------------------------------------------------------


def test_abilities_are_not_offered_while_a_card_text_is_being_resolved():
    # A25: never in the middle of resolving an action (e.g. choosing a target).
    sc = game(red=["nobby-nobbs"], players=3, extra="area dragons-landing: red building=red")
    assert "ability dragons-landing" in sc.options()
    sc.do("red: play nobby-nobbs", "red: scroll")
    assert sc.waiting == "red:target"
    assert not any(o.startswith("ability") for o in sc.options())


def test_doctor_mossy_lawn_after_a_loan_leaves_the_loan_standing():
    # A14: actions already done stand.  Mr Bent's text lays the card in front of
    # its player as it takes the loan, so Mossy Lawn cannot bring it back to hand
    # (which would keep the $10 and drop the debt).
    sc = game(red=["mr-bent", "doctor-mossy-lawn"], extra=QUIET2)
    sc.do("red: play mr-bent", "red: scroll", "red: interrupt doctor-mossy-lawn")
    s = sc.s
    assert [s.card[h] for h in s.loans[RED]] == ["mr-bent"]
    assert "mr-bent" not in sc.hand("red") and sc.money("red") == 20
    check_invariants(s)
