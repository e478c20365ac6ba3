"""Where an install keeps its identity, name and pinned keys."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ankh.net.files import home
from ankh.net.wire.envelope import Identity, fingerprint
from ankh.net.files.home import HomeError, KnownPlayers


@pytest.fixture
def clean_env(tmp_path, monkeypatch):
    for var in ("ANKH_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    return tmp_path


@pytest.fixture
def ankh_home(clean_env, monkeypatch):
    d = clean_env / "ankh-home"
    monkeypatch.setenv("ANKH_HOME", str(d))
    return d


def mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_default_dirs_follow_the_home_directory(clean_env):
    assert home.data_dir() == clean_env / "user" / ".local" / "share" / "ankh"
    assert home.config_dir() == clean_env / "user" / ".config" / "ankh"
    assert home.saves_dir() == home.data_dir() / "saves"


def test_xdg_variables_are_honoured_and_relative_ones_ignored(clean_env, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(clean_env / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(clean_env / "conf"))
    assert home.data_dir() == clean_env / "data" / "ankh"
    assert home.config_dir() == clean_env / "conf" / "ankh"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")
    assert home.data_dir() == clean_env / "user" / ".local" / "share" / "ankh"


def test_ankh_home_overrides_everything(clean_env, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(clean_env / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(clean_env / "conf"))
    monkeypatch.setenv("ANKH_HOME", str(clean_env / "h"))
    assert home.data_dir() == home.config_dir() == clean_env / "h"
    assert home.saves_dir() == clean_env / "h" / "saves"


def test_the_game_saves_under_the_data_dir(clean_env, monkeypatch):
    from ankh.tui.session import GameSession
    monkeypatch.setenv("XDG_DATA_HOME", str(clean_env / "data"))
    session = GameSession.new(2, seed=5)
    assert session.path.parent == clean_env / "data" / "ankh" / "saves"


def test_first_run_creates_a_secret_identity_and_later_runs_load_the_same(clean_env, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(clean_env / "data"))
    monkeypatch.setenv("USER", "rincewind")
    monkeypatch.setenv("LOGNAME", "rincewind")
    first = home.load_identity()
    assert first.name == "rincewind"
    key_file = clean_env / "data" / "ankh" / "identity.key"
    assert mode(key_file) == 0o600
    assert mode(key_file.parent) == 0o700
    assert mode(clean_env / "data") == 0o700
    again = home.load_identity()
    assert again.identity.public_key == first.identity.public_key
    # Nothing else is left behind by the atomic write.
    assert sorted(p.name for p in key_file.parent.iterdir()) == ["identity.key"]
    # The secret is the seed, and the identity signs with it.
    sig = again.identity.sign(b"x")
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    Ed25519PublicKey.from_public_bytes(first.identity.public_key).verify(sig, b"x")


def test_programs_started_together_on_a_first_run_agree_on_one_identity(ankh_home):
    code = "from ankh.net.files.home import load_identity; print(load_identity().identity.public_key.hex())"
    env = {**os.environ, "ANKH_HOME": str(ankh_home)}
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
             for _ in range(4)]
    keys = {p.communicate(timeout=60)[0].strip() for p in procs}
    assert all(p.returncode == 0 for p in procs)
    assert keys == {home.load_identity().identity.public_key.hex()}


@pytest.mark.parametrize("content", [b"", b"garbage\n", b"ankh identity v1 (Ed25519 seed, base64); "
                                     b"keep this file secret\nAAAA\n", b"\xff\xfe"])
def test_a_damaged_identity_is_reported_and_never_replaced(ankh_home, content):
    ankh_home.mkdir()
    f = ankh_home / "identity.key"
    f.write_bytes(content)
    with pytest.raises(HomeError, match="identity"):
        home.load_identity()
    assert f.read_bytes() == content


def test_names_are_remembered_and_checked(ankh_home):
    assert home.set_name("  Granny   Weatherwax ") == "Granny Weatherwax"
    assert home.load_identity().name == "Granny Weatherwax"
    assert mode(ankh_home / "name") == 0o600
    for bad in ("", " ", "x" * 25, "bad\x00name", "\x1b[31mred", "-dash"):
        with pytest.raises(ValueError):
            home.set_name(bad)
    assert home.player_name() == "Granny Weatherwax"


def test_known_players_are_pinned_on_first_use_and_changes_reported(ankh_home):
    alice, mallory = Identity.generate().public_key, Identity.generate().public_key
    known = KnownPlayers()
    assert known.check("Alice", alice) == "new"
    known.pin("Alice", alice)
    assert mode(ankh_home / "known_players.json") == 0o600
    reread = KnownPlayers()
    assert reread.check("Alice", alice) == "known"
    assert reread.check("Alice", mallory) == "changed"
    assert reread.warning("Alice", alice) is None
    warning = reread.warning("Alice", mallory)
    assert fingerprint(alice) in warning and fingerprint(mallory) in warning
    with pytest.raises(ValueError, match="pinned to another key"):
        reread.pin("Alice", mallory)
    assert KnownPlayers().check("Alice", alice) == "known"
    reread.pin("Alice", mallory, replace=True)
    assert KnownPlayers().check("Alice", mallory) == "known"


def test_a_damaged_known_players_file_is_reported_not_emptied(ankh_home):
    ankh_home.mkdir()
    f = ankh_home / "known_players.json"
    for content in (b"{not json", b"[]", b'{"Alice": "abcd"}', b'{"Alice": 5}'):
        f.write_bytes(content)
        with pytest.raises(HomeError, match="known players"):
            KnownPlayers()
        assert f.read_bytes() == content


def test_a_game_id_seen_before_is_refused(tmp_path, monkeypatch) -> None:
    from ankh.net.files import home
    monkeypatch.setenv("ANKH_HOME", str(tmp_path))
    gid = bytes(range(16))
    assert home.first_time_for_game(gid) is True
    assert home.first_time_for_game(bytes(16)) is True
    assert home.first_time_for_game(gid) is False     # the same table again: refused


def test_over_ssh_a_player_joins_only_tables_found_or_allowed(monkeypatch) -> None:
    """A stranger logged in over ``ankh serve --ssh`` may not use the server to
    reach into the network it stands in: only tables found by discovery, or
    the addresses the operator allows."""
    from ankh.net.files.home import ENV_SSH, ENV_SSH_JOIN, ssh_may_join

    found = [("192.168.1.20", 40123)]
    monkeypatch.delenv(ENV_SSH, raising=False)
    assert ssh_may_join("10.0.0.1", 22, [])                     # not over SSH: anywhere
    monkeypatch.setenv(ENV_SSH, "guest")
    monkeypatch.setenv(ENV_SSH_JOIN, "")
    assert ssh_may_join("192.168.1.20", 40123, found)
    assert not ssh_may_join("192.168.1.20", 22, found)
    assert not ssh_may_join("127.0.0.1", 6379, found)
    monkeypatch.setenv(ENV_SSH_JOIN, "tables.example:4000, 10.1.1.1 ,[fd00::5]:4100,fd00::9")
    assert ssh_may_join("tables.example", 4000, [])
    assert not ssh_may_join("tables.example", 4001, [])
    assert ssh_may_join("10.1.1.1", 5555, [])
    assert ssh_may_join("fd00::5", 4100, []) and not ssh_may_join("fd00::5", 22, [])
    assert ssh_may_join("fd00::9", 1234, [])
