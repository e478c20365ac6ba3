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

Votes are counted by **voice**: the seats one program runs (the host and
the bots it seats) are one voice, as the roster's signed ``Charter`` says.
The table ends once more than half of the voices still there signed the same
vote, and never on one voice alone when the table began with three voices or
more (:func:`needed`); a table reduced to one voice stops without a verdict.
The votes are kept with the log (the journal's last record, the transcript's
``end``), and every seat, spectator and ``ankh verify`` check them alike:
signatures, one vote per seat, no vote from a departed voice, the same step,
hash and departed seats in each, that step and hash the log's last, the
departed seats among those the game was waiting for, and enough voices.

A seat signs a vote only on what it saw itself (:class:`Silence`): the
seats it names are ones its own log waits for, and it heard nothing from
them by its own clock for the longer of the table's gone-wait and move
clock (:func:`own_wait`), whatever the host says of how long they have been
gone or of their links.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ankh.core.game import COLOURS

from ..wire.envelope import MAX_SEATS, Envelope, open_frame, seal
from ..wire.errors import RemoteProtocolError, Words
from ..wire.schema import Bin, Int, List, Map
from ..files.secrets import SeatSecrets
from ..files.transcript import MAX_OPS, Roster

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


MIN_VOICES = 2  # no fewer voices end a table that began with three or more


def left(voices: Sequence[int], gone: Iterable[int]) -> set[int]:
    """The voices still there (``voices``: who speaks for each seat) when ``gone`` left."""
    away = {voices[s] for s in gone}
    return set(voices) - away


def needed(voices: Sequence[int], gone: Iterable[int]) -> int:
    """How many voices must agree to end the table without ``gone``: more than
    half of the voices still there, and two at least at a table that began with
    three voices or more (one voice alone never ends it: it cannot show that the
    others left, and could name them all).  More than :func:`left` holds when
    nobody can end the table so."""
    need = len(left(voices, gone)) // 2 + 1
    return max(need, MIN_VOICES) if len(set(voices)) >= 3 else need


def can_end(voices: Sequence[int], gone: Iterable[int]) -> bool:
    """Can the voices still there end the table without ``gone`` at all?"""
    gone = tuple(gone)
    return needed(voices, gone) <= len(left(voices, gone))


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
                waited: Iterable[int] | None = None, bots: Iterable[int] = ()) -> Ending:
    """The ending the ``votes`` make, checked against the log as this seat has it
    (``step``, ``basis``; ``waited``: the seats the game waits for, when known),
    counted by voice (the roster's; for a table without them, the host's ``bots``
    speak with it).  Raises RemoteProtocolError naming what is wrong (and the
    voter, where one is)."""
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
    voices = roster.voices(bots)
    still = left(voices, stop.gone)
    for seat in voters:
        if voices[seat] not in still:
            raise RemoteProtocolError("voted to end the table for a voice the votes say left (the program "
                                      "that runs this seat runs a seat named as gone)", seat=seat,
                                      who=roster.who(seat))
    agreed, need = len({voices[s] for s in voters}), needed(voices, stop.gone)
    if need > len(still):
        raise RemoteProtocolError(f"one voice alone cannot end a table of {len(set(voices))} voices "
                                  "(a table reduced to one voice stops without a verdict)")
    if agreed < need:
        raise RemoteProtocolError(f"{agreed} voices voted to end the table; it takes {need} of the "
                                  f"{len(still)} voices left (a program and the bots it runs are one voice)")
    order = sorted(range(len(voters)), key=lambda i: voters[i])
    return Ending(stop, tuple(voters[i] for i in order), tuple(kept[i] for i in order))


# The table's clocks (``transcript.GONE_AFTER``, ``MOVE_CLOCK`` by default) are in
# the ``start`` every seat checks before the deal (``gone``, ``clock``) and in the
# roster's hash (its ``Charter``): nobody can shorten them later.  SLACK: how far
# two clocks of the table may disagree (the host counts from when its log waits,
# a seat from when its own does).
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


