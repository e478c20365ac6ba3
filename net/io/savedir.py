"""A seat's save of a networked game on disk: its secrets (owner-only files)
and its journal, appended step by step, read back to carry the game on.
What a save must hold to be carried on is checked by
:mod:`ankh.net.tablecore.save`; this module only reads and writes files."""
from __future__ import annotations

import contextlib
import fcntl
import os
import stat
from pathlib import Path
from typing import Any

from ..files import home, journal
from ..wire.envelope import pack, unpack_strict
from ..wire.errors import ProtocolError, Words
from ..files.secrets import SeatSecrets
from ..tablecore.save import check_header, retired_moves, save_path
from ..files.transcript import Roster


class SaveDir:
    """One seat's save of a networked game: its secrets (owner-only) and the journal."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._journal: Any = None

    @property
    def journal_path(self) -> Path:
        return self.path / "journal.ankh"

    def create(self, roster: Roster, info: dict[str, Any], secrets: dict[int, SeatSecrets]) -> None:
        home.make_dirs(self.path)
        for seat, s in secrets.items():
            write_private(self.path / f"seat{seat}.secrets", s.to_bytes())
        fd = os.open(self.journal_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        self._journal = os.fdopen(fd, "wb")
        self._hold(self._journal)
        self._journal.write(journal.header(roster, info))
        self._journal.flush()

    def reopen(self) -> None:
        """Append to the journal again, after cutting off a last record that a
        crash left cut short (reading stops before it; appending after it would
        glue the next record to it)."""
        fh = open(self.journal_path, "r+b")
        try:
            self._hold(fh)
        except DamagedSave:
            fh.close()
            raise
        self._journal = fh
        whole = journal.whole_length(self.journal_path.read_bytes())
        self._journal.truncate(whole)
        self._journal.seek(whole)

    def _hold(self, fh: Any) -> None:
        """The journal is this process's until it closes it or ends (the system lets go
        of the lock then, a crash too).  A second process carrying on the same seat
        while the first still plays would ask the player for the same move again:
        two moves under one number, which name the player a cheat."""
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DamagedSave(in_use(self.path)) from None
        except OSError:
            pass  # a file system without locks: the save is played as before, unguarded

    def in_use(self) -> bool:
        """Whether another process is playing this save now (it holds its journal)."""
        try:
            with open(self.journal_path, "rb") as fh:
                fcntl.flock(fh.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        except OSError:
            return False
        return False

    def append(self, frames: list[bytes]) -> None:
        """A finished step, on the disk before anything after it is sent (the table's
        core journals a step before its move goes out): a seat whose machine goes
        down just after it moved carries on with that move, never decides it again
        differently (two frames under one number) nor refuses it from the host.
        Once the save is closed (the table left), nothing more is written."""
        if self._journal is not None:
            self._write(journal.step(frames))

    def ending(self, **record: Any) -> None:
        """How the table ended the game before its end (``journal.ending``): kept for ``ankh verify``."""
        if self._journal is not None:
            self._write(journal.ending(**record))

    def note_wait(self, **note: Any) -> None:
        """A note of the own wait at the audit (``journal.wait_note``): what a seat started
        again needs to go on with that wait."""
        if self._journal is not None:
            self._write(journal.wait_note(**note))

    def _write(self, record: bytes) -> None:
        self._journal.write(record)
        self._journal.flush()
        os.fdatasync(self._journal.fileno())

    def load(self) -> tuple[Any, dict[str, Any], dict[int, SeatSecrets]]:
        """The journal's game, its header's info and this seat's secrets; a
        save that cannot be carried on raises :class:`DamagedSave` (saying
        why) and is left as it is."""
        if self._journal is None and self.in_use():
            raise DamagedSave(in_use(self.path))
        try:
            transcript, info = journal.read(self.journal_path.read_bytes())
            if not transcript.end:  # (an ended game is over, whatever its header says)
                check_header(info, transcript.roster)
            secrets = {}
            for f in sorted(self.path.glob("seat*.secrets")):
                s = SeatSecrets.from_bytes(f.read_bytes())
                secrets[s.seat] = s
        except OSError as exc:
            raise DamagedSave(Words("{path} cannot be read: {why}", path=str(self.path),
                                    why=exc.strerror or str(exc))) from None
        except Exception as exc:  # whatever a damaged or doctored file holds, never a crash
            why = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            raise DamagedSave(Words("{path} is damaged and cannot be carried on ({why}); it was left as it is",
                                    path=str(self.path), why=why)) from None
        if transcript.end:
            raise DamagedSave(Words("that game is over: its seats ended it after a seat left"))
        if retired_moves(transcript):
            raise DamagedSave(Words("the game in {path} was saved by an earlier version of ankh whose trades took "
                                    "several moves: this version cannot carry it on; it was left as it is",
                                    path=str(self.path)))
        return transcript, info, secrets

    def finish(self, transcript: Any) -> Path:
        """The complete game as a transcript for ``ankh verify``."""
        out = self.path / "game.ankh"
        write_private(out, transcript.to_bytes())
        return out

    def close(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None


class SeatTaken:
    """A seat taken at a host's table before its game's save exists (``KeepSeat``): its
    nonce and, once the seats are set, its secrets, kept (owner-only) in
    ``root/taking-<the host's key>`` before they are sent, so that the same ``ankh
    join`` run again after the program died sits at the same seat.  Held by one
    program at a time (a lock the system lets go of when the program ends): a second
    program of the same player at the same host keeps nothing and reads nothing."""

    def __init__(self, root: Path, host_key: bytes):
        self.path = Path(root) / f"taking-{host_key.hex()[:32]}"
        self._fh: Any = None

    def hold(self) -> tuple[bytes, SeatSecrets | None] | None:
        """Hold the file, and what an earlier run kept in it (None: nothing, or another
        program holds it now, or it is unreadable)."""
        try:
            home.make_dirs(self.path.parent)
            fh = os.fdopen(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600), "r+b")
        except OSError:
            return None  # (a link put there by someone else is not followed)
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            return None
        except OSError:
            pass  # a file system without locks: kept as before, unguarded
        if not self._ours(fh):
            fh.close()
            return None
        self._fh = fh
        try:
            kept = unpack_strict(fh.read(2048), max_size=2048, max_depth=2)
            secrets = SeatSecrets.from_bytes(kept["secrets"]) if kept.get("secrets") else None
            if secrets is not None and save_path(self.path.parent, secrets.game_id).exists():
                secrets = None  # its game's save holds the seat (the program died as it made it): no way past
                # the "played before" refusal for that game, whose save a replayed start would write over
            return kept["nonce"], secrets
        except (ProtocolError, KeyError, TypeError, AttributeError, ValueError, OSError):
            return None  # nothing kept yet, or a write cut short: a new seat

    def _ours(self, fh: Any) -> bool:
        """Whether the file held is the one at the path (not one an earlier run let go of
        between this program's open and its lock), a plain file of this user that nobody
        else can read or write (a secret written to another's file would be theirs)."""
        try:
            held, there = os.fstat(fh.fileno()), os.lstat(self.path)
        except OSError:
            return False
        return ((held.st_dev, held.st_ino) == (there.st_dev, there.st_ino) and stat.S_ISREG(held.st_mode)
                and held.st_uid == os.geteuid() and not held.st_mode & 0o077)

    def keep(self, nonce: bytes, secrets: SeatSecrets | None) -> None:
        """(A disk that refuses it costs only the way back to the seat: the game goes on.)"""
        if self._fh is not None:
            with contextlib.suppress(OSError):
                self._fh.seek(0)
                self._fh.truncate()
                self._fh.write(pack({"nonce": nonce, "secrets": secrets.to_bytes() if secrets is not None else b""}))
                self._fh.flush()
                os.fsync(self._fh.fileno())

    def let_go(self) -> None:
        """The seat is in its game's save: the file goes."""
        if self._fh is not None:
            with contextlib.suppress(OSError):
                self.path.unlink(missing_ok=True)
            self.close()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


class DamagedSave(ValueError):
    """A save whose journal, header or secrets do not make a game to carry on."""


def in_use(path: Path) -> Words:
    return Words("{path} is being played by another ankh program now: carry it on there, or end that one first",
                 path=str(path))


def write_private(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
