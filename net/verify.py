"""Offline audit of a saved game: ``verify_transcript(path_or_bytes) -> Report``.

The verifier replays every public signed message through the same ledger the
seats used (with no secrets): signatures, sequence numbers, the order of
steps, every lock proof, every published key and its proof, every dice
reveal against its hash chain, and, if the game reached its end, the audit:
each deck recomputed from the disclosed shuffle secrets and shown to be a
permutation of its printed cards.  Private key deliveries are ciphertext to
the verifier; the seat that received one checked it (and would have stopped
the game with the signed evidence had it been wrong).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from .envelope import SeqTracker, open_frame, peek_signer
from .errors import LocalProtocolError, RemoteProtocolError
from .ledger import BODIES, Ledger
from .fair_game import deck_specs
from .ops import Move, describe
from .peer import Moved, describe_outcome, replay
from .transcript import Transcript


@dataclass(frozen=True)
class Violation:
    seat: int | None
    name: str | None
    message: str

    def __str__(self) -> str:
        if self.seat is None:
            return f"unattributed: {self.message}"
        return f"{self.name} (seat {self.seat}): {self.message}"


@dataclass(frozen=True)
class Report:
    fair: bool
    seats: tuple[str, ...]
    steps: int
    rolls: int
    dealt: int
    revealed: int
    decks: tuple[tuple[str, int], ...]  # (deck, cards) verified as permutations by the audit
    audited: bool
    violations: tuple[Violation, ...]
    rules: str = ""  # what replaying the rules over the log showed ("" when the log is no game of the rules)

    def summary(self) -> str:
        decks = ", ".join(f"{name} ({size})" for name, size in self.decks) or "none"
        audit = f"decks verified as permutations of the printed cards: {decks}" if self.audited else (
            "no end-of-game audit yet (decks not verified)"
        )
        rules = f"; {self.rules}" if self.rules else ""
        return (
            f"{len(self.seats)} seats ({', '.join(self.seats)}); {self.steps} steps; {self.rolls} rolls; "
            f"{self.dealt} cards dealt, {self.revealed} revealed; {audit}{rules}"
        )

    def __str__(self) -> str:
        if self.fair:
            return "fair: " + self.summary()
        return "\n".join(f"violation: {v}" for v in self.violations)


def _read(source: str | os.PathLike[str] | bytes) -> Transcript:
    if isinstance(source, bytes):
        return Transcript.from_bytes(source)
    return Transcript.load(source)


def verify_transcript(source: str | os.PathLike[str] | bytes) -> Report:
    """Audit a saved game (a path or the file's bytes).

    A malformed file is reported as a violation; only an unreadable path
    raises (OSError).
    """
    try:
        transcript = _read(source)
    except RemoteProtocolError as exc:
        return Report(False, (), 0, 0, 0, 0, (), False, (Violation(None, None, f"unreadable transcript: {exc}"),))
    roster = transcript.roster
    ledger = Ledger(roster)
    seqs = SeqTracker(roster.size)
    violations: list[Violation] = []

    def violation(seat: int | None, message: str) -> None:
        violations.append(Violation(seat, roster.who(seat), message))

    for number, frame in enumerate(transcript.frames()):
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
        except RemoteProtocolError as exc:
            violation(exc.seat if exc.seat is not None else env.sender, f"message {number}: {exc.message}")
            break
    else:
        if ledger.op is not None:
            for seat in ledger.pending():
                violation(seat, f"stalled: never sent its part of step {ledger.index} ({describe(ledger.op)})")
    for anomaly in ledger.anomalies:
        violation(anomaly.seat, anomaly.message)
    rules = ""
    if not violations:
        rules = _replay_rules(transcript, ledger, violation)
    audited = ledger.audit is not None
    if ledger.audit is not None:
        for seat, message in ledger.audit.violations:
            violation(seat if seat >= 0 else None, message)
    deck_sizes = {name: d.size for name, d in ledger.decks.items()}
    verified = tuple((name, deck_sizes[name]) for name in (ledger.audit.decks if ledger.audit else ()))
    return Report(
        fair=not violations,
        seats=roster.names,
        steps=ledger.index,
        rolls=ledger.rolls,
        dealt=ledger.dealt,
        revealed=ledger.revealed,
        decks=verified,
        audited=audited,
        violations=tuple(violations),
        rules=rules,
    )


def _replay_rules(transcript: Transcript, ledger: Ledger, violation) -> str:
    """Replay the rules of the game over the log: every move must be legal and
    every step the one the rules ask for.  Returns what it showed."""
    specs = deck_specs(ledger.n) if 2 <= ledger.n <= 4 else []
    if [d.spec for d in ledger.decks.values()][:3] != specs or not any(isinstance(op, Move) for op in ledger.history):
        return ""  # a log of the protocol alone (no moves), not of a game of the rules
    try:
        r = replay(transcript.roster, transcript.frames())
    except RemoteProtocolError as exc:
        violation(exc.seat, exc.message)
        return ""
    except LocalProtocolError as exc:
        violation(None, f"the log does not follow the rules: {exc}")
        return ""
    moves = sum(1 for e in r.history if isinstance(e, Moved))
    o = r.engine.outcome
    if o is None:
        return f"rules replayed: {moves} moves, the game is not over"
    return f"rules replayed: {moves} moves, {describe_outcome(o)}"


def main(argv: Sequence[str] | None = None) -> int:
    """``ankh verify FILE``: prints "fair: ..." or each violation.

    Exit status: 0 fair, 1 violations found, 2 usage error.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: ankh verify GAME_FILE", file=sys.stderr)
        return 2
    try:
        report = verify_transcript(args[0])
    except OSError as exc:
        print(f"cannot read {args[0]}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(report)
    return 0 if report.fair else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
