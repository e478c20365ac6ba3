"""Offline audit of a saved game: ``verify_transcript(path_or_bytes) -> Report``.

The verifier replays every public signed message through the same ledger the
seats used (with no secrets), reading the file one frame at a time:
signatures, sequence numbers, the order of steps, every shuffle proof against
its beacon challenge, every lock proof, every published key and its proof, every dice
reveal against its hash chain, and, if the game reached its end, the audit:
each deck recomputed from the disclosed shuffle secrets and shown to be a
permutation of its printed cards.  Private key deliveries are ciphertext to
the verifier; the seat that received one checked it (and would have stopped
the game with the signed evidence had it been wrong).

A game is fair only once its audit has passed; before that it is incomplete
(exit status 3), however clean the file is so far.  A game that a seat left
for good and the seats still there ended by agreement is **abandoned**
(exit status 4) once their signed votes check out against the log
(``net/play/leave.py``): the report names who left, who ended it, and the scores
as they stood.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ankh.core.game import COLOURS

from ..wire.envelope import SeqTracker, open_frame, peek_signer
from . import journal
from ..wire.errors import Divergence, LocalProtocolError, RemoteProtocolError
from ..play.leave import check_votes, left, needed
from ..play.ledger import BODIES, Ledger
from ..fair.evidence import proven
from ..play.ops import Audit, Move, describe
from ..play.peer import LogReplay, Moved, deck_specs, describe_outcome, game_of, replay, waited_at_stop
from .transcript import MAX_TRANSCRIPT, Roster, read_stream


@dataclass(frozen=True)
class Violation:
    seat: int | None
    name: str | None
    message: str

    label: str | None = None  # name, seat and key fingerprint

    def __str__(self) -> str:
        if self.seat is None:
            return f"unattributed: {self.message}"
        return f"{self.label or f'{self.name} (seat {self.seat})'}: {self.message}"


@dataclass(frozen=True)
class Report:
    """What the verifier found.

    ``status`` is "fair" (every check passed, the end-of-game audit among
    them), "violation" (``violations`` says what and, where the file can
    tell, who), "abandoned" (the seats still there ended the table after a
    seat left: ``ended`` says who say so) or "incomplete" (nothing wrong so far, but the game has no
    passed audit yet: the decks are not shown to be fair; ``waiting`` names
    the seats a step still waits for when the file ends in the middle of one).
    """

    fair: bool
    seats: tuple[str, ...]
    steps: int
    rolls: int
    dealt: int
    revealed: int
    decks: tuple[tuple[str, int], ...]  # (deck, cards) verified as permutations by the audit
    audited: bool
    violations: tuple[Violation, ...]
    waiting: tuple[str, ...] = ()
    rules: str = ""  # what replaying the rules over the log showed ("" when the log is no game of the rules)
    rules_known: bool = True  # False: the log is of a game this program does not know, so its rules went unchecked
    steals: int = 0  # random steals, each proven at its step
    keys: tuple[str, ...] = ()  # each seat's key fingerprint (its identity's), by seat: who really played
    ended: str = ""  # who say who left and ended the table by agreement, the scores as they stood ("": not so)

    def key_lines(self) -> str:
        """One line per seat naming the key that signed for it: a game re-signed
        with other keys shows other fingerprints, whatever names it gives."""
        return "".join(f"  seat {seat}: {name}, key {fp}\n" for seat, (name, fp) in enumerate(zip(self.seats, self.keys)))

    @property
    def status(self) -> str:
        if self.violations:
            return "violation"
        if self.ended:
            return "abandoned"
        return "fair" if self.audited and self.rules_known else "incomplete"

    def summary(self) -> str:
        decks = ", ".join(f"{name} ({size})" for name, size in self.decks) or "none"
        audit = f"decks verified as permutations of the printed cards: {decks}" if self.audited else (
            "no end-of-game audit yet (decks not verified)"
        )
        rules = f"; {self.rules}" if self.rules else ""
        steals = f"{self.steals} random steals proven; " if self.steals else ""
        return (
            f"{len(self.seats)} seats ({', '.join(self.seats)}); {self.steps} steps; {self.rolls} rolls; "
            f"{self.dealt} cards dealt, {self.revealed} revealed; {steals}{audit}{rules}"
        )

    def __str__(self) -> str:
        if self.violations:
            return "\n".join(f"violation: {v}" for v in self.violations)
        if self.ended:
            return f"abandoned: {self.ended}; {self.summary()}"
        if not self.audited or not self.rules_known:
            waiting = "".join(f"; {w}" for w in self.waiting)
            return f"incomplete: {self.summary()}{waiting}"
        return "fair: " + self.summary()


def _unreadable(message: str) -> Report:
    return Report(False, (), 0, 0, 0, 0, (), False, (Violation(None, None, f"unreadable transcript: {message}"),))


def verify_transcript(source: str | os.PathLike[str] | bytes) -> Report:
    """Audit a saved game (a path or the file's bytes), one frame at a time.

    A malformed file is reported as a violation; only an unreadable path
    raises (OSError).  A networked game's journal (saved step by step while
    it is played) is read as the transcript of its whole steps.
    """
    if not isinstance(source, bytes):
        with open(source, "rb") as fh:
            head = fh.read(64)
        if journal.is_journal(head):
            with open(source, "rb") as fh:
                source = fh.read(MAX_TRANSCRIPT + 1)
    if isinstance(source, bytes) and journal.is_journal(source[:64]):
        try:
            source = journal.read(source)[0].to_bytes()
        except RemoteProtocolError as exc:
            return _unreadable(str(exc))
    if isinstance(source, bytes):
        if len(source) > MAX_TRANSCRIPT:
            return _unreadable("larger than a transcript can be")
        return _verify(io.BytesIO(source), lambda: io.BytesIO(source))
    with open(source, "rb") as fh:
        return _verify(fh, lambda: open(source, "rb"))


def _frames(fh: BinaryIO) -> Iterator[bytes]:
    with fh:
        _, stream = read_stream(fh)
        for _, frame in stream:
            yield frame


def _verify(fh: BinaryIO, reopen: Callable[[], BinaryIO]) -> Report:
    ending: dict = {}
    try:
        roster, stream = read_stream(fh, ending)
    except RemoteProtocolError as exc:
        return _unreadable(str(exc))
    ledger = Ledger(roster)
    seqs = SeqTracker(roster.size)
    violations: list[Violation] = []
    waiting: list[str] = []

    def violation(seat: int | None, message: str) -> None:
        label = roster.label(seat) if seat is not None and 0 <= seat < roster.size else None
        violations.append(Violation(seat, roster.who(seat), message, label))

    number = -1
    while True:
        try:
            _, frame = next(stream)
        except StopIteration:
            break
        except RemoteProtocolError as exc:
            violation(None, f"unreadable transcript after message {number}: {exc.message}")
            break
        number += 1
        try:
            env = open_frame(frame, game_id=roster.game_id, keys=ledger.keyring, kinds=BODIES)
        except RemoteProtocolError as exc:
            if exc.seat is None:
                signer = peek_signer(frame)
                violation(None, f"message {number} (claiming seat {signer}) is not authentic: {exc.message}")
            else:
                violation(exc.seat, f"message {number}: {exc.message}")
            break
        try:
            seqs.check(env.sender, env.seq)
        except RemoteProtocolError as exc:
            # Authentic messages in the wrong order: the file was damaged or
            # rearranged after the fact (a live seat would have refused them).
            violation(None, f"message {number} is out of place: {exc.message}")
            break
        seqs.advance(env.sender)
        try:
            ledger.follow(env)
        except Divergence:
            # A file handed in can hold one of two different messages a seat
            # signed for the same slot; the next sender's hash then disagrees
            # with the file, and the file alone cannot say which seat lied.
            earlier = sorted({f[0] for f in (ledger.log[-1][1] if ledger.log else [])} - {env.sender})
            others = ", ".join(roster.label(s) for s in earlier) or "nobody else"
            violation(
                None,
                f"message {number}: {roster.label(env.sender)} signed a log hash that differs from this "
                f"file's history at step {ledger.index}: either it signed a wrong hash, or a message of the step "
                f"before is not the one it accepted (its signer told different stories: {others})",
            )
            break
        except RemoteProtocolError as exc:
            violation(exc.seat if exc.seat is not None else env.sender, f"message {number}: {exc.message}")
            break
        if ledger.op is None:
            del ledger.log[:-1]  # the hashes carry the history; the verifier keeps only the last step
    if not violations and ledger.op is not None and not ending.get("end"):
        names = ", ".join(roster.label(s) for s in ledger.pending())
        waiting.append(f"step {ledger.index} ({describe(ledger.op)}) waits for {names}")
    for anomaly in ledger.anomalies:
        violation(anomaly.seat, anomaly.message)
    rules, r = "", None
    if not violations:
        rules, r = _replay_rules(roster, _frames(reopen()), ledger, violation)
    ended = _ending(roster, ending, ledger, r, lambda: _frames(reopen()), violation) if not violations else ""
    audited = ledger.audit is not None
    if ledger.audit is not None:
        for seat, message in ledger.audit.violations:
            violation(seat if seat >= 0 else None, message)
    deck_sizes = {name: d.size for name, d in ledger.decks.items()}
    verified = tuple((name, deck_sizes[name]) for name in (ledger.audit.decks if ledger.audit else ()))
    return Report(
        fair=audited and not violations,
        seats=roster.names,
        steps=ledger.index,
        rolls=ledger.rolls,
        dealt=ledger.dealt,
        revealed=ledger.revealed,
        decks=verified,
        audited=audited,
        violations=tuple(violations),
        waiting=tuple(waiting),
        rules=rules,
        ended=ended,
        rules_known=not rules.startswith(RULES_UNKNOWN),
        steals=sum(hand.steals for hand in ledger.hands.values()),
        keys=tuple(roster.fingerprint(s) for s in range(roster.size)),
    )


RULES_UNKNOWN = "rules not replayed: "


def _replay_rules(roster: Roster, frames: Iterable[bytes], ledger: Ledger, violation) -> tuple[str, LogReplay | None]:
    """Replay the rules of the game over the log (a second reading of the file):
    every move must be legal and every step the one the rules ask for.
    Returns what it showed, and the replay (None when the log is no game of the rules)."""
    try:
        game = game_of(roster.kind)
    except RemoteProtocolError as exc:
        return f"{RULES_UNKNOWN}{exc.message}", None
    specs = deck_specs(ledger.n, roster.kind) if ledger.n in game.seats else []
    if [d.spec for d in ledger.decks.values()][:len(specs)] != specs or not specs \
            or not any(isinstance(op, Move) for op in ledger.history):
        return "", None  # a log of the protocol alone (no moves), not of a game of the rules
    try:
        r = replay(roster, frames)
    except RemoteProtocolError as exc:
        violation(exc.seat, exc.message)
        return "", None
    except LocalProtocolError as exc:
        violation(None, f"the log does not follow the rules: {exc}")
        return "", None
    if r.cheat is not None:  # a lie about a hidden card, found with every card known after the audit
        violation(r.cheat.seat, r.cheat.message)
        return "", r
    moves = sum(1 for e in r.history if isinstance(e, Moved))
    o = r.engine.outcome
    if o is None:
        return f"rules replayed: {moves} moves, the game is not over", r
    return f"rules replayed: {moves} moves, {describe_outcome(o, roster.kind)}", r


def _ending(roster: Roster, ending: dict, ledger: Ledger, r: LogReplay | None,
            frames: Callable[[], Iterator[bytes]], violation) -> str:
    """How the game stopped before its end (the journal's last record, the
    transcript's optional header fields: ``transcript.ENDING``), checked against
    this file: the evidence a seat handed on, the seats that withheld their
    audit disclosure, or the votes that ended the table after a seat left.
    Returns what the votes say ("" for none), and reports each violation."""
    if ending.get("blame"):
        _judge(roster, ending["blame"], r, frames, violation)
    if ending.get("forfeit"):
        _forfeits(roster, ending["forfeit"], ledger, r, violation)
    if not ending.get("end"):
        return ""
    return _agreed(roster, ending["end"], ledger, r, violation)


def _judge(roster: Roster, evidence: list[bytes], r: LogReplay | None, frames: Callable[[], Iterator[bytes]],
           violation) -> None:
    """The evidence a seat handed on when it caught a cheat the others could not
    see (kept with the game the table ended): checked against this file."""
    if len(evidence) == 2:
        verdict = proven(roster, frames(), evidence)
    else:
        verdict = r.judge(evidence) if r is not None else None
    if verdict is not None:
        violation(verdict.seat, verdict.message)


def _forfeits(roster: Roster, seats: list[int], ledger: Ledger, r: LogReplay | None, violation) -> None:
    """The table ended the game in its audit, which still waited for ``seats``:
    each of them withheld its disclosure after the game was over, and forfeits."""
    if r is None or r.engine.outcome is None or not isinstance(ledger.op, Audit):
        return
    for seat in sorted(set(seats) & set(ledger.pending())):
        violation(seat, "withheld its audit disclosure at the end of the game: it forfeits")


def _agreed(roster: Roster, votes: list[bytes], ledger: Ledger, r: LogReplay | None, violation) -> str:
    """The table's end by agreement, checked against the log: who say who left,
    the scores as they stood ("" and a violation if it does not hold).  The
    game's end and its audit wait for nobody who could leave: no ending there."""
    try:
        agreed = check_votes(roster, votes, step=ledger.index, basis=ledger.basis, waited=waited_at_stop(ledger, r))
    except RemoteProtocolError as exc:
        violation(exc.seat, f"the end of the table: {exc.message}")
        return ""
    gone = " and ".join(roster.label(s) for s in agreed.stop.gone)
    voters = " and ".join(roster.label(s) for s in agreed.voters)
    voices = roster.voices()
    still = len(left(voices, agreed.stop.gone))
    says = "says" if len(agreed.voters) == 1 else "say"
    text = (f"{voters} {says} {gone} left the game at step {agreed.stop.step}, and ended the table "
            f"({len({voices[s] for s in agreed.voters})} of the {still} voices left, "
            f"{needed(voices, agreed.stop.gone)} needed)")
    if r is not None:
        text += "; scores as they stand: " + ", ".join(
            f"{COLOURS[s]} {v}" for s, v in enumerate(r.game.scores(r.engine)))
    return text


EXIT_FAIR, EXIT_VIOLATION, EXIT_USAGE, EXIT_INCOMPLETE, EXIT_ABANDONED = 0, 1, 2, 3, 4


def main(argv: Sequence[str] | None = None) -> int:
    """``ankh verify FILE``: prints "fair: ...", "incomplete: ...", "abandoned: ..."
    or each violation; after all but a violation, one line per seat with the key it signed with.

    Exit status: 0 fair (audit passed), 1 violations found (or a damaged file),
    2 usage error or unreadable path, 3 incomplete (nothing wrong so far, but
    no passed end-of-game audit), 4 abandoned (a seat left for good and the
    seats still there ended the table by their signed agreement).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: ankh verify GAME_FILE", file=sys.stderr)
        return EXIT_USAGE
    path = journal.save_file(Path(args[0]))  # a save's folder: its finished game, or its journal so far
    try:
        with open(path, "rb") as fh:
            kind = journal.kind_of(fh)
            cut = journal.cut_short(fh.read(MAX_TRANSCRIPT + 1)) if kind == "journal" else 0
        if kind is None:
            print(f"cannot read {path}: it is no networked game's transcript (game.ankh) or journal "
                  "(journal.ankh)", file=sys.stderr)
            return EXIT_USAGE
        report = verify_transcript(path)
    except OSError as exc:
        print(f"cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    if cut:
        print(f"note: {path} ends in a record cut short ({cut} bytes, as a crash while it was written "
              "leaves it): read up to its last whole step")
    print(report)
    if not report.violations:  # (a violation names its seat's key already)
        print(report.key_lines(), end="")
    return {"fair": EXIT_FAIR, "violation": EXIT_VIOLATION, "incomplete": EXIT_INCOMPLETE,
            "abandoned": EXIT_ABANDONED}[report.status]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
