"""``ankh serve --ssh``: the game for anyone who logs in over SSH.

A real server process on a loopback port, real SSH clients (asyncssh's), and
what they see drawn by a terminal emulator (pyte): the title screen at the
client's size and again after a resize, a table hosted with a bot, played,
left and found again in the Load list at the next login, a guest let in
without a key.  Every program the server started
is checked gone by its PID at the end."""
from __future__ import annotations

import asyncio
import os
import re
import signal
import stat
import subprocess
import sys
import threading
import time

import asyncssh
import pyte
import pytest


class Server:
    """``ankh serve --ssh 127.0.0.1:0`` with a home of its own; knows the programs it started."""

    def __init__(self, home, *args: str) -> None:
        self.home = home
        env = dict(os.environ, ANKH_HOME=str(home))
        self.proc = subprocess.Popen([sys.executable, "-m", "ankh.tui.cli", "serve", "--ssh", "127.0.0.1:0", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        first = self.proc.stdout.readline()
        m = re.search(r"over SSH on 127\.0\.0\.1:(\d+) \(host key (SHA256:\S+)\)", first)
        assert m, first + (self.proc.stdout.read() if self.proc.poll() is not None else "")
        self.port, self.host_key = int(m.group(1)), m.group(2)
        self.lines: list[str] = [first]
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)

    def pids(self) -> list[int]:
        """The programs the server started, by PID, in order."""
        return [int(m.group(1)) for line in list(self.lines)
                for m in [re.search(r"program started, pid (\d+)", line)] if m]

    def stop(self) -> list[int]:
        """Stop the server (SIGTERM, as a person would); returns the PIDs of the programs it ran."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=5)
        return self.pids()


async def wait_gone(pid: int, timeout: float = 15.0) -> bool:
    end = time.monotonic() + timeout
    while not gone(pid) and time.monotonic() < end:
        await asyncio.sleep(0.05)
    return gone(pid)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


class Client:
    """One SSH session with a terminal, drawn by pyte as the client's terminal would draw it."""

    def __init__(self, conn: asyncssh.SSHClientConnection, process, width: int, height: int) -> None:
        self.conn = conn
        self.process = process
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.last_output = time.monotonic()
        self.closed = False
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int, username: str, key=None, size=(80, 24)) -> "Client":
        conn = await asyncssh.connect("127.0.0.1", port, username=username, known_hosts=None,
                                      client_keys=[key] if key is not None else None, agent_path=None,
                                      password=None if key is not None else "", preferred_auth=(
                                          "publickey" if key is not None else "keyboard-interactive"))
        process = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)
        return cls(conn, process, *size)

    async def _read(self) -> None:
        try:
            while data := await self.process.stdout.read(65536):
                self.stream.feed(data)
                self.last_output = time.monotonic()
        except (asyncssh.Error, OSError):
            pass
        self.closed = True

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def row(self, n: int) -> str:
        return self.screen.display[n]

    async def wait_for(self, *texts: str, timeout: float = 20.0, flat: bool = False) -> str:
        end = time.monotonic() + timeout
        while True:
            screen = self.text()
            seen = re.sub(r"\s+", "", screen) if flat else screen
            if all((re.sub(r"\s+", "", t) if flat else t) in seen for t in texts):
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"{texts} never appeared; the screen was:\n{screen}")
            await asyncio.sleep(0.05)

    async def wait_until(self, check, what: str, timeout: float = 20.0) -> None:
        end = time.monotonic() + timeout
        while not check():
            if time.monotonic() > end:
                raise AssertionError(f"{what} never happened; the screen was:\n{self.text()}")
            await asyncio.sleep(0.05)

    def keys(self, data: bytes) -> None:
        self.process.stdin.write(data)

    def resize(self, width: int, height: int) -> None:
        self.screen.resize(lines=height, columns=width)
        self.process.change_terminal_size(width, height)

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()
        await asyncio.gather(self._reader, return_exceptions=True)


def our_decision(screen: str) -> str | None:
    """Whether the prompt asks us: "turn" (any decision of ours) or "window" (an interrupt window)."""
    for row in screen.splitlines():
        if re.match(r"\s{0,3}! Interrupt window", row):
            return "window"
        if re.match(r"\s{0,3}▶ ", row):
            return "turn"
    return None


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "server")
    try:
        yield s
    finally:
        pids = s.stop()
        for pid in pids:  # the server stops what it started; if one were left, stop it and fail
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)
                pytest.fail(f"the program {pid} outlived the server")


