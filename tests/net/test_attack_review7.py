"""Attacks on a seat kept before its save (``taking-<host key>``, ``SeatTaken``, the
``KeepSeat``/``LetGoSeat`` effects): what a host, another program of the same player
or a stranger on the machine could make of it.  Each test is what should happen."""
from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from ankh.net.files.secrets import SeatSecrets
from ankh.net.io import savedir
from ankh.net.io import sim
from ankh.net.io.node import HostNode
from ankh.net.io.savedir import SeatTaken
from ankh.net.tablecore.effects import KeepSeat
from ankh.net.tablecore.join import JoinTable
from ankh.net.tablecore.save import save_path
from ankh.net.wire.envelope import Identity

from . import simtable
from .test_join_table import Table, wire


def _kept_file(tmp_path: Path) -> tuple[bytes, SeatSecrets, SeatTaken]:
    host_key = Identity.generate().public_key
    secrets = SeatSecrets.generate(bytes(16), 1, Identity.generate())
    return host_key, secrets, SeatTaken(tmp_path / "saves", host_key)


def test_a_link_planted_where_the_seat_is_kept_is_not_followed(tmp_path: Path) -> None:
    """Another user who can write in the saves folder puts a link to a file of theirs,
    readable by all, where the seat would be kept: its secrets are never written there."""
    host_key, secrets, taken = _kept_file(tmp_path)
    (tmp_path / "saves").mkdir()
    theirs = tmp_path / "theirs"
    theirs.write_bytes(b"")
    theirs.chmod(0o666)
    taken.path.symlink_to(theirs)
    assert taken.hold() is None
    taken.keep(b"n" * 16, secrets)
    taken.close()
    assert theirs.read_bytes() == b""


def test_a_kept_file_others_can_read_is_neither_read_nor_written(tmp_path: Path) -> None:
    """A file at the kept seat's place that others may read or write (not one this program
    made: it makes them owner-only) holds no seat, and gets none written into it."""
    host_key, secrets, taken = _kept_file(tmp_path)
    first = SeatTaken(tmp_path / "saves", host_key)
    first.hold()
    first.keep(b"n" * 16, secrets)
    first.close()
    taken.path.chmod(0o644)
    before = taken.path.read_bytes()
    assert taken.hold() is None
    taken.keep(b"m" * 16, secrets)
    taken.close()
    assert taken.path.read_bytes() == before


