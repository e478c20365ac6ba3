"""Words and glyphs for the screen: names for ids, card symbols, option
labels, personality progress.  Pure functions over the catalog and a seat's
:class:`~ankh.core.morpork.views.PlayerView`; nothing here decides a rule.
"""
from __future__ import annotations

from rich.text import Text

from ankh.core.game import COLOURS
from ankh.core.morpork.catalog import AREAS, CARDS, EVENTS, PERSONALITIES

from ankh.tui.i18n import N_, NP_, _, game, pgettext
from ankh.tui.seats import SEAT_STYLE, _assemble, colour, letter, seat_letter, seat_tag  # noqa: F401 (for this game's screens)

CARD = {c["id"]: c for c in CARDS}
EVENT = {e["id"]: e for e in EVENTS}
PERSONALITY = {p["id"]: p for p in PERSONALITIES}
AREA = {a["id"]: a for a in AREAS}
AREA_IDS = tuple(a["id"] for a in AREAS)

def area_names() -> tuple[str, ...]:
    """The twelve areas' names, by number, in the language shown."""
    return tuple(game("area", a["name"]) for a in AREAS)

# Rich styles per seat: the letter tells players apart, the colour helps.
TROLL_STYLE = "bold magenta"
DEMON_STYLE = "bold bright_magenta"
TROUBLE_STYLE = "bold reverse red"
RIVER_STYLE = "bright_blue on blue"
BRIDGE_STYLE = "bold black on yellow"

# Short area names that fit a map box (at most 12 characters after the number).
SHORT_AREA = {
    "dolly-sisters": N_("Dolly Sisters"), "unreal-estate": N_("Unreal Estate"),
    "dragons-landing": N_("Dragon's Lndg"), "small-gods": N_("Small Gods"),
    "the-scours": N_("The Scours"), "the-hippo": N_("The Hippo"), "the-shades": N_("The Shades"),
    "dimwell": N_("Dimwell"), "longwall": N_("Longwall"), "isle-of-gods": N_("Isle of Gods"),
    "seven-sleepers": N_("7 Sleepers"), "nap-hill": N_("Nap Hill"),
}


def short_area(aid: str) -> str:
    """An area's name short enough for a map box (12 characters)."""
    return _(SHORT_AREA[aid])


SYMBOL_WORDS = {
    "scroll": N_("Scroll"), "minion": N_("Minion"), "building": N_("Build"),
    "assassinate": N_("Assassinate"), "remove_trouble": N_("Remove trouble"),
    "play_another": N_("Play another"), "event": N_("Event"), "interrupt": N_("Interrupt"),
}

SYMBOL_HELP = {
    "scroll": N_("do what the card's text says"),
    "minion": N_("place one of your minions"),
    "building": N_("build in an area where you have a minion and no trouble"),
    "assassinate": N_("remove another minion from an area with trouble"),
    "remove_trouble": N_("take a trouble marker off the board"),
    "play_another": N_("you may play another card"),
    "event": N_("draw and resolve a random event (compulsory)"),
    "interrupt": N_("play it when its moment comes, even in another player's turn"),
}


# When each kind of interrupt card may be played (rules A6-A9, A14).
INTERRUPT_WHEN = {
    "prevent_move_or_removal": N_("When another player's card (its symbol or its text) would move or "
                                  "remove one of your minions, in any player's turn. Not against random events."),
    "prevent_removal": N_("When one of your minions would be removed, by anyone's card or by a random event, "
                          "in any player's turn."),
    "replace_removal_with_placement": N_("When one of your minions would be removed, by anyone's card or "
                                         "by a random event, in any player's turn."),
    "immunity_to_card_text": N_("When the text of another player's card would affect you, in their turn."),
    "end_own_turn_keep_previous_card": N_("In your own turn, after you have played at least one card."),
}


def interrupt_when(cid: str) -> str:
    """When the interrupt card ``cid`` may be played ('' for other cards)."""
    c = CARD.get(cid)
    return _(INTERRUPT_WHEN.get(c.get("interrupt", ""), "")) if c else ""


