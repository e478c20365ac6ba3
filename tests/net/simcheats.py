"""Cheating seats for the simulator (``ankh.net.io.sim``): each takes the
joiner's table (``JoinTable``) and gives a table that sends its ``n``-th frame of a kind
altered and signed again with its own game key, as ``test_lan_cheats``'s
cheats do over real sockets.  Named on the simulator's command line as
``--cheat tests.net.simcheats:NAME``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ankh.net.wire.envelope import seq_of

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


def talking(make: Callable[[type], type]) -> Callable[[type], type]:
    """The cheat ``make`` builds, made a withholder that keeps talking at the audit: the
    host's word (its ``blame``, its ``bye``) does not end its game there, and on its
    direct links its beat says the frames it sent the host (its altered ones; none it
    kept from the host) and the others' frames of its log: it is there, and withholds
    its disclosure."""
    def wrap(base: type) -> type:
        cheat = make(base)

        class Talking(cheat):  # type: ignore[misc, valid-type]
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                self._altered: dict[bytes, bytes] = {}

            def _outgoing(self, frames: list[bytes]) -> list[bytes]:
                out = super()._outgoing(frames)
                sent = {seq_of(f): f for f in out}  # (by signer and number)
                # what it altered is said altered; what it kept from the host, not at all
                self._altered.update({f: sent.get(seq_of(f), b"") for f in frames if f not in out})
                return out

            def received(self, msg: dict[str, Any]) -> bool:
                if msg["t"] in ("blame", "bye") and self.peer is not None and self.peer.phase == "audit":
                    return False
                return super().received(msg)

            def lost(self, reason: str) -> str | None:
                if self.peer is not None and self.peer.phase == "audit":  # (the host closed the table)
                    self.relink, self.linked, self._relink_since = "rejoin", False, self.clock()
                    return self.relink  # (it knocks again, and talks on its direct links meanwhile)
                return super().lost(reason)

            def _do(self, effect: Any) -> None:
                msg = getattr(effect, "msg", None)
                if type(effect).__name__ == "TellSeats" and msg.get("t") == "mine" and msg["f"] in self._altered:
                    if not self._altered[msg["f"]]:
                        return
                    effect = type(effect)({"t": "mine", "f": self._altered[msg["f"]]}, keep=effect.keep)
                super()._do(effect)

        return Talking

    return wrap
