"""Order of the suite across parallel workers (pytest-xdist, as scripts/test runs it)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The folders whose tests wait longest on real processes, terminals and sockets: handed out
# first, so that the quick rules tests fill the gaps at the end instead of one slow test
# holding up the whole run on its own.
SLOW_FIRST = ("tests/tui/", "tests/net/")


def pytest_collection_modifyitems(config, items):
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: every worker sorts alike
        def rank(item) -> int:
            return next((i for i, top in enumerate(SLOW_FIRST) if item.nodeid.startswith(top)),
                        len(SLOW_FIRST))
        items.sort(key=rank)


@pytest.fixture(scope="session")
def pure_wheel(tmp_path_factory):
    """The wheel built with ANKH_PURE set, once a session (a build takes the processor for many
    seconds): its path and what pip said (verbose, so the build's own lines are in it). The tests
    that use it share the xdist_group "wheel-build", so they all run on one worker."""
    out = tmp_path_factory.mktemp("pure-wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--disable-pip-version-check",
         "-w", str(out), str(ROOT)],
        env={**os.environ, "ANKH_PURE": "1"}, capture_output=True, text=True, timeout=300)
    return built, sorted(out.glob("*.whl"))
