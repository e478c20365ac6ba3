"""A networked game's log as it is written, step by step (sans-I/O encoding).

A journal is a header followed by one record per completed step (the step's
signed frames), each a canonical msgpack object appended as the game goes, so
saving costs one small write per step.  A crash can cut the last record
short: reading stops at the last whole record (and a seat carrying on cuts
the file there before it appends again), and the seat re-runs the step
it was in (its own messages are derived from its secrets and the log, so
they come out the same).  A game stopped before its end has one more
record, the last (:func:`ending`): what stopped it (a cheat's evidence,
the seats that forfeit, or the votes of the seats that ended the table
after one left) and the unfinished step's frames.  A joined seat that keeps
its own wait at the audit after the host ended the table there writes notes
before it (:func:`wait_note`): what the host said, the seconds of that wait
left, and what the seat had heard; the last one lets the seat started again
go on with that wait (:func:`read` gives it as the info's ``own_wait``).  A
journal converts to a :class:`Transcript` for ``ankh verify``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from ..wire.envelope import MAX_FRAME, pack
from ..wire.errors import RemoteProtocolError
from .transcript import DEFAULT_KIND, ENDING, MAX_OPS, Roster, Transcript, charter_of, read_stream

MAGIC = "ankh-journal"
_PREFIX = pack(MAGIC)  # the file's first bytes, so that it is told from a transcript at a glance


GAME_FILE = "game.ankh"        # a networked game's save folder: its finished game's transcript,
JOURNAL_FILE = "journal.ankh"  # and its journal, written step by step while it is played


def save_file(path: Path) -> Path:
    """The file to read for ``path``: itself, or for a save's folder its finished
    game (``game.ankh``), else its journal so far."""
    if path.is_dir():
        return path / GAME_FILE if (path / GAME_FILE).exists() else path / JOURNAL_FILE
    return path


def unfinished_seat(saves: Path, host_fp: str) -> Path | None:
    """The save folder of the newest game not over that this player joined at the
    table of the host whose key has fingerprint ``host_fp``: ``ankh join`` run
    again after the program died, turned away because the table is full, goes
    back to that seat.  A save is known by the host's key, which the handshake
    proves, not by the address the first join used (a host has several, and
    the join list may have used another).  Asked only when turned away: a save
    left from an older table of the same host must not keep anyone from a new one."""
    found = []
    for path in saves.glob(f"net-*/{JOURNAL_FILE}"):
        if (path.parent / GAME_FILE).exists():
            continue  # finished
        try:
            transcript, info = read(path.read_bytes())
            if info.get("role") == "join" and transcript.roster.fingerprint(0) == host_fp:
                found.append((path.stat().st_mtime, path.parent))
        except (OSError, ValueError, TypeError, IndexError, RemoteProtocolError):
            continue  # damaged or unreadable: not one to carry on
    return max(found)[1] if found else None


def kind_of(fh: BinaryIO) -> str | None:
    """``"journal"``, ``"transcript"`` (its header reads as one), or None: no
    networked game's file at all.  Reads the start of ``fh`` and puts it back."""
    try:
        if is_journal(fh.read(len(_PREFIX))):
            return "journal"
        fh.seek(0)
        read_stream(fh)
        return "transcript"
    except RemoteProtocolError:
        return None
    finally:
        fh.seek(0)


def cut_short(data: bytes) -> int:
    """How many bytes at the end of a journal are a last record cut short (a
    crash while it was written): 0 for a whole journal."""
    try:
        return len(data) - whole_length(data)
    except RemoteProtocolError:
        return 0


def header(roster: Roster, info: dict[str, Any]) -> bytes:
    """The journal's first record: the roster and what the seat needs to carry on
    (``info``: its role, the host's address, the table's settings...)."""
    head = {"magic": MAGIC, "v": 1, "game": roster.game_id, "names": list(roster.names),
            "keys": list(roster.keys), "ids": list(roster.identities), "certs": list(roster.certs),
            "info": info}
    if roster.kind != DEFAULT_KIND:
        head["kind"] = roster.kind
    if roster.charter is not None:
        head["charter"] = roster.charter.wire()
    return _PREFIX + pack(head)


def step(frames: list[bytes]) -> bytes:
    return pack(list(frames))


def ending(*, blame: list[bytes] = (), pending: list[bytes] = (), forfeit: list[int] = (),
           end: list[bytes] = ()) -> bytes:
    """The journal's last record when the game stops before its end, the same
    fields a transcript's header carries (:data:`ankh.net.files.transcript.ENDING`):
    the evidence a seat handed on (``blame``: the cheater's signed frames),
    the frames of the step left unfinished (``pending``), the seats that
    forfeit by withholding their audit disclosure (``forfeit``), and the
    signed votes of the seats that ended the table after a seat left
    (``end``: ``ankh.net.play.leave``)."""
    record: dict[str, Any] = {}
    for key, value in (("blame", blame), ("end", end), ("forfeit", forfeit), ("pending", pending)):
        if value:
            record[key] = list(value)
    return pack(record)


WAIT = "wait"  # a note of the own wait at the audit (its only key)
NOTE_FIELDS = {"why": str, "left": (int, float), "mine": list, "disclosed": list, "points": list, "pending": list}


