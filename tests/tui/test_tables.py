"""Choosing the game of a networked table on screen: the host dialog chooses
it (and says plainly when its rules cannot be played over the network yet),
the join list shows each table's game, in the player's language, and keeps
the address line in sight however many tables it lists."""
from __future__ import annotations

import pytest
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from ankh.core.game import get
from ankh.net.io.discovery import TableInfo
from ankh.tui import i18n
from ankh.tui.app import AnkhApp
from ankh.tui.screens import lobby
from ankh.tui.screens.lobby import HostDialog, JoinScreen, LobbyScreen

from .helpers import join_typed


class FakeBrowser:
    """The tables heard of on the LAN, as the test says (no multicast)."""

    def __init__(self, on_change, **_kw) -> None:
        self.tables: dict[str, TableInfo] = {}
        self.on_change = on_change

    async def start(self) -> "FakeBrowser":
        return self

    async def close(self) -> None:
        pass

    def hear(self, *tables: TableInfo) -> None:
        self.tables = {t.service: t for t in tables}
        self.on_change(None)


def table(title: str, game: str = "morpork", table_id: str = "ab" * 16, port: int = 4700,
          fp: str = "4trt-osp6-cmbk-lan6") -> TableInfo:
    return TableInfo(service=f"{title}._ankh._tcp.local.", title=title, server="h.local.",
                     addresses=("127.0.0.1",), port=port, version=1, table_id=table_id, seats_taken=1,
                     seats_total=3, phase="lobby", host_fp=fp, host_name="Rincewind", game=game)


@pytest.fixture
def lan(monkeypatch):
    monkeypatch.setattr(lobby, "TableBrowser", FakeBrowser)


