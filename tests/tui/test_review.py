"""``ankh review FILE``: the hard bot goes over a seat's decisions in a local
game's record from that seat's knowledge; a review stopped halfway goes on to
the same result; it never uses a card the seat could not see."""
from __future__ import annotations

import functools
import random
from dataclasses import replace
import subprocess
import sys
from pathlib import Path

import pytest

from ankh.core.game import get
from ankh.net.play.local import LocalGame
from ankh.tui import review, review_work
from ankh.tui.session import ReviewSource

from tests.bots.test_search import swap_unseen


@functools.lru_cache(maxsize=None)
def record(game: str, seed: int = 5) -> str:
    """A finished game of heuristic bots, as its record (played once a process: sixteen
    tests read one)."""
    rules = get(game)
    players = 2 if game == "morpork" else 3
    g = LocalGame.new(players, seed, {p: rules.bot("heuristic", random.Random(p)) for p in range(players)}, rules)
    g.advance()
    return g.save_text()


@pytest.mark.parametrize("game", ["morpork", "guilds"])
def test_a_review_stopped_halfway_goes_on_to_the_same_result(game: str, tmp_path: Path) -> None:
    text = record(game)
    kept = tmp_path / "kept.json"
    asked = 0

    def stop_after(n: int):
        def stop() -> bool:
            nonlocal asked
            asked += 1
            return asked > n
        return stop

    first, total = review.review(text, 0, kept, worlds=1, stop=stop_after(3))
    assert len(first) == 3 and total > 6 and kept.exists()
    asked = 0
    second, _ = review.review(text, 0, kept, worlds=1, stop=stop_after(3))   # three more, after the kept ones
    asked = 0
    whole, _ = review.review(text, 0, None, worlds=1, stop=stop_after(6))    # the same six in one go
    assert second == whole and second[:3] == first
    assert all(0 <= r.chosen_chance <= 1 and r.best_chance >= r.chosen_chance - 1e-9 for r in whole)
    asked = 0
    other, _ = review.review(text, 0, kept, worlds=2, stop=stop_after(1))    # another search: not the kept one
    assert len(other) == 1


def test_the_costliest_decisions_are_named_on_a_firmer_search_and_a_review_stopped_there_ends_the_same(
        tmp_path: Path, monkeypatch) -> None:
    """After the first pass, the decisions that look costliest (and may cost a point of
    chance at least) are searched again with more worlds; only those can be
    named costly, on their firmer estimate, and a review stopped among those
    searches ends with the same result.  (None searched a third time here:
    the test of the decisions in doubt does that.)"""
    monkeypatch.setattr(review, "AGAIN", 0)
    text = record("guilds")
    rules, seen = review.choices(text, 0)
    first = [review.review_one(rules, n, *seen[n], worlds=2, decisive=2 * review.DECISIVE) for n in range(len(seen))]
    picks = review.costliest(first, review.FIRM)
    whole, total = review.review(text, 0, None, worlds=2)
    assert total == len(seen) and len(picks) >= 2
    for n in range(len(seen)):
        firm = review.review_one(rules, n, *seen[n], worlds=2 * review.FIRM_TIMES, seed="review:firm")
        assert whole[n] == (replace(firm, firm=True) if n in picks else first[n])
    assert {n for n, r in enumerate(whole) if r.cost > 0} <= set(picks)
    kept = tmp_path / "kept.json"
    asked = 0

    def stop() -> bool:
        nonlocal asked
        asked += 1
        return asked > len(seen) + 1        # stopped after the first of the firmer searches
    stopped, _ = review.review(text, 0, kept, worlds=2, stop=stop)
    assert stopped != whole and stopped[picks[0]] == whole[picks[0]]
    again, _ = review.review(text, 0, kept, worlds=2)
    assert again == whole


@pytest.mark.parametrize("game", ["morpork", "guilds"])
def test_the_seat_s_choice_and_the_best_are_weighed_in_the_same_worlds(game: str) -> None:
    """A decision's chances are the bot's own (its ``evaluate`` with the same
    generator), and the margin is the standard error of the best's and the
    choice's differences world by world."""
    text = record(game)
    rules, seen = review.choices(text, 0)
    weighed = 0
    for n, (state, decision, chosen) in enumerate(seen):
        done = review.review_one(rules, n, state, decision, chosen, worlds=3)
        rated = dict(rules.bot("search", random.Random(f"review:{n}"), worlds=3).evaluate(state, decision, also=chosen))
        assert done.chosen_chance == pytest.approx(rated[chosen]) and done.best_chance == pytest.approx(max(rated.values()))
        if done.best_chance > done.chosen_chance:
            bot = rules.bot("search", random.Random(f"review:{n}"), worlds=3)
            cands = bot.candidates(state, decision)   # as the review does, before the worlds
            values = bot.weigh(state, decision, cands + [chosen] * (chosen not in cands))
            best = max(rated, key=lambda o: rated[o])
            diffs = [a - b for a, b in zip(values[best], values[chosen])]
            assert len(diffs) == 3
            mean = sum(diffs) / 3
            assert done.margin == pytest.approx((sum((d - mean) ** 2 for d in diffs) / 2 / 3) ** 0.5)
            weighed += 1
            if weighed == 2:
                break
    assert weighed == 2


