"""What a player who came in over ``ankh serve --ssh`` is told: where their
secrets live, and how a guest takes their seat back after dropping out."""
from __future__ import annotations

from rich.text import Text

from ankh.net.files.home import ssh_back_code, ssh_player
from ankh.tui.i18n import _


def back_note() -> str:
    """A guest over SSH: how to take their seat back after dropping out of a game."""
    code = ssh_back_code()
    return " " + _("Dropped from a game on the network? Log in again within 10 minutes with the user "
                   "name {code} to take your seat back.").format(code=code) if code else ""


def ssh_note() -> Text | None:
    """Said plainly to a player who came in over ``ankh serve --ssh``: where their secrets are."""
    who = ssh_player()
    if who is None:
        return None
    if who == "guest":
        return Text(_("Over SSH as a guest (no key): your identity, hand and saves live on the "
                      "server and are thrown away when you leave.") + back_note(), style="bold")
    return Text.assemble((_("Over SSH: your identity, hand and saves live on the server, not on "
                            "your computer. You are known by your SSH key {fp}.").format(fp=who), "bold"))
