"""Personalities (personalities.json, rulebook p.6): the seven win conditions with
their thresholds for 2, 3 and 4 players, tested only at the start of the holder's
own turn (the forced ``check-win`` decision); Chrysoprase's net worth (loans -$12,
demon-area buildings $0); Commander Vimes never wins at the start of a turn;
Chrysoprase is left out of 2-player games.  Also the rulebook's control example
(p.6).
"""
from __future__ import annotations

import pytest

from ankh.core.morpork.model import AREA_IDS, AREA_INDEX, COLOURS
from ankh.core.morpork.record import Fixed, RecordError
from ankh.net.play.local import LocalTable, SetupError

from tests.core.helpers import Scenario

A = AREA_INDEX
RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3

HANDS = {
    "red": "groat the-peeled-nuts dwarves captain-carrot sergeant-colon",
    "yellow": "the-royal-mint rincewind hargas-house-of-ribs mr-gryle inigo-skimmer",
    "green": "gimlets-dwarf-delicatessen ruby the-mended-drum dr-cruces sergeant-angua",
    "blue": "buggy-swires the-bursar doctor-hix the-dean modo",
}
OTHERS = ["lord-rust", "lord-selachii", "lord-de-worde", "commander-vimes"]


def game(personality: str, areas: dict[str, str] | None = None, *lines: str,
         players: int = 3, first: str = "red", hands: dict | None = None,
         seat: str = "red") -> Scenario:
    """``seat`` holds ``personality``; the other seats hold Lords that are not met.
    ``areas`` lists every area's content (unlisted areas are empty)."""
    hands = {**HANDS, **(hands or {})}
    head = [f"players: {players}", f"first: {first}"]
    head += [f"hand {c}: {hands[c]}" for c in COLOURS[:players]]
    others = iter(p for p in OTHERS if p != personality)
    for c in COLOURS[:players]:
        head.append(f"personality {c}: {personality if c == seat else next(others)}")
    if areas is not None:
        for a in AREA_IDS:
            head.append(f"area {a}: {areas.get(a, 'empty')}")
    return Scenario("\n".join(head + list(lines)))


def won(sc: Scenario, seat: int, pid: str) -> bool:
    o = sc.s.outcome
    if o is None:
        return False
    assert (o.reason, o.winners, o.detail) == ("personality", (seat,), pid)
    return True


def spread(n: int, who: str = "red") -> dict[str, str]:
    """One ``who`` minion in each of the first ``n`` areas."""
    return {a: who for a in AREA_IDS[:n]}


# --- Lord Vetinari ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, need", [(2, 11), (3, 10), (4, 9)])
def test_vetinari_wins_with_minions_in_enough_areas(players, need):
    sc = game("lord-vetinari", spread(need), players=players)
    assert won(sc, RED, "lord-vetinari")


@pytest.mark.parametrize("players, need", [(2, 11), (3, 10), (4, 9)])
def test_vetinari_one_area_short_does_not_win(players, need):
    areas = spread(need - 1)
    areas[AREA_IDS[need - 2]] = "red red red"  # many minions, still one area
    sc = game("lord-vetinari", areas, players=players)
    assert sc.s.outcome is None
    assert sc.waiting == "red:turn"


def test_vetinari_areas_with_a_demon_do_not_count():
    areas = spread(10)
    areas["dolly-sisters"] = "red demon trouble"
    sc = game("lord-vetinari", areas, players=3)
    assert sc.s.outcome is None
    areas["dolly-sisters"] = "red troll trouble"  # a troll does not matter
    assert won(game("lord-vetinari", areas, players=3), RED, "lord-vetinari")


# --- Lords Selachii, Rust and de Worde -------------------------------------------------------------------------


@pytest.mark.parametrize("lord", ["lord-selachii", "lord-rust", "lord-de-worde"])
@pytest.mark.parametrize("players, need", [(2, 7), (3, 5), (4, 4)])
def test_lords_win_controlling_enough_areas(lord, players, need):
    areas = spread(need)
    areas["longwall"] = "yellow"
    sc = game(lord, areas, players=players)
    assert sum(sc.s.controls(RED, a) for a in range(12)) == need
    assert won(sc, RED, lord)


