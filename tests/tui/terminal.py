"""A real terminal for tests: a tmux server of our own, read back with capture-pane."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest


def ankh_command() -> Path:
    exe = Path(sys.executable).parent / "ankh"
    assert exe.exists(), f"the ankh command is not installed next to {sys.executable}"
    return exe


class Terminal:
    """One tmux server of our own (``-L``), one session, one window."""

    def __init__(self, command: str, width: int, height: int):
        tmux = shutil.which("tmux") or ("/usr/bin/tmux" if Path("/usr/bin/tmux").exists() else None)
        if tmux is None:
            pytest.fail("tmux is needed for this test (apt-get install tmux)")
        self.tmux = tmux
        self.socket = f"ankh-test-{uuid.uuid4().hex[:12]}"
        self.run("new-session", "-d", "-s", "ankh", "-x", str(width), "-y", str(height), command)

    def run(self, *args: str) -> str:
        out = subprocess.run([self.tmux, "-L", self.socket, *args], capture_output=True,
                             text=True, timeout=10)
        return out.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "ankh")

    def keys(self, *keys: str) -> None:
        for k in keys:
            self.run("send-keys", "-t", "ankh", k)
            time.sleep(0.05)

    def wait_for(self, *texts: str, timeout: float = 15.0) -> str:
        end = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < end:
            screen = self.screen()
            if all(t in screen for t in texts):
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{texts} never appeared; the screen was:\n{screen}")

    def alive(self) -> bool:
        return subprocess.run([self.tmux, "-L", self.socket, "has-session", "-t", "ankh"],
                              capture_output=True).returncode == 0

    def close(self) -> None:
        subprocess.run([self.tmux, "-L", self.socket, "kill-server"], capture_output=True)


def table_rows(screen: str, name: str) -> tuple[int, list[str]]:
    """The join list's tables on ``screen``: the index of the one named
    ``name`` (its row, counted in Down presses) and each table's lines."""
    lines = screen.splitlines()
    starts = [i for i, line in enumerate(lines) if re.match(r"\s*█ ▊ \S", line)]   # a table's first line
    tables = [lines[a:b] for a, b in zip(starts, starts[1:] + [len(lines)])]
    ours = next(i for i, table in enumerate(tables) if name in table[0])
    return ours, tables
