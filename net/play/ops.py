"""The steps a table can be asked to take, and their wire descriptors.

The rules engine (the same on every machine) decides which step comes next;
every message of a step carries the step's descriptor, so a peer can check it
is answering the same question, and an offline verifier can follow a saved
game without the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..fair.deck import MAX_CARD_ID, MAX_DECK, DeckSpec
from ..fair.dice import MAX_PICK_N, PLAIN_SIDES
from ..wire.envelope import MAX_ARRAY
from ..wire.errors import RemoteProtocolError
from ..wire.schema import Const, Either, Int, List, Map, Str, Tagged
from ..fair.steal import MAX_HAND, MAX_SHOW

MAX_POSITIONS = 64
MAX_SIDES = 120  # faces of a die
MAX_DICE = 8  # dice in one roll
PURPOSE = Str(64)
DECK_NAME = Str(16, r"[a-z][a-z0-9-]{0,15}")


@dataclass(frozen=True)
class Hello:
    """Every seat publishes its name, its box key and its dice commitment."""


@dataclass(frozen=True)
class ShuffleDeck:
    """The shuffle pass of one deck, seat after seat, each shuffle proven.

    Requested once; a seat runs it as the steps ``shuffle_steps`` lists: this
    step itself is seat 0's shuffle (it names the deck and its cards), and
    every shuffle is followed by its challenge and its proof.
    """

    spec: DeckSpec


@dataclass(frozen=True)
class ShuffleBy:
    """Seat ``seat`` (after the first) shuffles the deck and commits to its shadow shuffles."""

    deck: str
    seat: int


@dataclass(frozen=True)
class Challenge:
    """A beacon round: every seat reveals a dice value; they fix the challenge bits
    of the shuffle ``seat`` has just committed to."""

    deck: str
    seat: int


@dataclass(frozen=True)
class ProveShuffle:
    """Seat ``seat`` opens its shadow shuffles as the challenge asks."""

    deck: str
    seat: int


@dataclass(frozen=True)
class LockDeck:
    """The locking pass of one deck, seat after seat."""

    deck: str


@dataclass(frozen=True)
class Roll:
    """``dice`` dice of ``sides`` faces for some purpose (e.g.
    "assassinate:the-shades").  A descriptor that names no dice is one die of
    ``PLAIN_SIDES`` faces, as the wire wrote every roll before it named them."""

    purpose: str
    sides: int = PLAIN_SIDES
    dice: int = 1


@dataclass(frozen=True)
class Pick:
    """k distinct indices of range(n), uniformly (a random card, the first player)."""

    k: int
    n: int
    purpose: str


@dataclass(frozen=True)
class Deal:
    """The next positions of a deck, secretly to one seat."""

    deck: str
    to: int
    positions: tuple[int, ...]


@dataclass(frozen=True)
class Draw:
    """The next positions of a deck, face up for everyone."""

    deck: str
    positions: tuple[int, ...]


@dataclass(frozen=True)
class Reveal:
    """Turn face up cards that are hidden from someone (a played card)."""

    deck: str
    positions: tuple[int, ...]


@dataclass(frozen=True)
class Show:
    """Let one seat see cards: a pass (gift, exchange, steal) or a look."""

    deck: str
    positions: tuple[int, ...]
    to: int


@dataclass(frozen=True)
class StealCard:
    """``thief`` takes one card at random from ``victim``'s hand of ``hand`` cards
    (``kinds``: the card kinds).  ``slots`` is the hand in the rules' order: a
    card kind for a public card, the handle of a hidden slot (from an earlier
    steal) otherwise.  Requested once; it runs as ``steal_steps``: this step is
    the victim's proven shuffle, then the pick, then the opening."""

    hand: str
    kinds: tuple[str, ...]
    victim: int
    thief: int
    slots: tuple[str | int, ...]


@dataclass(frozen=True)
class StealPick:
    """The beacon round of a steal: its proof's challenge and the slot taken."""

    hand: str
    victim: int
    thief: int


