"""Attacks on how seats judge frames of a step the log has passed (a signer of two frames
under one number is named), on a seat that takes no notice of its own frame handed back,
and on how long a watch point stays open for its spectators once the game is over."""
from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from pathlib import Path

from ankh.core.morpork.bots.random_bot import RandomBot
from ankh.net.io import sim
from ankh.net.io import watchers as watchers_mod
from ankh.net.io.seatlinks import PROLOGUE
from ankh.net.io.transport import ConnectionClosed, connect
from ankh.net.play.events import Over, WatcherLeft
from ankh.net.wire.lobby import encode
from ankh.net.play.leave import END
from ankh.net.play.peer import AUDIT, GamePeer, Spectator
from ankh.net.play.seat import SeatProtocol
from ankh.net.wire.envelope import INNER, Identity, seal, signed_slot
from ankh.net.wire.errors import RemoteProtocolError

from . import simtable
from .nethelp import decode
from .star import Star, star_peers


@pytest.fixture(scope="module")
def game() -> Star:
    star = Star(star_peers(3, b"review5"))
    star.play([RandomBot(random.Random(f"review5:{s}")) for s in range(3)])
    return star


# -- 1. a host that replays, reorders or hands on honest frames gets nobody named ----------------

def test_a_spectator_past_the_whole_game_handed_any_frame_an_honest_seat_signed_names_nobody(game: Star) -> None:
    """A host (or a stranger) hands a spectator that followed the whole game every frame of
    the log, one at a time, in reverse order, each again, and each frame's body signed by
    its own seat under the same number as the inner frame of a private message (``INNER``:
    an honest seat signs such a frame under the number of the message that carries it, and
    its receiver holds it) and as a vote to end the table (``END``, a vote's context).  None of them is a second frame under a number: nobody is named."""
    log = game.peers[0].protocol.transcript()
    spectator = Spectator(log.roster)
    spectator.feed([f for op in log.ops for f in op])
    frames = [f for op in log.ops for f in op]
    for frame in reversed(frames + frames):
        assert spectator.judge([frame]) is None
    for frame in frames[::7]:
        payload = decode(frame)
        identity = game.peers[payload["from"]].protocol.secrets.identity
        for label in (INNER, END):
            other = seal(identity, payload["from"], payload["game"], payload["seq"], payload["kind"], payload["body"],
                         label=label)
            assert other != frame
            assert spectator.judge([other]) is None
            assert spectator.judge([frame, other]) is None and spectator.judge([other, frame]) is None


def steps_of(log: Any, seat: int) -> list[int]:
    """The first step of each kind of frame ``seat`` signs but a move (a move is a choice,
    saved before it is sent): its part of a shuffle, a lock, the dice, a key, a private
    message, the audit, with the others' frames beside it or alone."""
    seen: dict[str, int] = {}
    for k, op in enumerate(log.ops):
        for f in op:
            kind = decode(f)["kind"]
            if f[0] == seat and kind != "move":
                seen.setdefault(kind, k)
    return sorted(seen.values())


def test_a_seat_resumed_in_the_middle_of_a_step_signs_again_the_same_bytes_whatever_order_the_host_hands(
        game: Star) -> None:
    """Green is killed with its part of a step out (a shuffle, a lock, the dice, a key, a private
    message, the audit) and the others' frames of that step not
    yet all in; it carries on from the log before that step, and the host hands it the
    others' frames of the step in the reverse order.  Every frame it signs again is, byte for
    byte, the one the log holds under that number (so the pre-crash copy, handed on beside
    it, names nobody: a spectator past the step names nobody for either)."""
    log = game.peers[0].protocol.transcript()
    keys = game.peers[0].protocol.ledger.keyring
    held = {signed_slot(f, keys, log.roster.game_id): f for op in log.ops for f in op}
    spectator = Spectator(log.roster)
    spectator.feed([f for op in log.ops for f in op])
    kinds: set[str] = set()
    for green in (1, 2):
        secrets = game.peers[green].protocol.secrets
        for k in steps_of(log, green):
            kinds |= {decode(f)["kind"] for f in log.ops[k] if f[0] == green}
            peer = GamePeer.resume(SeatProtocol(log.roster, secrets, relay=0), [f for op in log.ops[:k] for f in op])
            peer.start()
            said = peer.protocol.data_to_send()
            for frame in reversed([f for f in log.ops[k] if f[0] != green]):
                peer.receive(frame, via=0)
                said += peer.protocol.data_to_send()
            ours = [f for f in said if signed_slot(f, keys, log.roster.game_id) in held]
            assert ours, (green, k)
            for frame in ours:
                assert held[signed_slot(frame, keys, log.roster.game_id)] == frame, (green, k)
                assert spectator.judge([frame]) is None
    assert kinds >= {"dice", "lock", "keys", "sealed", "shuffle", "open", "audit"}, kinds


