"""How a table ended, in the same words on every seat and spectator."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...core.game import COLOURS
from ..wire.errors import ProtocolError, Words
from ..play.leave import Ending
from ..play.peer import AUDIT, describe_outcome


STOPPED = Words("the table ended the game before its end")  # and nothing more is known of why


@dataclass
class Result:
    """How a table ended, in the same words on every seat."""

    text: str
    fair: bool | None = None
    finished: bool = False
    ending: Ending | None = None  # the seats still there ended it (who left, who agreed)
    scores: tuple[int, ...] | None = None  # the scores as they stood then
    forfeit: tuple[int, ...] = ()  # the seats whose withheld audit disclosure this result names
    # It says only where its own log stood when the table ended (whom the game waited for),
    # naming nobody: what it lacks may have been kept back from it, so it reads no verdict there.
    partial: bool = False
    # Its verdict rests on what this process alone saw (the host: the log it sent every seat),
    # which proves nothing elsewhere: the others may say only where their logs stood.
    alone: bool = False
    # The seats its audit still waited for when it said only that (``partial``): the same
    # ending as a forfeit naming them, worded from what this seat saw.
    audit_waited: tuple[int, ...] = ()


def outcome_result(driver: Any) -> Result:
    """A finished game's result, in the same words on every seat and spectator."""
    fair = driver.audit is not None and driver.audit.fair
    outcome = driver.engine.outcome
    text = describe_outcome(outcome, driver.game.id) if outcome is not None else "no result"
    if not fair:
        names = driver.ledger().roster.names
        seats = sorted({s for s, _ in driver.audit.violations if 0 <= s < len(names)}) if driver.audit else []
        culprits = " and ".join(f"{COLOURS[s]} ({names[s]})" for s in seats)
        text += f"; the audit found cheating by {culprits}" if culprits else "; the audit found cheating"
    return Result(text, fair=fair, finished=True)


def forfeit_result(driver: Any, seats: Sequence[int]) -> Result:
    """The game is over but its audit waits for ``seats``: they withheld their disclosure and forfeit."""
    names = driver.ledger().roster.names
    who = " and ".join(f"{COLOURS[s]} ({names[s]})" for s in seats)
    outcome = driver.engine.outcome
    played = describe_outcome(outcome, driver.game.id) if outcome is not None else "no result"
    return Result(Words("forfeit: {who} withheld the audit disclosure at the end of the game ({played}; not audited)",
                        who=who, played=played), fair=False, forfeit=tuple(seats))


def stopped_result(driver: Any, me: int | None, forfeit: bool = False) -> Result:
    """The game ended before its end, for a reason this seat (or spectator) can
    tell from its own log only: the audit still waiting for a seat (which
    forfeits when ``forfeit``: this seat's own log waited long enough for it;
    a host that ends the table sooner, having relayed nobody's disclosure,
    would otherwise make each seat blame the other), or the step it waited
    for when the table ended."""
    waiting = [s for s in driver.waiting_for() if s != me] if hasattr(driver, "waiting_for") else []
    if driver.phase == AUDIT and waiting and forfeit:
        return forfeit_result(driver, waiting)
    if waiting:
        names = " and ".join(COLOURS[s] for s in waiting)
        return Result(Words("the table ended the game while it waited for {names}", names=names), partial=True,
                      audit_waited=tuple(waiting) if driver.phase == AUDIT else ())
    return Result(STOPPED, partial=True)


def aborted(exc: ProtocolError) -> Result:
    """A game stopped by a broken rule, naming the seat at fault."""
    seat = getattr(exc, "seat", None)
    who = getattr(exc, "who", None)
    culprit = f"{COLOURS[seat]} ({who})" if seat is not None and who else "unknown"
    return Result(Words("aborted: {culprit} broke the rules: {why}", culprit=culprit,
                        why=getattr(exc, "message", None) or str(exc)), alone=getattr(exc, "alone", False))
