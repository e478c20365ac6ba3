"""Tables you can join over SSH with nothing installed: ``ankh serve --ssh``.

An SSH server (asyncssh) that gives every terminal session its own copy of
the program, in its own process under its own pseudo-terminal: a terminal
program owns its process's terminal (stdin, stdout, one SIGWINCH handler), so
two players cannot share one process.  The child is an ordinary ``ankh``: it
meets tables over the network (loopback by default) like any other peer, so
a seat played over SSH runs the same code as any other seat.

Players are known by their SSH public key.  Any key is let in; the key whose
signature was checked chooses the player's home under ``<data dir>/ssh/keys/``
(identity, name, pinned keys, saves), kept across sessions.  A client that
offers no key (keyboard-interactive, or a password) is a guest with a fresh
home that is thrown away when the session ends, unless it holds a game on the
network under way: then it is kept ``GUEST_GRACE`` seconds for the guest to
log in again with the short code the screen gave them as user name
(:data:`ENV_BACK`), and take the seat back.  The child is told who it
serves through its environment (:data:`ENV_SSH`), so that the program can
say plainly that the player's secrets live on this machine.

The terminal size the client asked for, and every later resize, is set on
the pseudo-terminal; the child makes it its controlling terminal (a new
session and ``TIOCSCTTY``), so the kernel tells it of each resize.  A session
with no key pressed for ``idle_timeout`` seconds is closed; a closed or
dropped connection ends its child (SIGHUP, then SIGTERM, then SIGKILL): for
the table that is a dropped link, and the seat's journal is on disk.

The server is bounded: a terminal is at most ``MAX_COLUMNS`` by ``MAX_ROWS``
whatever size the client asks for; one key (or one guest's address, an IPv6
/64) holds at most ``per_key`` sessions and the server ``max_sessions`` in all,
of which guests hold at most half: the rest is kept for players with a key.
Connections that hold no session pass the same door as a table's links
(:class:`ankh.net.wire.admission.Door`): bounded per address (an IPv6 /64), per
network and in all, the busiest address's oldest idle one (it has sent
nothing) making way for a newcomer, and one whose key exchange is done out
of reach of those that have sent nothing; so a flood of idle sockets, even
from the key holder's own address, never keeps a key holder out.  Logged in
or not, a connection counts there until its first session begins and again
once its last one ended, so logins that open nothing cannot hold the
server's descriptors either.  A connection that logs in has
``login_timeout`` seconds to do so, and one that holds no session for
``no_session_timeout`` seconds is closed.  A player over SSH joins only the
tables found on the network or the addresses the operator allows
(``allow_join``: see :func:`ankh.net.files.home.ssh_may_join`), so that the
server cannot be used to probe the network it stands in.
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import hashlib
import os
import pty
import secrets
import shutil
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import asyncssh
from asyncssh.public_key import decode_ssh_public_key

from ..files import home
from ..wire.admission import Door, address_key
from ..wire.errors import Words
from ..files.home import ENV_BACK, ENV_SSH, ENV_SSH_JOIN

HOST_KEY_FILE = "host_ed25519"
DEFAULT_IDLE = 30 * 60.0       # seconds without a key pressed before a session is closed
STOP_GRACE = 3.0               # seconds a child has after SIGHUP (and again after SIGTERM)
MAX_COLUMNS, MAX_ROWS = 512, 256   # the largest terminal a session gets, whatever the client asks
MAX_SESSIONS = 32              # sessions the server runs at once
PER_KEY = 3                    # sessions one key (or one guest's address) holds at once
LOGIN_TIMEOUT = 30.0           # seconds a connection has to log in
NO_SESSION_TIMEOUT = 60.0      # seconds a logged-in connection may hold no session
TOO_MANY_SESSIONS = Words("this server runs as many sessions as it can; try again later")
TOO_MANY_GUESTS = Words("this server keeps its other sessions for players with a key; try again later, "
                        "or log in with a key")
GUEST = "guest@"               # a guest's session belongs to its address (an IPv6 /64)
LOGIN_ROOM = 8                 # connections not yet logged in, for each session the server runs
LOGIN_PER_ADDRESS = 16         # of those, from one address (an IPv6 /64) at once
GUEST_GRACE = 600.0            # seconds a dropped guest's home waits for them (a game on the network under way)
CODE_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # a guest's code: no 0/o, 1/l/i to misread
CODE_LENGTH = 8
# What a stopped child could not undo on the client's terminal: the alternate
# screen, mouse reporting, bracketed paste, a hidden cursor, colours.
RESET_TERMINAL = (b"\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l"
                  b"\x1b[?2004l\x1b[?1004l\x1b[?25h\x1b[0m")

# Run first in the child, before the program: take the pseudo-terminal (stdin)
# as the controlling terminal of the new session, so that resizes reach it.
_TAKE_TERMINAL = ("import fcntl, os, sys, termios\n"
                  "fcntl.ioctl(0, termios.TIOCSCTTY, 0)\n"
                  "os.execv(sys.argv[1], sys.argv[1:])\n")


@dataclass
class Player:
    """Who a connection is: the SSH user name, and the key that authenticated (None: a guest)."""

    username: str
    key: asyncssh.SSHKey | None = None

    @property
    def fingerprint(self) -> str | None:
        return self.key.get_fingerprint("sha256") if self.key is not None else None

    @property
    def key_id(self) -> str:
        """A file name for the key: its public blob's SHA-256 in hex."""
        assert self.key is not None
        return hashlib.sha256(self.key.public_data).hexdigest()


