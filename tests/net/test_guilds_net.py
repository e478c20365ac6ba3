"""The guild variant over the network: whole games through GamePeers and the
hub, where the robber's steal takes a card from a hand of face-up cards by
the protocol's random steal; every seat ends with one result, ``ankh
verify`` says fair, and after every round a seat's rules know the kind of a
hidden card exactly when it holds it."""
from __future__ import annotations

import random
from typing import Any

import pytest

from ankh.core.guilds.bots import HeuristicBot
from ankh.net.peer import Logged
from ankh.net.verify import verify_transcript

from .star import Star, star_peers


def guild_bots(players: int, seed: int) -> list[HeuristicBot]:
    return [HeuristicBot(random.Random(seed * 10 + s)) for s in range(players)]


def steals(events: list[Any]) -> list[tuple[int, int]]:
    return [(e.event.seat, e.event.data["handle"]) for e in events if isinstance(e, Logged) and e.event.kind == "steal"]


def knowledge(star: Star) -> None:
    """A seat's rules know a hidden card's kind exactly when the seat holds it (the
    victim of the steal that made it knows it too, but its rules judge the thief's
    hand as every other seat does); every seat agrees on who holds what."""
    engines = [p.engine for p in star.peers]
    assert len({tuple(e.hid) for e in engines}) == 1 and len({tuple(e.res) for e in engines}) == 1
    for s, e in enumerate(engines):
        for q in range(e.players):
            for h in e.hid[q]:
                assert (e.rcard[h] is not None) == (q == s), (s, q, h)


@pytest.mark.parametrize("players,seed", [(4, 5)])
def test_whole_guild_games_with_steals_agree_and_verify_fair(players: int, seed: int) -> None:
    star = Star(star_peers(players, seed=b"guild%d" % seed, kind="guilds"))
    star.play(guild_bots(players, seed), after_round=knowledge)
    peers = star.peers
    taken = steals(star.events[0])
    assert taken, "the seed was chosen for a game with steals"
    assert len({p.final_hash for p in peers}) == 1 and None not in {p.final_hash for p in peers}
    assert len({p.engine.outcome for p in peers}) == 1
    assert all(p.audit is not None and p.audit.fair for p in peers)
    assert len({tuple(steals(star.events[s])) for s in range(players)}) == 1
    report = verify_transcript(peers[0].protocol.transcript().to_bytes())
    assert report.status == "fair", str(report)
    assert f"{len(taken)} random steals proven" in str(report)
