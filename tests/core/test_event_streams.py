"""The rules' public output stays exactly as it was: every event (kind, seat,
text and data, in order) of a few hundred seeded games, and the final state,
digested and compared with a digest recorded from an earlier build of the
engine.  A change to one word of one event's text, to one ``Event.data``
entry or to the order of events changes the digest.

The digest was produced by running ``stream_digest()`` below on the engine
as it was before its modules were split into layers (commit 96bde11); after a
deliberate change of the rules or of the event texts, print the new value
with ``python -c "from tests.core.test_event_streams import stream_digest;
print(stream_digest())"`` and say why in the commit.
"""
from __future__ import annotations

import hashlib
import random

from ankh.core.morpork.bots.heuristic import HeuristicBot
from ankh.core.morpork.model import Decision
from ankh.core.morpork.state import State

from .helpers import ChoosyRandomBot, final_state_text, new_table_game

GAMES = [(players, seed) for players in (2, 3, 4) for seed in range(100)]
HEURISTIC_GAMES = [(players, 1000 + seed) for players in (2, 3, 4) for seed in range(4)]
DIGEST = "26fd3148bb7dd73a59326d1f43e8259106f958a273a176af716e22c68b4bd1bb"


def game_stream(players: int, seed: int, bot) -> tuple[list, State]:
    s, table = new_table_game(players, seed)
    events: list = []
    while s.outcome is None:
        if isinstance(s.pending, Decision):
            events += s.choose(bot.choose(s, s.pending))
        else:
            events += table.fulfil(s)
    return events, s


def stream_digest(games=GAMES, heuristic_games=HEURISTIC_GAMES) -> str:
    h = hashlib.sha256()
    played = [(p, seed, ChoosyRandomBot(random.Random(seed))) for p, seed in games]
    played += [(p, seed, HeuristicBot(random.Random(seed))) for p, seed in heuristic_games]
    for players, seed, bot in played:
        events, s = game_stream(players, seed, bot)
        for ev in events:
            h.update(repr(tuple(ev)).encode())
        h.update(final_state_text(s).encode())
    return h.hexdigest()


def test_event_streams_and_final_states_are_unchanged():
    assert stream_digest() == DIGEST


def test_the_digest_sees_a_single_changed_event(monkeypatch):
    """The comparison is not blind: one event with one changed word changes the digest."""
    real = game_stream
    changed = []

    def altered(players: int, seed: int, bot) -> tuple[list, State]:
        events, s = real(players, seed, bot)
        for i, ev in enumerate(events):
            if ev.kind == "fog" and not changed:
                changed.append(ev.text)
                events[i] = ev._replace(text=ev.text.replace("fog", "Fog", 1))
        return events, s

    few = GAMES[250:]
    before = stream_digest(few, ())
    monkeypatch.setattr(f"{__name__}.game_stream", altered)
    assert stream_digest(few, ()) != before
    assert changed
