"""The public game log as a state machine, the same for every seat and the verifier.

The ledger knows which step is under way, whose messages it still needs and
in what order, and checks each message completely before applying anything
(check, then apply: a rejected message leaves no trace).  The protocol is a
table (``_STEPS``): for each kind of step, which message kind answers it,
whether seats answer in turn or in any order, and the check/apply/finish
functions.  No rule asks "is this me or them?": a seat's own messages go
through the same path (only the proof checks are skipped, since we made
them).

A seat's ledger also holds what that seat was told privately (``viewer``):
the keys other seats sent it in sealed messages.  The offline verifier runs
a ledger with no viewer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..fair import deck as decks
from ..fair import dice, group, steal
from ..fair.deck import Disclosure, KeyMessage, LockMessage, PublicDeck, unlock
from ..wire.envelope import INNER, MAX_BIN, Envelope, open_frame
from ..wire.errors import Divergence, LocalProtocolError, RemoteProtocolError
from ..fair.group import GroupError
from .ops import (
    KIND_OF,
    OP_SCHEMA,
    SEQUENTIAL,
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
    from_wire,
    to_wire,
)
from ..wire.schema import Bin, Either, Int, List, Map, Str
from ..fair.seal import Boxes
from ..fair.seal import digest as seal_digest
from ..files.transcript import Roster, Transcript, next_hash

MAX_DECKS = 8
NOTHING_TO_SEND = "nothing to send: everyone concerned already knows"
_B32 = Bin(32)
_POINTS = Bin(unit=32, max_len=32 * decks.MAX_DECK)
_COMMON = {"op": OP_SCHEMA, "basis": _B32}

KEYS_BODY = Map({**_COMMON, "k": _POINTS, "A": _B32, "As": _POINTS, "s": _B32})

BODIES = {
    "hello": Map({**_COMMON, "name": Str(32), "box": _B32, "dice": _B32, "len": Int(1, dice.MAX_CHAIN_LENGTH)}),
    "shuffle": Map({**_COMMON, "E": _B32, "pts": _POINTS, "C": Bin(32 * decks.SHADOWS)}),
    "open": Map({**_COMMON, "f": Bin(32 * decks.SHADOWS), "perms": Bin(max_len=decks.SHADOWS * decks.MAX_DECK)}),
    "lock": Map({**_COMMON, "Y": _POINTS, "T": _POINTS, "R": _B32, "z": _B32, "zs": _POINTS}),
    "dice": Map({**_COMMON, "v": _B32}, optional={"renew": _B32, "len": Int(1, dice.MAX_CHAIN_LENGTH)}),
    "keys": KEYS_BODY,
    "sealed": Map({**_COMMON, "eph": _B32, "h": _B32, "ct": Bin(max_len=MAX_BIN)}),
    "audit": Map(
        {
            **_COMMON,
            "decks": List(
                Map({"deck": Str(16), "e": _B32, "perm": Bin(max_len=decks.MAX_DECK), "k": _POINTS}),
                MAX_DECKS,
            ),
        },
        optional={"steals": List(steal.AUDIT_ENTRY, steal.MAX_STEALS)},  # a victim's steals, in log order
    ),
    "move": Map({**_COMMON, "move": List(Either(Int(-8, 2**16), Str(32)), 8, min_len=1)}),
    "sync": Map(dict(_COMMON)),
    **{kind: Map({**_COMMON, **fields}) for kind, fields in steal.FIELDS.items()},
}
INNER_KINDS = {"keys": KEYS_BODY}


@dataclass(frozen=True)
class AuditOutcome:
    """The end-of-game audit: the order of every deck, and who cheated if anyone did."""

    decks: Mapping[str, tuple[str, ...]]
    violations: tuple[tuple[int, str], ...]
    # The card of every slot a steal made (hand -> handle -> card), once every
    # victim disclosed its steals' orders (see ``steal.slot_cards``).
    slots: Mapping[str, Mapping[int, str]] = field(default_factory=dict)

    @property
    def fair(self) -> bool:
        return not self.violations


@dataclass
class Anomaly:
    deck: str
    position: int
    message: str
    seat: int | None


@dataclass
class _Step:
    kind: str
    check: Callable[[Ledger, Envelope, bool], Any]
    apply: Callable[[Ledger, Envelope, Any], None]
    finish: Callable[[Ledger], Any]


class Ledger:
    def __init__(
        self, roster: Roster, *, viewer: int | None = None, boxes: Boxes | None = None, master: bytes | None = None,
        trusted: bool = False,
    ) -> None:
        self.roster = roster
        # A log already checked in full (by this process) is followed again with
        # every message taken as checked: no proof is verified a second time.
        self.trusted = trusted
        self.n = roster.size
        self.viewer = viewer
        self.boxes = boxes
        self.keyring = roster.keyring()
        self.index = 0
        self.basis = roster.genesis()
        self.op: Op | None = None
        self.op_wire: dict[str, Any] | None = None
        self._senders: list[int] = []
        self.got: dict[int, Envelope] = {}
        self.log: list[tuple[dict[str, Any], list[bytes]]] = []
        self.results: list[Any] = []
        self.history: list[Op] = []
        self.box: list[bytes | None] = [None] * self.n
        self.chains: list[dice.ChainState | None] = [None] * self.n
        self.decks: dict[str, PublicDeck] = {}
        self.private: dict[tuple[str, int], dict[int, int]] = {}
        # The ephemeral keys of the private messages of the steps done: one reused would
        # let its receiver's disclosure (in a dispute) open the earlier message too.  Only
        # finished steps count: within a step, arrival order (the relay's) proves nothing.
        self.ephemerals: set[bytes] = set()
        self.rolls = 0
        self.dealt = 0
        self.revealed = 0
        self.audit: AuditOutcome | None = None
        self.anomalies: list[Anomaly] = []
        self._scratch: dict[int, Any] = {}
        # Hands of cards the rules keep face up but a steal hides (only hidden slots
        # live here between steals), the steal under way, and what the viewer
        # knows of its own hidden slots (``master``: its seed, for its own steals).
        self.hands: dict[str, steal.Hands] = {}
        self.steal: steal.Steal | None = None
        self.hand_keys: dict[str, steal.HandKeys] = {}
        self.master = master
        # Cards of a hidden deck that a steal took into the hand of the same name
        # (by position): they are slots from then on, never a deck's cards again.
        self.handed: dict[str, set[int]] = {}
        # Every steal finished, for the end-of-game audit (its victim's disclosure).
        self.robbed: list[steal.Robbery] = []

    # -- bookkeeping ------------------------------------------------------------

    def who(self, seat: int | None) -> str | None:
        return self.roster.who(seat)

    def blame(self, seat: int | None, message: str, evidence: tuple[bytes, ...] = ()) -> RemoteProtocolError:
        error = RemoteProtocolError(message, seat=seat, who=self.who(seat), evidence=evidence)
        if seat is not None and 0 <= seat < self.n:
            error.label = self.roster.label(seat)
        return error

    def deck(self, name: str) -> PublicDeck:
        try:
            return self.decks[name]
        except KeyError:
            raise LocalProtocolError(f"no deck named {name!r}") from None

    def transcript(self) -> Transcript:
        pending = [self.got[s].frame for s in sorted(self.got)] if self.op is not None else []
        return Transcript(self.roster, [list(frames) for _, frames in self.log], pending)

    def digest(self) -> bytes:
        """A hash of everything applied so far (for "nothing applied" checks)."""
        h = hashlib.sha256(self.basis)
        h.update(repr(sorted(self.got)).encode())
        for s in sorted(self.got):
            h.update(self.got[s].frame)
        for name, d in self.decks.items():
            h.update(name.encode())
            h.update(repr((len(d.shuffled), len(d.locked), d.cursor, sorted(d.public.items()))).encode())
            h.update(repr((d.candidate, d.challenge)).encode())
            h.update(repr([sorted(k.items()) for k in d.keys]).encode())
            h.update(repr([sorted((t, sorted(v)) for t, v in s.items()) for s in d.shown]).encode())
        h.update(repr(sorted((k, sorted(v.items())) for k, v in self.private.items())).encode())
        h.update(repr(self.chains).encode())
        h.update(repr(sorted(self.ephemerals)).encode())
        for name, hand in self.hands.items():
            h.update(repr((name, sorted(hand.slots.items()), hand.held, hand.steals)).encode())
        h.update(repr(sorted((k, sorted(v)) for k, v in self.handed.items())).encode())
        st = self.steal
        if st is not None:
            h.update(repr((st.handles, st.Y, st.Z, st.E, st.C, st.bits, st.pick, st.delivered)).encode())
        return h.digest()

    # -- which steps are legal, and who answers them -----------------------------

    def senders(self, op: Op) -> list[int]:
        everyone = list(range(self.n))
        if isinstance(op, ShuffleDeck):
            return [0]
        if isinstance(op, (ShuffleBy, ProveShuffle)):
            return [op.seat]
        if isinstance(op, Deal):
            return [s for s in everyone if s != op.to]
        if isinstance(op, Move):
            return [op.seat]
        if isinstance(op, (StealCard, StealOpen)):
            return [op.victim]
        if isinstance(op, ShowSlots):
            return [op.seat]
        if isinstance(op, Reveal):
            d = self.decks[op.deck]
            return [s for s in everyone if any(s not in d.keys[p] for p in op.positions)]
        if isinstance(op, Show):
            d = self.decks[op.deck]
            return [s for s in everyone if s != op.to and any(not d.knows_key(p, s, op.to) for p in op.positions)]
        return everyone

    def covered(self, op: Op, seat: int) -> list[int]:
        """The positions whose key ``seat`` must send in this step."""
        if isinstance(op, (Deal, Draw)):
            return list(op.positions)
        d = self.decks[op.deck]  # type: ignore[union-attr]
        if isinstance(op, Reveal):
            return [p for p in op.positions if seat not in d.keys[p]]
        if isinstance(op, Show):
            return [p for p in op.positions if not d.knows_key(p, seat, op.to)]
        raise LocalProtocolError(f"{type(op).__name__} carries no keys")

    def problem(self, op: Op) -> str | None:
        """Why ``op`` cannot be the next step (None if it can)."""
        if self.op is not None:
            return "a step is already under way"
        if isinstance(op, Hello):
            return None if self.index == 0 else "hello comes once, first"
        if self.index == 0:
            return "hello comes first"
        if self.audit is not None and not isinstance(op, Sync):
            return "the game is over: the decks were audited"
        if self.steal is not None and not isinstance(op, (StealPick, StealOpen)):
            return "a steal is under way: its pick and its opening come first"
        if isinstance(op, (Sync, Roll)):
            return None
        if isinstance(op, Move):
            return None if 0 <= op.seat < self.n else f"no seat {op.seat}"
        if isinstance(op, Pick):
            return None if 0 < op.k <= op.n <= dice.MAX_PICK_N else f"cannot pick {op.k} of {op.n}"
        if isinstance(op, ShuffleDeck):
            if op.spec.name in self.decks:
                return f"deck {op.spec.name} already exists"
            return None if len(self.decks) < MAX_DECKS else "too many decks"
        if isinstance(op, Audit):
            unready = [name for name, d in self.decks.items() if not d.ready]
            return f"decks not ready: {unready}" if unready else None
        if isinstance(op, (StealCard, StealPick, StealOpen, ShowSlots)):
            return self._steal_problem(op)
        deck_name = op.deck  # type: ignore[union-attr]
        d = self.decks.get(deck_name)
        if d is None:
            return f"no deck named {deck_name!r}"
        if isinstance(op, (ShuffleBy, Challenge, ProveShuffle)):
            return self._shuffle_problem(op, d)
        if isinstance(op, LockDeck):
            if len(d.shuffled) != self.n:
                return f"deck {deck_name} is not shuffled"
            return None if not d.locked else f"deck {deck_name} is already locked"
        if not d.ready:
            return f"deck {deck_name} is not ready"
        positions = op.positions  # type: ignore[union-attr]
        if not positions or len(set(positions)) != len(positions) or not all(0 <= p < d.size for p in positions):
            return "bad positions"
        if isinstance(op, (Deal, Draw)):
            if positions != tuple(range(d.cursor, d.cursor + len(positions))):
                return f"{deck_name}: the next cards are {d.cursor}.., not {positions}"
        handed = sorted(self.handed.get(deck_name, set()).intersection(positions))
        if handed:
            return f"{deck_name}: positions {handed} went into a hand in a steal: they are no deck's cards now"
        if isinstance(op, (Deal, Show)) and not 0 <= op.to < self.n:
            return f"no seat {op.to}"
        if not self.senders(op):
            return NOTHING_TO_SEND
        return None

    def _shuffle_problem(self, op: ShuffleBy | Challenge | ProveShuffle, d: PublicDeck) -> str | None:
        if not 0 <= op.seat < self.n:
            return f"no seat {op.seat}"
        if isinstance(op, ShuffleBy):
            if op.seat == 0 or d.candidate is not None or len(d.shuffled) != op.seat:
                return f"{d.name}: it is not seat {op.seat}'s turn to shuffle"
            return None
        if d.candidate is None or d.candidate[0] != op.seat:
            return f"{d.name}: seat {op.seat} has no shuffle awaiting its proof"
        if isinstance(op, Challenge):
            return None if d.challenge is None else f"{d.name}: the challenge is already fixed"
        return None if d.challenge is not None else f"{d.name}: the shuffle has no challenge yet"

    def _steal_problem(self, op: StealCard | StealPick | StealOpen | ShowSlots) -> str | None:
        if isinstance(op, ShowSlots):
            hand = self.hands.get(op.hand)
            if hand is None or not 0 <= op.seat < self.n:
                return f"no hidden cards of {op.hand} to show"
            gone = [h for h in op.slots if h not in hand.hidden(op.seat)]
            if gone:
                return f"{op.hand}: slots {gone} are not hidden cards of seat {op.seat} (spent, or stolen away)"
            return None
        if not (0 <= op.victim < self.n and 0 <= op.thief < self.n) or op.victim == op.thief:
            return f"seat {op.thief} cannot steal from seat {op.victim}"
        st = self.steal
        if isinstance(op, StealCard):
            if st is not None:
                return "a steal is already under way"
            hand = self.hands.get(op.hand)
            if hand is not None and hand.spec.cards != op.kinds:
                return f"{op.hand}: the card kinds are {hand.spec.cards}, not {op.kinds}"
            if hand is None:
                try:
                    decks.DeckSpec.of(op.hand, op.kinds)  # names and card kinds as a deck's
                except LocalProtocolError as exc:
                    return str(exc)
            if not 0 < len(op.slots) <= steal.MAX_HAND:
                return f"cannot steal from a hand of {len(op.slots)} cards"
            if any(type(e) is str and e not in op.kinds for e in op.slots):
                return f"{op.hand}: a card kind that is not one of {op.kinds}"
            hidden = hand.hidden(op.victim) if hand is not None else ()
            listed = [e for e in op.slots if type(e) is int]
            d = self.decks.get(op.hand)
            if d is not None:  # the hand of a hidden deck's cards: its dealt cards enter by position
                if op.kinds != d.spec.cards:
                    return f"{op.hand}: the deck's cards are {d.spec.cards}, not {op.kinds}"
                if any(type(e) is str for e in op.slots):
                    return f"{op.hand}: a hand of a hidden deck's cards holds no face-up card"
                taken = self.handed.get(op.hand, set())
                bad = [p for p in listed if p < d.size and (p not in d.dealt or p in d.public or p in taken)]
                if bad:
                    return f"{op.hand}: positions {bad} are not hidden cards dealt from the deck"
                listed = [e for e in listed if e >= d.size]
            if sorted(listed) != sorted(hidden):
                return f"{op.hand}: seat {op.victim} holds the hidden slots {list(hidden)}, not {listed}"
            return None
        if st is None or (st.hands.name, st.victim, st.thief) != (op.hand, op.victim, op.thief):
            return "no such steal under way"
        if isinstance(op, StealPick):
            return None if st.Z and st.pick is None else "the steal is not waiting for its pick"
        return None if st.pick is not None and st.delivered is None else "the steal is not waiting for its opening"

    def begin(self, op: Op) -> None:
        problem = self.problem(op)
        if problem is not None:
            raise LocalProtocolError(problem)
        if isinstance(op, ShuffleDeck):
            self.decks[op.spec.name] = PublicDeck(op.spec, self.n)
        if isinstance(op, StealCard):
            hand = self.hands.get(op.hand)
            d = self.decks.get(op.hand)
            if hand is None:
                hand = self.hands[op.hand] = steal.Hands(op.hand, op.kinds, self.n)
                if d is not None:
                    hand.next_handle = d.size  # the deck's positions are its cards' handles; fresh ones follow
                if self.viewer is not None:
                    self.hand_keys[op.hand] = steal.HandKeys(hand, self.viewer)
            if d is not None:
                self._take_from_deck(d, hand, op)
            hand.arrange(op.victim, op.slots)
            context = steal.steal_context(self.roster.game_id, self.basis, hand, op.victim, op.thief)
            self.steal = steal.begin(hand, op.victim, op.thief, context)
        self.op = op
        self.op_wire = to_wire(op, self.index)
        self._senders = self.senders(op)
        self.got = {}
        self._scratch = {}

    def _take_from_deck(self, d: PublicDeck, hand: steal.Hands, op: StealCard) -> None:
        """The victim's cards of hidden deck ``d`` enter the steal as hidden slots, under
        their positions: a dealt card's public point is ``k*P(card)``, ``k`` the product
        of every seat's key for its position, which only its holder knows."""
        positions = [e for e in op.slots if type(e) is int and e < d.size]
        keys = self.hand_keys.get(op.hand) if self.viewer == op.victim and self.master is not None else None
        own = decks.DeckSecrets(self.master, self.roster.game_id, d.spec) if keys is not None and positions else None
        for p in positions:
            hand.slots[p] = steal.Slot(d.final[p])
            hand.owner[p] = op.victim
            hand.held[op.victim].append(p)
            self.handed.setdefault(d.name, set()).add(p)
            if own is None or keys is None:
                continue
            material = {**d.keys[p], **self.private.get((d.name, p), {}), op.victim: own.key(p)}
            card = unlock(d, p, material) if len(material) == self.n else None
            if card is None:
                raise LocalProtocolError(f"seat {op.victim} does not know its card at {d.name} {p}")
            rho = 1
            for k in material.values():
                rho = rho * k % group.L
            keys.learn(p, card, rho)

    def pending(self) -> list[int]:
        """Seats whose message the current step still needs."""
        if self.op is None:
            return []
        return [s for s in self._senders if s not in self.got]

    def next_senders(self) -> list[int]:
        """Seats whose message may be accepted now (only one, in turn, for passes)."""
        rest = self.pending()
        return rest[:1] if isinstance(self.op, SEQUENTIAL) else rest

    # -- accepting messages ---------------------------------------------------------

    def check(self, env: Envelope, own: bool = False) -> Any:
        """Validate ``env`` against the current step.  Changes nothing."""
        if self.op is None:
            raise LocalProtocolError("no step under way")
        body = env.body
        if body["op"]["i"] != self.index:
            raise self.blame(env.sender, f"message for step {body['op']['i']}, but this is step {self.index}")
        if body["basis"] != self.basis:
            raise Divergence(
                f"{self.who(env.sender)}'s log differs from ours at step {self.index}: "
                "someone told different things to different seats",
                suspect=env.sender,
                evidence=(env.frame,),
            )
        if body["op"] != self.op_wire:
            raise self.blame(env.sender, f"message answers a different step than {self.op_wire['t']}")
        kind = KIND_OF[type(self.op)]
        if env.kind != kind:
            raise self.blame(env.sender, f"sent {env.kind!r} where {kind!r} was expected")
        if env.sender not in self.next_senders():
            raise self.blame(env.sender, f"{env.kind!r} message out of turn")
        return _STEPS[kind].check(self, env, own or self.trusted)

    def apply(self, env: Envelope, staged: Any) -> tuple[bool, Any]:
        kind = KIND_OF[type(self.op)]
        _STEPS[kind].apply(self, env, staged)
        self.got[env.sender] = env
        if self.pending():
            return False, None
        return True, self._complete(kind)

    def accept(self, env: Envelope, own: bool = False) -> tuple[bool, Any]:
        """Check then apply one message; returns (step finished, its result)."""
        staged = self.check(env, own)
        return self.apply(env, staged)

    def holds(self, env: Envelope) -> bool:
        """Is ``env`` the very message the step under way already holds from its sender?"""
        return self.op is not None and env.sender in self.got and self.got[env.sender].frame == env.frame

    def follow(self, env: Envelope, own: bool = False) -> tuple[bool, Any]:
        """Like ``accept``, but a new step is taken from the message itself."""
        if self.op is None:
            index, op = from_wire(env.body["op"])
            if index != self.index:
                raise self.blame(env.sender, f"message for step {index}, but this is step {self.index}")
            try:
                self.begin(op)
            except LocalProtocolError as exc:
                raise self.blame(env.sender, f"started an impossible step: {exc}") from None
        return self.accept(env, own)

    def _complete(self, kind: str) -> Any:
        result = _STEPS[kind].finish(self)
        frames = [self.got[s].frame for s in sorted(self.got)]
        self.log.append((self.op_wire or {}, frames))
        self.basis = next_hash(self.basis, self.op_wire or {}, frames)
        self.results.append(result)
        self.history.append(self.op)  # type: ignore[arg-type]
        self.index += 1
        self.op = None
        self.op_wire = None
        self.got = {}
        return result

    # -- the steps --------------------------------------------------------------------

    def _check_hello(self, env: Envelope, own: bool) -> Any:
        b = env.body
        if b["name"] != self.roster.names[env.sender]:
            raise self.blame(env.sender, "hello under a name that is not the roster's")
        try:
            group.check_group_point(b["box"])
        except GroupError:
            raise self.blame(env.sender, "hello with an unusable box key") from None
        return b["box"], dice.ChainState.committed(b["dice"], b["len"])

    def _apply_hello(self, env: Envelope, staged: Any) -> None:
        self.box[env.sender], self.chains[env.sender] = staged

    def _shuffled_deck(self) -> PublicDeck:
        op = self.op
        return self.decks[op.spec.name if isinstance(op, ShuffleDeck) else op.deck]  # type: ignore[union-attr]

    def _check_shuffle(self, env: Envelope, own: bool) -> Any:
        d = self._shuffled_deck()
        try:
            if own:
                E, pts = env.body["E"], group.split_points(env.body["pts"])
            else:
                E, pts = group.check_group_point(env.body["E"]), group.split_group_points(env.body["pts"])
        except GroupError as exc:
            raise self.blame(env.sender, f"shuffle of {d.name}: {exc}") from None
        if len(pts) != d.size:
            raise self.blame(env.sender, f"shuffle of {d.name} has {len(pts)} cards, not {d.size}")
        return E, pts

    def _apply_shuffle(self, env: Envelope, staged: Any) -> None:
        # Held aside until its proof is verified: nothing is built on it before.
        self._shuffled_deck().candidate = (env.sender, staged[0], staged[1], env.body["C"])

    def _check_open(self, env: Envelope, own: bool) -> Any:
        d = self.decks[self.op.deck]  # type: ignore[union-attr]
        assert d.candidate is not None and d.challenge is not None
        seat, E, pts, commitments = d.candidate
        if own:
            return None
        ctx = decks.shuffle_context(self.roster.game_id, seat, d.name, E)
        bad = decks.verify_shadows(
            ctx, d.spec, d.shuffle_input(seat), pts, E, commitments, d.challenge, env.body["f"], env.body["perms"]
        )
        if bad:
            raise self.blame(
                env.sender,
                f"shuffle of {d.name}: the proof fails ({len(bad)} of {len(d.challenge)} shadow shuffles, "
                f"first {bad[0]}); the shuffle is refused",
                (env.frame,),
            )
        return None

    def _apply_open(self, env: Envelope, staged: Any) -> None:
        d = self.decks[self.op.deck]  # type: ignore[union-attr]
        assert d.candidate is not None
        _, E, pts, _ = d.candidate
        d.E.append(E)
        d.shuffled.append(pts)
        d.candidate = None
        d.challenge = None

    def _check_lock(self, env: Envelope, own: bool) -> Any:
        d = self.decks[self.op.deck]  # type: ignore[union-attr]
        b = env.body
        msg = LockMessage(b["Y"], b["T"], b["R"], b["z"], b["zs"])
        X = d.lock_input(env.sender)
        if own:
            Y = group.split_points(msg.Y)
            if len(Y) != d.size:
                raise LocalProtocolError("own lock message has the wrong size")
            return Y
        ctx = decks.lock_context(self.roster.game_id, self.basis, env.sender, d.name, d.E[env.sender])
        Y, bad = decks.verify_lock(ctx, d.E[env.sender], X, msg)
        if not all(map(group.is_valid_point, Y)):
            raise self.blame(env.sender, f"lock of {d.name}: a point outside the prime-order group")
        if bad:
            where = "the whole proof" if -1 in bad else f"positions {bad[:8]}"
            raise self._deck_blame(d, env.sender, f"lock of {d.name}: proof fails ({where})")
        return Y

    def _apply_lock(self, env: Envelope, staged: Any) -> None:
        self.decks[self.op.deck].locked.append(staged)  # type: ignore[union-attr]

    def _deck_blame(
        self, d: PublicDeck, default: int, message: str, evidence: tuple[bytes, ...] = ()
    ) -> RemoteProtocolError:
        """Blame ``default`` -- unless an earlier seat slipped in a point outside the group."""
        culprit = decks.forensics(d)
        if culprit is not None and culprit != default:
            return self.blame(
                culprit, f"{d.name}: published a point outside the group (found while checking: {message})"
            )
        return self.blame(default, message, evidence)

    def _check_dice(self, env: Envelope, own: bool) -> Any:
        b = env.body
        if ("renew" in b) != ("len" in b):
            raise self.blame(env.sender, "dice renewal needs both a commitment and a length")
        renew = (b["renew"], b["len"]) if "renew" in b else None
        chain = self.chains[env.sender]
        assert chain is not None
        try:
            state = chain.after(b["v"], renew)
        except RemoteProtocolError as exc:
            raise self.blame(env.sender, exc.message) from None
        return state, b["v"]

    def _apply_dice(self, env: Envelope, staged: Any) -> None:
        self.chains[env.sender] = staged[0]
        self._scratch[env.sender] = staged[1]

    def _finish_dice(self) -> Any:
        values = [self._scratch[s] for s in range(self.n)]
        op = self.op
        if isinstance(op, Challenge):  # a beacon round for a proof, not a roll of the game
            bits = dice.bits(self.roster.game_id, self.index, f"shuffle:{op.deck}:{op.seat}", decks.SHADOWS, values)
            self.decks[op.deck].challenge = bits
            return bits
        if isinstance(op, StealPick):  # the steal's challenge and the slot it takes
            assert self.steal is not None
            return steal.draw(self.steal, self.roster.game_id, self.index, values)
        index = self.rolls
        self.rolls += 1
        if isinstance(op, Roll):
            return dice.roll(self.roster.game_id, index, op.purpose, op.sides, op.dice, values)
        assert isinstance(op, Pick)
        return dice.pick(self.roster.game_id, index, op.purpose, op.k, op.n, values)

    def _key_statement(self, env: Envelope, positions: list[int]) -> tuple[PublicDeck, bytes]:
        d = self.decks[self.op.deck]  # type: ignore[union-attr]
        ctx = decks.keys_context(self.roster.game_id, self.basis, env.sender, d.name, positions)
        return d, ctx

    def _verify_key_body(
        self, env: Envelope, body: Mapping[str, Any], own: bool, evidence: tuple[bytes, ...]
    ) -> dict[int, int]:
        positions = self.covered(self.op, env.sender)  # type: ignore[arg-type]
        d, ctx = self._key_statement(env, positions)
        msg = KeyMessage(body["k"], body["A"], body["As"], body["s"])
        if own:
            keys = group.split_scalars(msg.keys)
        else:
            checked = decks.verify_keys(
                ctx, msg, positions, d.E[env.sender], d.lock_input(env.sender), d.locked[env.sender]
            )
            if checked is None:
                raise self._deck_blame(
                    d, env.sender, f"{d.name}: wrong key or bad key proof for positions {positions}", evidence
                )
            keys = checked
        if len(keys) != len(positions):
            raise self.blame(env.sender, "wrong number of keys")
        return dict(zip(positions, keys, strict=True))

    def _check_keys(self, env: Envelope, own: bool) -> Any:
        return self._verify_key_body(env, env.body, own, (env.frame,))

    def _apply_keys(self, env: Envelope, staged: Any) -> None:
        d = self.decks[self.op.deck]  # type: ignore[union-attr]
        for pos, k in staged.items():
            d.keys[pos][env.sender] = k

    def _finish_keys(self) -> Any:
        op = self.op
        d = self.decks[op.deck]  # type: ignore[union-attr]
        if isinstance(op, Deal):
            d.cursor += len(op.positions)
            for p in op.positions:
                d.dealt[p] = op.to
            self.dealt += len(op.positions)
            return op.positions
        if isinstance(op, Draw):
            d.cursor += len(op.positions)
        out: dict[int, str | None] = {}
        for p in op.positions:  # type: ignore[union-attr]
            if p in d.public:
                out[p] = d.public[p]
                continue
            if len(d.keys[p]) < self.n:
                out[p] = None
                continue
            card = decks.unlock(d, p, d.keys[p])
            out[p] = card
            if card is None:
                self.anomalies.append(
                    Anomaly(d.name, p, f"{d.name}: position {p} does not hold a printed card", decks.forensics(d))
                )
                continue
            twin = next((q for q, c in d.public.items() if c == card), None)
            if twin is not None:
                self.anomalies.append(
                    Anomaly(d.name, p, f"{d.name}: {card} at both positions {twin} and {p}", decks.forensics(d))
                )
            d.public[p] = card
            self.revealed += 1
        # A card turned face up from the top of the deck has left it.
        while d.cursor < d.size and (d.cursor in d.public or d.cursor in d.dealt):
            d.cursor += 1
        return out

    def _check_sealed(self, env: Envelope, own: bool) -> Any:
        op = self.op
        assert isinstance(op, Show)
        if own:
            return None
        try:
            group.check_group_point(env.body["eph"])
        except GroupError as exc:
            raise self.blame(env.sender, f"private message with an unusable ephemeral key: {exc}") from None
        if env.body["eph"] in self.ephemerals:
            raise self.blame(env.sender, "private message under an ephemeral key used before in this game")
        if self.viewer != op.to:
            return None
        if self.boxes is None or self.box[env.sender] is None:  # pragma: no cover - hello always precedes
            raise LocalProtocolError("cannot open private messages")
        eph, boxes = env.body["eph"], self.boxes
        # If it fails to open, the evidence is the signed outer frame and this one
        # message's key with its proof: anyone can then check (seal.open_disclosed).
        try:
            inner = boxes.open(env.sender, op.to, env.seq, eph, env.body["ct"])
            if seal_digest(inner) != env.body["h"]:
                raise RemoteProtocolError("does not match its signed hash")
        except RemoteProtocolError as exc:
            dispute = (env.frame, boxes.disclose(eph))
            raise self.blame(env.sender, f"private message to {self.who(op.to)}: {exc.message}", dispute) from None
        return self.check_inner(env, inner)

    def check_inner(self, env: Envelope, inner: bytes) -> dict[int, int]:
        """The keys inside a private message (``inner``, opened from the sealed
        message ``env`` of the step under way, whose signed hash it matches),
        checked as its receiver checks them.  Anyone holding the pair can run
        this: it is how a receiver's evidence is checked by every other seat
        (``evidence.judge``)."""
        evidence = (env.frame, inner)  # the signed outer frame carries the inner frame's hash
        to = self.who(self.op.to)  # type: ignore[union-attr]
        try:
            inner_env = open_frame(
                inner, game_id=self.roster.game_id, keys=self.keyring, kinds=INNER_KINDS, label=INNER
            )
        except RemoteProtocolError as exc:
            raise self.blame(env.sender, f"private message to {to} is malformed: {exc.message}", evidence) from None
        b = inner_env.body
        if inner_env.sender != env.sender or inner_env.seq != env.seq:
            raise self.blame(env.sender, f"private message to {to} signed for another slot", evidence)
        if b["op"] != self.op_wire or b["basis"] != self.basis:
            raise self.blame(env.sender, f"private message to {to} answers another step", evidence)
        try:
            return self._verify_key_body(env, b, False, evidence)
        except RemoteProtocolError as exc:
            if exc.seat == env.sender:
                exc.message = f"private message to {to}: {exc.message}"
            raise

    def _apply_sealed(self, env: Envelope, staged: Any) -> None:
        op = self.op
        assert isinstance(op, Show)
        d = self.decks[op.deck]
        for p in self.covered(op, env.sender):
            d.shown[p].setdefault(op.to, set()).add(env.sender)
        if staged:
            for p, k in staged.items():
                self.private.setdefault((d.name, p), {})[env.sender] = k

    def _finish_show(self) -> Any:
        self.ephemerals.update(env.body["eph"] for env in self.got.values())
        return self.op.positions  # type: ignore[union-attr]

    def _check_audit(self, env: Envelope, own: bool) -> Any:
        entries = env.body["decks"]
        if [e["deck"] for e in entries] != list(self.decks):
            raise self.blame(env.sender, "audit does not cover exactly the decks of the game")
        disclosures: dict[str, Disclosure] = {}
        problems: list[tuple[int, str]] = []
        for entry in entries:
            d = self.decks[entry["deck"]]
            try:
                e = group.scalar_from_bytes(entry["e"])
                keys = group.split_scalars(entry["k"])
            except GroupError as exc:
                raise self.blame(env.sender, f"audit of {d.name}: {exc}") from None
            perm = list(entry["perm"])
            if len(perm) != d.size or len(keys) != d.size:
                raise self.blame(env.sender, f"audit of {d.name}: wrong sizes")
            disclosure = Disclosure(e, perm, keys)
            problem = decks.check_disclosure(d, env.sender, disclosure)
            if problem is not None:
                problems.append((env.sender, problem))
            else:
                disclosures[d.name] = disclosure
        mine = [i for i, r in enumerate(self.robbed) if r.victim == env.sender]
        entries = env.body.get("steals", [])
        if len(entries) != len(mine):
            raise self.blame(env.sender, f"audit discloses the orders of {len(entries)} steals, "
                                         f"not of the {len(mine)} it was robbed in")
        orders: dict[int, list[int]] = {}
        for i, entry in zip(mine, entries, strict=True):
            got = steal.check_audit_entry(self.robbed[i], entry)
            if isinstance(got, str):
                problems.append((env.sender, got))
            else:
                orders[i] = got
        return disclosures, problems, orders

    def _apply_audit(self, env: Envelope, staged: Any) -> None:
        self._scratch[env.sender] = staged

    def _finish_audit(self) -> Any:
        violations: list[tuple[int, str]] = []
        for s in range(self.n):
            violations.extend(self._scratch[s][1])
        orders: dict[str, tuple[str, ...]] = {}
        for name, d in self.decks.items():
            per_seat = {s: self._scratch[s][0].get(name) for s in range(self.n)}
            if any(v is None for v in per_seat.values()):
                continue
            cards, blame = decks.audit_deck(d, per_seat)  # type: ignore[arg-type]
            violations.extend(blame)
            if not blame:
                for p, card in d.public.items():
                    if cards[p] != card:  # pragma: no cover - a verified reveal always matches
                        violations.append((-1, f"{name}: position {p} was revealed as {card}, audit says {cards[p]}"))
                orders[name] = tuple(cards)
        disclosed = {i: perm for s in range(self.n) for i, perm in self._scratch[s][2].items()}
        self.audit = AuditOutcome(orders, tuple(violations), steal.slot_cards(self.robbed, disclosed, orders))
        return self.audit

    def _check_move(self, env: Envelope, own: bool) -> Any:
        move = tuple(env.body["move"])
        if type(move[0]) is not str:
            raise self.blame(env.sender, "a move starts with its verb")
        legal = self.op.legal  # type: ignore[union-attr]
        if legal and move not in legal:
            raise self.blame(env.sender, f"illegal move {' '.join(map(str, move))!r}: the rules do not allow it now")
        return move

    def _apply_move(self, env: Envelope, staged: Any) -> None:
        self._scratch[env.sender] = staged

    def _finish_move(self) -> Any:
        return self._scratch[self.op.seat]  # type: ignore[union-attr]

    def _check_steal(self, env: Envelope, own: bool) -> Any:
        assert self.steal is not None
        return steal.check_shuffle(self.steal, env.body, env.frame, own=own)

    def _apply_steal(self, env: Envelope, staged: Any) -> None:
        assert self.steal is not None
        steal.apply_shuffle(self.steal, staged)

    def _check_steal_open(self, env: Envelope, own: bool) -> Any:
        st = self.steal
        assert st is not None
        b = env.body
        delivered = (b["eph"], b["h"], b["ct"]) if own else steal.check_open(st, b, env.frame, self.ephemerals)
        if self.viewer != st.thief:  # the thief (never the sender) opens its card even in a log taken as checked
            return delivered, None
        assert self.boxes is not None
        return delivered, steal.receive(st, delivered, self.boxes, env.seq, env.frame)

    def _apply_steal_open(self, env: Envelope, staged: Any) -> None:
        assert self.steal is not None
        self.steal.delivered, self._scratch[env.sender] = staged

    def _finish_steal_open(self) -> Any:
        st = self.steal
        assert st is not None
        keys = self.hand_keys.get(st.hands.name)
        cards = [st.hands.slots[h].card for h in st.handles]
        result = steal.finish(st, keys, self.master)
        self.robbed.append(steal.robbery(st, cards, result))
        self.ephemerals.add(st.delivered[0])  # type: ignore[index]
        got = self._scratch.get(st.victim)
        if got is not None and keys is not None:
            keys.learn(result.taken, *got)
        self.steal = None
        return result

    def _check_show(self, env: Envelope, own: bool) -> Any:
        op = self.op
        assert isinstance(op, ShowSlots)
        if env.body["slots"] != list(op.slots):
            raise self.blame(env.sender, "shows other slots than the step names")
        hand = self.hands[op.hand]
        if own:
            return tuple(env.body["cards"])
        return steal.check_show(hand, op.seat, env.body, self.roster.game_id, self.basis, env.frame)

    def _apply_show(self, env: Envelope, staged: Any) -> None:
        op = self.op
        assert isinstance(op, ShowSlots)
        hand = self.hands[op.hand]
        steal.apply_show(hand, env.body)
        hand.spend(op.seat, op.slots)  # public now: the rules keep them from here
        self._scratch[env.sender] = staged

    def _finish_show_slots(self) -> Any:
        return self._scratch[self.op.seat]  # type: ignore[union-attr]

    def _check_sync(self, env: Envelope, own: bool) -> Any:
        return None

    def _apply_nothing(self, env: Envelope, staged: Any) -> None:
        return None

    def _finish_nothing(self) -> Any:
        return None


