"""What carrying on a networked game's save needs from its journal's header
(sans-I/O: the files are read and written by :mod:`ankh.net.io.driver`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.game import GAMES, get
from ..wire.envelope import HEADER_LEN, unpack_strict
from ..wire.errors import RemoteProtocolError
from ..wire.lobby import Start
from ..files.transcript import DEFAULT_KIND, Roster


def save_path(root: Path, game_id: bytes) -> Path:
    """Where a seat's save of the game ``game_id`` is, in the saves folder ``root``."""
    return root / f"net-{game_id.hex()[:12]}"


def check_header(info: dict[str, Any], roster: Roster) -> None:
    """What carrying on needs from a journal's header, of the right types and
    agreeing with its roster (raises anything on a mismatch: see ``load``)."""
    if info.get("role") not in ("host", "join"):
        raise ValueError("no role")
    if type(info.get("port")) is not int or not 0 <= info["port"] < 65536:
        raise ValueError("no port")
    if not isinstance(info.get("start"), dict) or type(info.get("table", b"")) is not bytes:
        raise ValueError("no table")
    start = Start.of({"t": "start", **info["start"]})
    if start.game_id != roster.game_id or start.names != roster.names or start.identities != roster.identities:
        raise ValueError("the table is not the journal's game")
    if info["role"] == "join" and (type(info.get("host")) is not str or type(info.get("nonce")) is not bytes):
        raise ValueError("no host")
    if info["role"] == "host" and (not isinstance(info.get("bots", []), list)
                                   or not all(type(b) is int and 0 < b < roster.size for b in info.get("bots", []))):
        raise ValueError("bad bots")


def retired_moves(transcript: Any) -> bool:
    """Whether a move of the journal has a shape only an earlier version of its
    game's rules asked for (``Game.retired_move``)."""
    kind = transcript.roster.kind or DEFAULT_KIND
    if kind not in GAMES:
        return False    # (refused as it is read: a game this program does not know)
    game = get(kind)
    for frame in transcript.frames():
        try:
            obj = unpack_strict(frame[HEADER_LEN:])
            move = obj["body"]["move"] if obj["kind"] == "move" else None
        except (RemoteProtocolError, KeyError, TypeError):
            continue    # (what the table checks as it replays the journal)
        if move and game.retired_move(tuple(move)):
            return True
    return False
