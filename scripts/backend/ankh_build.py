"""ankh's build backend: setuptools', plus the rules core compiled with mypyc.

A regular install or wheel (``pip install .``, ``pip wheel .``) compiles the
hot modules of each game's rules (``COMPILED``), and the engine they run on
(``SHARED``), to C extensions with mypyc where it can: a C compiler and Python's headers are present and ``ANKH_PURE`` is not
set.  Only then does the build ask for mypy.  Otherwise, or when mypyc or the
C compiler fails, the wheel holds the pure-Python core -- the reference, which
is always installed beside the extensions -- and the build says why in one
line.  An editable install (``pip install -e .``) is always pure Python: an
extension built next to ``core/*.py`` would shadow every later edit of them.
"""
from __future__ import annotations

import os
import runpy
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403  (every other hook as setuptools has it)
from setuptools.command.build_ext import build_ext

MYPY = "mypy>=1.11"



def compiled_groups(root: Path) -> dict[str, tuple[str, ...]]:
    """The modules compiled, game by game, as each game's record names them
    (``core/registry.py``, read as a file: the build imports no part of the
    package): the rules' hot paths.  The component tables (``catalog``) gain
    nothing and stay Python, as do the bots, records and views.  Each game is
    its own mypyc group and library, so that one game's failure to compile
    leaves the other compiled."""
    entries = runpy.run_path(str(root / "core" / "registry.py"))["ENTRIES"]
    return {e.id: e.compiled for e in entries.values() if e.compiled}


COMPILED = compiled_groups(Path(__file__).resolve().parents[2])
#: The modules of ``core`` itself that are compiled, as group ``ankh_core``: the
#: engine whose class every game's state extends (a compiled class extends only
#: a compiled one, known to the same mypyc run).
SHARED: tuple[str, ...] = ("kernel",)
STAGE = Path("build") / "mypyc-src"  # the sources as package ankh.core, for mypy's module names
# The C compiler's optimisation: -O1 compiles in two thirds of -O3's time (58 s against 84 s
# for both games on one core) and the games play as fast (heuristic four-seat games a second,
# alternated runs: within the machine's noise of each other).
OPT_LEVEL = "1"


def say(line: str) -> None:
    print(f"ankh: {line}", file=sys.stderr, flush=True)


def pure_reason() -> str | None:
    """Why this build cannot compile the core, or None if it can."""
    if os.environ.get("ANKH_PURE"):
        return "ANKH_PURE is set"
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(shlex.split(cc)[0]) is None:
        return f"no C compiler ({cc})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h)"
    return None


def get_requires_for_build_wheel(config_settings=None) -> list[str]:
    need = _setuptools.get_requires_for_build_wheel(config_settings)
    return need + [MYPY] if pure_reason() is None else need


def core_extensions(root: Path) -> list:
    """The extension modules of the compiled core, or [] (saying why)."""
    reason = pure_reason()
    if reason is None:
        try:
            from mypyc.build import mypycify
        except ImportError:
            reason = "mypy is not installed"
    if reason is not None:
        say(f"the rules core stays pure Python: {reason}")
        return []
    say("compiling the rules core with mypyc")
    stage = root / STAGE
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copytree(root / "core", stage / "ankh" / "core",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    (stage / "ankh" / "__init__.py").write_text("")  # so that mypy names the modules ankh.core.*
    core = STAGE / "ankh" / "core"
    shared = [str(core / f"{name}.py") for name in SHARED]
    groups: dict[str, list[str]] = {}
    for game, names in COMPILED.items():
        paths = [str(core / game / f"{name}.py") for name in names]
        if all(Path(p).exists() for p in paths):
            groups[game] = paths
        else:
            say(f"the rules of {game} stay pure Python: a module to compile is missing")

    def mypyc(games: list[str]) -> list:
        """One mypyc run: the shared group and these games' groups, each its own library."""
        separate = [(shared, "ankh_core")] + [(groups[g], f"ankh_core_{g}") for g in games]
        return mypycify([p for paths, _ in separate for p in paths], opt_level=OPT_LEVEL,
                        separate=separate)

    cwd = os.getcwd()
    os.chdir(root)
    try:
        try:
            return mypyc(list(groups)) if groups else []
        except (Exception, SystemExit) as e:
            if len(groups) == 1:
                say(f"the rules core stays pure Python: mypyc failed ({e})")
                return []
        # One game's failure leaves the others compiled: find which compile.
        good = []
        for game in groups:
            try:
                mypyc([game])
                good.append(game)
            except (Exception, SystemExit) as e:
                say(f"the rules of {game} stay pure Python: mypyc failed ({e})")
        return mypyc(good) if good else []
    finally:
        os.chdir(cwd)


class OptionalBuildExt(build_ext):
    """Builds the compiled core, or on a compiler error leaves it out (the wheel
    still holds the Python modules).  Its extensions compile side by side, one a core, the
    largest C first: each game's library is a long compile of its own (the first game's, the
    longest, most of a minute on one core), which the other modules need not wait for."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:   # (``-j`` on the command line says otherwise)
            self.parallel = max(1, os.cpu_count() or 1)

    def build_extensions(self) -> None:
        self.extensions.sort(key=lambda ext: -sum(os.path.getsize(s) for s in ext.sources if os.path.exists(s)))
        super().build_extensions()

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:
            say(f"the rules core stays pure Python: its C compile failed ({str(e)[:160]})")
            for path in self.get_outputs():
                Path(path).unlink(missing_ok=True)


def setup_arguments(root: Path) -> dict:
    """What setup.py adds to pyproject.toml: the compiled core, for a wheel only."""
    if "bdist_wheel" not in sys.argv:
        return {}
    for old in (root / "build").glob("lib*"):  # no extension of an earlier build slips in
        shutil.rmtree(old)
    return {"ext_modules": core_extensions(root), "cmdclass": {"build_ext": OptionalBuildExt}}
