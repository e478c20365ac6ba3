"""Prints a digest of what an install is built from, so that scripts reinstall
only when it changed: pyproject.toml, and with ``--sources`` also the build
backend and every source file of the named folders (e.g. ``core net tui``)."""
import hashlib
import os
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
args = sys.argv[1:]
h = hashlib.sha256((root / "pyproject.toml").read_bytes())
if args[:1] == ["--sources"]:
    h.update(os.environ.get("ANKH_PURE", "").encode())
    for top in ["setup.py", "build_backend", *args[1:]]:
        base = root / top
        for p in sorted([base] if base.is_file() else base.rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".so", ".pyc"):
                h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes())
print(h.hexdigest())