@pytest.mark.parametrize("lord", ["lord-selachii", "lord-rust", "lord-de-worde"])
@pytest.mark.parametrize("players, need", [(2, 7), (3, 5), (4, 4)])
def test_lords_one_area_short_do_not_win(lord, players, need):
    areas = spread(need)
    areas[AREA_IDS[0]] = "red yellow"  # present, but tied: not controlled
    sc = game(lord, areas, players=players)
    assert sum(sc.s.controls(RED, a) for a in range(12)) == need - 1
    assert sc.s.outcome is None


def test_lords_count_buildings_and_not_trouble_or_demon_areas():
    areas = {
        "dolly-sisters": "red trouble",
        "unreal-estate": "red yellow building=red",  # building breaks the tie
        "dragons-landing": "building=red",  # a building alone is a piece
        "small-gods": "red red yellow trouble",
        "the-hippo": "red red red demon trouble",  # demon: nobody controls
        "nap-hill": "yellow",
    }
    sc = game("lord-rust", areas, players=3)
    assert sc.s.outcome is None  # 4 areas controlled, 5 needed
    areas["longwall"] = "red"
    assert won(game("lord-rust", areas, players=3), RED, "lord-rust")


# --- Dragon King of Arms --------------------------------------------------------------------------------------

TROUBLE8 = {a: "trouble" for a in AREA_IDS[:8]}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dragon_king_of_arms_wins_with_eight_trouble_markers(players):
    areas = dict(TROUBLE8, **{"the-shades": "red trouble"})
    areas["dolly-sisters"] = "demon trouble"  # demon areas count too
    sc = game("dragon-king-of-arms", areas, players=players)
    assert won(sc, RED, "dragon-king-of-arms")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dragon_king_of_arms_with_seven_trouble_markers_does_not_win(players):
    areas = {a: "trouble" for a in AREA_IDS[:7]}
    areas["longwall"] = "red"
    sc = game("dragon-king-of-arms", areas, players=players)
    assert sc.s.outcome is None


# --- Chrysoprase -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_chrysoprase_wins_with_cash_plus_buildings_of_fifty(players):
    sc = game("chrysoprase", {"the-hippo": "red building=red"}, "money red: 38",
              players=players)
    assert won(sc, RED, "chrysoprase")


@pytest.mark.parametrize("players", [3, 4])
def test_chrysoprase_at_forty_nine_does_not_win(players):
    sc = game("chrysoprase", {"the-hippo": "red building=red"}, "money red: 37",
              players=players)
    assert sc.s.outcome is None


def test_chrysoprase_building_in_a_demon_area_is_worth_nothing():
    sc = game("chrysoprase", {"the-hippo": "red demon trouble building=red",
                              "longwall": "red"}, "money red: 38")
    assert sc.s.outcome is None


CHRYSO_HANDS = {
    "red": "mr-bent pink-pussy-cat-club gimlets-dwarf-delicatessen groat the-peeled-nuts",
    "yellow": "captain-carrot dwarves hargas-house-of-ribs mr-gryle inigo-skimmer",
    "green": "sergeant-colon ruby the-mended-drum dr-cruces sergeant-angua",
}


def test_chrysoprase_counts_a_loan_as_minus_twelve():
    sc = game("chrysoprase", None, "money red: 48", hands=CHRYSO_HANDS)
    assert sc.s.outcome is None
    # Mr Bent: +$10 and a loan; Pink Pussy Cat Club: +$3.  $61 - $12 = $49.
    sc.do("red: play mr-bent", "red: scroll", "red: play pink-pussy-cat-club", "red: stop")
    assert sc.money("red") == 61
    sc.do("yellow: play captain-carrot", "yellow: minion dolly-sisters", "yellow: skip")
    sc.do("green: play sergeant-colon", "green: skip", "green: minion dolly-sisters")
    assert sc.waiting == "red:turn"
    assert sc.s.outcome is None  # $61 with a loan is $49: not yet