def _printed(table: dict, kind: str, key: str | None, text: bool = False) -> str:
    """The name (or ``text``) of the component ``key`` as printed in the
    language shown: the id itself (the name) or '' (the text) if unknown."""
    item = table.get(key or "")
    if item is None:
        return "" if text else (key or "")
    return game(kind + "-text", item.get("text", "")) if text else game(kind, item["name"])


def card_name(cid: str) -> str:
    return _printed(CARD, "card", cid)


def area_name(aid: str) -> str:
    a = AREA.get(aid)
    return f"{a['number']} {area_title(aid)}" if a else aid


def area_title(aid: str) -> str:
    """The area's name alone (where a number could be taken for an option's)."""
    return _printed(AREA, "area", aid)


def area_text(aid: str) -> str:
    """What the City Area card ``aid`` lets its owner do."""
    return _printed(AREA, "area", aid, text=True)


def event_title(eid: str) -> str:
    return _printed(EVENT, "event", eid)


def event_text(eid: str) -> str:
    return _printed(EVENT, "event", eid, text=True)


def personality_text(pid: str) -> str:
    return _printed(PERSONALITY, "personality", pid, text=True)


def win_condition(pid: str) -> str:
    """How ``pid`` wins, in full: Lord Rust's and Lord de Worde's cards only
    say "Same condition as Lord Selachii", which tells their holder nothing."""
    cond = PERSONALITY[pid]["condition"]
    return personality_text(next(p for p in PERSONALITY if PERSONALITY[p]["condition"] == cond))


def symbol_word(sym: str) -> str:
    if sym.startswith("money:"):
        return "$" + sym.split(":", 1)[1]
    return _(SYMBOL_WORDS[sym]) if sym in SYMBOL_WORDS else sym


def card_symbols(cid: str) -> str:
    c = CARD.get(cid)
    if c is None:
        return ""
    if not c["symbols"]:
        return _("no symbols")
    return " · ".join(symbol_word(s) for s in c["symbols"])


def card_summary(cid: str) -> str:
    """``Groat: Minion.``: the card's name and symbols."""
    return _("{card}: {symbols}.").format(card=card_name(cid), symbols=card_symbols(cid))


def card_text(cid: str) -> str:
    return _printed(CARD, "card", cid, text=True)


def card_text_and_when(cid: str) -> str:
    """The card's text and, for an interrupt, when it may be played (Gaspode's
    text alone, "That single move or removal does not happen", says neither)."""
    when = interrupt_when(cid)
    return " ".join(part for part in (card_text(cid), _("Played: {when}").format(when=when) if when else "")
                    if part)


def personality_name(pid: str | None) -> str:
    return _("unknown") if pid is None else _printed(PERSONALITY, "personality", pid)


def prompt_template(text: str) -> tuple[str, dict[str, str]]:
    """An engine prompt as a sentence with named placeholders for its card,
    area and seat ids and its numbers (``{card}: Place a minion ({area})``),
    and the names that fill them, in the language shown."""
    values: dict[str, str] = {}

    def slot(kind: str, value: str) -> str:
        n = sum(k.rstrip("0123456789") == kind for k in values) + 1
        name = kind if n == 1 else f"{kind}{n}"
        values[name] = value
        return "{" + name + "}"

    out = []
    for word in text.split(" "):
        core = word.rstrip(":,.?!)").lstrip("($")
        if core in CARD:
            word = word.replace(core, slot("card", card_name(core)), 1)
        elif core in AREA:
            word = word.replace(core, slot("area", area_title(core)), 1)
        elif core.removesuffix("'s") in COLOURS:
            core = core.removesuffix("'s")
            word = word.replace(core, slot("colour", colour(COLOURS.index(core))), 1)
        elif core.isdigit():
            word = word.replace(core, slot("n", core), 1)
        else:
            word = word.replace("{", "{{").replace("}", "}}")
        out.append(word)
    return " ".join(out), values


