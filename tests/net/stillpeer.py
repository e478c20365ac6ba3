"""``stillpeer.py N -- python -m ankh.tui.cli join ...``: a headless seat whose
program hangs after its N-th move: its link stays up and it answers every step
of the protocol, but it never decides again (a hung or hostile client)."""
from __future__ import annotations

import asyncio
import runpy
import sys

from ankh.tui import headless

after = int(sys.argv[1])
argv = sys.argv[sys.argv.index("--") + 1:]
bot_decider = headless._bot_decider


def still_after(kind, seed):
    decide = bot_decider(kind, seed)
    made = [0]

    async def still(peer, decision):
        made[0] += 1
        if made[0] > after:
            print("stops moving", flush=True)
            await asyncio.Event().wait()  # never
        return await decide(peer, decision)

    return still


headless._bot_decider = still_after
sys.argv = [argv[2], *argv[3:]]  # python -m ankh.tui.cli ARGS
runpy.run_module("ankh.tui.cli", run_name="__main__")
