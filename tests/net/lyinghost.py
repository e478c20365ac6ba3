"""``lyinghost.py SECONDS -- python -m ankh.tui.cli host ...``: a host that
counts a seat as gone on a move clock of its own (SECONDS), shorter than
the one the table's start told every seat (a host that would end the table
against a person who is only thinking)."""
from __future__ import annotations

import runpy
import sys

from ankh.net.tablecore import host

clock = float(sys.argv[1])
argv = sys.argv[sys.argv.index("--") + 1:]


class Hasty(host.Patience):
    def __init__(self, roster, *, gone_after: float, move_clock: float):
        super().__init__(roster, gone_after=gone_after, move_clock=clock)


host.Patience = Hasty
sys.argv = [argv[2], *argv[3:]]  # python -m ankh.tui.cli ARGS
runpy.run_module("ankh.tui.cli", run_name="__main__")
