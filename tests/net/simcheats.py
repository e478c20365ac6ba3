"""Cheating seats for the simulator (``ankh.net.io.sim``): each takes the
joiner's table (``JoinTable``) and gives a table that sends its ``n``-th frame of a kind
altered and signed again with its own game key, as ``test_lan_cheats``'s
cheats do over real sockets.  Named on the simulator's command line as
``--cheat tests.net.simcheats:NAME``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .nethelp import decode, resign, swap_scalar


def resigning(kind: str, mutate: Callable[[dict[str, Any]], None], n: int):
    def make(base: type) -> type:
        class Cheat(base):
            cheated = False
            _left = n

            def _outgoing(self, frames):
                out = []
                for f in frames:
                    if not self.cheated and decode(f)["kind"] == kind:
                        self._left -= 1
                        if self._left == 0:
                            f = resign(f, self.secrets.identity, mutate)
                            self.cheated = True
                    out.append(f)
                return super()._outgoing(out)

        return Cheat

    return make


#: an illegal move (tiny's moves are "play" and "pass")
illegal_move = resigning("move", lambda body: body.__setitem__("move", ["pay", 99]), 2)
#: a wrong deck key in a disclosure
wrong_key = resigning("keys", lambda body: body.__setitem__("k", swap_scalar(body["k"], 0, 12345)), 2)
#: a roll whose log hash is not the log's
bogus_log_hash = resigning("dice", lambda body: body.__setitem__("basis", bytes(32)), 2)

CATALOGUE = ("illegal_move", "wrong_key", "bogus_log_hash")
