"""The program in French: the catalogues are complete and up to date, the
language follows ``--lang``, the settings and the locale (in that order),
French screens show no English sentence of the program's, and a French and
an English player write the same record."""
from __future__ import annotations

import asyncio
import gettext
import importlib.util
import io
import os
import re
import socket
import subprocess
import sys
import zipfile
from importlib import resources
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ankh.core.morpork.catalog import AREAS, CARDS, EVENTS, PERSONALITIES
from ankh.net.wire.errors import Words
from ankh.net.tablecore.join import farewell
from ankh.tui import i18n
from ankh.tui.app import AnkhApp
from ankh.tui.cli import main as ankh_main
from ankh.tui.session import GameSession

from . import scenarios
from .helpers import settle

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "tui" / "locale"
FR = LOCALE / "fr" / "LC_MESSAGES"
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
# Placeholders a translation may add: "you" names the seat too ("rouge (vous)").
EXTRA_PLACEHOLDERS = {"you": {"colour"}}


def _tool():
    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "scripts" / "catalogues.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


catalogues = _tool()


def _read(path: Path):
    with open(path, "rb") as f:
        return read_po(f)


def _placeholders(text) -> set[str]:
    """The placeholders of a sentence (of every form of a plural one)."""
    if isinstance(text, (tuple, list)):
        return set().union(*(_placeholders(t) for t in text))
    return set(re.findall(r"(?<!\{)\{(\w+)\}", text))


# --- the catalogues ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def program_template():
    return catalogues.program_template()


def test_every_program_sentence_has_a_french_translation(program_template):
    """Every _() / N_() / pgettext() string in tui/ and every prompt of the rules
    engine, freshly extracted, has a French translation with the same placeholders."""
    french = _read(FR / "ankh.po")
    missing, broken = [], []
    for m in program_template:
        if not m.id:
            continue
        t = french.get(m.id, context=m.context)
        if t is None or not t.string or not all(t.string if isinstance(t.string, tuple) else (1,)) or t.fuzzy:
            missing.append((m.context, m.id))
        elif not _placeholders(t.string) <= _placeholders(m.id) | EXTRA_PLACEHOLDERS.get(
                m.id if isinstance(m.id, str) else m.id[0], set()):
            broken.append((m.id, t.string))
    assert not missing, f"{len(missing)} sentences have no French translation: {missing[:10]}"
    assert not broken, f"translations with placeholders the English has not: {broken}"


def test_the_french_words_call_a_bot_a_robot_everywhere():
    """The new-game dialog and the title say "robots"; the review, the hint and the
    help said "le bot difficile": one word for one thing (the option --bots stays)."""
    french = _read(FR / "ankh.po")
    said = [t.string for t in french if t.id]
    words = [s for t in said for s in (t if isinstance(t, tuple) else (t,))]
    assert any(re.search(r"\brobots?\b", w) for w in words)
    bots = [w for w in words if re.search(r"(?<!-)\bbots?\b", w)]
    assert not bots, bots


def test_the_committed_template_is_up_to_date(program_template):
    committed = {(m.context, m.id) for m in _read(LOCALE / "ankh.pot") if m.id}
    fresh = {(m.context, m.id) for m in program_template if m.id}
    assert fresh - committed == set(), "run scripts/i18n: new sentences are not in tui/locale/ankh.pot"
    assert committed - fresh == set(), "run scripts/i18n: tui/locale/ankh.pot lists sentences no longer used"


def test_every_game_name_and_text_is_in_the_game_template():
    template = {(m.context, m.id) for m in _read(LOCALE / "ankh-game.pot") if m.id}
    expected = set()
    for kind, items in (("card", CARDS), ("area", AREAS), ("personality", PERSONALITIES), ("event", EVENTS)):
        for item in items:
            expected.add((kind, item["name"]))
            if item.get("text"):
                expected.add((kind + "-text", item["text"]))
    assert expected - template == set(), "run scripts/i18n: tui/locale/ankh-game.pot misses these"
    assert template - expected == set(), "run scripts/i18n: tui/locale/ankh-game.pot is stale"


def test_the_french_game_catalogue_is_complete_or_absent():
    """With ankh-game.po the French names and texts are all there; without it
    the game shows the English ones (never an empty name)."""
    po = FR / "ankh-game.po"
    i18n.set_language("fr")
    if po.exists():
        french = _read(po)
        for m in _read(LOCALE / "ankh-game.pot"):
            if m.id:
                t = french.get(m.id, context=m.context)
                assert t is not None and t.string and not t.fuzzy, (m.context, m.id)
                assert i18n.game(m.context, m.id) == t.string
    else:
        for c in CARDS:
            assert i18n.game("card", c["name"]) == c["name"]


