"""Attacks on who a joined seat names in its own wait at the audit (docs/fairness.md,
"At the audit", rule 1): a seat is named only on proof, on its direct link, that it was
there without its disclosure.  Each test is an attack tried, as a withholder, an honest
seat whose link the network holds, or a peer saying crafted frames."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ankh.net.io.savedir import SaveDir
from ankh.net.fair.evidence import proven
from ankh.net.tablecore.effects import TellSeats, WatchEnd
from ankh.net.tablecore.join import MINE_AHEAD, JoinTable
from ankh.net.tablecore.seats import Saved
from ankh.net.wire.envelope import HEADER_LEN, pack, unpack_strict
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.wire.lobby import decode

from tests.net import nethelp
from tests.net.test_join_table import (
    Clock, Table, Three, _at_the_audit_without_green, _green_says_here, _wait_out, wire,
)


def _own(t: Any, msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in msgs if m["f"][:1] == bytes([2])]


def _theirs(t: Any, msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in msgs if m["f"][:1] != bytes([2])]


def _disclosure(t: Any) -> bytes:
    """Green's part of the audit: the frame yellow's log waits for from it."""
    yellow, green = t.seats[1], t.seats[2]
    frame = green.peer.protocol.signed(2, yellow.peer.protocol.have()[2])
    assert frame is not None
    return frame


def _forged(frame: bytes) -> bytes:
    """``frame`` with its signature spoiled: the same signer and number, no check passes."""
    return frame[:1] + bytes(HEADER_LEN - 1) + frame[HEADER_LEN:]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_withholder_that_spends_its_own_check_budget_on_forged_disclosures_is_named_all_the_same(seed: int) -> None:
    """A withholder says, at its disclosure's number, forged frames (their signatures
    spoiled) more than the few a second yellow checks, then talks on (the others'
    frames of its log).  The one left unchecked might have been its disclosure, so what
    follows proves nothing at once; but checked once the wait is over it is no
    disclosure: the withholder is named, as one that talks on without forging."""
    t = _at_the_audit_without_green(seed)
    yellow = t.seats[1]
    forged = _forged(_disclosure(t))
    for _ in range(MINE_AHEAD + 1):  # (the last one over yellow's budget: left unchecked)
        yellow.seat_said(2, wire({"t": "mine", "f": forged}))
    for _ in range(3):  # its beats: never its disclosure, the others' frames of its log
        for msg in _theirs(t, _green_says_here(t)):
            yellow.seat_said(2, msg)
    named = _wait_out(t)
    assert named.forfeit == (2,) and str(named.text).startswith("forfeit: green"), named.text


@pytest.mark.parametrize("seed", [1, 2])
def test_an_honest_seat_whose_disclosure_came_unchecked_in_a_burst_is_not_named(seed: int) -> None:
    """The network holds green's link and lets its beats through all at once: yellow's
    budget of checks may leave green's disclosure unchecked, the others' frames after
    it then prove nothing; checked later (the next beat, or once the wait is over) it
    clears green.  Here the budget is spent before green's first disclosure arrives
    (its own frames ahead of it, from the same burst): green is cleared all the same."""
    t = _at_the_audit_without_green(seed)
    yellow = t.seats[1]
    yellow.clock = t.clock
    said = _green_says_here(t)
    disclosure = _disclosure(t)
    assert said[0]["f"] == disclosure or disclosure in [m["f"] for m in _own(t, said)]
    for _ in range(MINE_AHEAD):  # (the budget spent: what follows now goes unchecked)
        assert yellow._mine_checks.allow(2, t.clock.now)
    for msg in said:  # one beat: its disclosure (unchecked), then the others' frames of its log
        yellow.seat_said(2, msg)
    assert 2 not in yellow.alive and 2 not in yellow.disclosed
    cleared = _wait_out(t)  # (no beat after: the frame left unchecked is checked at the end)
    assert 2 in yellow.disclosed and not cleared.forfeit and "(green)" not in str(cleared.text), cleared.text


@pytest.mark.parametrize("seed", [1, 2])
def test_an_honest_seat_whose_unchecked_disclosure_is_checked_on_its_next_beat_is_not_named(seed: int) -> None:
    t = _at_the_audit_without_green(seed)
    yellow = t.seats[1]
    for _ in range(MINE_AHEAD):
        assert yellow._mine_checks.allow(2, t.clock.now)
    for msg in _green_says_here(t):
        yellow.seat_said(2, msg)
    t.clock.now += 1.0  # its next beat, the budget back
    for msg in _green_says_here(t):
        yellow.seat_said(2, msg)
    assert 2 in yellow.disclosed and 2 not in yellow.alive
    cleared = _wait_out(t)
    assert not cleared.forfeit and "(green)" not in str(cleared.text), cleared.text


@pytest.mark.parametrize("seed", [1, 2])
def test_a_withholder_that_forges_once_then_signs_frames_past_its_disclosure_is_named(seed: int) -> None:
    """A withholder fills yellow's budget with forged frames at its disclosure's number,
    lets one go unchecked, and sends a second, different forgery later, checked: the one
    left unchecked is still unknown, and is checked at the end: it is named."""
    t = _at_the_audit_without_green(seed)
    yellow = t.seats[1]
    real = _disclosure(t)
    for i in range(MINE_AHEAD + 1):
        yellow.seat_said(2, wire({"t": "mine", "f": real[:1] + bytes([i + 1]) * (HEADER_LEN - 1) + real[HEADER_LEN:]}))
    for msg in _theirs(t, _green_says_here(t)):
        yellow.seat_said(2, msg)
    t.clock.now += 1.0
    yellow.seat_said(2, wire({"t": "mine", "f": _forged(real)}))
    for msg in _theirs(t, _green_says_here(t)):
        yellow.seat_said(2, msg)
    named = _wait_out(t)
    assert named.forfeit == (2,), named.text


@pytest.mark.parametrize("msg", [
    {"t": "mine"}, {"t": "mine", "f": 7}, {"t": "mine", "f": [b"x"]}, {"t": "mine", "f": b"\x02" * (HEADER_LEN + 1)},
    {"t": "mine", "f": b"\x09" + bytes(HEADER_LEN) + b"\x81\xa3seq\x05"}, {"t": "mine", "f": b""},
])
def test_crafted_audit_time_frames_on_a_link_never_crash_a_seat_in_its_own_wait(msg: dict[str, Any]) -> None:
    """What a seat's link carries is decoded against the message's form first (a peer's
    malformed message closes its link); a well-formed ``mine`` with a frame of nothing,
    another signer's number out of range, or bytes that are no frame is set aside: the
    seat's own wait goes on and names nobody on it."""
    t = _at_the_audit_without_green(1)
    yellow = t.seats[1]
    try:
        heard = wire(msg)
    except RemoteProtocolError:
        return  # (its link closes: ``SeatLinks.serve``)
    yellow.seat_said(2, heard)
    assert 2 not in yellow.alive
    result = _wait_out(t)
    assert not result.forfeit and "waited for green" in str(result.text), result.text


