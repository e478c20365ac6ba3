"""Every card's text (the scroll symbol): one test per card at least."""
from __future__ import annotations

import pytest

from ankh.core.morpork.catalog import CARDS
from ankh.core.morpork.model import AREA_INDEX

from .cards import game

RED, YELLOW, GREEN = 0, 1, 2


def play_to_scroll(sc, card: str) -> None:
    """Red plays ``card`` and skips its symbols up to the scroll."""
    sc.do(f"red: play {card}")
    while "scroll" not in sc.options():
        sc.do("red: skip")


def cards_of(kind: str) -> list[str]:
    return [c["id"] for c in CARDS if c.get("effect") == kind]


def test_every_scroll_card_is_covered_here():
    tested = set()
    for name, obj in globals().items():
        marks = getattr(obj, "pytestmark", [])
        for m in marks:
            if m.name == "parametrize" and m.args[0] == "card":
                tested |= set(m.args[1])
    for name in globals():
        if name.startswith("test_") and "__" in name:
            tested.add(name.split("__", 1)[1].replace("_", "-"))
    scroll_cards = {c["id"] for c in CARDS if "effect" in c}
    assert scroll_cards <= tested, sorted(scroll_cards - tested)


# --- money ------------------------------------------------------------------------------------


@pytest.mark.parametrize("card", cards_of("take_loan"))
def test_loan_gives_ten_and_stays_in_front(card):
    sc = game(red=[card])
    sc.do(f"red: play {card}", "red: scroll", "red: stop")
    assert sc.money("red") == 20
    assert [sc.s.card[h] for h in sc.s.loans[RED]] == [card]
    assert card not in [sc.s.card[h] for h in sc.s.discard]
    assert len(sc.hand("red")) == 5  # the loan is not part of the hand


@pytest.mark.parametrize("card", cards_of("gain_money_per_trouble_marker"))
def test_money_per_trouble_marker(card):
    sc = game(red=[card], extra="area nap-hill: yellow trouble")
    play_to_scroll(sc, card)
    sc.do("red: scroll")
    assert sc.money("red") == 10 + 4  # three starting markers and Nap Hill


@pytest.mark.parametrize("card", cards_of("gain_money_per_minion_in_area"))
def test_money_per_minion_in_isle_of_gods(card):
    sc = game(red=[card], extra="area isle-of-gods: red yellow yellow troll demon")
    sc.do(f"red: play {card}")
    if sc.waiting == "red:action" and "build" in sc.options()[0]:
        sc.do("red: skip")
    sc.do("red: scroll")
    assert sc.money("red") == 10 + 5  # A26: trolls and demons count


@pytest.mark.parametrize("card", cards_of("gain_money_per_building_on_board"))
def test_money_per_building(card):
    sc = game(red=[card], extra="area nap-hill: yellow building=yellow\narea longwall: red building=red")
    sc.do(f"red: play {card}", "red: scroll")
    assert sc.money("red") == 12


def test_text__mr_slant():
    sc = game(red=["mr-slant"], extra="area nap-hill: red yellow troll demon trouble")
    sc.do("red: play mr-slant", "red: scroll", "?red: area nap-hill")
    assert sc.money("red") == 10 + 2 * 4


@pytest.mark.parametrize("card", cards_of("steal_money_from_each_other_player"))
def test_every_other_player_pays_two_or_what_they_have(card):
    sc = game(red=[card], players=3, extra="money green: 1")
    sc.do(f"red: play {card}", "red: scroll")
    assert (sc.money("red"), sc.money("yellow"), sc.money("green")) == (13, 8, 0)


def test_text__nobby_nobbs():
    sc = game(red=["nobby-nobbs"], extra="money yellow: 2")
    sc.do("red: play nobby-nobbs", "red: scroll", "?red: target yellow")
    assert (sc.money("red"), sc.money("yellow")) == (12, 0)  # A18: all they have


def test_text__hubert():
    sc = game(red=["hubert"], players=3)
    sc.do("red: play hubert", "red: scroll", "?red: target yellow", "?red: target green")
    assert (sc.money("red"), sc.money("yellow"), sc.money("green")) == (10, 7, 13)


