"""The compiled rules core plays every game as the pure-Python core does.

``scripts/test`` runs the suite against the core compiled with mypyc, as a
player's install has it.  The pure-Python core is the reference (and what runs
where there is no C compiler): here the same seeded bot games of both games are
played on each, the pure one in a process of its own, and every game must end
in the same state and record."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from . import parity

ROOT = Path(__file__).resolve().parents[2]
COMPILED = os.environ.get("ANKH_CORE", "pure") == "compiled"


def on_the_pure_core() -> list[str]:
    compiled = {p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p}
    compiled = {p for p in compiled if (Path(p) / "ankh" / "core").is_dir() and Path(p).resolve() != ROOT}
    path = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p not in compiled]
    env = dict(os.environ, ANKH_CORE="pure", PYTHONPATH=os.pathsep.join([str(ROOT), *path]))
    done = subprocess.run([sys.executable, "-m", "tests.core.parity"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


@pytest.mark.skipif(not COMPILED, reason="this run has no compiled core to compare (ANKH_CORE=compiled has)")
def test_the_compiled_core_plays_every_game_as_the_pure_one() -> None:
    here = parity.lines()
    pure = on_the_pure_core()
    assert Path(pure[0]) == ROOT / "core" / "morpork" / "state.py", pure[0]     # the reference ran there
    assert Path(here[0]) != Path(pure[0]), here[0]                              # and the compiled one here
    assert len(here) == len(pure) > 50
    differ = [(a, b) for a, b in zip(here[1:], pure[1:]) if a != b]
    assert not differ, f"{len(differ)} games end otherwise on the compiled core: {differ[:5]}"
