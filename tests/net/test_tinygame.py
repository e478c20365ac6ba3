"""The platform proven on a game other than Ankh-Morpork: the tiny game of
``tests/tinygame`` (hidden hands, a five-sided die, a public reveal) plays
through the local table and records, GamePeers and the hub in memory, a seat
rebuilt from its saved log, real headless peers with a spectator, and
``ankh verify``; a table of one game refuses a joiner who came for another,
and a record of one game is refused by the other."""
from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path

import pytest

from ankh.net.play.events import Started
from ankh.core.game import RecordError, get
from ankh.net.wire.envelope import Identity
from ankh.net.io.node import HostNode, JoinNode
from ankh.net.play.local import LocalGame
from ankh.net.play.peer import GamePeer
from ankh.net.play.seat import SeatProtocol
from ankh.net.files.verify import verify_transcript

from tests import tinygame

from .procs import Peers
from .star import Star, star_peers

tinygame.install()
TINY = get("tiny")
ROOT = Path(__file__).resolve().parents[2]


def bots(n: int, seed: int) -> list[tinygame.RandomBot]:
    return [tinygame.RandomBot(random.Random(f"{seed}:{s}")) for s in range(n)]


def run_tiny(*args: str, home: Path | None = None) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    if home is not None:
        env["ANKH_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "tests.tinygame", *args], capture_output=True, text=True,
                          timeout=120, env=env, cwd=ROOT)


# --- one table ---------------------------------------------------------------------------------

def test_a_local_game_plays_to_its_end_and_its_record_replays(tmp_path: Path) -> None:
    game = LocalGame.new(3, 7, dict(enumerate(bots(3, 7))), TINY)
    game.advance()
    outcome = game.state.outcome
    assert outcome is not None and max(outcome.scores) == outcome.scores[outcome.winners[0]]
    text = game.save_text()
    assert text.startswith("game: tiny\n")
    again = LocalGame.from_text(text)  # the record names its game
    assert again.game is TINY and again.state.scores == game.state.scores
    record = tmp_path / "tiny.txt"
    record.write_text(text)
    shown = run_tiny("replay", str(record))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[-1] == "the game is over"
    assert sum(line.split()[1] == "plays" for line in shown.stdout.splitlines()) == 6 - text.count(": pass")


def test_a_record_of_one_game_is_refused_by_the_other_with_a_clear_message() -> None:
    morpork = get("morpork")
    with pytest.raises(RecordError, match="line 1: this is a record of another game .'tiny'."):
        morpork.parse_record("game: tiny\nplayers: 2\n")
    with pytest.raises(RecordError, match="this is a record of another game .'morpork'.*High card"):
        TINY.parse_record("# ankh record 1\ngame: morpork\nplayers: 2\n")


# --- in memory: every seat its own engine, the host relaying -------------------------------------

@pytest.mark.parametrize("players", [2, 3])
def test_a_whole_game_through_the_hub_agrees_audits_and_verifies(players: int) -> None:
    star = Star(star_peers(players, seed=b"tiny%d" % players, kind="tiny"))
    star.play(bots(players, players))
    peers = star.peers
    assert len({p.final_hash for p in peers}) == 1 and None not in {p.final_hash for p in peers}
    assert len({p.engine.outcome for p in peers}) == 1
    for s, p in enumerate(peers):  # a seat's engine learns its own cards, and others' only when shown
        for q, hand in enumerate(p.engine.hands):
            for h in hand:
                assert (p.engine.card[h] is not None) == (q == s) or p.audit is not None
    saved = {p.protocol.transcript().to_bytes() for p in peers}
    assert len(saved) == 1
    report = verify_transcript(saved.pop())
    assert report.status == "fair", str(report)
    assert f"rules replayed: {players * 2} moves, " in report.rules and " with " in report.rules


def test_a_seat_rebuilt_from_its_secrets_and_saved_log_carries_on() -> None:
    star = Star(star_peers(3, seed=b"tiny-crash", kind="tiny"))
    b = bots(3, 5)
    while star.peers[2].engine.plays < 2:  # into the first round
        star.pump()
        for s, p in enumerate(star.peers):
            if p.decision is not None:
                option = b[s].choose(p.engine, p.decision)
                star.events[s] += star.hub.host_choose(option) if s == 0 else p.choose(option)
    old = star.peers[2]
    saved = [f for step in old.protocol.transcript().ops for f in step]  # whole steps, as its journal keeps them
    fresh = GamePeer.resume(SeatProtocol(old.protocol.roster, old.protocol.secrets, relay=0), saved)
    assert fresh.engine.card == old.engine.card and fresh.engine.hands == old.engine.hands
    star.rejoin(2, fresh)
    star.play(b)
    assert len({p.final_hash for p in star.peers}) == 1


# --- over real sockets --------------------------------------------------------------------------

@pytest.fixture
def peers():
    ps = Peers()
    yield ps
    ps.stop_all()