def test_hubert_cannot_make_you_pay_or_be_paid():
    sc = game(red=["hubert"], players=3)
    sc.do("red: play hubert", "red: scroll")
    assert "target red" not in sc.options()


# --- cards between hands ---------------------------------------------------------------------------


@pytest.mark.parametrize("card", cards_of("target_gives_cards"))
def test_target_chooses_two_cards_to_hand_over(card):
    sc = game(red=[card], yellow=["groat", "dwarves"])
    play_to_scroll(sc, card)
    sc.do("red: scroll", "?red: target yellow")
    assert sc.waiting == "yellow:give"
    sc.do("yellow: give groat", "yellow: give dwarves")
    assert {"groat", "dwarves"} <= set(sc.hand("red"))
    assert len(sc.hand("yellow")) == 3


def test_text__the_ankh_morpork_sunshine_dragon_sanctuary():
    sc = game(red=["the-ankh-morpork-sunshine-dragon-sanctuary"], yellow=["groat"], players=3)
    sc.do("red: play the-ankh-morpork-sunshine-dragon-sanctuary", "red: scroll")
    sc.do("yellow: give groat", "green: pay 1")
    assert "groat" in sc.hand("red")
    assert sc.money("red") == 11 and sc.money("green") == 9


@pytest.mark.parametrize("card", cards_of("give_card_receive_money"))
def test_give_a_card_and_be_paid_two(card):
    sc = game(red=[card, "groat"], extra="money yellow: 1")
    play_to_scroll(sc, card)
    sc.do("red: scroll", "?red: target yellow", "red: give groat")
    assert "groat" in sc.hand("yellow")
    assert sc.money("red") == 11 and sc.money("yellow") == 0


def test_text__stanley():
    sc = game(red=["stanley"], yellow=["groat", "dwarves", "ruby", "mr-gryle", "hex"])
    sc.do("red: play stanley", "red: scroll", "?red: target yellow")
    taken = [c for c in sc.hand("red") if c in ("groat", "dwarves", "ruby", "mr-gryle", "hex")]
    assert len(taken) == 2 and sc.waiting == "red:give"
    sc.do(f"red: give {taken[0]}")
    assert taken[1] in sc.hand("red") and taken[0] in sc.hand("yellow")
    assert len(sc.hand("yellow")) == 4


def test_text__cable_street_particulars():
    sc = game(red=["cable-street-particulars"], yellow=["groat", "dwarves", "ruby", "mr-gryle", "hex"])
    sc.do("red: play cable-street-particulars", "red: scroll", "?red: target yellow")
    # red now knows yellow's hand, and picks the card to discard
    assert set(sc.options()) == {f"discard {c}" for c in ("groat", "dwarves", "ruby", "mr-gryle", "hex")}
    sc.do("red: discard hex")
    assert "hex" not in sc.hand("yellow")
    assert sc.s.card[sc.s.discard[-1]] == "hex"


def test_text__the_chair_of_indefinite_studies():
    sc = game(red=["the-chair-of-indefinite-studies", "groat"], yellow=["dwarves", "ruby"])
    mine = set(sc.hand("red")) - {"the-chair-of-indefinite-studies"}
    theirs = set(sc.hand("yellow"))
    sc.do("red: play the-chair-of-indefinite-studies", "red: scroll", "?red: target yellow")
    assert set(sc.hand("red")) == theirs
    assert set(sc.hand("yellow")) == mine


@pytest.mark.parametrize("card", cards_of("pay_or_receive_penalty_card"))
def test_penalty_card_unless_paid(card):
    sc = game(red=[card, "groat"])
    sc.do(f"red: play {card}", "red: scroll", "?red: target yellow")
    assert set(sc.options()) == {"pay 5", "accept"}
    sc.do("yellow: accept")
    if sc.waiting == "red:action":
        sc.do("red: skip")
    assert [sc.s.card[h] for h in sc.s.penalties[YELLOW]] == [card]
    # Yellow refills to five counting the penalty card: four in hand.
    sc.do("yellow: play " + sc.hand("yellow")[0])
    while sc.waiting.startswith("yellow"):
        sc.do("yellow: skip" if "skip" in sc.options() else "yellow: stop")
    assert len(sc.hand("yellow")) == 4


