"""Order of the suite across parallel workers (pytest-xdist, as scripts/test runs it)."""
from __future__ import annotations

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