@pytest.mark.parametrize("seed", [1, 2])
def test_frames_of_another_table_its_player_plays_never_prove_an_honest_seat_there(seed: int) -> None:
    """Each install has one identity, and a link proves only that: a host that seats the
    same two people at a second table (at its audit too) can point green's program there
    at yellow's watch point of this one, and hold green's own link here dark.  What that
    program says (its frames, and the others' frames of its log) is no frame of this
    game: it proves nothing here, and green is not named."""
    t = _at_the_audit_without_green(seed)
    other = _at_the_audit_without_green(seed + 10)
    yellow = t.seats[1]
    for _ in range(3):
        for msg in _green_says_here(other):
            yellow.seat_said(2, msg)
        t.clock.now += 1.0
    assert 2 not in yellow.alive
    result = _wait_out(t)
    assert not result.forfeit and "waited for green" in str(result.text), result.text


@pytest.mark.parametrize("seed", [1, 2])
def test_an_honest_disclosure_left_unchecked_behind_another_frame_at_its_number_still_clears_it(seed: int) -> None:
    """Yellow's budget spent, a frame at green's disclosure's number that fails its check
    (as one of another table that green's player's program says there) comes unchecked,
    then green's own beat here (its disclosure, unchecked too, and the others' frames),
    and its link goes dark.  Every such frame is checked at the end: the disclosure
    among them clears green."""
    t = _at_the_audit_without_green(seed)
    yellow = t.seats[1]
    for _ in range(MINE_AHEAD):
        assert yellow._mine_checks.allow(2, t.clock.now)
    yellow.seat_said(2, wire({"t": "mine", "f": _forged(_disclosure(t))}))
    for msg in _green_says_here(t):
        yellow.seat_said(2, msg)
    assert 2 not in yellow.alive
    result = _wait_out(t)
    assert 2 in yellow.disclosed and not result.forfeit and "(green)" not in str(result.text), result.text