# -- 2. a seat takes no notice of its own frame: only one it signed -----------------------------

def test_a_frame_under_a_seats_own_number_it_did_not_sign_names_the_link_it_came_on(game: Star) -> None:
    """The host hands green a frame that says it is green's: signed with the host's key, or
    green's own frame with its body changed, or green's frame of another game.  Green does
    not take it for one of its own handed back (which it ignores): it names the host."""
    log = game.peers[0].protocol.transcript()
    green = 2
    mine = next(f for op in log.ops for f in op if f[0] == green)
    payload = decode(mine)
    host_id = game.peers[0].protocol.secrets.identity
    green_id = game.peers[green].protocol.secrets.identity
    other_game = bytes(b ^ 0xFF for b in payload["game"])
    forged = [
        seal(host_id, green, payload["game"], payload["seq"], payload["kind"], payload["body"]),
        mine[:-1] + bytes([mine[-1] ^ 1]),
        seal(green_id, green, other_game, payload["seq"], payload["kind"], payload["body"]),
    ]
    for frame in forged:
        protocol = SeatProtocol(log.roster, game.peers[green].protocol.secrets, relay=0)
        with pytest.raises(RemoteProtocolError) as caught:
            protocol.receive(frame, via=0)
        assert caught.value.seat == 0, (caught.value, frame[:1])
    protocol = SeatProtocol(log.roster, game.peers[green].protocol.secrets, relay=0)
    assert protocol.receive(mine, via=0) == []  # its own, as it signed it: nothing to say


# -- 3. a spectator that never hangs up, at the host's or a joiner's watch point -----------------

@pytest.mark.parametrize("point", ["host", "joiner 1"])
def test_a_spectator_that_reads_all_and_never_hangs_up_keeps_a_seat_no_longer_than_the_settle_and_come_back(
        tmp_path: Path, point: str) -> None:
    """Mallory watches through the host's watch point (or a joiner's, which now settles
    too for a table ended early), takes every byte, and neither says goodbye nor drops.
    At the settle deadline its link is cut and counted as dropped; it never comes back.
    The seat's process ends all the same, no later than the settle and the come-back
    wait together after the game's end (it must not wait for ever, nor start the wait
    again)."""
    async def script(t: sim.Scene) -> Any:
        address = await simtable.two_seats_watched_at(t, point)
        cut: list[str] = []

        async def mallory() -> None:
            conn = await connect(*address, Identity.generate(), PROLOGUE)
            conn.send_nowait(encode({"t": "watch", "from": 0}))
            try:
                while True:
                    await conn.recv()
            except ConnectionClosed:
                cut.append(str(conn.reason))
        t.start("mallory", mallory)
        await t.until(point, lambda e: isinstance(e, Over))
        loop = asyncio.get_running_loop()
        over = loop.time()
        try:
            result = await asyncio.wait_for(asyncio.shield(t.tasks[point]), 600)
        except TimeoutError:
            return None, cut
        return (result, loop.time() - over), cut

    t = simtable.scene(4, tmp_path)
    ended, cut = t.run(script)
    assert ended is not None, f"ten minutes after the game {point} still waits for a spectator that never hung up"
    result, waited = ended
    assert result.finished and result.fair, result.text
    assert cut, "the spectator's link was never cut"
    assert waited <= watchers_mod.SETTLE + watchers_mod.COME_BACK + 1.0, waited


# -- 4. the same seat carried on twice at once ---------------------------------------------------

def test_a_save_being_played_cannot_be_carried_on_by_a_second_program_at_once(tmp_path: Path) -> None:
    """A player whose program seems stuck runs ``ankh join`` again (or ``--load``) while the
    first still plays: the second would carry on the same seat from the same journal and
    ask for the same move again, and two moves under one number name the player a cheat
    (``GamePeer.judge``, any seat's log); it would also write into the journal the first
    one writes.  The second program is told the save is being played and takes nothing;
    once the first is gone (closed, or killed: the system lets go of its lock), it may."""
    from ankh.net.io.savedir import DamagedSave, SaveDir

    star = Star(star_peers(3, b"review5-save"))
    roster = star.peers[1].protocol.roster
    secrets = star.peers[1].protocol.secrets
    first = SaveDir(tmp_path / "net-1")
    first.create(roster, {"role": "join"}, {1: secrets})
    first.append([b"not a frame"])
    size = first.journal_path.stat().st_size
    second = SaveDir(tmp_path / "net-1")
    assert second.in_use()
    with pytest.raises(DamagedSave, match="another ankh program"):
        second.load()
    with pytest.raises(DamagedSave, match="another ankh program"):
        second.reopen()
    assert first.journal_path.stat().st_size == size  # nothing cut off under the first one's feet
    first.close()
    assert not second.in_use()
    second.reopen()
    with pytest.raises(DamagedSave, match="another ankh program"):
        SaveDir(tmp_path / "net-1").load()
    second.close()