def test_real_peers_and_a_spectator_play_it_and_verify_it_fair(peers: Peers, tmp_path: Path) -> None:
    host = peers.start(["host", "--headless", "--game", "tiny", "--bot", "random", "--seats", "3", "--bots", "1",
                        "--bind", "127.0.0.1", "--no-advertise", "--seed", "3"], tmp_path / "host",
                       module="tests.tinygame")
    port = host.value("listening on port")
    joiner = peers.start(["join", f"127.0.0.1:{port}", "--headless", "--game", "tiny", "--bot", "random",
                          "--seed", "4"], tmp_path / "join", module="tests.tinygame")
    watcher = peers.start(["watch", f"127.0.0.1:{port}", "--headless"], tmp_path / "watch",
                          module="tests.tinygame")
    assert host.finish() == 0 and joiner.finish() == 0 and watcher.finish() == 0
    assert host.result == joiner.result == watcher.result
    assert " with " in host.result
    # the spectator followed every move of the game
    moves = [line for line in watcher.lines if line.split(" ")[1:2] in (["plays"], ["passes"])]
    assert len(moves) == 6, watcher.lines
    for p in (host, joiner):
        checked = run_tiny("verify", p.value("transcript:"))
        assert checked.returncode == 0 and checked.stdout.startswith("fair: "), checked.stdout
        assert "rules replayed: 6 moves" in checked.stdout
    # a program that does not know the game checks the cryptography, and says the rules went unchecked
    plain = subprocess.run([sys.executable, "-m", "ankh.tui.cli", "verify", host.value("transcript:")],
                           capture_output=True, text=True, timeout=120)
    assert plain.returncode == 3 and "does not know ('tiny')" in plain.stdout


def test_a_joiner_who_came_for_another_game_is_told_so_before_the_deal(tmp_path: Path) -> None:
    async def main():
        host = HostNode(Identity.generate(), "host", seats=2, bots=0, decide=lambda *a: None,
                        report=lambda e: None, save_root=tmp_path / "h", bind="127.0.0.1", advertise=False,
                        kind="tiny")
        port = await host.open()
        said: list = []
        joiner = JoinNode(Identity.generate(), "joiner", decide=lambda *a: None, report=said.append,
                          save_root=tmp_path / "j", want="morpork")
        hosting = asyncio.ensure_future(host.run())
        result = await asyncio.wait_for(joiner.run("127.0.0.1", port), 30)
        hosting.cancel()
        await host.close() if hasattr(host, "close") else None
        return result, said

    result, said = asyncio.run(main())
    assert str(result.text) == "refused: the table plays High card, not Discworld: Ankh-Morpork"
    assert not any(isinstance(e, Started) for e in said)  # no deal began


def test_a_table_refuses_a_number_of_seats_its_game_does_not_seat(tmp_path: Path) -> None:
    from ankh.net.wire.errors import LocalProtocolError
    with pytest.raises(LocalProtocolError, match="High card seats 2 to 3, not 4"):
        HostNode(Identity.generate(), "host", seats=4, bots=0, decide=lambda *a: None, report=lambda e: None,
                 save_root=tmp_path, kind="tiny")


def test_the_game_played_is_in_the_roster_hash_the_journal_and_the_transcript(tmp_path: Path) -> None:
    from ankh.net.files import journal
    from ankh.net.files.transcript import Roster, Transcript

    star = Star(star_peers(2, seed=b"tiny-files", kind="tiny"))
    star.play(bots(2, 1))
    roster = star.peers[0].protocol.roster
    assert roster.kind == "tiny"
    # the game is signed: the same seats playing the first game start from another log
    assert Roster(roster.game_id, roster.names, roster.keys).genesis() != roster.genesis()
    transcript = star.peers[0].protocol.transcript()
    again = Transcript.from_bytes(transcript.to_bytes())
    assert again.roster == roster and verify_transcript(transcript.to_bytes()).status == "fair"
    data = journal.header(roster, {"role": "host"}) + b"".join(journal.step(step) for step in transcript.ops)
    read, info = journal.read(data)
    assert read.roster.kind == "tiny" and info == {"role": "host"} and read.ops == transcript.ops
    # a file of the first game written before there were two games names none, and reads as the first game's
    first = Roster(roster.game_id, roster.names, roster.keys)
    assert b"kind" not in Transcript(first).to_bytes() and Transcript.from_bytes(
        Transcript(first).to_bytes()).roster.kind == "morpork"


def test_a_game_not_yet_playable_over_the_network_is_refused_plainly(tmp_path: Path, monkeypatch) -> None:
    """Every game here is networked; one that is not (a game whose rules ask
    for something no protocol step answers) is refused by the host and the
    command line with a plain sentence."""
    from ankh.net.wire.errors import LocalProtocolError
    guilds = get("guilds")
    assert guilds.networked and TINY.networked and get("morpork").networked
    monkeypatch.setattr(guilds, "networked", False)
    with pytest.raises(LocalProtocolError, match="cannot be played over the network yet: only against bots"):
        HostNode(Identity.generate(), "host", seats=3, bots=0, decide=lambda *a: None, report=lambda e: None,
                 save_root=tmp_path, kind="guilds")
    code = ("import sys; from ankh.core.game import get; get('guilds').networked = False; "
            "from ankh.tui.cli import main; sys.exit(main())")
    said = subprocess.run([sys.executable, "-c", code, "host", "--headless", "--game", "guilds"],
                          capture_output=True, text=True, timeout=60)
    assert said.returncode == 2 and "cannot be played over the network yet" in said.stderr