def humanize(text: str) -> str:
    """An engine prompt in player language: card and area ids become names
    (``mr-boggis: Place a minion`` reads ``Mr Boggis: Place a minion``), and
    the sentence is translated as a whole (context ``prompt``)."""
    template, values = prompt_template(text)
    try:
        return pgettext("prompt", template).format(**values)
    except (KeyError, IndexError, ValueError):  # a damaged translation: the English
        return template.format(**values)


def _who(word: str) -> Text:
    if word in COLOURS:
        s = COLOURS.index(word)
        return Text.assemble(letter(s), (" " + _("{colour}'s minion").format(colour=colour(s)), SEAT_STYLE[s]))
    if word == "troll":
        return Text(_("a troll"), style=TROLL_STYLE)
    if word == "demon":
        return Text(_("a demon"), style=DEMON_STYLE)
    return Text(word)


def option_label(text: str, kind: str = "", numbered: bool = True) -> Text:
    """A friendly label for an option in record notation (``numbered``: areas
    with their number, as on the map)."""
    place = area_name if numbered else area_title
    words = text.split()
    verb, args = words[0], words[1:]
    t = Text()
    if verb == "play" and args:
        cid = args[0]
        t.append(_("Play {card}").format(card=card_name(cid)), style="bold")
        sym = card_symbols(cid)
        if sym:
            t.append(f"  {sym}", style="dim")
        return t
    if verb in ("minion", "build") and args:
        t = _assemble(_("Place a minion in {area}") if verb == "minion" else _("Build in {area}"),
                      area=(place(args[0]), "bold"))
        if verb == "build":
            t.append(f" (${AREA[args[0]]['cost']})" if args[0] in AREA else "")
        if len(args) >= 3 and args[1] == "from":
            t.append(_(", taking it from {area}").format(area=place(args[2])), style="dim")
        return t
    if verb == "assassinate" and len(args) == 2:
        return _assemble(_("Assassinate {piece} in {area}"), piece=_who(args[1]), area=(place(args[0]), "bold"))
    if verb == "pick" and len(args) == 2:
        return _assemble(_("Pick {piece} in {area}"), piece=_who(args[1]), area=(place(args[0]), "bold"))
    if verb == "move" and len(args) == 3:
        return _assemble(_("Move {piece} from {source} to {area}"), piece=_who(args[1]),
                         source=(place(args[0]), "bold"), area=(place(args[2]), "bold"))
    if verb == "remove-trouble" and args:
        return _assemble(_("Remove the trouble in {area}"), area=(place(args[0]), "bold"))
    if verb == "ability" and args:
        return _assemble(_("Use your City Area card {area}"), area=(place(args[0]), "bold"))
    if verb == "area" and args:
        return _assemble(_("Choose {area}"), area=(place(args[0]), "bold"))
    if verb == "target" and args and args[0] in COLOURS:
        s = COLOURS.index(args[0])
        return _assemble(_("Choose {seat}"), seat=seat_tag(s))
    if verb in ("give", "discard", "interrupt") and args:
        sentence = {"give": _("Give {card}"), "discard": _("Discard {card}"),
                    "interrupt": _("Interrupt with {card}")}[verb]
        return _assemble(sentence, card=(card_name(args[0]), "bold"))
    if verb == "pay" and args:
        return Text(_("Pay ${amount}").format(amount=args[0]))
    fixed = {
        "scroll": N_("Do what the card's text says"),
        "skip": N_("Skip this symbol"),
        "stop": N_("Stop: play no more cards"),
        "end": N_("End your turn"),
        "done": N_("Done"),
        "accept": N_("Take the card instead (it stays in front of you)"),
        "refuse": N_("Do not pay"),
        "win": N_("Claim the win"),
        "no-win": N_("Not yet"),
        "small-gods": N_("Pay $3 (Small Gods) to protect your piece"),
        "pass": N_("Let it happen (pass)") if kind == "window" else N_("Pass"),
    }
    return Text(_(fixed[verb]) if verb in fixed else text)


