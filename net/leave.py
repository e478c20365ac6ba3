"""Ending a table that a seat left for good, by the agreement of the seats
still there (sans-I/O).

Nobody can play a departed seat: its secret cards stay locked under its keys.
So when a seat is gone (its link down) or stays connected but sends nothing
the game waits for (a hung or hostile program), the seats still there may end
the table.  Each one that agrees signs a **vote**: the step where the game
stopped, the log hash there (``basis``: the hash of every step before it) and
the seats that left.  A vote is signed with the seat's game key under its own
context (``ankh/v1/end/`` + game id), so it can never pass for a message of
the game, and it takes no sequence number.

The table ends once a majority of the seats still there (more than half of
them) signed the same vote; the votes are kept with the log (the journal's
last record, the transcript's ``end``), and every seat and ``ankh verify``
check them: signatures, one vote per seat, no vote from a departed seat, the
same step, hash and departed seats in each, that step and hash the log's
last, and the departed seats among those the game was waiting for.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ankh.core.game import COLOURS

from .envelope import MAX_SEATS, Envelope, open_frame, seal
from .errors import RemoteProtocolError, Words
from .schema import Bin, Int, List, Map
from .secrets import SeatSecrets
from .transcript import MAX_OPS, Roster

END = b"ankh/v1/end/"  # the signing context of a vote to end the table
KIND = "end"
VOTE_BODY = Map({"step": Int(0, MAX_OPS), "basis": Bin(32),
                 "gone": List(Int(0, MAX_SEATS - 1), MAX_SEATS - 1, min_len=1)})


@dataclass(frozen=True)
class Stop:
    """Where the game stopped and who left: what every vote signs."""

    step: int
    basis: bytes
    gone: tuple[int, ...]

    def body(self) -> dict:
        return {"step": self.step, "basis": self.basis, "gone": list(self.gone)}


def needed(seats: int, gone: Sequence[int]) -> int:
    """How many votes end the table: more than half of the seats still there."""
    return (seats - len(gone)) // 2 + 1


def vote(secrets: SeatSecrets, stop: Stop) -> bytes:
    """This seat's signed agreement to end the table where ``stop`` says."""
    if secrets.seat in stop.gone:
        raise ValueError("a departed seat does not vote")
    return seal(secrets.identity, secrets.seat, secrets.game_id, 0, KIND, stop.body(), label=END)


def open_vote(roster: Roster, frame: bytes) -> tuple[int, Stop]:
    """The voter and what it signed.  Raises RemoteProtocolError."""
    env: Envelope = open_frame(frame, game_id=roster.game_id, keys=roster.keyring(), kinds={KIND: VOTE_BODY},
                               label=END)
    b = env.body
    gone = tuple(b["gone"])
    if list(gone) != sorted(set(gone)) or gone[-1] >= roster.size:
        raise RemoteProtocolError("a vote to end names departed seats out of order or twice, or no such seat",
                                  seat=env.sender, who=roster.who(env.sender))
    if env.sender in gone:
        raise RemoteProtocolError("a departed seat cannot vote to end the table", seat=env.sender,
                                  who=roster.who(env.sender))
    return env.sender, Stop(b["step"], b["basis"], gone)


@dataclass(frozen=True)
class Ending:
    """A table ended by agreement: where it stopped, who left, who agreed."""

    stop: Stop
    voters: tuple[int, ...]
    votes: tuple[bytes, ...]


def check_votes(roster: Roster, votes: Iterable[bytes], *, step: int, basis: bytes,
                waited: Iterable[int] | None = None) -> Ending:
    """The ending the ``votes`` make, checked against the log as this seat has it
    (``step``, ``basis``; ``waited``: the seats the game waits for, when known).
    Raises RemoteProtocolError naming what is wrong (and the voter, where one is)."""
    stop: Stop | None = None
    voters: list[int] = []
    kept: list[bytes] = []
    for frame in votes:
        seat, s = open_vote(roster, frame)
        if stop is None:
            stop = s
        elif s != stop:
            raise RemoteProtocolError("votes to end the table disagree on where it stopped or who left",
                                      seat=seat, who=roster.who(seat))
        if seat in voters:
            raise RemoteProtocolError("voted twice to end the table", seat=seat, who=roster.who(seat))
        voters.append(seat)
        kept.append(frame)
    if stop is None:
        raise RemoteProtocolError("an ending with no vote")
    if (stop.step, stop.basis) != (step, basis):
        raise RemoteProtocolError(f"the votes end the table at step {stop.step}, but the log stops at step {step}")
    if waited is not None and not set(stop.gone) <= set(waited):
        raise RemoteProtocolError("the votes name as departed a seat the game was not waiting for")
    if len(voters) < needed(roster.size, stop.gone):
        raise RemoteProtocolError(f"{len(voters)} votes to end the table; it takes "
                                  f"{needed(roster.size, stop.gone)} of the {roster.size - len(stop.gone)} seats left")
    order = sorted(range(len(voters)), key=lambda i: voters[i])
    return Ending(stop, tuple(voters[i] for i in order), tuple(kept[i] for i in order))


