"""A networked game's save on disk: its folders are the player's only, and a
save whose header was tampered with is refused with a message, untouched."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from ankh.net.files import journal
from ankh.net.files.secrets import SeatSecrets
from ankh.net.io.savedir import SeatTaken
from ankh.net.wire.envelope import Identity

from .procs import Peers


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    """The home of a host that played a whole game against its bot, under umask 022."""
    home = tmp_path_factory.mktemp("host")
    peers = Peers()
    old = os.umask(0o022)
    try:
        host = peers.start(["host", "--headless", "--bot", "random", "--seats", "2", "--bots", "1",
                            "--bind", "127.0.0.1", "--no-advertise", "--seed", "3"], home / "ankh")
        assert host.finish() == 0, host.lines[-8:]
    finally:
        os.umask(old)
        peers.stop_all()
    return home / "ankh"


def test_every_folder_of_a_save_is_the_players_only(saved: Path) -> None:
    saves = saved / "saves"
    (game,) = saves.glob("net-*")
    for folder in (saved, saves, game):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    for f in game.iterdir():
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f


def _tamper(data: bytes, change) -> bytes:
    """The journal with its header re-packed after ``change(header)``."""
    unpacker = msgpack.Unpacker(raw=False)
    prefix = len(msgpack.packb(journal.MAGIC))
    unpacker.feed(data[prefix:])
    head = next(unpacker)
    rest = data[prefix + unpacker.tell():]
    change(head)
    return data[:prefix] + msgpack.packb(head, use_bin_type=True) + rest


@pytest.mark.parametrize("change", [
    lambda h: h["info"].pop("start"),
    lambda h: h["info"].__setitem__("port", "forty"),
    lambda h: h["info"]["start"].__setitem__("names", ["Mallory", "bot 1"]),
    lambda h: h["info"].__setitem__("start", 7),
    lambda h: h.__setitem__("names", [1, 2]),
], ids=["no table", "port", "names", "table not a map", "roster"])
@pytest.mark.parametrize("screen", [False, True], ids=["headless", "screen"])
def test_a_tampered_save_header_is_refused_with_a_message(saved: Path, tmp_path: Path, change, screen: bool) -> None:
    (game,) = (saved / "saves").glob("net-*")
    copy = tmp_path / game.name
    copy.mkdir()
    for f in game.iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    tampered = _tamper((copy / "journal.ankh").read_bytes(), change)
    (copy / "journal.ankh").write_bytes(tampered)
    env = dict(os.environ, ANKH_HOME=str(saved))
    run = subprocess.run([sys.executable, "-m", "ankh.tui.cli", "host", "--load", str(copy),
                          *([] if screen else ["--headless"])], capture_output=True, text=True, env=env,
                         timeout=60, stdin=subprocess.DEVNULL)
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert "Traceback" not in run.stderr + run.stdout
    assert f"ankh: {copy} is damaged and cannot be carried on" in run.stderr
    assert (copy / "journal.ankh").read_bytes() == tampered


def test_a_seat_taken_before_its_save_is_kept_for_one_program_at_a_time_and_goes_with_the_save(
        tmp_path: Path) -> None:
    host_key, me = Identity.generate().public_key, Identity.generate()
    secrets = SeatSecrets.generate(bytes(16), 1, me)
    first = SeatTaken(tmp_path / "saves", host_key)
    assert first.hold() is None  # nothing kept yet
    first.keep(b"n" * 16, secrets)
    assert stat.S_IMODE(first.path.stat().st_mode) == 0o600
    assert SeatTaken(tmp_path / "saves", host_key).hold() is None  # another program, while the first runs
    first.close()  # (the program ended: killed, its lock let go)
    again = SeatTaken(tmp_path / "saves", host_key)
    nonce, kept = again.hold()
    assert nonce == b"n" * 16 and kept.to_bytes() == secrets.to_bytes()
    assert SeatTaken(tmp_path / "saves", Identity.generate().public_key).hold() is None  # another host: nothing
    again.let_go()  # the game's save holds them now
    assert not again.path.exists()