def test_chrysoprase_wins_with_a_loan_when_net_worth_reaches_fifty():
    sc = game("chrysoprase", None, "money red: 48", hands=CHRYSO_HANDS)
    sc.do("red: play mr-bent", "red: scroll", "red: play pink-pussy-cat-club",
          "red: play gimlets-dwarf-delicatessen", "red: skip")
    assert sc.money("red") == 64
    sc.do("yellow: play captain-carrot", "yellow: minion dolly-sisters", "yellow: skip")
    sc.do("green: play sergeant-colon", "green: skip", "green: minion dolly-sisters")
    assert won(sc, RED, "chrysoprase")  # $64 - $12 = $52


def test_chrysoprase_is_removed_from_two_player_games():
    with pytest.raises(RecordError, match="'chrysoprase' is not a personality of a 2-player game"):
        game("chrysoprase", None, players=2)
    with pytest.raises(SetupError):
        LocalTable(2, 1, Fixed(personalities={0: "chrysoprase"}))
    for seed in range(30):
        assert "chrysoprase" not in LocalTable(2, seed).deck("personality")
    assert len(game("lord-vetinari", None, players=2).s.pers) == 6
    assert len(game("lord-vetinari", None, players=3).s.pers) == 7


# --- Commander Vimes -----------------------------------------------------------------------------------------


def test_commander_vimes_never_wins_at_the_start_of_a_turn():
    sc = game("commander-vimes", spread(11), "money red: 60", players=2)
    assert sc.s.outcome is None
    assert sc.waiting == "red:turn"


# --- timing: only at the start of the holder's own turn --------------------------------------------------------


def test_a_condition_met_during_the_turn_wins_only_at_the_next_own_turn():
    areas = {a: "trouble" for a in AREA_IDS[:7]}
    areas["longwall"] = "yellow"
    sc = game("dragon-king-of-arms", areas, players=2,
              hands={"red": "groat the-peeled-nuts dwarves captain-carrot sergeant-colon",
                     "yellow": "hargas-house-of-ribs the-royal-mint rincewind mr-gryle "
                               "inigo-skimmer"})
    assert sc.s.outcome is None
    sc.do("red: play groat", "red: minion longwall")  # the eighth trouble marker
    assert sc.s.trouble_count() == 8
    assert sc.s.outcome is None  # not at the end of red's turn ...
    assert sc.waiting == "yellow:turn"  # ... nor at the start of yellow's
    sc.do("yellow: play hargas-house-of-ribs", "yellow: minion seven-sleepers")
    assert won(sc, RED, "dragon-king-of-arms")


def test_only_the_active_players_condition_is_checked():
    areas = dict(TROUBLE8, longwall="red yellow")
    sc = game("dragon-king-of-arms", areas, players=3, seat="yellow")
    assert sc.s.outcome is None  # red's turn: yellow's condition is not tested
    assert sc.waiting == "red:turn"
    sc.do("red: play groat", "red: minion longwall")  # a ninth marker, irrelevant
    assert won(sc, YELLOW, "dragon-king-of-arms")


# --- the rulebook's control example (p.6) ----------------------------------------------------------------------


def control_example(unreal_estate: str = "blue troll") -> Scenario:
    return game("lord-vetinari", {
        "seven-sleepers": "green green yellow",
        "nap-hill": "yellow yellow red trouble",
        "dolly-sisters": "red red demon trouble",
        "unreal-estate": unreal_estate,
        "dragons-landing": "yellow green",
    }, players=4)


def test_rulebook_control_example():
    s = control_example().s
    assert s.controls(GREEN, A["seven-sleepers"])
    assert s.controls(YELLOW, A["nap-hill"])  # despite the trouble marker
    assert not s.controls(RED, A["dolly-sisters"])  # a demon is there
    assert not s.controls(BLUE, A["unreal-estate"])  # one troll against one blue piece
    for p in range(4):
        assert not s.controls(p, A["dragons-landing"])
    assert s.controller(A["dragons-landing"]) == -1


@pytest.mark.parametrize("more", ["blue blue troll", "blue troll building=blue"])
def test_rulebook_control_example_blue_with_one_more_piece(more):
    s = control_example(more).s
    assert s.controls(BLUE, A["unreal-estate"])
