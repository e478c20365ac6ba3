"""One seat of a game as a sans-I/O protocol object (h11-style).

The local rules engine says what the next step is (``request``); bytes from
peers come in through ``receive(frame, via=seat)`` and produce events; bytes
to broadcast come out of ``data_to_send``.  No sockets, no clock: when a step
takes too long, the caller asks ``waiting_for()`` who is holding it up.

A seat holds only its own secrets.  What it knows about hidden cards is what
the protocol gave it: its own keys, the keys published by others, and keys
sent to it privately.

Checks run in a fixed order: frame size, signature, bounded decode, field
types, sequence number, then the ledger (step, turn, proofs).  A link whose
bytes fail before the signature is known good (garbage, a forged signature)
is COMPROMISED and accepts nothing more, like magic-wormhole's ``S3_scared``;
a validly signed message that breaks the rules is refused and pinned on its
signer, and nothing of it is applied.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..fair import deck as decks
from ..fair import group, steal
from ..fair.deck import DeckSpec
from ..fair.dice import CHAIN_LENGTH, OwnChain
from ..wire.envelope import INNER, Envelope, SeqTracker, open_frame, seal
from ..wire.errors import Divergence, Equivocation, LocalProtocolError, RemoteProtocolError
from .ledger import BODIES, Ledger
from .ops import (
    KIND_OF,
    Audit,
    Challenge,
    Deal,
    Draw,
    Hello,
    LockDeck,
    Move,
    Op,
    Pick,
    ProveShuffle,
    Reveal,
    Roll,
    Show,
    ShowSlots,
    ShuffleBy,
    ShuffleDeck,
    StealCard,
    StealOpen,
    StealPick,
    Sync,
    shuffle_steps,
    steal_steps,
)
from ..fair.seal import Boxes
from ..fair.seal import digest as seal_digest
from ..files.secrets import SeatSecrets
from ..files.transcript import Roster, Transcript

ANY_LINK = -1  # ``relay`` for the hub of a star: any link may carry any seat's signed frames
MAX_BUFFERED = 64  # messages held for steps we have not reached yet
MAX_AHEAD = 8  # how many steps ahead of us a peer may be


class Link(Enum):
    OPEN = "open"
    COMPROMISED = "compromised"


@dataclass(frozen=True)
class StepDone:
    """A step finished; ``result`` is the face, the picks, the positions, the cards..."""

    index: int
    op: Op
    result: Any


@dataclass(frozen=True)
class Alarm:
    """Something is wrong with a deck after a step finished (not a card, a duplicate).

    The step itself completed everywhere; ``error`` names the culprit when the
    evidence already does, otherwise the audit will.
    """

    error: RemoteProtocolError


@dataclass(frozen=True)
class CardSeen:
    """This seat now knows which card lies at ``position`` of ``deck``."""

    deck: str
    position: int
    card: str


class SeatProtocol:
    """``relay``: the seat whose link may carry other seats' frames (a star
    where that seat relays; ``ANY_LINK``: the hub of a star, to which a seat
    coming back may hand frames of others that the hub missed; ``None``: a
    full mesh, every frame on its own signer's link).  A relayed frame is accepted on its signature alone: the
    relay can drop or delay frames (a stall, or a sequence gap it is blamed
    for) but cannot forge or alter one, and the log hash in every message
    exposes a relay that tells different seats different things."""

    def __init__(self, roster: Roster, secrets: SeatSecrets, *, chain_length: int = CHAIN_LENGTH,
                 relay: int | None = None) -> None:
        if secrets.game_id != roster.game_id:
            raise LocalProtocolError("secrets belong to another game")
        if roster.keys[secrets.seat] != secrets.identity.public_key:
            raise LocalProtocolError("this identity does not hold that seat")
        self.roster = roster
        self.secrets = secrets
        self.seat = secrets.seat
        self.name = roster.names[self.seat]
        self.boxes = Boxes(secrets.box_private, roster.game_id)
        self.ledger = Ledger(roster, viewer=self.seat, boxes=self.boxes, master=secrets.master)
        self.chain = OwnChain(secrets.dice_seed, chain_length)
        self.links = [Link.OPEN] * roster.size
        self.relay = relay
        self._frames: dict[tuple[int, int], bytes] = {}  # (sender, seq) -> the frame accepted
        self._seq_of: dict[bytes, int] = {}
        self.known: dict[str, dict[int, str]] = {}
        self._seq_in = SeqTracker(roster.size)
        self._seq_out = 0
        self._outbox: list[bytes] = []
        self._requests: deque[Op] = deque()
        self._buffer: list[Envelope] = []
        self._accepted: list[bytes] = []
        self.checked: list[bytes] = []  # the frames taken into the log, in the order they were (see ``Hub``)
        self.alarms: list[RemoteProtocolError] = []

    # -- the engine's side --------------------------------------------------------

    def request(self, op: Op) -> list[Any]:
        """The local engine says this is the next step.  Raises LocalProtocolError if impossible.

        A ``ShuffleDeck`` runs as several steps: each seat's shuffle, its
        challenge and its proof (``ops.shuffle_steps``).
        """
        if self.ledger.op is None and not self._requests:
            problem = self.ledger.problem(op)
            if problem is not None:
                raise LocalProtocolError(problem)
        if isinstance(op, ShuffleDeck):
            self._requests.extend(shuffle_steps(op.spec, self.roster.size))
        elif isinstance(op, StealCard):
            self._requests.extend(steal_steps(op))
        else:
            self._requests.append(op)
        return self._advance()

    def waiting_for(self) -> tuple[int, ...]:
        return tuple(self.ledger.pending())

    def busy(self) -> bool:
        return self.ledger.op is not None or bool(self._requests)

    def card(self, deck: str, position: int) -> str | None:
        return self.known.get(deck, {}).get(position)

    def material(self, deck: str, position: int) -> dict[int, int]:
        """Every key this seat holds for a position (its own, public, sent to it)."""
        d = self.ledger.deck(deck)
        keys = dict(d.keys[position])
        keys.update(self.ledger.private.get((deck, position), {}))
        keys[self.seat] = self.secrets.deck(d.spec).key(position)
        return keys

    def transcript(self) -> Transcript:
        return self.ledger.transcript()

    def view(self) -> list[bytes]:
        """Every authentic frame this seat accepted (for equivocation checks)."""
        return list(self._accepted)

    # -- the transport's side -------------------------------------------------------

    def data_to_send(self) -> list[bytes]:
        out, self._outbox = self._outbox, []
        return out

    def receive(self, frame: bytes, *, via: int) -> list[Any]:
        """Bytes from the link to seat ``via``.  Raises RemoteProtocolError on any fault."""
        if not 0 <= via < self.roster.size or via == self.seat:
            raise LocalProtocolError(f"no link to seat {via}")
        if self.links[via] is Link.COMPROMISED:
            raise self.ledger.blame(via, "link already compromised; nothing more is accepted")
        try:
            env = open_frame(frame, game_id=self.roster.game_id, keys=self.ledger.keyring, kinds=BODIES)
        except RemoteProtocolError as exc:
            if exc.seat is None:
                self.links[via] = Link.COMPROMISED
                exc.blamed(via, self.roster.who(via))
            elif exc.who is None:
                exc.who = self.roster.who(exc.seat)
            raise
        if env.sender != via and via != self.relay and self.relay != ANY_LINK:
            # Only the relay may carry other seats' frames (in a full mesh, nobody).
            raise self.ledger.blame(via, f"relayed a message from seat {env.sender}")
        if env.sender == self.seat:
            # one of our own, handed back by a seat that holds it (signed before a crash, signed
            # again the same since, derived): no fault of the link it came on (our count of what
            # others sent us has no place for it), and nothing we did not know
            return []
        if env.seq < self._seq_in.expected(env.sender):
            earlier = self._frames.get((env.sender, env.seq))
            if earlier == frame:
                return []  # the same frame again (a resend after a reconnect): harmless
            if earlier is not None:
                raise Equivocation(f"signed two different messages with sequence number {env.seq}",
                                   seat=env.sender, who=self.roster.who(env.sender), evidence=(earlier, frame))
        try:
            self._seq_in.check(env.sender, env.seq)
        except RemoteProtocolError as exc:
            raise exc.blamed(via, self.roster.who(via)) from None
        index = env.body["op"]["i"]
        if index < self.ledger.index:
            raise self.ledger.blame(env.sender, f"message for step {index}, which is over")
        if index > self.ledger.index + MAX_AHEAD:
            raise self.ledger.blame(env.sender, f"message for step {index}, too far ahead of step {self.ledger.index}")
        if self._must_wait(env):
            if len(self._buffer) >= MAX_BUFFERED:
                raise self.ledger.blame(env.sender, "too many messages ahead of the game")
            self._buffer.append(env)
            self._note(env)
            return []
        events = self._accept(env)
        self._note(env)
        events += self._drain()
        events += self._advance()
        return events

    def frames_after(self, have: tuple[int, ...] | list[int], *, checked: bool = False) -> list[bytes]:
        """Every accepted frame a peer lacks, given how many it has from each sender
        (in an order it can accept: each sender's frames in sequence); with
        ``checked``, only those already taken into the log (not those held for
        a later step)."""
        out = []
        for frame in self.checked if checked else self._accepted:
            sender = frame[0]
            seq = self._seq_of.get(frame)
            if seq is not None and 0 <= sender < len(have) and seq >= have[sender]:
                out.append(frame)
        return out

    def signed(self, sender: int, seq: int) -> bytes | None:
        """The frame ``sender`` signed under sequence number ``seq``, where this
        seat accepted it (its own frames included, and those held for a later step)."""
        return self._frames.get((sender, seq))

    def have(self) -> tuple[int, ...]:
        """How many frames this seat accepted from each sender (itself included)."""
        counts = list(self._seq_in.snapshot())
        counts[self.seat] = self._seq_out
        return tuple(counts)

    # -- internals ----------------------------------------------------------------------

    def _note(self, env: Envelope) -> None:
        self._seq_in.advance(env.sender)
        self._accepted.append(env.frame)
        self._frames[(env.sender, env.seq)] = env.frame
        self._seq_of[env.frame] = env.seq

    def _must_wait(self, env: Envelope) -> bool:
        index = env.body["op"]["i"]
        if index > self.ledger.index or self.ledger.op is None:
            return True
        return env.sender in self.ledger.pending() and env.sender not in self.ledger.next_senders()

    def _accept(self, env: Envelope, own: bool = False) -> list[Any]:
        try:
            done, result = self.ledger.accept(env, own)
        except Divergence as exc:
            raise self._diverged(exc) from None
        except RemoteProtocolError as exc:
            exc.blamed(env.sender, self.roster.who(env.sender))
            if exc.seat == env.sender and not exc.evidence:
                exc.evidence = (env.frame,)  # its own signed message proves it to everyone
            raise exc from None
        self.checked.append(env.frame)
        if not done:
            return []
        return self._on_done(self.ledger.index - 1, self.ledger.history[-1], result)

    def _diverged(self, exc: Divergence) -> RemoteProtocolError:
        """A message signed over another log than ours.  In a star the seats compare
        their hashes through the hub, which checks every frame before passing it
        on, so the answer is known: at the hub, every seat's log is the hub's
        own (it relays exactly what it took in), and the seat that signed
        another hash lied (or signed two versions of its own message); at any
        other seat, an honest hub would have stopped that message, so the hub
        told different seats different things.  In a full mesh only the seats'
        logs together can say (``transcript.find_equivocation``)."""
        step = self.ledger.index
        if self.relay == ANY_LINK and exc.suspect is not None:
            error = self.ledger.blame(exc.suspect, f"signed a log hash at step {step} that is not the hash of the "
                                                   "log it was sent (every seat is sent the same frames)", exc.evidence)
            error.alone = True  # the log it was sent is the hub's to know: elsewhere the frame proves nothing
            return error
        if self.relay is not None and self.relay != ANY_LINK:
            said = "signed" if exc.suspect == self.relay else "passed on a message signed"
            return self.ledger.blame(self.relay, f"{said} over a log that differs from the one it sent us at step "
                                                 f"{step}: it told different seats different things", exc.evidence)
        return exc

    def _drain(self) -> list[Any]:
        events: list[Any] = []
        progress = True
        while progress:
            progress = False
            for env in list(self._buffer):
                if self.ledger.op is None or env.body["op"]["i"] != self.ledger.index:
                    continue
                if env.sender not in self.ledger.next_senders():
                    continue
                self._buffer.remove(env)
                events += self._accept(env)
                events += self._advance(drain=False)
                progress = True
                break
        return events

    def _advance(self, drain: bool = True) -> list[Any]:
        events: list[Any] = []
        while True:
            if self.ledger.op is None and self._requests:
                self.ledger.begin(self._requests.popleft())
                if drain:
                    events += self._drain()
                continue
            if self.ledger.op is not None and self.seat in self.ledger.next_senders():
                events += self._send_own()
                continue
            return events

    def _send_own(self) -> list[Any]:
        op = self.ledger.op
        assert op is not None
        kind = KIND_OF[type(op)]
        body = {"op": self.ledger.op_wire, "basis": self.ledger.basis, **self._body(op)}
        seq = self._seq_out
        frame = seal(self.secrets.identity, self.seat, self.roster.game_id, seq, kind, body)
        self._seq_out += 1
        env = Envelope(self.roster.game_id, seq, self.seat, kind, body, frame)
        self._outbox.append(frame)
        self._accepted.append(frame)
        self._frames[(self.seat, seq)] = frame
        self._seq_of[frame] = seq
        return self._accept(env, own=True)

    def _deck_secrets(self, name: str) -> decks.DeckSecrets:
        return self.secrets.deck(self.ledger.deck(name).spec)

    def _body(self, op: Op) -> dict[str, Any]:
        L = self.ledger
        if isinstance(op, Hello):
            return {
                "name": self.name,
                "box": self.secrets.box_public,
                "dice": self.chain.commitment(0),
                "len": self.chain.length,
            }
        if isinstance(op, (ShuffleDeck, ShuffleBy)):
            d = L.deck(op.spec.name if isinstance(op, ShuffleDeck) else op.deck)
            ds, X = self.secrets.deck(d.spec), d.shuffle_input(self.seat)
            E, pts = decks.shuffle(X, ds)
            ctx = decks.shuffle_context(self.roster.game_id, self.seat, d.name, E)
            return {"E": E, "pts": b"".join(pts), "C": decks.commit_shadows(ctx, X, pts, ds, d.spec)}
        if isinstance(op, ProveShuffle):
            d = L.deck(op.deck)
            assert d.candidate is not None and d.challenge is not None
            _, E, pts, _ = d.candidate
            ctx = decks.shuffle_context(self.roster.game_id, self.seat, d.name, E)
            ds, X = self.secrets.deck(d.spec), d.shuffle_input(self.seat)
            f, perms = decks.open_shadows(ctx, X, pts, ds, d.spec, d.challenge)
            return {"f": f, "perms": perms}
        if isinstance(op, LockDeck):
            d = L.deck(op.deck)
            ctx = decks.lock_context(self.roster.game_id, L.basis, self.seat, d.name, d.E[self.seat])
            m = decks.lock(ctx, d.lock_input(self.seat), self._deck_secrets(op.deck))
            return {"Y": m.Y, "T": m.T, "R": m.R, "z": m.z, "zs": m.zs}
        if isinstance(op, StealCard):
            assert L.steal is not None
            return steal.make_shuffle(L.steal, self.secrets.master)
        if isinstance(op, StealOpen):
            thief_box, seq = L.box[op.thief], self._seq_out
            assert L.steal is not None and thief_box is not None
            return steal.make_open(
                L.steal, L.hand_keys[op.hand], self.secrets.master, self.boxes, seq, thief_box,
                self.secrets.ephemeral(seq, op.thief),
            )
        if isinstance(op, ShowSlots):
            return steal.make_show(
                L.hands[op.hand], L.hand_keys[op.hand], op.slots, self.roster.game_id, L.basis, self.secrets.master
            )
        if isinstance(op, (Roll, Pick, Challenge, StealPick)):
            state = L.chains[self.seat]
            assert state is not None
            value, renew = self.chain.reveal(state)
            body: dict[str, Any] = {"v": value}
            if renew is not None:
                body["renew"], body["len"] = renew
            return body
        if isinstance(op, (Deal, Draw, Reveal)):
            return self._key_body(op)
        if isinstance(op, Show):
            inner_body = {"op": L.op_wire, "basis": L.basis, **self._key_body(op)}
            inner = seal(
                self.secrets.identity, self.seat, self.roster.game_id, self._seq_out, "keys", inner_body, label=INNER
            )
            box = L.box[op.to]
            assert box is not None
            eph_private = self.secrets.ephemeral(self._seq_out, op.to)
            eph, ct = self.boxes.seal(self.seat, op.to, self._seq_out, box, inner, eph_private)
            return {"eph": eph, "h": seal_digest(inner), "ct": ct}
        if isinstance(op, Audit):
            entries = []
            for name, d in L.decks.items():
                ds = self.secrets.deck(d.spec)
                entries.append(
                    {
                        "deck": name,
                        "e": group.scalar_to_bytes(ds.e),
                        "perm": bytes(ds.perm),
                        "k": b"".join(group.scalar_to_bytes(ds.key(j)) for j in range(d.size)),
                    }
                )
            robbed = [steal.audit_entry(r, self.secrets.master) for r in L.robbed if r.victim == self.seat]
            return {"decks": entries, "steals": robbed} if robbed else {"decks": entries}
        if isinstance(op, Sync):
            return {}
        if isinstance(op, Move):
            if op.choice is None:
                raise LocalProtocolError("this seat's move has no choice")
            return {"move": list(op.choice)}
        raise LocalProtocolError(f"cannot answer {op!r}")  # pragma: no cover

    def _key_body(self, op: Op) -> dict[str, Any]:
        L = self.ledger
        d = L.deck(op.deck)  # type: ignore[union-attr]
        positions = L.covered(op, self.seat)
        ctx = decks.keys_context(self.roster.game_id, L.basis, self.seat, d.name, positions)
        m = decks.prove_keys(ctx, self._deck_secrets(d.name), positions, d.E[self.seat], d.locked[self.seat])
        return {"k": m.keys, "A": m.A, "As": m.As, "s": m.s}

    def _on_done(self, index: int, op: Op, result: Any) -> list[Any]:
        events: list[Any] = [StepDone(index, op, result)]
        if isinstance(op, (Draw, Reveal)):
            for anomaly in self.ledger.anomalies:
                if anomaly.position in op.positions and anomaly.deck == op.deck:
                    events += self._alarm(anomaly.seat, anomaly.message)
            for p, card in result.items():
                if card is not None:
                    events += self._learn(op.deck, p, card)
        elif (isinstance(op, Deal) and op.to == self.seat) or (isinstance(op, Show) and op.to == self.seat):
            d = self.ledger.deck(op.deck)
            for p in op.positions:
                if self.card(op.deck, p) is not None:
                    continue
                keys = self.material(op.deck, p)
                if len(keys) < self.roster.size:
                    continue
                card = decks.unlock(d, p, keys)
                if card is None:
                    events += self._alarm(decks.forensics(d), f"{d.name}: position {p} does not hold a printed card")
                    continue
                events += self._learn(op.deck, p, card)
        elif isinstance(op, Audit):
            for name, cards in result.decks.items():
                for p, card in enumerate(cards):
                    if self.card(name, p) is None:
                        self.known.setdefault(name, {})[p] = card
        return events

    def _learn(self, deck: str, position: int, card: str) -> list[Any]:
        mine = self.known.setdefault(deck, {})
        twin = next((p for p, c in mine.items() if c == card and p != position), None)
        mine[position] = card
        events: list[Any] = [CardSeen(deck, position, card)]
        if twin is not None:
            culprit = decks.forensics(self.ledger.deck(deck))
            events += self._alarm(culprit, f"{deck}: {card} at both positions {twin} and {position}")
        return events

    def _alarm(self, seat: int | None, message: str) -> list[Any]:
        if seat is None:
            message += "; the audit will say who"
        error = self.ledger.blame(seat, message)
        self.alarms.append(error)
        return [Alarm(error)]

    # -- resuming after a crash -------------------------------------------------------

    def follow_frame(self, frame: bytes) -> None:
        """Take one frame of this game's saved log (ours or another seat's), in log order."""
        env = open_frame(frame, game_id=self.roster.game_id, keys=self.ledger.keyring, kinds=BODIES)
        own = env.sender == self.seat
        if own:
            self._seq_out = env.seq + 1
            self._accepted.append(frame)
            self._frames[(env.sender, env.seq)] = frame
            self._seq_of[frame] = env.seq
        else:
            self._seq_in.check(env.sender, env.seq)
            self._note(env)
        if own and isinstance(env.body, dict) and env.kind == "hello":
            self.chain = OwnChain(self.secrets.dice_seed, env.body["len"])
        done, result = self.ledger.follow(env, own)
        self.checked.append(frame)
        if done:
            self._on_done(self.ledger.index - 1, self.ledger.history[-1], result)

    @classmethod
    def resume(cls, roster: Roster, secrets: SeatSecrets, transcript: Transcript, *,
               relay: int | None = None) -> SeatProtocol:
        """Rebuild a seat from its secrets and the public transcript of the game so far."""
        if transcript.roster != roster:
            raise LocalProtocolError("transcript of another game")
        seat = cls(roster, secrets, relay=relay)
        for frame in transcript.frames():
            seat.follow_frame(frame)
        # A shuffle pass cut short goes on where it stopped, and so does a step
        # saved half-way (its frames were saved as pending): our part is sent
        # again if it is not among them (identical, as it is derived, not drawn).
        started = [*seat.ledger.history, *([seat.ledger.op] if seat.ledger.op is not None else [])]
        for d in seat.ledger.decks.values():
            steps = shuffle_steps(d.spec, roster.size)
            taken = sum(1 for op in started if op in steps)
            seat._requests.extend(steps[taken:])
        # So does a steal: its pick and its opening follow its shuffle.
        at = [i for i, op in enumerate(started) if isinstance(op, StealCard)]
        if seat.ledger.steal is not None and at:
            steps = steal_steps(started[at[-1]])  # type: ignore[arg-type]
            seat._requests.extend(steps[len(started) - at[-1] :])
        seat._advance()
        return seat


__all__ = ["SeatProtocol", "StepDone", "CardSeen", "Alarm", "Link", "DeckSpec"]
