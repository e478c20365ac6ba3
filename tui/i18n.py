"""The program's words in the player's language (English or French).

Standard gettext, two domains, compiled catalogues shipped with the package
(``ankh/tui/locale/fr/LC_MESSAGES/*.mo``, read through
:mod:`importlib.resources`, so the installed game needs only the standard
library):

- ``ankh``: the program's own sentences, written whole with named
  placeholders (``_("{who} played {card}.").format(who=..., card=...)``);
- ``ankh-game``: the printed components (names and texts of cards, City
  Areas, personalities, random events), each with its kind as context
  (``card``, ``card-text``, ``area``, ``area-text``…) and the English of
  :mod:`ankh.core.morpork.catalog` as msgid.  :func:`game` looks them up.

Every translation is looked up when it is shown, never when a module is
imported: the language can change while the program runs (the settings
screen) and tests show both languages in one process.  Strings that must be
written at module level are marked with :func:`N_` and translated where they
are used; Textual bindings' descriptions (marked ``NP_("key", ...)``) are
translated per widget by :class:`Localised`.

The language is, in this order: ``--lang``, the choice saved in the
settings (``language`` in the configuration dir), the locale (``LANGUAGE``,
``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them), English.
What is saved or sent (the record notation, saves, ``ankh replay``,
``ankh verify``, headless output) never goes through here; a headless
command's error, on standard error, is the person's and does.
"""
from __future__ import annotations

import dataclasses
import gettext
import io
import os
import struct
from importlib import resources
from typing import Any

from ankh.net.wire.errors import Words

DOMAIN = "ankh"
GAME_DOMAIN = "ankh-game"
LANGUAGES = ("en", "fr")
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}
LANGUAGE_FILE = "language"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_language = "en"
_messages: gettext.NullTranslations = gettext.NullTranslations()
_game: gettext.NullTranslations = gettext.NullTranslations()


def _catalogue(lang: str, domain: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``domain`` in ``lang``, or none (English)."""
    if lang == "en":
        return gettext.NullTranslations()
    mo = resources.files("ankh.tui").joinpath("locale", lang, "LC_MESSAGES", domain + ".mo")
    try:
        return gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))
    except (OSError, struct.error, UnicodeDecodeError, ValueError):
        # none, or damaged: the English words rather than no program at all
        return gettext.NullTranslations()


def set_language(lang: str) -> None:
    """Show everything from now on in ``lang`` (one of :data:`LANGUAGES`)."""
    global _language, _messages, _game
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    _language = lang
    _messages = _catalogue(lang, DOMAIN)
    _game = _catalogue(lang, GAME_DOMAIN)


def language() -> str:
    """The language shown now."""
    return _language


def _(message: str) -> str:
    """``message`` (English, a whole sentence) in the language shown."""
    return _messages.gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` (English) as ``n`` asks, in the language shown."""
    return _messages.ngettext(singular, plural, n)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` (English) as ``n`` asks in the language shown
    (French: the singular for 0 and 1), where ``context`` tells apart two uses
    of the same English words."""
    return _messages.npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue without translating it (for
    module-level tables: translate with ``_()`` where it is shown)."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a sentence and its plural for the catalogue without translating
    them (for module-level tables: ``ngettext(*pair, n)`` where it is shown)."""
    return singular, plural


def NPn_(context: str, singular: str, plural: str) -> tuple[str, str]:
    """Marks a word and its plural for the catalogue with ``context``, without
    translating them (``npgettext(context, *pair, n)`` where it is shown)."""
    return singular, plural


def NP_(context: str, message: str) -> str:
    """Marks ``message`` for the catalogue with ``context``, without translating it."""
    return message


def pgettext(context: str, message: str) -> str:
    """``message`` in the language shown, where ``context`` tells apart two
    uses of the same English word."""
    return _messages.pgettext(context, message) if message else message


def translated(text: Any) -> Any:
    """A sentence of the network layer in the language shown.

    :class:`~ankh.net.wire.errors.Words` keep their template, which is translated,
    and their values, each said in turn.  A plain string (a reason a peer sent
    over the wire arrives as plain English) is looked up whole and stays as
    it is when the catalogue does not have it; anything else is returned
    unchanged."""
    if isinstance(text, Words):
        return _(text.template).format(**{k: translated(v) for k, v in text.params.items()})
    return _(text) if isinstance(text, str) else text


def game(kind: str, english: str) -> str:
    """A printed component's name or text (``kind``: ``card``, ``card-text``,
    ``area``, ``area-text``, ``personality``, ``personality-text``,
    ``event``, ``event-text``) in the language shown; English where the
    catalogue has no translation."""
    return _game.pgettext(kind, english) if english else english


# --- which language ------------------------------------------------------------------------------


def locale_language(environ=None) -> str | None:
    """The language the locale asks for, read as gettext does (the first of
    ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set;
    ``LANGUAGE`` may list several, ``fr:en``), if it is one we have."""
    env = os.environ if environ is None else environ
    for var in LOCALE_VARIABLES:
        value = env.get(var)
        if not value:
            continue
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        if var != "LANGUAGE":  # gettext: the first of the others that is set decides
            return None
    return None


def saved_language() -> str | None:
    """The language chosen in the settings, if any (a damaged file counts as none)."""
    from ankh.net.files.home import config_dir
    try:
        value = (config_dir() / LANGUAGE_FILE).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return value if value in LANGUAGES else None


def save_language(lang: str) -> None:
    """Remember ``lang`` for the next runs (the settings screen)."""
    from ankh.net.files.home import config_dir, write_private
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    write_private(config_dir() / LANGUAGE_FILE, (lang + "\n").encode())


def choose_language(cli: str | None = None, environ=None) -> str:
    """``--lang`` beats the saved choice, which beats the locale; else English."""
    return cli or saved_language() or locale_language(environ) or "en"


# --- Textual ------------------------------------------------------------------------------------


# The context of key bindings' descriptions (``NP_("key", "Quit")``): words
# short enough for the footer, which may differ from the same word elsewhere.
KEY_CONTEXT = "key"


def translate_bindings(node) -> None:
    """Give ``node``'s key bindings their descriptions in the language shown."""
    # From the class's bindings (in English), so that a change of language
    # translates them again rather than a translation of them.
    merged = type(node)._merged_bindings
    if merged is None:
        return
    keys = node._bindings.key_to_bindings
    for key, bindings in merged.key_to_bindings.items():
        keys[key] = [dataclasses.replace(b, description=pgettext(KEY_CONTEXT, b.description),
                                         tooltip=_(b.tooltip))
                     for b in bindings]


class Localised:
    """Mixin for screens and widgets with ``BINDINGS``: their descriptions
    (written in English, marked for the catalogue) are shown translated."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        translate_bindings(self)


def rules_text(package: str = "ankh.tui.games.morpork") -> str:
    """A game's rules page (its package's ``data/rules.md``) in the language
    shown (English where there is no translation)."""
    data = resources.files(package).joinpath("data")
    if _language != "en":
        try:
            return data.joinpath(f"rules.{_language}.md").read_text(encoding="utf-8")
        except FileNotFoundError:
            pass
    return data.joinpath("rules.md").read_text(encoding="utf-8")