_STEPS: dict[str, _Step] = {
    "hello": _Step("hello", Ledger._check_hello, Ledger._apply_hello, Ledger._finish_nothing),
    "shuffle": _Step("shuffle", Ledger._check_shuffle, Ledger._apply_shuffle, Ledger._finish_nothing),
    "open": _Step("open", Ledger._check_open, Ledger._apply_open, Ledger._finish_nothing),
    "lock": _Step("lock", Ledger._check_lock, Ledger._apply_lock, Ledger._finish_nothing),
    "dice": _Step("dice", Ledger._check_dice, Ledger._apply_dice, Ledger._finish_dice),
    "keys": _Step("keys", Ledger._check_keys, Ledger._apply_keys, Ledger._finish_keys),
    "sealed": _Step("sealed", Ledger._check_sealed, Ledger._apply_sealed, Ledger._finish_show),
    "audit": _Step("audit", Ledger._check_audit, Ledger._apply_audit, Ledger._finish_audit),
    "move": _Step("move", Ledger._check_move, Ledger._apply_move, Ledger._finish_move),
    "sync": _Step("sync", Ledger._check_sync, Ledger._apply_nothing, Ledger._finish_nothing),
    "steal": _Step("steal", Ledger._check_steal, Ledger._apply_steal, Ledger._finish_nothing),
    "steal-open": _Step("steal-open", Ledger._check_steal_open, Ledger._apply_steal_open, Ledger._finish_steal_open),
    "show": _Step("show", Ledger._check_show, Ledger._apply_show, Ledger._finish_show_slots),
}