def _messages(mo: bytes) -> dict:
    """What a compiled catalogue translates (whichever tool compiled it), less its header."""
    catalog = gettext.GNUTranslations(io.BytesIO(mo))._catalog
    return {k: v for k, v in catalog.items() if k != ""}


def test_the_committed_mo_files_equal_a_fresh_compile():
    pos = catalogues.po_files()
    assert FR / "ankh.po" in pos
    for po in pos:
        mo = po.with_suffix(".mo")
        assert mo.exists(), f"{mo} is missing: run scripts/i18n"
        fresh = _messages(catalogues.compiled(po))
        assert len(fresh) > 100
        assert _messages(mo.read_bytes()) == fresh, f"{mo} is stale: run scripts/i18n"


def test_the_catalogues_are_package_data():
    """Found through importlib.resources, and listed in pyproject's package data."""
    package = resources.files("ankh.tui")
    assert package.joinpath("locale", "fr", "LC_MESSAGES", "ankh.mo").is_file()
    assert resources.files("ankh.tui.games.morpork").joinpath("data", "rules.md").is_file()
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for pattern in ("locale/*/LC_MESSAGES/*.mo", "locale/*/LC_MESSAGES/*.po", "data/*"):
        assert f'"{pattern}"' in text


@pytest.mark.xdist_group("wheel-build")  # with tests/test_packaging.py: one build at a time in build/
def test_a_built_wheel_carries_the_catalogues_and_the_rules(pure_wheel):
    """What a non-editable install gets: the wheel holds the .mo, .po and rules pages
    (the same package data with the compiled core or without: the session's ANKH_PURE build)."""
    out, wheels = pure_wheel
    assert out.returncode == 0, out.stderr[-2000:]
    wheel, = wheels
    names = set(zipfile.ZipFile(wheel).namelist())
    for po in catalogues.po_files():
        rel = po.relative_to(ROOT / "tui")
        assert f"ankh/tui/{rel}" in names
        assert f"ankh/tui/{rel.with_suffix('.mo')}" in names
    pages = list((ROOT / "tui").glob("games/*/data/rules*.md"))
    assert len(pages) >= 2
    for rules in pages:
        assert f"ankh/tui/{rules.relative_to(ROOT / 'tui').as_posix()}" in names


# --- choosing the language --------------------------------------------------------------------


@pytest.mark.parametrize("environ, expected", [
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "fr_CA"}, "fr"),
    ({"LANG": "C.UTF-8"}, None),
    ({"LANG": "de_DE.UTF-8"}, None),
    ({"LC_ALL": "fr_BE.UTF-8", "LANG": "en_GB.UTF-8"}, "fr"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "fr_FR.UTF-8"}, "en"),          # LC_ALL comes first
    ({"LC_MESSAGES": "fr_FR.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
    ({"LANGUAGE": "de:fr", "LANG": "en_US.UTF-8"}, "fr"),               # a list, the first we have
    ({"LANGUAGE": "en", "LC_ALL": "fr_FR.UTF-8"}, "en"),
    ({}, None),
])
def test_the_locale_is_read_in_gettexts_order(environ, expected):
    assert i18n.locale_language(environ) == expected


def test_lang_beats_the_saved_choice_which_beats_the_locale(ankh_home):
    french = {"LANG": "fr_FR.UTF-8"}
    assert i18n.choose_language(None, french) == "fr"
    assert i18n.choose_language(None, {"LANG": "C"}) == "en"
    i18n.save_language("en")
    assert (ankh_home / i18n.LANGUAGE_FILE).read_text().strip() == "en"
    assert i18n.choose_language(None, french) == "en"
    assert i18n.choose_language("fr", french) == "fr"
    i18n.save_language("fr")
    assert i18n.choose_language(None, {"LANG": "en_US.UTF-8"}) == "fr"
    assert i18n.choose_language("en", {"LANG": "fr_FR.UTF-8"}) == "en"


def test_a_damaged_saved_choice_counts_as_none(ankh_home):
    ankh_home.mkdir(parents=True, exist_ok=True)
    (ankh_home / i18n.LANGUAGE_FILE).write_bytes(b"\xff\xfe klingon")
    assert i18n.saved_language() is None
    assert i18n.choose_language(None, {"LANG": "fr_FR.UTF-8"}) == "fr"


