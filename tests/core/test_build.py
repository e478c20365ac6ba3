"""The rules core under test is the one this run means to test, and a state
survives pickling (the search bot's worker processes) and ``copy``.

Where a C compiler is present, ``scripts/test`` runs the whole suite with
``ANKH_CORE=compiled`` against the core compiled with mypyc as a player's
install builds it (``scripts/backend/ankh_build.py``), then tests/core and
tests/bots again against the pure-Python core (the editable checkout)."""
from __future__ import annotations

import copy
import importlib
import importlib.machinery
import os
import pickle
import random
import sys
from pathlib import Path

import pytest

from ankh.core.morpork.model import (
    DealCard, Decision, Outcome, PassCard, PickRandom, Reveal, RollDie, ShowCards,
)
from ankh.core.morpork.state import FIELDS, State

from .helpers import ChoosyRandomBot, final_state_text, new_table_game

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "backend"))
from ankh_build import COMPILED, SHARED  # noqa: E402

WANTED = os.environ.get("ANKH_CORE", "pure")


@pytest.mark.parametrize("package,name", [(f"{g}/", n) for g, names in COMPILED.items() for n in names]
                         + [("", n) for n in SHARED])
def test_the_core_under_test_is_the_one_asked_for(package, name):
    path = importlib.import_module(f"ankh.core.{package.replace('/', '.')}{name}").__file__
    if WANTED == "compiled":
        assert path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), path
        assert Path(path).parent != ROOT / "core" / package
    else:
        assert Path(path) == ROOT / "core" / package / f"{name}.py"


def test_requests_and_outcomes_pickle():
    """They travel to the search bot's worker processes inside states (a frozen
    dataclass compiled by mypyc would not unpickle)."""
    values = [RollDie("carcer"), DealCard("player", (3, 2), 1), Reveal("event", (4,)),
              PassCard(7, 0, 2), ShowCards("personality", (1,), 3), PickRandom((1, 2, 3), 2, "x"),
              Outcome((0, 2), "points", "riots", (12, 9, 12), ("vimes", None, None))]
    for value in values:
        back = pickle.loads(pickle.dumps(value))
        assert back == value and type(back) is type(value)


def to_the_end(s: State, table, bot) -> str:
    while s.outcome is None:
        if isinstance(s.pending, Decision):
            s.choose(bot.choose(s, s.pending))
        else:
            table.fulfil(s)
    return final_state_text(s)


@pytest.mark.parametrize("how", ["pickle", "copy", "copy.deepcopy"])
@pytest.mark.parametrize("waiting_for", ["decision", "request"])
def test_a_state_in_mid_game_carries_on_the_same_after_pickling_or_copying(how, waiting_for):
    s, table = new_table_game(4, 11)
    bot = ChoosyRandomBot(random.Random(11))
    steps = 0
    while steps < 150 or isinstance(s.pending, Decision) != (waiting_for == "decision"):
        if isinstance(s.pending, Decision):
            s.choose(bot.choose(s, s.pending))
        else:
            table.fulfil(s)
        steps += 1
    twin = {"pickle": lambda x: pickle.loads(pickle.dumps(x)), "copy": State.copy,
            "copy.deepcopy": copy.deepcopy}[how](s)
    assert twin is not s and type(twin) is State
    table2 = copy.deepcopy(table)
    bot2 = copy.deepcopy(bot)
    assert to_the_end(twin, table2, bot2) == to_the_end(s, table, bot)


def test_a_shallow_copy_shares_every_field():
    s, table = new_table_game(3, 2)
    table.fulfil(s)
    twin = copy.copy(s)
    assert twin is not s
    assert all(getattr(twin, name) is getattr(s, name) for name in FIELDS)


def test_a_game_that_mypyc_refuses_leaves_the_engine_and_the_other_games_compiled(
        tmp_path, monkeypatch, capsys):
    """The engine (``core/kernel.py``) is compiled in the same mypyc run as
    every game's rules, since their states extend its class; a game whose
    rules mypyc refuses stays pure Python, and the others are still compiled
    on the compiled engine."""
    import shutil
    import types

    import ankh_build

    shutil.copytree(ROOT / "core", tmp_path / "core", ignore=shutil.ignore_patterns("__pycache__"))
    runs: list[list[str]] = []

    def mypycify(paths, *, opt_level, separate):
        groups = [name for _, name in separate]
        runs.append(groups)
        assert [p for files, _ in separate for p in files] == paths
        if "ankh_core_guilds" in groups:
            raise SystemExit("error: the guild rules do not type-check")
        return groups

    fake = types.ModuleType("mypyc.build")
    fake.mypycify = mypycify  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mypyc", types.ModuleType("mypyc"))
    monkeypatch.setitem(sys.modules, "mypyc.build", fake)
    monkeypatch.setattr(ankh_build, "pure_reason", lambda: None)
    built = ankh_build.core_extensions(tmp_path)
    assert runs[0] == ["ankh_core"] + [f"ankh_core_{game}" for game in COMPILED]
    assert built == ["ankh_core"] + [f"ankh_core_{game}" for game in COMPILED if game != "guilds"]
    assert "ankh_core_morpork" in built
    assert "the rules of guilds stay pure Python" in capsys.readouterr().err
