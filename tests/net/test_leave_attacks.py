"""Attacks on the end of a table by agreement (``net/play/leave.py``) at a joined
seat: what an honest seat signs and what it accepts when the host (with the
bots it seats) says another seat, or this one, is gone."""
from __future__ import annotations

import random

import pytest
from ankh.core.morpork.bots.random_bot import RandomBot
from ankh.net.wire.envelope import Identity
from ankh.net.io.node import JoinNode
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.io.transport import now as node_clock
from ankh.net.play.leave import Away, News, Silence, Stop, check_votes, open_vote, vote
from ankh.net.wire.lobby import Start, decode, watch_intro
from ankh.net.play.peer import Spectator
from ankh.net.files.transcript import Transcript
from ankh.net.files.verify import verify_transcript

from tests import tinygame

from .star import Star, star_peers

tinygame.install()


class _Paused(Exception):
    pass


def finished_game(seed: bytes, bots: str) -> Star:
    """A whole game of three seats through the star, played to its end and audited
    (the tiny game: what the ending is checked against is the table's, not a game's)."""
    star = Star(star_peers(3, seed, kind="tiny"))
    star.play([tinygame.RandomBot(random.Random(f"{bots}:{s}")) for s in range(3)])
    return star


def paused_when(seat: int, seed: bytes, players: int = 3) -> Star:
    """A game through the star, played by bots until ``seat`` has a move to make
    in the middle of the game (of three seats the tiny game, since what is tried
    is the table's: once a move was made; of four, Ankh-Morpork: after 20 rounds)."""
    tiny = players <= 3
    star = Star(star_peers(players, seed, kind="tiny" if tiny else "morpork"))
    bots = [(tinygame.RandomBot if tiny else RandomBot)(random.Random(f"{seed!r}:{s}")) for s in range(players)]
    rounds = [0]

    def after(st: Star) -> None:
        rounds[0] += 1
        under_way = st.peers[seat].moves >= 1 if tiny else rounds[0] > 20
        if under_way and st.peers[seat].decision is not None:
            raise _Paused

    with pytest.raises(_Paused):
        star.play(bots, after_round=after)
    return star


class _Link:
    closed = False

    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send_nowait(self, data: bytes) -> None:
        self.sent.append(decode(data))


def seated(star: Star, seat: int) -> tuple[JoinNode, _Link, list]:
    reports: list = []
    node = JoinNode(Identity.generate(), "joiner", decide=None, report=lambda *a: reports.append(a),
                    save_root=None)
    table = node.core
    table.peer, table.seat, table.auto_agree = star.peers[seat], seat, True
    table.start = Start(b"", (), (), ())  # the table's usual clocks: a seat gone 60 s, a move clock of 300 s
    table.reached = set(range(star.peers[seat].protocol.roster.size))  # its links to the other seats came up
    node.conn = link = _Link()
    return node, link, reports


def quiet(node: JoinNode, peer, secs: float) -> None:
    """``node``'s own log has waited ``secs`` seconds, hearing nothing, for the seats it waits for."""
    then = node_clock() - secs
    node.core.silence = Silence(then)
    node.core.silence.tick(then, peer.stop()[0], peer.waiting_for())


def test_a_joiner_signs_no_vote_naming_as_gone_a_seat_its_own_log_does_not_wait_for() -> None:
    """The host offers to end the table without Red (seat 0) while the game
    waits for Green's move (seat 1): Yellow's log says Red is not what the game
    waits for, so Yellow's signature on "Red left" would be a false statement
    the host can carry to every other seat and to ``ankh verify``."""
    star = paused_when(1, b"vote-not-waited")
    node, link, _ = seated(star, 2)
    assert star.peers[2].waiting_for() == (1,)
    step, basis = star.peers[2].stop()
    lie = Stop(step, basis, (0,))
    quiet(node, star.peers[2], 301)
    node.news = News((), lie, (), 1)
    node.agree()
    assert [m for m in link.sent if m["t"] == "vote"] == []
    # the offer the log supports is signed
    node.news = News((), Stop(step, basis, (1,)), (), 2)
    node.agree()
    (msg,) = [m for m in link.sent if m["t"] == "vote"]
    assert open_vote(star.peers[2].protocol.roster, msg["v"])[1].gone == (1,)


