"""Where the program's words will be translated.

Every sentence the player reads is written whole, with named placeholders
(``_("{who} played {card}.").format(who=..., card=...)``), so that a
catalogue can translate it as one piece.  Until catalogues exist ``_``
returns the English sentence unchanged.
"""
from __future__ import annotations


def _(message: str) -> str:
    return message