def check_agreement(roster: Roster, votes: Iterable[bytes], *, step: int, basis: bytes,
                    waited: Iterable[int] | None, bots: Iterable[int]) -> Ending:
    """:func:`check_votes`, and more than half of the people still there among
    the voters (the host's ``bots`` are its one voice): how a seat or a
    spectator takes an ending the host sends it."""
    ending = check_votes(roster, votes, step=step, basis=basis, waited=waited)
    if not people_agreed(ending, roster.size, bots):
        raise RemoteProtocolError("the host's bots voted, but not enough of the people still there")
    return ending


def people_agreed(ending: Ending, seats: int, bots: Iterable[int]) -> bool:
    """Did more than half of the people still there agree?  The host (seat 0)
    speaks for the bots it seats: their votes are its own, not more voices (a
    host with bots could otherwise outvote every person at the table)."""
    bots = set(bots) - {0}
    people = [s for s in range(seats) if s not in ending.stop.gone and s not in bots]
    return sum(1 for s in ending.voters if s in people) >= len(people) // 2 + 1


GONE_AFTER = 60  # seconds a seat the game waits for is gone before the others may end the table
MOVE_CLOCK = 300  # seconds a connected seat may keep the game waiting before the same
# Both are the table's, in the ``start`` every seat checks before the deal
# (``gone``, ``clock``) and keeps in its save: the host cannot shorten them
# for one seat later.  SLACK: how far two clocks of the table may disagree
# (the host counts from when its log waits, a seat from when its own does).
SLACK = 5.0


class OwnClock:
    """A seat's own count of how long the game has waited for it, and of how
    long its link to the host was down meanwhile: what it checks an ending
    that names it as gone against (the host's count is the host's word).
    Times come from the caller (no clock here)."""

    def __init__(self) -> None:
        self.step: int | None = None  # the step at which the game waits for this seat (None: it does not)
        self.since = 0.0
        self.down_since: float | None = None  # the link is down since then
        self.down = 0.0  # the longest the link was down while the game waited for this seat

    def tick(self, now: float, step: int, waited: bool) -> None:
        """Where this seat's own log stands: the game waits for it at ``step`` or not."""
        if not waited:
            self.step = None
        elif step != self.step:
            self.step, self.since, self.down = step, now, 0.0

    def link(self, now: float, up: bool, since: float | None = None) -> None:
        """The link went down (``since`` then, or now) or came back."""
        if not up:
            self.down_since = now if since is None else since
        elif self.down_since is not None:
            if self.step is not None:
                self.down = max(self.down, now - max(self.down_since, self.since))
            self.down_since = None

    def contradicts(self, now: float, stop: Stop, gone_after: float, move_clock: float) -> str | None:
        """Why this seat does not accept that it left at ``stop`` (None: its clock agrees)."""
        if self.step is None or self.step != stop.step:
            return "the game was not waiting for this seat there"
        waited = now - self.since
        down = self.down if self.down_since is None else max(self.down, now - max(self.down_since, self.since))
        if waited + SLACK < move_clock and down + SLACK < gone_after:
            return (f"the game had waited {waited:.0f} s for this seat, connected (the table's move clock is "
                    f"{move_clock:g} s, and a link must be down {gone_after:g} s)")
        return None


@dataclass(frozen=True)
class Away:
    """A seat the game waits for that is gone (``link`` False) or connected and silent, for ``secs``."""

    seat: int
    secs: float
    link: bool