@dataclass(frozen=True)
class StealOpen:
    """The victim opens its shuffle's proof and seals the picked slot's key to the thief."""

    hand: str
    victim: int
    thief: int


@dataclass(frozen=True)
class ShowSlots:
    """``seat`` shows hidden slots of its ``hand`` to everyone, with proofs (to use them)."""

    hand: str
    seat: int
    slots: tuple[int, ...]


@dataclass(frozen=True)
class Move:
    """The deciding seat's decision: one option of the rules' pending decision.

    Only ``seat`` sends it.  ``legal`` is what the local rules engine allows
    (every seat checks the move against its own engine before applying it;
    the offline verifier, which has no engine here, passes nothing and replays
    the rules afterwards).  ``choice`` is the decision itself, known only to
    the deciding seat.  Neither travels in the step's descriptor.
    """

    seat: int
    legal: frozenset = field(default=frozenset(), compare=False, repr=False)
    choice: tuple | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Audit:
    """End of game: every seat discloses its shuffle secrets and keys."""


@dataclass(frozen=True)
class Sync:
    """Every seat states the hash of the log it accepted."""


Op = (
    Hello | ShuffleDeck | ShuffleBy | Challenge | ProveShuffle | LockDeck | Roll | Pick | Deal | Draw | Reveal | Show
    | Move | Audit | Sync | StealCard | StealPick | StealOpen | ShowSlots
)

KIND_OF = {
    Hello: "hello",
    ShuffleDeck: "shuffle",
    ShuffleBy: "shuffle",
    Challenge: "dice",
    ProveShuffle: "open",
    LockDeck: "lock",
    Roll: "dice",
    Pick: "dice",
    Deal: "keys",
    Draw: "keys",
    Reveal: "keys",
    Show: "sealed",
    Move: "move",
    Audit: "audit",
    Sync: "sync",
    StealCard: "steal",
    StealPick: "dice",
    StealOpen: "steal-open",
    ShowSlots: "show",
}

SEQUENTIAL = (ShuffleDeck, LockDeck)


def shuffle_steps(spec: DeckSpec, seats: int) -> list[Op]:
    """The steps of one proven shuffle pass: for each seat, shuffle, challenge, proof."""
    steps: list[Op] = [ShuffleDeck(spec)]
    for seat in range(seats):
        if seat:
            steps.append(ShuffleBy(spec.name, seat))
        steps += [Challenge(spec.name, seat), ProveShuffle(spec.name, seat)]
    return steps


def steal_steps(op: StealCard) -> list[Op]:
    """The steps of one steal: the victim's shuffle, the pick, the opening."""
    return [op, StealPick(op.hand, op.victim, op.thief), StealOpen(op.hand, op.victim, op.thief)]


def describe(op: Op) -> str:
    name = type(op).__name__.lower()
    if isinstance(op, (ShuffleDeck,)):
        return f"{name} {op.spec.name}"
    if isinstance(op, (ShuffleBy, Challenge, ProveShuffle)):
        return f"{name} {op.deck} (seat {op.seat})"
    if isinstance(op, (LockDeck, Deal, Draw, Reveal, Show)):
        return f"{name} {op.deck}"
    if isinstance(op, (Roll, Pick)):
        return f"{name} ({op.purpose})"
    if isinstance(op, Move):
        return f"move of seat {op.seat}"
    if isinstance(op, (StealCard, StealPick, StealOpen)):
        return f"{name} {op.hand} (seat {op.thief} from seat {op.victim})"
    if isinstance(op, ShowSlots):
        return f"{name} {op.hand} (seat {op.seat})"
    return name


