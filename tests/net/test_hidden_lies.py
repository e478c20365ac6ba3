"""Lies about hidden cards: a move that only a hidden card makes illegal is
found once the card is known (when it is turned up, or at the end, when the
audit has disclosed every deck), and its signer is named by every seat and by
``ankh verify``."""
from __future__ import annotations

import random

from ankh.core.game import Decision
from ankh.core.morpork.scoring import personality_met
from ankh.net.wire.errors import RemoteProtocolError
from ankh.net.play.ops import Move
from ankh.net.play.peer import Audited, GamePeer
from ankh.net.play.seat import SeatProtocol
from ankh.net.files.verify import verify_transcript

from .star import Star, star_peers
from .test_peer import bots


class Liar(GamePeer):
    """A modified client: it signs ``lie(decision)`` when that gives a move,
    whether or not the rules (which it sees in full) allow it."""

    def __init__(self, protocol: SeatProtocol, lie):
        super().__init__(protocol)
        self.lie = lie
        self.lies = 0

    def _own_decision(self, d: Decision) -> bool:
        told = None if self._replayed(Move(self.me)) else self.lie(self, d)
        if told is None or told in d.options:
            return super()._own_decision(d)
        self.lies += 1
        self.engine.trust = True  # its own engine takes the lie too
        wider = Decision(d.seat, d.kind, (*d.options, told), d.prompt)
        self._start(wider, Move(self.me, frozenset(wider.options), told))
        return True


def star_with_liar(players: int, seed: bytes, liar: int, lie) -> Star:
    return Star(star_peers(players, seed, cheat=liar, cheat_as=lambda proto: Liar(proto, lie)))


def test_a_false_win_claim_is_blamed_on_its_signer_when_the_personality_is_turned_up() -> None:
    def claim(peer: Liar, d: Decision):
        e = peer.engine
        if d.kind == "check-win" and peer.lies == 0 and e.turn > 2:
            assert not personality_met(e, d.seat, e.pers[e.personality[d.seat]])
            return ("win",)
        return None

    star = star_with_liar(3, b"false-win", 1, claim)
    try:
        star.play(bots(3, 7))
    except RemoteProtocolError as exc:
        error = exc
    else:
        raise AssertionError("the false claim went through")
    assert star.peers[1].lies == 1
    assert (error.seat, error.who) == (1, star.peers[0].protocol.roster.names[1])
    assert "illegal move 'win'" in error.message
    (evidence,) = error.evidence  # the liar's signed move
    assert evidence[0] == 1
    # the saved log names it too
    saved = max((p.protocol.transcript() for p in star.peers), key=lambda t: len(t.ops))
    report = verify_transcript(saved.to_bytes())
    assert [v.seat for v in report.violations] == [1], str(report)
    assert "illegal move 'win'" in report.violations[0].message


def test_passes_while_holding_playable_cards_are_found_with_every_card_known() -> None:
    def idle(peer: Liar, d: Decision):
        if d.kind == "turn" and peer.lies < 3 and ("pass",) not in d.options:
            return ("pass",)
        return None

    star = star_with_liar(3, b"three-passes", 2, idle)
    star.play(bots(3, 11))
    assert star.peers[2].lies == 3
    for s in (0, 1):  # every honest seat names the liar once the audit has disclosed the decks
        audited = next(e for e in star.events[s] if isinstance(e, Audited)).outcome
        assert not audited.fair
        ((seat, what),) = audited.violations
        assert seat == 2 and "illegal move 'pass'" in what and "every card known" in what
    report = verify_transcript(star.peers[0].protocol.transcript().to_bytes())
    assert report.status == "violation"
    assert [v.seat for v in report.violations] == [2]
    assert "illegal move 'pass'" in report.violations[0].message
    assert "violation: " + star.peers[0].protocol.roster.label(2) in str(report)


class Recorder:
    """The host's bot, noting each choice it made among several (and another it could have made)."""

    def __init__(self, bot):
        self.bot, self.choices = bot, []

    def choose(self, engine, d: Decision) -> tuple:
        option = self.bot.choose(engine, d)
        if len(d.options) > 1:
            self.choices.append((option, next(o for o in d.options if o != option)))
        return option


def test_a_host_that_tells_one_seat_another_move_is_named_by_that_seat() -> None:
    from .nethelp import decode, resign

    told: list[bytes] = []

    def link(frame: bytes, sender: int, recipient: int) -> list[bytes]:
        if told and sender == 1:
            return []  # what yellow says next is no longer the hub's story: the hub would stop it
        if sender == 0 and recipient == 1 and not told and host_bot.choices and decode(frame)["kind"] == "move":
            chosen, other = host_bot.choices[-1]
            if tuple(decode(frame)["body"]["move"]) == chosen:
                told.append(frame)  # the host signs a second version of its move, for yellow only
                return [resign(frame, identity, lambda b: b.__setitem__("move", list(other)))]
        return [frame]

    star = Star(star_peers(3, seed=b"two-stories"), link=link)
    identity = star.peers[0].protocol.secrets.identity
    players = bots(3, 5)
    host_bot = players[0] = Recorder(players[0])
    try:
        star.play(players)
    except RemoteProtocolError as exc:
        error = exc
    else:
        raise AssertionError("the two stories went unnoticed")
    assert told
    assert error.seat == 0, str(error)
    assert "told different seats different things" in error.message, error.message