def _of_another_game(frame: bytes, n: int) -> bytes:
    """A frame at ``frame``'s signer and number that says another game (as one of another
    table its player's program says there would)."""
    payload = dict(unpack_strict(frame[HEADER_LEN:]))
    payload["game"] = bytes([n + 1]) * len(payload["game"])
    return frame[:HEADER_LEN] + pack(payload)


@pytest.mark.parametrize("seed", [1, 2])
def test_many_frames_of_other_tables_at_a_disclosures_number_never_crowd_it_out(seed: int) -> None:
    """The frames left unchecked at a seat's disclosure's number are kept a few at most;
    those that say another game (other tables its player plays) are not kept at all, so
    however many come first, an honest disclosure left unchecked behind them is checked
    at the end and clears the seat."""
    t = _at_the_audit_without_green(seed)
    yellow = t.seats[1]
    for _ in range(MINE_AHEAD):
        assert yellow._mine_checks.allow(2, t.clock.now)
    for n in range(2 * MINE_AHEAD):
        yellow.seat_said(2, wire({"t": "mine", "f": _of_another_game(_disclosure(t), n)}))
    for msg in _green_says_here(t):
        yellow.seat_said(2, msg)
    result = _wait_out(t)
    assert 2 in yellow.disclosed and not result.forfeit and "(green)" not in str(result.text), result.text


def _green_at_the_audit_before_yellow(seed: int) -> Any:
    """As ``_at_the_audit_without_green``, but stopped where green's log is at the audit
    (its disclosure signed) and yellow's not yet: the host relays to yellow last."""
    t = Three(seed)
    yellow, green = t.seats[1], t.seats[2]
    yellow.connected(t.host.identity.public_key)
    t.pump(until=lambda: 1 in t.arrived)
    green.connected(t.host.identity.public_key)
    t.pump(until=lambda: green.peer is not None and green.peer.phase in ("audit", "final"), first=lambda dst: dst != 1)
    assert yellow.peer.phase == "play"
    return t


def _beat_split_around_the_audit(t: Any, said: list[dict[str, Any]], own: list[dict[str, Any]]) -> None:
    """Green's own frames (its disclosure among them) reach yellow a step short of the
    audit; the host then lets yellow's log reach it (keeping what yellow hands it), the
    rest of green's beat follows, and the host ends the table at yellow."""
    yellow = t.seats[1]
    for msg in own:
        yellow.seat_said(2, msg)
    t._effects()
    t.queue = [q for q in t.queue if q[2]["t"] != "theirs"]
    t.pump(until=lambda: False)
    assert yellow.peer.phase == "audit" and yellow.peer.waiting_for() == (2,)
    for msg in said[len(own):]:
        yellow.seat_said(2, msg)
    yellow.seat_reached(2, True)
    yellow.received({"t": "bye", "why": "the host gave up on green"})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_honest_disclosure_heard_just_before_the_audit_still_clears_it_after(seed: int) -> None:
    """The network lets green's beat through up to its disclosure while yellow's log is a
    step short of the audit (the host holds green's last move from it), then holds the
    rest; the host lets yellow's log reach the audit, the network lets the rest of the
    beat through (the others' frames of green's log), and green's link goes dark for
    good.  Its disclosure came first on the link: green is not named."""
    t = _green_at_the_audit_before_yellow(seed)
    yellow = t.seats[1]
    said = _green_says_here(t)
    own = _own(t, said)
    _beat_split_around_the_audit(t, said, own)
    assert yellow.provisional and yellow._own_wait and 2 not in yellow.alive
    result = _wait_out(t)
    assert 2 in yellow.disclosed and not result.forfeit and "(green)" not in str(result.text), result.text


