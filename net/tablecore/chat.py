"""The table's chat limit: at most ``CHAT_RATE`` lines a seat every
``CHAT_WINDOW`` seconds, by a clock the caller reads (sans-I/O)."""
from __future__ import annotations

from ..wire.lobby import CHAT_RATE, CHAT_WINDOW


class ChatLimit:
    """Who said how much lately; ``now`` is the caller's clock, in seconds."""

    def __init__(self, rate: int = CHAT_RATE, window: float = CHAT_WINDOW) -> None:
        self.rate, self.window = rate, window
        self.said: dict[int, list[float]] = {}  # recent times per seat

    def allow(self, seat: int, now: float) -> bool:
        """Whether ``seat`` may say a line at ``now`` (counted if so)."""
        recent = [t for t in self.said.get(seat, []) if now - t < self.window]
        if len(recent) >= self.rate:
            self.said[seat] = recent
            return False
        self.said[seat] = recent + [now]
        return True

    def refusal(self, name: str) -> str:
        """What the sender hears, from the host, when a line was not passed on."""
        return f"(to {name}: at most {self.rate} lines every {self.window:g} s; that one was not passed on)"