def to_wire(op: Op, index: int) -> dict[str, Any]:
    if isinstance(op, Hello):
        return {"i": index, "t": "hello"}
    if isinstance(op, ShuffleDeck):
        return {"i": index, "t": "shuffle", "deck": op.spec.name, "segs": op.spec.to_wire()}
    if isinstance(op, ShuffleBy):
        return {"i": index, "t": "reshuffle", "deck": op.deck, "seat": op.seat}
    if isinstance(op, Challenge):
        return {"i": index, "t": "challenge", "deck": op.deck, "seat": op.seat}
    if isinstance(op, ProveShuffle):
        return {"i": index, "t": "prove", "deck": op.deck, "seat": op.seat}
    if isinstance(op, LockDeck):
        return {"i": index, "t": "lock", "deck": op.deck}
    if isinstance(op, Roll):
        if (op.sides, op.dice) == (PLAIN_SIDES, 1):
            return {"i": index, "t": "roll", "why": op.purpose}
        return {"i": index, "t": "roll", "why": op.purpose, "sides": op.sides, "n": op.dice}
    if isinstance(op, Pick):
        return {"i": index, "t": "pick", "k": op.k, "n": op.n, "why": op.purpose}
    if isinstance(op, Deal):
        return {"i": index, "t": "deal", "deck": op.deck, "to": op.to, "pos": list(op.positions)}
    if isinstance(op, Draw):
        return {"i": index, "t": "draw", "deck": op.deck, "pos": list(op.positions)}
    if isinstance(op, Reveal):
        return {"i": index, "t": "reveal", "deck": op.deck, "pos": list(op.positions)}
    if isinstance(op, Show):
        return {"i": index, "t": "show", "deck": op.deck, "to": op.to, "pos": list(op.positions)}
    if isinstance(op, Move):
        return {"i": index, "t": "move", "seat": op.seat}
    if isinstance(op, Audit):
        return {"i": index, "t": "audit"}
    if isinstance(op, Sync):
        return {"i": index, "t": "sync"}
    if isinstance(op, StealCard):
        return {"i": index, "t": "steal", "hand": op.hand, "kinds": list(op.kinds), "from": op.victim, "to": op.thief,
                "slots": list(op.slots)}
    if isinstance(op, (StealPick, StealOpen)):
        t = "steal-pick" if isinstance(op, StealPick) else "steal-open"
        return {"i": index, "t": t, "hand": op.hand, "from": op.victim, "to": op.thief}
    if isinstance(op, ShowSlots):
        return {"i": index, "t": "show-slots", "hand": op.hand, "seat": op.seat, "slots": list(op.slots)}
    raise TypeError(f"not an op: {op!r}")


_INDEX = Int(0, 2**32 - 1)
_SEAT = Int(0, 7)
_POSITIONS = List(Int(0, MAX_DECK - 1), MAX_POSITIONS, min_len=1, unique=True)
_CARD = Str(MAX_CARD_ID)
_HANDLE = Int(0, 2**32 - 1)

