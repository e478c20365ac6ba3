"""A wheel built where the rules core cannot be compiled is a working
pure-Python one, and the build says why in one line (it never fails for it).
The compiled build itself is checked by scripts/test's second run of the rules'
tests (tests/core/test_build.py)."""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


# Wheels build in the checkout's build/, which a build clears first: one at a time.
@pytest.mark.xdist_group("wheel-build")
@pytest.mark.parametrize("env, why", [
    ({"CC": "no-such-compiler"}, "no C compiler (no-such-compiler)"),
    ({"ANKH_PURE": "1"}, "ANKH_PURE is set"),
])
def test_without_a_compiler_or_with_ankh_pure_the_wheel_is_pure_python(
        request, tmp_path, env, why):
    if env == {"ANKH_PURE": "1"}:  # the session's ANKH_PURE wheel (tests/conftest.py)
        built, wheels = request.getfixturevalue("pure_wheel")
    else:
        built = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--disable-pip-version-check",
             "-w", str(tmp_path), str(ROOT)],
            env={**os.environ, **env}, capture_output=True, text=True, timeout=300)
        wheels = sorted(tmp_path.glob("*.whl"))
    assert built.returncode == 0, built.stderr[-2000:]
    said = [line.strip() for line in (built.stdout + built.stderr).splitlines()
            if line.strip().startswith("ankh:")]
    assert said == [f"ankh: the rules core stays pure Python: {why}"]
    (wheel,) = wheels
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "ankh/core/morpork/state.py" in names and "ankh/core/game.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    # every package of the checkout is in the wheel (a networked table needs all of net/)
    packages = {f"ankh/{p.relative_to(ROOT).as_posix()}" for top in ("core", "net", "tui")
                for p in (ROOT / top).rglob("__init__.py")}
    assert packages <= set(names), sorted(packages - set(names))