def test_a_person_who_agrees_early_signs_once_its_own_clock_has_run_never_on_the_hosts_count() -> None:
    """The host says Yellow (seat 1) has been gone 65 s; Green's own log has
    heard from Yellow 10 s ago.  Green's person agrees: nothing is signed yet,
    and the person is told why; once Green's own clock has run the longer of
    the gone-wait and the move clock (Green cannot tell a link down from a
    person thinking: the host's word that Yellow's link is down shortens
    nothing), the host's next word on the same offer gets the vote."""
    star = paused_when(1, b"vote-early")
    node, link, reports = seated(star, 2)
    node.auto_agree = False
    step, basis = star.peers[2].stop()
    news = News((Away(1, 65.0, False),), Stop(step, basis, (1,)), (0,), 2)
    quiet(node, star.peers[2], 10)
    node.news = news
    node.agree()
    assert [m for m in link.sent if m["t"] == "vote"] == []
    assert any("heard nothing from yellow for 300 s" in str(getattr(r[0], "text", "")) for r in reports), reports
    quiet(node, star.peers[2], 61)   # the gone-wait, not the move clock: the host's word of a link down is no proof
    node._call(node.core.received, news.message())  # (the host says it again)
    assert [m for m in link.sent if m["t"] == "vote"] == []
    quiet(node, star.peers[2], 301)
    node._call(node.core.received, news.message())
    (msg,) = [m for m in link.sent if m["t"] == "vote"]
    assert open_vote(star.peers[2].protocol.roster, msg["v"])[1].gone == (1,)


def test_a_host_and_its_bot_cannot_end_the_table_against_the_human_who_is_thinking() -> None:
    """Red hosts and seats a bot at Green; Yellow is the only person.  While
    Yellow thinks about its move (present, connected), Red and its bot sign
    "Yellow left" and send the ending: Yellow's own seat should not record
    that it left (nothing tells it how long the host waited, or that it did)."""
    star = paused_when(2, b"vote-against-human")
    node, _link, _ = seated(star, 2)
    step, basis = star.peers[2].stop()
    stop = Stop(step, basis, (2,))
    votes = [vote(star.peers[s].protocol.secrets, stop) for s in (0, 1)]
    node.core._ended(votes)
    assert node.result is not None
    assert not str(node.result.text).startswith("abandoned"), node.result.text


def test_votes_added_to_a_finished_game_do_not_turn_it_into_an_abandoned_one() -> None:
    """Red and Green (the host and its bot, or any two who agree) take the
    transcript of a game played to its end and audited, and add their votes
    that Yellow left where it ends: the game waited for nobody there, so the
    ending must not hold (the verifier would report the winner as gone)."""
    from ankh.net.files import verify
    from ankh.net.files.transcript import Transcript

    star = finished_game(b"vote-after-the-end", "end")
    fair = star.peers[0].protocol.transcript()
    assert verify.verify_transcript(fair.to_bytes()).status == "fair"
    step, basis = star.peers[0].stop()
    for gone in ((1,), (2,)):
        stop = Stop(step, basis, gone)
        votes = [vote(star.peers[s].protocol.secrets, stop) for s in range(3) if s not in gone]
        report = verify.verify_transcript(Transcript(fair.roster, fair.ops, fair.pending, end=votes).to_bytes())
        assert report.status == "violation" and "the end of the table" in str(report), str(report)


def test_an_ending_sent_after_the_game_is_over_changes_nothing_at_a_joined_seat(tmp_path) -> None:
    """The game is over and Yellow saved it; the host (with its bot) then
    sends votes that Yellow left where the game ended.  Yellow keeps its
    result and its saved game as they were (and does not crash writing to the
    journal it closed)."""
    from ankh.net.files import verify
    from ankh.net.io.savedir import SaveDir

    star = finished_game(b"ended-after-the-end", "after")
    node, _link, _ = seated(star, 1)
    node.save = SaveDir(tmp_path / "save")
    node.core.save_path = node.save.path
    node.save.create(star.peers[1].protocol.roster, {"role": "join"}, {1: star.peers[1].protocol.secrets})
    node.core.journal_steps(star.peers[1])
    node.core.finish_game(star.peers[1])
    result, saved = node.result, (tmp_path / "save" / "game.ankh").read_bytes()
    step, basis = star.peers[1].stop()
    stop = Stop(step, basis, (1,))
    node.core._ended([vote(star.peers[s].protocol.secrets, stop) for s in (0, 2)])
    assert node.result is result and (tmp_path / "save" / "game.ankh").read_bytes() == saved
    assert verify.verify_transcript(tmp_path / "save" / "game.ankh").status == "fair"


