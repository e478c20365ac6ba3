"""``python -m tests.tinygame ARGS``: the ``ankh`` command, with the tiny game known."""
import sys

from ankh.tui.cli import main

from . import install

install()
sys.exit(main())
