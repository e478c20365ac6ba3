"""Where an install keeps its things: identity, player name, pinned keys, saves.

- ``$ANKH_HOME``, when set, holds everything (data and configuration alike);
- otherwise data goes to ``$XDG_DATA_HOME/ankh`` (default ``~/.local/share/ankh``)
  and configuration to ``$XDG_CONFIG_HOME/ankh`` (default ``~/.config/ankh``).

The data dir holds the long-term identity (``identity.key``, a secret: mode
0600), the pinned keys of known players (``known_players.json``) and the saves
(``saves/``); the configuration dir holds the player's name (``name``) and the language chosen
(``language``, written by :mod:`ankh.tui.i18n`).
Directories this module creates are 0700.  Files are written atomically (a
temporary file in the same directory, then a rename), so a crash never leaves
half a file behind.  A damaged file is reported with :class:`HomeError` and
left as it is: an identity is never silently replaced.
"""
from __future__ import annotations

import base64
import binascii
import contextvars
import getpass
import json
import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

if TYPE_CHECKING:   # the keys' module (and its cryptography) is imported once a key is needed:
    from ..wire.envelope import Identity   # a program that only asks where its files are starts sooner

IDENTITY_FILE = "identity.key"
NAME_FILE = "name"
KNOWN_FILE = "known_players.json"
GAMES_FILE = "games_seen"
_IDENTITY_HEADER = "ankh identity v1 (Ed25519 seed, base64); keep this file secret"

# Set by ``ankh serve --ssh`` for the program it runs for a player: the SSH
# key's fingerprint ("SHA256:…"), or "guest" for a player who came without one.
ENV_SSH = "ANKH_SSH"
# For a guest over SSH, the short code that brings their home back if they log in
# again with it as user name soon after dropping (``net/io/ssh.py``, GUEST_GRACE).
ENV_BACK = "ANKH_SSH_BACK"
ENV_SSH_JOIN = "ANKH_SSH_JOIN"  # the addresses a player over SSH may type (see ssh_may_join)

MAX_NAME = 24
_NAME_RE = re.compile(r"[^\W_][\w .'-]*", re.UNICODE)


class HomeError(Exception):
    """A file in the data or configuration dir is damaged or cannot be written."""


# -- where -----------------------------------------------------------------------


_HOME: contextvars.ContextVar[Path | None] = contextvars.ContextVar("ankh_home", default=None)


def set_home(path: Path | None) -> None:
    """From now on in the current context, everything is kept under ``path``, as
    with ``$ANKH_HOME`` (the simulator gives each of its nodes its own home)."""
    _HOME.set(path)


def _xdg(var: str, default: tuple[str, ...]) -> Path:
    own = _HOME.get()
    if own is not None:
        return own
    override = os.environ.get("ANKH_HOME")
    if override:
        return Path(override).expanduser()
    base = os.environ.get(var)
    # The XDG spec: a relative path in these variables is invalid and ignored.
    if base and os.path.isabs(base):
        return Path(base) / "ankh"
    return Path.home().joinpath(*default, "ankh")


def data_dir() -> Path:
    """Identity, known players and saves."""
    return _xdg("XDG_DATA_HOME", (".local", "share"))


def config_dir() -> Path:
    """The player's settings (today: the name)."""
    return _xdg("XDG_CONFIG_HOME", (".config",))


def saves_dir() -> Path:
    return data_dir() / "saves"


def ssh_player() -> str | None:
    """How the player came in when this program runs for ``ankh serve --ssh``:
    their SSH key's fingerprint, ``"guest"``, or None (not over SSH)."""
    return os.environ.get(ENV_SSH) or None


def ssh_back_code() -> str | None:
    """A guest over SSH: the code to log in with again to get their seat back."""
    return os.environ.get(ENV_BACK) or None


def ssh_may_join(host: str, port: int, found: list[tuple[str, int]]) -> bool:
    """May this program connect to ``host:port``?  Anywhere, when not run for
    ``ankh serve --ssh``; over SSH only to a table found on the network
    (``found``: addresses and ports), or to an address the server's operator
    allows (:data:`ENV_SSH_JOIN`: ``HOST`` or ``HOST:PORT``, comma-separated):
    a stranger logged in over SSH must not use the server to probe the
    network it stands in."""
    if ssh_player() is None:
        return True
    if (host, port) in found:
        return True
    for allowed in os.environ.get(ENV_SSH_JOIN, "").split(","):
        allowed = allowed.strip()
        a_host, sep, a_port = allowed.rpartition(":")
        if not sep or not a_port.isdigit() or (":" in a_host and not a_host.endswith("]")):
            a_host, a_port = allowed, ""  # HOST alone (an IPv6 address without brackets too)
        if allowed and a_host.strip("[]") == host and (not a_port or int(a_port) == port):
            return True
    return False


# -- writing safely -------------------------------------------------------------


def make_dirs(path: Path) -> None:
    """Create ``path`` and any missing parents as 0700 (existing ones stay as they are):
    every folder the game makes is its owner's only, whatever the umask."""
    missing = []
    p = path
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for d in reversed(missing):
        try:
            d.mkdir(mode=0o700)
        except FileExistsError:
            continue
        os.chmod(d, 0o700)  # mkdir's mode is filtered by the umask


def _write_temp(directory: Path, data: bytes) -> str:
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)  # created 0600
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def _sync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _install(path: Path, data: bytes, *, replace: bool) -> bool:
    """Put ``data`` at ``path`` in one step, readable by its owner only.

    With ``replace=False`` an existing file wins and the result is False.
    """
    make_dirs(path.parent)
    tmp = _write_temp(path.parent, data)
    try:
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)
    except FileExistsError:
        return False
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    _sync_dir(path.parent)
    return True


