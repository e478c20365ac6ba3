"""Shared helpers for the rules tests: playing games and checking invariants."""
from __future__ import annotations

import random

from ankh.core.morpork.bots.random_bot import RandomBot
from ankh.core.morpork.setup import new_game
from ankh.core.morpork.model import (
    BUILDINGS_PER_PLAYER, MINIONS_PER_PLAYER, NUM_AREAS, DealCard, Decision, PassCard, ShowCards,
    deck_lists,
)
from ankh.core.morpork.state import REMOVED, State, handles
from ankh.net.play.local import LocalTable


def masked_answer(req, full, viewer: int):
    """The answer a fair protocol gives ``viewer``'s engine: card identities only
    where the rules show them to that seat (rolls, picks and reveals are public)."""
    if isinstance(req, DealCard):
        return full if req.seat == viewer else tuple(None for _ in full)
    if isinstance(req, PassCard):
        return full if viewer in (req.receiver, req.giver) else None
    if isinstance(req, ShowCards):
        return full if req.seat == viewer else tuple(None for _ in full)
    return full


def check_invariants(s) -> None:
    n = s.players
    green, brown = deck_lists(n)
    handles = s.all_card_handles()
    assert sorted(handles) == list(range(len(green) + len(brown))), "player cards lost or doubled"
    for p in range(n):
        on_board = sum(s.minions[a][p] for a in range(NUM_AREAS))
        assert on_board + s.supply[p] == MINIONS_PER_PLAYER
        assert 0 <= s.supply[p] <= MINIONS_PER_PLAYER
        built = sum(1 for a in range(NUM_AREAS) if s.building[a] == p)
        assert built + s.buildings_left[p] == BUILDINGS_PER_PLAYER
        assert s.money[p] >= 0
    for a in range(NUM_AREAS):
        assert s.trouble[a] in (True, False)  # at most one marker per area
        assert s.trolls[a] >= 0 and s.demons[a] >= 0
        assert all(c >= 0 for c in s.minions[a])
        owner = s.city_owner[a]
        if owner != REMOVED:
            assert owner == s.building[a], "City Area card must follow its building"
    assert sum(s.trolls) <= 3 and sum(s.demons) <= 4
    assert sorted(s.event_deck + s.events_done) == list(range(12))
    assert sorted(s.personality + s.unused_pers) == list(range(len(s.pers)))


def play_random(players: int, seed: int, check: bool = False, max_steps: int = 50_000):
    """Play one game of random bots; returns (state, table, decisions-as-list)."""
    s = new_game(players)
    table = LocalTable(players, seed)
    bot = RandomBot(random.Random(seed * 7919 + players))
    steps = 0
    while s.outcome is None:
        if isinstance(s.pending, Decision):
            s.choose(bot.choose(s, s.pending))
        else:
            table.fulfil(s)
        if check:
            check_invariants(s)
        steps += 1
        assert steps < max_steps, "game stuck"
    return s, table


class ChoosyRandomBot:
    """Uniform among the options, but a single option is taken without drawing
    from the generator: its games are the same whether or not the engine asks
    forced decisions."""

    def __init__(self, rng):
        self.rng = rng

    def choose(self, state, decision: Decision) -> tuple:
        opts = decision.options
        return opts[0] if len(opts) == 1 else self.rng.choice(opts)


def final_state_text(s: State) -> str:
    """Everything public and private a finished game's state holds, as text
    (in plain lists, whatever containers the state keeps them in)."""
    return repr((
        [list(r) for r in s.minions], s.trolls, s.demons, s.trouble, s.building, s.city_owner,
        s.money, s.supply, s.buildings_left, s.hand, [list(x) for x in s.loans],
        [list(x) for x in s.penalties], s.card, s.draw, s.discard,
        s.in_play, s.pers, s.personality, s.unused_pers,
        [handles(x) for x in s.pers_seen], [handles(x) for x in s.seen], s.event, s.event_deck,
        s.events_done, s.current, s.turn, s.outcome,
    ))


def new_table_game(players: int, seed: int):
    """A new game and its seeded local table."""
    return new_game(players), LocalTable(players, seed)