def test_only_a_decision_that_may_cost_a_point_of_chance_is_searched_again(monkeypatch) -> None:
    """The firmer search is the longest of a review: a decision whose choice may
    cost less than a point (the bot's own choice, or within a point and its
    error) is not searched again, and so is never named costly."""
    text = record("guilds")
    _rules, seen = review.choices(text, 0)
    searched: list[tuple[int, int]] = []

    def one(rules, n, state, decision, chosen, worlds, seed, before=None, again=0, decisive=0):
        searched.append((n, worlds))
        gap = 0.2 if n == 4 else 0.004
        return review.Reviewed(n, "chosen", 0.3, "best", 0.3 + gap, 2, margin=0.002), [[0.3], [0.3 + gap]]
    monkeypatch.setattr(review, "_search", one)
    done, total = review.review(text, 0, None, worlds=2)
    assert total == len(seen) > review.FIRM
    assert [s for s in searched if s[1] > 2] == [(4, 2 * review.FIRM_TIMES)]
    assert [n for n, r in enumerate(done) if r.cost > 0] == [4]


@pytest.mark.parametrize("game", ["morpork", "guilds"])
def test_a_decision_where_the_game_ended_in_a_world_searched_gets_more_worlds(game: str) -> None:
    """Late in a game a choice may lose it in a world in eight: a search of
    eight worlds sees that world in one review and misses it in another, and
    the two named different costliest decisions.  A decision where the game
    ended in one of its worlds after one candidate and not as well after
    another is searched in review.DECISIVE times as many (the same worlds as
    one search of them all); the others are not, nor one where the game ended
    the same whatever the seat chose (a long game spent its time on those).
    (A short game of the first one: 35 decisions of red's, the last three of
    them late, two of those where the game was over whatever red chose.)"""
    text = record(game, seed=4 if game == "morpork" else 5)
    rules, seen = review.choices(text, 0)
    kinds, late = set(), []
    for n in [*range(3), *range(len(seen) - 3, len(seen))]:
        few, values = review._search(rules, n, *seen[n], 2, "review")
        searched = review.review_one(rules, n, *seen[n], worlds=2, decisive=6)
        ended = any(v in (0.0, 1.0) for row in values for v in row)
        more = review.decided(values)
        assert searched == (review.review_one(rules, n, *seen[n], worlds=6) if more else few)
        assert searched.worlds == (6 if more else 2)
        kinds.add((ended, more))
        late += [n] * more
    assert kinds == ({(False, False), (True, False), (True, True)} if game == "morpork"
                     else {(False, False), (True, True)})
    done, _total = review.review(text, 0, None, worlds=2)                  # the review does so
    assert {r.worlds for r in done if not r.firm} <= {2, 2 * review.DECISIVE}
    assert all(done[n].firm or done[n].worlds == 2 * review.DECISIVE for n in late) and done[0].worlds == 2


def test_more_worlds_only_where_the_game_ended_after_one_choice_and_not_after_another() -> None:
    """A world where the game was won or lost whatever the seat chose tells
    nothing of its choice: no more worlds are spent on that decision."""
    assert review.decided([[1.0, 0.3], [0.4, 0.3]])        # won after the first, not after the second
    assert review.decided([[0.6, 0.3], [0.0, 0.3]])        # lost after the second only
    assert not review.decided([[1.0, 0.3], [1.0, 0.3]])    # won whatever the choice
    assert not review.decided([[0.0, 0.3], [0.0, 0.5]])    # lost whatever; the other world did not end
    assert not review.decided([[1.0, 0.3], [0.995, 0.3]])  # within a point of chance
    assert not review.decided([[0.5, 0.3], [0.2, 0.5]])    # the game ended in no world


def fake_search(gaps: dict[tuple[int, int], tuple[float, float]], searched: list):
    """A stand-in for the review's search: decision ``n``'s gap and standard
    error in its ``again``-th search again (0: the first firmer search, -1: the
    first pass), and the searches asked of it in ``searched``."""
    def search(rules, n, state, decision, chosen, worlds, seed, before=None, again=0, decisive=0):
        searched.append((n, again, len(before[0]) if before else 0))
        step = -1 if not seed.endswith(":firm") else again
        gap, margin = gaps.get((n, step), gaps.get((n, 0), (0.004, 0.002)) if step > 0 else (0.004, 0.002))
        k = worlds + (len(before[0]) if before else 0)
        return (review.Reviewed(n, "chosen", 0.3, "best", 0.3 + gap, 2, margin=margin, worlds=k),
                [[0.3] * k, [0.3 + gap] * k])
    return search


