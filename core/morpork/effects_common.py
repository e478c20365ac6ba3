"""What every card text shares: the :class:`Effect` record (``can`` says
whether the text could do anything now, ``start`` queues its work), the
card's parameters, and the Wallace Sonky window in front of anything a text
does to another player.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .model import CARD
from .state import State
from .windows import t_guard


@dataclass(frozen=True, slots=True)
class Effect:
    can: Callable[[State, int, int], bool]
    start: Callable[[State, int, int], None]


def always(s: State, p: int, h: int) -> bool:
    """The ``can`` of a text that can always be carried out."""
    return True


def params(s: State, h: int) -> dict:
    return CARD[s.card[h]].get("params", {})


def others(s: State, p: int) -> list[int]:
    """The other seats in turn order, starting at ``p``'s left."""
    n = s.players
    return [(p + i) % n for i in range(1, n)]


def text(p: int):
    return ("text", p)


def guard_text(s: State, q: int, p: int) -> None:
    """Queue ``q``'s Wallace Sonky window in front of the task pushed just before."""
    s.push(t_guard, q, "text", text(p), None)


def ask_target(s: State, p: int, cands, prompt: str, fn, *args) -> None:
    s.ask(p, "target", [("target", q) for q in cands], prompt, fn, p, *args)


def ask_victim(s: State, p: int, cands, prompt: str, then) -> None:
    """``p`` chooses another player for the card's text; ``then(s, p, q)`` carries it
    out once the chosen ``q`` has had the chance to stop it (Wallace Sonky)."""
    ask_target(s, p, cands, prompt, r_victim, then)


def r_victim(s: State, opt, p: int, then) -> None:
    q = opt[1]
    s.push(then, p, q)
    guard_text(s, q, p)