OP_SCHEMA = Tagged(
    "t",
    {
        "hello": Map({"i": _INDEX, "t": Const("hello")}),
        "shuffle": Map(
            {
                "i": _INDEX,
                "t": Const("shuffle"),
                "deck": DECK_NAME,
                "segs": List(List(_CARD, MAX_ARRAY, min_len=1), 8, min_len=1),
            }
        ),
        "reshuffle": Map({"i": _INDEX, "t": Const("reshuffle"), "deck": DECK_NAME, "seat": _SEAT}),
        "challenge": Map({"i": _INDEX, "t": Const("challenge"), "deck": DECK_NAME, "seat": _SEAT}),
        "prove": Map({"i": _INDEX, "t": Const("prove"), "deck": DECK_NAME, "seat": _SEAT}),
        "lock": Map({"i": _INDEX, "t": Const("lock"), "deck": DECK_NAME}),
        "roll": Map({"i": _INDEX, "t": Const("roll"), "why": PURPOSE},
                    optional={"sides": Int(2, MAX_SIDES), "n": Int(1, MAX_DICE)}),
        "pick": Map(
            {"i": _INDEX, "t": Const("pick"), "k": Int(1, MAX_PICK_N), "n": Int(1, MAX_PICK_N), "why": PURPOSE}
        ),
        "deal": Map({"i": _INDEX, "t": Const("deal"), "deck": DECK_NAME, "to": _SEAT, "pos": _POSITIONS}),
        "draw": Map({"i": _INDEX, "t": Const("draw"), "deck": DECK_NAME, "pos": _POSITIONS}),
        "reveal": Map({"i": _INDEX, "t": Const("reveal"), "deck": DECK_NAME, "pos": _POSITIONS}),
        "show": Map({"i": _INDEX, "t": Const("show"), "deck": DECK_NAME, "to": _SEAT, "pos": _POSITIONS}),
        "move": Map({"i": _INDEX, "t": Const("move"), "seat": _SEAT}),
        "audit": Map({"i": _INDEX, "t": Const("audit")}),
        "sync": Map({"i": _INDEX, "t": Const("sync")}),
        "steal": Map(
            {
                "i": _INDEX, "t": Const("steal"), "hand": DECK_NAME,
                "kinds": List(_CARD, 16, min_len=1, unique=True), "from": _SEAT, "to": _SEAT,
                "slots": List(Either(_HANDLE, Str(MAX_CARD_ID)), MAX_HAND, min_len=1),
            }
        ),
        "steal-pick": Map({"i": _INDEX, "t": Const("steal-pick"), "hand": DECK_NAME, "from": _SEAT, "to": _SEAT}),
        "steal-open": Map({"i": _INDEX, "t": Const("steal-open"), "hand": DECK_NAME, "from": _SEAT, "to": _SEAT}),
        "show-slots": Map(
            {"i": _INDEX, "t": Const("show-slots"), "hand": DECK_NAME, "seat": _SEAT,
             "slots": List(_HANDLE, MAX_SHOW, min_len=1, unique=True)}
        ),
    },
)


def from_wire(d: dict[str, Any]) -> tuple[int, Op]:
    """Parse an (already schema-checked) descriptor.  Raises RemoteProtocolError."""
    t, index = d["t"], d["i"]
    if t == "hello":
        return index, Hello()
    if t == "shuffle":
        try:
            spec = DeckSpec(d["deck"], tuple(tuple(seg) for seg in d["segs"]))
        except Exception as exc:  # DeckSpec raises LocalProtocolError for bad input
            raise RemoteProtocolError(f"bad deck definition: {exc}") from None
        return index, ShuffleDeck(spec)
    if t == "reshuffle":
        return index, ShuffleBy(d["deck"], d["seat"])
    if t == "challenge":
        return index, Challenge(d["deck"], d["seat"])
    if t == "prove":
        return index, ProveShuffle(d["deck"], d["seat"])
    if t == "lock":
        return index, LockDeck(d["deck"])
    if t == "roll":
        return index, Roll(d["why"], d.get("sides", PLAIN_SIDES), d.get("n", 1))
    if t == "pick":
        return index, Pick(d["k"], d["n"], d["why"])
    if t == "deal":
        return index, Deal(d["deck"], d["to"], tuple(d["pos"]))
    if t == "draw":
        return index, Draw(d["deck"], tuple(d["pos"]))
    if t == "reveal":
        return index, Reveal(d["deck"], tuple(d["pos"]))
    if t == "show":
        return index, Show(d["deck"], tuple(d["pos"]), d["to"])
    if t == "move":
        return index, Move(d["seat"])
    if t == "audit":
        return index, Audit()
    if t == "sync":
        return index, Sync()
    if t == "steal":
        return index, StealCard(d["hand"], tuple(d["kinds"]), d["from"], d["to"], tuple(d["slots"]))
    if t == "steal-pick":
        return index, StealPick(d["hand"], d["from"], d["to"])
    if t == "steal-open":
        return index, StealOpen(d["hand"], d["from"], d["to"])
    if t == "show-slots":
        return index, ShowSlots(d["hand"], d["seat"], tuple(d["slots"]))
    raise RemoteProtocolError(f"unknown step {t!r}")  # pragma: no cover - schema rejects it first
