"""The statistics at the end of a game, in both games: reached from the end
screen (``s``) and from ``ankh replay FILE --stats`` (a local record, a
networked save), the same figures for a seat and a spectator, and what the
pictures look like at 80×24 (one at a time, ``tab`` to the next) and 120×40
(side by side), in English and in French."""
from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from textual.app import App

from ankh.core.game import get
from ankh.tui import i18n
from ankh.tui.app import AnkhApp
from ankh.tui.cli import main as ankh_main
from ankh.tui.session import GameSession
from ankh.tui.stats import StatsScreen, stats_of_ledger, stats_of_log, stats_of_record

RECORDS = Path(__file__).parent.parent / "fixtures" / "stats"
KINDS = ["morpork", "guilds"]


def record(kind: str) -> str:
    return (RECORDS / f"{kind}.ankh").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def networked(tmp_path_factory) -> dict[str, tuple[Path, object]]:
    """A whole three-seat networked game of each kind (bots at every seat),
    saved as a seat saves it: the save, and the seats that played it."""
    from tests.net.star import Star, star_peers
    out = {}
    for kind in KINDS:
        star = Star(star_peers(3, seed=b"stats-" + kind.encode(), kind=kind))
        star.play([get(kind).bot("heuristic", random.Random(s)) for s in range(3)])
        assert star.peers[0].engine.outcome is not None
        path = tmp_path_factory.mktemp(kind) / "game.ankh"
        path.write_bytes(star.peers[0].protocol.transcript().to_bytes())
        out[kind] = (path, star)
    return out


# --- from the end screen -----------------------------------------------------------------

async def at_the_end(pilot) -> None:
    """Wait for the end screen a finished record opens on."""
    for _ in range(200):
        if type(pilot.app.screen).__name__ == "EndScreen":
            return
        await pilot.pause()