@pytest.mark.parametrize("card", cards_of("pay_or_receive_penalty_card"))
def test_penalty_card_can_be_bought_off(card):
    sc = game(red=[card])
    sc.do(f"red: play {card}", "red: scroll", "?red: target yellow", "yellow: pay 5")
    assert sc.money("red") == 15 and sc.money("yellow") == 5
    assert not sc.s.penalties[YELLOW]


def test_text__the_fire_brigade():
    sc = game(red=["the-fire-brigade"], extra="area nap-hill: yellow building=yellow")
    sc.do("red: play the-fire-brigade", "red: scroll", "?red: target yellow", "yellow: refuse",
          "?red: area nap-hill")
    assert sc.building("nap-hill") is None
    assert sc.s.city_owner[AREA_INDEX["nap-hill"]] == -1


def test_fire_brigade_can_be_paid_off():
    sc = game(red=["the-fire-brigade"], extra="area nap-hill: yellow building=yellow")
    sc.do("red: play the-fire-brigade", "red: scroll", "?red: target yellow", "yellow: pay 5")
    assert sc.building("nap-hill") == "yellow" and sc.money("red") == 15


# --- drawing and discarding ----------------------------------------------------------------------------


@pytest.mark.parametrize("card", cards_of("draw_cards"))
def test_draw_cards(card):
    n = next(c for c in CARDS if c["id"] == card)["params"]["count"]
    deck = ["groat", "dwarves", "ruby", "mr-gryle"][:n]
    sc = game(red=[card], deck=deck)
    play_to_scroll(sc, card)
    sc.do("red: scroll")
    assert set(deck) <= set(sc.hand("red"))


def test_text__gargoyles():
    sc = game(red=["gargoyles"], deck=["groat", "dwarves"],
              extra="area nap-hill: red building=red\narea longwall: red building=red")
    sc.do("red: play gargoyles", "red: scroll")
    assert {"groat", "dwarves"} <= set(sc.hand("red"))


@pytest.mark.parametrize("card", cards_of("discard_cards"))
def test_discard_one_card(card):
    sc = game(red=[card, "groat"], extra="area the-shades: red yellow trouble")
    play_to_scroll(sc, card)
    sc.do("red: scroll", "red: discard groat")
    assert "groat" not in sc.hand("red")
    assert "groat" in [sc.s.card[h] for h in sc.s.discard]


@pytest.mark.parametrize("card", cards_of("discard_any_for_money"))
def test_discard_any_number_for_money(card):
    per = next(c for c in CARDS if c["id"] == card)["params"]["per_card"]
    sc = game(red=[card, "groat", "dwarves"])
    play_to_scroll(sc, card)
    sc.do("red: scroll", "red: discard groat", "red: discard dwarves", "red: done")
    assert sc.money("red") == 10 + 2 * per


def test_text__the_alchemists_guild():
    sc = game(red=["the-alchemists-guild", "groat", "dwarves"], deck=["hex", "ruby", "mr-gryle"])
    sc.do("red: play the-alchemists-guild", "red: scroll", "red: discard groat",
          "red: discard dwarves", "red: done")
    # four cards in hand after playing: two discarded, back up to five at once
    assert {"hex", "ruby", "mr-gryle"} <= set(sc.hand("red"))
    assert len(sc.hand("red")) == 5


def test_text__history_monks():
    sc = game(red=["history-monks", "groat"], yellow=["dwarves"])
    sc.do("red: play history-monks", "red: skip")  # scroll impossible: the discard pile is empty
    sc.do("yellow: play dwarves", "yellow: skip", "yellow: skip")
    sc2 = game(red=["history-monks"], extra="draw-pile: 60")
    discard = [sc2.s.card[h] for h in sc2.s.discard]
    sc2.do("red: play history-monks", "red: scroll")
    got = set(sc2.hand("red")) & set(discard)
    assert len(got) == 4
    assert len(sc2.s.discard) == len(discard) - 4


