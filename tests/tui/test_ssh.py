"""``ankh`` over SSH: an OpenSSH server of our own on a loopback port, a client
in tmux, and the game played through it."""
from __future__ import annotations

import getpass
import shlex
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from .terminal import Terminal, ankh_command


def find(program: str, *places: str) -> str:
    found = shutil.which(program) or next((p for p in places if Path(p).exists()), None)
    if found is None:
        pytest.fail(f"{program} is needed for this test (apt-get install openssh-server openssh-client)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def sshd(tmp_path):
    """A private sshd on 127.0.0.1 that lets our own key in; yields (port, key)."""
    keygen = find("ssh-keygen", "/usr/bin/ssh-keygen")
    server = find("sshd", "/usr/sbin/sshd")
    d = tmp_path / "ssh"
    d.mkdir()
    for name in ("host", "client"):
        subprocess.run([keygen, "-q", "-t", "ed25519", "-N", "", "-f", str(d / name)], check=True)
    (d / "authorized_keys").write_text((d / "client.pub").read_text())
    port = free_port()
    (d / "sshd_config").write_text(f"""\
ListenAddress 127.0.0.1
Port {port}
HostKey {d / 'host'}
AuthorizedKeysFile {d / 'authorized_keys'}
PidFile {d / 'sshd.pid'}
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
StrictModes no
UsePAM no
""")
    Path("/run/sshd").mkdir(exist_ok=True)  # privilege separation directory (as root)
    proc = subprocess.Popen([server, "-D", "-e", "-f", str(d / "sshd_config")],
                            stdout=subprocess.DEVNULL, stderr=open(d / "sshd.log", "w"))
    try:
        end = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > end:
                    pytest.fail("sshd did not start:\n" + (d / "sshd.log").read_text())
                time.sleep(0.05)
        yield port, d / "client"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_ankh_over_ssh(tmp_path, sshd):
    port, key = sshd
    client = find("ssh", "/usr/bin/ssh")
    home = tmp_path / "home"
    remote = f"env ANKH_HOME={shlex.quote(str(home))} {shlex.quote(str(ankh_command()))} --seed 8"
    command = " ".join(shlex.quote(w) for w in [
        client, "-tt", "-p", str(port), "-i", str(key),
        "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
        "-o", f"UserKnownHostsFile={tmp_path / 'known_hosts'}", "-o", "LogLevel=ERROR",
        f"{getpass.getuser()}@127.0.0.1", remote])
    status = tmp_path / "status"
    term = Terminal(f"sh -c {shlex.quote(command + f'; echo $? > {status}')}", 80, 24)
    try:
        term.wait_for("New game against bots", "q Quit", timeout=30)
        term.keys("n")
        term.wait_for("Players", "Bots play")
        term.keys("Enter")
        screen = term.wait_for("1 Dolly Sisters", "10 Isle of Gods", "Choose")
        assert "q Quit" in screen.splitlines()[-1]
        term.keys("h")
        term.wait_for("Your hand (")
        term.keys("q")
        term.wait_for("Leave this game?")
        term.keys("y")
        term.wait_for("New game against bots")
        term.keys("q")
        end = time.monotonic() + 15
        while term.alive() and time.monotonic() < end:
            time.sleep(0.05)
        assert not term.alive(), "the ssh session did not end"
        assert status.read_text().strip() == "0"
        assert len(list((home / "saves").glob("*.ankh"))) == 1
    finally:
        term.close()
