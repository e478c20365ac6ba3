"""The guild variant over the network, in memory (GamePeers and the hub): the
robber's steal takes a card from a hand of face-up cards by the protocol's
random steal.  Whole games end with one result on every seat and ``ankh
verify`` says fair; after every round a seat's rules know the kind of a
hidden card exactly when it holds it; a seat rebuilt
from its log in the middle of a steal carries on; and cheats are refused at
their step, the cheat named: a forged steal, a hidden card spent that its
seat does not hold, an illegal build, a card shown as another."""
from __future__ import annotations

import random
from typing import Any

import pytest

from ankh.core.game import Decision, RulesError
from ankh.core.guilds.bots import HeuristicBot, RandomBot
from ankh.core.guilds.board import RESOURCES
from ankh.net.wire.errors import ProtocolError, RemoteProtocolError
from ankh.net.play.ops import StealCard
from ankh.net.play.peer import DONE, GamePeer, Logged
from ankh.net.files.verify import verify_transcript

from tests.guilds.oldtrader import OldTraderBot
from tests.guilds.thief import ThiefBot

from .stealgames import rebuilt_mid_steal, tampered
from .nethelp import decode, resign, swap_scalar
from .star import Star, seat_secrets, star_peers
from .test_hidden_lies import Liar


def guild_bots(players: int, seed: int) -> list[OldTraderBot]:
    return [OldTraderBot(random.Random(seed * 10 + s)) for s in range(players)]


def thieves(players: int, seed: int) -> list[ThiefBot]:
    return [ThiefBot(random.Random(seed * 10 + s)) for s in range(players)]


def steals(events: list[Any]) -> list[tuple[int, int]]:
    return [(e.event.seat, e.event.data["handle"]) for e in events if isinstance(e, Logged) and e.event.kind == "steal"]


def steal_steps(peer: GamePeer) -> list[StealCard]:
    return [op for op in peer.protocol.ledger.history if isinstance(op, StealCard)]


def knowledge(star: Star) -> None:
    """A seat's rules know a hidden card's kind exactly when the seat holds it (the
    victim of the steal that made it knows it too, but its rules judge the thief's
    hand as every other seat does: the seat, not its rules, keeps it); every seat
    agrees on who holds what."""
    engines = [p.engine for p in star.peers]
    assert len({tuple(e.hid) for e in engines}) == 1 and len({tuple(e.res) for e in engines}) == 1
    for s, e in enumerate(engines):
        for q in range(e.players):
            for h in e.hid[q]:
                assert (e.rcard[h] is not None) == (q == s), (s, q, h)
    # The card each steal took is known to its thief and its victim (their screens name it), to no one else.
    for e in star.events[0]:
        if isinstance(e, Logged) and e.event.kind == "steal":
            thief, victim, h = e.event.seat, e.event.data["victim"], e.event.data["handle"]
            assert [h in p.stolen for p in star.peers] == [s in (thief, victim) for s in range(len(engines))]
            assert star.peers[thief].stolen[h] == star.peers[victim].stolen[h] is not None
            if h in engines[thief].hid[thief]:
                assert engines[thief].rcard[h] == star.peers[thief].stolen[h]


def agree_and_verify(star: Star) -> str:
    peers = star.peers
    assert len({p.final_hash for p in peers}) == 1 and None not in {p.final_hash for p in peers}
    assert len({p.engine.outcome for p in peers}) == 1 and peers[0].engine.outcome is not None
    assert all(p.audit is not None and p.audit.fair for p in peers)
    report = verify_transcript(peers[0].protocol.transcript().to_bytes())
    assert report.status == "fair", str(report)
    return str(report)


# --- whole games ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players,seed", [(3, 27), (4, 16)])
def test_whole_guild_games_with_steals_agree_and_verify_fair(players: int, seed: int) -> None:
    star = Star(star_peers(players, seed=b"guild%d" % seed, kind="guilds"))
    star.play(thieves(players, seed), after_round=knowledge)
    taken = steals(star.events[0])
    assert taken, "the seed was chosen for a game with steals"
    assert len({tuple(steals(star.events[s])) for s in range(players)}) == 1
    report = agree_and_verify(star)
    assert f"{len(taken)} random steals proven" in report
    ops = steal_steps(star.peers[0])
    # the victim's face-up cards go in by kind
    assert all(type(e) is str and e in RESOURCES for op in ops for e in op.slots if type(e) is not int)
    if players == 4:  # the seed has a later steal from a hand an earlier steal hid
        later = [op for op in ops if any(type(e) is int for e in op.slots)]
        assert later and any(type(e) is str for op in later for e in op.slots)


def test_a_whole_game_with_development_tokens_dealt_and_played_verifies_fair() -> None:
    star = Star(star_peers(3, seed=b"guildr0", kind="guilds"))
    star.play([RandomBot(random.Random(s)) for s in range(3)])
    report = agree_and_verify(star)
    dealt = int(report.split(" cards dealt")[0].rsplit(" ", 1)[1])
    assert dealt > 0, report
    # every token played was turned up, and only those: the stack's order stays hidden until the audit
    guard_events = [e for e in star.events[1] if isinstance(e, Logged) and e.event.kind == "guard"]
    assert guard_events


# --- a seat rebuilt from its log in the middle of a steal ----------------------------------------------