def test_a_seat_let_go_while_a_second_program_opens_it_is_not_handed_to_that_program(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first program's save now holds the seat and it lets the file go just after a
    second program of the same player opened it and before it locked it: the second one
    must not come back with secrets of a game its first is playing (its "played before"
    refusal would be skipped for that game)."""
    host_key, secrets, _ = _kept_file(tmp_path)
    first = SeatTaken(tmp_path / "saves", host_key)
    first.hold()
    first.keep(b"n" * 16, secrets)
    real = savedir.fcntl.flock

    def flock_after_the_first_let_go(fd: int, how: int) -> None:
        first.let_go()  # (between the second's open and its lock)
        real(fd, how)

    monkeypatch.setattr(savedir.fcntl, "flock", flock_after_the_first_let_go)
    second = SeatTaken(tmp_path / "saves", host_key)
    assert second.hold() is None
    second.close()


def _first_run(tmp_path: Path) -> tuple[Table, list[dict[str, Any]], Identity]:
    """A joiner that got the host's start and sent its key (kept), every message the host
    sent it recorded, then stopped before the roster."""
    t = Table(tmp_path)
    heard: list[dict[str, Any]] = []
    received = t.joiner.received
    t.joiner.received = lambda msg: (heard.append(msg), received(msg))[1]  # type: ignore[method-assign]
    t.joiner.connected(Identity.generate().public_key)
    t.pump(until=lambda: t.joiner.secrets is not None)
    assert t.joiner.secrets is not None and t.joiner.save_path is None  # no roster, no save yet
    return t, heard, t.identity


def _again(t: Table, tmp_path: Path, heard: list[dict[str, Any]], *, played: set[bytes],
           start: dict[str, Any] | None = None) -> JoinTable:
    """The same player's program run again, with what the first kept, hearing what the
    host sent the first (its start replaced by ``start``); ``played``: the game ids this
    install sat down to."""
    first = t.joiner
    again = JoinTable(t.identity, "green", clock=t.clock, save_root=tmp_path, address=("10.0.0.1", 4000),
                      fresh=lambda game_id: game_id not in played)
    again.connected(first.host_key, (first._nonce, first.secrets))
    for msg in heard:
        if msg["t"] == "start" and start is not None:
            msg = start
        again.received(wire(msg))
        if again.start is not None or again.result is not None:
            break
    return again


def test_the_kept_start_again_gets_the_kept_secrets_and_a_start_for_another_game_new_ones(tmp_path: Path) -> None:
    """The host's start again (the program died before its save): the same seat, the kept
    secrets.  A start of another game at the same host (another host nonce: another game
    id) gets new secrets, kept in place of the old, and the "played before" check."""
    t, heard, _ = _first_run(tmp_path)
    game_id, secrets = t.joiner.start.game_id, t.joiner.secrets
    same = _again(t, tmp_path, heard, played={game_id})
    assert same.result is None and same.secrets is secrets
    start = next(dict(m) for m in heard if m["t"] == "start")
    start["nonces"] = [os.urandom(16), *start["nonces"][1:]]
    other = _again(t, tmp_path, heard, played={game_id}, start=start)
    assert other.result is None and other.start.game_id != game_id
    assert other.secrets.game_id == other.start.game_id and other.secrets.identity.public_key \
        != secrets.identity.public_key
    assert KeepSeat(t.joiner._nonce, other.secrets) in other.take()
    replayed = _again(t, tmp_path, heard, played={game_id, other.start.game_id}, start=start)
    assert replayed.result is not None and "played before" in replayed.result.text


def test_kept_secrets_of_another_players_install_are_not_used(tmp_path: Path) -> None:
    """Kept secrets certified by another identity (a file copied from another install) are
    no seat of this one: the game id the start names is then checked as any other."""
    t, heard, _ = _first_run(tmp_path)
    game_id = t.joiner.start.game_id
    stranger = SeatSecrets.generate(game_id, t.joiner.seat, Identity.generate())
    again = JoinTable(t.identity, "green", clock=t.clock, save_root=tmp_path, address=("10.0.0.1", 4000),
                      fresh=lambda g: g != game_id)
    again.connected(t.joiner.host_key, (t.joiner._nonce, stranger))
    for msg in heard:
        again.received(wire(msg))
        if again.result is not None:
            break
    assert again.result is not None and "played before" in again.result.text


def test_kept_secrets_of_a_game_whose_save_exists_are_not_handed_back(tmp_path: Path) -> None:
    """The program died just after it made its game's save and before it let the kept seat
    go: the file still holds the secrets of a game this seat played.  They are not handed
    back (with them a host replaying that game's start would be let past the "played
    before" refusal, and the new save would be written over the played game's)."""
    host_key, secrets, _ = _kept_file(tmp_path)
    first = SeatTaken(tmp_path / "saves", host_key)
    first.hold()
    first.keep(b"n" * 16, secrets)
    first.close()
    save_path(tmp_path / "saves", secrets.game_id).mkdir()
    again = SeatTaken(tmp_path / "saves", host_key)
    assert again.hold() == (b"n" * 16, None)
    again.close()


def test_a_seat_kept_at_a_table_that_ended_before_the_deal_does_not_hurt_the_next_table_there(
        tmp_path: Path) -> None:
    """The joiner sent its key (its nonce and secrets kept); the host's program is killed
    before the deal, and the joiner gives up.  The same host (its key) opens a new table:
    the same player joins with the nonce kept, gets new secrets for the new game, plays it
    to the host's fair result, and the kept file is gone once its save holds the seat."""
    key = Identity.generate()

    class SameHost(HostNode):
        def __init__(self, identity: Identity, *args: Any, **kwargs: Any) -> None:
            super().__init__(key, *args, **kwargs)

    async def script(t: sim.Scene) -> list:
        host = await t.host(seats=2, confirmed=False, cls=SameHost)
        t.join("joiner")
        await t.when(lambda: host.unconfirmed == [0])  # the joiner's key is in: kept
        first = t.nodes["joiner"]
        kept = SeatTaken(first.save_root, key.public_key).path
        old_game = first.core.secrets.game_id
        assert kept.exists()
        await t.kill("host")
        gave_up = (await t.results("joiner"))[0]
        again = await t.host("host again", seats=2, cls=SameHost)
        t.join("joiner", at=(again.bind, again.port), identity=first.identity)
        results = await t.results("host again", "joiner")
        assert t.nodes["joiner"].core._nonce == first.core._nonce  # (the kept one)
        assert t.nodes["joiner"].core.secrets.game_id != old_game
        return [gave_up, *results, kept.exists()]

    gave_up, host, joiner, still_kept = simtable.scene(8, tmp_path).run(script)
    assert not gave_up.finished
    assert joiner.finished and host.fair and joiner.text == host.text, (host.text, joiner.text)
    assert not still_kept


# -- at the audit: a host that drops an honest disclosure, and a direct link gone dark -----------------

def test_a_host_that_drops_an_honest_disclosure_while_the_signers_direct_link_is_dark_gets_it_named_by_nobody(
        tmp_path: Path) -> None:
    """The host drops green's honest disclosure and ends the table on its word alone once
    green is past the audit (as in test_attack_review6); what green writes to yellow goes
    dark from the moment yellow reached the audit (the host runs the network, say), after
    the two had reached each other.  Yellow's own wait never hears green's disclosure: it
    should name nobody (green is kept apart by the network, docs/fairness.md: "named by
    the host alone"), and ``ankh verify`` of its save no honest seat; it names green."""
    from ankh.net.play.peer import AUDIT

    from .test_attack_review6 import EndsOnceGreenIsPastTheAudit, three_seats

    async def script(t: sim.Scene) -> list:
        task = asyncio.ensure_future(three_seats(t, host=EndsOnceGreenIsPastTheAudit))
        await t.when(lambda: "joiner 1" in t.nodes and t.nodes["joiner 1"].core.peer is not None
                     and t.nodes["joiner 1"].core.peer.phase == AUDIT)
        assert 2 in t.nodes["joiner 1"].core.reached
        t.darken("joiner 2", "joiner 1")
        return await task

    t = simtable.scene(4, tmp_path)
    host, yellow, green = t.run(script)
    assert host.alone and not green.forfeit, (host.text, green.text)
    code, out = simtable.verify(t.nodes["joiner 1"].save.path)
    assert "joiner 2 (seat 2" not in out, out
    assert not yellow.forfeit and "(joiner 2)" not in yellow.text, yellow.text


def test_the_own_wait_at_the_audit_ends_half_the_hosts_wait_after_the_audit(tmp_path: Path) -> None:
    """Green signs its disclosure over a bogus log hash; the host names it and ends the table
    at once.  Yellow's own wait is neither cut short by the host's word nor longer than half
    the host's wait after its log reached the audit (and a beat): it then names green only."""
    from ankh.net.play.events import Over

    from .test_audit_alone import green_signs_over_a_bogus_hash

    async def script(t: sim.Scene) -> list:
        await green_signs_over_a_bogus_hash(t)
        over = await t.until("joiner 1", lambda e: isinstance(e, Over))
        yellow = t.nodes["joiner 1"].core
        return [over.result, t.loop.time() - yellow._audit_since, yellow.abandon_after, yellow.here_every()]

    yellow, took, abandon_after, beat = simtable.scene(4, tmp_path).run(script)
    assert yellow.forfeit == (2,), yellow.text
    assert abandon_after / 2 <= took <= abandon_after / 2 + beat, took