async def test_a_key_gets_the_title_screen_resizes_plays_with_a_bot_and_finds_its_table_saved(server):
    key = asyncssh.generate_private_key("ssh-ed25519")
    fp = key.get_fingerprint("sha256")
    c = await Client.open(server.port, "alice", key)
    try:
        # 80x24: the title screen, saying where the secrets live and which key this is.
        await c.wait_for("New game against bots", "Host a table on the network", "q Quit")
        await c.wait_for("your identity, hand and saves live on the server", fp, flat=True)
        await c.wait_until(lambda: "q Quit" in c.row(23), "the footer on row 24")
        banner_col = c.row(next(i for i, r in enumerate(c.screen.display) if "A N K H" in r)).index("A N K H")
        # 120x40: drawn again at the new size (the footer on the new last row, the banner re-centred).
        c.resize(120, 40)
        await c.wait_until(lambda: "q Quit" in c.row(39), "the footer on row 40")
        rows = [r for r in c.screen.display if "A N K H" in r]
        assert rows and rows[0].index("A N K H") == banner_col + 20, c.text()
        c.resize(80, 24)  # and back (the game is played at the smallest size it supports)
        await c.wait_until(lambda: "q Quit" in c.row(23) and any(
            r.find("A N K H") == banner_col for r in c.screen.display), "the title at 80x24 again")

        # A table for two people: its lobby names the SSH user and the key, and waits; leave it.
        c.keys(b"o")
        await c.wait_for("Open a table on the network", "Seats")
        c.keys(b"\r")
        await c.wait_for("You came in over SSH with the key", fp, "alice", "(empty seat)", flat=True)
        c.keys(b"\x1b")
        await c.wait_for("New game against bots")
        # A table with a bot in the other seat: the game starts at once.
        c.keys(b"o")
        await c.wait_for("Open a table on the network", "Seats")
        c.keys(b"\x1b[B")  # down to Bots
        await asyncio.sleep(0.2)
        c.keys(b"\x1b[C")  # one bot
        await asyncio.sleep(0.3)
        c.keys(b"\r")
        await c.wait_for("not ready", timeout=30)
        c.keys(b"\x12")  # Ctrl+R: ready
        await c.wait_for("Table fingerprint", "The same on every screen?", timeout=30, flat=True)
        c.keys(b"\x12")  # Ctrl+R again: the fingerprint is the one read aloud; the deal begins

        # Play: Enter at each of our decisions, to turn 4.  A decision that comes after the bot's
        # moves (or an interrupt window) ignores keys for 0.5 s: wait that out then.  (A networked
        # game to its end screen: test_netplay; here what SSH carries is what is tested.)
        await c.wait_for("Turn 1", timeout=60)
        deadline = time.monotonic() + 180
        last_key, others_moved, decisions, turn = 0.0, True, 0, 1
        while turn < 4:
            assert time.monotonic() < deadline, "the game did not move on:\n" + c.text()
            assert not c.closed, "the session closed during the game:\n" + c.text()
            screen = c.text()
            if "is deciding" in screen:
                others_moved = True
            mine = our_decision(screen)
            now = time.monotonic()
            if mine and now - last_key > (0.6 if others_moved or mine == "window" else 0.15):
                c.keys(b"\r")
                last_key, others_moved, decisions = now, False, decisions + 1
            m = re.search(r"Turn (\d+)", c.row(0))
            turn = int(m.group(1)) if m else turn
            await asyncio.sleep(0.03)
        assert decisions >= 2, decisions
        # Leave the table (it is saved: the host's hint names how to come back), then ankh.
        c.keys(b"q")
        await c.wait_for("Leave the table?", "log in again and choose this game in the title",
                         "screen's Load list (l)", timeout=10, flat=True)   # no server path to an SSH player
        c.keys(b"y")
        await c.wait_for("New game against bots", timeout=15)
        c.keys(b"q")
        await c.wait_until(lambda: c.closed, "the session's end", timeout=15)
        assert c.process.exit_status == 0
    finally:
        await c.close()

    # The player's home is kept under the key, private, with the game's journal in it.
    homes = list((server.home / "ssh" / "keys").iterdir())
    assert len(homes) == 1
    assert stat.S_IMODE(homes[0].stat().st_mode) == 0o700
    assert stat.S_IMODE((homes[0] / "identity.key").stat().st_mode) == 0o600
    assert any((homes[0] / "saves").iterdir())
    assert stat.S_IMODE((server.home / "ssh" / "host_ed25519").stat().st_mode) == 0o600
    # The same key next time: the same home, the same identity.
    identity = (homes[0] / "identity.key").read_bytes()
    c = await Client.open(server.port, "alice", key)
    try:
        await c.wait_for("New game against bots", fp, flat=True)
        c.keys(b"l")                                  # and the table left is there to load
        await c.wait_for("network", "you host", timeout=15)
    finally:
        await c.close()
    assert list((server.home / "ssh" / "keys").iterdir()) == homes
    assert (homes[0] / "identity.key").read_bytes() == identity