class Patience:
    """The host's count of whom the game waits for and for how long, and the
    offer to end the table once a seat was gone ``gone_after`` seconds (or
    kept the game waiting ``move_clock`` seconds while connected), with the
    votes for it.  Times come from the caller (no clock here)."""

    def __init__(self, roster: Roster, *, gone_after: float, move_clock: float):
        self.roster = roster
        self.gone_after = gone_after
        self.move_clock = move_clock
        self.stuck: dict[int, tuple[int, float]] = {}  # seat -> (step, since when the game waits for it there)
        self.away: list[Away] = []
        self.offer: Stop | None = None
        self.votes: dict[int, bytes] = {}

    def tick(self, now: float, step: int, basis: bytes, waiting: Iterable[int],
             gone_since: dict[int, float], local: Iterable[int]) -> bool:
        """Who is away now; True when the offer changed (made, withdrawn, or
        made anew for other seats or another step: its votes start again)."""
        waiting = [s for s in waiting if s not in set(local)]
        for s in list(self.stuck):
            if s not in waiting or self.stuck[s][0] != step:
                del self.stuck[s]
        for s in waiting:
            self.stuck.setdefault(s, (step, now))
        self.away = [Away(s, now - gone_since[s], False) if s in gone_since else Away(s, now - self.stuck[s][1], True)
                     for s in sorted(waiting)]
        late = tuple(a.seat for a in self.away
                     if a.secs >= (self.move_clock if a.link else self.gone_after))
        offer = Stop(step, basis, late) if late and len(late) < self.roster.size else None
        if offer == self.offer:
            return False
        self.offer, self.votes = offer, {}
        return True

    def shown(self) -> list[Away]:
        """The seats worth telling the table about: gone, or silent past half the move clock."""
        return [a for a in self.away if not a.link or a.secs >= self.move_clock / 2]

    def add(self, frame: bytes, seat: int | None = None) -> bool:
        """A vote for the offer (from ``seat``, when the link says whose it must
        be).  False (nothing kept) for a vote for anything else."""
        if self.offer is None:
            return False
        try:
            voter, stop = open_vote(self.roster, frame)
        except RemoteProtocolError:
            return False
        if stop != self.offer or (seat is not None and voter != seat):
            return False
        self.votes[voter] = frame
        return True

    @property
    def need(self) -> int:
        return needed(self.roster.size, self.offer.gone) if self.offer is not None else 0

    def agreed(self) -> bool:
        return self.offer is not None and len(self.votes) >= self.need


@dataclass(frozen=True)
class News:
    """What the host tells every seat each second while the game waits for a
    seat that is away: who, for how long, and the offer with who agreed."""

    away: tuple[Away, ...]
    offer: Stop | None = None
    agreed: tuple[int, ...] = ()
    need: int = 0

    @classmethod
    def of(cls, patience: Patience) -> News:
        return cls(tuple(patience.shown()), patience.offer, tuple(sorted(patience.votes)), patience.need)

    def message(self) -> dict:
        msg: dict = {"t": "away", "seats": [{"seat": a.seat, "secs": int(a.secs), "link": int(a.link)}
                                            for a in self.away]}
        if self.offer is not None:
            msg.update(offer=self.offer.body(), agreed=list(self.agreed), need=self.need)
        return msg

    @classmethod
    def from_message(cls, msg: dict) -> News:
        offer = msg.get("offer")
        return cls(tuple(Away(a["seat"], float(a["secs"]), bool(a["link"])) for a in msg["seats"]),
                   Stop(offer["step"], offer["basis"], tuple(offer["gone"])) if offer else None,
                   tuple(msg.get("agreed", ())), msg.get("need", 0))


def describe_ending(ending: Ending, points: Sequence[int]) -> Words:
    """A table the seats still there ended, in the same words on every seat:
    the seats that agreed and whom they say left (their signed word: nothing
    proves a seat would not have come back), and the scores as they stood."""
    words = dict(voters=" and ".join(COLOURS[s] for s in ending.voters),
                 gone=" and ".join(COLOURS[s] for s in ending.stop.gone),
                 scores=", ".join(f"{COLOURS[s]} {v}" for s, v in enumerate(points)))
    if len(ending.voters) == 1:  # a table of two, one gone
        return Words("abandoned: {voters} says {gone} left the game, and ended the table; scores as they stand: "
                     "{scores}", **words)
    return Words("abandoned: {voters} say {gone} left the game, and ended the table; scores as they stand: {scores}",
                 **words)