class Silence:
    """A seat's own count of how long it has heard nothing from each seat its
    own log waits for: what it signs a vote naming a seat gone on, never the
    host's word of how long that seat has been gone (the host, which relays
    everything, could say 65 s after half a second).  It counts from the later
    of the last frame it took from that seat and the moment its own log began
    to wait for it at the step under way.  Times come from the caller."""

    def __init__(self, now: float) -> None:
        self.since = now  # heard from nobody yet: counted from here (a seat that starts again knows no more)
        self.heard: dict[int, float] = {}
        self.waits: dict[int, tuple[int, float]] = {}  # seat -> (step, since when our log waits for it there)

    def heard_from(self, seat: int, now: float) -> None:
        """A frame signed by ``seat`` reached this seat and was taken."""
        self.heard[seat] = now

    def tick(self, now: float, step: int, waiting: Iterable[int]) -> None:
        """Where this seat's own log stands: at ``step``, waiting for ``waiting``."""
        waiting = set(waiting)
        for s in list(self.waits):
            if s not in waiting or self.waits[s][0] != step:
                del self.waits[s]
        for s in waiting:
            self.waits.setdefault(s, (step, now))

    def silent(self, seat: int, now: float) -> float:
        """How long our own log has waited for ``seat`` with no word from it (0: it does not wait)."""
        if seat not in self.waits:
            return 0.0
        return now - max(self.heard.get(seat, self.since), self.since, self.waits[seat][1])

    def ready(self, stop: Stop, now: float, wait: float) -> bool:
        """May this seat sign ``stop``?  Its own log waits at ``stop.step`` for every
        seat it names, and heard nothing from any of them for ``wait`` seconds."""
        return all(self.waits.get(s, (None, 0.0))[0] == stop.step and self.silent(s, now) >= wait
                   for s in stop.gone)


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

    def __init__(self, roster: Roster, *, gone_after: float, move_clock: float, bots: Iterable[int] = ()):
        self.roster = roster
        self.gone_after = gone_after
        self.move_clock = move_clock
        self.voices = roster.voices(bots)
        # Every other voice is away past its wait, and one voice alone does not end
        # a table of three or more: no offer, the table stops without a verdict.
        self.alone = False
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
        # Alone: a table that began with three voices or more, and every voice but
        # this one away past its wait (late, or its link down that long while the
        # game waits for another): no vote can end it.
        down = {s for s, t in gone_since.items() if now - t >= self.gone_after}
        present = set(self.voices) - {self.voices[s] for s in (*late, *down)}
        self.alone = bool(late) and len(set(self.voices)) >= 3 and len(present) <= 1
        if self.alone or (offer is not None and not can_end(self.voices, late)):
            offer = None
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
        """How many voices must agree (the ``need`` the seats are told)."""
        return needed(self.voices, self.offer.gone) if self.offer is not None else 0

    def agreed(self) -> bool:
        return self.offer is not None and len({self.voices[s] for s in self.votes}) >= self.need


@dataclass(frozen=True)
class News:
    """What the host tells every seat each second while the game waits for a
    seat that is away: who, for how long, and the offer with who agreed (one
    seat per voice: the host for its bots) and how many voices it needs."""

    away: tuple[Away, ...]
    offer: Stop | None = None
    agreed: tuple[int, ...] = ()
    need: int = 0

    @classmethod
    def of(cls, patience: Patience) -> News:
        voices = {patience.voices[s]: s for s in sorted(patience.votes, reverse=True)}  # one seat per voice
        return cls(tuple(patience.shown()), patience.offer, tuple(sorted(voices.values())), patience.need)

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


def own_wait(news: News, gone_after: float, move_clock: float) -> float:
    """How long a seat's own :class:`Silence` must have lasted before it signs
    the offer in ``news``: the longer of the table's gone-wait and its move
    clock, whatever the host says of the named seats' links.  A seat sees the
    others only through the host, so it cannot tell a seat whose link is down
    from one connected and thinking: taking the host's word that a link is
    down would let it turn a thinking person's move clock into the gone-wait.
    (The host's offer still comes after the gone-wait; the votes then come
    once each voter's own silence has lasted this long.)"""
    assert news.offer is not None
    return max(gone_after, move_clock)