@pytest.mark.parametrize("seed", [1, 2])
def test_a_withholder_that_said_a_forgery_at_its_number_before_the_audit_is_named(seed: int) -> None:
    """What a seat said at its disclosure's number before our log reached the audit is
    held as what may be its disclosure; a forgery there, checked at the end, was none:
    a withholder that talks on is named."""
    t = _green_at_the_audit_before_yellow(seed)
    yellow = t.seats[1]
    green = t.seats[2]
    real = green.peer.protocol.signed(2, green.peer.protocol.have()[2] - 1)
    assert nethelp.decode(real)["kind"] == "audit"
    for _ in range(MINE_AHEAD + 1):
        yellow.seat_said(2, wire({"t": "mine", "f": _forged(real)}))
    t.pump(until=lambda: False)
    assert yellow.peer.phase == "audit" and yellow.peer.waiting_for() == (2,)
    for msg in _theirs(t, _green_says_here(t)):
        yellow.seat_said(2, msg)
    yellow.received({"t": "bye", "why": "the host gave up on green"})
    result = _wait_out(t)
    assert result.forfeit == (2,), result.text



@pytest.mark.parametrize("seed", [1, 2])
def test_an_honest_seat_the_host_told_another_story_is_not_named_when_its_link_is_cut_before_the_twin(seed: int) -> None:
    """The host signed one of its frames before the audit twice, one version to yellow
    and one to green: green's honest disclosure is then over another log hash, and its
    frames of its log (rule 3) are yellow's up to the fork, then the host's twin.  The
    network lets green's beat through up to just before the twin, then cuts the link for
    good.  Nothing yellow heard shows that green's log is yellow's: a disclosure over
    another hash and frames before the audit are what a seat told another story says
    too.  Yellow does not name green (the host alone may).  A withholder whose log is
    yellow's says the others' frames of the audit as yellow holds them, and is named
    (the tests above)."""
    t = _at_the_audit_without_green(seed)
    yellow = t.seats[1]
    held = yellow.peer.protocol
    own = _own(t, _green_says_here(t))
    disclosure = _disclosure(t)
    bogus = nethelp.resign(disclosure, t.ids[2], lambda body: body.__setitem__("basis", bytes(32)))
    before = [held.signed(s, held.have()[s] - 2) for s in (1, 0)]  # (the frames of its log before the fork)
    assert all(f is not None and nethelp.decode(f)["kind"] != "audit" for f in before)
    for msg in [m for m in own if m["f"] != disclosure] + [wire({"t": "mine", "f": f}) for f in [bogus, *before]]:
        yellow.seat_said(2, msg)
    t.clock.now += 1.0
    for f in [bogus, *before]:  # (its next beat, the budget back, cut as short)
        yellow.seat_said(2, wire({"t": "mine", "f": f}))
    result = _wait_out(t)
    assert not result.forfeit and "(green)" not in str(result.text), result.text


