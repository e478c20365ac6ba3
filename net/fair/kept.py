"""Answers a process keeps: a check that is a pure function of its inputs
(a shuffle proof checked, a log replayed with every card known) gives the same
answer to every seat of a simulated table, its spectators and the
transcript's check, so the first one found is kept and given again.

An answer is kept under a digest of every byte of its inputs, each part
length-prefixed (no two inputs share a key), and of the group the process
computes in (``group.name``): what holds in the simulator's group holds
nothing on the curve.  Each is a copy, so that a caller that changes what it
got (an exception's seat) changes nothing the next caller gets; the oldest
are let go past ``most``.
"""
from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from . import group

T = TypeVar("T")


class Kept(Generic[T]):
    """Answers kept under their inputs' digest, the oldest let go past ``most``."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._answers: dict[bytes, T] = {}

    @staticmethod
    def key(parts: Iterable[bytes]) -> bytes:
        """The digest of ``parts`` (each length-prefixed) in the group computed in now."""
        h = hashlib.sha256()
        for part in (group.name().encode(), *parts):
            h.update(len(part).to_bytes(4, "little"))
            h.update(part)
        return h.digest()

    def answer(self, parts: Iterable[bytes], find: Callable[[], T]) -> T:
        """The answer kept for ``parts``, else the one ``find()`` gives (kept from now on)."""
        key = self.key(parts)
        if key in self._answers:
            return copy.copy(self._answers[key])
        found = find()
        self._answers[key] = copy.copy(found)
        while len(self._answers) > self.most:
            del self._answers[next(iter(self._answers))]
        return found

    def clear(self) -> None:
        self._answers.clear()

    def __len__(self) -> int:
        return len(self._answers)