def test_a_decision_whose_place_among_the_costliest_is_in_doubt_gets_more_worlds(monkeypatch, tmp_path) -> None:
    """Two decisions that cost nearly as much, whichever is the costliest
    within their errors, are searched again with more worlds (added to those
    they had), until the order is settled; one clearly below them is not."""
    text = record("guilds")
    gaps = {(2, -1): (0.10, 0.02), (5, -1): (0.09, 0.02), (7, -1): (0.05, 0.02),
            (2, 0): (0.10, 0.02), (5, 0): (0.09, 0.02), (7, 0): (0.05, 0.005),   # 2 and 5 too close to tell
            (5, 1): (0.06, 0.01), (2, 1): (0.10, 0.01)}                           # told apart with more worlds
    searched: list = []
    monkeypatch.setattr(review, "_search", fake_search(gaps, searched))
    done, _total = review.review(text, 0, None, worlds=2)
    assert [s for s in searched if s[1] > 0] == [(2, 1, 8), (5, 1, 8)]          # 8 worlds before, 8 more
    assert [(n, r.worlds) for n, r in enumerate(done) if r.firm] == [(2, 16), (5, 16), (7, 8)]
    assert max(range(len(done)), key=lambda n: done[n].cost) == 2
    # a review stopped among those searches goes on to the same result
    kept = tmp_path / "kept.json"
    asked = 0

    def stop() -> bool:
        nonlocal asked
        asked += 1
        return asked > len(done) + 4                                          # after the first search in doubt
    stopped, _ = review.review(text, 0, kept, worlds=2, stop=stop)
    assert stopped[2].worlds == 16 and stopped[5].worlds == 8
    searched.clear()
    assert review.review(text, 0, kept, worlds=2)[0] == done and searched == [(5, 1, 8)]
    # never settled: searched again review.AGAIN times, no more
    searched.clear()
    gaps[(5, 1)] = gaps[(5, 2)] = (0.095, 0.02)
    gaps[(2, 1)] = gaps[(2, 2)] = (0.10, 0.02)
    review.review(text, 0, None, worlds=2)
    assert sorted(s for s in searched if s[1] > 0) == sorted(
        (n, k, 8 * k) for n in (2, 5) for k in range(1, review.AGAIN + 1))


def test_a_long_first_game_is_reviewed_with_the_worlds_of_a_shorter_game(monkeypatch) -> None:
    """A first game of 74 decisions took a minute on two cores, twice a game of
    forty: a longer one's first pass searches no more worlds in all than that
    of a game of review.GAME decisions, each decision in fewer (its decisive
    worlds as many times those), and the costliest is still searched again
    with review.FIRM_TIMES times the worlds.  A guild game's worlds cost a
    tenth as much: each of its decisions keeps its worlds."""
    for game in ("morpork", "guilds"):
        text = record(game)
        _rules, seen = review.choices(text, 0)
        assert len(seen) > review.GAME["morpork"]
        searched: list[tuple[int, int, str, int]] = []

        def one(rules, n, state, decision, chosen, worlds, seed, before=None, again=0, decisive=0):
            searched.append((n, worlds, seed, decisive))
            gap, k = (0.2 if n == 4 else 0.004), worlds + (len(before[0]) if before else 0)
            return (review.Reviewed(n, "chosen", 0.3, "best", 0.3 + gap, 2, margin=0.002, worlds=k),
                    [[0.3] * k, [0.3 + gap] * k])
        monkeypatch.setattr(review, "_search", one)
        done, _total = review.review(text, 0, None)
        first = [s for s in searched if s[2] == "review"]
        assert [s[0] for s in first] == list(range(len(seen)))
        each = review.WORLDS if game == "guilds" else review.WORLDS * review.GAME[game] // len(seen)
        assert {(s[1], s[3]) for s in first} == {(each, each * review.DECISIVE)}
        if game == "morpork":
            assert 2 < each < review.WORLDS and sum(s[1] for s in first) <= review.GAME[game] * review.WORLDS
        assert [s for s in searched if s[2] != "review"] == [(4, review.FIRM_TIMES * review.WORLDS, "review:firm", 0)]
        assert [n for n, r in enumerate(done) if r.cost > 0] == [4]


def test_a_long_first_game_s_decisions_in_doubt_are_searched_again_within_its_budget(monkeypatch) -> None:
    """Two decisions never told apart are searched again round after round:
    in a long first game, only while the worlds the review stands on stay
    within review.SPEND times a first pass of review.GAME decisions; in a guild
    game (quick), review.AGAIN times."""
    monkeypatch.setattr(review, "AGAIN", 10)
    gaps = {(2, -1): (0.10, 0.02), (5, -1): (0.095, 0.02), (2, 0): (0.10, 0.02), (5, 0): (0.095, 0.02)}
    rounds, spent = {}, {}
    for game in ("morpork", "guilds"):
        searched: list = []
        monkeypatch.setattr(review, "_search", fake_search(gaps, searched))
        done, _total = review.review(record(game), 0, None)
        rounds[game], spent[game] = max(s[1] for s in searched), sum(r.worlds for r in done)
    budget, more = review.SPEND * review.GAME["morpork"] * review.WORLDS, 2 * review.FIRM_TIMES * review.WORLDS
    assert rounds["guilds"] == 10
    assert 0 < rounds["morpork"] < 10 and spent["morpork"] <= budget < spent["morpork"] + more


