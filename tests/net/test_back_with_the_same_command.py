"""A player whose program died comes back by running the same ``ankh join
HOST:PORT`` again, as a person would (no need to know ``--load DIR``): the
seat's save is found and the game carries on to the same fair result."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from ankh.net.io.host import HostNode
from ankh.net.play.events import Back, Confirming, Gone
from ankh.net.wire.envelope import Identity

from tests import tinygame

from .procs import Peers
from .test_watch import bot_decide

tinygame.install()


@pytest.fixture
def peers():
    ps = Peers()
    yield ps
    ps.stop_all()


def test_a_killed_joiner_running_the_same_join_again_gets_its_seat_back(peers: Peers, tmp_path: Path) -> None:
    host = peers.start(["host", "--headless", "--bot", "random", "--seats", "3", "--bots", "1",
                        "--bind", "127.0.0.1", "--seed", "41"], tmp_path / "host")
    port = host.value("listening on port")
    command = ["join", f"127.0.0.1:{port}", "--headless", "--bot", "random", "--seed", "42"]
    joiner = peers.start(command, tmp_path / "join")
    save = joiner.value("saving to")

    def lost(line: str) -> bool:
        return line.startswith("link to") and "lost" in line

    # Killed twice in one game: back by another name of the same host first (the join list may
    # have used another address than the one the player types: the save is known by the host's
    # key), then by the address it first joined.
    for times, (again_at, turn) in enumerate((("localhost", 6), ("127.0.0.1", 9)), 1):
        joiner.wait_for(lambda line: line.startswith(f"turn {turn}:"), timeout=120)
        joiner.kill()
        host.wait_for(lambda line: lost(line) and sum(map(lost, host.lines)) >= times, timeout=30)
        command[1] = f"{again_at}:{port}"
        joiner = peers.start(command, tmp_path / "join")
        assert joiner.value("back to the seat saved in") == save
    assert joiner.finish() == 0 and host.finish() == 0
    assert joiner.result == host.result


def test_a_save_from_an_older_table_at_the_same_address_does_not_keep_the_player_from_a_new_one(
        peers: Peers, tmp_path: Path) -> None:
    old = peers.start(["host", "--headless", "--bot", "random", "--seats", "2", "--bind", "127.0.0.1",
                       "--seed", "43"], tmp_path / "old")
    port = old.value("listening on port")
    command = ["join", f"127.0.0.1:{port}", "--headless", "--bot", "random", "--seed", "44"]
    joiner = peers.start(command, tmp_path / "join")
    joiner.wait_for(lambda line: line.startswith("turn 4:"), timeout=120)
    joiner.kill()
    old.kill()                                    # that game is never finished
    new = peers.start(["host", "--headless", "--bot", "random", "--seats", "2", "--bind", "127.0.0.1",
                       "--port", port, "--seed", "45"], tmp_path / "new")
    new.value("listening on port")
    again = peers.start(command, tmp_path / "join")
    assert again.finish() == 0 and new.finish() == 0
    assert again.result == new.result
    assert not any(line.startswith("back to the seat") for line in again.lines)


def test_a_joiner_killed_once_the_seats_are_set_running_the_same_join_again_sits_at_its_seat(
        peers: Peers, tmp_path: Path) -> None:
    """Killed after the host set the seats (its start holds the seat's nonce) and before the
    game's save exists (the host's person has not confirmed the fingerprint yet): the same
    ``ankh join`` comes back with the nonce and secrets its first run kept, and plays."""
    async def main() -> tuple[str, int, list[str]]:
        told: asyncio.Queue = asyncio.Queue()
        host = HostNode(Identity.generate(), "host", seats=2, bots=0, kind="tiny", decide=bot_decide(3),
                        report=told.put_nowait, save_root=tmp_path / "host", bind="127.0.0.1", advertise=False,
                        confirmed=False)
        port = await host.open()
        game = asyncio.ensure_future(host.run())

        async def heard(kind: type, what=lambda e: True) -> None:
            while not (isinstance(e := await told.get(), kind) and what(e)):
                pass
        try:
            command = ["join", f"127.0.0.1:{port}", "--headless", "--game", "tiny", "--bot", "random",
                       "--seed", "42"]
            first = peers.start(command, tmp_path / "join", module="tests.tinygame")
            await asyncio.wait_for(heard(Confirming, lambda e: e.seats == (0,)), 60)  # its key is in
            first.kill()
            await asyncio.wait_for(heard(Gone), 60)
            again = peers.start(command, tmp_path / "join", module="tests.tinygame")
            await asyncio.wait_for(heard(Back), 60)
            host.confirm_fingerprint()
            result = await asyncio.wait_for(game, 120)
            rc = await asyncio.get_running_loop().run_in_executor(None, again.finish)
            return str(result.text), rc, again.lines
        finally:
            game.cancel()
            await asyncio.gather(game, return_exceptions=True)

    text, rc, lines = asyncio.run(main())
    assert rc == 0, lines[-10:]
    assert lines[-1] == f"result: {text}" and " with " in text
