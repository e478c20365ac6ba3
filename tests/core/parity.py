"""Where seeded bot games of both games end, one line a game, on the rules core
this process imports: ``python -m tests.core.parity`` prints them, after a
first line naming the file of the first game's state module (the core in use).

The compiled core (mypyc) must play every game exactly as the pure-Python one,
the reference: tests/core/test_parity.py compares the two."""
from __future__ import annotations

import hashlib
import random

from ankh.core.guilds.bots import HeuristicBot as GuildHeuristic
from ankh.core.guilds.bots import RandomBot as GuildRandom
from ankh.core.guilds.game import GAME as GUILDS
from ankh.core.guilds.record import Record
from ankh.core.morpork import state as morpork_state
from ankh.core.morpork.bots.heuristic import HeuristicBot
from ankh.core.morpork.bots.random_bot import RandomBot
from ankh.net.play.local import LocalGame

from .helpers import final_state_text, play_random

RANDOM_SEEDS = 40  # random-bot games of the first game, per player count
HEURISTIC_SEEDS = 5  # heuristic-bot games of the first game, per player count
GUILD_SEEDS = 5  # guild games, per player count and mix of bots


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def games():
    """(name, text of the finished game) for every game compared."""
    for players in (2, 3, 4):
        for seed in range(RANDOM_SEEDS):
            s, _ = play_random(players, seed)
            yield f"morpork random {players}p seed {seed}", final_state_text(s)
        for seed in range(HEURISTIC_SEEDS):
            bots = {p: HeuristicBot(random.Random(seed * 10 + p)) for p in range(players)}
            game = LocalGame.new(players, seed, bots)
            game.advance()
            yield f"morpork heuristic {players}p seed {seed}", game.save_text() + final_state_text(game.state)
    for players in (3, 4):
        for kinds in ("rrrr", "hhhh", "hrhr"):
            for seed in range(GUILD_SEEDS):
                bots = {i: (GuildHeuristic if kinds[i] == "h" else GuildRandom)(random.Random(seed * 31 + i))
                        for i in range(players)}
                game = LocalGame(Record(players=players, seed=seed), bots, GUILDS)
                game.advance()
                yield f"guilds {kinds[:players]} {players}p seed {seed}", game.save_text()


def lines() -> list[str]:
    return [morpork_state.__file__ or "?"] + [f"{name} {digest(text)}" for name, text in games()]


if __name__ == "__main__":
    print("\n".join(lines()))