def test_a_host_and_its_bot_cannot_outvote_the_person_still_at_the_table() -> None:
    """Red hosts with a bot at Yellow; Green and Blue are people, and the game
    waits for Blue, gone.  Red and its bot make two votes of the three seats
    left, but one voice: Green, the other person there, did not agree, so
    Green does not take the table as ended (with Green's vote it does)."""
    star = paused_when(3, b"bots-outvote", players=4)
    step, basis = star.peers[2].stop()
    stop = Stop(step, basis, (3,))
    votes = {s: vote(star.peers[s].protocol.secrets, stop) for s in (0, 1, 2)}
    node, _link, _ = seated(star, 2)
    node.bot_seats = (1,)
    node.core._ended([votes[0], votes[1]])
    assert str(node.result.text).startswith("aborted: the host ended the table without the seats' agreement")
    node, _link, _ = seated(star, 2)
    node.bot_seats = (1,)
    node.core._ended([votes[0], votes[1], votes[2]])
    assert str(node.result.text).startswith("abandoned: red and yellow and green say blue left the game"), node.result.text


def test_the_seat_named_as_gone_refuses_an_ending_its_own_clock_contradicts() -> None:
    """Green is thinking (connected) when the host and Yellow say Green left:
    Green's own count of the wait is far below the table's move clock and its
    link never dropped, so it records no departure of its own.  Once its own
    clock says the move clock ran out, or that its link was down longer than
    the table's wait, the same votes hold."""
    import time

    star = paused_when(2, b"named-seat-clock")
    step, basis = star.peers[2].stop()
    stop = Stop(step, basis, (2,))
    votes = [vote(star.peers[s].protocol.secrets, stop) for s in (0, 1)]
    node, _link, _ = seated(star, 2)
    node.core.tick()
    node.core.own_clock.since = time.monotonic() - 30  # thinking for 30 s of the 300
    node.core._ended(votes)
    text = str(node.result.text)
    assert text.startswith("aborted: the host ended the table without the seats' agreement: they say this seat "
                           "left, but the game had waited 30 s for this seat, connected"), text
    node, _link, _ = seated(star, 2)
    node.core.tick()
    node.core.own_clock.since = time.monotonic() - 301  # the move clock ran out
    node.core._ended(votes)
    assert str(node.result.text).startswith("abandoned: red and yellow say green left the game"), node.result.text
    node, _link, _ = seated(star, 2)
    node.core.tick()
    now = time.monotonic()
    node.core.own_clock.since = now - 90
    node.core.own_clock.link(now - 80, False)  # its link was down 70 s of the 60 the table allows
    node.core.own_clock.link(now - 10, True)
    node.core._ended(votes)
    assert str(node.result.text).startswith("abandoned: "), node.result.text


def test_the_table_clocks_come_from_the_start_every_seat_checked_and_a_save_keeps_them() -> None:
    """The host's figures are in the start (its clocks for a seat that leaves),
    checked and kept by each seat; a start saved before they were told reads
    with the usual ones."""
    from ankh.net.wire.lobby import Lobby

    lobby = Lobby(b"t" * 16, 2, gone_after=20, move_clock=90)
    me, other = Identity.generate(), Identity.generate()
    lobby.sit("ann", me.public_key, b"a" * 16)
    lobby.sit("bob", other.public_key, b"b" * 16)
    msg = lobby.start_message()
    start, seat = Start.from_message(msg, my_key=other.public_key, my_nonce=b"b" * 16)
    assert (start.gone_after, start.move_clock, seat) == (20, 90, 1)
    old = {k: v for k, v in msg.items() if k not in ("gone", "clock")}
    assert (Start.of(old).gone_after, Start.of(old).move_clock) == (60, 300)
    from ankh.net.wire.errors import RemoteProtocolError
    from ankh.net.wire.lobby import encode
    with pytest.raises(RemoteProtocolError):
        decode(encode({**msg, "clock": 0}))  # no clock of nothing: a seat would be "gone" at once


def test_no_ending_during_the_audit_a_seat_that_withholds_its_disclosure_forfeits() -> None:
    """Once the game is over its audit waits for disclosures: a seat that keeps
    one forfeits, it does not "leave".  The host makes no offer then, a joined
    seat signs none and accepts none, and the verifier refuses votes there."""
    from ankh.net.files import verify
    from ankh.net.play.peer import AUDIT

    from .test_blame_attacks import audit_withheld

    star = audit_withheld(b"audit-no-end", 1)  # Yellow's disclosure never reaches the host
    assert star.peers[0].phase == AUDIT and star.peers[2].phase == AUDIT
    peer = star.peers[2]
    step, basis = peer.stop()
    gone = (1,)
    assert star.peers[2].waiting_for() == gone
    stop = Stop(step, basis, gone)
    node, link, _ = seated(star, 2)
    node.news = News((), stop, (), 2)
    node.agree()
    assert [m for m in link.sent if m["t"] == "vote"] == []
    votes = [vote(star.peers[s].protocol.secrets, stop) for s in range(3) if s not in gone]
    node.core._ended(votes)
    assert "in its audit" in str(node.result.text), node.result.text
    from ankh.net.files.transcript import Transcript

    t = star.peers[0].protocol.transcript()
    report = verify.verify_transcript(Transcript(t.roster, t.ops, t.pending, end=votes).to_bytes())
    assert report.status == "violation" and "the end of the table" in str(report), str(report)


