"""The translation catalogues, built with Babel (run through ``scripts/i18n``).

- ``extract``: ``tui/locale/ankh.pot`` from every ``_()``, ``N_()`` and
  ``pgettext()`` in ``tui/`` and every ``Words()`` in ``net/``, plus the rules engine's prompts as the screen
  translates them (:func:`ankh.tui.games.morpork.text.prompt_template`, context
  ``prompt``), collected by playing games of random bots on fixed seeds;
  ``tui/locale/ankh-game.pot`` from ``core/catalog.py`` (every name and text,
  its kind as context).
- ``update``: each ``tui/locale/LANG/LC_MESSAGES/DOMAIN.po`` merged with its template.
- ``compile``: each ``.po`` to the ``.mo`` beside it, which the program reads.

The tests import this file to check that the committed catalogues are up to date.
"""
from __future__ import annotations

import io
import random
import sys
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "tui" / "locale"
DOMAINS = ("ankh", "ankh-game")
PROJECT = "ankh"
# Games of random bots whose prompts go into the template (enough to meet every prompt).
PROMPT_GAMES = [(players, seed) for players in (2, 3, 4) for seed in range(60)]
PROMPT_EXTRA = ("the table", "the game is over")
WINDOW_PREFIX = "Interrupt? "
FIXED_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)


def _catalog() -> Catalog:
    return Catalog(project=PROJECT, version="", copyright_holder="", msgid_bugs_address="",
                   charset="utf-8", fuzzy=False)


def program_template() -> Catalog:
    catalog = _catalog()
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT / "tui"), method_map=[("**.py", "python")], keywords={**DEFAULT_KEYWORDS, "NP_": ((1, "c"), 2), "Nn_": (1, 2),
                                                                  "NPn_": ((1, "c"), 2, 3)},
            comment_tags=("Translators:",), strip_comment_tags=True):
        if not message:
            continue
        catalog.add(message, locations=[("tui/" + filename, lineno)], auto_comments=comments,
                    context=context)
    # The games' names and title lines, from their records (core/registry.py).
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT / "core"), method_map=[("registry.py", "python")],
            keywords={"N_": None, "NP_": ((1, "c"), 2)}, comment_tags=("Translators:",), strip_comment_tags=True):
        catalog.add(message, locations=[("core/" + filename, lineno)], auto_comments=comments, context=context)
    # The network layer's sentences for a person (ankh.net.wire.errors.Words), said by the screens.
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT / "net"), method_map=[("**.py", "python")], keywords={"Words": None},
            comment_tags=("Translators:",), strip_comment_tags=True):
        catalog.add(message, locations=[("net/" + filename, lineno)], auto_comments=comments, context=context)
    for template in sorted(engine_prompts()):
        catalog.add(template, locations=[("core/turn.py", 0)], context="prompt")
    return catalog


def engine_prompts() -> set[str]:
    """Every prompt the rules engine asked in the games of :data:`PROMPT_GAMES`, as a template."""
    from ankh.core.morpork.bots.random_bot import RandomBot
    from ankh.core.morpork.setup import new_game
    from ankh.core.morpork.model import Decision
    from ankh.net.play.local import LocalTable
    from ankh.tui.i18n import language, set_language
    from ankh.tui.games.morpork.text import prompt_template

    before = language()
    set_language("en")
    try:
        out = {prompt_template(p)[0] for p in PROMPT_EXTRA}
        for players, seed in PROMPT_GAMES:
            s = new_game(players)
            table = LocalTable(players, seed)
            bot = RandomBot(random.Random(seed * 7919 + players))
            while s.outcome is None:
                if isinstance(s.pending, Decision):
                    out.add(prompt_template(s.pending.prompt)[0])
                    # an interrupt window shows its prompt without the question
                    if s.pending.prompt.startswith(WINDOW_PREFIX):
                        out.add(prompt_template(s.pending.prompt.removeprefix(WINDOW_PREFIX))[0])
                    s.choose(bot.choose(s, s.pending))
                else:
                    table.fulfil(s)
        return out
    finally:
        set_language(before)


def game_template() -> Catalog:
    from ankh.core.morpork.catalog import AREAS, CARDS, EVENTS, PERSONALITIES
    catalog = _catalog()
    for kind, items in (("card", CARDS), ("area", AREAS), ("personality", PERSONALITIES), ("event", EVENTS)):
        for item in items:
            where = [("core/catalog.py", 0)]
            catalog.add(item["name"], locations=where, context=kind, auto_comments=[item["id"]])
            if item.get("text"):
                catalog.add(item["text"], locations=where, context=kind + "-text", auto_comments=[item["id"]])
    return catalog


HEADER = ("# {what} of ankh (Discworld: Ankh-Morpork in the terminal), domain {domain}.\n"
          "# Written by scripts/i18n from the sources; translations are edited in the .po files.")


def _write_po(catalog: Catalog, path: Path) -> None:
    domain = path.name.split(".")[0]
    catalog.header_comment = HEADER.format(what="Translations template" if path.suffix == ".pot"
                                           else f"{catalog.locale} translations", domain=domain)
    catalog.project, catalog.version = PROJECT, "1"
    catalog.msgid_bugs_address = catalog.last_translator = catalog.language_team = "ankh"
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, omit_header=False, sort_output=False, include_lineno=True,
             ignore_obsolete=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    # The header's dates would change at every run: keep them out of the files.
    text = b"\n".join(line for line in buf.getvalue().split(b"\n")
                      if not line.startswith((b'"POT-Creation-Date:', b'"PO-Revision-Date:',
                                              b'"Generated-By:')))
    path.write_bytes(text)


def templates() -> dict[str, Catalog]:
    return {"ankh": program_template(), "ankh-game": game_template()}


def extract() -> None:
    for domain, catalog in templates().items():
        _write_po(catalog, LOCALE / f"{domain}.pot")


def po_files():
    return sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def update() -> None:
    for domain in DOMAINS:
        with open(LOCALE / f"{domain}.pot", "rb") as f:
            template = read_po(f)
        for po in sorted(LOCALE.glob(f"*/LC_MESSAGES/{domain}.po")):
            with open(po, "rb") as f:
                catalog = read_po(f, locale=po.parent.parent.name)
            catalog.update(template, no_fuzzy_matching=True)
            _write_po(catalog, po)


def compiled(po: Path) -> bytes:
    """The ``.mo`` bytes of ``po`` (what ``compile`` writes beside it)."""
    with open(po, "rb") as f:
        catalog = read_po(f, locale=po.parent.parent.name)
    # Babel dates a catalogue read without dates "now": fixed, the .mo is the same at every compile.
    catalog.creation_date = catalog.revision_date = FIXED_DATE
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def compile_all() -> None:
    for po in po_files():
        po.with_suffix(".mo").write_bytes(compiled(po))


def main(argv: list[str]) -> int:
    steps = {"extract": extract, "update": update, "compile": compile_all}
    if argv and argv[0] not in steps:
        print(f"scripts/i18n: unknown step {argv[0]!r} (extract, update, compile)", file=sys.stderr)
        return 2
    for name in argv or ("extract", "update", "compile"):
        steps[name]()
        print(f"scripts/i18n: {name} done")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
