"""Real ``ankh`` processes for the LAN tests: started, read line by line, and
always stopped (by PID) however a test ends."""
from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path


class Peer:
    """One ``ankh`` process with its own ANKH_HOME; its output is read as it comes."""

    def __init__(self, args: list[str], home: Path, *, prefix: list[str] | None = None, module: str = "ankh.tui.cli"):
        self.home = home
        env = dict(os.environ, ANKH_HOME=str(home), PYTHONUNBUFFERED="1")
        if module.startswith("tests."):  # a test's program (the tiny game's ``ankh``): found from the checkout
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[2]),
                                                              env.get("PYTHONPATH")]))
        self.proc = subprocess.Popen((prefix or []) + [sys.executable, "-m", module, *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     text=True, env=env)
        self.lines: list[str] = []
        self._q: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._q.put(line.rstrip("\n"))
        self._q.put(None)

    def wait_for(self, predicate, timeout: float = 60.0) -> str:
        """The first line (from now on, or already read) for which ``predicate`` holds."""
        for line in self.lines:
            if predicate(line):
                return line
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting; last lines: {self.lines[-8:]}")
            try:
                line = self._q.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self._q.put(None)
                raise AssertionError(f"the process ended (rc={self.proc.wait()}); last lines: {self.lines[-8:]}")
            self.lines.append(line)
            if predicate(line):
                return line

    def finish(self, timeout: float = 240.0) -> int:
        """Wait for the process to end; returns its exit status (all output read)."""
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            self._read_all()
            raise AssertionError(f"still running after {timeout} s; last lines: {self.lines[-8:]}") from None
        self._read_all()
        return rc

    def _read_all(self) -> None:
        """Everything the process printed, once it has ended (or been stopped)."""
        while True:
            line = self._q.get()
            if line is None:
                self._q.put(None)
                return
            self.lines.append(line)

    def value(self, prefix: str, timeout: float = 60.0) -> str:
        return self.wait_for(lambda l: l.startswith(prefix), timeout)[len(prefix):].strip()

    @property
    def result(self) -> str:
        results = [l for l in self.lines if l.startswith("result: ")]
        assert results and self.lines[-1].startswith("result: "), self.lines[-40:]
        return results[-1]

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()


class Peers(list):
    """Every process a test started, stopped at the end."""

    def start(self, args: list[str], home: Path, **kw) -> Peer:
        p = Peer(args, home, **kw)
        self.append(p)
        return p

    def stop_all(self) -> None:
        for p in self:
            p.stop()
