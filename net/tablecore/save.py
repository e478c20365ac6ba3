"""What carrying on a networked game's save needs from its journal's header
(sans-I/O: the files are read and written by :mod:`ankh.net.io.node`)."""
from __future__ import annotations

from typing import Any

from ..lobby import Start
from ..transcript import Roster


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
