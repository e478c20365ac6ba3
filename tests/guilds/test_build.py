"""The guild core under test is the one this run means to test: with
``ANKH_CORE=compiled`` (``scripts/test``'s first run) the modules the build
compiles (their own mypyc group) are extensions, else the editable sources."""
from __future__ import annotations

import importlib
import importlib.machinery
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "backend"))
from ankh_build import COMPILED_GUILDS  # noqa: E402

WANTED = os.environ.get("ANKH_CORE", "pure")


@pytest.mark.parametrize("name", COMPILED_GUILDS)
def test_the_guild_core_under_test_is_the_one_asked_for(name):
    path = importlib.import_module("ankh.core." + name.replace("/", ".")).__file__
    if WANTED == "compiled":
        assert path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), path
    else:
        assert path == str(ROOT / "core" / f"{name}.py")
