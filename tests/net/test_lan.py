"""Networked games between real ``ankh`` processes on loopback: whole games for
2, 3 and 4 seats agree on one result and audit fair on every seat; both seats
killed mid-game come back from their saves and the game completes.  On the
simulator (``ankh.net.io.sim.Scene``: the real nodes, a virtual clock): a seat
or the host killed with ``kill -9`` comes back from its save, and a link that
carries garbage, repeats and cuts blames nobody."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ankh.net.play.events import Alert, Gone, Saving, Started
from ankh.net.io import sim
from ankh.tui.headless import Trace

from . import simtable
from .procs import Peers
from .simtable import decided, exit_status, gone, logged, transcript


@pytest.fixture
def peers():
    ps = Peers()
    yield ps
    ps.stop_all()


def verify(path: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ankh.tui.cli", "verify", path], capture_output=True, text=True,
                          timeout=120)


def verify_all(everyone) -> subprocess.CompletedProcess:
    """Every peer saved the same transcript, byte for byte, and ``ankh verify`` says it is fair."""
    saved = {Path(p.value("transcript:")).read_bytes() for p in everyone}
    assert len(saved) == 1, "the peers saved different transcripts"
    report = verify(everyone[0].value("transcript:"))
    assert report.returncode == 0, report.stdout + report.stderr
    assert report.stdout.startswith("fair: ") and "rules replayed" in report.stdout
    return report


def host_and_joiners(peers: Peers, tmp_path: Path, seats: int, bots: int = 0, seed: int = 1, trace: bool = False,
                     game: str = "morpork", bot: str = "random", module: str = "ankh.tui.cli"):
    """A headless host of ``game`` and its joiners (``module``: the program, ``ankh`` or a test's)."""
    def traced(home: str) -> list[str]:
        return ["--trace", str(tmp_path / f"{home}.trace")] if trace else []

    host = peers.start(["host", "--headless", "--game", game, "--bot", bot, "--seats", str(seats), "--bots",
                        str(bots), "--bind", "127.0.0.1", "--seed", str(seed), *traced("host")], tmp_path / "host",
                       module=module)
    port = host.value("listening on port")
    joiners = [peers.start(["join", f"127.0.0.1:{port}", "--headless", "--bot", bot, "--seed", str(seed + i),
                            "--name", f"joiner {i}", *traced(f"join{i}")], tmp_path / f"join{i}", module=module)
               for i in range(1, seats - bots)]
    return host, joiners


def read_trace(path: Path) -> list[tuple[float, str, tuple[str, ...]]]:
    out = []
    for line in path.read_text().splitlines():
        when, what, *rest = line.split()
        out.append((float(when), what, tuple(rest)))
    return out


def check_traces(tmp_path: Path, homes: list[str], moves: int) -> None:
    """Every peer's trace: the table filled, the setup ended, then every move of
    the game applied in order, each decided by its own seat before anyone applied it."""
    traces = [read_trace(tmp_path / f"{h}.trace") for h in homes]
    decided: dict[int, float] = {}
    for trace in traces:
        times = [t for t, _, _ in trace]
        assert times == sorted(times)
        kinds = [what for _, what, _ in trace]
        assert kinds[:2] == ["start", "setup"] and kinds.count("start") == kinds.count("setup") == 1, kinds[:4]
        applied = [(int(rest[1]), int(rest[0])) for _, what, rest in trace if what == "applied"]
        assert [i for i, _ in applied] == list(range(moves))
        assert len({seat for _, seat in applied}) == len(homes)
        own = {seat for _, seat in applied if any(w == "decided" and int(r[0]) == seat for _, w, r in trace)}
        assert len(own) == 1  # a peer decides for its own seat only
        for t, what, rest in trace:
            if what == "decided":
                assert (int(rest[1]), int(rest[0])) in applied
                decided[int(rest[1])] = t
    assert sorted(decided) == list(range(moves))  # every move decided by exactly one peer
    for trace in traces:
        for t, what, rest in trace:
            if what == "applied":
                assert t >= decided[int(rest[1])]


def test_headless_peers_play_a_whole_game(peers: Peers, tmp_path: Path, seats: int = 2) -> None:
    host, joiners = host_and_joiners(peers, tmp_path, seats, seed=seats, trace=True)
    everyone = [host, *joiners]
    assert [p.finish() for p in everyone] == [0] * len(everyone)
    results = {p.result for p in everyone}
    assert len(results) == 1, results
    fingerprints = {p.value("table fingerprint:") for p in everyone}
    assert len(fingerprints) == 1
    report = verify_all(everyone)
    moves = int(report.stdout.split("rules replayed: ")[1].split()[0])
    check_traces(tmp_path, ["host", *(f"join{i}" for i in range(1, seats))], moves)


@pytest.mark.parametrize("seats", [3, 4])
def test_simulated_peers_play_a_whole_game(tmp_path: Path, seats: int) -> None:
    """The same for 3 and 4 seats, on the simulator (each seat traced as ``--trace`` does)."""
    simulated_whole_game(tmp_path, seats)


def simulated_whole_game(tmp_path: Path, seats: int, game: str = "morpork", bot: str = "random") -> None:
    """A table of ``seats`` on the simulator, each played by the game's ``bot``: one result,
    one table fingerprint, the same transcript everywhere, verified fair, each move
    decided by its own seat before anyone applied it."""
    homes = ["host", *(f"join{i}" for i in range(1, seats))]

    async def script(t: sim.Scene) -> list:
        for home in homes:
            t.also[home] = Trace(str(tmp_path / f"{home}.trace"), lambda e: None)
        await t.host("host", seats=seats)
        for home in homes[1:]:
            t.join(home)
        return await t.results(*homes)

    t = simtable.scene(seats, tmp_path / "sim", game, bot=bot)
    results = t.run(script)
    assert [exit_status(r) for r in results] == [0] * seats
    assert len({r.text for r in results}) == 1, results
    fingerprints = {e.start.fingerprint for home in homes for e in t.told[home] if isinstance(e, Started)}
    assert len(fingerprints) == 1
    saved = {transcript(t, home).read_bytes() for home in homes}
    assert len(saved) == 1, "the peers saved different transcripts"
    rc, out = simtable.verify(transcript(t, "host"))
    assert rc == 0 and out.startswith("fair: ") and "rules replayed" in out, out
    moves = int(out.split("rules replayed: ")[1].split()[0])
    check_traces(tmp_path, homes, moves)


@pytest.mark.parametrize("game", ["morpork", "guilds"])
def test_a_seat_killed_mid_game_comes_back_from_its_save(tmp_path: Path, game: str) -> None:
    """(On the simulator: the real host and joiner, killed as with ``kill -9``.)"""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=3, bots=1)
        t.join("joiner 1")
        await t.until("joiner 1", lambda e: isinstance(e, Saving))
        await t.until("joiner 1", logged("turn 6:"))
        save = await t.kill("joiner 1")
        await t.until("host", gone(2))
        assert save is not None
        await t.resume("joiner 1", save)
        return await t.results("joiner 1", "host")

    t = simtable.scene(9, tmp_path, game)
    again, host = t.run(script)
    assert exit_status(again) == 0 and exit_status(host) == 0
    assert again.text == host.text
    assert simtable.verify(transcript(t, "joiner 1"))[0] == 0