def load_host_key(directory: Path) -> asyncssh.SSHKey:
    """The server's host key, generated on first use and kept (0600) in ``directory``."""
    path = directory / HOST_KEY_FILE
    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519", comment="ankh serve")
        home.write_private(path, key.export_private_key())
    try:
        return asyncssh.read_private_key(str(path))
    except (OSError, asyncssh.KeyImportError) as exc:
        raise home.HomeError(f"the SSH host key {path} cannot be read ({exc}); "
                             "move it away to generate a new one") from None


class _Auth(asyncssh.SSHServer):
    """Lets everyone in and records how: with a key whose signature was
    checked, or as a guest; closes the connection when it holds no session
    for ``no_session_timeout`` seconds."""

    def __init__(self, server: "SshServer") -> None:
        self.server = server
        self.player = Player("")
        self._proven: asyncssh.SSHKey | None = None
        self.conn: asyncssh.SSHServerConnection | None = None
        self.sessions = 0
        self._idle: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        conn.set_extra_info(ankh_player=self.player, ankh_auth=self)
        peer = conn.get_extra_info("peername")
        self.server.connections.add(self)
        self.server.make_way(self.server.door.arrive(self, peer[0] if peer else None))
        # A socket that has sent nothing makes way before one whose client speaks
        # (its version, its key exchange): the door hears of its first bytes.
        receive = conn.data_received

        def data_received(data: bytes, datatype: int | None = None) -> None:
            if data:
                conn.data_received = receive  # type: ignore[method-assign]
                self.server.door.heard(self)
            receive(data, datatype)

        conn.data_received = data_received  # type: ignore[method-assign]
        # asyncssh asks validate_public_key about a key *before* checking its
        # signature: the key is remembered here, once the signature checked.
        check = conn.validate_public_key

        async def validate_public_key(username: str, key_data: bytes, msg: bytes, signature: bytes) -> bool:
            ok = await check(username, key_data, msg, signature)
            if ok and msg:
                try:
                    self._proven = decode_ssh_public_key(key_data)
                except (asyncssh.KeyImportError, ValueError):
                    self._proven = None  # a certificate, say: a guest
            return ok

        conn.validate_public_key = validate_public_key  # type: ignore[method-assign]

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)
        self.server.door.leave(self)
        if self._idle is not None:
            self._idle.cancel()

    def begin_auth(self, username: str) -> bool:
        self.player.username = username
        # Its key exchange is done: work a flood of idle sockets does not do.
        self.server.make_way(self.server.door.proven(self))
        return True  # ask, so that a client with a key offers it

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return True  # any key, once its signature checks (see connection_made)

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self._proven = None  # a guest, whatever keys were offered (and failed) before
        return True          # no questions asked

    def password_auth_supported(self) -> bool:
        return True

    def validate_password(self, username: str, password: str) -> bool:
        self._proven = None
        return True

    def auth_completed(self) -> None:
        self.player.key = self._proven
        self._no_session()  # (a caller at the door until its first session begins)

    def session_began(self) -> None:
        if not self.sessions:
            self.server.door.sit(self)
        self.sessions += 1
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def session_ended(self) -> None:
        self.sessions -= 1
        if not self.sessions:
            self.server.make_way(self.server.door.stand(self))
        self._no_session()

    def _no_session(self) -> None:
        """Without a session, the connection is closed after ``no_session_timeout`` seconds."""
        if self.sessions == 0 and self.conn is not None:
            if self._idle is not None:
                self._idle.cancel()
            self._idle = asyncio.get_running_loop().call_later(self.server.no_session_timeout, self.conn.close)


