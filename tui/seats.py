"""The seats on screen, in every game: their colours as words, their letters
(R Y G B; in French R J V B) and styles, and sentences assembled from parts."""
from __future__ import annotations

import re

from rich.text import Text

from ankh.core.game import COLOURS, LETTERS

from ankh.tui.i18n import N_, NP_, _, pgettext

# The seats' colours as words on screen (the notation keeps ankh.core.game.COLOURS).
COLOUR_WORDS = (N_("red"), N_("yellow"), N_("green"), N_("blue"))
assert COLOUR_WORDS == tuple(COLOURS)


# The seats' letters on screen (R Y G B; in French R J V B): the map, tags, the players.
SEAT_LETTERS = (NP_("seat letter", "R"), NP_("seat letter", "Y"), NP_("seat letter", "G"),
                NP_("seat letter", "B"))
assert SEAT_LETTERS == tuple(LETTERS)


def seat_letter(seat: int) -> str:
    return pgettext("seat letter", SEAT_LETTERS[seat])


def colour(seat: int) -> str:
    """The seat's colour as a word in the language shown: ``red``, ``rouge``."""
    return _(COLOUR_WORDS[seat])


SEAT_STYLE = ("bold red", "bold yellow", "bold green", "bold bright_blue")


def seat_tag(seat: int) -> Text:
    """``R red`` in red: the letter and the word, so colour is never needed."""
    return Text(f"{seat_letter(seat)} {colour(seat)}", style=SEAT_STYLE[seat])


def letter(seat: int) -> Text:
    return Text(seat_letter(seat), style=SEAT_STYLE[seat])


def _assemble(sentence: str, **parts) -> Text:
    """``sentence`` (translated, with ``{name}`` placeholders) as rich text,
    each placeholder filled with its part: a :class:`Text`, a ``(str, style)``
    pair or a plain string.  The translation decides the word order."""
    t = Text()
    for piece in re.split(r"(\{\w+\})", sentence):
        if piece.startswith("{") and piece.endswith("}") and piece[1:-1] in parts:
            part = parts[piece[1:-1]]
            if isinstance(part, Text):
                t.append_text(part)
            elif isinstance(part, tuple):
                t.append(*part)
            else:
                t.append(str(part))
        elif piece:
            t.append(piece)
    return t
