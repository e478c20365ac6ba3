"""The session under the screens: seats, bots, saving and resuming exactly."""
from __future__ import annotations

import os
import random

import pytest

from ankh.tui.bots import bot_kinds, bot_label, default_bot_kind, make_bot
from ankh.core.morpork.record import parse_record
from ankh.tui.session import GameSession, list_saves


def play(session: GameSession, rng: random.Random, stop_after: int | None = None) -> int:
    """Play people's decisions at random (bots answer through think/apply_bot)."""
    made = 0
    while True:
        nxt = session.next()
        if nxt.kind == "over" or (stop_after is not None and made >= stop_after):
            return made
        if nxt.kind == "bot":
            session.apply_bot(nxt, session.think_job(nxt)())
        else:
            session.choose(rng.choice(nxt.decision.options), nxt.decision)
            made += 1


def test_bot_registry_offers_three_levels_hard_first():
    kinds = bot_kinds()
    assert kinds == ["search", "heuristic", "random"]
    assert default_bot_kind() == "search"
    assert [bot_label(k) for k in kinds] == ["hard", "normal", "easy"]
    assert make_bot("random", random.Random(1)).choose(None, type("D", (), {"options": (("x",),)})()) == ("x",)
    with pytest.raises(ValueError):
        make_bot("clairvoyant", random.Random(1))


@pytest.mark.parametrize("kind", bot_kinds())
def test_a_saved_game_resumes_exactly_and_bots_play_on_the_same(kind):
    """Saved after 15 of the person's decisions and loaded again, the game goes on as the game
    played in one go: the same moves from the bots (the search's too) for 25 more decisions
    (the random and heuristic bots: to the end)."""
    more = 25 if kind == "search" else None   # (the search bot takes a few seconds a game)
    whole = GameSession.new(3, you=1, kind=kind, seed=99, save=False)
    play(whole, random.Random(5), stop_after=None if more is None else 15 + more)
    assert whole.over or more is not None

    first = GameSession.new(3, you=1, kind=kind, seed=99, save=False)
    rng = random.Random(5)
    play(first, rng, stop_after=15)
    text = first.save_text()
    assert parse_record(text).seats == {0: f"bot:{kind}", 1: "person", 2: f"bot:{kind}"}
    resumed = GameSession.from_text(text)
    assert resumed.view(1) == first.view(1)
    assert resumed.people == [1]
    play(resumed, rng, stop_after=more)
    assert resumed.save_text() == whole.save_text()


def test_saves_are_listed_newest_first_with_a_summary(ankh_home):
    a = GameSession.new(2, seed=1)
    a.next()
    a.save()
    b = GameSession.new(4, you=3, bots=2, seed=2)
    b.next()
    b.save()
    broken = ankh_home / "saves" / "broken.ankh"
    broken.write_text("players: 9\n")
    for age, path in enumerate((b.path, a.path, broken)):
        os.utime(path, (1_000_000 - age, 1_000_000 - age))
    saves = list_saves()
    assert [s.path for s in saves] == [b.path, a.path, broken]
    assert saves[0].summary == "4 players · people: green, blue · turn 1"
    assert saves[1].summary == "2 players · you: red · turn 1"
    assert saves[0].game == saves[1].game == "Discworld: Ankh-Morpork"
    assert not saves[2].ok and saves[2].summary == "cannot be loaded: line 1: Discworld: Ankh-Morpork is for 2 to 4 players"


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_load_list_names_every_saves_game_with_no_summary_cut_at_80_columns(ankh_home, lang):
    """The list holds saves of both games: each names its game beside its
    file's name, the first game's too, and a networked save's summary (the
    longest) stays on its line."""
    from ankh.net.files import journal
    from ankh.net.wire.envelope import Identity
    from ankh.net.files.transcript import Roster
    from ankh.tui import i18n
    from ankh.tui.app import AnkhApp
    from ankh.tui.games import name
    from ankh.tui.session import saves_dir
    from .guilds.test_screens import GUILDS, screen_text
    i18n.set_language(lang)
    GameSession.new(2, seed=1).save()
    GameSession.new(3, game=GUILDS, seed=2).save()
    keys = tuple(Identity.generate().public_key for _ in range(4))
    folder = saves_dir() / "net-0123456789abcdef"
    folder.mkdir(parents=True)
    (folder / "journal.ankh").write_bytes(journal.header(
        Roster(os.urandom(16), ("alice", "bob", "carol", "dave"), keys, kind="guilds"),
        {"role": "host"}))
    saves = list_saves()
    assert len(saves) == 3 and all(s.ok for s in saves)
    app = AnkhApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        for info in saves:
            assert any(info.path.stem in line and info.game in line for line in lines), (info, lines)
            assert any(info.summary in line for line in lines), (info.summary, "\n".join(lines))
    assert {s.game for s in saves} == {name("morpork"), name("guilds")}


def test_damaged_saves_are_listed_with_the_reason_and_left_untouched(ankh_home):
    a = GameSession.new(2, seed=1)
    a.next()
    a.save()
    text = a.path.read_text(encoding="utf-8")
    cut = ankh_home / "saves" / "cut.ankh"
    cut.write_text(text + "red: play nonexist")
    binary = ankh_home / "saves" / "binary.ankh"
    binary.write_bytes(b"\x00\xff not a record")
    by_name = {s.path.name: s for s in list_saves()}
    assert by_name["binary.ankh"].summary == "cannot be loaded: not a text record"
    last = len(cut.read_text().splitlines())
    assert by_name["cut.ankh"].summary.startswith(f"cannot be loaded: line {last}:")
    assert by_name[a.path.name].ok
    assert binary.read_bytes() == b"\x00\xff not a record"  # nothing is lost


def test_a_record_without_seats_seats_red_and_bots():
    s = GameSession.from_text("# ankh record 1\nplayers: 3\nseed: 4\n")
    assert s.people == [0] and sorted(s.bots) == [1, 2]


def test_with_two_people_each_takes_back_only_their_own_choices():
    s = GameSession.from_text("""\
# ankh record 1
seats: red=person yellow=person
players: 2
seed: 5
first: red
hand red: groat gaspode hex the-royal-mint nobby-nobbs
""")
    s.viewer = 0
    nxt = s.next()
    assert nxt.kind == "person" and nxt.seat == 0
    s.choose(("play", next(h for h, c in s.view(0).hand if c == "groat")), nxt.decision)
    s.next()
    assert s.can_undo()            # red's own choice, nothing new since
    s.viewer = 1                   # yellow at the keyboard may not take it back
    assert not s.can_undo()


def test_a_save_naming_a_bot_that_is_not_installed_still_loads():
    s = GameSession.from_text("# ankh record 1\nseats: red=person yellow=bot:oracle\n"
                              "players: 2\nseed: 4\n")
    assert s.bots[1].kind in bot_kinds()