async def test_the_host_dialog_says_plainly_that_a_game_cannot_be_played_over_the_network_yet(monkeypatch):
    monkeypatch.setattr(type(get("guilds")), "networked", False)
    i18n.set_language("fr")
    app = AnkhApp(bot_delay=0, interface="127.0.0.1", advertise=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        dialog = app.screen
        assert isinstance(dialog, HostDialog)
        await pilot.press("up", "right")                    # the game: the guild variant
        await pilot.pause()
        note = str(dialog.query_one("#not-networked").render())
        assert note.startswith("« Les Guildes d'Ankh-Morpork » ne se joue pas encore en réseau")
        assert not dialog.query("#seats")                   # no table's fields for a game no table can play
        assert [key.has_class("-disabled") for key in app.screen.query(FooterKey) if key.description == "Ouvrir"] == [True]
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog                          # nothing opened
        await pilot.press("left")                            # back to the first game: its table's fields
        await pilot.pause()
        assert not dialog.query("#not-networked") and dialog.query_one("#seats").value == 2


async def test_a_game_its_rules_let_onto_the_network_is_hosted_from_the_dialog_as_it_is(monkeypatch):
    """The day the guild variant's rules say it may be played over the network,
    the dialog offers its seats and bots and opens its table: nothing else to change."""
    monkeypatch.setattr(type(get("guilds")), "networked", True)
    app = AnkhApp(bot_delay=0, interface="127.0.0.1", advertise=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        dialog = app.screen
        await pilot.press("up", "right")
        await pilot.pause()
        assert not dialog.query("#not-networked")
        assert [v for _, v in dialog.query_one("#seats").choices] == list(get("guilds").seats)
        await pilot.press("down", "right", "down", "right", "enter")   # 4 seats, 1 bot
        assert isinstance(app.screen, LobbyScreen)
        session = app.screen.session
        assert session.kind == "guilds" and session.node.lobby.kind == "guilds"
        assert session.node.lobby.total == 4 and len(session.node.lobby.seats) == 2   # the host and its bot
        await pilot.pause(0.6)
        assert str(app.screen.query_one("#lobby-title").render()) == "The table  ·  The Guilds of Ankh-Morpork"
        await pilot.press("escape")


async def test_the_join_list_names_each_tables_game_in_the_players_language(lan):
    i18n.set_language("fr")
    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j")
        screen = app.screen
        assert isinstance(screen, JoinScreen)
        screen.browser.hear(table("Drum"), table("Patrician", game="guilds", table_id="cd" * 16))
        await pilot.pause()
        choices = screen.query_one("#tables")
        shown = {t.title: str(choices.get_option_at_index(i).prompt) for i, t in enumerate(screen.tables)}
        assert shown["Drum"].startswith("Drum  Disque-Monde : Ankh-Morpork  1/3")
        assert shown["Patrician"].startswith("Patrician  Les Guildes d'Ankh-Morpork  1/3")


async def test_the_join_lists_warnings_never_push_the_address_line_out_of_sight(lan):
    """Look-alike and copied adverts, each with its warnings, at 80×24: the
    list scrolls, the address line stays whole on the screen, and typing an
    address still works."""
    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j")
        screen = app.screen
        twins = [table(title, port=4700 + n) for n, title in enumerate(("Drum", "Drum-2", "Drum-3", "Drυm", "Drum "))]
        screen.browser.hear(*twins)
        await pilot.pause()
        choices = screen.query_one("#tables")
        assert choices.virtual_size.height > choices.size.height       # more than fits: the list scrolls
        address = screen.query_one("#address", Input)
        top, bottom = address.region.y, address.region.bottom
        assert address.region.height == 3 and bottom <= app.size.height - 1   # whole, above the footer
        assert choices.region.bottom <= top
        await join_typed(pilot, screen, "127.0.0.1:9")
        assert isinstance(app.screen, LobbyScreen)


def test_every_game_is_named_in_the_players_language_where_a_game_is_named():
    """The rules' own name of each game (what the network layer says) is a
    sentence of the catalogue: a refusal, the command line, the lists and the
    dialogs name a game in French in French."""
    from ankh.tui.games import name, shown

    i18n.set_language("fr")
    assert [name(kind) for kind in shown()] == ["Disque-Monde : Ankh-Morpork", "Les Guildes d'Ankh-Morpork"]
    assert [i18n.translated(get(kind).name) for kind in shown()] == [name(kind) for kind in shown()]


def test_a_table_of_another_game_is_refused_naming_both_games_in_french(monkeypatch):
    from ankh.net.wire.envelope import Identity
    from ankh.net.tablecore.join import JoinTable

    monkeypatch.setattr(type(get("guilds")), "networked", True)
    i18n.set_language("fr")
    node = JoinTable(Identity.generate(), "Rincewind", clock=lambda: 0.0, want="morpork")
    assert i18n.translated(node._other_game("guilds")) == (
        "refusé : la table joue à « Les Guildes d'Ankh-Morpork », pas à « Disque-Monde : Ankh-Morpork »")
    monkeypatch.setattr(type(get("guilds")), "networked", False)
    node.want = None
    assert i18n.translated(node._other_game("guilds")) == (
        "refusé : « Les Guildes d'Ankh-Morpork » ne se joue pas encore en réseau")


@pytest.mark.parametrize("command", ["host", "join"])
def test_the_command_line_refuses_a_game_not_yet_on_the_network_in_the_players_language(command, monkeypatch,
                                                                                          capsys):
    from ankh.tui.cli import main

    monkeypatch.setattr(type(get("guilds")), "networked", False)
    with pytest.raises(SystemExit) as exited:
        main(["--lang", "fr", command, "--game", "guilds", "--headless"])
    assert exited.value.code == 2
    assert ("« Les Guildes d'Ankh-Morpork » ne se joue pas encore en réseau : seulement contre des robots"
            in capsys.readouterr().err)


def test_a_networked_save_of_another_game_names_its_game_in_the_load_list(ankh_home, monkeypatch):
    import os

    from ankh.net.files import journal
    from ankh.net.wire.envelope import Identity
    from ankh.net.files.transcript import Roster
    from ankh.tui.session import list_saves, saves_dir

    from ankh.core.game import GAMES

    monkeypatch.setitem(GAMES, "tiny", "tests.tinygame")   # the test game, known for this test
    keys = tuple(Identity.generate().public_key for _ in range(2))
    folder = saves_dir() / "net-tiny"
    folder.mkdir(parents=True)
    (folder / "journal.ankh").write_bytes(journal.header(Roster(os.urandom(16), ("ann", "bob"), keys, kind="tiny"),
                                                         {"role": "host"}))
    [info] = list_saves()
    assert info.ok and info.game == "High card" and info.summary.startswith("network · ann, bob · you host")


async def test_a_table_heard_of_while_an_address_is_typed_takes_neither_the_keys_nor_the_text(lan):
    """The list changes as adverts come and go; the address being typed keeps
    the keys and what was typed, and the list keeps its place."""
    app = AnkhApp(bot_delay=0, interface="127.0.0.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j")
        screen = app.screen
        screen.browser.hear(table("Drum"), table("Patrician", table_id="cd" * 16, port=4701))
        await pilot.pause()
        choices = screen.query_one("#tables")
        assert screen.focused is choices                     # the tables, when they first appear
        await pilot.press("down")
        assert choices.highlighted == 1
        await pilot.press("tab", "1", "2", "7")
        address = screen.query_one("#address", Input)
        assert screen.focused is address
        screen.browser.hear(table("Drum"), table("Patrician", table_id="cd" * 16, port=4701),
                            table("Unseen", table_id="ef" * 16, port=4702))
        await pilot.pause()
        await pilot.press(".", "0")
        assert screen.focused is address and address.value == "127.0"
        assert choices.highlighted == 1 and choices.option_count == 3
