"""``ankh replay`` on a networked game's save: its public log in the
player's language (or its final public state as JSON), read from the save
folder, its game.ankh or its journal; and a reader that stops early (``|
head``) ends it quietly."""
from __future__ import annotations

import asyncio
import json
import shlex
import subprocess
from pathlib import Path

import pytest

from ankh.tui.cli import main as ankh_main

from .terminal import ankh_command


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    """A whole networked game (a seat and a bot, both played by random bots), saved as it went."""
    from ankh.net.wire.envelope import Identity
    from ankh.net.io.node import HostNode
    from tests.net.test_watch import bot_decide

    root = tmp_path_factory.mktemp("saves")

    async def play() -> None:
        host = HostNode(Identity.generate(), "ann", seats=2, bots=1, decide=bot_decide(3),
                        report=lambda e: None, save_root=root, bind="127.0.0.1", advertise=False)
        await host.open()
        await host.run()

    asyncio.run(play())
    (folder,) = root.glob("net-*")
    assert (folder / "game.ankh").exists() and (folder / "journal.ankh").exists()
    return folder


@pytest.mark.parametrize("which", ["folder", "game.ankh", "journal.ankh"])
def test_a_networked_save_replays_as_its_public_log(saved, which, capsys):
    path = saved if which == "folder" else saved / which
    assert ankh_main(["--lang", "en", "replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("goes first.") and lines[1].startswith("Turn 1: ")
    assert any(line.startswith("Turn 2: ") for line in lines)
    assert "won" in lines[-1] or "share the win" in lines[-1], lines[-1]
    assert not [line for line in lines if line.startswith(("You ", "Your "))]   # nobody's view: no "you"


def test_a_networked_save_replays_in_french(saved, capsys):
    assert ankh_main(["--lang", "fr", "replay", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "joue en premier." in out and "Tour 2 : " in out


def test_a_networked_save_replays_as_json_without_its_hidden_cards(saved, capsys):
    assert ankh_main(["replay", "--json", str(saved / "game.ankh")]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["outcome"] is not None
    hands = [card for seat in state["seats"].values() for card in seat["hand"]]
    assert hands and any(card.startswith("#") for card in hands)   # the public log does not show the hands


@pytest.mark.parametrize("which", ["game.ankh", None])
def test_replay_into_head_ends_quietly(saved, tmp_path, which):
    """``ankh replay FILE | head``: no BrokenPipeError, no traceback."""
    if which is None:                     # a long record
        from . import scenarios
        path = tmp_path / "record.ankh"
        path.write_text(scenarios.FOLLOW, encoding="utf-8")
    else:
        path = saved / which
    replay = f"{shlex.quote(str(ankh_command()))} replay {shlex.quote(str(path))}"
    done = subprocess.run(["sh", "-c", f"{replay} | head -2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 2
    assert done.stderr == "", done.stderr
    # a reader gone before the first line (the pipe closed at once): still not a word on stderr
    done = subprocess.run(["sh", "-c", f"{replay} | true"], capture_output=True, text=True, timeout=120)
    assert done.stderr == "", done.stderr


def test_damaged_save_is_refused_with_a_reason(tmp_path, capsys):
    bad = tmp_path / "journal.ankh"
    bad.write_bytes(b"ANKHJ\x00" + bytes(range(256)))
    code = ankh_main(["--lang", "en", "replay", str(bad)])
    assert code in (1, 2)
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("json_out", [False, True])
def test_a_record_of_an_unknown_game_is_refused_naming_its_line(tmp_path, capsys, json_out):
    record = tmp_path / "chess.txt"
    record.write_text("# a game this program does not have\ngame: chess\nplayers: 3\n")
    assert ankh_main(["--lang", "en", "replay", *(["--json"] if json_out else []), str(record)]) == 1
    err = capsys.readouterr().err
    assert "line 2" in err and "chess" in err and "Traceback" not in err


def test_loading_a_save_of_an_unknown_game_or_no_text_is_refused(tmp_path, capsys):
    from ankh.tui.app import run
    chess = tmp_path / "chess.ankh"
    chess.write_text("game: chess\nplayers: 3\n")
    assert run(["--load", str(chess)]) == 1
    assert "line 1: no game is called 'chess'" in capsys.readouterr().err
    garbage = tmp_path / "garbage.ankh"
    garbage.write_bytes(bytes(range(128, 256)))
    assert run(["--load", str(garbage)]) == 2
    assert "is not a text record" in capsys.readouterr().err


def test_the_load_list_says_a_save_of_an_unknown_game_cannot_be_loaded(tmp_path, monkeypatch):
    from ankh.tui.session import list_saves, saves_dir
    monkeypatch.setenv("ANKH_HOME", str(tmp_path))
    saves_dir().mkdir(parents=True, exist_ok=True)
    (saves_dir() / "chess.ankh").write_text("game: chess\nplayers: 3\n")
    (info,) = list_saves()
    assert not info.ok and "chess" in info.summary


class _Enough(Exception):
    pass


@pytest.mark.parametrize("kind", ["morpork", "guilds"])
def test_a_networked_save_of_either_game_replays_as_its_public_log(kind, tmp_path, capsys):
    """Forty rounds of a three-seat networked game (in memory, the objects a table
    runs), saved as its transcript: replay prints the public log and the JSON
    state (a networked guild save ended in an AttributeError)."""
    import random

    from ankh.core.game import get
    from tests.net.star import Star, star_peers

    star = Star(star_peers(3, seed=b"replay-" + kind.encode(), kind=kind))
    bots = [get(kind).bot("random", random.Random(s)) for s in range(3)]
    rounds = iter(range(40))

    def stop_after_40(_star) -> None:
        if next(rounds, None) is None:
            raise _Enough

    with pytest.raises(_Enough):
        star.play(bots, after_round=stop_after_40)
    path = tmp_path / "game.ankh"
    path.write_bytes(star.peers[0].protocol.transcript().to_bytes())
    assert ankh_main(["--lang", "en", "replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 10 and any("red" in line.lower() for line in lines)
    assert ankh_main(["replay", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)


def test_replay_json_shows_a_multi_kind_offer_its_answers_and_the_cards_after_the_deal(tmp_path, capsys):
    """``ankh replay --json`` of a guild record stopped at the deal: the offer of
    several kinds, to whom, and the answers that would deal (a counter from its
    seat's side); dealt, the hands after it and no offer open."""
    setup = ("game: guilds\nplayers: 3\nseed: 1\nturn: red\nhouses yellow: V24\nhouses green: V31\n"
             "houses red: V09\nhand red: 2 brick 1 wool\nhand yellow: 1 ore 1 lumber\nhand green: 1 grain\n"
             "parchments green: 2\nrolls: 6+6\n")
    moves = ("red: roll\nred: offer 2 brick 1 wool for 1 lumber 1 ore to all\nyellow: accept\n"
             "green: counter 1 grain 2 parchment for 1 brick 1 wool\n")
    path = tmp_path / "trade.ankh"
    path.write_text(setup + moves)
    assert ankh_main(["replay", "--json", str(path)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["pending"]["kind"] == "deal" and state["pending"]["seat"] == "red"
    assert state["trade"] == {
        "offerer": "red", "give": {"brick": 2, "wool": 1}, "want": {"lumber": 1, "ore": 1},
        "asked": ["yellow", "green"],
        "answers": [{"seat": "yellow", "gives": {"lumber": 1, "ore": 1}, "wants": {"brick": 2, "wool": 1}},
                    {"seat": "green", "gives": {"grain": 1, "parchment": 2}, "wants": {"brick": 1, "wool": 1}}]}
    path.write_text(setup + moves + "red: deal green\n")
    assert ankh_main(["replay", "--json", str(path)]) == 0
    state = json.loads(capsys.readouterr().out)
    red, green = state["players"][0], state["players"][2]
    assert state["trade"] is None and state["pending"]["kind"] == "action"
    assert red["hand"] == {"brick": 1, "lumber": 0, "wool": 0, "grain": 1, "ore": 0} and red["parchments"] == 2
    assert green["hand"] == {"brick": 1, "lumber": 0, "wool": 1, "grain": 0, "ore": 0} and green["parchments"] == 0