def test_the_host_killed_mid_game_comes_back_and_the_joiners_reconnect(tmp_path: Path) -> None:
    """(On the simulator, as above.)"""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=3)
        t.join("joiner 1")
        t.join("joiner 2")
        await t.until("host", lambda e: isinstance(e, Saving))
        await t.until("host", decided(1))  # in the middle of the game (of the tiny game: the host's first move)
        save = await t.kill("host")
        for j in ("joiner 1", "joiner 2"):
            await t.until(j, gone(0))
        assert save is not None
        await t.resume("host", save)
        return await t.results("host", "joiner 1", "joiner 2")

    t = simtable.scene(21, tmp_path)
    results = t.run(script)
    assert [exit_status(r) for r in results] == [0, 0, 0]
    assert len({r.text for r in results}) == 1


# On its own (scripts/test): the joiner takes the first open table it hears of on loopback,
# where tests running beside it open theirs.
@pytest.mark.serial
def test_a_joiner_with_no_address_finds_the_table_on_the_lan(peers: Peers, tmp_path: Path) -> None:
    # mDNS on loopback only (the tests send nothing beyond this machine).
    host = peers.start(["host", "--headless", "--bot", "random", "--seats", "2", "--bind", "127.0.0.1",
                        "--seed", "31"], tmp_path / "host")
    host.value("advertised on the LAN as")
    joiner = peers.start(["join", "--headless", "--bot", "random", "--interface", "127.0.0.1", "--seed", "32"],
                         tmp_path / "join")
    assert joiner.value("found a table at").endswith(":" + host.value("listening on port"))
    assert joiner.finish() == 0 and host.finish() == 0
    assert joiner.result == host.result


# (the guild game with the tests' thief bots: steals, hidden cards shown and their private parts cross the link)
@pytest.mark.parametrize("game, bot", [("morpork", "random"), ("guilds", "thief")])
def test_bytes_injected_into_a_link_blame_nobody_and_the_game_completes(
        tmp_path: Path, monkeypatch, game: str, bot: str) -> None:
    """(On the simulator: the link between the joiner and the host now and then
    carries a byte changed, a chunk twice, or is cut in the middle of a record.)"""
    if bot == "thief":
        simtable.with_thieves(monkeypatch)
    seats, bots = (2, 0) if game == "morpork" else (3, 1)   # the variant seats three at least
    tricks = {"corrupt", "duplicate", "cut"}

    async def script(t: sim.Scene) -> list:
        await t.host(seats=seats, bots=bots)
        t.join("joiner")
        return await t.results("host", "joiner")

    t = simtable.scene(41, tmp_path, game, faults=tricks, rates=sim.Rates(cut=0.01, corrupt=0.01, duplicate=0.01),
                       bot=bot)
    host, joiner = t.run(script)
    assert tricks <= set(t.net.counts), t.net.counts  # garbage, repeats and cuts all happened
    assert exit_status(joiner) == 0 and exit_status(host) == 0
    assert joiner.text == host.text and "broke the rules" not in host.text
    assert any(isinstance(e, Gone) for e in t.told["host"])   # "link to … lost"
    for name in ("host", "joiner"):
        rc, out = simtable.verify(transcript(t, name))
        assert rc == 0, out
        assert game == "morpork" or " random steals proven" in out, out


