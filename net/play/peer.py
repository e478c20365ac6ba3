"""One seat's whole game as a sans-I/O object: its own rules engine driven by
its own :class:`~ankh.net.play.seat.SeatProtocol`.

Nobody at the table is trusted, so every seat runs the rules itself.  The
engine says what happens next; a request of the rules (deal, reveal, pass,
look, roll, pick, steal) becomes a protocol step that every seat runs; a decision
with more than one option becomes a ``move`` step that only the deciding
seat answers, and that every other seat checks against its own engine before
applying it (an illegal move is refused and pinned on its signer).  Every
decision is a move, even one with a single option: how many options a seat
has can depend on what only it knows (its personality, its hand), so the
others cannot tell a forced move from a choice.

The same driver follows a finished log instead of a live protocol
(:func:`replay`): that is how a crashed seat resumes, and how ``ankh verify``
replays the rules of a saved game over its cryptography.

Bytes go in through :meth:`GamePeer.receive` and out through
:meth:`GamePeer.data_to_send`; what a person or a bot must decide, and what
happened, come out as events.  No sockets, no clock.

Handles and positions coincide: a player card's handle in the rules engine
is its position in the shuffled deck (0 = top), and likewise for the
personality and event decks.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ankh.core.game import (
    DealCard, Decision, Event, Game, IllegalAction, PassCard, PickRandom, Reveal, RollDie, RulesError, ShowCards,
    StealRandom, UnknownGame, allows, forced, get, space_of,
)

from ..fair.deck import DeckSpec, unlock
from ..wire.errors import Divergence, LocalProtocolError, ProtocolError, RemoteProtocolError
from ..fair.evidence import proven
from ..fair.kept import Kept
from ..wire.envelope import HEADER_LEN, Envelope, open_frame, unpack_strict
from .leave import Ending, check_votes
from .ledger import BODIES, NOTHING_TO_SEND, AuditOutcome, Ledger
from .ops import (
    SEQUENTIAL, Audit, Deal, Hello, LockDeck, Move, Op, Pick, Roll, Show, ShowSlots, ShuffleDeck, StealCard, Sync,
    from_wire, shuffle_steps, steal_steps, to_wire,
)
from .ops import Reveal as RevealOp
from .seat import Alarm, CardSeen, SeatProtocol, StepDone
from ..files.transcript import DEFAULT_KIND, Roster


class LegalMoves(frozenset):
    """A decision's legal moves as a set (its options) that also holds every
    move its space allows: what a networked seat checks a move against."""
    space: Any

    def __new__(cls, decision: Decision) -> "LegalMoves":
        moves = super().__new__(cls, decision.options)
        moves.space = space_of(decision)
        return moves

    def __contains__(self, option: object) -> bool:
        try:
            if frozenset.__contains__(self, option):
                return True
        except TypeError:       # not even hashable: no move
            return False
        return self.space is not None and bool(self.space.allows(option))


# -- what a peer tells its owner --------------------------------------------------------

@dataclass(frozen=True)
class Logged:
    """A public happening of the rules (the game log)."""
    event: Event


@dataclass(frozen=True)
class YourMove:
    """This seat must decide (a person or a bot answers with :meth:`GamePeer.choose`)."""
    decision: Decision


@dataclass(frozen=True)
class Moved:
    """A seat's move was applied (``seat`` decided ``option``); ``index`` counts
    the game's moves from 0, the same on every seat."""
    seat: int
    option: tuple
    index: int


@dataclass(frozen=True)
class GameOver:
    """The rules say the game is over; the audit follows (until it passes the result is provisional)."""
    outcome: Any


@dataclass(frozen=True)
class Audited:
    """The end-of-game audit finished: ``outcome.fair`` or its violations."""
    outcome: AuditOutcome


@dataclass(frozen=True)
class Finished:
    """Every seat signed the final log hash: the game and its record are complete."""
    final_hash: bytes


def game_of(kind: str) -> Game:
    """The game a roster names; a game this install does not know is the other
    side's mistake (or a newer program), said plainly."""
    try:
        return get(kind)
    except UnknownGame:
        raise RemoteProtocolError(f"the table plays a game this program does not know ({kind!r})") from None


def deck_specs(players: int, kind: str = DEFAULT_KIND) -> list[DeckSpec]:
    """The game's hidden decks as the protocol shuffles them.  A card's handle
    in the rules engine is its position in the shuffled deck (0 = top)."""
    return [DeckSpec(d.name, tuple(tuple(seg) for seg in d.segments)) for d in game_of(kind).decks(players)]


SETUP = "setup"
PLAY = "play"
AUDIT = "audit"
FINAL = "final"
DONE = "done"


