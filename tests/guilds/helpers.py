"""Positions and games for the guild variant's tests."""
from __future__ import annotations

import random

from ankh.core.game import Decision
from ankh.core.guilds.board import R_INDEX, V_INDEX
from ankh.core.guilds.bots import HeuristicBot, RandomBot
from ankh.core.guilds.game import GAME
from ankh.core.guilds.record import Record, format_record, parse_record
from ankh.core.guilds.state import EMPTY
from ankh.net.play.local import LocalGame, LocalTable

BR, LU, WO, GR, OR = range(5)


def game(setup: str, moves: str = "", players: int = 3, seed: int = 1):
    """A local game (every card seen) from setup lines and moves, stopped at
    the first decision with several options."""
    text = f"game: guilds\nplayers: {players}\nseed: {seed}\n{setup}\n{moves}"
    g = LocalGame.from_text(text)
    g.advance()
    assert_round_trip(g)
    return g


def assert_round_trip(g):
    """The game's record writes and reads back as itself, and replays to the
    same state."""
    text = g.save_text()
    assert format_record(parse_record(text)) == text
    again = LocalGame.from_text(text)
    again.advance()
    for f in ("occ", "res", "bank", "gp", "pres", "lock", "parch", "rcpt", "dev", "dcard",
              "robber", "fire", "track", "turn", "active", "phase", "hid", "rcard"):
        assert getattr(again.state, f) == getattr(g.state, f), f
    assert again.state.pending == g.state.pending


def play(g, *moves: str):
    """Apply moves in notation, then run to the next real decision."""
    for m in moves:
        g.choose_text(m)
        g.advance()
    assert_round_trip(g)
    return g


def opts(g) -> list[str]:
    d = g.state.pending
    assert isinstance(d, Decision), d
    return [GAME.format_option(g.state, o) for o in d.options]


def hand(g, seat: int) -> list[int]:
    return g.state.hand(seat)


def gp(g, seat: int, guild: str) -> int:
    return g.state.gp[seat * 5 + R_INDEX[guild]]


def piece(g, vertex: str):
    o = g.state.occ[V_INDEX[vertex]]
    return None if o == EMPTY else (o // 3, ("foundation", "house", "villa")[o % 3])


def bots_game(kinds, players: int, seed: int):
    bots = {}
    for i in range(players):
        cls = HeuristicBot if kinds[i] == "h" else RandomBot
        bots[i] = cls(random.Random(seed * 31 + i))
    return LocalGame(Record(players=players, seed=seed), bots, GAME)


def table(players: int, seed: int) -> LocalTable:
    """The platform's table that sees every card, for a guild game."""
    return LocalTable(players, game=GAME, record=Record(players=players, seed=seed))
