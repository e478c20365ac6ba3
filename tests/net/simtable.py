"""What the tests of a table on the simulator share (``ankh.net.io.sim.Scene``):
the tiny game made known, ``ankh verify`` run in this process, the exit
status a headless seat would end with, and the events a test waits for."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

from ankh.core.game import get
from ankh.net.files import verify as verifier
from ankh.net.play.events import Away, Decided, Gone, Over, Played, TranscriptSaved, WatchPointOpen
from ankh.net.io import sim
from ankh.net.play.peer import Logged

from tests import tinygame

tinygame.install()
sim.register_game("tiny=tests.tinygame")


def with_thieves(monkeypatch) -> None:
    """The tests' thief bot known to the guild variant (``--bot thief``, as ``tests.guilds.thiefcli``)."""
    guilds = get("guilds")
    monkeypatch.setattr(guilds, "BOTS", {**guilds.BOTS, "thief": ("tests.guilds.thief", "ThiefBot")})


def scene(seed: int, root: Path, kind: str = "tiny", **kw: Any) -> sim.Scene:
    return sim.Scene(seed, root, kind, **kw)


def verify(path: Path | str) -> tuple[int, str]:
    """``ankh verify PATH``: its exit status and what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = verifier.main([str(path)])
    return rc, out.getvalue()


def exit_status(result: Any) -> int:
    """What ``ankh host/join/watch --headless`` exits with after ``result``."""
    return 0 if result.finished and result.fair else 1


def transcript(t: sim.Scene, name: str) -> Path:
    """Where ``name`` said it saved the whole game."""
    (path,) = [e.path for e in t.told[name] if isinstance(e, TranscriptSaved)]
    return path


def said(t: sim.Scene, name: str) -> str:
    """The result ``name`` was told last (its ``result:`` line)."""
    return [e.result.text for e in t.told[name] if isinstance(e, Over)][-1]


def decided(moves: int):
    """This seat decided its ``moves``-th move."""
    count = [0]

    def what(e: Any) -> bool:
        count[0] += isinstance(e, Decided)
        return count[0] >= moves
    return what


def away(seat: int, *, link: bool):
    """The game waits for ``seat``, its link up (``link``) or down."""
    return lambda e: isinstance(e, Away) and any(a.seat == seat and a.link == link for a in e.news.away)


def offered(*gone: int):
    """The table offers to end without ``gone``."""
    return lambda e: isinstance(e, Away) and e.news.offer is not None and tuple(e.news.offer.gone) == gone


def logged(prefix: str):
    """A line of the game's public log that starts with ``prefix`` (``turn 6:``)."""
    return lambda e: isinstance(e, Played) and isinstance(e.event, Logged) and e.event.event.text.startswith(prefix)


def gone(seat: int):
    """The link to ``seat`` dropped (``link to … lost``)."""
    return lambda e: isinstance(e, Gone) and e.seat == seat


async def two_seats_watched_at(t: sim.Scene, point: str) -> tuple[str, int]:
    """A table of two (the host and ``joiner 1``) under way; the address of ``point``'s
    watch point (the host's own port, or the joiner's watch point once it opened)."""
    host = await t.host(seats=2)
    t.join("joiner 1")
    await t.until("host", lambda e: getattr(e, "seat", None) == 1)
    if point == "host":
        return host.bind, host.port
    opened = await t.until(point, lambda e: isinstance(e, WatchPointOpen))
    return opened.host, opened.port