def write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` atomically with ``data``, readable by its owner only."""
    _install(path, data, replace=True)


# -- identity and name ----------------------------------------------------------


class Profile(NamedTuple):
    identity: Identity
    name: str


def _encode_identity(identity: Identity) -> bytes:
    seed = base64.b64encode(identity.seed).decode("ascii")
    return f"{_IDENTITY_HEADER}\n{seed}\n".encode("ascii")


def _decode_identity(path: Path) -> Identity:
    try:
        text = path.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as exc:
        raise HomeError(f"cannot read the identity in {path}: {exc}") from None
    lines = text.splitlines()
    if len(lines) != 2 or lines[0] != _IDENTITY_HEADER:
        raise HomeError(f"the identity file {path} is damaged (not an ankh identity); "
                        "move it away to create a new identity")
    try:
        seed = base64.b64decode(lines[1], validate=True)
    except (binascii.Error, ValueError):
        seed = b""
    if len(seed) != 32:
        raise HomeError(f"the identity file {path} is damaged (bad key); "
                        "move it away to create a new identity")
    from ..wire.envelope import Identity
    return Identity.from_seed(seed)


def load_identity() -> Profile:
    """This install's identity and player name, creating the identity on first run."""
    path = data_dir() / IDENTITY_FILE
    if not path.exists():
        from ..wire.envelope import Identity
        try:
            _install(path, _encode_identity(Identity.generate()), replace=False)
        except OSError as exc:
            raise HomeError(f"cannot create the identity in {path}: {exc}") from None
    return Profile(_decode_identity(path), player_name())


def check_name(name: str) -> str:
    """A player name as shown to others: 1 to 24 letters, digits, spaces, ``.'-``."""
    if type(name) is not str:
        raise ValueError("a name is text")
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_NAME or not _NAME_RE.fullmatch(name):
        raise ValueError(f"a name is 1 to {MAX_NAME} letters, digits, spaces and . ' - "
                         "starting with a letter or digit")
    return name


def default_name() -> str:
    try:
        return check_name(getpass.getuser())
    except (ValueError, OSError, KeyError):
        return "player"


def player_name() -> str:
    path = config_dir() / NAME_FILE
    try:
        return check_name(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return default_name()
    except (OSError, UnicodeDecodeError, ValueError):
        return default_name()


def set_name(name: str) -> str:
    """Remember the player's name (raises ValueError for an unusable one)."""
    name = check_name(name)
    write_private(config_dir() / NAME_FILE, (name + "\n").encode("utf-8"))
    return name


# -- known players --------------------------------------------------------------

Pinned = Literal["new", "known", "changed"]


class KnownPlayers:
    """Keys of players met before, pinned on first use (trust on first use).

    ``check`` says whether a name comes with the key we pinned for it; a
    changed key is reported and only replaced by an explicit
    ``pin(..., replace=True)`` (the player accepted the new key).
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else data_dir() / KNOWN_FILE
        self._keys: dict[str, bytes] = self._read()

    def _read(self) -> dict[str, bytes]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise HomeError(f"cannot read known players from {self.path}: {exc}") from None
        try:
            obj = json.loads(raw.decode("utf-8"))
            if type(obj) is not dict:
                raise ValueError("not a map")
            keys = {}
            for name, hexkey in obj.items():
                key = bytes.fromhex(hexkey)
                if len(key) != 32:
                    raise ValueError("bad key length")
                keys[name] = key
        except (ValueError, TypeError, UnicodeDecodeError):
            raise HomeError(f"the known players file {self.path} is damaged; "
                            "fix or move it away (pinned keys are not thrown away silently)") from None
        return keys

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, name: object) -> bool:
        return name in self._keys

    def get(self, name: str) -> bytes | None:
        return self._keys.get(name)

    def check(self, name: str, public_key: bytes) -> Pinned:
        pinned = self._keys.get(name)
        if pinned is None:
            return "new"
        return "known" if pinned == public_key else "changed"

    def warning(self, name: str, public_key: bytes) -> str | None:
        """A sentence for the screen when ``name`` comes with a key we did not pin."""
        pinned = self._keys.get(name)
        if pinned is None or pinned == public_key:
            return None
        from ..wire.envelope import fingerprint
        return (f"{name}'s key has changed: it was {fingerprint(pinned)}, "
                f"now {fingerprint(public_key)}. Someone may be impersonating {name}.")

    def pin(self, name: str, public_key: bytes, *, replace: bool = False) -> None:
        if type(public_key) is not bytes or len(public_key) != 32:
            raise ValueError("an identity key is 32 bytes")
        if self.check(name, public_key) == "changed" and not replace:
            raise ValueError(f"{name} is pinned to another key; pass replace=True to accept the new one")
        self._keys[name] = public_key
        text = json.dumps({n: k.hex() for n, k in sorted(self._keys.items())}, indent=1)
        write_private(self.path, (text + "\n").encode("utf-8"))


def first_time_for_game(game_id: bytes) -> bool:
    """Remember a game id this install sat down to; False if it had seen it
    before (an old table's messages replayed at us: refuse it)."""
    if type(game_id) is not bytes or len(game_id) != 16:
        raise ValueError("a game id is 16 bytes")
    path = data_dir() / GAMES_FILE
    try:
        seen = path.read_bytes()
    except FileNotFoundError:
        seen = b""
    except OSError as exc:
        raise HomeError(f"cannot read {path}: {exc}") from None
    line = game_id.hex().encode() + b"\n"
    if line in seen.splitlines(keepends=True):
        return False
    write_private(path, seen + line)
    return True