def test_three_namespaces_find_the_table_by_mdns_and_survive_a_cut_cable(peers: Peers, tmp_path: Path) -> None:
    """Three machines on one switch (network namespaces): the joiners find the
    table by mDNS, a cable is pulled for 10 s mid-game, the game waits for that
    seat, names it, and completes when the cable is back."""
    import os
    import shutil
    import time

    from .test_net_lan import Lan

    assert os.geteuid() == 0 and shutil.which("ip"), "the namespace tests need root and iproute2 (CI has both)"
    lan = Lan(tmp_path)
    try:
        lan.build(3)
        host = peers.start(["host", "--headless", "--bot", "random", "--seats", "3", "--seed", "51"],
                           tmp_path / "h", prefix=["ip", "netns", "exec", lan.ns(1)])
        host.value("advertised on the LAN as")
        joiners = [peers.start(["join", "--headless", "--bot", "random", "--seed", str(51 + i), "--name", f"j{i}"],
                               tmp_path / f"j{i}", prefix=["ip", "netns", "exec", lan.ns(i)]) for i in (2, 3)]
        for j in joiners:
            assert j.value("found a table at").startswith("10.77.0.1:") or "%" in j.lines[-1]
        colour = host.wait_for(lambda l: l.startswith("j3 sits at seat")).split("(")[1].split(")")[0]
        joiners[1].wait_for(lambda l: l.startswith("turn 4:"), timeout=120)
        subprocess.run(["ip", "-n", lan.switch, "link", "set", "v3", "down"], check=True)
        cut = time.monotonic()
        host.wait_for(lambda l: l.startswith(f"link to {colour} lost"), timeout=30)
        time.sleep(max(0.0, 10 - (time.monotonic() - cut)))
        subprocess.run(["ip", "-n", lan.switch, "link", "set", "v3", "up"], check=True)
        host.wait_for(lambda l: l == f"link to {colour} back", timeout=30)
        assert [p.finish() for p in (host, *joiners)] == [0, 0, 0]
        assert len({p.result for p in (host, *joiners)}) == 1
        for p in (host, *joiners):
            assert verify(p.value("transcript:")).returncode == 0
    finally:
        peers.stop_all()
        lan.teardown()


def test_a_game_in_progress_verifies_as_incomplete_from_its_journal(peers: Peers, tmp_path: Path) -> None:
    # Both processes die mid-game: the journal verifies as incomplete; both
    # come back from their saves, finish, and it verifies as fair.
    host, (joiner,) = host_and_joiners(peers, tmp_path, 2, seed=61)
    saves = Path(host.value("saving to")), Path(joiner.value("saving to"))
    joiner.wait_for(lambda l: l.startswith("turn 3:"), timeout=120)
    host.kill()
    joiner.kill()
    partial = verify(str(saves[1] / "journal.ankh"))
    assert partial.returncode == 3, partial.stdout          # incomplete: nothing wrong, no audit yet
    assert partial.stdout.startswith("incomplete: ")
    host = peers.start(["host", "--headless", "--bot", "random", "--load", str(saves[0]), "--bind", "127.0.0.1"],
                       tmp_path / "host")
    joiner = peers.start(["join", "--headless", "--bot", "random", "--load", str(saves[1])], tmp_path / "join1")
    assert joiner.finish() == 0 and host.finish() == 0
    assert joiner.result == host.result
    whole = verify(str(saves[1] / "journal.ankh"))
    assert whole.returncode == 0 and "rules replayed" in whole.stdout


def test_a_known_name_with_another_key_is_shown_as_a_warning(tmp_path: Path) -> None:
    """(On the simulator: two tables, one after the other, the host's home kept.)"""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=2)
        t.join("joiner 1")
        return await t.results("host", "joiner 1")

    # First meeting: each side pins the other's identity.
    first = simtable.scene(71, tmp_path)
    assert [exit_status(r) for r in first.run(script)] == [0, 0]
    assert not any(isinstance(e, Alert) for e in first.told["host"])
    # "joiner 1" comes back from another install (another identity): the host warns.
    again = simtable.scene(72, tmp_path)
    assert [exit_status(r) for r in again.run(script)] == [0, 0]
    warnings = [e.text for e in again.told["host"] if isinstance(e, Alert)]
    assert any("joiner 1's key has changed" in w for w in warnings), warnings