def test_a_spectator_checks_the_votes_against_the_log_it_followed() -> None:
    """A spectator is sent the votes that ended the table after the whole log:
    it checks them as ``ankh verify`` does, so votes for another step, or
    naming as gone a seat its log does not wait for, say nothing to it."""
    star = paused_when(1, b"spectator-votes")
    host = star.peers[0]
    watcher = Spectator(host.protocol.roster)
    watcher.feed(host.protocol.transcript().frames())
    step, basis = host.stop()
    assert star.peers[1].decision is not None and host.waiting_for() == (1,)
    votes = [vote(star.peers[s].protocol.secrets, Stop(step, basis, (1,))) for s in (0, 2)]
    ending = watcher.ending(votes)
    assert ending == check_votes(host.protocol.roster, votes, step=step, basis=basis, waited=(1,))
    assert ending.voters == (0, 2) and ending.stop.gone == (1,)
    another_step = Stop(step - 1, basis, (1,))
    not_waited_for = Stop(step, basis, (0,))       # red named as gone while the log waits for yellow
    for stop, voters in ((another_step, (0, 2)), (not_waited_for, (1, 2))):
        with pytest.raises(RemoteProtocolError):
            watcher.ending([vote(star.peers[s].protocol.secrets, stop) for s in voters])


@pytest.fixture(scope="module")
def finished() -> Star:
    return finished_game(b"audit-spectator", "a")


def test_votes_in_the_end_of_game_audit_hold_neither_for_a_spectator_nor_for_verify(finished: Star) -> None:
    """Nobody leaves the audit (a seat that withholds its part forfeits): a
    spectator, which follows whole steps only and so never holds the audit
    under way, and ``ankh verify`` of a log stopped there, refuse votes that
    say a seat left it, whichever seat they name."""
    host = finished.peers[0]
    t, log = host.protocol.transcript(), host.protocol.ledger.log
    at = max(i for i, (op, _) in enumerate(log) if op["t"] == "audit")
    watcher = Spectator(host.protocol.roster)
    for _, frames in log[:at]:
        watcher.feed(frames)
    assert watcher.engine.outcome is not None            # the winner is known: the audit comes next
    L = watcher.ledger()
    for gone in ((1,), (2,)):
        stop = Stop(L.index, L.basis, gone)
        votes = [vote(finished.peers[s].protocol.secrets, stop) for s in range(3) if s not in gone]
        with pytest.raises(RemoteProtocolError):
            watcher.ending(votes)
        report = verify_transcript(Transcript(t.roster, t.ops[:at], [], end=votes).to_bytes())
        assert report.status == "violation" and "the end of the table" in str(report), str(report)


def test_for_a_spectator_the_host_and_its_bot_are_one_voice() -> None:
    """Red hosts with its bot at yellow; green and blue are people.  While the
    game waits for blue, red's and its bot's votes that blue left are two of
    the three seats left, but one voice: green refuses them, and so does a
    spectator told which seats are the host's bots."""
    star = paused_when(3, b"bot-votes-spectator", players=4)
    host = star.peers[0]
    assert host.waiting_for() == (3,)
    step, basis = host.stop()
    votes = [vote(star.peers[s].protocol.secrets, Stop(step, basis, (3,))) for s in (0, 1)]
    green, _, _ = seated(star, 2)
    green.bot_seats = (1,)
    green.core._ended(votes)
    assert str(green.result.text).startswith("aborted"), green.result.text
    watcher = Spectator(host.protocol.roster)
    watcher.feed(host.protocol.transcript().frames())
    with pytest.raises(RemoteProtocolError, match="a program and the bots it runs are one voice"):
        watcher.ending(votes, bots=(1,))
    assert watcher.ending(votes + [vote(star.peers[2].protocol.secrets, Stop(step, basis, (3,)))], bots=(1,))
    seats = decode(watch_intro(b"t" * 16, {"names": ["a", "b", "c", "d"], "keys": [bytes([i]) * 32 for i in range(4)]},
                               {}, bots=(1,))[0])["seats"]
    assert [s["bot"] for s in seats] == [0, 1, 0, 0]     # what a watch point tells its spectators