@pytest.mark.parametrize("card", cards_of("play_additional_cards"))
def test_play_two_more_cards(card):
    sc = game(red=[card, "pink-pussy-cat-club", "groat", "dwarves"])
    sc.do(f"red: play {card}", "red: scroll")
    assert sc.waiting == "red:extra" and "skip" not in sc.options()  # A20: compulsory
    # the first extra card's own chain comes before the second extra card
    sc.do("red: play pink-pussy-cat-club", "red: play groat", "red: minion the-hippo")
    assert sc.waiting == "red:extra"
    sc.do("red: play dwarves", "red: skip", "red: skip")
    assert sc.money("red") == 13 and sc.minions("the-hippo", "red") == 1
    assert sc.waiting == "yellow:turn"


# --- personalities ------------------------------------------------------------------------------------


def test_text__zorgo_the_retro_phrenologist():
    sc = game(red=["zorgo-the-retro-phrenologist"], extra="personality red: lord-vetinari")
    old = sc.s.personality[RED]
    sc.do("red: play zorgo-the-retro-phrenologist", "red: scroll")
    new = sc.s.personality[RED]
    assert new != old and old in sc.s.unused_pers
    assert sc.s.pers[new] != "lord-vetinari"
    assert sc.s.sees_personality(RED, new) and not sc.s.sees_personality(YELLOW, new)


def test_text__mrs_cake():
    sc = game(red=["mrs-cake"], players=3)
    sc.do("red: play mrs-cake", "red: scroll")
    seen = [h for h in sc.s.unused_pers if sc.s.sees_personality(RED, h)]
    assert len(seen) == len(sc.s.unused_pers) - 1  # all but one, kept hidden
    assert not any(sc.s.sees_personality(YELLOW, h) for h in sc.s.unused_pers)


# --- minions: placing, moving, removing --------------------------------------------------------------


def test_text__willikins():
    sc = game(red=["willikins"], extra="area longwall: building=red")
    sc.do("red: play willikins", "red: scroll")
    # the only area with a red building: placed without a question
    assert sc.minions("longwall", "red") == 1


def test_text__the_senior_wrangler():
    sc = game(red=["the-senior-wrangler"])
    sc.do("red: play the-senior-wrangler", "red: scroll")
    allowed = {f"minion {a}" for a in ("unreal-estate", "dolly-sisters", "dragons-landing",
                                        "small-gods", "isle-of-gods", "seven-sleepers", "nap-hill")}
    assert set(sc.options()) == allowed


def test_text__archchancellor_ridcully():
    sc = game(red=["archchancellor-ridcully"])
    sc.do("red: play archchancellor-ridcully", "red: scroll", "red: minion seven-sleepers")
    assert "done" in sc.options()  # the second minion is optional
    sc.do("red: minion seven-sleepers")
    assert sc.minions("seven-sleepers", "red") == 2 and sc.trouble("seven-sleepers")


@pytest.mark.parametrize("card", cards_of("place_minion"))
def test_placement_rules_of_cards(card):
    rule = next(c for c in CARDS if c["id"] == card)["params"]["where"]
    sc = game(red=[card], extra="area longwall: yellow\narea nap-hill: building=red")
    sc.do(f"red: play {card}", "red: scroll")
    opts = set(sc.options())
    if rule == "any":
        assert len(opts) == 12
        sc.do("red: minion longwall")
        assert not sc.trouble("longwall")  # Mr Shine / Deep Dwarves: no trouble
    elif rule == "area_with_trouble":
        assert opts == {"minion dolly-sisters", "minion the-scours", "minion the-shades"}
    elif rule == "area_with_own_building":
        assert sc.minions("nap-hill", "red") == 1  # the only choice, made at once
    else:
        assert "minion longwall" not in opts and "minion unreal-estate" in opts


def test_text__the_smoking_gnu():
    sc = game(red=["the-smoking-gnu"])
    sc.do("red: play the-smoking-gnu", "red: scroll", "red: minion the-shades")
    assert sc.minions("the-shades", "red") == 2


def test_text__mr_shine():
    sc = game(red=["mr-shine"], extra="area nap-hill: yellow")
    sc.do("red: play mr-shine", "red: scroll", "red: minion nap-hill")
    assert sc.minions("nap-hill", "red") == 1 and not sc.trouble("nap-hill")


