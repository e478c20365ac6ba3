"""The fair random steal over real TCP sockets on loopback: seat 0 hosts and
relays every frame, seats 1.. connect to it.  A steal between two guests goes
through the host; an honest one tells thief and victim only, a host that
tampers with the private part on its way to the thief is the one blamed, and a
cheating victim is refused by every seat that checks it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from ankh.net.wire.envelope import Identity
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.io.transport import Connection, ConnectionClosed, connect, serve, server_port
from ankh.net.play.ops import Hello, StealCard
from ankh.net.play.seat import ANY_LINK, SeatProtocol

from .nethelp import cheat_body, decode
from .star import seat_secrets
from .stealnet import victims_swap_in_an_ore

KINDS = ("brick", "lumber", "wool", "grain", "ore")
PROLOGUE = b"ankh/1 table=57ea157ea157ea15"
VICTIM, THIEF = 2, 1
# relay(frame, sender, recipient) -> the bytes the host passes on (None: it holds them back)
Relay = Callable[[bytes, int, int], "bytes | None"]


class Star:
    def __init__(self, seed: bytes, relay: Relay | None = None) -> None:
        roster, secrets = seat_secrets(4, seed)
        self.seats = [SeatProtocol(roster, s, relay=ANY_LINK if s.seat == 0 else 0) for s in secrets]
        self.relay = relay
        self.conns: dict[int, Connection] = {}  # the host's side, by guest seat
        self.errors: list[tuple[int, RemoteProtocolError]] = []
        self.tasks: list[asyncio.Task] = []
        self.held: list[tuple[int, bytes]] = []  # (guest, frame) the host holds back
        self.release_when: Callable[[Star], bool] | None = None
        self.seen_waiting: list[tuple[int, ...]] = []

    # the host: a frame from a guest (or its own) goes to every other guest
    def host_got(self, frame: bytes, via: int) -> None:
        if via:
            self.deliver(0, frame, via)
        self.forward(frame, frame[0])
        for out in self.seats[0].data_to_send():
            self.forward(out, 0)

    def forward(self, frame: bytes, sender: int) -> None:
        for guest, conn in self.conns.items():
            if guest != sender:
                data = frame if self.relay is None else self.relay(frame, sender, guest)
                if data is None:
                    self.held.append((guest, frame))
                else:
                    conn.send_nowait(data)

    def deliver(self, seat: int, frame: bytes, via: int) -> None:
        if any(reporter == seat for reporter, _ in self.errors):
            return  # a seat that raised an alarm has stopped the game
        try:
            self.seats[seat].receive(frame, via=via)
        except RemoteProtocolError as exc:
            self.errors.append((seat, exc))

    async def run(self, ops: list[Any], until: Callable[[Star], bool] | None = None) -> None:
        """Request ``ops`` on every seat, one after the other, each until every seat is
        done with it (or, once a seat raised an alarm, until ``until(self)``)."""
        self.conns = {}  # a run opens its own connections (the seats carry on from the last run)

        async def on_connection(conn: Connection) -> None:
            guest = len(self.conns) + 1
            self.conns[guest] = conn
            try:
                while True:
                    self.host_got(await conn.recv(), guest)
            except ConnectionClosed:
                pass

        server = await serve("127.0.0.1", 0, Identity.from_seed(b"h" * 32), PROLOGUE, on_connection)
        port = server_port(server)
        guests: dict[int, Connection] = {}
        for g in (1, 2, 3):
            guests[g] = await connect("127.0.0.1", port, Identity.from_seed(bytes([g]) * 32), PROLOGUE)
            while len(self.conns) < g:
                await asyncio.sleep(0.01)

        async def guest_loop(g: int) -> None:
            try:
                while True:
                    frame = await guests[g].recv()
                    self.deliver(g, frame, 0)
                    for out in self.seats[g].data_to_send():
                        guests[g].send_nowait(out)
            except ConnectionClosed:
                pass

        self.tasks = [asyncio.create_task(guest_loop(g)) for g in guests]
        try:
            for op in ops:
                for seat in self.seats:
                    try:
                        seat.request(op)
                    except RemoteProtocolError as exc:  # a cheater's own lie, refused by its own ledger
                        self.errors.append((seat.seat, exc))
                for g, conn in guests.items():
                    for out in self.seats[g].data_to_send():
                        conn.send_nowait(out)
                for out in self.seats[0].data_to_send():
                    self.forward(out, 0)
                for _ in range(6000):  # up to 60 s on a busy machine
                    if not any(s.busy() for s in self.seats) or (self.errors and (until is None or until(self))):
                        break
                    if self.held and self.release_when is not None and self.release_when(self):
                        self.seen_waiting = [s.waiting_for() for s in self.seats]
                        for guest, frame in self.held:  # the host sends them after all
                            self.conns[guest].send_nowait(frame)
                        self.held = []
                    await asyncio.sleep(0.01)
                if self.errors:
                    break
        finally:
            for task in self.tasks:
                task.cancel()
            for conn in [*guests.values(), *self.conns.values()]:
                conn.close()
            server.close()
            await server.wait_closed()


def _steal(seed: bytes, relay: Relay | None = None, until: Callable[[Star], bool] | None = None) -> Star:
    star = Star(seed, relay)
    asyncio.run(star.run([Hello(), StealCard("res", KINDS, VICTIM, THIEF, ("brick", "ore", "wool"))], until))
    return star


def test_a_steal_between_two_guests_over_sockets_tells_thief_and_victim_only() -> None:
    star = _steal(b"sockets-honest")
    assert not star.errors and not any(s.busy() for s in star.seats)
    results = [s.ledger.results[-1] for s in star.seats]
    taken = results[THIEF].taken
    _, card = results[VICTIM].lost
    assert star.seats[THIEF].ledger.hand_keys["res"].of(taken)[0] == card
    assert [r.lost for i, r in enumerate(results) if i != VICTIM] == [None] * 3
    assert len({s.ledger.basis for s in star.seats}) == 1  # one history everywhere


def test_a_host_that_tampers_with_the_private_part_is_blamed_not_the_victim() -> None:
    def relay(frame: bytes, sender: int, recipient: int) -> bytes:
        if recipient == THIEF and sender == VICTIM and decode(frame)["kind"] == "steal-open":
            return frame[:-3] + bytes(3)
        return frame

    star = _steal(b"sockets-tamper", relay, until=lambda star: any(seat == THIEF for seat, _ in star.errors))
    assert [(seat, exc.seat) for seat, exc in star.errors] == [(THIEF, 0)], star.errors
    assert "signature" in star.errors[0][1].message


@pytest.mark.parametrize("host_is_victim", [False, True])
def test_a_cheating_victim_is_refused_over_sockets_by_every_seat_that_checks(
    host_is_victim: bool, monkeypatch: Any
) -> None:
    victims_swap_in_an_ore(monkeypatch, KINDS)
    victim = 0 if host_is_victim else VICTIM
    star = Star(b"sockets-cheat")
    others = {0, 1, 2, 3} - {victim}

    def all_refused(star: Star) -> bool:
        return {seat for seat, _ in star.errors} == others

    asyncio.run(star.run([Hello(), StealCard("res", KINDS, victim, THIEF, ("brick", "wool"))], all_refused))
    assert {exc.seat for _, exc in star.errors} == {victim}, star.errors
    assert {seat for seat, _ in star.errors} == others


def test_a_host_that_withholds_the_private_part_only_delays_the_steal() -> None:
    def relay(frame: bytes, sender: int, recipient: int) -> bytes | None:
        if recipient == THIEF and decode(frame)["kind"] == "steal-open":
            return None
        return frame

    star = Star(b"sockets-withhold", relay)

    def stuck(star: Star) -> bool:  # everyone else is done; the thief waits
        return all(not s.busy() for i, s in enumerate(star.seats) if i != THIEF) and star.seats[THIEF].busy()

    star.release_when = stuck
    asyncio.run(star.run([Hello(), StealCard("res", KINDS, VICTIM, THIEF, ("brick", "ore", "wool"))]))
    # while it was held back, the thief waited for the victim's message, which the
    # others had: the private part cannot be withheld apart from the public one
    assert star.seen_waiting[THIEF] == (VICTIM,)
    assert not star.errors and not any(s.busy() for s in star.seats)
    taken, (_, card) = star.seats[THIEF].ledger.results[-1].taken, star.seats[VICTIM].ledger.results[-1].lost
    assert star.seats[THIEF].ledger.hand_keys["res"].of(taken)[0] == card


def test_over_sockets_a_wrong_key_is_refused_by_the_thief_alone() -> None:
    from ankh.net.fair import group
    from ankh.net.fair.seal import digest

    star = Star(b"sockets-wrong-key")
    victim = star.seats[VICTIM]

    def wrong_key(body: dict[str, Any]) -> None:
        seq, box = victim._seq_out, victim.ledger.box[THIEF]
        plaintext = group.scalar_to_bytes(777)
        _, body["ct"] = victim.boxes.seal(VICTIM, THIEF, seq, box, plaintext, victim.secrets.ephemeral(seq, THIEF))
        body["h"] = digest(plaintext)

    cheat_body(star, VICTIM, "steal-open", wrong_key)  # type: ignore[arg-type]
    steal_op = StealCard("res", KINDS, VICTIM, THIEF, ("brick", "ore", "wool"))
    asyncio.run(star.run([Hello(), steal_op], lambda s: any(r == THIEF for r, _ in s.errors)))
    assert [(r, exc.seat) for r, exc in star.errors] == [(THIEF, VICTIM)]
    assert "does not open the picked slot" in star.errors[0][1].message
    assert len(star.errors[0][1].evidence) == 2  # the victim's signed frame and the plaintext: anyone can judge


@pytest.mark.parametrize("biased", [0, THIEF, VICTIM], ids=["host", "thief", "victim"])
def test_over_sockets_a_biased_pick_is_refused_by_everyone_else(biased: int) -> None:
    star = Star(b"sockets-bias-%d" % biased)

    def choose(body: dict[str, Any]) -> None:
        body["v"] = bytes(32)  # a value of its choosing, not its chain's

    # its first dice value after the hello is the steal's pick
    cheat_body(star, biased, "dice", choose)  # type: ignore[arg-type]
    others = {0, 1, 2, 3} - {biased}

    def refused(s: Star) -> bool:
        return {r for r, _ in s.errors} >= others

    asyncio.run(star.run([Hello(), StealCard("res", KINDS, VICTIM, THIEF, ("brick", "ore"))], refused))
    assert {exc.seat for r, exc in star.errors if r != biased} == {biased}
    assert "preimage" in next(exc for r, exc in star.errors if r != biased).message


def test_over_sockets_a_thief_that_shows_another_card_is_refused_by_everyone_else() -> None:
    from ankh.net.play.ops import ShowSlots

    star = _steal(b"sockets-claim")
    taken = star.seats[THIEF].ledger.results[-1].taken
    card = star.seats[THIEF].ledger.hand_keys["res"].of(taken)[0]
    claim = next(k for k in KINDS if k != card)

    def other_card(body: dict[str, Any]) -> None:
        body["cards"] = [claim]

    cheat_body(star, THIEF, "show", other_card)  # type: ignore[arg-type]
    others = {0, 1, 2, 3} - {THIEF}
    asyncio.run(star.run([ShowSlots("res", THIEF, (taken,))], lambda s: {r for r, _ in s.errors} >= others))
    assert {(r, exc.seat) for r, exc in star.errors} == {(r, THIEF) for r in others}
    assert all(f"does not hold {claim!r}" in exc.message for _, exc in star.errors)


def test_over_sockets_a_hand_holding_a_stolen_card_is_robbed_in_turn() -> None:
    star = _steal(b"sockets-nested")
    taken = star.seats[THIEF].ledger.results[-1].taken
    card = star.seats[THIEF].ledger.hand_keys["res"].of(taken)[0]
    asyncio.run(star.run([StealCard("res", KINDS, THIEF, 3, ("grain", taken))]))  # the thief is robbed by seat 3
    assert not star.errors and not any(s.busy() for s in star.seats)
    second = star.seats[3].ledger.results[-1]
    got = star.seats[3].ledger.hand_keys["res"].of(second.taken)[0]
    assert got in ("grain", card) and star.seats[THIEF].ledger.results[-1].lost[1] == got
    assert len({s.ledger.basis for s in star.seats}) == 1