def test_the_command_line_takes_lang_before_and_after_a_subcommand(tmp_path, monkeypatch, capsys):
    """``--lang`` is accepted by the program and its screen-showing subcommands,
    and what is printed for scripts (``ankh replay``) stays in English."""
    record = tmp_path / "game.ankh"
    record.write_text(scenarios.FOLLOW, encoding="utf-8")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert ankh_main(["replay", str(record)]) == 0
    french_locale = capsys.readouterr().out
    assert i18n.language() == "fr"
    assert ankh_main(["--lang", "en", "replay", str(record)]) == 0
    assert capsys.readouterr().out == french_locale
    assert i18n.language() == "en"
    assert "yellow: assassinate the-shades red" in french_locale
    with pytest.raises(SystemExit):
        ankh_main(["--lang", "de", "replay", str(record)])
    assert "invalid choice" in capsys.readouterr().err


def test_unknown_languages_are_refused():
    with pytest.raises(ValueError):
        i18n.set_language("xx")


# --- French screens -------------------------------------------------------------------------


# The names of the rule book (areas, personalities, events), standing in for
# the game catalogue so that these screens do not depend on it.
RULE_BOOK_NAMES = {
    ("area", "Dolly Sisters"): "Les Sœurs-Étienne", ("area", "Unreal Estate"): "Terrain Forcier",
    ("area", "Dragon's Landing"): "L'Atterrissage-du-Dragon", ("area", "Small Gods"): "Les Petits-Dieux",
    ("area", "The Scours"): "Les Décapes", ("area", "The Hippo"): "L'Hippo",
    ("area", "The Shades"): "Les Ombres", ("area", "Dimwell"): "Sombrepuits",
    ("area", "Longwall"): "Grand-Mur", ("area", "Isle of Gods"): "Île des Dieux",
    ("area", "Seven Sleepers"): "Les Sept-Dormants", ("area", "Nap Hill"): "Mont-Roupillon",
    ("personality", "Lord Vetinari"): "Lord Vétérini", ("personality", "Lord Rust"): "Seigneur Rouille",
    ("personality", "Commander Vimes"): "Commissaire Divisionnaire Vimaire",
    ("event", "Explosion"): "Explosion", ("event", "Flood"): "Inondation",
    ("card", "Gaspode"): "Gaspode", ("card", "The Duckman"): "L'Homme au Canard",
}


class FixedGameNames:
    """A stand-in for the ankh-game catalogue: a few names from the rule book."""

    def pgettext(self, context: str, message: str) -> str:
        return RULE_BOOK_NAMES.get((context, message), message)


@pytest.fixture
def french(monkeypatch):
    i18n.set_language("fr")
    monkeypatch.setattr(i18n, "_game", FixedGameNames())


def game(record: str) -> AnkhApp:
    return AnkhApp(GameSession.from_text(record), bot_delay=0)


