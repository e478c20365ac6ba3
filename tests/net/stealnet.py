"""Steals among N seats in memory at the level of ``ankh.net.fair.steal``: the cheat
catalogue's table, where every seat's own checks are visible.

Each seat keeps its own copy of the public hands (``steal.Hands``, public
cards too), its own keys (``steal.HandKeys``), its own dice chain and its own
view of every other seat's chain and sequence numbers; the table only carries
bytes, through an optional ``wire`` hook that plays a relay that alters,
drops or replays frames.  Nothing here is trusted: a seat that cheats is
caught by the others, and every seat that checks a frame reports.  The game
runs the same messages as steps of its log (``ledger``); this table is the
primitive on its own: ``steal`` from the victim, a beacon round (``dice``
from every seat), ``steal-open`` from the victim; a ``show`` from a seat that
uses hidden cards.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from ankh.net.fair import dice, group, steal
from ankh.net.wire.envelope import Identity, KeyRing, SeqTracker, open_frame, seal
from ankh.net.wire.errors import LocalProtocolError, RemoteProtocolError, Stalled
from ankh.net.wire.schema import Bin, Map
from ankh.net.fair.seal import Boxes
from ankh.net.files.secrets import SeatSecrets
from ankh.net.fair.steal import HandKeys, Hands, Steal

KINDS = {**{kind: Map(fields) for kind, fields in steal.FIELDS.items()}, "dice": Map({"v": Bin(32)})}
CHAIN = 1024

# wire(frame, sender, recipient) -> the bytes delivered, or None (dropped).
Wire = Callable[[bytes, int, int], "bytes | None"]
# cheat(kind, body) -> the body the sender signs instead (tests play a cheating seat).
Cheat = Callable[[str, dict[str, Any]], dict[str, Any]]


class StealSeat:
    """One seat: its secrets and what it has accepted."""

    def __init__(self, secrets: SeatSecrets, keyring: KeyRing, seats: int, name: str, kinds: Sequence[str]) -> None:
        self.secrets = secrets
        self.seat = secrets.seat
        self.keyring = keyring
        self.seats = seats
        self.boxes = Boxes(secrets.box_private, secrets.game_id)
        self.hands = Hands(name, kinds, seats)
        self.keys = HandKeys(self.hands, self.seat)
        self.seq = 0
        self.tracker = SeqTracker(seats)
        self.chain = dice.OwnChain(secrets.dice_seed, CHAIN)
        self.chains = [dice.ChainState.committed(b"", CHAIN)] * seats
        self.rounds = 0
        self.basis = hashlib.sha256(b"ankh/v1/steal-table" + secrets.game_id).digest()
        self.steal: Steal | None = None
        self.cheat: Cheat | None = None
        self.ephemerals: set[bytes] = set()  # of the private parts of the steals done

    def frame(self, kind: str, body: dict[str, Any]) -> bytes:
        if self.cheat is not None:
            body = self.cheat(kind, body)
        out = seal(self.secrets.identity, self.seat, self.secrets.game_id, self.seq, kind, body)
        self.seq += 1
        return out

    def open(self, frame: bytes, via: int) -> Any:
        """Check a frame's signature, schema and sequence number.  Bytes that fail
        before the signature is good are the fault of the link they came on."""
        env = open_frame(frame, game_id=self.secrets.game_id, keys=self.keyring, kinds=KINDS)
        if env.sender != via:
            raise RemoteProtocolError(f"a frame of seat {env.sender} relayed as seat {via}'s")
        try:
            self.tracker.check(env.sender, env.seq)
        except RemoteProtocolError as exc:
            raise RemoteProtocolError(f"from the link of seat {via}: {exc.message}") from None
        self.tracker.advance(env.sender)
        return env


class StealTable:
    """``seats`` seats sharing one kind of hand (e.g. the five resources)."""

    def __init__(
        self, seats: int, kinds: Sequence[str], *, seed: bytes = b"steal", name: str = "res", wire: Wire | None = None
    ) -> None:
        game_id = hashlib.sha256(b"game" + seed).digest()[:16]
        secrets = []
        for s in range(seats):
            key_seed = hashlib.sha256(b"key" + seed + bytes([s])).digest()
            master = hashlib.sha256(b"master" + seed + bytes([s])).digest()
            secrets.append(SeatSecrets(game_id, s, Identity.from_seed(key_seed), master))
        keyring = KeyRing([sec.identity.public_key for sec in secrets])
        self.game_id = game_id
        self.kinds = tuple(kinds)
        self.name = name
        self.wire = wire
        self.seats = [StealSeat(sec, keyring, seats, name, kinds) for sec in secrets]
        for seat in self.seats:
            seat.chains = [dice.ChainState.committed(other.chain.commitment(0), CHAIN) for other in self.seats]
        self.alarms: list[tuple[int, RemoteProtocolError]] = []
        self.bytes_sent = 0
        self.held: list[tuple[int, int, bytes, Any]] = []  # (recipient, sender, frame, check) withheld
        self._todo: list[Callable[[], Any]] = []
        self._got: dict[int, Any] = {}
        self.last_open: tuple[int, bytes] = (0, b"")
        self.picks: list[int] = []  # the slot each steal took (the same on every seat)

    # -- carrying ------------------------------------------------------------------------

    def _carry(self, sender: int, frame: bytes, check: Callable[[StealSeat, Any], Any]) -> dict[int, Any]:
        """Deliver one frame to every other seat, which checks it; the sender applies its own."""
        self.bytes_sent += len(frame)
        out: dict[int, Any] = {sender: check(self.seats[sender], None)}
        for seat in self.seats:
            if seat.seat != sender:
                data = frame if self.wire is None else self.wire(frame, sender, seat.seat)
                if data is None:
                    self.held.append((seat.seat, sender, frame, check))
                else:
                    self._deliver(seat, sender, data, check, out)
        if self.alarms:
            raise self.alarms[0][1]
        return out

    def _deliver(self, seat: StealSeat, sender: int, data: bytes, check: Any, out: dict[int, Any]) -> None:
        try:
            out[seat.seat] = check(seat, seat.open(data, sender))
        except RemoteProtocolError as exc:
            self.alarms.append((seat.seat, exc))

    def waiting(self) -> dict[int, list[int]]:
        """Who each seat still waits for (frames the wire withheld)."""
        out: dict[int, list[int]] = {}
        for recipient, sender, _, _ in self.held:
            out.setdefault(recipient, []).append(sender)
        return out

    def resend(self) -> Any:
        """Deliver the withheld frames again (the link's resend), then go on with the step."""
        held, self.held = self.held, []
        for recipient, sender, frame, check in held:
            self._deliver(self.seats[recipient], sender, frame, check, self._got)
        if self.alarms:
            raise self.alarms[0][1]
        return self._run()

    def _run(self) -> Any:
        result = None
        while self._todo:
            result = self._todo.pop(0)()
            if self.held:
                waited = sorted({sender for _, sender, _, _ in self.held})
                raise Stalled(waited, [f"seat {s}" for s in waited], "the steal")
        return result

    # -- public cards ------------------------------------------------------------------------

    def give(self, seat: int, cards: Sequence[str]) -> tuple[int, ...]:
        """Cards enter a hand face up, on every seat's copy (the rules say so: no message)."""
        handles = {s.seat: s.hands.give(seat, cards) for s in self.seats}
        if len(set(handles.values())) != 1:  # pragma: no cover - the copies are the same
            raise LocalProtocolError("the seats' hands disagree")
        return handles[seat]

    def spend(self, seat: int, handles: Sequence[int]) -> tuple[str, ...]:
        cards = {s.seat: s.hands.spend(seat, handles) for s in self.seats}
        return cards[seat]

    def new_hands(self) -> None:
        """Empty hands on every seat (a fresh trial; chains and sequence numbers go on)."""
        for seat in self.seats:
            seat.hands = Hands(self.name, self.kinds, len(self.seats))
            seat.keys = HandKeys(seat.hands, seat.seat)

    # -- the steal -------------------------------------------------------------------------------

    def steal(self, victim: int, thief: int) -> dict[int, tuple[int, str | None]]:
        """Thief takes one card of victim's hand at random.

        Returns what each seat learns: the thief ``(its new handle, the card)``,
        the victim ``(the old handle taken, the card)``, anyone else
        ``(the thief's new handle, None)``.  A frame the wire withheld raises
        ``Stalled``; ``resend`` then carries on.
        """
        self._todo = [
            lambda: self._shuffle(victim, thief),
            self.beacon,
            lambda: self._open(victim, thief),
            lambda: self._finish(victim, thief),
        ]
        return self._run()

    def _shuffle(self, victim: int, thief: int) -> None:
        for seat in self.seats:
            context = steal.steal_context(self.game_id, seat.basis, seat.hands, victim, thief)
            seat.steal = steal.begin(seat.hands, victim, thief, context)
        v = self.seats[victim]
        assert v.steal is not None
        body = steal.make_shuffle(v.steal, v.secrets.master)
        frame = v.frame("steal", body)

        def shuffle(seat: StealSeat, env: Any) -> None:
            assert seat.steal is not None
            if env is None:
                staged = steal.check_shuffle(seat.steal, body, own=True)
            else:
                staged = steal.check_shuffle(seat.steal, env.body, env.frame)
            steal.apply_shuffle(seat.steal, staged)

        self._got = self._carry(victim, frame, shuffle)

    def _open(self, victim: int, thief: int) -> None:
        v = self.seats[victim]
        assert v.steal is not None
        seq = v.seq
        thief_box = self.seats[thief].secrets.box_public
        eph = v.secrets.ephemeral(seq, thief)
        body = steal.make_open(v.steal, v.keys, v.secrets.master, v.boxes, seq, thief_box, eph)
        frame = v.frame("steal-open", body)
        self.last_open = (seq, frame)

        def opened(seat: StealSeat, env: Any) -> Any:
            assert seat.steal is not None
            if env is None:
                seat.steal.delivered = (body["eph"], body["h"], body["ct"])
                return None
            delivered = steal.check_open(seat.steal, env.body, env.frame, seat.ephemerals)
            got = steal.receive(seat.steal, delivered, seat.boxes, env.seq, env.frame) if seat.seat == thief else None
            seat.steal.delivered = delivered
            return got

        self._got = self._carry(victim, frame, opened)

    def _finish(self, victim: int, thief: int) -> dict[int, tuple[int, str | None]]:
        learned: dict[int, tuple[int, str | None]] = {}
        for seat in self.seats:
            assert seat.steal is not None
            st = seat.steal
            result = steal.finish(st, seat.keys, seat.secrets.master)
            seat.ephemerals.add(st.delivered[0])  # type: ignore[index]
            seat.basis = hashlib.sha256(seat.basis + st.context).digest()
            if result.lost is not None:
                learned[victim] = result.lost
            elif seat.seat == thief:
                card, rho = self._got[thief]
                seat.keys.learn(result.taken, card, rho)
                learned[thief] = (result.taken, card)
            else:
                learned[seat.seat] = (result.taken, None)
            seat.steal = None
        return learned

    def beacon(self) -> None:
        """One beacon round: every seat reveals its next chain value; the steal draws from them."""
        values: dict[int, dict[int, bytes]] = {s.seat: {} for s in self.seats}
        for sender in self.seats:
            value, _ = sender.chain.reveal(sender.chains[sender.seat])
            frame = sender.frame("dice", {"v": value})

            def accept(seat: StealSeat, env: Any, who: int = sender.seat) -> None:
                v = value if env is None else env.body["v"]
                try:
                    seat.chains[who] = seat.chains[who].after(v, None)
                except RemoteProtocolError as exc:
                    raise RemoteProtocolError(exc.message, seat=who) from None
                values[seat.seat][who] = v

            self._carry(sender.seat, frame, accept)
        picks = set()
        for seat in self.seats:
            assert seat.steal is not None
            drawn = [values[seat.seat][s] for s in range(len(self.seats))]
            picks.add(steal.draw(seat.steal, self.game_id, seat.rounds, drawn))
            seat.rounds += 1
        self.picks.extend(picks)

    # -- showing hidden cards ------------------------------------------------------------------

    def show(self, seat: int, handles: Sequence[int]) -> tuple[str, ...]:
        """``seat`` shows hidden cards of its hand to everyone, with proofs."""
        s = self.seats[seat]
        body = steal.make_show(s.hands, s.keys, handles, self.game_id, s.basis, s.secrets.master)
        frame = s.frame("show", body)

        def check(seat_: StealSeat, env: Any) -> tuple[str, ...]:
            if env is None:  # our own, applied as made
                steal.apply_show(seat_.hands, body)
                return tuple(body["cards"])
            cards = steal.check_show(seat_.hands, seat, env.body, self.game_id, seat_.basis, env.frame)
            steal.apply_show(seat_.hands, env.body)
            return cards

        return self._carry(seat, frame, check)[seat]



def victims_swap_in_an_ore(monkeypatch: Any, kinds: Sequence[str]) -> None:
    """Every victim (in this process) makes its first re-randomised slot an ore,
    leaving its proof as it was: the cheat of a victim that puts in a card it
    does not hold."""
    honest = steal.make_shuffle
    ore = Hands("res", kinds, 2).points["ore"]

    def lie(st: Steal, master: bytes) -> dict[str, Any]:
        body = honest(st, master)
        return {**body, "Y": group.mul(11, ore) + body["Y"][32:]}

    monkeypatch.setattr(steal, "make_shuffle", lie)