def test_the_costliest_right_at_the_line_of_its_error_is_in_doubt() -> None:
    """A gap near :data:`review.SURE` standard errors might or might not count
    as a cost on another search: in doubt; far from the line, or below a point
    of chance, it is not."""
    def firm(gap: float, margin: float) -> review.Reviewed:
        return review.Reviewed(1, "a", 0.3, "b", 0.3 + gap, 2, margin=margin, firm=True, worlds=32)
    assert review.in_doubt([firm(0.04, 0.02)]) == [0]               # 2 standard errors: at the line
    assert review.in_doubt([firm(0.03, 0.02)]) == [0]               # 1.5: not counted, but it might be
    assert review.in_doubt([firm(0.10, 0.02)]) == []                # 5: a cost
    assert review.in_doubt([firm(0.012, 0.04)]) == []               # 0.3: within the noise
    assert review.in_doubt([firm(0.008, 0.004)]) == []              # less than a point of chance
    assert review.in_doubt([replace(firm(0.04, 0.02), firm=False)]) == []   # not searched again: not named
    assert review.in_doubt([firm(0.10, 0.01), firm(0.03, 0.01)]) == []      # the second far below the first


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_costs_within_their_error_of_the_widest_are_named_first_in_the_order_they_were_made(lang: str) -> None:
    """Four choices that cost 12 to 14 points each, within the search's error
    of each other: which is the costliest is the search's noise (two reviews
    named two of them), so they come first in the order they were made, and
    the review says so; a sure smaller cost comes after them."""
    from ankh.tui import i18n

    def cost(turn: int, gap: float, margin: float) -> review.Reviewed:
        return review.Reviewed(turn, "Pass", 0.3, "Trade", 0.3 + gap, 2, margin=margin, firm=True, worlds=96)
    done = [review.Reviewed(t, "Pass", 0.3, "Pass", 0.3, worlds=8) for t in range(20)]
    done[5], done[12], done[14], done[16] = cost(5, 0.127, 0.004), cost(12, 0.121, 0.004), \
        cost(14, 0.129, 0.005), cost(16, 0.06, 0.004)
    assert review.named(done) == ([5, 12, 14, 16], 3)
    assert review.named(done[:5] + [cost(5, 0.142, 0.008)] + done[6:])[0][0] == 5   # the other review's search
    assert review.named([done[14], done[16]]) == ([0, 1], 1)            # one costliest: as before
    i18n.set_language(lang)
    try:
        lines = " ".join(" ".join(review.summary(done, 20, 0)).split())
    finally:
        i18n.set_language("en")
    said = {"en": "The decisions that cost you the most (the first 3 about as much as each other, within the search's "
                  "error, in the order you made them): turn 5:",
            "fr": "Les décisions qui vous ont coûté le plus (les 3 premières à peu près autant les unes que les autres, "
                  "à l'erreur de la recherche près, dans l'ordre où vous les avez prises) : tour 5"}
    assert said[lang] in lines, lines
    assert lines.index("14 :" if lang == "fr" else "turn 14:") < lines.index("16 :" if lang == "fr" else "turn 16:")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_reviews_first_line_names_the_seat_as_the_other_screens_do(lang: str) -> None:
    """The review's first line began "red's 64 decisions": lower case, without
    the seat's letter the other screens give ("R red", "R rouge")."""
    from ankh.tui import i18n
    done = [review.Reviewed(t, "Pass", 0.3, "Pass", 0.3, worlds=8) for t in range(3)]
    i18n.set_language(lang)
    try:
        first = " ".join(" ".join(review.summary(done, 3, 0)[:2]).split())
        every = " ".join(" ".join(review.summary(done, 3, 1, every_card=True)[:2]).split())
    finally:
        i18n.set_language("en")
    said = {"en": ("R red's 3 decisions, reviewed by the hard bot from R red's knowledge at the time",
                   "Y yellow's 3 decisions, reviewed by the hard bot with every card known"),
            "fr": ("Les 3 décisions de R rouge, revues par le robot difficile d'après ce que R rouge savait alors",
                   "Les 3 décisions de J jaune, revues par le robot difficile avec toutes les cartes connues")}
    assert first.startswith(said[lang][0]) and first[0].isupper(), first
    assert every.startswith(said[lang][1]), every


