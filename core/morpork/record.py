"""Game records: the setup, any chance outcomes fixed by hand, a starting
position, and the sequence of decisions in the record notation.  The format
is described in ``docs/record.md``.  This module only turns text into values
and back; replaying a record needs a table (:mod:`ankh.net.play.local`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..game import Line, RecordError, read_record, record_seat, record_seats
from ..registry import MORPORK
from .model import (
    AREA_INDEX, AREA_IDS, BUILDINGS_PER_PLAYER, CARD, COLOURS, EVENT, HAND_SIZE,
    MINIONS_PER_PLAYER, NUM_AREAS, STARTING_AREAS, deck_lists, personality_list,
)

MAGIC = "# ankh record 1"
GAME_ID = MORPORK.id  # the record's ``game:`` line; a record without one is of this game


@dataclass
class Fixed:
    """Chance outcomes fixed by hand; anything left open is drawn from the seed.
    ``hands`` and ``deck`` fix player cards from the top of the draw pile down:
    first the starting hands (seat 0's, then seat 1's ...; five cards where a
    seat's hand is not fixed), then the position's cards in front of players
    and on the discard pile (:class:`Position`), then ``deck``."""
    hands: dict[int, list[str]] = field(default_factory=dict)
    deck: list[str] = field(default_factory=list)
    personalities: dict[int, str] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)
    rolls: list[int] = field(default_factory=list)
    first: int | None = None


@dataclass
class AreaSetup:
    minions: list[int]            # per seat
    trolls: int = 0
    demons: int = 0
    trouble: bool = False
    building: int | None = None


@dataclass
class Position:
    """A starting position that replaces the rulebook's (scenarios)."""
    areas: dict[int, AreaSetup] = field(default_factory=dict)
    money: dict[int, int] = field(default_factory=dict)
    draw_pile: int | None = None  # keep only this many cards; the rest go to the discard pile
    hand_sizes: dict[int, int] = field(default_factory=dict)  # starting hands that are not 5
    front: dict[int, list[str]] = field(default_factory=dict)  # loans and penalty cards per seat
    discard: list[str] = field(default_factory=list)           # the discard pile, bottom first
    events_drawn: list[str] = field(default_factory=list)      # random events already drawn, in order
    out_of_play: list[int] = field(default_factory=list)       # areas whose City Area card is gone

    def is_empty(self) -> bool:
        return not (self.areas or self.money or self.draw_pile is not None or self.front
                    or self.discard or self.events_drawn or self.out_of_play)

    def cards_from_draw(self) -> list[str]:
        """The cards the position takes from the top of the draw pile after the
        deal, in order: each seat's front cards, then the discard pile."""
        return [c for q in sorted(self.front) for c in self.front[q]] + list(self.discard)


@dataclass
class Record:
    players: int = 4
    seed: int = 0
    fixed: Fixed = field(default_factory=Fixed)
    position: Position = field(default_factory=Position)
    lines: list[Line] = field(default_factory=list)
    seats: dict[int, str] = field(default_factory=dict)  # who sits where: "person", "bot:<kind>"

    def to_text(self) -> str:
        return format_record(self)


def _area(word: str, n: int) -> int:
    if word not in AREA_INDEX:
        raise RecordError(n, f"{word!r} is not an area")
    return AREA_INDEX[word]


def _int(word: str, n: int, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise RecordError(n, f"{what} must be a whole number, not {word!r}") from None


def parse_record(text: str) -> Record:
    """Read a record; raises :class:`RecordError` naming the offending line."""
    rec = Record()
    rec.players, setup, rec.lines = read_record(text, GAME_ID, MORPORK.name, MORPORK.seats)
    check = _Checks(rec)
    for n, key, value in setup:
        _header_line(rec, n, key, value)
        check.line(n, key, value)
    check.done()
    return rec


def _header_line(rec: Record, n: int, key: str, value: str) -> None:
    words = value.split()
    head, _, arg = key.partition(" ")
    if key == "seed":
        rec.seed = _int(value, n, "seed")
    elif key == "seats":
        rec.seats = record_seats(value, rec.players, n)
    elif key == "first":
        rec.fixed.first = record_seat(value, rec.players, n)
    elif head == "personality":
        rec.fixed.personalities[record_seat(arg, rec.players, n)] = value
    elif head == "hand":
        seat = record_seat(arg, rec.players, n)
        hand = [] if words == ["none"] else words
        rec.fixed.hands[seat] = hand
        if len(hand) != HAND_SIZE:
            rec.position.hand_sizes[seat] = len(hand)
        else:
            rec.position.hand_sizes.pop(seat, None)
    elif head == "front":
        seat = record_seat(arg, rec.players, n)
        for w in words:
            if w in CARD and CARD[w].get("effect") not in FRONT_EFFECTS:
                raise RecordError(n, f"{w!r} is not a card that stays in front of a player "
                                     f"(loans and penalty cards: {', '.join(FRONT_CARDS)})")
        rec.position.front[seat] = words
    elif key == "discard":
        rec.position.discard = words
    elif key == "events-drawn":
        rec.position.events_drawn = words
    elif key == "out-of-play":
        rec.position.out_of_play = [_area(w, n) for w in words]
    elif key == "deck":
        rec.fixed.deck = words
    elif key == "events":
        rec.fixed.events = words
    elif key == "rolls":
        rec.fixed.rolls = [_int(w, n, "a roll") for w in words]
        if any(not 1 <= r <= 12 for r in rec.fixed.rolls):
            raise RecordError(n, "die rolls are 1 to 12")
    elif head == "money":
        rec.position.money[record_seat(arg, rec.players, n)] = _int(value, n, "money")
    elif key == "draw-pile":
        rec.position.draw_pile = _int(value, n, "draw-pile")
    elif head == "area":
        rec.position.areas[_area(arg, n)] = _area_setup(words, rec.players, n)
    else:
        raise RecordError(n, f"unknown setup line {key!r}")


FRONT_EFFECTS = ("take_loan", "pay_or_receive_penalty_card")
FRONT_CARDS = tuple(cid for cid, c in CARD.items() if c.get("effect") in FRONT_EFFECTS)
CARD_LINES = ("hand", "front", "discard", "deck")


class _Checks:
    """Whole-record checks of the setup lines, each error naming the line that
    makes the setup impossible (a card fixed twice, too many minions ...)."""

    def __init__(self, rec: Record):
        self.rec = rec
        green, brown = deck_lists(rec.players)
        self.deck = set(green) | set(brown)
        self.card_line: dict[str, int] = {}
        self.pers_line: dict[str, int] = {}
        self.event_line: dict[str, int] = {}
        self.last_card_line = 0
        self.area_lines: list[tuple[int, int]] = []

    def _once(self, n: int, ids: list[str], seen: dict[str, int], valid, what: str) -> None:
        for cid in ids:
            if cid not in valid:
                raise RecordError(n, f"{cid!r} is not {what} of a {self.rec.players}-player game")
            if cid in seen:
                where = "this line" if seen[cid] == n else f"line {seen[cid]}"
                raise RecordError(n, f"{cid} is fixed twice (also on {where})")
            seen[cid] = n

    def line(self, n: int, key: str, value: str) -> None:
        rec = self.rec
        head = key.partition(" ")[0]
        words = value.split()
        if head in CARD_LINES:
            self._once(n, [w for w in words if w != "none"], self.card_line, self.deck, "a card")
            self.last_card_line = n
        elif head == "personality":
            self._once(n, words, self.pers_line, personality_list(rec.players), "a personality")
        elif key in ("events", "events-drawn"):
            self._once(n, words, self.event_line, EVENT, "a random event")
        elif head == "area":
            self.area_lines.append((n, AREA_INDEX[key.partition(" ")[2]]))

    def done(self) -> None:
        rec = self.rec
        problem = check_position(rec.position, rec.players)
        if problem:
            # Name the last area line without which the position would be possible.
            areas = rec.position.areas
            n = self.area_lines[-1][0]
            for line, a in reversed(self.area_lines):
                kept = areas.pop(a)
                fine = check_position(rec.position, rec.players) is None
                areas[a] = kept
                if fine:
                    n = line
                    break
            raise RecordError(n, f"impossible position: {problem}")
        hands = sum(len(rec.fixed.hands.get(q, ())) if q in rec.fixed.hands else HAND_SIZE
                    for q in range(rec.players))
        need = hands + len(rec.position.cards_from_draw()) + len(rec.fixed.deck)
        if need > len(self.deck):
            raise RecordError(self.last_card_line, f"the setup needs {need} cards; a "
                                                   f"{rec.players}-player game has {len(self.deck)}")


def _area_setup(words: list[str], players: int, n: int) -> AreaSetup:
    a = AreaSetup([0] * players)
    for w in words:
        if w in COLOURS[:players]:
            a.minions[COLOURS.index(w)] += 1
        elif w == "troll":
            a.trolls += 1
        elif w == "demon":
            a.demons += 1
        elif w == "trouble":
            a.trouble = True
        elif w.startswith("building="):
            a.building = record_seat(w[9:], players, n)
        elif w != "empty":
            raise RecordError(n, f"{w!r}: expected colours, troll, demon, trouble, "
                                 f"building=<colour> or empty")
    return a


def format_record(rec: Record) -> str:
    out = [MAGIC, f"game: {GAME_ID}", f"players: {rec.players}", f"seed: {rec.seed}"]
    if rec.seats:
        out.append("seats: " + " ".join(f"{COLOURS[s]}={w}" for s, w in sorted(rec.seats.items())))
    f = rec.fixed
    if f.first is not None:
        out.append(f"first: {COLOURS[f.first]}")
    for seat, pid in sorted(f.personalities.items()):
        out.append(f"personality {COLOURS[seat]}: {pid}")
    for seat, hand in sorted(f.hands.items()):
        out.append(f"hand {COLOURS[seat]}: {' '.join(hand) or 'none'}")
    for seat, cards in sorted(rec.position.front.items()):
        out.append(f"front {COLOURS[seat]}: {' '.join(cards)}")
    if rec.position.discard:
        out.append(f"discard: {' '.join(rec.position.discard)}")
    if f.deck:
        out.append(f"deck: {' '.join(f.deck)}")
    if rec.position.events_drawn:
        out.append(f"events-drawn: {' '.join(rec.position.events_drawn)}")
    if f.events:
        out.append(f"events: {' '.join(f.events)}")
    if f.rolls:
        out.append(f"rolls: {' '.join(map(str, f.rolls))}")
    pos = rec.position
    for seat, m in sorted(pos.money.items()):
        out.append(f"money {COLOURS[seat]}: {m}")
    for a, st in sorted(pos.areas.items()):
        words = []
        for seat, k in enumerate(st.minions):
            words += [COLOURS[seat]] * k
        words += ["troll"] * st.trolls + ["demon"] * st.demons
        if st.trouble:
            words.append("trouble")
        if st.building is not None:
            words.append(f"building={COLOURS[st.building]}")
        out.append(f"area {AREA_IDS[a]}: {' '.join(words) or 'empty'}")
    if pos.out_of_play:
        out.append(f"out-of-play: {' '.join(AREA_IDS[a] for a in pos.out_of_play)}")
    if pos.draw_pile is not None:
        out.append(f"draw-pile: {pos.draw_pile}")
    out.append("")
    for line in rec.lines:
        out.append(f"* {line.text}" if line.who == "*" else f"{line.who}: {line.text}")
    return "\n".join(out) + "\n"


def check_position(pos: Position, players: int) -> str | None:
    """Why ``pos`` cannot be set up (too many pieces), or None."""
    for seat in range(players):
        minions = sum(pos.areas[a].minions[seat] if a in pos.areas
                      else (1 if a in STARTING_AREAS else 0) for a in range(NUM_AREAS))
        if minions > MINIONS_PER_PLAYER:
            return f"{COLOURS[seat]} has more than {MINIONS_PER_PLAYER} minions"
        builds = sum(1 for st in pos.areas.values() if st.building == seat)
        if builds > BUILDINGS_PER_PLAYER:
            return f"{COLOURS[seat]} has more than {BUILDINGS_PER_PLAYER} buildings"
    if sum(st.trolls for st in pos.areas.values()) > 3:
        return "there are only 3 trolls"
    if sum(st.demons for st in pos.areas.values()) > 4:
        return "there are only 4 demons"
    return None
