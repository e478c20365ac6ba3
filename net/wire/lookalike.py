"""Text that looks the same to a person (sans-I/O, standard library only).

Two display names at one table, or two table titles in the join list, must
not pass for each other.  Unicode offers many ways to write what looks like
the same word: compatibility forms (a fullwidth ``Ｂ`` for ``B``), case, and
letters of other alphabets drawn like Latin ones (a Cyrillic ``о`` for a
Latin ``o``).  :func:`fold` maps all of these to one spelling; callers
compare the folded texts.
"""
from __future__ import annotations

import unicodedata

# Letters of other alphabets drawn like Latin ones, folded to the Latin letter
# they pass for (lower case: folding comes after casefold).
SCRIPTS = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "ӏ": "l", "ɡ": "g",
    "α": "a", "β": "b", "ε": "e", "η": "n", "κ": "k", "μ": "m", "ν": "v", "ο": "o", "ρ": "p", "ι": "i",
    "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ζ": "z",
})


def fold(text: str) -> str:
    """``text`` as it looks: compatibility forms unified (NFKC), case folded,
    look-alike letters of other alphabets read as the Latin ones, runs of
    spaces as one (and none at either end)."""
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())  # as NFKC_Casefold
    return " ".join(text.translate(SCRIPTS).split())