@pytest.mark.parametrize("seed", [1, 2])
def test_a_withholder_flooding_copies_and_forgeries_is_named_and_what_yellow_keeps_stays_a_few_frames(
        seed: int) -> None:
    """A withholder says, over and over, byte-for-byte copies of the others' frames of
    the audit step and many distinct forgeries at its disclosure's number and past it:
    yellow keeps a few frames of it at most, checks a few a second, and names it."""
    t = _at_the_audit_without_green(seed)
    yellow = t.seats[1]
    real = _disclosure(t)
    copies = _theirs(t, _green_says_here(t))
    for n in range(200):
        forged = real[:1] + n.to_bytes(2, "big") * ((HEADER_LEN - 1) // 2) + real[HEADER_LEN:]
        yellow.seat_said(2, wire({"t": "mine", "f": forged}))
        for msg in copies:
            yellow.seat_said(2, msg)
        t.clock.now += 0.01
    assert len(yellow._unsure.get(2, [])) <= MINE_AHEAD and not yellow._before
    named = _wait_out(t)
    assert named.forfeit == (2,), named.text


@pytest.mark.parametrize("seed", [1, 2])
def test_a_withholder_that_says_only_frames_before_the_audit_is_left_to_the_host(seed: int) -> None:
    """The price of never naming a seat the host told another story: a withholder that
    says only frames of its log before the audit step (as such a seat would) is not
    proved at the audit over our log; yellow says whom the game waited for and leaves
    the naming to the host, as for a seat whose link went silent."""
    t = _at_the_audit_without_green(seed)
    yellow = t.seats[1]
    held = yellow.peer.protocol
    before = [held.signed(s, held.have()[s] - 2) for s in (0, 1)]
    for _ in range(3):
        for f in before:
            yellow.seat_said(2, wire({"t": "mine", "f": f}))
        t.clock.now += 1.0
    assert 2 not in yellow.alive
    result = _wait_out(t)
    assert not result.forfeit and "waited for green" in str(result.text), result.text


@pytest.mark.parametrize("seed", [1, 2])
def test_frames_heard_before_the_audit_stay_a_few_and_an_honest_disclosure_said_after_them_still_clears_it(
        seed: int) -> None:
    """Before yellow's log is at the audit, green's link carries many distinct frames at
    and past its disclosure's number (forgeries, as another program of its player might
    say): yellow keeps the last few only.  Then green's honest beat (its disclosure
    first), the host lets yellow's log reach the audit, the rest of the beat, and the
    link goes dark: green is cleared."""
    t = _green_at_the_audit_before_yellow(seed)
    yellow = t.seats[1]
    said = _green_says_here(t)
    own = _own(t, said)
    disclosure = next(m["f"] for m in own if nethelp.decode(m["f"])["kind"] == "audit")
    for n in range(100):
        forged = disclosure[:1] + n.to_bytes(2, "big") * ((HEADER_LEN - 1) // 2) + disclosure[HEADER_LEN:]
        yellow.seat_said(2, wire({"t": "mine", "f": forged}))
    assert len(yellow._before[2]) <= MINE_AHEAD
    _beat_split_around_the_audit(t, said, own)
    result = _wait_out(t)
    assert 2 in yellow.disclosed and not result.forfeit and "(green)" not in str(result.text), result.text


@pytest.mark.parametrize("seed", [1, 2])
def test_a_host_that_signs_two_frames_of_the_audit_step_is_named_and_the_seat_holding_the_other_is_not(
        seed: int) -> None:
    """The host signs its part of the audit twice over the same log hash (another order
    of its deck for green): green's frames of its log then carry the host's frame of the
    audit step, but not the bytes yellow's log holds.  That proves nothing of green (it
    is not taken as there without its disclosure), and it is the host's two stories:
    yellow names the host, with both frames as evidence, and never green."""
    t = _at_the_audit_without_green(seed)
    yellow = t.seats[1]
    ours = next(m["f"] for m in _theirs(t, _green_says_here(t)) if m["f"][:1] == bytes([0])
                and nethelp.decode(m["f"])["kind"] == "audit")

    def other_order(body: dict[str, Any]) -> None:
        body["decks"][0]["perm"] = bytes(reversed(body["decks"][0]["perm"]))

    twin = nethelp.resign(ours, t.host._secrets[0].identity, other_order)
    assert twin != ours
    yellow.take()
    yellow.seat_said(2, wire({"t": "mine", "f": twin}))
    assert 2 not in yellow.alive
    result = yellow.result
    assert not result.forfeit and "red (host) broke the rules" in str(result.text), result.text
    # its spectators hear the evidence, and ``ankh verify`` of its save judges it the same way
    told = [decode(m) for e in yellow.take() if isinstance(e, WatchEnd) for m in e.messages]
    (blame,) = [m["f"] for m in told if m["t"] == "blame"]
    assert set(blame) == {ours, twin}
    protocol = yellow.peer.protocol
    verdict = proven(protocol.roster, (f for _, frames in protocol.ledger.log for f in frames), list(blame))
    assert verdict is not None and verdict.seat == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_honest_seat_never_holds_another_seats_frame_of_the_audit_step_before_its_own_disclosure(
        seed: int) -> None:
    """What the rule rests on: an honest seat signs its part of the audit as its log
    reaches the audit, before it takes any other seat's frame of that step.  Checked
    after every message of a whole table: whenever a joiner's beat would say another
    seat's frame of the audit step, its own disclosure is in its log (and its beat says it first)."""
    t = Three(seed)
    early: list[tuple[int, int]] = []
    seen: list[int] = []  # (each time a joiner's beat would say another seat's frame of the audit step)

    def check() -> bool:
        for s, seat in t.seats.items():
            if seat.peer is None or seat.peer.phase not in ("audit", "final"):
                continue
            protocol = seat.peer.protocol
            if not any(seat._of_the_audit(f) for f in seat._log_since()):
                continue
            seen.append(s)
            if not any(seat._of_the_audit(protocol.signed(s, q) or b"") for q in range(protocol.have()[s])):
                early.append((s, protocol.have()[s]))
        return False

    t.seats[1].connected(t.host.identity.public_key)
    t.pump(until=lambda: 1 in t.arrived)
    t.seats[2].connected(t.host.identity.public_key)
    t.pump(until=check)
    assert set(seen) == {1, 2} and not early, early


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_restarted_at_the_audit_says_the_same_disclosure_before_any_other_frame_of_the_audit(
        tmp_path: Path, seed: int) -> None:
    """An honest joiner killed at the audit (its disclosure signed, the host's not yet
    taken) and carried on from its save: its journal keeps finished steps only, so it
    takes the audit up again with none of the others' frames of it, signs its
    disclosure again at once, byte for byte the one it sent before (no second frame
    under its number for anyone to name), and its first beat says it."""
    t = Table(tmp_path, seed=seed)
    t.joiner.connected(t.host.identity.public_key)
    t.pump(until=lambda: t.joiner.peer is not None and t.joiner.peer.phase == "audit")
    before = t.joiner.peer.protocol
    disclosure = before.signed(1, before.have()[1] - 1)
    assert disclosure is not None and t.joiner._of_the_audit(disclosure)
    assert t.save is not None
    t.save.close()  # the process is killed here
    transcript, info, secrets = SaveDir(t.save.path).load()
    again = JoinTable(t.identity, "", clock=Clock(), saved=Saved(transcript, info, secrets, t.save.path))
    held = again.peer.protocol
    assert again.peer.phase == "audit" and held.signed(1, held.have()[1] - 1) == disclosure
    assert not any(again._of_the_audit(f) for f in again._log_since())
    again.take()
    again.say_here()
    said = [e.msg["f"] for e in again.take() if isinstance(e, TellSeats)]
    assert disclosure in said


@pytest.mark.parametrize("seed", [1, 2])
def test_a_withholder_that_says_back_only_yellows_own_frame_of_the_audit_step_is_named(seed: int) -> None:
    """Yellow's own part of the audit, byte for byte, on green's link: green's log took
    it, so green's log is yellow's up to the audit and an honest green would have said
    its disclosure over it first.  A withholder that says only that frame is named."""
    t = _at_the_audit_without_green(seed)
    yellow = t.seats[1]
    held = yellow.peer.protocol
    own = held.signed(1, held.have()[1] - 1)
    assert own is not None and yellow._of_the_audit(own)
    for _ in range(3):
        yellow.seat_said(2, wire({"t": "mine", "f": own}))
        t.clock.now += 1.0
    assert 2 in yellow.alive
    named = _wait_out(t)
    assert named.forfeit == (2,) and str(named.text).startswith("forfeit: green"), named.text