def test_a_decision_whose_candidates_are_within_their_error_is_not_marked_costly() -> None:
    """On the firmer search, a gap of five points with a standard error of three
    is the search's noise: no cost, and the review names no decision; with an
    error of one point it is a cost, but not on the first pass alone.  The
    decisions searched again are those that look costliest."""
    close = review.Reviewed(3, "Play the card", 0.30, "Keep the card", 0.35, 2, margin=0.03, firm=True)
    sure = review.Reviewed(5, "Play the card", 0.30, "Keep the card", 0.34, 2, margin=0.01, firm=True)
    assert close.gap == pytest.approx(0.05) and close.cost == 0.0
    assert sure.cost == pytest.approx(0.04) and replace(sure, firm=False).cost == 0.0
    assert "No decision surely cost you a point of chance" in " ".join(review.summary([close], 1, 0))
    lines = " ".join(review.summary([close, sure], 2, 0))
    assert "turn 5: you chose Play the card (30 %); better: Keep the card (34 %)" in lines and "turn 3" not in lines
    first = [replace(close, firm=False), replace(sure, firm=False),
             review.Reviewed(7, "Play the card", 0.30, "Keep the card", 0.305, 2, margin=0.002)]
    assert review.costliest(first, 3) == [0, 1]           # the most it may cost first; the third cannot cost a point


def test_the_decisions_searched_again_are_those_that_may_be_the_costliest() -> None:
    """A cost that comes from a world in eight looks small and unsure on the
    first pass: the decisions searched again are those that may cost the
    most (the gap and two standard errors), not those with the widest gap,
    and never one that cannot cost what another surely costs."""
    def first(gap: float, margin: float) -> review.Reviewed:
        return review.Reviewed(1, "a", 0.3, "b", 0.3 + gap, 2, margin=margin, worlds=8)
    rare, sure, small, tiny = first(0.017, 0.016), first(0.03, 0.002), first(0.02, 0.001), first(0.004, 0.002)
    assert review.costliest([sure, rare, small, tiny], 3) == [1, 0]      # small cannot cost what sure surely does
    assert review.costliest([small, rare, tiny], 3) == [1, 0]            # tiny cannot cost a point of chance
    assert review.costliest([small, rare, tiny], 1) == [1]


def test_a_review_never_uses_a_card_the_seat_could_not_see() -> None:
    text = record("morpork")
    rules, seen = review.choices(text, 0)
    for n, (state, decision, chosen) in enumerate(seen[2:6], 2):
        swapped = swap_unseen(state, 0, random.Random(n))
        assert review.review_one(rules, n, state, decision, chosen, worlds=2) == \
            review.review_one(rules, n, swapped, swapped.pending, chosen, worlds=2)


async def at_the_end(pilot) -> None:
    """Until the end screen a finished record opens on is there."""
    from ankh.tui.games.guilds.screens import EndScreen
    for _ in range(200):
        if isinstance(pilot.app.screen, EndScreen):
            return
        await pilot.pause(0.05)


def ankh(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ankh.tui.cli", *args], capture_output=True, text=True, timeout=300)


def test_ankh_review_names_the_costliest_decisions_in_the_games_words(tmp_path: Path) -> None:
    path = tmp_path / "guilds.txt"
    path.write_text(record("guilds", seed=2), encoding="utf-8")
    done = ankh("review", str(path), "--seat", "yellow", "--worlds", "1")
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0].startswith("Y yellow's ")
    assert "decisions, reviewed by the hard bot from Y yellow's knowledge" in out[0]
    chance = next(i for i, line in enumerate(out) if line.startswith("Your chance to win after each decision, from "))
    assert out[chance + 1].startswith("  ") and set(out[chance + 1].strip()) <= set(review.BARS)
    assert all(len(line) <= 80 for line in out), out                       # an 80-column terminal: no line wraps
    assert (tmp_path / "guilds.txt.review-yellow.json").exists()          # kept beside the record
    again = ankh("review", str(path), "--seat", "yellow", "--worlds", "1")
    assert again.stdout == done.stdout                                       # the second look reads it


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_long_game_s_review_fits_an_80_column_terminal(lang: str) -> None:
    """The chance over 200 decisions was one line of 240 columns, wrapped by the
    terminal: it is drawn in rows under its title, one mark per decision."""
    from ankh.tui import i18n
    done = [review.Reviewed(n // 4 + 1, "Place a house on site 12", (n % 9) / 9,
                            "Lay a foundation on site 33 (brick, lumber)", 1.0, worlds=1) for n in range(200)]
    i18n.set_language(lang)
    try:
        lines = review.summary(done, 200, 1)
    finally:
        i18n.set_language("en")
    assert all(len(line) <= review.WIDTH for line in lines), lines
    rows = [line for line in lines if line.startswith("  ") and set(line.strip()) <= set(review.BARS)]
    assert sum(len(line.strip()) for line in rows) == 200 and len(rows) == 3, lines
    # the title says how hard it looked: the worlds of each decision, and how many were searched again
    searched = {"en": "(1 world a decision, none searched again)", "fr": "(1 monde par décision, aucune cherchée à nouveau)"}
    assert searched[lang] in " ".join(" ".join(lines[:3]).split()), lines[:3]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_title_says_how_many_worlds_were_searched_not_how_many_might_have_been(lang: str) -> None:
    """The title said "32 for the 3 costliest" even when fewer were searched
    again: it says the worlds the decisions had, and how many were searched
    again with how many worlds."""
    from ankh.tui import i18n
    settled = [review.Reviewed(n, "Pass", 0.25, "Pass", 0.25, worlds=8) for n in range(10)]
    again = [replace(settled[2], firm=True, worlds=32), replace(settled[5], firm=True, worlds=96)]
    said = {"en": ["(8 worlds a decision, none searched again)",
                   "(8 worlds a decision, the costliest searched again with 32 worlds)",
                   "(8 worlds a decision, the 2 costliest searched again with 32 to 96 worlds)"],
            "fr": ["(8 mondes par décision, aucune cherchée à nouveau)",
                   "(8 mondes par décision, la plus coûteuse cherchée à nouveau avec 32 mondes)",
                   "(8 mondes par décision, les 2 plus coûteuses cherchées à nouveau avec 32 à 96 mondes)"]}
    i18n.set_language(lang)
    try:
        titles = [" ".join(" ".join(review.summary(done, 10, 0)[:3]).split())
                  for done in (settled, settled[:2] + again[:1] + settled[3:],
                               settled[:2] + again[:1] + settled[3:5] + again[1:] + settled[6:])]
    finally:
        i18n.set_language("en")
    for title, words in zip(titles, said[lang]):
        assert words in title, title
    # a long game's decisions had 4 worlds, those where the game ended 12: it says 4
    long = [replace(r, worlds=4 if n < 7 else 12) for n, r in enumerate(settled)]
    assert "(4 worlds a decision, none searched again)" in " ".join(" ".join(review.summary(long, 10, 0)[:3]).split())


