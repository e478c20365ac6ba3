"""Prints a digest of what an install is built from, so that scripts rebuild
only when it changed: pyproject.toml, and with ``--sources`` also the build
backend and every source file of the named folders (e.g. ``core net tui``)."""
import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def digest(sources: list[str] | None = None) -> str:
    h = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    if sources is not None:
        h.update(os.environ.get("ANKH_PURE", "").encode())
        for top in ["setup.py", "scripts/backend", *sources]:
            base = ROOT / top
            for p in sorted([base] if base.is_file() else base.rglob("*")):
                if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".so", ".pyc"):
                    h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


if __name__ == "__main__":
    args = sys.argv[1:]
    print(digest(args[1:] if args[:1] == ["--sources"] else None))
