"""Fixtures for the terminal UI tests: saves go to a temporary ANKH_HOME."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def no_key_guard(request, monkeypatch):
    """Pilot keys come at machine speed: the key guard is tested on its own
    (``@pytest.mark.key_guard`` keeps it)."""
    if "key_guard" not in request.keywords:
        from ankh.tui.screens.game import GameScreen
        monkeypatch.setattr(GameScreen, "KEY_GUARD", 0.0)


@pytest.fixture(autouse=True)
def ankh_home(tmp_path, monkeypatch):
    home = tmp_path / "ankh-home"
    monkeypatch.setenv("ANKH_HOME", str(home))
    return home