class Recording:
    """A heuristic bot that keeps what its seat knew at each of its choices."""

    def __init__(self, rules, seed: int) -> None:
        self.bot = rules.bot("heuristic", random.Random(seed))
        self.seen: list = []

    def choose(self, engine, decision):
        option = self.bot.choose(engine.copy(), decision)
        self.seen.append((engine.copy(), decision, option))
        return option


def networked_save(tmp_path: Path, seat: int, game: str = "guilds") -> tuple[Path, Recording]:
    """A three-seat networked game of bots (the guild variant unless said),
    saved as ``seat``'s folder (the finished game and that seat's secrets), and
    what ``seat`` knew as it played."""
    from tests.net.star import Star, star_peers
    rules = get(game)
    seed = b"review-net-3" if game == "guilds" else b"review-net"   # (the guild game short: 50 decisions of yellow's)
    star = Star(star_peers(3, seed=seed, kind=game))
    bots = [Recording(rules, s) for s in range(3)]
    star.play(bots)
    folder = tmp_path / "net-review"
    folder.mkdir()
    (folder / "game.ankh").write_bytes(star.peers[seat].protocol.transcript().to_bytes())
    (folder / f"seat{seat}.secrets").write_bytes(star.peers[seat].protocol.secrets.to_bytes())
    return folder, bots[seat]


def test_a_networked_game_is_reviewed_from_the_seat_s_own_view(tmp_path: Path) -> None:
    """The seat's save holds its secrets and the table's signed log: followed
    again by the seat, it gives each of its decisions with the game as the seat
    knew it then (what it saw as it played, card for card), and ``ankh review
    FOLDER`` reviews them."""
    from ankh.core.game import forced
    folder, played = networked_save(tmp_path, 1)
    rules, seen, _data = review.seat_choices(folder, 1)
    live = [(state, d, o) for state, d, o in played.seen if not forced(d)]
    assert [(d, o) for _s, d, o in seen] == [(d, o) for _s, d, o in live] and len(seen) > 10
    for (mine, _d, _o), (then, _d2, _o2) in zip(seen, live):
        assert rules.state_json(mine) == rules.state_json(then)            # what the seat saw, no more
    done = ankh("review", str(folder), "--worlds", "1")
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0].startswith(f"Y yellow's {len(seen)} decisions, reviewed by the hard bot"), out
    assert (folder / "game.ankh.review-yellow.json").exists()               # kept beside the save
    assert ankh("review", str(folder), "--seat", "green").returncode == 2   # green's secrets are not there


def test_ankh_review_refuses_what_it_cannot_review(tmp_path: Path) -> None:
    path = tmp_path / "m.txt"
    path.write_text(record("morpork"), encoding="utf-8")
    assert ankh("review", str(path), "--seat", "green").returncode == 2     # no green in a 2-seat game
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "journal.ankh").write_bytes(b"\x92\xacankh-journal")
    refused = ankh("review", str(tmp_path / "net"))                       # no seat's secrets in it
    assert refused.returncode == 2 and "local game's record" in refused.stderr
    assert ankh("review", str(tmp_path / "none.txt")).returncode == 2


