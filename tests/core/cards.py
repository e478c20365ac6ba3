"""Scenario builders shared by the card tests."""
from __future__ import annotations

from ankh.core.morpork.catalog import CARDS
from ankh.core.morpork.model import CARD

from .helpers import Scenario

# Cards with symbols only and no interrupt: safe fillers for hands.
PLAIN = [c["id"] for c in CARDS
         if "effect" not in c and "interrupt" not in c and c["symbols"] and "play_another" not in c["symbols"]]


def game(red=(), yellow=(), green=(), players: int = 2, extra: str = "", first: str = "red",
         deck=(), events=("riots",)) -> Scenario:
    """A scenario where each listed seat holds the given cards (filled up to
    five with plain cards).  ``events`` fixes the top of the event deck: Riots
    does nothing with fewer than 8 trouble markers, so cards whose event symbol
    is beside the point can be played safely."""
    if players == 2 and any(CARD[c].get("two_player_excluded") for c in (*red, *yellow, *deck)):
        players = 3  # Hubert and Cosmo Lavish are not in a 2-player deck
    used = set(red) | set(yellow) | set(green) | set(deck)
    pool = [c for c in PLAIN if c not in used]

    def fill(cards):
        cards = list(cards)
        while len(cards) < 5:
            cards.append(pool.pop(0))
        return " ".join(cards)

    lines = [f"players: {players}", f"first: {first}", f"hand red: {fill(red)}",
             f"hand yellow: {fill(yellow)}"]
    if players >= 3:
        lines.append(f"hand green: {fill(green)}")
    if players >= 4:
        lines.append(f"hand blue: {fill(())}")
    if deck:
        lines.append("deck: " + " ".join(deck))
    if events:
        lines.append("events: " + " ".join(events))
    return Scenario("\n".join(lines) + "\n" + extra)
