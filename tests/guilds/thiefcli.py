"""``python -m tests.guilds.thiefcli ARGS``: the ``ankh`` command, with the
tests' thief bot known to the guild variant (``--bot thief``)."""
import sys

from ankh.core.game import get
from ankh.tui.cli import main

game = get("guilds")
game.BOTS = {**game.BOTS, "thief": ("tests.guilds.thief", "ThiefBot")}
sys.exit(main())
