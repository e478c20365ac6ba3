"""What a list of tables heard of on the LAN should warn about (sans-I/O).

An advert (mDNS TXT) is a claim anyone on the LAN can make: a spoofer can
copy a real table's title, table id and host fingerprint, or pick a title
that differs by one look-alike letter (a Cyrillic ``а`` for a Latin ``a``).
Nothing in an advert is checked until a link's handshake proves the host's
key, so the list marks what it cannot vouch for:

- two adverts with the same title, or with titles that look the same
  (:func:`skeleton`: the same letters once look-alikes are folded);
- two adverts claiming the same table id (one of them is a copy);
- a title that mixes alphabets (Latin with Cyrillic or Greek);
- a host name the player pinned a key for, advertised with another key's
  fingerprint.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Protocol

from .envelope import fingerprint
from .errors import Words
from .lookalike import SCRIPTS

# Beyond the letters of other alphabets (:data:`~ankh.net.wire.lookalike.SCRIPTS`), a
# title's digits and strokes drawn like letters: every i-like stroke to "l".
_STROKES = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l"})


class Advert(Protocol):
    service: str
    title: str
    table_id: str
    host_fp: str
    host_name: str


_RENAMED = re.compile(r"-[0-9]+$")  # mDNS renames a second advert of a title "<title>-2"


def plain_title(title: str) -> str:
    """``title`` as a person reads it: case and runs of spaces aside, and without
    the number mDNS adds to the second advert of a title (so a copy renamed
    ``Twin-2`` is still the same title as ``Twin``)."""
    return " ".join(_RENAMED.sub("", title.strip()).casefold().split())


def skeleton(title: str) -> str:
    """``title`` as it looks: compatibility forms unified, case and accents
    dropped, invisible characters and spaces gone, look-alike letters folded."""
    text = unicodedata.normalize("NFKD", plain_title(title))
    text = "".join(c for c in text if unicodedata.category(c)[0] not in "MCZ")
    return text.translate(SCRIPTS).translate(_STROKES)


def scripts(title: str) -> set[str]:
    """The alphabets of ``title``'s letters (``LATIN``, ``CYRILLIC``, ``GREEK``...)."""
    out = set()
    for c in title:
        if c.isalpha():
            name = unicodedata.name(c, "")
            out.add(name.split(" ", 1)[0] if name else "?")
    return out


def warnings(adverts: Iterable[Advert], pinned: Callable[[str], bytes | None] = lambda _name: None
             ) -> dict[str, list[str]]:
    """For each advert (by service name), what the list should say about it."""
    adverts = list(adverts)
    titles = Counter(plain_title(a.title) for a in adverts)
    looks = Counter(skeleton(a.title) for a in adverts)
    ids = Counter(a.table_id for a in adverts)
    out: dict[str, list[str]] = {}
    for a in adverts:
        notes: list[str] = []
        if titles[plain_title(a.title)] > 1:
            notes.append(Words("another table has the same title"))
        elif looks[skeleton(a.title)] > 1:
            notes.append(Words("its title looks like another table's, with different letters"))
        if len(scripts(a.title) & {"LATIN", "CYRILLIC", "GREEK"}) > 1:
            notes.append(Words("its title mixes alphabets"))
        if ids[a.table_id] > 1:
            notes.append(Words("another advert claims the same table: one of them is a copy"))
        key = pinned(a.host_name)
        if key is not None and fingerprint(key) != a.host_fp:
            notes.append(Words("{name} is known here with another key", name=a.host_name))
        out[a.service] = notes
    return out