async def test_the_end_screen_reviews_the_game_just_played_and_leaving_the_review_stops_it(tmp_path: Path) -> None:
    from ankh.tui.app import AnkhApp
    from ankh.tui.games.guilds.screens import EndScreen
    from ankh.tui.session import GameSession

    text = record("guilds")
    session = GameSession.from_text(text)
    session.path = tmp_path / "game.txt"
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_end(pilot)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, review.ReviewScreen) and screen.seat == review.person_seat(text)
        for _ in range(1200):
            if screen.done is not None:
                break
            await pilot.pause(0.05)
        shown = str(screen.query_one("#review-text").render())
        assert shown.startswith("R red's ") and "Your chance to win after each decision" in shown, shown
        expected, total = review.review(text, screen.seat, None)   # what ankh review prints
        assert shown.splitlines() == review.summary(expected, total, screen.seat)
        assert review.kept_beside(session.path, screen.seat).exists()   # kept: a second look is instant
        await pilot.press("escape")
        assert isinstance(app.screen, EndScreen)


async def test_the_end_screen_of_a_networked_seat_reviews_its_save(tmp_path: Path) -> None:
    """A networked seat's end screen offers the review too (it had none): from
    the seat's save, as ``ankh review FOLDER`` prints it."""
    from ankh.tui.app import AnkhApp
    from ankh.tui.games.guilds.screens import EndScreen
    from ankh.tui.session import GameSession

    folder, _played = networked_save(tmp_path, 1)

    class Seat:
        """What the end screen reads of a networked seat's session for a review."""
        path = None

        def review_source(self) -> ReviewSource:
            return ReviewSource(folder=folder, seat=1)

    app = AnkhApp(GameSession.from_text(record("guilds")), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_end(pilot)
        end = app.screen
        assert isinstance(end, EndScreen)
        end.session = Seat()
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, review.ReviewScreen) and screen.seat == 1 and screen.folder == folder
        for _ in range(2400):
            if screen.done is not None:
                break
            await pilot.pause(0.05)
        expected, total = review.review_save(folder, 1, None)
        assert str(screen.query_one("#review-text").render()).splitlines() == review.summary(expected, total, 1)


def test_after_the_audit_a_networked_game_is_also_reviewed_with_every_card_known(tmp_path: Path) -> None:
    """Once the audit disclosed every card, the seat's save can be reviewed with
    every card known: the states searched hold the other seats' cards, the
    review says so in its first line, and it is kept apart from the review
    from the seat's view (which stays as it was)."""
    folder, _played = networked_save(tmp_path, 1, "morpork")
    _rules, mine, _data = review.seat_choices(folder, 1)
    _rules, every, _data = review.seat_choices(folder, 1, every_card=True)
    assert [(d, o) for _s, d, o in every] == [(d, o) for _s, d, o in mine] and len(mine) > 5

    def unknown(state) -> int:   # cards in the other hands that yellow has not seen
        return sum(not state.sees(1, h) or state.card[h] is None for q in (0, 2) for h in state.hand[q])

    assert all(unknown(s) for s, _d, _o in mine) and not any(unknown(s) for s, _d, _o in every)
    seat_view = ankh("review", str(folder), "--worlds", "1")
    done = ankh("review", str(folder), "--worlds", "1", "--every-card")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith(f"Y yellow's {len(every)} decisions, reviewed by the hard bot "
                                                  "with every card known"), done.stdout
    assert (folder / "game.ankh.review-yellow-every-card.json").exists()       # kept apart
    assert ankh("review", str(folder), "--worlds", "1").stdout == seat_view.stdout
    assert "with every card known" not in seat_view.stdout


def test_a_review_with_every_card_known_needs_a_networked_game_s_audit(tmp_path: Path) -> None:
    path = tmp_path / "m.txt"
    path.write_text(record("morpork"), encoding="utf-8")
    refused = ankh("review", str(path), "--every-card")
    assert refused.returncode == 2 and "networked game" in refused.stderr


def test_a_morpork_state_with_every_card_known_deals_none_of_them_again() -> None:
    """The first game's search deals again every card its seat has not seen:
    with every card known, the seat has seen every card whose identity the
    state holds, so a world keeps the other hands as they are."""
    from ankh.core.morpork.bots.search import determinize
    from ankh.tui.games import ui
    text = record("morpork")
    _rules, seen = review.choices(text, 0)
    state = seen[3][0]
    other = [h for h in state.hand[1]]
    assert other and not all(state.sees(0, h) for h in other)
    known = ui("morpork").every_card_known(state.copy(), 0)
    world = determinize(known, 0, random.Random(1))
    assert [world.card[h] for h in other] == [state.card[h] for h in other]