@pytest.mark.parametrize("command", ["join", "host"])
def test_a_save_being_played_is_refused_in_the_players_language_by_a_headless_program(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, command: str) -> None:
    """``ankh join --load SAVE --headless`` (or ``host``) while another program plays the
    save: the refusal is said to the person, on standard error, in their language (a
    French locale: French), and nothing of the save is taken."""
    from ankh.net.io.savedir import SaveDir
    from ankh.tui import i18n
    from ankh.tui.cli import main as ankh_main

    monkeypatch.setenv("ANKH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    star = Star(star_peers(3, b"review5-french"))
    first = SaveDir(tmp_path / "net-1")
    first.create(star.peers[1].protocol.roster, {"role": command}, {1: star.peers[1].protocol.secrets})
    try:
        assert ankh_main([command, "--load", str(first.path), "--headless"]) == 2
    finally:
        first.close()
        i18n.set_language("en")
    err = capsys.readouterr().err
    assert f"ankh: {first.path} est en cours de partie dans un autre programme ankh" in err, err
    assert "being played" not in err


@pytest.mark.parametrize("pause", [1.0, 8.0, 12.0])
def test_a_spectator_slow_to_take_the_last_steps_is_cut_at_the_settle_deadline_and_still_sees_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pause: float) -> None:
    """An honest spectator whose machine is slow (it takes ``pause`` seconds over each
    message from the audit on: checking it under load) has not said goodbye
    at the settle deadline.  Its link is cut as one that stalled; it must still learn
    how the game ended (from what it was sent, or by coming back), as the seats did,
    never that no watch point answered."""
    from ankh.net.io.node import WatchNode

    over = [False]
    follow = WatchNode._follow

    async def slow_follow(self: Any, conn: Any) -> None:
        recv = conn.recv

        async def slowly() -> bytes:
            data = await recv()
            if over[0]:
                await asyncio.sleep(pause)  # (what came is checked before the next is read)
            return data
        conn.recv = slowly
        await follow(self, conn)
    monkeypatch.setattr(WatchNode, "_follow", slow_follow)

    async def script(t: sim.Scene) -> list:
        address = await simtable.two_seats_watched_at(t, "host")
        t.watch("slow", at=address)
        table = t.nodes["host"].table
        await t.when(lambda: table.hub is not None and table.hub.host.phase in (AUDIT, "done"))
        over[0] = True
        return await t.results("host", "joiner 1", "slow")

    t = simtable.scene(4, tmp_path)
    results = t.run(script)
    assert len({r.text for r in results}) == 1 and all(r.finished and r.fair for r in results), \
        [r.text for r in results]
    left = [str(e.why) for e in t.told["host"] if isinstance(e, WatcherLeft)]
    assert pause < watchers_mod.SETTLE or any("too far behind" in why for why in left), left


def test_a_player_who_runs_the_same_seat_twice_at_once_is_not_named_and_the_game_ends_fair(tmp_path: Path) -> None:
    """Green's program waits for its player's move; the player starts the same save again
    in another program and picks another move there.  The second program is refused (the
    save is being played), and the game ends fair, nobody named; green's journal verifies.
    (Before, the second program carried the seat on beside the first, wrote into the same
    journal, and said the honest host "told different seats different things".)"""
    from ankh.net.io.join import JoinNode
    from ankh.net.io.savedir import DamagedSave, SaveDir

    from .test_attack_review3 import choosing, thinking

    async def script(t: sim.Scene) -> Any:
        await t.host(seats=3, decide=thinking(t, 1.0))
        t.join("joiner 1", decide=thinking(t, 1.0))
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2", decide=choosing(0))
        await t.until("host", lambda e: getattr(e, "seat", None) == 2)
        await t.until("joiner 2", simtable.decided(1))
        green = t.nodes["joiner 2"]

        async def again() -> Any:
            return await JoinNode.resume(green.identity, SaveDir(green.save.path), decide=choosing(-1),
                                         report=lambda e: None, auto_agree=True)
        second = t.start("joiner 2 again", again)
        results = await t.results("host", "joiner 1", "joiner 2")
        try:
            return results, await second
        except DamagedSave as exc:
            return results, exc

    t = simtable.scene(4, tmp_path)
    results, second = t.run(script)
    assert isinstance(second, DamagedSave) and "another ankh program" in str(second), second
    assert len({r.text for r in results}) == 1 and all(r.finished and r.fair for r in results), \
        [r.text for r in results]
    code, out = simtable.verify(t.nodes["joiner 2"].save.path)  # green's journal, written by one program
    assert code == 0, out
