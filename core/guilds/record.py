"""Records of the guild variant: setup lines, an optional position, chance
lines and moves (format in docs/guilds.md, styled on docs/record.md).  This
module turns text into values and back, and a state into a position."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..game import COLOURS, Line, RecordError, read_record, record_seat, record_seats
from ..registry import GUILDS
from .board import (
    BANK_START, DEV_IDS, FOUNDATIONS, HOUSES, LABORATORY, RESOURCES, R_INDEX, SPOT_INDEX,
    SPOT_IDS, TRACK, TRACK_BIT, VILLAS, V_INDEX, VERTEX_IDS, is_guard,
)
from .state import CAPTAIN, EMPTY, FOUNDATION, HOUSE, NO_RANK, RANK_NAMES, VILLA

MAGIC = "# ankh record 1"
GAME_ID = GUILDS.id
PIECE_KEYS = {"foundations": FOUNDATION, "houses": HOUSE, "villas": VILLA}
LIMITS = {FOUNDATION: FOUNDATIONS, HOUSE: HOUSES, VILLA: VILLAS}


@dataclass
class Fixed:
    first: int | None = None
    dev: list[str] = field(default_factory=list)      # the top of the development stack
    rolls: list[tuple[int, ...]] = field(default_factory=list)  # (d1, d2) or (d,) in order


@dataclass
class Position:
    """A position at the start of a seat's turn (replaces setup)."""
    turn: int | None = None           # whose turn it is: the game starts at its phase A
    turn_number: int = 0              # turns already played
    first: int = 0
    pieces: dict[int, tuple[int, int]] = field(default_factory=dict)   # vertex -> (seat, piece)
    hands: dict[int, list[int]] = field(default_factory=dict)          # seat -> 5 counts
    parchments: dict[int, int] = field(default_factory=dict)
    gp: dict[int, list[int]] = field(default_factory=dict)
    presidents: dict[int, int] = field(default_factory=dict)           # guild -> seat
    locked: list[int] = field(default_factory=list)
    receipts: dict[int, int] = field(default_factory=dict)
    tokens: dict[int, list[str]] = field(default_factory=dict)         # hidden dev tokens held
    guards: dict[int, int] = field(default_factory=dict)               # uncovered face-up guards
    arrests: dict[int, int] = field(default_factory=dict)
    ranks: dict[int, int] = field(default_factory=dict)
    vetinari: dict[int, int] = field(default_factory=dict)             # shown Vetinari tokens
    used: list[str] = field(default_factory=list)                      # dev tokens out of the stack, played
    robber: int | None = None
    fire: bool = False
    track: list[int] | None = None

    def is_empty(self) -> bool:
        return self.turn is None

    def dev_out(self) -> list[str]:
        """The development tokens out of the stack, top first: the seats'
        hidden tokens (in seat order), the used guards, then the shown Vetinari
        tokens (the lowest ids not named)."""
        held = [c for p in sorted(self.tokens) for c in self.tokens[p]]
        named = set(held) | set(self.used)
        shown = sum(self.vetinari.values())
        vets = [c for c in DEV_IDS if not is_guard(c) and c not in named][:shown]
        return held + list(self.used) + vets

    def apply(self, s) -> None:
        """Set up ``s`` (a blank state) as this position."""
        n = s.players
        s.first = self.first
        s.active = self.turn
        s.turn = self.turn_number
        for v, (p, piece) in self.pieces.items():
            s.occ[v] = p * 3 + piece
            s.sup[p * 3 + piece] -= 1
        for p, counts in self.hands.items():
            for r in range(5):
                s.res[p * 5 + r] = counts[r]
                s.bank[r] -= counts[r]
        for p, k in self.parchments.items():
            s.parch[p] = k
        for p, pts in self.gp.items():
            s.gp[p * 5:p * 5 + 5] = pts
        for g, p in self.presidents.items():
            s.pres[g] = p
        for g in self.locked:
            s.lock[g] = True
        for p, k in self.receipts.items():
            s.rcpt[p] = k
        order = self.dev_out()
        h = 0
        for p in range(n):
            for _ in self.tokens.get(p, ()):
                s.dev[p] = s.dev[p] + (h,)
                h += 1
        s.dcard[:len(order)] = order
        s.dtop = len(order)
        for p, k in self.guards.items():
            s.gup[p] = k
        for p, k in self.arrests.items():
            s.arrests[p] = k
        for p, k in self.ranks.items():
            s.rank[p] = k
        for p, k in self.vetinari.items():
            s.vshown[p] = k
        if self.robber is not None:
            s.robber = self.robber
        s.fire = self.fire
        if self.track is not None:
            s.track = sum(TRACK_BIT[t] for t in self.track)