def prompt_card(prompt: str) -> str | None:
    """The card an engine prompt is about (``mr-boggis: Place a minion``)."""
    head = prompt.split(":", 1)[0].strip()
    if head in CARD:
        return head
    for word in prompt.split():
        word = word.strip(".,:;?!()")
        if word in CARD:
            return word
    return None


# Options that do not carry out the symbol asked about.
BESIDE_THE_SYMBOL = frozenset({"skip", "ability", "interrupt"})


def option_detail(text: str, prompt: str = "", kind: str = "", options: tuple = ()) -> str:
    """A line or two explaining an option: a card's text, a City Area's power.
    ``options`` are the decision's other options (saying why skipping is all
    the symbol allows)."""
    words = text.split()
    verb, args = words[0], words[1:]
    if verb == "pass" and kind == "window":
        return _("Nothing stops it: what threatens you goes ahead.")
    if verb in ("scroll", "skip", "pay", "accept", "refuse") and prompt_card(prompt):
        cid = prompt_card(prompt)
        if verb == "skip" and options and all(o.split()[0] in BESIDE_THE_SYMBOL for o in options):
            # the symbol's own option is missing: say what it was, and why
            if prompt.endswith(": Carry out the card's text"):
                return " ".join((card_summary(cid), card_text(cid),
                                 _("Nothing this text does is possible now, so it can only be skipped.")))
            return " ".join((card_summary(cid), _("This symbol has nothing it can do now, so it can only "
                                                  "be skipped.")))
        if verb == "accept":
            # the consequence: what holding the card in front of you means
            return _("{card} stays in front of you for the rest of the game. {text}").format(
                card=card_name(cid), text=card_text(cid))
        what = card_text(cid) if verb == "scroll" else ""
        return f"{card_summary(cid)} {what}".strip()
    if verb in ("play", "interrupt", "give", "discard") and args and args[0] in CARD:
        cid = args[0]
        return " ".join(part for part in (card_summary(cid), card_text_and_when(cid)) if part)
    if verb == "ability" and args and args[0] in AREA:
        return area_text(args[0])
    if verb == "assassinate":
        return _("The minion goes back to its owner, and the area loses its trouble marker.")
    if verb == "small-gods":
        return area_text("small-gods")
    if verb in ("minion", "build", "area") and args and args[0] in AREA:
        a = AREA[args[0]]
        return _("{name} (area {number}, building ${cost}): {text}").format(
            name=area_title(a["id"]), number=a["number"], cost=a["cost"], text=area_text(a["id"]))
    return ""


# --- personality progress -----------------------------------------------------------------


def progress(view, seat: int | None = None) -> tuple[str, str]:
    """``(short, long)`` words for ``seat``'s progress toward its known
    personality's win (the numbers come from the rules, via the view)."""
    seat = view.viewer if seat is None else seat
    sv = view.seats[seat] if seat is not None else None
    if sv is None or sv.personality not in PERSONALITY or sv.progress is None:
        return "", ""
    have, need = sv.progress
    cond = PERSONALITY[sv.personality]["condition"]
    if cond == "minion_presence":
        return (_("{have}/{need} areas").format(have=have, need=need),
                _("Your minions are in {have} of the {need} demon-free areas you need.").format(have=have, need=need))
    if cond == "area_control":
        return (_("{have}/{need} controlled").format(have=have, need=need),
                _("You control {have} of the {need} areas you need.").format(have=have, need=need))
    if cond == "trouble_markers_on_board":
        return (_("{have}/{need} trouble").format(have=have, need=need),
                _("{have} of the {need} trouble markers you need are on the board.").format(have=have, need=need))
    if cond == "net_worth":
        return (_("${have}/${need} worth").format(have=have, need=need),
                _("Your net worth is ${have} of the ${need} you need.").format(have=have, need=need))
    return (_("{have} cards left").format(have=have),
            _("You win if the draw pile runs out ({have} cards left) before anyone else wins.").format(have=have))


def score_parts(view, seat: int) -> tuple[int, int, int, int]:
    """Points by source (minions, buildings, money, loans), as the rules score them."""
    return view.seats[seat].score