def wait_note(*, why: str, left: float, mine: tuple[str, int] | None, disclosed: list[int],
              points: list[tuple[int, str, int]], pending: list[bytes]) -> bytes:
    """A note of this seat's own wait at the audit (``JoinTable``): the host ended the
    table there saying ``why``; at most ``left`` seconds of the wait remain, by the
    seat's own clock (a length, which a program started again can count on, where
    a moment of its clock means nothing to it); where its own watch point is (``mine``:
    host and port, where the others link to it again once it is started again), the
    seats whose disclosure came on a direct link (``disclosed``), where the
    others' watch points are (``points``: seat, host, port), and the frames of the
    audit its log took (``pending``: the step is unfinished, so no record holds them)."""
    return pack({WAIT: {"why": why[:200], "left": float(max(0.0, left)), "mine": list(mine or ()),
                        "disclosed": sorted(disclosed), "points": [list(p) for p in points],
                        "pending": list(pending)}})


def is_wait_note(record: Any) -> bool:
    """Is ``record`` a well-formed note of the own wait (see :func:`wait_note`)?"""
    if type(record) is not dict or set(record) != {WAIT} or type(record[WAIT]) is not dict:
        return False
    note = record[WAIT]
    if set(note) != set(NOTE_FIELDS) or not all(isinstance(note[k], t) and type(note[k]) is not bool
                                                for k, t in NOTE_FIELDS.items()):
        return False
    seats, mine = note["disclosed"], note["mine"]
    if mine and not (len(mine) == 2 and type(mine[0]) is str and len(mine[0]) <= 255 and type(mine[1]) is int and 0 < mine[1] < 65536):
        return False
    return (0.0 <= note["left"] < 1e9 and len(seats) <= 256 and all(type(s) is int and 0 <= s < 256 for s in seats)
            and len(note["points"]) <= 256 and all(type(f) is bytes for f in note["pending"])
            and all(type(p) is list and len(p) == 3 and type(p[0]) is int and 0 <= p[0] < 256 and type(p[1]) is str
                    and type(p[2]) is int and 0 < p[2] < 65536 for p in note["points"]))


def is_journal(data: bytes) -> bool:
    """Does ``data`` (the start of a file will do) begin like a journal?"""
    return data.startswith(_PREFIX)


def read(data: bytes) -> tuple[Transcript, dict[str, Any]]:
    """The transcript of the whole steps in a journal, and its header's info, with
    the journal's last note of the own wait as ``own_wait`` (:func:`wait_note`)
    when it holds one.  Raises RemoteProtocolError for anything but a cut-short
    last record."""
    head, records = _parse(data)
    try:
        roster = Roster(head["game"], tuple(head["names"]), tuple(head["keys"]), tuple(head.get("ids", ())),
                        tuple(head.get("certs", ())), head.get("kind", DEFAULT_KIND), charter_of(head))
    except Exception as exc:  # a malformed roster, whatever its shape
        raise RemoteProtocolError(f"malformed journal header: {exc}") from None
    info = dict(head["info"]) if isinstance(head.get("info"), dict) else {}
    info.pop("own_wait", None)  # (only a note says so)
    ops = [record for record, _end in records if type(record) is list]
    last = next((record for record, _end in records if type(record) is dict and WAIT not in record), {})
    notes = [record[WAIT] for record, _end in records if type(record) is dict and WAIT in record]
    if notes:
        info["own_wait"] = notes[-1]
    return Transcript(roster, ops, list(last.get("pending", ())), blame=list(last.get("blame", ())),
                      forfeit=list(last.get("forfeit", ())), end=list(last.get("end", ()))), info


def whole_length(data: bytes) -> int:
    """How many of ``data``'s bytes hold whole records: a seat carrying on
    after a crash cuts its journal there before appending, so that a record
    cut short is not followed by the next one."""
    head_end, records = _parse(data, with_head_end=True)
    return records[-1][1] if records else head_end


def _parse(data: bytes, with_head_end: bool = False):
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=len(data) + 1, max_bin_len=MAX_FRAME,
                                max_str_len=4096, max_array_len=MAX_OPS, max_map_len=64)
    if not is_journal(data):
        raise RemoteProtocolError("not an ankh journal")
    unpacker.feed(data[len(_PREFIX):])
    try:
        head = next(unpacker)
    except (StopIteration, ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        raise RemoteProtocolError("not an ankh journal") from None
    if type(head) is not dict or head.get("magic") != MAGIC or head.get("v") != 1:
        raise RemoteProtocolError("not an ankh journal (version 1)")
    head_end = len(_PREFIX) + unpacker.tell()
    records: list[tuple[list[bytes], int]] = []  # each whole record, and where it ends in ``data``
    ended = False
    while True:
        try:
            record = next(unpacker)
        except StopIteration:
            break  # the end, or a last record cut short by a crash
        except (ValueError, msgpack.FormatError, msgpack.StackError):
            raise RemoteProtocolError(f"journal record {len(records)} is damaged") from None
        if ended:
            raise RemoteProtocolError(f"journal record {len(records)}: "
                                      + ("a second ending" if ending_record(record) else "follows the game's ending"))
        if ending_record(record):
            ended = True
        elif not is_wait_note(record) and (type(record) is not list or not record
                                           or any(type(f) is not bytes for f in record)):
            raise RemoteProtocolError(f"journal record {len(records)} is malformed")
        records.append((record, len(_PREFIX) + unpacker.tell()))
    return (head_end if with_head_end else head), records


def ending_record(record: Any) -> bool:
    """Is ``record`` a well-formed ending (see :func:`ending`)?"""
    if type(record) is not dict or not record or not set(record) <= set(ENDING):
        return False
    frames = [*record.get("blame", ()), *record.get("end", ()), *record.get("pending", ())]
    return (all(type(record.get(k, [])) is list for k in record) and len(record.get("blame", ())) <= 2
            and all(type(f) is bytes for f in frames)
            and all(type(s) is int and 0 <= s < 256 for s in record.get("forfeit", ())))