@dataclass
class Record:
    players: int = 4
    seed: int = 0
    fixed: Fixed = field(default_factory=Fixed)
    position: Position = field(default_factory=Position)
    lines: list[Line] = field(default_factory=list)
    seats: dict[int, str] = field(default_factory=dict)
    game: str = GAME_ID

    def to_text(self) -> str:
        return format_record(self)


# --- reading ----------------------------------------------------------------------------------

def _int(word: str, n: int, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise RecordError(n, f"{what} must be a whole number, not {word!r}") from None


def _resource(word: str, n: int) -> int:
    if word not in R_INDEX:
        raise RecordError(n, f"{word!r} is not a resource ({', '.join(RESOURCES)})")
    return R_INDEX[word]


def _counts(words: list[str], n: int) -> list[int]:
    """``2 brick 1 ore`` (or ``none``) as five counts."""
    out = [0] * 5
    if words == ["none"]:
        return out
    if len(words) % 2:
        raise RecordError(n, "expected pairs 'COUNT RESOURCE', e.g. '2 brick 1 ore'")
    for i in range(0, len(words), 2):
        k = _int(words[i], n, "a count")
        if k < 0:
            raise RecordError(n, "counts cannot be negative")
        out[_resource(words[i + 1], n)] += k
    return out


def _roll(word: str, n: int) -> tuple[int, ...]:
    parts = word.split("+")
    dice = tuple(_int(x, n, "a die") for x in parts)
    if len(dice) > 2 or any(not 1 <= d <= 6 for d in dice):
        raise RecordError(n, f"{word!r}: a roll is D1+D2 (two dice) or D (one die), each 1 to 6")
    return dice


def parse_record(text: str) -> Record:
    """Read a record; raises :class:`RecordError` naming the offending line."""
    rec = Record()
    rec.players, setup, lines = read_record(text, GAME_ID, "the guild game", GUILDS.seats)
    rec.lines = one_move_offers(lines)
    checks = _Checks(rec)
    for n, key, value in setup:
        _setup_line(rec, n, key, value)
        checks.line(n, key)
    checks.done()
    return rec


def one_move_offers(lines: list[Line]) -> list[Line]:
    """Records written before an offer was one move composed it in four
    (``trade``, ``give 2 wool``, ``want 1 ore``, ``to red``), or took it back
    at once (``trade``, ``cancel``): read as the one move it is now (an offer
    taken back before it was made is no move)."""
    out: list[Line] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        words = [w.text.lower().split() for w in lines[i:i + 4]]
        same = [w.who == line.who for w in lines[i:i + 4]]
        if words[0] == ["trade"] and len(words) > 1 and same[1] and words[1] == ["cancel"]:
            i += 2
            continue
        if (words[0] == ["trade"] and len(words) == 4 and all(same)
                and words[1][:1] == ["give"] and words[2][:1] == ["want"] and words[3][:1] == ["to"]):
            to = " ".join(words[3][1:])
            out.append(Line(line.number, line.who, f"offer {' '.join(words[1][1:])} for "
                                                   f"{' '.join(words[2][1:])} to {to}"))
            i += 4
            continue
        out.append(line)
        i += 1
    return out


def _setup_line(rec: Record, n: int, key: str, value: str) -> None:
    words = value.split()
    head, _, arg = key.partition(" ")
    pos = rec.position
    P = rec.players
    if key == "seed":
        rec.seed = _int(value, n, "seed")
    elif key == "seats":
        rec.seats = record_seats(value, P, n)
    elif key == "first":
        rec.fixed.first = pos.first = record_seat(value, P, n)
    elif key == "dev":
        rec.fixed.dev = words
    elif key == "rolls":
        rec.fixed.rolls = [_roll(w, n) for w in words]
    elif key == "turn":
        pos.turn = record_seat(value, P, n)
    elif key == "turn-number":
        pos.turn_number = _int(value, n, "turn-number")
    elif head in PIECE_KEYS:
        seat = record_seat(arg, P, n)
        for w in words:
            if w not in V_INDEX:
                raise RecordError(n, f"{w!r} is not a vertex (V00..V43)")
            v = V_INDEX[w]
            if v in pos.pieces:
                raise RecordError(n, f"{w} already holds a piece")
            pos.pieces[v] = (seat, PIECE_KEYS[head])
    elif head == "hand":
        pos.hands[record_seat(arg, P, n)] = _counts(words, n)
    elif head == "parchments":
        pos.parchments[record_seat(arg, P, n)] = _int(value, n, "parchments")
    elif head == "gp":
        pos.gp[record_seat(arg, P, n)] = _counts(words, n)
    elif head == "guild":
        g = _resource(arg, n)
        for w in words:
            if w.startswith("president="):
                pos.presidents[g] = record_seat(w[10:], P, n)
            elif w == "locked":
                pos.locked.append(g)
            else:
                raise RecordError(n, f"{w!r}: expected president=COLOUR or locked")
    elif head == "receipts":
        k = _int(value, n, "receipts")
        if not 0 <= k <= 2:
            raise RecordError(n, "a seat has 0, 1 or 2 receipts face up")
        pos.receipts[record_seat(arg, P, n)] = k
    elif head == "tokens":
        pos.tokens[record_seat(arg, P, n)] = [] if words == ["none"] else words
    elif key == "used":
        pos.used = words
    elif head in ("guards", "arrests", "vetinari"):
        seat = record_seat(arg, P, n)
        getattr(pos, head)[seat] = _int(value, n, head)
    elif head == "rank":
        if value not in ("captain", "lieutenant"):
            raise RecordError(n, "a rank is captain or lieutenant")
        pos.ranks[record_seat(arg, P, n)] = RANK_NAMES.index(value)
    elif key == "robber":
        if value not in SPOT_INDEX:
            raise RecordError(n, f"{value!r} is not a robber spot (a token such as GRAIN:6, or SHADES)")
        if SPOT_INDEX[value] == LABORATORY:
            raise RecordError(n, "the robber never stands on the Laboratory")
        pos.robber = SPOT_INDEX[value]
    elif key == "fire":
        if value not in ("yes", "no"):
            raise RecordError(n, "fire: yes or no")
        pos.fire = value == "yes"
    elif key == "track":
        spaces = [] if words == ["none"] else [_int(w, n, "a track space") for w in words]
        for t in spaces:
            if t not in TRACK:
                raise RecordError(n, f"{t} is not a space of the assassin track")
        if len(set(spaces)) != len(spaces):
            raise RecordError(n, "a track space is named twice")
        pos.track = spaces
    else:
        raise RecordError(n, f"unknown setup line {key!r}")


POSITION_KEYS = ("turn", "turn-number", "foundations", "houses", "villas", "hand", "parchments",
                 "gp", "guild", "receipts", "tokens", "used", "guards", "arrests", "vetinari",
                 "rank", "robber", "fire", "track")


class _Checks:
    """Whole-record checks; each error names the line that makes it impossible."""

    def __init__(self, rec: Record):
        self.rec = rec
        self.last: dict[str, int] = {}
        self.dev_line: dict[str, int] = {}
        self.first_position = 0

    def line(self, n: int, key: str) -> None:
        head = key.partition(" ")[0]
        self.last[head] = n
        self.last[key] = n
        if head in POSITION_KEYS and not self.first_position:
            self.first_position = n
        pos = self.rec.position
        if head in ("tokens", "used", "dev"):
            ids = {"tokens": lambda: pos.tokens[COLOURS.index(key.partition(' ')[2])],
                   "used": lambda: pos.used, "dev": lambda: self.rec.fixed.dev}[head]()
            for cid in ids:
                if cid not in DEV_IDS:
                    raise RecordError(n, f"{cid!r} is not a development token")
                if cid in self.dev_line:
                    where = "this line" if self.dev_line[cid] == n else f"line {self.dev_line[cid]}"
                    raise RecordError(n, f"{cid} is named twice (also on {where})")
                self.dev_line[cid] = n
        if head == "used":
            for cid in pos.used:
                if not is_guard(cid):
                    raise RecordError(n, "only guards are out of the stack face up (shown "
                                         "Vetinari tokens are counted with 'vetinari COLOUR: N')")
        if head in PIECE_KEYS:
            seat = COLOURS.index(key.partition(" ")[2])
            piece = PIECE_KEYS[head]
            k = sum(1 for p, x in pos.pieces.values() if p == seat and x == piece)
            if k > LIMITS[piece]:
                raise RecordError(n, f"{COLOURS[seat]} has only {LIMITS[piece]} {head}")
        if head == "hand":
            for r in range(5):
                if sum(h[r] for h in pos.hands.values()) > BANK_START:
                    raise RecordError(n, f"there are only {BANK_START} {RESOURCES[r]} cards")

    def done(self) -> None:
        pos = self.rec.position
        if self.first_position and pos.turn is None:
            raise RecordError(self.first_position, "a position needs 'turn: COLOUR' (whose turn begins)")
        for g, p in pos.presidents.items():
            if pos.gp.get(p, [0] * 5)[g] < 3:
                raise RecordError(self.last["guild"], f"{COLOURS[p]} presides "
                                  f"{RESOURCES[g]} with fewer than 3 guild points")
        for g in pos.locked:
            if g not in pos.presidents:
                raise RecordError(self.last["guild"], f"a locked {RESOURCES[g]} guild needs a president")
        if pos.track is not None and len(pos.track) > 10:
            raise RecordError(self.last["track"], "the track has 10 spaces")
        if sum(1 for r in pos.ranks.values() if r == CAPTAIN) > 1:
            raise RecordError(self.last["rank"], "there is one Captain")
        if pos.ranks and CAPTAIN not in pos.ranks.values():
            raise RecordError(self.last["rank"], "a Lieutenant needs a Captain before")
        if self.rec.fixed.first is not None:
            pos.first = self.rec.fixed.first
        named = [c for c in pos.dev_out() if not is_guard(c)]
        if len(named) > 5 or sum(pos.vetinari.values()) + sum(
                1 for p in pos.tokens for c in pos.tokens[p] if not is_guard(c)) > 5:
            raise RecordError(self.last.get("vetinari", self.last.get("tokens", 0)),
                              "there are only 5 Vetinari tokens")
        for p in range(self.rec.players):
            if pos.turn is not None and not any(x == p and piece != FOUNDATION
                                                for x, piece in pos.pieces.values()):
                raise RecordError(self.last.get("turn", 0), f"{COLOURS[p]} has no building "
                                  "on the board (a position comes after setup)")


# --- writing ----------------------------------------------------------------------------------

def _counts_text(counts) -> str:
    words = [f"{k} {RESOURCES[r]}" for r, k in enumerate(counts) if k]
    return " ".join(words) or "none"


def format_record(rec: Record) -> str:
    out = [MAGIC, f"game: {GAME_ID}", f"players: {rec.players}", f"seed: {rec.seed}"]
    if rec.seats:
        out.append("seats: " + " ".join(f"{COLOURS[s]}={w}" for s, w in sorted(rec.seats.items())))
    f = rec.fixed
    if f.first is not None:
        out.append(f"first: {COLOURS[f.first]}")
    if f.dev:
        out.append(f"dev: {' '.join(f.dev)}")
    if f.rolls:
        out.append("rolls: " + " ".join("+".join(map(str, r)) for r in f.rolls))
    pos = rec.position
    if not pos.is_empty():
        out.append(f"turn: {COLOURS[pos.turn]}")
        if pos.turn_number:
            out.append(f"turn-number: {pos.turn_number}")
        for seat in range(rec.players):
            c = COLOURS[seat]
            for key, piece in PIECE_KEYS.items():
                vs = sorted(v for v, (p, x) in pos.pieces.items() if p == seat and x == piece)
                if vs:
                    out.append(f"{key} {c}: {' '.join(VERTEX_IDS[v] for v in vs)}")
            if seat in pos.hands:
                out.append(f"hand {c}: {_counts_text(pos.hands[seat])}")
            if pos.parchments.get(seat):
                out.append(f"parchments {c}: {pos.parchments[seat]}")
            if seat in pos.gp and any(pos.gp[seat]):
                out.append(f"gp {c}: {_counts_text(pos.gp[seat])}")
            if seat in pos.receipts:
                out.append(f"receipts {c}: {pos.receipts[seat]}")
            if pos.tokens.get(seat):
                out.append(f"tokens {c}: {' '.join(pos.tokens[seat])}")
            for key in ("guards", "arrests", "vetinari"):
                k = getattr(pos, key).get(seat)
                if k:
                    out.append(f"{key} {c}: {k}")
            if pos.ranks.get(seat):
                out.append(f"rank {c}: {RANK_NAMES[pos.ranks[seat]]}")
        for g in range(5):
            words = []
            if g in pos.presidents:
                words.append(f"president={COLOURS[pos.presidents[g]]}")
            if g in pos.locked:
                words.append("locked")
            if words:
                out.append(f"guild {RESOURCES[g]}: {' '.join(words)}")
        if pos.used:
            out.append(f"used: {' '.join(pos.used)}")
        if pos.robber is not None:
            out.append(f"robber: {SPOT_IDS[pos.robber]}")
        if pos.fire:
            out.append("fire: yes")
        if pos.track is not None:
            out.append(f"track: {' '.join(map(str, pos.track)) or 'none'}")
    out.append("")
    for line in rec.lines:
        out.append(f"* {line.text}" if line.who == "*" else f"{line.who}: {line.text}")
    return "\n".join(out) + "\n"


def position_of(s) -> Position:
    """The position of ``s`` (an engine that sees every card), for a record:
    pieces, hands (stolen cards by their kind), guild points, presidencies and
    locks, tokens, track, fire, receipts, parchments, ranks.  It is the
    position at the start of the active seat's turn."""
    n = s.players
    pos = Position(turn=s.active, turn_number=max(0, s.turn - 1), first=s.first)
    for v, o in enumerate(s.occ):
        if o != EMPTY:
            pos.pieces[v] = (o // 3, o % 3)
    for p in range(n):
        pos.hands[p] = s.true_hand(p)
        pos.parchments[p] = s.parch[p]
        pos.gp[p] = s.gp[p * 5:p * 5 + 5]
        pos.receipts[p] = s.rcpt[p]
        pos.tokens[p] = [s.dcard[h] for h in s.dev[p]]
        pos.guards[p] = s.gup[p]
        pos.arrests[p] = s.arrests[p]
        if s.rank[p] != NO_RANK:
            pos.ranks[p] = s.rank[p]
        pos.vetinari[p] = s.vshown[p]
    held = {h for p in range(n) for h in s.dev[p]}
    pos.used = [s.dcard[h] for h in range(s.dtop) if h not in held and is_guard(s.dcard[h])]
    for g in range(5):
        if s.pres[g] >= 0:
            pos.presidents[g] = s.pres[g]
        if s.lock[g]:
            pos.locked.append(g)
    pos.robber = s.robber
    pos.fire = s.fire
    pos.track = [t for t in TRACK if s.track & TRACK_BIT[t]]
    return pos
