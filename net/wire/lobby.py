"""The lobby and the messages that travel on a link between two peers (sans-I/O).

A link is already encrypted and bound to the identity at its other end, so
lobby messages need no signatures of their own: whoever sent them is the
identity the link proved.  Game frames travel inside link messages and are
signed as always.

Link messages (canonical msgpack maps, checked strictly):

- ``join``: a peer asks for a seat: its ``name`` and a fresh ``nonce``.
- ``ready``: a seated person is ready (or no longer ready) to begin.
- ``lobby``: the host's view of the table: seats taken (name, key, bot or
  person, ready), seats in all, the table's lobby id, and ``kind``, the game
  it plays (left out for the first game, as before there was a second).
- ``start``: the seats are final: names, keys and every seat's nonce,
  ``chat`` 0 if the table hides its talk from spectators (every watch point
  honours it: the setting travels with the seats' start and their saves),
  and the game's ``kind`` as in ``lobby`` (it enters the roster, so every
  signature of the game).  The
  game id is the hash of all the nonces, so no seat chooses it alone, and
  each seat checks that its own nonce and key are in it.
- ``key``: after ``start``, each seat's signing key for this game and the
  certificate its identity signed for it.
- ``roster``: every seat's game key and certificate, from the host: the
  roster every seat builds and checks (each certificate against the
  identity that sat down) before the deal.
- ``rejoin``: a seat of a game under way comes back (after a drop or a
  restart) and says how many frames it holds from each seat (``have``).
- ``have``: the same from the host, so the seat can send what it lacks.
- ``frames``: signed game frames.
- ``watch``: a spectator asks for the public log from step ``from`` on; it
  gets ``start`` and ``roster`` and then every step's frames as the steps
  finish.  It holds no key and takes part in no step.
- ``watchpoint``: after the roster, a joiner tells the host the port where
  it serves spectators too (a socket for spectators only, on the address it
  joined through).
- ``points``: from the host to every seat and spectator (and passed on by
  every watch point): where spectators can watch this table, ``[host,
  port]`` pairs, so that a spectator whose watch point leaves re-attaches to
  another.
- ``chat``: a line of table talk from seat ``seat``, numbered ``n`` by its
  sender and signed with the sender's identity over the table's lobby id,
  the seat, the number and the text, so that a relaying host can neither
  forge nor alter it.  At most ``MAX_CHAT`` characters; the host passes on at
  most ``CHAT_RATE`` lines per ``CHAT_WINDOW`` seconds from each seat.
- ``bye``: a peer leaves, with a reason.  During a game its words are
  nobody's evidence: a seat or spectator shows what its own log says (and a
  refusal in the lobby as the host's reason for turning it away).
- ``blame``: a seat caught a cheat: the cheater's signed frames that prove
  it (``ankh.net.fair.evidence``), sent before the seat leaves.  The host checks
  them against its own log, ends the game naming the cheater, and passes
  them on to every seat and spectator, each of which checks them again
  against its own log before it names anyone.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


from ankh.core.game import COLOURS

from .envelope import MAX_FRAME, fingerprint, pack, unpack_strict, verify_signature
from .errors import LocalProtocolError, RemoteProtocolError
from .schema import Bin, Const, Int, List, Map, Str, Tagged
from ..files.transcript import DEFAULT_KIND, GONE_AFTER, KIND, MOVE_CLOCK, Charter, Roster, name_key

PROTOCOL = "ankh/2"  # in every link's handshake: programs of another version do not link at all
MAX_LINK_MESSAGE = 1024 * 1024
MAX_SEATS = 4
MAX_TEXT = 200
NAME = Str(32)
GAME_KIND = Str(16, KIND.pattern)
NONCE = Bin(16)
KEY = Bin(32)
_HAVE = List(Int(0, 2**32), MAX_SEATS, min_len=2)

SEAT_INFO = Map({"name": NAME, "key": KEY, "bot": Int(0, 1), "ready": Int(0, 1)})
MESSAGES = Tagged("t", {
    "join": Map({"t": Const("join"), "name": NAME, "nonce": NONCE}, optional={"ready": Int(0, 1)}),
    "ready": Map({"t": Const("ready"), "ready": Int(0, 1)}),
    "lobby": Map({"t": Const("lobby"), "table": Bin(16), "total": Int(2, MAX_SEATS),
                  "seats": List(SEAT_INFO, MAX_SEATS)},
                 optional={"kind": GAME_KIND, "gone": Int(1, 86400), "clock": Int(1, 86400)}),
    "start": Map({"t": Const("start"), "names": List(NAME, MAX_SEATS, min_len=2),
                  "keys": List(KEY, MAX_SEATS, min_len=2), "nonces": List(NONCE, MAX_SEATS, min_len=2)},
                 optional={"chat": Int(0, 1), "kind": GAME_KIND, "gone": Int(1, 86400), "clock": Int(1, 86400),
                           "voices": List(Int(0, MAX_SEATS - 1), MAX_SEATS, min_len=2)}),
    "key": Map({"t": Const("key"), "key": KEY, "cert": Bin(64)}),
    "roster": Map({"t": Const("roster"), "keys": List(KEY, MAX_SEATS, min_len=2),
                   "certs": List(Bin(64), MAX_SEATS, min_len=2)}),
    "rejoin": Map({"t": Const("rejoin"), "game": Bin(16), "have": _HAVE}),
    "have": Map({"t": Const("have"), "have": _HAVE}),
    "frames": Map({"t": Const("frames"), "f": List(Bin(max_len=MAX_FRAME), 256, min_len=1)}),
    "watch": Map({"t": Const("watch"), "from": Int(0, 2**32)}),
    "watchpoint": Map({"t": Const("watchpoint"), "port": Int(1, 65535)}),
    "points": Map({"t": Const("points"), "at": List(Map({"host": Str(64), "port": Int(1, 65535)},
                                                        optional={"seat": Int(0, MAX_SEATS - 1)}), MAX_SEATS + 1)}),
    # A seat's first word on a direct link to another seat's watch point (``net/io/join.py``):
    # which seat it is, proved by the link's handshake with that seat's identity key.
    "seat": Map({"t": Const("seat"), "seat": Int(0, MAX_SEATS - 1)}),
    # On a seat's direct link, every few seconds: the last frames it signed (``JoinTable.say_here``), and
    # during the audit frames of its log that other seats signed (``JoinTable._log_since``).
    "mine": Map({"t": Const("mine"), "f": Bin(max_len=MAX_FRAME)}),
    # To the host: frames of another seat heard on this seat's direct link to it (its ``mine``) that
    # this seat's log lacks, handed on so that a seat that keeps its frames from the host is no veto.
    "theirs": Map({"t": Const("theirs"), "f": Bin(max_len=MAX_FRAME)}),
    # A seat's watch point took the evidence a seat linked to it handed on (``net/io/seatlinks.py``).
    "heard": Map({"t": Const("heard")}),
    "chat": Map({"t": Const("chat"), "seat": Int(0, MAX_SEATS - 1), "n": Int(0, 2**32), "text": Str(MAX_TEXT),
                 "sig": Bin(64)}),
    "bye": Map({"t": Const("bye"), "why": Str(MAX_TEXT)}),
    # To a spectator, before a table's last word when the game stopped in the middle of a
    # step: the frames of that step its watch point holds (``tablecore.seats.step_under_way``).
    "pending": Map({"t": Const("pending"), "f": List(Bin(max_len=MAX_FRAME), 256, min_len=1)}),
    "blame": Map({"t": Const("blame"), "f": List(Bin(max_len=MAX_FRAME), 2, min_len=1)}),
    "done": Map({"t": Const("done")}),
    # A seat the game waits for is gone (or connected and silent): who, for how
    # long, and once the wait is over the offer to end the table (``net/play/leave.py``).
    "away": Map({"t": Const("away"), "seats": List(Map({"seat": Int(0, MAX_SEATS - 1), "secs": Int(0, 2**32),
                                                         "link": Int(0, 1)}), MAX_SEATS)},
                optional={"offer": Map({"step": Int(0, 2**32), "basis": Bin(32),
                                        "gone": List(Int(0, MAX_SEATS - 1), MAX_SEATS - 1, min_len=1)}),
                          "agreed": List(Int(0, MAX_SEATS - 1), MAX_SEATS), "need": Int(1, MAX_SEATS)}),
    "vote": Map({"t": Const("vote"), "v": Bin(max_len=1024)}),
    "ended": Map({"t": Const("ended"), "votes": List(Bin(max_len=1024), MAX_SEATS, min_len=1)}),
})


MAX_CHAT = 200
CHAT_RATE = 5
CHAT_WINDOW = 10.0


def clean_text(text: str) -> str:
    """Table talk as plain text: no control characters (so no escape sequence
    from a peer ever reaches a terminal), one line, at most MAX_CHAT characters."""
    kept = "".join(ch if ch.isprintable() else " " for ch in text)
    return " ".join(kept.split())[:MAX_CHAT]


def _chat_signed(table: bytes, seat: int, n: int, text: str) -> bytes:
    return b"ankh/v1/chat\x00" + table + pack([seat, n, text])


def chat_message(identity: Any, table: bytes, seat: int, n: int, text: str) -> dict[str, Any]:
    text = clean_text(text)
    return {"t": "chat", "seat": seat, "n": n, "text": text,
            "sig": identity.sign(_chat_signed(table, seat, n, text))}


def check_chat(msg: dict[str, Any], key: bytes, table: bytes) -> str:
    """The text of a chat line signed by ``key``; RemoteProtocolError if it is not."""
    if not verify_signature(key, msg["sig"], _chat_signed(table, msg["seat"], msg["n"], msg["text"])):
        raise RemoteProtocolError("a chat line with a bad signature")
    if clean_text(msg["text"]) != msg["text"]:
        raise RemoteProtocolError("a chat line that is not plain text")
    return msg["text"]


def encode(message: dict[str, Any]) -> bytes:
    return pack(message)


def decode(data: bytes) -> dict[str, Any]:
    """A link message, checked strictly.  Raises RemoteProtocolError."""
    obj = unpack_strict(data, max_size=MAX_LINK_MESSAGE, max_str=MAX_TEXT, max_bin=MAX_FRAME, max_array=256)
    return MESSAGES(obj, "message")


def frames_message(frames: list[bytes]) -> list[bytes]:
    """Frames as link messages, at most 256 to a message."""
    return [encode({"t": "frames", "f": frames[i:i + 256]}) for i in range(0, len(frames), 256)]


def steps_messages(steps: list[list[bytes]], max_bytes: int = MAX_LINK_MESSAGE // 2) -> list[bytes]:
    """Whole steps' frames as link messages: no step is split between two
    messages (a spectator that reconnects asks for the steps it lacks, so it
    must never hold part of one), at most 256 frames and about ``max_bytes``
    to a message."""
    out: list[bytes] = []
    batch: list[bytes] = []
    size = 0
    for step in steps:
        if batch and (len(batch) + len(step) > 256 or size + sum(map(len, step)) > max_bytes):
            out.append(encode({"t": "frames", "f": batch}))
            batch, size = [], 0
        batch += step
        size += sum(map(len, step))
    if batch:
        out.append(encode({"t": "frames", "f": batch}))
    return out


def game_id_of(nonces: list[bytes]) -> bytes:
    """The game id: every seat's nonce counts, so no seat picks it alone."""
    return hashlib.sha256(b"ankh/v1/game-id" + b"".join(nonces)).digest()[:16]