class SshServer:
    """The SSH server: one child program per terminal session.

    ``command`` is the program to run (argv); ``data_dir`` holds the host key
    and the players' homes (``ssh/``).
    """

    def __init__(self, command: Sequence[str], data_dir: Path, *, host: str = "", port: int = 0,
                 idle_timeout: float = DEFAULT_IDLE, log: Callable[[str], None] = lambda _line: None,
                 max_sessions: int = MAX_SESSIONS, per_key: int = PER_KEY,
                 no_session_timeout: float = NO_SESSION_TIMEOUT, login_timeout: float = LOGIN_TIMEOUT,
                 allow_join: Sequence[str] = ()) -> None:
        self.command = list(command)
        self.log = log
        self.root = Path(data_dir) / "ssh"
        self.host = host
        self.port = port
        self.idle_timeout = idle_timeout
        self.max_sessions = max_sessions
        self.per_key = per_key
        self.no_session_timeout = no_session_timeout
        self.login_timeout = login_timeout
        self.allow_join = list(allow_join)
        self.connections: set[_Auth] = set()
        room = LOGIN_ROOM * max_sessions
        self.door = Door(spectators=0, pending=room, pending_per_address=min(room, LOGIN_PER_ADDRESS),
                         pending_per_prefix=max(room * 3 // 4, 1))
        self.sessions: set[_Session] = set()
        self.guest_grace = GUEST_GRACE
        self.kept: dict[str, tuple[Path, asyncio.TimerHandle]] = {}  # code -> a dropped guest's home, waiting
        self._server: asyncssh.SSHAcceptor | None = None
        self.host_fingerprint = ""

    async def start(self) -> int:
        """Listen; returns the port."""
        key = load_host_key(self.root)
        self.host_fingerprint = key.get_fingerprint("sha256")
        self._server = await asyncssh.create_server(
            lambda: _Auth(self), self.host or None, self.port, server_host_keys=[key],
            process_factory=self._session, encoding=None, line_editor=False,
            allow_scp=False, agent_forwarding=False, x11_forwarding=False,
            allow_pty=True, keepalive_interval=30, keepalive_count_max=4, login_timeout=self.login_timeout)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        await asyncio.gather(*(s.stop("the server is shutting down") for s in list(self.sessions)),
                             return_exceptions=True)
        for code in list(self.kept):
            self._forget(code)

    async def serve_forever(self) -> None:
        assert self._server is not None
        await self._server.wait_closed()

    def home_of(self, player: Player) -> tuple[Path, str | None]:
        """The player's ankh home, and for a guest the code that brings it back
        (a guest logging in with the code of a home kept for them gets it again)."""
        if player.key is not None:
            return _private_dir(self.root / "keys" / player.key_id), None
        code = player.username.strip().lower()
        if code in self.kept:
            home_dir, timer = self.kept.pop(code)
            timer.cancel()
            return home_dir, code
        guests = _private_dir(self.root / "guests")
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            with contextlib.suppress(FileExistsError):
                (guests / code).mkdir(mode=0o700)
                return guests / code, code

    def guest_left(self, home_dir: Path, code: str) -> None:
        """A guest's session ended: its home is thrown away, or kept a while when
        it holds a game on the network under way (the seat waits for them)."""
        if _game_under_way(home_dir):
            timer = asyncio.get_running_loop().call_later(self.guest_grace, self._forget, code)
            self.kept[code] = (home_dir, timer)
            self.log(f"a guest's game under way is kept {self.guest_grace:.0f} s for them to come back")
        else:
            shutil.rmtree(home_dir, ignore_errors=True)

    def _forget(self, code: str) -> None:
        home_dir, timer = self.kept.pop(code, (None, None))
        if timer is not None:
            timer.cancel()
        if home_dir is not None:
            shutil.rmtree(home_dir, ignore_errors=True)

    def make_way(self, evicted: list[object]) -> None:
        """Close the connections that made way for newer ones at the door."""
        for auth in evicted:
            if isinstance(auth, _Auth) and auth.conn is not None:
                auth.conn.abort()

    @property
    def guest_sessions(self) -> int:
        """Sessions guests may hold at once: half the server's, the rest kept for keys."""
        return max(1, self.max_sessions // 2)

    def refusal(self, owner: str) -> str | None:
        """Why a new session of ``owner`` (a key, or a guest's address) is refused, or None."""
        if len(self.sessions) >= self.max_sessions:
            return TOO_MANY_SESSIONS
        if owner.startswith(GUEST) and sum(1 for s in self.sessions if s.owner.startswith(GUEST)) \
                >= self.guest_sessions:
            return TOO_MANY_GUESTS
        mine = sum(1 for s in self.sessions if s.owner == owner)
        if mine >= self.per_key:
            return Words("you have {n} sessions open here already; close one first", n=mine)
        return None

    async def _session(self, process: asyncssh.SSHServerProcess) -> None:
        player: Player = process.get_extra_info("ankh_player") or Player("")
        auth: _Auth | None = process.get_extra_info("ankh_auth")
        session = _Session(self, process, player)
        who = f"{player.username!r} " + (f"with key {player.fingerprint}" if player.key else "as a guest")
        peer = process.get_extra_info("peername") or ("?", 0)
        session.owner = player.key_id if player.key is not None else GUEST + address_key(peer[0])
        refused = self.refusal(session.owner)
        if refused is not None:
            self.log(f"{who} from {peer[0]} refused: {refused}")
            with contextlib.suppress(Exception):
                process.stderr.write(f"ankh: {refused}.\r\n".encode())
                process.exit(1)
            return
        if auth is not None:
            auth.session_began()
        self.sessions.add(session)
        self.log(f"{who} from {peer[0]} connected")
        try:
            await session.run()
            self.log(f"{who} left ({session.ended})")
        except Exception as exc:  # one session's trouble never takes the server down
            self.log(f"{who}: session ended by an error: {exc!r}")
            with contextlib.suppress(Exception):
                process.exit(1)
        finally:
            self.sessions.discard(session)
            if auth is not None:
                auth.session_ended()


def _game_under_way(home_dir: Path) -> bool:
    """Does this ankh home hold a networked game's save that is not over?"""
    return any(not (j.parent / "game.ankh").exists() for j in (home_dir / "saves").glob("net-*/journal.ankh"))


def _private_dir(path: Path) -> Path:
    """``path`` as a folder only its owner can enter (0700), made with its parents if missing."""
    home.make_dirs(path)
    os.chmod(path, 0o700)
    return path


def child_environment(player: Player, ankh_home: Path, term: str, client_env,
                      allow_join: Sequence[str] = (), code: str | None = None) -> dict[str, str]:
    """The child's environment: ours, less what belongs to another terminal, plus who it serves."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "TMUX", "TMUX_PANE", "STY", "COLORTERM", "TERM_PROGRAM")
           and not k.startswith(("SSH_", "XDG_"))}
    if player.key is not None:
        name = player.username or "player"
        env[ENV_SSH] = player.fingerprint or ""
    else:
        name = f"guest-{secrets.randbelow(10000):04d}"
        env[ENV_SSH] = "guest"
        if code is not None:
            env[ENV_BACK] = code
    env.update(ANKH_HOME=str(ankh_home), TERM=term, LOGNAME=name, USER=name)
    env[ENV_SSH_JOIN] = ",".join(allow_join)
    # What the client's terminal told us (SSH clients send their locale: the
    # game then speaks the player's language, see ankh.tui.i18n).
    for k in ("COLORTERM", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LANGUAGE"):
        v = client_env.get(k) if client_env else None
        if isinstance(v, str) and v.isprintable() and len(v) < 64:
            env[k] = v
    return env


def terminal_size(width: int, height: int) -> tuple[int, int]:
    """The size a session's terminal gets: what the client asked, within 1 to
    ``MAX_COLUMNS`` by ``MAX_ROWS`` (a screen is drawn, and kept, at its size)."""
    return min(max(width, 1), MAX_COLUMNS), min(max(height, 1), MAX_ROWS)


def _set_size(fd: int, width: int, height: int) -> None:
    width, height = terminal_size(width, height)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


class _Session:
    """One terminal session: the child under its pseudo-terminal, and the bytes both ways."""

    def __init__(self, server: SshServer, process: asyncssh.SSHServerProcess, player: Player) -> None:
        self.server = server
        self.process = process
        self.player = player
        self.child: asyncio.subprocess.Process | None = None
        self.master = -1
        self.last_input = time.monotonic()
        self.reason = ""  # why we stopped the child, told to the client
        self.owner = ""   # whose session this is: a key's id, or a guest's address
        self.ended = ""   # how the session ended, for the server's log

    async def run(self) -> int:
        """Serve the session to its end; returns the child's exit status."""
        process = self.process
        if process.term_type is None:
            process.stderr.write(b"ankh is a terminal program: connect with ssh -t\r\n")
            process.exit(1)
            return 1
        ankh_home, code = self.server.home_of(self.player)
        try:
            width, height = process.term_size[:2]
            self.master, slave = pty.openpty()
            _set_size(self.master, width or 80, height or 24)
            env = child_environment(self.player, ankh_home, process.term_type or "xterm-256color", process.env,
                                    self.server.allow_join, code)
            self.child = await asyncio.create_subprocess_exec(
                sys.executable, "-c", _TAKE_TERMINAL, *self.server.command,
                stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
                cwd=str(ankh_home))
            os.close(slave)
            self.server.log(f"{self.player.username!r}: program started, pid {self.child.pid}")
            os.set_blocking(self.master, False)
            tasks = [asyncio.create_task(t) for t in (self._input(), self._output(), self._idle())]
            done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for t in pending:
                t.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            status = await self.stop(self.reason)
            self.ended = self.reason or self.ended or f"the program ended (status {status})"
            if self.reason:  # stopped by us, and the client is there to read why
                with contextlib.suppress(Exception):
                    process.stdout.write(RESET_TERMINAL + f"\r\nankh: {self.reason}.\r\n".encode())
            with contextlib.suppress(Exception):
                process.exit(status if status >= 0 else 1)
            return status
        finally:
            if self.master >= 0:
                os.close(self.master)
                self.master = -1
            if code is not None:
                self.server.guest_left(ankh_home, code)

    async def stop(self, reason: str = "") -> int:
        """End the child (if it still runs): SIGHUP, then SIGTERM, then SIGKILL. Returns its status."""
        child = self.child
        if child is None:
            return 0
        if reason and not self.reason:
            self.reason = reason
        for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGKILL):
            if child.returncode is not None:
                break
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, sig)  # the child leads its own session: its group is its pid
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(child.wait(), STOP_GRACE)
        return child.returncode if child.returncode is not None else await child.wait()

    async def _input(self) -> None:
        """Keys (and resizes) from the client to the child; ends when the client goes."""
        stdin = self.process.stdin
        while True:
            try:
                data = await stdin.read(65536)
            except asyncssh.TerminalSizeChanged as change:
                _set_size(self.master, change.width, change.height)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (asyncssh.DisconnectError, asyncssh.ConnectionLost, BrokenPipeError, OSError) as exc:
                self.ended = f"the connection dropped: {exc}"
                return
            if not data:
                self.ended = "the client closed the session"
                return
            self.last_input = time.monotonic()
            await self._write(data)

    async def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.master, view):]
            except BlockingIOError:
                await _ready(self.master, writing=True)

    async def _output(self) -> None:
        """The child's screen to the client, at the pace the client reads it; ends with the child."""
        stdout = self.process.stdout
        while True:
            try:
                data = os.read(self.master, 65536)
            except BlockingIOError:
                await _ready(self.master, writing=False)
                continue
            except OSError as exc:  # EIO: the child and every copy of the terminal are gone
                if exc.errno != errno.EIO:
                    raise
                return
            if not data:
                return
            stdout.write(data)
            await stdout.drain()

    async def _idle(self) -> None:
        limit = self.server.idle_timeout
        while True:
            left = self.last_input + limit - time.monotonic()
            if left <= 0:
                self.reason = f"closed after {_duration(limit)} without a key pressed"
                return
            await asyncio.sleep(min(left, 60.0))


async def _ready(fd: int, *, writing: bool) -> None:
    """Wait until the (non-blocking) ``fd`` can be written to, or read from."""
    loop = asyncio.get_running_loop()
    add, remove = (loop.add_writer, loop.remove_writer) if writing else (loop.add_reader, loop.remove_reader)
    ready = loop.create_future()
    add(fd, lambda: ready.done() or ready.set_result(None))
    try:
        await ready
    finally:
        remove(fd)


def _duration(seconds: float) -> str:
    if seconds >= 60:
        minutes = round(seconds / 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{seconds:g} seconds"
