"""Fixtures for the terminal UI tests: saves go to a temporary ANKH_HOME."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def ankh_home(tmp_path, monkeypatch):
    home = tmp_path / "ankh-home"
    monkeypatch.setenv("ANKH_HOME", str(home))
    return home