@pytest.mark.parametrize("kind", KINDS)
async def test_the_end_screen_shows_the_statistics(kind):
    app = AnkhApp(GameSession.from_text(record(kind)), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_end(pilot)
        end = app.screen
        assert type(end).__name__ == "EndScreen"
        await pilot.press("s")
        assert isinstance(app.screen, StatsScreen)
        shown = [box for box in app.screen.query("VerticalScroll") if box.display]
        assert len(shown) == 1                        # 80 columns: one picture at a time
        first = shown[0].id
        await pilot.press("tab")
        assert [box.id for box in app.screen.query("VerticalScroll") if box.display] != [first]
        await pilot.press("escape")
        assert app.screen is end


async def test_a_wide_terminal_shows_the_pictures_side_by_side():
    app = AnkhApp(GameSession.from_text(record("guilds")), bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await at_the_end(pilot)
        await pilot.press("s")
        assert all(box.display for box in app.screen.query("VerticalScroll"))


# --- ankh replay --stats -----------------------------------------------------------------

async def test_the_pictures_alone_close_with_escape():
    """At a terminal ``ankh replay FILE --stats`` shows the pictures alone: leaving them ends it."""
    from ankh.tui.stats import StatsApp
    app = StatsApp(stats_of_record(record("guilds")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.return_code == 0 and not app.is_running

@pytest.mark.parametrize("kind", KINDS)
def test_replay_stats_of_a_local_record(kind, tmp_path, capsys):
    path = tmp_path / "game.ankh"
    path.write_text(record(kind), encoding="utf-8")
    stats = stats_of_record(record(kind))
    assert ankh_main(["--lang", "en", "replay", "--stats", str(path)]) == 0
    out = capsys.readouterr().out
    dice = "2d6" if kind == "guilds" else "d12"
    assert f"The dice: {len(stats.rolls)} {'roll' if len(stats.rolls) == 1 else 'rolls'} of {dice}" in out
    assert ("victory points" if kind == "guilds" else "areas controlled") in out
    assert out.count("\n R ") >= 3 and "\n B " in out      # every seat by its letter


@pytest.mark.parametrize("kind", KINDS)
def test_replay_stats_of_a_networked_save(kind, networked, capsys):
    path, star = networked[kind]
    assert ankh_main(["--lang", "fr", "replay", "--stats", str(path.parent)]) == 0
    out = capsys.readouterr().out
    assert "Les dés" in out and "\n J " in out and "\n V " in out   # R J V B in French
    seen = stats_of_ledger(star.peers[1].protocol.ledger)    # what a seat saw, as the save says
    dice = "2d6" if kind == "guilds" else "d12"
    assert f"Les dés : {len(seen.rolls)} {'jets' if len(seen.rolls) > 1 else 'jet'} de {dice}" in out   # 0 jet, 1 jet


@pytest.mark.parametrize("kind", KINDS)
def test_a_seat_a_spectator_and_the_save_see_the_same_figures(kind, networked):
    from ankh.net.play.peer import Spectator
    from ankh.net.files.transcript import read_stream
    path, star = networked[kind]
    roster, stream = read_stream(io.BytesIO(path.read_bytes()))
    frames = [frame for _step, frame in stream]
    saved = stats_of_log(roster, frames)
    spectator = Spectator(roster)
    spectator.feed(frames)
    assert stats_of_ledger(spectator.ledger()) == saved
    for seat in star.peers:
        assert stats_of_ledger(seat.protocol.ledger) == saved
    assert len(saved.series[next(iter(saved.series))][0]) > 2


# --- what they look like -----------------------------------------------------------------

class Pictures(App):
    def __init__(self, kind: str, lang: str, stats=None):
        super().__init__()
        self.kind, self.lang, self.stats = kind, lang, stats

    def on_mount(self) -> None:
        i18n.set_language(self.lang)
        self.push_screen(StatsScreen(self.stats or stats_of_record(record(self.kind))))


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")])
def test_the_pictures(snap_compare, kind, lang, size):
    assert snap_compare(Pictures(kind, lang), press=["tab"] if size == (80, 24) else [], terminal_size=size)


@pytest.mark.parametrize("kind", KINDS)
def test_the_pictures_a_spectator_sees(snap_compare, kind, networked):
    """A spectator of a networked game (its figures from the public log it followed), side by side."""
    from ankh.net.play.peer import Spectator
    from ankh.net.files.transcript import read_stream
    path, _star = networked[kind]
    roster, stream = read_stream(io.BytesIO(path.read_bytes()))
    spectator = Spectator(roster)
    spectator.feed([frame for _step, frame in stream])
    assert snap_compare(Pictures(kind, "en", stats_of_ledger(spectator.ledger())), terminal_size=(120, 40))


async def test_a_spectator_reaches_the_statistics_from_the_end_screen(tmp_path):
    """Watching a networked table to its end: ``s`` on the end screen shows the
    figures of the public log the spectator followed."""
    from .helpers import watching_until_turn
    from .test_netplay import watched_table

    async with watched_table(tmp_path) as (app, _host, go_on):
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await watching_until_turn(pilot, 2)
            session = screen.session
            go_on.set()
            for _ in range(4000):
                if type(app.screen).__name__ == "EndScreen":
                    break
                await pilot.pause(0.05)
            assert type(app.screen).__name__ == "EndScreen" and session.spectating
            await pilot.press("s")
            assert isinstance(app.screen, StatsScreen)
            stats = app.screen.stats
            assert stats.rolls == [e.data["roll"] for e in session.log if e.kind == "roll"]
            assert [line[-1] for line in stats.series["money"]] == list(session.peer.engine.money)


@pytest.mark.parametrize("kind", KINDS)
def test_the_french_dice_picture_writes_its_expected_counts_with_a_decimal_comma(kind, tmp_path, capsys):
    """`ankh --lang fr replay --stats` (and the end screen) said "1 (0.4)": in
    French a decimal is written with a comma, "1 (0,4)"."""
    import re
    path = tmp_path / "game.ankh"
    path.write_text(record(kind), encoding="utf-8")
    assert ankh_main(["--lang", "fr", "replay", "--stats", str(path)]) == 0
    out = capsys.readouterr().out
    expected = re.findall(r" \d+ \((\d+\D\d)\)$", out, re.M)
    assert expected and all("," in e for e in expected), out
    assert ankh_main(["--lang", "en", "replay", "--stats", str(path)]) == 0
    assert all("." in e for e in re.findall(r" \d+ \((\d+\D\d)\)$", capsys.readouterr().out, re.M))


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_picture_taller_than_80x24_says_how_to_see_the_rest(lang):
    """At 80×24 the race of a four-seat game ran past the bottom: the
    personalities revealed at the end were out of sight and nothing on screen
    said so. The footer offers the arrows there (and only there), and they reach it."""
    from textual.widgets import Footer
    from .helpers import screen_lines
    i18n.set_language(lang)
    app = AnkhApp(GameSession.from_text(record("morpork")), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_end(pilot)
        await pilot.press("s")
        screen = app.screen

        def offered() -> bool:
            return any(b.binding.action.startswith("scroll_picture")
                       for b in screen.active_bindings.values() if b.binding.show and b.enabled)

        for _ in range(3):                                   # each picture in turn
            for _ in range(3):
                await pilot.pause()
            box = next(b for b in screen.query("VerticalScroll") if b.display)
            if box.max_scroll_y == 0:
                assert not offered()
            else:
                assert offered(), box.id
                footer = " ".join(screen_lines(app)[-1].split())
                assert i18n.pgettext("key", "Scroll") in footer, footer
                for _ in range(box.max_scroll_y):
                    await pilot.press("down")
                await pilot.pause()
                assert i18n._("Personalities") in "\n".join(screen_lines(app)), box.id
            await pilot.press("tab")
        assert any(b.max_scroll_y for b in screen.query("VerticalScroll")), "every picture fitted"