@pytest.mark.parametrize("role", ["victim", "thief"])
def test_a_seat_rebuilt_from_its_log_in_the_middle_of_a_steal_carries_on(role: str) -> None:
    """The victim goes down as it sends its opening (the rebuilt one sends it
    again); the thief goes down before the opening reaches it (the rebuilt one
    gets it from the host and opens its card)."""
    players, seed = 4, 0
    star, fresh = rebuilt_mid_steal(lambda link: Star(star_peers(players, seed=b"guild%d" % seed, kind="guilds"), link),
                                    thieves(players, seed), role, knowledge)
    assert "random steals proven" in agree_and_verify(star)
    # the rebuilt seat knows what it holds: as thief its card, as victim its new hand
    e = fresh.engine
    assert all(e.rcard[h] is not None for h in e.hid[fresh.me])


# --- cheats ----------------------------------------------------------------------------------------------

class GuildLiar(Liar):
    """A modified client that sends its lie and what follows from it (its
    show), whatever its own rules make of them: it stops where they refuse."""

    def _apply_move(self, decision: Decision, option: tuple) -> None:
        try:
            super()._apply_move(decision, option)
        except RulesError:
            self.phase = DONE

    def _fulfil(self, answer: Any) -> None:
        try:
            super()._fulfil(answer)
        except ProtocolError:
            self.phase = DONE


def liar_star(players: int, seed: bytes, liar: int, lie) -> Star:
    return Star(star_peers(players, seed, "guilds", cheat=liar, cheat_as=lambda proto: GuildLiar(proto, lie)))


def caught(star: Star, bots) -> RemoteProtocolError:
    try:
        star.play(bots)
    except RemoteProtocolError as exc:
        return exc
    raise AssertionError("the cheat went through")


def test_a_hidden_card_spent_that_its_seat_does_not_hold_is_named_at_its_show() -> None:
    """A seat whose hand a steal hid pays with a kind it does not have: the
    others' rules, which see each of its hidden cards as possibly any kind,
    accept the move; its show before the payment proves what it holds, and
    every seat names it, its signed move the evidence."""
    liar = 3

    def spend(peer: Liar, d: Decision):
        e, p = peer.engine, d.seat
        # (a card it stole is known to its victim too, whose rules would refuse the move at once)
        if d.kind != "action" or not e.hid[p] or any(h in e.rfrom for h in e.hid[p]) or e.rcpt[p] >= 2 \
                or peer.lies:
            return None
        hand = e.hand(p)
        missing = [r for r in range(5) if hand[r] == 0]
        return ("refresh", missing[0]) if missing else None

    star = liar_star(4, b"guild16", liar, spend)
    error = caught(star, thieves(4, 16))
    assert star.peers[liar].lies == 1
    assert error.seat == liar and "do not pay for its move" in error.message, error
    (evidence,) = error.evidence
    assert decode(evidence)["from"] == liar and decode(evidence)["kind"] == "move"
    # the honest host took the move and the show: its saved game names the liar
    saved = star.peers[0].protocol.transcript()
    assert decode(saved.ops[-1][0])["kind"] == "show"
    report = verify_transcript(saved.to_bytes())
    assert [v.seat for v in report.violations] == [liar], str(report)


def test_an_illegal_build_is_refused_and_named() -> None:
    liar = 1

    def build(peer: Liar, d: Decision):
        if d.kind == "action" and not peer.lies and peer.engine.turn > 4:
            return ("villa", 0)
        return None

    star = liar_star(3, b"guild27", liar, build)
    error = caught(star, thieves(3, 27))
    assert error.seat == liar and "illegal move 'villa 0'" in error.message, error


@pytest.fixture(scope="module")
def guild_game() -> Star:
    star = Star(star_peers(4, seed=b"guild16", kind="guilds"))
    star.play(thieves(4, 16))
    return star


def test_ankh_verify_names_a_victim_whose_steal_changes_a_face_up_card(guild_game: Star) -> None:
    data, victim = tampered(guild_game, "steal", lambda b: b.__setitem__("s", swap_scalar(b["s"], 0, 7)))
    report = verify_transcript(data)
    assert [v.seat for v in report.violations] == [victim], str(report)
    assert "re-randomised" in report.violations[0].message


def test_ankh_verify_names_a_seat_that_shows_a_hidden_card_as_another(guild_game: Star) -> None:
    def other_card(body: dict) -> None:
        body["cards"] = ["ore" if body["cards"][0] != "ore" else "brick", *body["cards"][1:]]

    data, shower = tampered(guild_game, "show", other_card)
    report = verify_transcript(data)
    assert [v.seat for v in report.violations] == [shower], str(report)
    assert "does not hold" in report.violations[0].message


def test_a_forged_steal_is_refused_at_its_step_by_every_seat_naming_the_victim() -> None:
    """The victim re-randomises one of its face-up cards into another (its
    proof then fails): every other seat refuses the steal at once."""
    players, seed = 4, 16
    roster, secrets = seat_secrets(players, b"guild%d" % seed, "guilds")
    forged: dict[str, int] = {}

    def link(frame: bytes, a: int, b: int) -> list[bytes]:
        payload = decode(frame)
        if payload["kind"] == "steal" and a == payload["from"] and forged.setdefault("victim", a) == a:
            # (signed again by the victim: a deterministic signature, the same frame to every seat)
            return [resign(frame, secrets[a].identity, lambda body: body.__setitem__("s", swap_scalar(body["s"], 0, 3)))]
        return [frame]

    star = Star(star_peers(players, seed=b"guild%d" % seed, kind="guilds"), link)
    error = caught(star, thieves(players, seed))
    assert error.seat == forged["victim"] and "re-randomised" in error.message, error