def run_to_decision(s, table) -> None:
    """Fulfil table requests until a seat must decide (or the game ends)."""
    while s.outcome is None and not isinstance(s.pending, Decision):
        table.fulfil(s)


# --- scenarios: a position written as a record, then moves by hand --------------------------

from ankh.core.morpork.model import AREA_INDEX, COLOURS  # noqa: E402
from ankh.net.play.local import LocalGame  # noqa: E402


class Scenario:
    """A game where every seat is a person, built from record setup lines.

    ``do("red: play mr-boggis", "red: scroll")`` applies moves exactly as a
    record would (forced single-option decisions are applied on their own);
    a move written ``"?red: target yellow"`` is applied only if it is asked
    (a choice among one target is not).
    """

    def __init__(self, setup: str):
        text = "# ankh record 1\n" + "\n".join(l.strip() for l in setup.strip().splitlines())
        self.game = LocalGame.from_text(text + "\n")
        self.game.advance()

    @property
    def s(self):
        return self.game.state

    def do(self, *moves: str) -> "Scenario":
        for move in moves:
            optional = move.startswith("?")
            who, _, text = move.lstrip("?").partition(":")
            d = self.s.pending
            if optional and (not isinstance(d, Decision) or COLOURS[d.seat] != who.strip()
                             or " ".join(text.split()) not in self.options()):
                continue  # "?move": a decision that only exists when it has a choice
            assert isinstance(d, Decision), f"no decision pending for {move!r}: {d!r}"
            assert COLOURS[d.seat] == who.strip(), (
                f"{move!r}: it is {COLOURS[d.seat]}'s decision ({d.prompt}): {self.options()}")
            self.game.choose_text(text)
            self.game.advance()
        return self

    def options(self) -> list[str]:
        from ankh.core.morpork.notation import format_option
        d = self.s.pending
        return [format_option(self.s, o) for o in d.options] if isinstance(d, Decision) else []

    @property
    def waiting(self) -> str:
        d = self.s.pending
        return f"{COLOURS[d.seat]}:{d.kind}" if isinstance(d, Decision) else type(d).__name__

    def money(self, colour: str) -> int:
        return self.s.money[COLOURS.index(colour)]

    def minions(self, area: str, colour: str) -> int:
        return self.s.minions[AREA_INDEX[area]][COLOURS.index(colour)]

    def trouble(self, area: str) -> bool:
        return self.s.trouble[AREA_INDEX[area]]

    def building(self, area: str):
        b = self.s.building[AREA_INDEX[area]]
        return None if b < 0 else COLOURS[b]

    def hand(self, colour: str) -> list[str]:
        return [self.s.card[h] for h in self.s.hand[COLOURS.index(colour)]]

    def log_text(self) -> str:
        return "\n".join(e.text for e in self.game.log)


# Personalities that cannot win by accident in test positions (Commander Vimes
# only wins when the draw pile runs out); a test's own personality lines win.
QUIET = ("commander-vimes", "dragon-king-of-arms", "chrysoprase", "lord-vetinari")


def quiet_personalities(players: int, lines) -> list[str]:
    """Record lines giving every seat not named in ``lines`` a quiet personality."""
    given = {l.split()[1].rstrip(":"): l.split()[2] for l in lines
             if l.startswith("personality ")}
    out = []
    for c in COLOURS[:players]:
        if c not in given:
            pid = next(p for p in QUIET if p not in given.values()
                       and not (players == 2 and p == "chrysoprase"))
            given[c] = pid
            out.append(f"personality {c}: {pid}")
    return out


def scenario(*lines: str, hands: dict[str, str], players: int = 2, first: str = "red",
             event: str | None = None, rolls=()) -> Scenario:
    """A scenario from setup ``lines`` with fixed ``hands`` (colour -> 5 card ids)
    and quiet personalities for every seat the lines leave open."""
    head = [f"players: {players}", f"first: {first}"]
    head += [f"hand {c}: {hands[c]}" for c in COLOURS[:players]]
    head += quiet_personalities(players, lines)
    if event:
        head.append(f"events: {event}")
    if rolls:
        head.append("rolls: " + " ".join(map(str, rolls)))
    return Scenario("\n".join(head + list(lines)))