def screen_text(app) -> str:
    """What the terminal shows, as text."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


@pytest.mark.parametrize("size", SIZES)
def test_french_title(snap_compare, size, french):
    assert snap_compare(AnkhApp(bot_delay=0), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_french_game(snap_compare, size, french):
    # the bots play on from the record before the person's turn: the picture is of that turn
    assert snap_compare(game(scenarios.FOLLOW), run_before=settle, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_french_help(snap_compare, size, french):
    """The keys page of the help (the rules page is the other engineer's text)."""
    async def keys(pilot):
        await pilot.press("r", "1")
        await pilot.pause()
        pilot.app.get_screen("help").show_tab("keys")
        await pilot.pause()
    assert snap_compare(AnkhApp(bot_delay=0), run_before=keys, terminal_size=size)


def _english_fragments(template) -> dict[str, str]:
    """Pieces of the program's English sentences (between placeholders, three
    words or more) that their French translation does not share."""
    french = _read(FR / "ankh.po")
    # (Card, area, event and personality texts belong to the game catalogue, tested on its own.)
    printed = " ".join(x.get("text", "") + " " + x["name"] for x in CARDS + AREAS + EVENTS + PERSONALITIES)
    out = {}
    for m in template:
        if not m.id:
            continue
        t = french.get(m.id, context=m.context)
        translated = " ".join(t.string) if t is not None and isinstance(t.string, tuple) else t and t.string
        for english in (m.id if isinstance(m.id, tuple) else (m.id,)):   # both forms of a plural
            for piece in re.split(r"\{\w+\}", english):
                for line in piece.split("\n"):
                    line = line.strip(" .,:;()—")
                    if len(line.split()) >= 3 and t is not None and line not in translated and line not in printed:
                        out[line] = english
    return out


@pytest.mark.parametrize("record, keys", [
    pytest.param(scenarios.FOLLOW, [], id="since-your-last-move"),
    pytest.param(scenarios.FOLLOW, ["l"], id="log"),
    pytest.param(scenarios.FOLLOW, ["h"], id="hand"),
    pytest.param(scenarios.FOLLOW, ["p"], id="players"),
    pytest.param(scenarios.INTERRUPT_WINDOW, [], id="interrupt-window"),
    pytest.param(scenarios.CARD_TARGET, [], id="card-asking-for-a-player"),
    pytest.param(scenarios.TWO_STEP, [], id="two-step-choice"),
    pytest.param(scenarios.SCORED, [], id="end-of-game"),
])
async def test_a_french_screen_shows_no_english_sentence(program_template, french, record, keys):
    fragments = _english_fragments(program_template)
    assert len(fragments) > 200
    for size in ((80, 24), (120, 40)):
        app = game(record)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
            await pilot.pause()
            text = screen_text(app)
            flat = " ".join(text.split())
            english = {f: fragments[f] for f in fragments if f in flat}
            assert not english, f"English on a French screen at {size}: {english}\n{text}"
            assert not re.search(r"\{\w+\}", text), f"a placeholder left unfilled:\n{text}"


async def test_the_settings_change_the_language_at_once_and_remember_it(ankh_home):
    app = AnkhApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "New game against bots" in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        assert "Language" in screen_text(app) and "English" in screen_text(app)
        await pilot.press("right", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Nouvelle partie contre des robots" in text and "New game" not in text
        assert "Quitter" in text                         # the footer's words too
        await pilot.press("r", "1")                           # the help is built again, in French
        await pilot.pause()
        assert "Règles" in screen_text(app) and "Touches" in screen_text(app)
    assert (ankh_home / i18n.LANGUAGE_FILE).read_text().strip() == "fr"
    assert i18n.choose_language(None, {"LANG": "en_US.UTF-8"}) == "fr"
    i18n.set_language("fr")
    app = AnkhApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "left", "enter")
        await pilot.pause()
        assert "New game against bots" in screen_text(app)
    assert (ankh_home / i18n.LANGUAGE_FILE).read_text().strip() == "en"


async def test_a_french_and_an_english_player_write_the_same_record():
    """The same keys in both languages: the same moves, the same save."""
    saves = {}
    for lang in ("en", "fr"):
        i18n.set_language(lang)
        session = GameSession.from_text(scenarios.FOLLOW)
        app = AnkhApp(session, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in ("1", "1", "1", "enter", "2", "enter"):
                await pilot.press(key)
                await pilot.pause()
            saves[lang] = session.save_text()
    assert saves["en"] == saves["fr"]
    assert saves["en"] != GameSession.from_text(scenarios.FOLLOW).save_text()   # moves were made


def test_the_rules_page_is_french_where_there_is_one_and_english_otherwise(tmp_path, monkeypatch):
    package = tmp_path / "package"
    (package / "data").mkdir(parents=True)
    (package / "data" / "rules.md").write_text("# How to play\n", encoding="utf-8")
    monkeypatch.setattr(i18n.resources, "files", lambda name: package)
    i18n.set_language("fr")
    assert i18n.rules_text() == "# How to play\n"                  # no French page: the English one
    (package / "data" / "rules.fr.md").write_text("# Comment jouer\n", encoding="utf-8")
    assert i18n.rules_text() == "# Comment jouer\n"
    i18n.set_language("en")
    assert i18n.rules_text() == "# How to play\n"


def test_an_ssh_player_gets_the_language_their_client_sends(tmp_path):
    """``ankh serve --ssh`` hands the client's locale to the player's program."""
    from ankh.net.io.ssh import Player, child_environment
    player = Player("guest")
    env = child_environment(player, tmp_path, "xterm", {"LANG": "fr_FR.UTF-8", "LANGUAGE": "fr:en",
                                                        "LC_MESSAGES": "fr_FR.UTF-8"})
    assert env["LANG"] == "fr_FR.UTF-8" and env["LANGUAGE"] == "fr:en"
    assert i18n.locale_language(env) == "fr"


async def test_the_command_palette_speaks_french(french):
    from textual.command import CommandPalette
    app = game(scenarios.OPENING)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for title in ("Annuler", "Voir la carte", "Touches",
                      "Règles", "Thème", "Quitter"):
            assert title in titles
        assert not {"Theme", "Quit", "Rules", "Keys"} & set(titles)
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        assert isinstance(app.screen, CommandPalette)
        assert "Chercher une commande…" in screen_text(app)


async def test_a_french_host_and_an_english_peer_play_at_one_table(tmp_path, french):
    """The lobby and the game in French on one side, English on the other: every
    move is checked by both seats (the wire and the record know no language)."""

    from ankh.tui.games.morpork.screens.game import GameScreen
    from ankh.tui.screens.lobby import HostDialog, LobbyScreen

    from .helpers import listening_port, until_the_game

    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    joiner = None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("o")
            assert isinstance(app.screen, HostDialog)
            assert "Ouvrir une table sur le réseau" in screen_text(app)
            await pilot.press("enter")
            assert isinstance(app.screen, LobbyScreen)
            session = app.screen.session
            port = await listening_port(pilot, session)
            lobby = str(app.screen.query_one("#lobby-body").content)
            assert "Adresse : 127.0.0.1:" in lobby and "(place libre)" in lobby
            await pilot.press("ctrl+r")
            env = dict(os.environ, ANKH_HOME=str(tmp_path / "joiner"), LANG="en_US.UTF-8", LANGUAGE="en")
            joiner = subprocess.Popen([sys.executable, "-m", "ankh.tui.cli", "join", f"127.0.0.1:{port}",
                                       "--headless", "--bot", "random", "--seed", "7"],
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
            await until_the_game(pilot, session)
            decided = 0
            for _ in range(2000):                   # eight decisions of ours, the peer's in between
                if decided >= 8 or session.result is not None:
                    break
                if isinstance(app.screen, GameScreen) and app.screen.view is not None \
                        and app.screen.view.decision is not None and session.decision is not None:
                    await pilot.press("enter")
                    decided += 1
                await pilot.pause(0.03)
            assert decided >= 8 or (session.result is not None and session.result.fair)
            assert not session.error and joiner.poll() in (None, 0)
            assert len(session.log) > 8
            for _ in range(100):   # (a screen being drawn again after the last move shows its top line only)
                text = screen_text(app)
                if "Journal" in text:
                    break
                await pilot.pause(0.05)
            assert "Tour" in text and "Journal" in text
    finally:
        if joiner is not None and joiner.poll() is None:
            joiner.kill()
            joiner.wait()


def test_a_networked_result_is_told_in_the_players_language(french):
    """The wire's words for a result are the same on every seat; the screen says it in French."""
    from ankh.net.io.node import Result
    from ankh.tui.netplay import NetSession

    finished = GameSession.from_text(scenarios.SCORED)
    finished.game.advance()
    assert finished.game.state.outcome is not None

    class Peer:
        engine = finished.game.state
        game = finished.rules

    class FinishedTable(NetSession):
        peer = Peer()      # the seat's game, over
        viewer = 0

    session = FinishedTable()
    session.result = Result("yellow wins on points", fair=True, finished=True)
    assert session.net_alert == ("Résultat : J jaune gagne aux points : la pioche est épuisée et "
                                 "personne n'avait gagné.")
    session.result = Result("yellow wins on points", fair=False, finished=True)
    assert session.net_alert.endswith("l'audit a trouvé une tricherie")
    session.result = Result(Words("the host closed the table before the game ended"))
    assert session.net_alert == "Résultat : l'hôte a fermé la table avant la fin de la partie"
    session.result = Result("words from a newer version of the game")   # not in the catalogue
    assert session.net_alert == "Résultat : words from a newer version of the game"


def test_the_network_layers_reasons_are_told_in_french_and_stay_english_elsewhere(french):
    reason = Words("could not reach {host} port {port}: {why}", host="table.lan", port=5000,
                   why=Words("nothing listens there"))
    assert reason == "could not reach table.lan port 5000: nothing listens there"  # logs, headless, wire
    assert i18n.translated(reason) == "impossible de joindre table.lan port 5000 : personne n'écoute à cette adresse"
    # A peer's reason arrives over the wire as plain English: known sentences are still said in French.
    came = Words("the peer closed the link: {why}", why="the table is full")
    assert i18n.translated(came) == "l'autre machine a fermé la liaison : la table est complète"
    # The host turning a joiner away says so in its bye, which the joiner's screen says in French.
    refusal = farewell("refused: the table is full")
    assert refusal == "refused: the table is full"
    assert i18n.translated(refusal) == "refusé : la table est complète"
    timed = Words("no word from the peer for {secs:g} s", secs=15.0)
    assert timed == "no word from the peer for 15 s"
    assert i18n.translated(timed) == "aucune nouvelle de l'autre machine depuis 15 s"
    i18n.set_language("en")
    assert i18n.translated(reason) == str(reason)


async def test_a_french_player_who_cannot_reach_a_table_is_told_why_in_french(ankh_home, french):
    """A real connection to a port where nothing listens: the screen's words are French."""
    from ankh.tui.netplay import NetSession

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]     # free, and nothing listens there once closed
    session = NetSession()
    session.join("127.0.0.1", port)
    for _ in range(200):
        if session.error:
            break
        await asyncio.sleep(0.02)
    assert session.net_alert == f"impossible de joindre 127.0.0.1 port {port} : personne n'écoute à cette adresse"
    assert str(session.error) == f"could not reach 127.0.0.1 port {port}: nothing listens there"
    await session.close()


def test_a_damaged_catalogue_shows_english_rather_than_no_program(tmp_path, monkeypatch):
    package = tmp_path / "package"
    folder = package / "locale" / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    good = (FR / "ankh.mo").read_bytes()
    (folder / "ankh.mo").write_bytes(good[: len(good) // 3])             # truncated
    (folder / "ankh-game.mo").write_bytes(b"\x00garbage\xff" * 10)
    monkeypatch.setattr(i18n.resources, "files", lambda name: package)
    i18n.set_language("fr")
    assert i18n.language() == "fr"
    assert i18n._("New game against bots") == "New game against bots"
    assert i18n.game("card", "Gaspode") == "Gaspode"


def test_seat_colours_are_marked_as_whole_words_only(french):
    from ankh.tui.games.morpork.words import style_line
    line = style_line("Vert a ouvert le passage ; rouge (vous) paie vert.")
    marked = [(line.plain[s.start:s.end], s.style) for s in line.spans]
    assert marked == [("rouge", "bold red"), ("Vert", "bold green"), ("vert", "bold green")]


def test_the_command_line_help_and_its_errors_speak_french(tmp_path):
    """``ankh --lang fr --help`` and a French locale: argparse's own words, the
    commands and every option in French; a mistake on the command line is
    explained in French too (the options themselves keep their names)."""
    env = dict(os.environ, ANKH_HOME=str(tmp_path), LANG="C.UTF-8", LANGUAGE="")
    def ankh(*args, **extra):
        return subprocess.run([sys.executable, "-m", "ankh.tui.cli", *args], capture_output=True, text=True,
                              timeout=60, env=dict(env, **extra), stdin=subprocess.DEVNULL)

    fr = ankh("--lang", "fr", "--help")
    assert fr.returncode == 0
    assert fr.stdout.startswith("usage : ankh") and "afficher cette aide et quitter" in fr.stdout
    assert "ouvrir une table sur le réseau" in fr.stdout and "commandes" in fr.stdout
    assert "open a table on the network" not in fr.stdout
    host = ankh("host", "--help", LANG="fr_FR.UTF-8")
    assert "places à la table (2 par défaut)" in host.stdout and "--no-spectator-chat" in host.stdout
    wrong = ankh("host", "--bots", "5", LANG="fr_FR.UTF-8")
    assert wrong.returncode == 2 and "ankh : erreur : --bots doit être entre 0 et 1" in wrong.stderr
    en = ankh("host", "--bots", "5")
    assert en.returncode == 2 and "ankh: error: --bots must be between 0 and 1" in en.stderr
    assert "show this help message and exit" in ankh("--help").stdout


async def test_a_field_name_as_long_as_its_column_keeps_a_space_before_its_arrow():
    """In French the new-game dialog read "Votre couleur◀ J jaune ▶": the name
    of the field ran into the arrow that changes it."""
    from ankh.tui.app import AnkhApp
    from ankh.tui.widgets.stepper import Stepper
    i18n.set_language("fr")
    app = AnkhApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "down", "right")             # the colour: yellow, an arrow either side
        await pilot.pause()
        fields = list(app.screen.query(Stepper))
        rows = [str(f.render()) for f in fields]
        assert any("Votre couleur ◀ J jaune ▶" in r for r in rows), rows
        values = {r.rindex(f.choices[f.index][0]) for f, r in zip(fields, rows)}
        assert len(values) == 1, rows                       # the values stay in one column