async def test_without_a_key_a_guest_gets_the_title_screen_and_leaves_nothing_behind(server):
    c = await Client.open(server.port, "visitor")
    try:
        await c.wait_for("New game against bots", "q Quit")
        await c.wait_for("Over SSH as a guest (no key)", "thrown away when you leave", flat=True)
        assert len(list((server.home / "ssh" / "guests").iterdir())) == 1
    finally:
        await c.close()  # a dropped connection: the program is stopped, the guest's home removed
    assert await wait_gone(server.pids()[-1]), "the guest's program outlived its connection"
    end = time.monotonic() + 15
    while any((server.home / "ssh" / "guests").iterdir()) and time.monotonic() < end:
        await asyncio.sleep(0.1)
    assert not any((server.home / "ssh" / "guests").iterdir())
    # Without a terminal there is nothing to draw on: a plain message, not a crash.
    async with asyncssh.connect("127.0.0.1", server.port, username="script", known_hosts=None,
                                client_keys=None, agent_path=None, password="",
                                preferred_auth="keyboard-interactive") as conn:
        result = await conn.run("ls", term_type=None)
        assert result.exit_status == 1 and "connect with ssh -t" in result.stderr
    # The server still serves (one session's end is no one else's).
    c = await Client.open(server.port, "visitor")
    try:
        await c.wait_for("New game against bots")
    finally:
        await c.close()


async def test_an_idle_session_is_closed_with_a_message_and_its_program_stopped(tmp_path):
    # 6 s without a key; the program's start counts, and may take seconds on a busy machine
    server = Server(tmp_path / "server", "--idle", "0.1")
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        c = await Client.open(server.port, "sleepy", key)
        try:
            await c.wait_for("New game against bots")
            await asyncio.sleep(3)
            c.keys(b"r")                        # a key (the rules): the clock starts again
            await asyncio.sleep(4)
            assert not c.closed                 # over 7 s since connecting, 4 s since the key
            await c.wait_until(lambda: c.closed, "the idle session's end", timeout=20)
            assert "closed after 6 seconds without a key pressed" in c.text()
        finally:
            await c.close()
        assert await wait_gone(server.pids()[-1]), "the idle session's program was not stopped"
    finally:
        for pid in server.stop():
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)


async def test_a_guest_who_drops_out_of_a_game_takes_the_seat_back_with_the_code_the_screen_gave(server, tmp_path):
    from tests.net.procs import Peers

    peers = Peers()
    c = await Client.open(server.port, "visitor")
    try:
        await c.wait_for("Over SSH as a guest", "take your seat back", flat=True)
        code = re.search(r"theusername([a-z2-9]{8})totake", re.sub(r"\s+", "", c.text())).group(1)
        c.keys(b"o")                                         # host a table for two
        await c.wait_for("Open a table on the network", "Seats")
        c.keys(b"\r")
        await c.wait_for("(empty seat)", code, flat=True)     # the lobby says the code too
        port = re.search(r"Address:127\.0\.0\.1:(\d+)", re.sub(r"\s+", "", c.text())).group(1)
        assert str(server.home) not in re.sub(r"\s+", "", c.text())  # no server path to an SSH player
        c.keys(b"\x12")                                      # ready
        joiner = peers.start(["join", f"127.0.0.1:{port}", "--headless", "--bot", "random", "--seed", "4"],
                             tmp_path / "joiner")

        def seen(line: str) -> bool:
            try:
                joiner.wait_for(lambda l: l.startswith(line), timeout=0.05)
            except AssertionError:
                return False
            return True

        async def play_until(line: str) -> None:
            """Enter at our decisions until the joiner prints ``line``."""
            deadline = time.monotonic() + 240
            while not await asyncio.to_thread(seen, line):
                assert time.monotonic() < deadline, "the game did not get there:\n" + c.text()
                if our_decision(c.text()):
                    c.keys(b"\r")
                await asyncio.sleep(0.6)

        await asyncio.to_thread(joiner.wait_for, lambda l: l.startswith("table fingerprint"), 60)
        await c.wait_for("Table fingerprint", "The same on every screen?", timeout=30, flat=True)
        c.keys(b"\x12")                                      # the fingerprint compared: the deal begins
        await play_until("turn 3:")
        await c.close()                                      # the connection drops
        await asyncio.to_thread(joiner.wait_for, lambda l: l.startswith("link to red lost"), 30)
        deadline = time.monotonic() + 15
        while not any("kept 600 s for them to come back" in line for line in server.lines):
            assert time.monotonic() < deadline, server.lines[-5:]
            await asyncio.sleep(0.1)

        c = await Client.open(server.port, code)              # back within the window, with the code
        await c.wait_for("New game against bots")
        c.keys(b"l")
        await c.wait_for("network", "you host", flat=True)
        c.keys(b"\r")
        await asyncio.to_thread(joiner.wait_for, lambda l: l == "link to red back", 60)
        await play_until("turn 5:")                          # the seat plays on
        assert not any(l.startswith("result:") for l in joiner.lines)
    finally:
        await c.close()
        peers.stop_all()