def test_text__deep_dwarves():
    sc = game(red=["deep-dwarves"], extra="area nap-hill: yellow")
    sc.do("red: play deep-dwarves", "red: scroll", "red: minion nap-hill")
    assert not sc.trouble("nap-hill")


def test_text__rincewind():
    sc = game(red=["rincewind"])
    sc.do("red: play rincewind", "red: scroll")
    # from an area with trouble to a neighbouring area
    assert "move the-shades red dimwell" in sc.options()
    assert not any(o.startswith("move the-shades red nap-hill") for o in sc.options())
    sc.do("red: move the-shades red dimwell")
    assert sc.minions("dimwell", "red") == 1 and not sc.trouble("the-shades")


@pytest.mark.parametrize("card", ["dorfl", "adora-belle-dearheart"])
def test_move_own_minion_anywhere(card):
    sc = game(red=[card])
    sc.do(f"red: play {card}", "red: scroll", "red: move the-shades red nap-hill")
    assert sc.minions("nap-hill", "red") == 1 and sc.minions("the-shades", "red") == 0
    assert not sc.trouble("the-shades")


@pytest.mark.parametrize("card", cards_of("move_other_minion"))
def test_move_another_players_minion(card):
    sc = game(red=[card], extra="area nap-hill: troll")
    sc.do(f"red: play {card}", "red: scroll")
    opts = sc.options()
    assert "move the-shades yellow dimwell" in opts
    assert not any(o.startswith("move the-shades red") for o in opts)
    assert "move nap-hill troll seven-sleepers" in opts  # A12
    sc.do("red: move the-shades yellow dimwell")
    assert sc.minions("dimwell", "yellow") == 1 and not sc.trouble("the-shades")


def test_text__hobsons_livery_stable():
    sc = game(red=["hobsons-livery-stable"])
    sc.do("red: play hobsons-livery-stable", "red: scroll", "?red: target yellow",
          "red: move the-shades red longwall")
    assert sc.money("red") == 8 and sc.money("yellow") == 12
    assert sc.minions("longwall", "red") == 1


def test_text__the_bursar():
    sc = game(red=["the-bursar"], extra="area nap-hill: yellow\narea longwall: empty")
    sc.do("red: play the-bursar", "red: scroll", "red: pick nap-hill yellow",
          "red: pick the-shades red")
    assert sc.minions("nap-hill", "red") == 1 and sc.minions("nap-hill", "yellow") == 0
    assert sc.minions("the-shades", "yellow") == 2 and not sc.trouble("nap-hill")
    assert sc.trouble("the-shades")  # arrived among other minions


def test_text__the_dean():
    sc = game(red=["the-dean"], extra="area unreal-estate: yellow troll")
    sc.do("red: play the-dean", "red: scroll")
    assert set(sc.options()) == {"pick unreal-estate yellow", "pick unreal-estate troll"}
    sc.do("red: pick unreal-estate troll")
    assert sc.s.trolls[AREA_INDEX["unreal-estate"]] == 0


def test_text__carcer():
    sc = game(red=["carcer"], extra="rolls: 7 7\narea the-shades: red yellow yellow trouble")
    sc.do("red: play carcer", "red: scroll", "red: pick the-shades yellow", "red: pick the-shades yellow")
    assert sc.minions("the-shades", "yellow") == 0  # A10: one per roll, both from one area


def test_text__the_auditors():
    sc = game(red=["the-auditors"], players=3)
    sc.do("red: play the-auditors", "red: scroll", "yellow: pick the-shades yellow",
          "green: pick dolly-sisters green")
    assert sc.minions("the-shades", "yellow") == 0 and sc.minions("dolly-sisters", "green") == 0
    assert sc.minions("the-shades", "red") == 1


def test_text__cosmo_lavish():
    sc = game(red=["cosmo-lavish"], players=3)
    sc.do("red: play cosmo-lavish", "red: scroll", "?red: target yellow")
    assert not any(o.endswith(" red") for o in sc.options())
    sc.do("yellow: pick the-shades green")
    assert sc.money("yellow") == 12 and sc.minions("the-shades", "green") == 0


