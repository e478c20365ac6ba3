"""Fixtures for the terminal UI tests: saves go to a temporary ANKH_HOME."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def no_key_guard(request, monkeypatch):
    """Pilot keys come at machine speed: the key guard is tested on its own
    (``@pytest.mark.key_guard`` keeps it)."""
    if "key_guard" not in request.keywords:
        from ankh.tui.games.morpork.screens.game import GameScreen
        monkeypatch.setattr(GameScreen, "KEY_GUARD", 0.0)


@pytest.fixture(autouse=True)
def ankh_home(tmp_path, monkeypatch):
    home = tmp_path / "ankh-home"
    monkeypatch.setenv("ANKH_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def quick_hard_bot(monkeypatch):
    """The hard (search) bot thinks one world a decision among its two best
    options, with no clock: the
    screens and sessions are under test here, not its strength (tests/bots and
    scripts/bench/search), and its decisions then depend on its seed alone."""
    from ankh.tui.games.morpork import search_workers
    monkeypatch.setattr(search_workers, "HARD_BUDGET", None)
    monkeypatch.setattr(search_workers, "HARD_WORLDS", 1)
    monkeypatch.setattr(search_workers, "HARD_WIDTH", 2)


@pytest.fixture(autouse=True)
def english_again():
    """Every test starts and ends in English, whatever another test chose."""
    from ankh.tui import i18n
    i18n.set_language("en")
    yield
    i18n.set_language("en")
