"""A seat's secrets survive a round trip through bytes, and a crashed seat resumes."""

from __future__ import annotations

import pytest
from ankh.net.fair.deck import DeckSpec
from ankh.net.wire.errors import LocalProtocolError, RemoteProtocolError
from ankh.net.play.ops import LockDeck, Sync
from ankh.net.play.seat import SeatProtocol
from ankh.net.files.secrets import SeatSecrets
from ankh.net.files.transcript import Transcript

from .nethelp import PERSONALITIES, small_decks, table


def test_secrets_round_trip() -> None:
    t = table(2, seed=b"secrets", decks=small_decks())
    original = t.seats[1].secrets
    data = original.to_bytes()
    again = SeatSecrets.from_bytes(data)
    assert again.to_bytes() == data
    assert (again.game_id, again.seat, again.master) == (original.game_id, original.seat, original.master)
    assert again.identity.public_key == original.identity.public_key
    assert again.box_public == original.box_public and again.dice_seed(3) == original.dice_seed(3)
    spec = small_decks()[0]
    a, b = original.deck(spec), again.deck(spec)
    assert (a.e, a.perm, [a.key(j) for j in range(spec.size)]) == (b.e, b.perm, [b.key(j) for j in range(spec.size)])
    for bad in (b"", data[:-3], data.replace(b"ankh-seat-secrets", b"ankh-seat-secretz"), b"\x80"):
        with pytest.raises(RemoteProtocolError):
            SeatSecrets.from_bytes(bad)


def test_crashed_seat_resumes_from_secrets_and_transcript() -> None:
    t = table(3, seed=b"resume", decks=small_decks())
    (mine,) = t.deal("player", 2)
    (gift,) = t.deal("player", 1)
    t.pass_cards("player", [gift], 2)  # seat 2 learns it from a private message
    t.roll("before the crash")
    old = t.seats[2]
    saved_secrets, saved_log = t.secrets(2), t.transcript(0).to_bytes()

    seat = SeatProtocol.resume(t.roster, SeatSecrets.from_bytes(saved_secrets), Transcript.from_bytes(saved_log))
    assert seat.ledger.basis == old.ledger.basis
    assert seat.known == old.known and seat.card("player", gift) is not None
    assert seat.ledger.private == old.ledger.private
    t.replace(2, seat)
    (third,) = t.deal("player", 2)
    assert t.known(2, "player", third) is not None
    t.roll("after the crash")
    t.look("personalities", [0, 1], 2)
    outcome = t.audit()
    assert outcome.fair
    assert t.known(2, "player", mine) == outcome.decks["player"][mine]

    with pytest.raises(LocalProtocolError):
        SeatProtocol.resume(table(3, seed=b"another").roster, seat.secrets, Transcript.from_bytes(saved_log))


@pytest.mark.parametrize("crash", ["after its shuffle", "after the challenge", "half-way through the challenge"])
def test_seat_resumes_in_the_middle_of_a_proven_shuffle(crash: str) -> None:
    spec = DeckSpec.of("personalities", PERSONALITIES)
    done = table(3, seed=b"resume-shuffle")
    done.setup([spec])
    full = done.transcript(0)
    # steps: hello, Ann's shuffle, challenge, proof, Bob's shuffle (4), challenge (5), proof (6), ...
    cut = {"after its shuffle": 5, "after the challenge": 6, "half-way through the challenge": 5}[crash]
    pending = [f for f in full.ops[5] if f[0] == 1] if crash.startswith("half") else []
    seat = SeatProtocol.resume(done.roster, done.seats[1].secrets, Transcript(done.roster, full.ops[:cut], pending))
    seat.request(LockDeck("personalities"))
    seat.request(Sync())
    sent = seat.data_to_send()
    for op in full.ops[cut:]:
        for frame in op:
            if frame[0] != 1:
                seat.receive(frame, via=frame[0])
                sent += seat.data_to_send()
    # it carried on exactly as the seat that never crashed: same frames, same log
    assert sent == [f for op in full.ops[cut:] for f in op if f[0] == 1 and f not in pending]
    assert seat.ledger.basis == done.seats[1].ledger.basis and not seat.busy()


def test_secrets_file_holds_a_certified_game_key_not_the_identity() -> None:
    from ankh.net.wire.envelope import Identity
    from ankh.net.files.transcript import Roster, certificate_message

    install = Identity.from_seed(b"i" * 32)
    mine = SeatSecrets.generate(b"g" * 16, 0, install)
    data = mine.to_bytes()
    assert install.seed not in data and mine.identity.public_key != install.public_key
    again = SeatSecrets.from_bytes(data)
    assert (again.owner, again.cert) == (install.public_key, mine.cert)
    other = SeatSecrets.generate(b"g" * 16, 1, Identity.from_seed(b"j" * 32))

    def roster(game: bytes, certs: tuple[bytes, bytes]) -> Roster:
        return Roster(
            game, ("Ann", "Bob"), (mine.identity.public_key, other.identity.public_key),
            (install.public_key, other.owner), certs,
        )

    r = roster(b"g" * 16, (mine.cert, other.cert))
    assert r.fingerprint(0) == install.fingerprint and "Ann (seat 0, " + install.fingerprint in r.label(0)
    # a game key (say, from a stolen secrets file) is certified for one game and one seat only
    with pytest.raises(LocalProtocolError, match="not certified"):
        roster(b"h" * 16, (mine.cert, other.cert))
    with pytest.raises(LocalProtocolError, match="not certified"):
        roster(b"g" * 16, (other.cert, mine.cert))
    forged = Identity.from_seed(b"x" * 32).sign(certificate_message(b"g" * 16, 0, mine.identity.public_key))
    with pytest.raises(LocalProtocolError, match="not certified"):
        roster(b"g" * 16, (forged, other.cert))
