"""Every command of ``ankh``, as a person runs it, over every registered game
(its record in :mod:`ankh.core.registry`), the test game included: a local
game against bots to its end, its ``replay`` and ``replay --json``; a table
hosted and joined on loopback, headless, watched by a spectator; the ``replay``
and ``replay --json`` of the host's save, and ``verify`` of its transcript.  A
game without screens says so where a screen is asked for."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ankh.core.game import get
from ankh.core.registry import ENTRIES

from tests import tinygame
from tests.net.procs import Peers

tinygame.install()
ROOT = Path(__file__).resolve().parents[1]
SEED = 3


def ankh(*args: str, home: Path) -> subprocess.CompletedProcess:
    """``ankh ARGS``, the test game known (``python -m tests.tinygame`` is ``ankh``)."""
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "ANKH_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    return subprocess.run([sys.executable, "-m", "tests.tinygame", *args], capture_output=True, text=True,
                          timeout=240, env=env, cwd=ROOT)


def replays(path: Path, home: Path) -> tuple[list[str], dict]:
    """``ankh replay PATH`` (its lines) and ``ankh replay --json PATH`` (its state)."""
    shown = ankh("replay", str(path), home=home)
    assert shown.returncode == 0, shown.stderr
    state = ankh("replay", "--json", str(path), home=home)
    assert state.returncode == 0, state.stderr
    return shown.stdout.splitlines(), json.loads(state.stdout)


@pytest.fixture
def peers():
    ps = Peers()
    yield ps
    ps.stop_all()


@pytest.mark.parametrize("game", sorted(ENTRIES))
def test_every_command_plays_every_game(game: str, peers: Peers, tmp_path: Path) -> None:
    entry = ENTRIES[game]
    home = tmp_path / "home"
    # ankh against bots: a local game to its end, its record replayed as it was played
    record = tmp_path / "local.txt"
    local = ankh("--headless", "--game", game, "--bot", "random", "--seed", str(SEED), "--save", str(record),
                 home=home)
    assert local.returncode == 0, local.stderr
    assert f"game: {game}" in record.read_text().splitlines()[:3]
    lines, state = replays(record, home)
    assert lines == local.stdout.splitlines() and len(lines) > 10
    assert state

    # host and join on loopback, headless, a spectator watching, to the end: the bots that play
    # to win where the game has them (random ones take the guild variant through thousands of
    # moves, each signed and checked by every process, and a table's deal is new every time)
    seats = entry.seats[0]
    bot = "heuristic" if "heuristic" in get(game).NET_BOTS else "random"
    host = peers.start(["host", "--headless", "--game", game, "--bot", bot, "--seats", str(seats),
                        "--bots", str(seats - 2), "--bind", "127.0.0.1", "--no-advertise", "--seed", str(SEED)],
                       tmp_path / "host", module="tests.tinygame")
    port = host.value("listening on port")
    joiner = peers.start(["join", f"127.0.0.1:{port}", "--headless", "--game", game, "--bot", bot,
                          "--seed", str(SEED + 1)], tmp_path / "join", module="tests.tinygame")
    watcher = peers.start(["watch", f"127.0.0.1:{port}", "--headless"], tmp_path / "watch", module="tests.tinygame")
    assert host.finish() == 0 and joiner.finish() == 0 and watcher.finish() == 0, (host.lines[-5:], watcher.lines[-5:])
    assert host.result == joiner.result == watcher.result

    # the host's save replayed (its folder, as a person names it) and its transcript verified
    transcript = Path(host.value("transcript:"))
    lines, state = replays(transcript.parent, home)
    assert lines and state
    checked = ankh("verify", str(transcript), home=home)
    assert checked.returncode == 0 and checked.stdout.startswith("fair: "), checked.stdout + checked.stderr

    # a game with no screens of its own says so where a screen is asked for
    if entry.screens is None:
        for command in ([], ["host"], ["join"]):
            refused = ankh(*command, "--game", game, home=home)
            assert refused.returncode == 2
            assert "has no screens: it is played headless only (--headless)" in refused.stderr
