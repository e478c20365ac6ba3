"""Errors of the protocol layer, split the way h11 splits them.

``RemoteProtocolError`` means a peer misbehaved (or sent garbage); it carries
the offending seat when that is known.  ``LocalProtocolError`` means we asked
for something impossible: a bug on our side, never the peer's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class Words(str):
    """A sentence for a person, in English, that remembers how it was made.

    ``Words("no word from the peer for {secs:g} s", secs=15)`` *is* the string
    ``"no word from the peer for 15 s"`` wherever a string goes (logs, the
    headless output, the wire), and keeps ``template`` and ``params`` so that
    a screen can say it in its player's language (``ankh.tui.i18n.translated``).  The
    templates are gathered into the program's translation catalogue, which is
    why the first argument is always a literal.
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Words:
        self = super().__new__(cls, template.format(**params) if params else template)
        self.template = template
        self.params = params
        return self


class ProtocolError(Exception):
    """Base class; never raised directly."""


class LocalProtocolError(ProtocolError):
    """We misused the protocol (our bug, or a request the state forbids)."""


class RemoteProtocolError(ProtocolError):
    """A peer broke the protocol.

    ``seat`` is the seat held responsible (``None`` when nobody can be named
    yet), ``who`` its display name when known, ``label`` how messages name it
    (name, seat number and key fingerprint: ``Roster.label``), and
    ``evidence`` the signed frames that prove it, so a third party can check
    the accusation.
    """

    label: str | None = None
    alone = False  # proven by what this process alone saw (a hub: the log it sent), not by ``evidence``

    def __init__(
        self,
        message: str,
        *,
        seat: int | None = None,
        who: str | None = None,
        evidence: Sequence[bytes] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.seat = seat
        self.who = who
        self.evidence = tuple(evidence)

    def blamed(self, seat: int | None, who: str | None = None) -> RemoteProtocolError:
        """Fill in the culprit if it is still unknown; returns self."""
        if self.seat is None:
            self.seat = seat
        if self.who is None and self.seat == seat:
            self.who = who
        return self

    def __str__(self) -> str:
        if self.seat is None:
            return self.message
        if self.label is not None:
            return f"{self.label}: {self.message}"
        name = self.who if self.who is not None else f"seat {self.seat}"
        return f"{name} (seat {self.seat}): {self.message}"


class Stalled(RemoteProtocolError):
    """The current step cannot finish: these seats have not sent their part."""

    def __init__(
        self, seats: Sequence[int], names: Sequence[str], what: str, labels: Sequence[str] | None = None
    ) -> None:
        self.seats = tuple(seats)
        self.names = tuple(names)
        if labels is None:
            labels = [f"{n} (seat {s})" for s, n in zip(self.seats, self.names, strict=True)]
        listed = ", ".join(labels)
        super().__init__(
            f"stalled: waiting for {listed} to send their part of {what}",
            seat=self.seats[0] if len(self.seats) == 1 else None,
            who=self.names[0] if len(self.names) == 1 else None,
        )


class Divergence(RemoteProtocolError):
    """A peer's running transcript hash differs from ours.

    Someone told different things to different seats (or a message was lost);
    comparing the seats' logs (``transcript.find_equivocation``) names who.
    ``suspect`` is the seat that signed the differing hash (``evidence`` holds
    its frame): when the logs show no equivocation, that hash is a lie.
    """

    def __init__(self, message: str, *, suspect: int | None = None, evidence: Sequence[bytes] = ()) -> None:
        super().__init__(message, evidence=evidence)
        self.suspect = suspect


class Equivocation(RemoteProtocolError):
    """A seat signed two different messages with the same sequence number."""
