"""The French text of the printed components: the gettext catalogue
``tui/locale/fr/LC_MESSAGES/ankh-game.po``, its glossary ``docs/french.md``
and the French rules page ``tui/games/morpork/data/rules.fr.md``.

A French player sees every card, area, personality and event in French,
with the same numbers and amounts as the English text, and the glossary
shows every name for review.
"""
from __future__ import annotations

import ast
import gettext
import re
from collections import Counter
from pathlib import Path

import pytest

import ankh.tui
from ankh.core.morpork import catalog

TUI = Path(ankh.tui.__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[2]
PO = TUI / "locale" / "fr" / "LC_MESSAGES" / "ankh-game.po"
MO = PO.with_suffix(".mo")
GLOSSARY = ROOT / "docs" / "french.md"
RULES_EN = TUI / "games" / "morpork" / "data" / "rules.md"
RULES_FR = TUI / "games" / "morpork" / "data" / "rules.fr.md"

KINDS = {
    "card": catalog.CARDS,
    "area": catalog.AREAS,
    "personality": catalog.PERSONALITIES,
    "event": catalog.EVENTS,
}
# The fields of a component that a player reads.
FIELDS = {"name": "", "text": "-text"}


def parse_po(text: str) -> list[dict]:
    """The entries of a .po file: msgctxt, msgid, msgstr (strings may run
    over several quoted lines)."""
    entries: list[dict] = []
    current: dict = {}
    key = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if line == "" and current:
                entries.append(current)
                current, key = {}, None
            elif line.startswith("#,") and "fuzzy" in line:
                current["fuzzy"] = True
            continue
        m = re.fullmatch(r"(msgctxt|msgid|msgstr)\s+(\".*\")", line)
        if m:
            key = m.group(1)
            if key in current:
                raise ValueError(f"line {lineno}: second {key} in one entry")
            current[key] = ast.literal_eval(m.group(2))
        elif line.startswith('"') and key:
            current[key] += ast.literal_eval(line)
        else:
            raise ValueError(f"line {lineno}: cannot read {raw!r}")
    if current:
        entries.append(current)
    return entries


@pytest.fixture(scope="module")
def entries() -> list[dict]:
    return parse_po(PO.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def translations(entries) -> dict[tuple[str, str], str]:
    return {(e.get("msgctxt"), e["msgid"]): e["msgstr"] for e in entries if e["msgid"]}


def expected_keys() -> set[tuple[str, str]]:
    keys = set()
    for kind, items in KINDS.items():
        for item in items:
            for field, suffix in FIELDS.items():
                if field in item:
                    keys.add((kind + suffix, item[field]))
    return keys


def test_the_catalogue_is_french_utf8_with_french_plurals(entries):
    header = [e for e in entries if e["msgid"] == ""]
    assert len(header) == 1
    fields = dict(line.split(": ", 1) for line in header[0]["msgstr"].splitlines() if line)
    assert fields["Language"] == "fr"
    assert fields["Content-Type"].lower() == "text/plain; charset=utf-8"
    assert fields["Plural-Forms"] == "nplurals=2; plural=(n > 1);"


def test_every_entry_is_complete_and_unique(entries):
    keys = [(e.get("msgctxt"), e["msgid"]) for e in entries]
    assert [k for k, n in Counter(keys).items() if n > 1] == []
    for e in entries:
        assert set(e) - {"fuzzy"} == {"msgctxt", "msgid", "msgstr"} or e["msgid"] == "", e


def test_no_translation_is_left_fuzzy(entries):
    # gettext does not show a fuzzy translation: the player would read English.
    assert [e["msgid"] for e in entries if e.get("fuzzy") and e["msgid"]] == []


def test_every_printed_name_and_text_has_a_french_translation(translations):
    missing = [k for k in sorted(expected_keys()) if not translations.get(k, "").strip()]
    assert missing == []


def test_no_entry_is_left_over_from_an_older_catalog(translations):
    stale = sorted(set(translations) - expected_keys())
    assert stale == []


def test_the_compiled_catalogue_the_program_reads_says_what_the_po_says(translations):
    with MO.open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    assert compiled.info()["language"] == "fr"
    for (ctx, english), french in translations.items():
        assert compiled.pgettext(ctx, english) == french, (ctx, english)


def test_amounts_and_numbers_survive_the_translation(translations):
    for (ctx, english), french in translations.items():
        money = re.compile(r"-?\$\d+")
        assert Counter(money.findall(french)) == Counter(money.findall(english)), (ctx, english)
        assert set(re.findall(r"\d+", french)) == set(re.findall(r"\d+", english)), (ctx, english)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_french_names_tell_components_apart(translations, kind):
    names = [translations[(kind, item["name"])] for item in KINDS[kind]]
    assert [n for n, c in Counter(names).items() if c > 1] == []


def test_french_texts_do_not_use_english_game_words(translations):
    english_words = re.compile(r"\b(minions?|trouble markers?|areas?|the bank|draw pile|discard pile)\b",
                               re.IGNORECASE)
    for (ctx, english), french in translations.items():
        if ctx.endswith("-text"):
            assert not english_words.search(french), (ctx, french)


def glossary_rows() -> list[list[str]]:
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("|") and not re.fullmatch(r"[|\s:-]+", line):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def test_the_glossary_lists_every_french_name_with_its_english_name_and_source(translations):
    rows = glossary_rows()
    pairs = {(row[0], row[1]): row for row in rows if len(row) >= 3}
    for kind in KINDS:
        for item in KINDS[kind]:
            french = translations[(kind, item["name"])]
            row = pairs.get((french, item["name"]))
            assert row is not None, f"{kind} {item['name']} / {french} is not in docs/french.md"
            assert row[2], f"{french} has no source in docs/french.md"


def test_the_glossary_sources_are_known_kinds():
    for row in glossary_rows()[1:]:
        if len(row) >= 3 and row[0] not in {"Français", "French"}:
            source = row[2]
            assert source in {"règle", "Couton", "Catane", "traduction"} or source.startswith("http"), row


def structure(markdown: str) -> list[str]:
    """Headings with their level, and one mark per list item, in order."""
    shape = []
    for line in markdown.splitlines():
        if m := re.match(r"(#+) ", line):
            shape.append(m.group(1))
        elif re.match(r"\* ", line):
            shape.append("*")
        elif re.match(r"\d+\. ", line):
            shape.append("1.")
    return shape


def test_the_french_rules_page_has_the_english_structure():
    english = RULES_EN.read_text(encoding="utf-8")
    french = RULES_FR.read_text(encoding="utf-8")
    assert structure(french) == structure(english)
    assert french.count("**") == english.count("**")


def test_the_french_rules_page_uses_the_french_names(translations):
    french = RULES_FR.read_text(encoding="utf-8")
    for item in catalog.PERSONALITIES:
        assert translations[("personality", item["name"])] in french
    for word in ("Agent", "jeton Chaos", "Quartier", "Bâtiment", "pioche", "Banque"):
        assert word in french
    for word in ("minion", "trouble marker", "draw pile"):
        assert word not in french.lower()


def test_the_french_rules_page_names_the_seats_by_their_french_letters():
    """The map's key in the French rules said "(R Y G B)": on a French screen
    the seats are R J V B."""
    from ankh.tui import i18n
    from ankh.tui.seats import seat_letter
    french = RULES_FR.read_text(encoding="utf-8")
    i18n.set_language("fr")
    try:
        letters = " ".join(seat_letter(s) for s in range(4))
    finally:
        i18n.set_language("en")
    assert letters == "R J V B"
    assert f"({letters})" in french and "R Y G B" not in french


FRENCH = sorted((TUI / "locale" / "fr" / "LC_MESSAGES").glob("*.po")) + sorted(TUI.glob("games/*/data/*.fr.md"))


@pytest.mark.parametrize("path", FRENCH, ids=lambda p: p.name)
def test_the_french_text_writes_its_apostrophes_one_way(path):
    """The catalogue mixed "l'audit" and "l’audit": one kind now, the straight
    one the French rule book prints (« l'Agent », « d'argent »)."""
    text = path.read_text(encoding="utf-8")
    assert "’" not in text, [line for line in text.splitlines() if "’" in line][:5]


def test_the_guild_variants_guilds_are_named_the_way_its_rule_book_does():
    """« la Guilde des alchimistes » beside « la guilde des mendiants »: the
    variant's rule book writes « la guilde des mendiants », a capital only
    where a line begins (the other game's card names keep theirs)."""
    from ankh.tui import i18n
    from ankh.tui.games.guilds.text import DISTRICT_WORDS
    i18n.set_language("fr")
    try:
        names = {k: i18n._(DISTRICT_WORDS[k]) for k in ("ALCHEMISTS", "BEGGARS", "THIEVES")}
    finally:
        i18n.set_language("en")
    assert names == {"ALCHEMISTS": "la guilde des alchimistes", "BEGGARS": "la guilde des mendiants",
                     "THIEVES": "la guilde des voleurs et assassins"}
    po = (TUI / "locale" / "fr" / "LC_MESSAGES" / "ankh.po").read_text(encoding="utf-8")
    assert "Guilde des" not in po