class Driver:
    """Walks the rules engine through the protocol's steps.

    ``run(op)`` is called for each step the engine needs; it returns the
    step's result at once when it is already known (a replayed log) or None
    when the answer will come later through :meth:`step_done`.  Subclasses
    say where results come from and what this seat knows of hidden cards.
    """

    def __init__(self, players: int, viewer: int | None, kind: str = DEFAULT_KIND):
        self.players = players
        self.viewer = viewer
        self.game = game_of(kind)
        self.engine: Any = self.game.new_state(players)
        self.specs: list[DeckSpec] = deck_specs(players, kind)
        self.phase = SETUP
        self.steps = 0  # protocol steps the driver has consumed
        self.moves = 0  # moves applied (the next move's index)
        self.events: list[Any] = []
        self._setup = self._setup_ops()
        self._waiting: tuple[Any, Op] | None = None  # (what the engine asked, the step run for it)
        self.audit: AuditOutcome | None = None
        self.cheat: RemoteProtocolError | None = None  # a lie about a hidden card, found after the audit
        self.final_hash: bytes | None = None
        self._log: Iterator[bytes] = iter(())  # saved frames still to follow (resuming, replaying)
        # The rules' handle of a card that a steal moved -> its slot in the ledger's hand
        # of the deck's name (a dealt card's slot is its position, the same number).
        self._slots: dict[tuple[str, int], int] = {}
        # The card each steal this seat took part in moved, by the rules' handle it went
        # under (the thief's and the victim's to know; for the screen, not the rules).
        self.stolen: dict[int, Any] = {}
        #: Called with the rules' state and the events after each move or answer (a tally of the figures).
        self.watch: Callable[[Any, list[Any]], None] | None = None

    def _follow(self, frame: bytes) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _next_frame(self) -> bytes | None:
        return next(self._log, None)

    def _substeps(self, op: Op) -> list[Op]:
        """The protocol steps that one step of the driver is (a proven shuffle is several)."""
        if isinstance(op, ShuffleDeck):
            return shuffle_steps(op.spec, self.players)
        return steal_steps(op) if isinstance(op, StealCard) else [op]

    def _expect_step(self) -> None:
        """Where this reader follows the log (a replay, a spectator) and no step is
        under way, the one the rules ask next is begun, so that a frame handed on
        as evidence is checked against it, as a seat checks it: one that answers
        another step (a steal over another hand, say) names its signer."""
        L = self.ledger()
        if self.viewer is not None or L.op is not None or self._waiting is None:
            return  # a seat begins its steps itself, through its protocol
        subs = self._substeps(self._waiting[1])
        k = L.index - self.steps
        if 0 <= k < len(subs) and not isinstance(subs[k], Move):
            L.begin(subs[k])

    def _replayed(self, op: Op) -> int:
        """How many of ``op``'s protocol steps the saved log holds (followed just far enough)."""
        L = self.ledger()
        need = self.steps + len(self._substeps(op))
        while L.index < need:
            frame = self._next_frame()
            if frame is None:
                break
            self._follow(frame)
        return max(0, min(L.index, need) - self.steps)

    def _logged_result(self, op: Op) -> Any:
        L = self.ledger()
        subs = self._substeps(op)
        for k, sub in enumerate(subs):
            wire = to_wire(sub, self.steps + k)
            logged = L.log[self.steps + k][0]
            if logged != wire:
                if isinstance(op, Move):
                    raise RemoteProtocolError(f"step {self.steps}: a move where the rules ask for something else",
                                              seat=op.seat, who=L.who(op.seat))
                raise LocalProtocolError(f"step {self.steps + k}: the log has {logged['t']} "
                                         f"where the rules ask for {wire['t']}")
        return L.results[self.steps + len(subs) - 1]

    # -- to be provided ------------------------------------------------------------

    def run(self, op: Op) -> tuple[bool, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def ledger(self) -> Ledger:  # pragma: no cover - abstract
        raise NotImplementedError

    def known(self, deck: str, position: int) -> str | None:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- the walk --------------------------------------------------------------------

    def _setup_ops(self) -> list[Op]:
        ops: list[Op] = [Hello()]
        for spec in self.specs:
            ops += [ShuffleDeck(spec), LockDeck(spec.name)]
        return ops + [Sync()]

    def pump(self, *, until_move: bool = False) -> list[Any]:
        """Go as far as possible without outside input; returns the events.
        With ``until_move``, stop after a move is applied (this seat's own,
        with one option: it can go out before this seat goes on)."""
        moves = self.moves
        while self._waiting is None and self.phase != DONE:
            if not self._next() or (until_move and self.moves != moves):
                break
        return self._take()

    def _take(self) -> list[Any]:
        out, self.events = self.events, []
        return out

    def _next(self) -> bool:
        """One step of the walk; False when it must wait for a person or bot."""
        if self.phase == SETUP:
            op = self._setup.pop(0)
            self._start(None, op)
            if not self._setup and self._waiting is None:
                self.phase = PLAY
            return True
        if self.phase == AUDIT:
            self._start("audit", Audit())
            return True
        if self.phase == FINAL:
            self._start("final", Sync())
            return True
        s = self.engine
        if s.outcome is not None:
            self.events.append(GameOver(s.outcome))
            self.phase = AUDIT
            return True
        p = s.pending
        if isinstance(p, Decision):
            if p.seat == self.viewer:
                return self._own_decision(p)
            self._start(p, Move(p.seat, LegalMoves(p)))
            return True
        op, answer = self._op_for(p)
        if op is None:
            self._fulfil(answer)
        elif self._skipped(p):
            self._fulfil(self._from_audit(p))
        else:
            self._start(p, op)
        return True

    def _own_decision(self, decision: Decision) -> bool:
        self.events.append(YourMove(decision))
        return False

    def _start(self, why: Any, op: Op) -> None:
        self._waiting = (why, op)
        known, result = self.run(op)
        if known:
            self.step_done(op, result)

    def step_done(self, op: Op, result: Any) -> None:
        """The step run for the engine finished with ``result``."""
        if self._waiting is None or self._waiting[1] != op:
            raise LocalProtocolError(f"a step finished that the rules did not ask for: {op!r}")
        why, _ = self._waiting
        self._waiting = None
        self.steps += len(self._substeps(op))
        if why is None:  # a setup step
            if not self._setup:
                self.phase = PLAY
            return
        if why == "audit":
            self.audit = result = self._audited(result)
            self.events.append(Audited(result))
            self.phase = FINAL
            return
        if why == "final":
            self.final_hash = self.ledger().basis
            self.events.append(Finished(self.final_hash))
            self.phase = DONE
            return
        if isinstance(why, Decision):
            option = tuple(result)
            if not allows(why, option):
                raise self._illegal(why, option)
            self._apply_move(why, option)
            return
        self._fulfil(self._answer(why, op, result))

    def _illegal(self, decision: Decision, option: tuple) -> RemoteProtocolError:
        """The move just taken is not among the rules' options: its signed frame is the evidence."""
        L = self.ledger()
        return L.blame(decision.seat, f"illegal move {' '.join(map(str, option))!r}: the rules do not allow it now",
                       tuple(L.log[self.steps - 1][1][:1]))

    def judge(self, evidence: Sequence[bytes]) -> RemoteProtocolError | None:
        """What evidence handed on by the seat that caught a cheat proves here
        (None when it proves nothing here): a pair is checked against this
        seat's log (``evidence.proven``); a single frame is taken like any
        message, when this seat is at its step, and refused if it breaks a
        rule.  A hash that differs from ours proves nothing on its own (the
        log it was signed over is not ours), and neither does a message of a
        pass taken in turn, which may come before its turn here."""
        L = self.ledger()
        if len(evidence) != 1:
            return proven(L.roster, (f for _, frames in L.log for f in frames), evidence)
        frame = evidence[0]
        try:  # a frame its signer did not sign proves nothing against it
            env = open_frame(frame, game_id=L.roster.game_id, keys=L.keyring, kinds=BODIES)
            index, op = from_wire(env.body["op"])
            basis = env.body["basis"]
        except (ProtocolError, KeyError, TypeError, IndexError):
            return None
        if isinstance(index, int) and 0 <= index < len(L.log):
            # a step this log is past: a frame of its signer there that is not the one we hold
            # under its number proves it signed two (a spectator a cheat's own watch point served
            # holds the cheat's own story, and the host hands on the frame it was sent instead)
            for held in L.log[index][1]:
                twin = proven(L.roster, (), [held, frame]) if held != frame else None
                if twin is not None:
                    return twin
            return None
        if index != L.index or basis != L.basis or isinstance(op, SEQUENTIAL):
            return None
        if L.holds(env):
            return None  # a message this step already holds, handed on again: its signer did nothing twice
        try:
            self._expect_step()
            self._take_evidence(frame)
        except Divergence:
            return None
        except RemoteProtocolError as exc:
            return exc if exc.seat is not None else None
        except (LocalProtocolError, _EndOfLog):
            return None
        return None

    def _take_evidence(self, frame: bytes) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _go_on(self) -> list[Any]:
        """Carry on with the frames that came since the walk stopped for want of them."""
        if self._waiting is not None:
            why, op = self._waiting
            if self._skipped(why):
                self._waiting = None
                self._fulfil(self._from_audit(why))
            elif self._replayed(op) == len(self._substeps(op)):
                self.step_done(op, self._logged_result(op))
        return self.pump()

    # -- logs written before a step was added to the rules -------------------------------

    def _skipped(self, req: Any) -> bool:
        """Whether the saved log goes straight on to its audit where the rules ask
        ``req``, a step the game added after the log was written
        (:meth:`Game.added_step`): the log is of that older form."""
        if not isinstance(req, Reveal) or not self.game.added_step(self.engine, req):
            return False
        self._replayed(Audit())  # the log, followed just far enough to see its next step whole
        L = self.ledger()
        return L.index > self.steps and L.log[self.steps][0] == to_wire(Audit(), self.steps)

    def _from_audit(self, req: Reveal) -> tuple:
        """The cards of a reveal that an older log skipped: what this seat knows of
        them, else what the log's audit disclosed."""
        L = self.ledger()
        order = L.audit.decks.get(req.deck, ()) if L.audit is not None else ()
        ids = tuple(self.known(req.deck, h) or (order[h] if h < len(order) else None) for h in req.handles)
        if None in ids:
            raise LocalProtocolError(f"the log goes on to its audit without revealing {req.deck} cards "
                                     f"{list(req.handles)}, and no audit shows them")
        return ids

    def _audited(self, audit: AuditOutcome) -> AuditOutcome:
        """The audit disclosed every deck's order: the rules are replayed once more
        with every card known, so that a move that lied about a hidden card (one
        only a card nobody else saw made illegal) is named like any other broken
        rule."""
        L = self.ledger()
        if audit.violations or set(audit.decks) != set(L.decks):
            return audit
        cards = {name: dict(enumerate(order)) for name, order in audit.decks.items()}
        self.cheat = illegal_move(L.roster, (f for _, frames in L.log for f in frames), cards,
                                  "every card known after the audit", audit.slots)
        if self.cheat is None:
            return audit
        return AuditOutcome(audit.decks, ((self.cheat.seat, str(self.cheat)),), audit.slots)

    def _apply_move(self, decision: Decision, option: tuple) -> None:
        events = self.engine.choose(option)
        if self.watch is not None:
            self.watch(self.engine, events)
        self.events.append(Moved(decision.seat, option, self.moves))
        self.moves += 1
        self.events += [Logged(e) for e in events]

    def _fulfil(self, answer: Any) -> None:
        try:
            events = self.engine.fulfil(answer)
        except RulesError as exc:
            raise self._refused(exc) from None
        if self.watch is not None:
            self.watch(self.engine, events)
        self.events += [Logged(e) for e in events]

    def _refused(self, exc: RulesError) -> ProtocolError:
        """The rules refuse a card the table turned up: a move before it relied on
        a lie about that card (a claim its holder made while the card was
        hidden).  The rules are replayed with every public card known from the
        start, and the first move they refuse is the lie; its signer is blamed,
        its signed frame the evidence.  Cards shown from a hand of face-up
        cards' hidden slots (proven: they are what the seat holds) that do not
        pay for what the seat claimed it would pay: the rules name the seat
        (``IllegalAction.seat``), which is blamed, its last move the evidence."""
        L = self.ledger()
        cards = {name: dict(d.public) for name, d in L.decks.items()}
        liar = illegal_move(L.roster, (f for _, frames in L.log for f in frames), cards,
                            "the cards turned up since")
        if liar is not None:
            return liar
        seat = getattr(exc, "seat", None)
        if seat is not None and 0 <= seat < L.n:
            moves = [frames[0] for wire, frames in L.log if wire.get("t") == "move" and wire.get("seat") == seat]
            return L.blame(seat, f"its cards, shown, do not pay for its move: {exc}", tuple(moves[-1:]))
        return LocalProtocolError(f"the rules refused the table's answer: {exc}")

    # -- requests of the rules as protocol steps ----------------------------------------

    def _op_for(self, req: Any) -> tuple[Op | None, Any]:
        """The step that answers ``req``, or (None, the answer) when no message is needed."""
        L = self.ledger()
        if isinstance(req, RollDie):
            return Roll(req.purpose, req.sides, req.dice), None
        if isinstance(req, PickRandom):
            return Pick(req.k, len(req.items), req.purpose), None
        if isinstance(req, DealCard):
            start = L.deck(req.deck).cursor
            positions = tuple(range(start, start + len(req.handles)))
            if positions != tuple(req.handles):
                raise LocalProtocolError(f"the rules deal {req.handles}, the deck is at {positions}")
            return Deal(req.deck, req.seat, positions), None
        if isinstance(req, StealRandom):
            return self._steal_op(req), None
        if any((req.deck, h) in self._slots for h in ((req.handle,) if isinstance(req, PassCard) else req.handles)):
            return self._moved_op(req)
        if isinstance(req, Reveal):
            op = RevealOp(req.deck, tuple(req.handles))
            if L.problem(op) == NOTHING_TO_SEND:  # every key is public already
                d = L.deck(req.deck)
                return None, tuple(d.public.get(h) or unlock(d, h, d.keys[h]) for h in req.handles)
            return op, None
        if isinstance(req, (PassCard, ShowCards)):
            deck, handles, to = ((req.deck, (req.handle,), req.receiver) if isinstance(req, PassCard)
                                 else (req.deck, tuple(req.handles), req.seat))
            op = Show(deck, handles, to)
            if L.problem(op) == NOTHING_TO_SEND:
                return None, self._shown(req)
            return op, None
        raise LocalProtocolError(f"unknown request of the rules: {req!r}")

    def _steal_op(self, req: StealRandom) -> StealCard:
        """A steal runs as the protocol's random steal, over the hand named as the deck:
        the victim's dealt cards by their positions, the cards stolen before by their slots,
        and in a hand of face-up cards its public cards by kind."""
        L = self.ledger()
        kinds = self.game.face_up.get(req.deck)
        if kinds is not None:
            if len(req.hand) + len(req.cards) != len(req.handles):
                raise LocalProtocolError("the rules steal from a hand of face-up cards without naming every card")
            try:
                slots = tuple(kinds[c] for c in req.cards) + tuple(self._slots[(req.deck, h)] for h in req.hand)
            except (KeyError, IndexError, TypeError):
                raise LocalProtocolError(f"the rules steal {req!r}: a card no steal made, or no card kind") from None
            return StealCard(req.deck, kinds, req.victim, req.thief, slots)
        if req.deck not in L.decks:
            raise LocalProtocolError(f"a steal from {req.deck!r}, which is no deck and no hand of face-up cards")
        if len(req.hand) != len(req.handles):
            raise LocalProtocolError("the rules steal without naming the victim's cards by their handles (hand): "
                                     "a networked table cannot know them")
        return StealCard(req.deck, L.deck(req.deck).spec.cards, req.victim, req.thief,
                         tuple(self._slots.get((req.deck, h), h) for h in req.hand))

    def _moved_op(self, req: Any) -> tuple[Op | None, Any]:
        """Cards a steal moved: their holder looks at them (it knows them: no step), or
        shows them to everybody (its proof of what each is)."""
        try:
            slots = tuple(self._slots[(req.deck, h)] for h in req.handles)
        except (KeyError, AttributeError):
            raise LocalProtocolError(f"the rules ask {req!r}: cards of a steal and of the deck at once, "
                                     "or a card of a steal passed") from None
        L = self.ledger()
        owners = {L.hands[req.deck].owner.get(h) for h in slots}
        if len(owners) != 1 or None in owners:
            raise LocalProtocolError(f"the rules ask {req!r}: no one seat holds those cards")
        (owner,) = owners
        if isinstance(req, ShowCards) and req.seat == owner:
            return None, tuple(self._card_id(req.deck, self._slot_card(req.deck, h, owner)) for h in slots)
        if not isinstance(req, Reveal):
            raise LocalProtocolError(f"the rules ask {req!r}: a card of a steal is shown to everybody or to no one")
        return ShowSlots(req.deck, owner, slots), None

    def _stolen(self, req: StealRandom, result: Any) -> tuple:
        """The answer to a steal from its result (``steal.Stolen``): the slots made, in
        the victim's new order, are the rules' ``handles``; the thief and the victim
        know the card taken.  From a hand of face-up cards the victim's rules are not
        told it (its seat knows it, ``lost``): they judge the thief's moves by what
        every other seat knows of its hand, since a move only the victim could see
        through is refused by nobody else until the card is shown."""
        made = sorted((*result.kept, result.taken))  # handed out in the new order
        for h in req.hand:
            self._slots.pop((req.deck, h), None)
        self._slots.update(((req.deck, f), h) for f, h in zip(req.handles, made))
        handle = req.handles[made.index(result.taken)]
        if result.lost is not None:  # the victim's side
            self.stolen[handle] = self._card_id(req.deck, result.lost[1])
            # a face-up hand: the victim's rules are not told which kind went (its ledger
            # knows), or they would judge the thief's hand tighter than the other seats do
            card = result.lost[1] if req.deck not in self.game.face_up else None
        else:
            card = self._slot_card(req.deck, result.taken, req.thief)
            if card is not None:
                self.stolen[handle] = self._card_id(req.deck, card)
        return handle, self._card_id(req.deck, card)

    def _card_id(self, hand: str, card: str | None) -> Any:
        """A card of a hand as the rules name it: its kind's index in a hand of face-up cards."""
        kinds = self.game.face_up.get(hand)
        return card if kinds is None or card is None else kinds.index(card)

    def _slot_card(self, deck: str, slot: int, holder: int) -> str | None:
        """The card of a slot that ``holder`` holds, as far as this driver knows it:
        a seat knows its own slots' cards."""
        keys = self.ledger().hand_keys.get(deck)
        return keys.card(slot) if keys is not None and self.viewer == holder else None

    def _shown(self, req: Any) -> Any:
        if isinstance(req, PassCard):
            return self.known(req.deck, req.handle)
        return tuple(self.known(req.deck, h) for h in req.handles)

    def _answer(self, req: Any, op: Op, result: Any) -> Any:
        if isinstance(req, RollDie):
            return result
        if isinstance(req, StealRandom):
            return self._stolen(req, result)
        if isinstance(op, ShowSlots):
            for h in req.handles:
                del self._slots[(req.deck, h)]
            return tuple(self._card_id(req.deck, c) for c in result)
        if isinstance(req, PickRandom):
            return tuple(req.items[i] for i in result)
        if isinstance(req, DealCard):
            return tuple(self.known(req.deck, h) for h in req.handles)
        if isinstance(req, Reveal):
            return tuple(result[h] for h in req.handles)
        return self._shown(req)


class GamePeer(Driver):
    """A live seat: the engine's steps run through this seat's protocol."""

    def __init__(self, protocol: SeatProtocol):
        super().__init__(protocol.roster.size, protocol.seat, protocol.roster.kind)
        self.protocol = protocol
        self.me = protocol.seat
        self.alarms: list[RemoteProtocolError] = []
        self._decision: Decision | None = None
        # what a frame handed on as evidence led to, when it was an honest frame of
        # the step under way and so taken into the game (``judge``): its caller shows it
        self.taken: list[Any] = []

    @classmethod
    def resume(cls, protocol: SeatProtocol, frames: Iterable[bytes]) -> GamePeer:
        """A fresh seat (``protocol``) that follows its saved log (``frames``, whole
        steps, in log order) with its engine, and carries on from where it ends."""
        peer = cls(protocol)
        peer._log = iter(frames)
        peer.pump()
        if next(peer._log, None) is not None:
            raise LocalProtocolError("the saved log goes on past what the rules asked")
        return peer

    def _follow(self, frame: bytes) -> None:
        self.protocol.follow_frame(frame)

    def _take_evidence(self, frame: bytes) -> None:
        relay = self.protocol.relay
        seq = unpack_strict(frame[HEADER_LEN:])["seq"]
        if frame[0] < self.protocol.roster.size and seq > self.protocol.have()[frame[0]]:
            return  # frames of its signer are missing here: nothing to say yet
        self.taken += self.receive(frame, via=relay if relay is not None and relay >= 0 else frame[0])

    def ledger(self) -> Ledger:
        return self.protocol.ledger

    def known(self, deck: str, position: int) -> str | None:
        return self.protocol.card(deck, position)

    def run(self, op: Op) -> tuple[bool, Any]:
        subs = self._substeps(op)
        done = self._replayed(op)
        if done == len(subs):  # already in the saved log (a resumed seat)
            return True, self._logged_result(op)
        if self.protocol.ledger.op is not None:
            raise LocalProtocolError("the saved log ends in the middle of a step")
        events: list[Any] = []
        for sub in ([op] if done == 0 else subs[done:]):  # a shuffle cut short goes on where it stopped
            events += self.protocol.request(sub)
        self._events_from(events)
        return False, None

    def _own_decision(self, decision: Decision) -> bool:
        if self._replayed(Move(self.me)):  # our move is in the saved log already (resumed)
            self._start(decision, Move(self.me, LegalMoves(decision)))
            return True
        if forced(decision):  # nothing to decide, but the others cannot know that
            self._start(decision, Move(self.me, LegalMoves(decision), decision.options[0]))
            return True
        if self._decision != decision:
            self._decision = decision
            self.events.append(YourMove(decision))
        return False

    # -- the owner's side ----------------------------------------------------------------

    @property
    def decision(self) -> Decision | None:
        """The decision this seat must make now, if any."""
        p = self.engine.pending
        if self._waiting is None and self.phase == PLAY and isinstance(p, Decision) and p.seat == self.me \
                and not forced(p):
            return p
        return None

    def choose(self, option: tuple, *, pump: bool = True) -> list[Any]:
        """This seat's decision: published as a signed move, applied when accepted.

        With ``pump`` False it stops there, so that the move can go out before
        this seat works on what follows: :meth:`pump` goes on."""
        d = self.decision
        if d is None:
            raise IllegalAction("it is not this seat's decision now")
        option = tuple(option)
        if not allows(d, option):
            raise IllegalAction(f"{option!r} is not among the options")
        self._decision = None
        self._start(d, Move(self.me, LegalMoves(d), option))
        return self.pump() if pump else self._take()

    def start(self) -> list[Any]:
        """Begin (or carry on after a resume): run every step that needs no outside input."""
        return self.pump()

    def receive(self, frame: bytes, *, via: int, pump: bool = True) -> list[Any]:
        """A frame from the link to seat ``via``.  Raises RemoteProtocolError naming the seat at fault.

        With ``pump`` False it stops once the frame is taken (and a move it
        completes is checked and applied), so that it can be passed on before
        this seat works on what follows: :meth:`pump` goes on."""
        self._events_from(self.protocol.receive(frame, via=via))
        return self.pump() if pump else self._take()

    def data_to_send(self) -> list[bytes]:
        return self.protocol.data_to_send()

    def waiting_for(self) -> tuple[int, ...]:
        """Seats holding the game up (whose message the current step still needs)."""
        if self.decision is not None:
            return (self.me,)
        return self.protocol.waiting_for()

    def stop(self) -> tuple[int, bytes]:
        """Where the game stands in the log: the step under way (or next) and
        the hash of every step before it (what a vote to end the table signs)."""
        L = self.protocol.ledger
        return L.index, L.basis

    @property
    def outcome(self) -> Any:
        return self.engine.outcome

    def _events_from(self, events: Sequence[Any]) -> None:
        for e in events:
            if isinstance(e, StepDone):
                subs = self._substeps(self._waiting[1]) if self._waiting is not None else []
                if subs and e.op == subs[-1]:
                    self.step_done(self._waiting[1], e.result)  # type: ignore[index]
                elif e.op in subs:
                    continue  # a step within a proven shuffle
                else:
                    raise LocalProtocolError(f"step {e.index} ({e.op!r}) finished that the rules did not ask for")
            elif isinstance(e, Alarm):
                self.alarms.append(e.error)
                raise e.error
            elif isinstance(e, CardSeen):
                continue


class LogReplay(Driver):
    """The rules replayed over a saved log, with public information only."""

    def __init__(self, roster: Roster, frames: Iterable[bytes]):
        super().__init__(roster.size, None, roster.kind)
        self._ledger = Ledger(roster)
        self._log = iter(frames)
        self.history: list[Any] = []  # the events of the replay (see :func:`replay`)

    def ledger(self) -> Ledger:
        return self._ledger

    def _follow(self, frame: bytes) -> None:
        L = self._ledger
        L.follow(open_frame(frame, game_id=L.roster.game_id, keys=L.keyring, kinds=BODIES))

    def known(self, deck: str, position: int) -> str | None:
        return self._ledger.deck(deck).public.get(position)

    def run(self, op: Op) -> tuple[bool, Any]:
        if self._replayed(op) < len(self._substeps(op)):
            raise _EndOfLog()
        return True, self._logged_result(op)

    def _take_evidence(self, frame: bytes) -> None:
        self._log = iter([frame])
        self._go_on()


class _EndOfLog(Exception):
    pass


class Spectator(Driver):
    """A spectator's game: the rules followed live over the public log, with no
    key and no vote.  Frames come in whole steps, in log order (:meth:`feed`),
    each checked as any seat checks it; the engine knows only public cards."""

    def __init__(self, roster: Roster):
        super().__init__(roster.size, None, roster.kind)
        self._ledger = Ledger(roster)
        self._queue: deque[bytes] = deque()

    def ledger(self) -> Ledger:
        return self._ledger

    def _next_frame(self) -> bytes | None:
        return self._queue.popleft() if self._queue else None

    def _follow(self, frame: bytes) -> None:
        L = self._ledger
        env = open_frame(frame, game_id=L.roster.game_id, keys=L.keyring, kinds=BODIES)
        if L.holds(env) or self._logged(env):
            return  # handed on as evidence before its step came whole: taken once
        L.follow(env)

    def _logged(self, env: Envelope) -> bool:
        """Is ``env`` a message of a step done (one whose only message came first as evidence)?"""
        i, L = env.body["op"]["i"], self._ledger
        return 0 <= i < L.index and env.frame in L.log[i][1]

    def known(self, deck: str, position: int) -> str | None:
        return self._ledger.deck(deck).public.get(position)

    def run(self, op: Op) -> tuple[bool, Any]:
        if self._replayed(op) < len(self._substeps(op)):
            raise _EndOfLog()
        return True, self._logged_result(op)

    def _take_evidence(self, frame: bytes) -> None:
        self._queue.append(frame)
        self._go_on()

    def feed(self, frames: Iterable[bytes]) -> list[Any]:
        """More of the log (followed as the rules reach it).  Raises
        RemoteProtocolError naming the seat at fault."""
        self._queue.extend(frames)
        try:
            return self._go_on()
        except _EndOfLog:
            out, self.events = self.events, []
            return out

    def ending(self, votes: Iterable[bytes], bots: Iterable[int] = ()) -> Ending:
        """The table's end by agreement, its votes checked against the log
        followed, as ``ankh verify`` checks them, and with the host's ``bots``
        one voice with the host, as the seats count them (RemoteProtocolError
        if they do not hold)."""
        L = self._ledger
        return check_votes(L.roster, votes, step=L.index, basis=L.basis, waited=waited_at_stop(L, self), bots=bots)

    def waiting_for(self) -> tuple[int, ...]:
        """Seats the log followed waits for where it stands: those the step under
        way still needs (its frames a watch point handed on when the table
        stopped: :meth:`feed`), or all who answer the step the rules ask next."""
        return waited_for(self) or ()

    @property
    def steps_followed(self) -> int:
        """Whole steps received (followed or waiting to be): where to pick up after a reconnect."""
        return self._ledger.index + (0 if not self._queue else self._steps_queued())

    def _steps_queued(self) -> int:
        # Frames arrive in whole steps; count them by their step indexes.
        indexes = {unpack_strict(f[HEADER_LEN:])["body"]["op"]["i"] for f in self._queue}
        return len(indexes)


class _Seeing(LogReplay):
    """The rules replayed over a log this process has already checked in full
    (no proof is verified again), with the engine knowing the cards in
    ``cards`` from the start; it stops where the game ends."""

    def __init__(self, roster: Roster, frames: Iterable[bytes], cards: Mapping[str, Mapping[int, str]], seen: str,
                 slots: Mapping[str, Mapping[int, str]]):
        super().__init__(roster, frames)
        self._ledger = Ledger(roster, trusted=True)
        self.cards = cards
        self.slots = slots
        self.seen = seen

    def known(self, deck: str, position: int) -> str | None:
        return self.cards.get(deck, {}).get(position) or self._ledger.deck(deck).public.get(position)

    def _slot_card(self, deck: str, slot: int, holder: int) -> str | None:
        return self.slots.get(deck, {}).get(slot)

    def run(self, op: Op) -> tuple[bool, Any]:
        if isinstance(op, Audit):
            raise _EndOfLog()
        return super().run(op)

    def _illegal(self, decision: Decision, option: tuple) -> RemoteProtocolError:
        error = super()._illegal(decision, option)
        error.message = (f"illegal move {' '.join(map(str, option))!r} at move {self.moves + 1}: the rules do not "
                         f"allow it with the cards as they were ({self.seen})")
        return error

    def _refused(self, exc: RulesError) -> ProtocolError:
        return LocalProtocolError(f"the rules refused the table's answer: {exc}")


def illegal_move(roster: Roster, frames: Iterable[bytes], cards: Mapping[str, Mapping[int, str]],
                 seen: str, slots: Mapping[str, Mapping[int, str]] | None = None) -> RemoteProtocolError | None:
    """The first move of a checked log that the rules refuse once they know the
    cards in ``cards`` (deck -> position -> card) from the start, and the card
    of each slot a steal made in ``slots`` (hand -> handle -> card) from the
    steal on, as its signer's fault; None if every move holds.  ``seen`` says
    in words what made the cards known.

    A log already replayed in this process gets its first answer again (every
    seat of a simulated table, its spectators and the transcript's check replay
    the same log after its audit): the answer is a function of exactly the
    inputs it is kept under, and of the group (``fair.kept``)."""
    frames = list(frames)
    slots = slots or {}

    def find() -> RemoteProtocolError | None:
        r = _Seeing(roster, frames, cards, seen, slots)
        try:
            r.pump()
        except RemoteProtocolError as exc:
            return exc
        except (_EndOfLog, LocalProtocolError):
            pass
        return None

    inputs = (repr(roster).encode(), seen.encode(), repr(sorted((d, sorted(c.items())) for d, c in cards.items())).encode(),
              repr(sorted((h, sorted(c.items())) for h, c in slots.items())).encode(), *frames)
    return _REPLAYED.answer(inputs, find)


_REPLAYED: Kept[RemoteProtocolError | None] = Kept(16)  # the logs replayed with every card known, oldest first


def replay(roster: Roster, frames: Iterable[bytes], watch: Callable[[Any, list[Any]], None] | None = None
           ) -> LogReplay:
    """Replay the rules over a saved log as far as it goes (``watch``: see
    :attr:`Driver.watch`).  Raises
    RemoteProtocolError for an illegal move or a bad message (naming its
    seat) and LocalProtocolError where the log and the rules disagree."""
    r = LogReplay(roster, frames)
    r.watch = watch
    try:
        r.history = r.pump()
    except _EndOfLog:
        r.history, r.events = r.events, []
    return r


__all__ = ["GamePeer", "LogReplay", "Spectator", "replay", "describe_outcome", "Logged", "YourMove", "Moved", "GameOver",
           "Audited", "Finished"]


def waited_at_stop(ledger: Ledger, r: Driver | None) -> tuple[int, ...] | None:
    """The seats a log that stops where ``ledger`` stands waits for (what votes
    to end the table there may name as gone): none in the end-of-game audit
    (nobody leaves it: a seat that withholds its part forfeits);
    those the step under way still needs; else, with the rules followed (``r``),
    all who answer the step they ask next (none when the game is over); None
    when that is not known."""
    if isinstance(ledger.op, Audit) or (r is not None and r.phase == AUDIT):
        return ()   # (a follower of whole steps holds no audit under way: its rules say it is there)
    if ledger.op is not None:
        return tuple(ledger.pending())
    if r is not None:
        return waited_for(r) or ()
    return None


def waited_for(r: Driver) -> tuple[int, ...] | None:
    """The seats the replayed log ``r`` waits for where it ends: those the step
    under way still needs, or all who answer the step the rules ask for next
    (None when the rules ask for nothing more)."""
    L = r.ledger()
    if L.op is not None:
        return tuple(L.pending())
    if r._waiting is None:
        return None
    subs, k = r._substeps(r._waiting[1]), L.index - r.steps  # (a shuffle and a steal are several steps)
    return tuple(L.senders(subs[k] if 0 <= k < len(subs) else r._waiting[1]))


def describe_outcome(outcome: Any, kind: str = DEFAULT_KIND) -> str:
    """The result in words that are the same on every seat (colours, not "you"),
    as the game words it."""
    return game_of(kind).describe_outcome(outcome)