def clocks_of(msg: Mapping[str, Any]) -> tuple[int, int]:
    """The gone-wait and move clock a ``lobby`` or ``start`` message tells (a host
    of an older ankh tells none in its lobby: the usual ones)."""
    return int(msg.get("gone", GONE_AFTER)), int(msg.get("clock", MOVE_CLOCK))


def table_fingerprint(game_id: bytes, keys: list[bytes]) -> str:
    """What players read aloud before the deal: the same on every screen, or
    someone sits in the middle.  Five groups of four digits."""
    digest = hashlib.sha256(b"ankh/v1/table-fingerprint" + game_id + b"".join(keys)).digest()
    number = int.from_bytes(digest[:9], "big") % 10**20
    text = f"{number:020d}"
    return " ".join(text[i:i + 4] for i in range(0, 20, 4))


@dataclass
class Seat:
    name: str
    key: bytes
    nonce: bytes
    bot: bool = False
    ready: bool = True

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


@dataclass
class Lobby:
    """The host's table before the deal: who sits where."""

    table: bytes  # the lobby id (advertised; the game id comes from every seat's nonce)
    total: int
    seats: list[Seat] = field(default_factory=list)
    spectator_chat: bool = True  # spectators hear the table talk
    kind: str = DEFAULT_KIND  # the game the table plays
    gone_after: int = GONE_AFTER  # seconds a seat is gone before the others may end the table (net/play/leave.py)
    move_clock: int = MOVE_CLOCK  # seconds a connected seat may keep the game waiting before the same

    def __post_init__(self) -> None:
        if not 2 <= self.total <= MAX_SEATS:
            raise LocalProtocolError(f"a table has 2 to {MAX_SEATS} seats, not {self.total}")

    @property
    def full(self) -> bool:
        return len(self.seats) == self.total

    @property
    def ready(self) -> bool:
        """Every seat taken, and every person in it ready: the deal can begin."""
        return self.full and all(s.ready for s in self.seats)

    def set_ready(self, key: bytes, ready: bool) -> None:
        for s in self.seats:
            if s.key == key:
                s.ready = ready

    def sit(self, name: str, key: bytes, nonce: bytes, *, bot: bool = False, ready: bool = True) -> int:
        """Seat a newcomer; returns its seat.  A name already taken gets a number."""
        if any(s.key == key for s in self.seats):
            raise RemoteProtocolError("that identity is seated already")
        if self.full:
            raise RemoteProtocolError("the table is full")
        taken = {s.name for s in self.seats}
        base, n = name, 2
        while name in taken:
            suffix = f" {n}"
            name = base[:32 - len(suffix)] + suffix
            n += 1
        like = next((s.name for s in self.seats if name_key(s.name) == name_key(name)), None)
        if like is not None:  # the roster would refuse the pair at the deal: refused here, with why
            raise RemoteProtocolError(f"the name {name!r} is too like {like!r}, already at the table "
                                      "(names must differ by more than case, spaces and letters that look "
                                      "alike): join under another")
        self.seats.append(Seat(name, key, nonce, bot, ready or bot))
        return len(self.seats) - 1

    def leave(self, key: bytes) -> None:
        self.seats = [s for s in self.seats if s.key != key]

    def message(self) -> dict[str, Any]:
        msg = {"t": "lobby", "table": self.table, "total": self.total,
               "seats": [{"name": s.name, "key": s.key, "bot": int(s.bot), "ready": int(s.ready)}
                         for s in self.seats], "gone": self.gone_after, "clock": self.move_clock}
        if self.kind != DEFAULT_KIND:
            msg["kind"] = self.kind
        return msg

    def start_message(self) -> dict[str, Any]:
        if not self.full:
            raise LocalProtocolError("the table is not full")
        msg = {"t": "start", "names": [s.name for s in self.seats], "keys": [s.key for s in self.seats],
               "nonces": [s.nonce for s in self.seats], "gone": self.gone_after, "clock": self.move_clock,
               "voices": [0 if s.bot else i for i, s in enumerate(self.seats)]}
        if not self.spectator_chat:
            msg["chat"] = 0
        if self.kind != DEFAULT_KIND:
            msg["kind"] = self.kind
        return msg