async def test_the_end_screen_offers_the_review_with_every_card_known_only_after_the_audit(tmp_path: Path) -> None:
    """``a`` on a networked seat's end screen opens the review with every card
    known once the audit disclosed them; a local game's end screen has no ``a``."""
    from ankh.tui.app import AnkhApp
    from ankh.tui.games.guilds.screens import EndScreen
    from ankh.tui.session import GameSession

    folder, _played = networked_save(tmp_path, 1)

    class Seat:
        path = None
        every_card = True

        def review_source(self) -> ReviewSource:
            return ReviewSource(folder=folder, seat=1, every_card=self.every_card)

    app = AnkhApp(GameSession.from_text(record("guilds")), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_end(pilot)
        end = app.screen
        assert isinstance(end, EndScreen)
        assert not end.check_action("review_every_card", ())       # a local game: its record has every card
        await pilot.press("a")
        assert app.screen is end
        seat = end.session = Seat()
        await pilot.press("a")
        screen = app.screen
        assert isinstance(screen, review.ReviewScreen) and screen.every_card and screen.folder == folder
        assert screen.kept == review.kept_beside(folder / "game.ankh", 1, every_card=True)
        await pilot.press("escape")
        assert app.screen is end
        seat.every_card = False                                      # no audit that disclosed every card
        await pilot.press("a")
        assert app.screen is end


def test_a_review_in_two_processes_is_the_review_of_one(tmp_path: Path) -> None:
    """Decisions reviewed side by side (one process a core) each keep their own
    generator: the result is the one a single process gives, and a review
    stopped in two processes goes on to it too.  (The guild game: its searches are the quicker.)"""
    text = record("guilds")
    alone, total = review.review(text, 0, None, worlds=1)
    assert review.review(text, 0, None, worlds=1, jobs=2) == (alone, total)
    kept = tmp_path / "kept.json"
    asked = 0

    def stop() -> bool:
        nonlocal asked
        asked += 1
        return asked > 3

    first, _ = review.review(text, 0, kept, worlds=1, jobs=2, stop=stop)
    assert 0 < len(first) < total and first == alone[:len(first)]
    assert review.review(text, 0, kept, worlds=1, jobs=2) == (alone, total)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_chance_is_never_cut_from_its_percent_sign_at_the_end_of_a_line(lang) -> None:
    """Played at 80×24, the review of a guild game read "Buy a development token (53"
    at the end of a line and "%)" at the start of the next: whatever the length of
    the choices' words, a line never starts with the sign, nor (in French) with
    the ";" or ":" that a space leaves before it."""
    from ankh.tui import i18n
    i18n.set_language(lang)
    for n in range(40):
        chosen = "End your turn" + " x" * n
        done = [review.Reviewed(13, chosen, 0.11, "Buy a development token", 0.53, 2, margin=0.01, firm=True,
                                worlds=32)]
        lines = review.summary(done, 1, 0)
        assert all(len(line) <= review.WIDTH for line in lines), lines
        assert not any(line.lstrip()[:1] in ("%", ";", ":") for line in lines), lines
        assert "(53 %)" in " ".join(" ".join(lines).split()), lines


@pytest.mark.parametrize("game", ["morpork", "guilds"])
def test_a_search_cut_in_parts_is_the_search_whole(game: str) -> None:
    """A review spreads its searches over the cores a few worlds at a time: the
    parts, put back in order, are the values of the search whole (its first
    worlds, those added where the game ended, and a search again from its own
    generator), so the review is the same whatever the number of processes."""
    text = record(game)
    rules, seen = review.choices(text, 0)
    ended = []
    for n in (0, len(seen) // 2, len(seen) - 2, len(seen) - 1):
        whole = review._search(rules, n, *seen[n], 2, "review", decisive=6)[1]
        cands, _ = review_work.part(rules, n, *seen[n], 1, "review")
        parts = [review_work.part(rules, n, *seen[n], 1, "review", skip=k)[1] for k in range(len(whole[0]))]
        assert [[v for p in parts for v in p[c]] for c in range(len(cands))] == whole
        ended.append(len(whole[0]) == 6)
        before = review._search(rules, n, *seen[n], 3, "review:firm")[1]
        again = review._search(rules, n, *seen[n], 3, "review:firm", before, again=1)[1]
        parts = [review_work.part(rules, n, *seen[n], 1, "review:firm", again=1, skip=k)[1] for k in range(3)]
        assert [old + [v for p in parts for v in p[c]] for c, old in enumerate(before)] == again
    assert True in ended


def test_the_searches_again_are_cut_in_parts_over_the_workers() -> None:
    """Searched side by side, a decision searched again (the longest searches,
    some alone in their round) is cut in parts of the first pass's worlds, so
    one core never works alone on it while the other waits; the same two
    workers serve every round (started once a review); and the review is the
    one of a single process."""
    text = record("guilds")
    alone = review.review(text, 0, None, worlds=2)
    spent: list[review_work.Spent] = []
    assert review.review(text, 0, None, worlds=2, jobs=2, timed=spent.append) == alone
    again = [s for s in spent if s.phase == 1]
    assert again and all(s.cpu >= 0 and s.total >= s.cpu for s in spent)
    firm = [n for n, r in enumerate(alone[0]) if r.firm]
    assert sorted(s.n for s in again) == sorted(n for n in firm for _ in range(review.FIRM_TIMES))
    assert len({s.pid for s in spent}) <= 2 and {s.phase for s in spent} >= {0, 1}
