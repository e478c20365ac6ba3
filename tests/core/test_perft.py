"""A perft-style regression (python-chess examples/perft): along fixed games,
the number of legal options at every decision stays as recorded.  Any change
to what the rules allow shows up here; after a deliberate rules change,
regenerate with ``ANKH_UPDATE_PERFT=1 scripts/test tests/core/test_perft.py``
and say why in the commit."""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

from ankh.core.morpork.bots.random_bot import RandomBot
from ankh.core.morpork.setup import new_game
from ankh.core.morpork.model import Decision
from ankh.net.play.local import LocalTable

GOLDEN = Path(__file__).with_name("perft.json")
GAMES = [(2, 101), (2, 102), (3, 201), (3, 202), (4, 301), (4, 302), (4, 303)]


def perft(players: int, seed: int) -> dict:
    s = new_game(players)
    table = LocalTable(players, seed)
    bot = RandomBot(random.Random(seed))
    counts = []
    requests = 0
    while s.outcome is None:
        if isinstance(s.pending, Decision):
            counts.append(len(s.pending.options))
            s.choose(bot.choose(s, s.pending))
        else:
            requests += 1
            table.fulfil(s)
    return {"decisions": len(counts), "options": sum(counts), "requests": requests,
            "first_200": counts[:200], "outcome": [s.outcome.reason, list(s.outcome.winners)]}


def test_perft_counts_stay_as_recorded():
    got = {f"{p}p-{seed}": perft(p, seed) for p, seed in GAMES}
    if os.environ.get("ANKH_UPDATE_PERFT"):
        lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in got.items()]
        GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    want = json.loads(GOLDEN.read_text())
    for key in want:
        assert got[key] == want[key], f"perft changed for game {key}"
