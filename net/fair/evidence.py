"""Evidence one seat holds that proves a cheat to everyone else.

Most cheats are seen by every seat: the bad message is in everyone's log.
Some are seen by one seat only: a wrong key inside a private message opens
for its receiver alone, and two versions of one message may each reach a
different seat.  The seat that caught the cheat then hands on its evidence
(signed frames of the cheater, nothing of its own word), and every other
seat, a spectator or ``ankh verify`` checks it against its own log:

- two different frames a seat signed with one sequence number: it equivocated;
- a private message and the frame inside it, whose hash the signed outer
  frame carries: the keys inside are checked against the public locks, as
  its receiver checked them;
- a private message and its receiver's disclosure of that one message's
  key: anyone opens it; it does not open or does not match its hash (its
  sender lied); a false disclosure proves nothing (it is not signed:
  anyone can make one up), so it names nobody;
- a steal's ``steal-open`` and the thief's plaintext or disclosure: the key
  of the stolen card sealed to the thief, judged as ``steal.judge_delivery``
  says (the victim when its signed part is wrong; otherwise nobody).

What a single frame of the game proves is found by checking it at its step,
as every seat checks every message (``GamePeer.judge``, ``verify``).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import steal
from ..wire.envelope import HEADER_LEN, Envelope, open_frame, unpack_strict
from ..wire.errors import LocalProtocolError, RemoteProtocolError
from ..play.ledger import BODIES, Ledger
from ..play.ops import Show, StealOpen, from_wire
from .seal import digest as seal_digest
from .seal import open_disclosed
from ..files.transcript import Roster, find_equivocation

MAX_EVIDENCE = 2  # frames (or a frame and a disclosure) in one piece of evidence


def proven(roster: Roster, log: Iterable[bytes], evidence: Sequence[bytes]) -> RemoteProtocolError | None:
    """What a pair of evidence proves, checked against ``log`` (frames this
    process has checked, in log order); None when it proves nothing (or is
    not a pair: a single frame is checked at its step by the caller)."""
    if len(evidence) != 2 or any(type(e) is not bytes for e in evidence):
        return None
    twin = find_equivocation({0: list(evidence)}, roster)
    if twin is not None:
        return _labelled(roster, twin)
    try:
        return _private(roster, log, *evidence)
    except (LocalProtocolError, RemoteProtocolError):
        return None  # not evidence of anything in this game's log


def _private(roster: Roster, log: Iterable[bytes], outer: bytes, second: bytes) -> RemoteProtocolError | None:
    env = open_frame(outer, game_id=roster.game_id, keys=roster.keyring(), kinds=BODIES)
    if env.kind not in ("sealed", "steal-open"):
        return None
    index, op = from_wire(env.body["op"])
    if not isinstance(op, (Show, StealOpen)):
        return None
    ledger = Ledger(roster, trusted=True)  # the log was checked in full already: followed, not checked again
    for frame in log:
        if ledger.index == index and ledger.op is None:
            break
        if step_of(frame) >= index:
            break
        ledger.follow(open_frame(frame, game_id=roster.game_id, keys=ledger.keyring, kinds=BODIES))
    if ledger.index != index or ledger.op is not None:
        return None  # the log does not reach that step
    ledger.begin(op)
    if env.body["basis"] != ledger.basis or env.sender not in ledger.pending():
        return None  # not a message of this log's step
    if isinstance(op, StealOpen):
        return _stolen(ledger, env, second)
    body = env.body
    try:
        disclosure = unpack_strict(second, max_size=256)
    except RemoteProtocolError:
        disclosure = None
    if isinstance(disclosure, dict):
        box = ledger.box[op.to]
        assert box is not None
        try:
            inner = open_disclosed(roster.game_id, env.sender, op.to, env.seq, box, body["eph"], body["ct"], second)
        except RemoteProtocolError as exc:
            if exc.seat is None and "false disclosure" in exc.message:
                return None  # a disclosure is nobody's signed word: anyone can make up a false one
            return ledger.blame(env.sender, f"private message to {ledger.who(op.to)}: {exc.message}", (outer, second))
        if seal_digest(inner) != body["h"]:
            return ledger.blame(env.sender, f"private message to {ledger.who(op.to)}: does not match its signed hash",
                                (outer, second))
    else:
        inner = second
        if seal_digest(inner) != body["h"]:
            return None  # not the frame inside this message
    try:
        ledger.check_inner(env, inner)
    except RemoteProtocolError as exc:
        return exc if exc.seat is not None else None
    return None  # the keys inside are right: the receiver's claim is false


def _stolen(ledger: Ledger, env: Envelope, second: bytes) -> RemoteProtocolError | None:
    """The thief's evidence against the key of its stolen card, sealed to it in
    the victim's ``steal-open`` of this step (``steal.judge_delivery``)."""
    st, roster = ledger.steal, ledger.roster
    assert st is not None and ledger.box[st.thief] is not None
    verdict = steal.judge_delivery(st, roster.game_id, env.seq, env.body, (env.frame, second),
                                   ledger.box[st.thief], ledger.ephemerals)
    return None if verdict is None else ledger.blame(verdict.seat, verdict.message, verdict.evidence)


def step_of(frame: bytes) -> int:
    """The step of the log a signed frame belongs to (unchecked: raises on one that is no frame)."""
    return unpack_strict(frame[HEADER_LEN:])["body"]["op"]["i"]


def _labelled(roster: Roster, error: RemoteProtocolError) -> RemoteProtocolError:
    if error.seat is not None and 0 <= error.seat < roster.size:
        error.label = roster.label(error.seat)
    return error