def test_text__burleigh_and_stronginthearm():
    sc = game(red=["burleigh-and-stronginthearm"])
    sc.do("red: play burleigh-and-stronginthearm", "red: scroll", "?red: target yellow",
          "red: assassinate the-shades yellow")
    assert sc.money("yellow") == 12 and sc.minions("the-shades", "yellow") == 0


# --- die rolls -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("roll,red,yellow", [(7, 13, 7), (4, 10, 10)])
def test_text__here_n_now(roll, red, yellow):
    sc = game(red=["here-n-now"], extra=f"rolls: {roll}")
    sc.do("red: play here-n-now", "red: scroll")
    if roll >= 7:
        sc.do("?red: target yellow")
    assert (sc.money("red"), sc.money("yellow")) == (red, yellow)


def test_here_n_now_roll_of_one_loses_a_minion():
    sc = game(red=["here-n-now"], extra="rolls: 1")
    sc.do("red: play here-n-now", "red: scroll", "red: pick the-shades red")
    assert sc.minions("the-shades", "red") == 0


def test_text__cmot_dibbler():
    sc = game(red=["cmot-dibbler"], extra="rolls: 12")
    sc.do("red: play cmot-dibbler", "red: scroll")
    assert sc.money("red") == 14
    sc = game(red=["cmot-dibbler"], extra="rolls: 1")
    sc.do("red: play cmot-dibbler", "red: scroll")
    assert "pay 2" in sc.options() and "pick the-shades red" in sc.options()
    sc.do("red: pay 2")
    assert sc.money("red") == 8


def test_text__errol():
    sc = game(red=["errol"], extra="rolls: 9")
    sc.do("red: play errol", "red: scroll", "red: pick the-scours yellow")
    assert sc.minions("the-scours", "yellow") == 0
    sc = game(red=["errol"], extra="rolls: 1")
    sc.do("red: play errol", "red: scroll", "red: pick dolly-sisters red")
    assert sc.minions("dolly-sisters", "red") == 0


# --- trouble -----------------------------------------------------------------------------------------------


def test_text__the_mob():
    sc = game(red=["the-mob"])
    sc.do("red: play the-mob", "red: scroll")
    # A11: next to an area with trouble, none there yet; no minion needed
    assert "area dimwell" in sc.options() and "area longwall" not in sc.options()
    sc.do("red: area dimwell")
    assert sc.trouble("dimwell")


def test_text__doctor_hix():
    sc = game(red=["doctor-hix"])
    sc.do("red: play doctor-hix", "red: scroll")
    assert len(sc.options()) == 9  # any area without trouble
    sc.do("red: area longwall")
    assert sc.trouble("longwall")


# --- buildings -----------------------------------------------------------------------------------------------


def test_text__wee_mad_arthur():
    sc = game(red=["wee-mad-arthur"], extra="area seven-sleepers: red")
    sc.do("red: play wee-mad-arthur", "red: scroll", "?red: build seven-sleepers")
    assert sc.money("red") == 1 and sc.building("seven-sleepers") == "red"


def test_text__sybil_vimes():
    sc = game(red=["sybil-vimes"], extra="area nap-hill: yellow building=yellow\nmoney red: 20")
    sc.do("red: play sybil-vimes", "red: scroll", "?red: area nap-hill")
    assert sc.building("nap-hill") == "red"
    assert sc.money("red") == 20 + 3 - 12 and sc.money("yellow") == 22
    assert sc.s.city_owner[AREA_INDEX["nap-hill"]] == RED
    assert "ability nap-hill" not in sc.options()  # A17: not in the turn it was gained


def test_text__reacher_gilt():
    sc = game(red=["reacher-gilt"], extra="area nap-hill: yellow trouble building=yellow\nmoney red: 20")
    sc.do("red: play reacher-gilt", "red: scroll", "?red: area nap-hill")
    assert sc.building("nap-hill") == "red" and sc.money("yellow") == 22


def test_take_over_needs_the_right_trouble():
    sc = game(red=["sybil-vimes"], extra="area nap-hill: yellow trouble building=yellow\nmoney red: 20")
    sc.do("red: play sybil-vimes")
    assert sc.waiting == "yellow:turn"  # nothing to take over: the scroll is not offered
