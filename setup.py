"""Everything about the package is in pyproject.toml; this adds the compiled
rules core to a wheel (see scripts/backend/ankh_build.py)."""
import sys
from pathlib import Path

from setuptools import setup

root = Path(__file__).resolve().parent
sys.path.insert(0, str(root / "scripts" / "backend"))
from ankh_build import setup_arguments  # noqa: E402

setup(**setup_arguments(root))
