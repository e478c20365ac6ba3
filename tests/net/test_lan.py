"""Networked games between real ``ankh`` processes on loopback: whole games for
2, 3 and 4 seats agree on one result and audit fair on every seat; a seat
killed with ``kill -9`` comes back from its save and the game completes."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .procs import Peers


@pytest.fixture
def peers():
    ps = Peers()
    yield ps
    ps.stop_all()


def verify(path: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ankh.tui.cli", "verify", path], capture_output=True, text=True,
                          timeout=120)


def host_and_joiners(peers: Peers, tmp_path: Path, seats: int, bots: int = 0, seed: int = 1):
    host = peers.start(["host", "--headless", "--bot", "random", "--seats", str(seats), "--bots", str(bots),
                        "--bind", "127.0.0.1", "--seed", str(seed)], tmp_path / "host")
    port = host.value("listening on port")
    joiners = [peers.start(["join", f"127.0.0.1:{port}", "--headless", "--bot", "random", "--seed", str(seed + i),
                            "--name", f"joiner {i}"], tmp_path / f"join{i}")
               for i in range(1, seats - bots)]
    return host, joiners


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_headless_peers_play_a_whole_game(peers: Peers, tmp_path: Path, seats: int) -> None:
    host, joiners = host_and_joiners(peers, tmp_path, seats, seed=seats)
    everyone = [host, *joiners]
    assert [p.finish() for p in everyone] == [0] * len(everyone)
    results = {p.result for p in everyone}
    assert len(results) == 1, results
    fingerprints = {p.value("table fingerprint:") for p in everyone}
    assert len(fingerprints) == 1
    for p in everyone:
        report = verify(p.value("transcript:"))
        assert report.returncode == 0, report.stdout + report.stderr
        assert report.stdout.startswith("fair: ") and "rules replayed" in report.stdout


def test_a_seat_killed_mid_game_comes_back_from_its_save(peers: Peers, tmp_path: Path) -> None:
    host, (joiner,) = host_and_joiners(peers, tmp_path, 3, bots=1, seed=9)
    save = joiner.value("saving to")
    joiner.wait_for(lambda l: l.startswith("turn 6:"), timeout=120)
    joiner.kill()
    host.wait_for(lambda l: l.startswith("link to") and "lost" in l, timeout=30)
    again = peers.start(["join", "--headless", "--bot", "random", "--seed", "10", "--load", save],
                        tmp_path / "join1")
    assert again.finish() == 0 and host.finish() == 0
    assert again.result == host.result
    assert verify(again.value("transcript:")).returncode == 0


def test_the_host_killed_mid_game_comes_back_and_the_joiners_reconnect(peers: Peers, tmp_path: Path) -> None:
    host, joiners = host_and_joiners(peers, tmp_path, 3, seed=21)
    save = host.value("saving to")
    host.wait_for(lambda l: l.startswith("turn 5:"), timeout=120)
    host.kill()
    for j in joiners:
        j.wait_for(lambda l: l.startswith("link to") and "lost" in l, timeout=30)
    again = peers.start(["host", "--headless", "--bot", "random", "--seed", "22", "--load", save,
                         "--bind", "127.0.0.1"], tmp_path / "host")
    assert again.finish() == 0 and [j.finish() for j in joiners] == [0, 0]
    assert len({again.result, *(j.result for j in joiners)}) == 1