@dataclass(frozen=True)
class Start:
    """The table as every seat checks it before the deal: the game id (from
    every seat's nonce), names and identity keys by seat, the game, and the
    table's clocks for a seat that leaves (``net/play/leave.py``): each seat keeps
    them in its save and judges an ending that names it by them.  With
    ``voices`` (the seat that speaks for each seat: the host for its bots),
    the clocks and voices enter the roster's hash as its ``Charter``; a start
    saved before they were told has none, and reads with the usual clocks.
    """

    game_id: bytes
    names: tuple[str, ...]
    identities: tuple[bytes, ...]
    nonces: tuple[bytes, ...]
    spectator_chat: bool = True
    kind: str = DEFAULT_KIND  # the game: in the roster, so in every signature
    gone_after: int = GONE_AFTER  # the table's clocks (a start saved before they were told: the usual ones)
    move_clock: int = MOVE_CLOCK
    voices: tuple[int, ...] | None = None

    @property
    def charter(self) -> Charter | None:
        """The terms the roster binds (None: a start of the last release, without voices)."""
        return Charter(self.gone_after, self.move_clock, self.voices) if self.voices is not None else None

    @property
    def fingerprint(self) -> str:
        return table_fingerprint(self.game_id, list(self.identities))

    @property
    def clocks(self) -> tuple[int, int]:
        """The gone-wait and move clock, as a lobby shows them."""
        return self.gone_after, self.move_clock

    @classmethod
    def from_message(cls, msg: dict[str, Any], *, my_key: bytes, my_nonce: bytes,
                     bots: Iterable[bytes] | None = None) -> tuple[Start, int]:
        """Check a ``start`` message against what this seat sent; returns it and our seat.
        With ``bots`` (a new table's start: the keys the lobby showed as the host's
        bots), the table's terms must be there, and its voices the lobby's."""
        names, keys, nonces = msg["names"], msg["keys"], msg["nonces"]
        if not len(names) == len(keys) == len(nonces):
            raise RemoteProtocolError("start: one name, key and nonce per seat")
        if my_key not in keys:
            raise RemoteProtocolError("start: we are not seated")
        seat = keys.index(my_key)
        if nonces[seat] != my_nonce:
            raise RemoteProtocolError("start: our nonce is not the one we sent")
        if len(set(nonces)) != len(nonces) or len(set(keys)) != len(keys) \
                or len({name_key(n) if type(n) is str else n for n in names}) != len(names):
            raise RemoteProtocolError("start: repeated nonces, names or keys")
        start = cls.of(msg)
        charter = start.charter
        if charter is not None:
            problem = charter.problem(len(names))
            if problem is not None:
                raise RemoteProtocolError(f"start: {problem}")
            if charter.voices[seat] != seat or charter.voices.count(seat) > 1 and seat != 0:
                raise RemoteProtocolError("start: another seat speaks for this one, or this one for another")
        if bots is not None:
            if charter is None:
                raise RemoteProtocolError("start: the table's clocks and voices are missing (a host of an older "
                                          "ankh, or one that would leave them out of what every seat signs)")
            bots = set(bots)
            if any((v == 0 and s != 0) != (k in bots) for s, (v, k) in enumerate(zip(charter.voices, keys))):
                raise RemoteProtocolError("start: the host's bots are not the ones its lobby showed")
        return start, seat

    @classmethod
    def of(cls, msg: dict[str, Any]) -> Start:
        """The table a ``start`` message describes (unchecked: see :meth:`from_message`)."""
        return cls(game_id_of(list(msg["nonces"])), tuple(msg["names"]), tuple(msg["keys"]), tuple(msg["nonces"]),
                   bool(msg.get("chat", 1)), msg.get("kind", DEFAULT_KIND), *clocks_of(msg),
                   tuple(msg["voices"]) if "voices" in msg else None)

    def roster(self, keys: list[bytes], certs: list[bytes]) -> Roster:
        """The game's roster: each seat's game key, certified by the identity that sat down."""
        if len(keys) != len(self.names) or len(certs) != len(self.names):
            raise RemoteProtocolError("roster: one key and certificate per seat")
        try:
            return Roster(self.game_id, self.names, tuple(keys), identities=self.identities, certs=tuple(certs),
                          kind=self.kind, charter=self.charter)
        except LocalProtocolError as exc:
            raise RemoteProtocolError(f"roster: {exc}") from None


def points_message(points: list[tuple[str, int]], seats: dict[tuple[str, int], int] | None = None) -> dict[str, Any]:
    """Where the table's watch points are; with ``seats``, whose each one is (a
    seat links to the others' directly: its identity key must answer there)."""
    seats = seats or {}
    return {"t": "points", "at": [{"host": h, "port": p, **({"seat": seats[h, p]} if (h, p) in seats else {})}
                                  for h, p in points]}


def watch_intro(table: bytes, start: dict[str, Any], roster: dict[str, Any], bots: Iterable[int] = ()) -> list[bytes]:
    """What a watch point tells a spectator first: the table's lobby id (chat is
    signed over it), the seats (``bots``: the host's bots, whose votes to end the
    table are the host's), and the roster, encoded."""
    bots = set(bots)
    seats = [{"name": n, "key": k, "bot": int(s in bots), "ready": 1}
             for s, (n, k) in enumerate(zip(start["names"], start["keys"]))]
    return [encode({"t": "lobby", "table": table, "total": len(seats), "seats": seats}), encode(start),
            encode(roster)]


def colour(seat: int) -> str:
    return COLOURS[seat]
