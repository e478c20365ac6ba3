"""Words and glyphs for the screen: names for ids, card symbols, option
labels, personality progress.  Pure functions over the catalog and a seat's
:class:`~ankh.core.views.PlayerView`; nothing here decides a rule.
"""
from __future__ import annotations

from rich.text import Text

from ankh.core.catalog import AREAS, CARDS, EVENTS, PERSONALITIES
from ankh.core.model import COLOURS, LETTERS

CARD = {c["id"]: c for c in CARDS}
EVENT = {e["id"]: e for e in EVENTS}
PERSONALITY = {p["id"]: p for p in PERSONALITIES}
AREA = {a["id"]: a for a in AREAS}
AREA_IDS = tuple(a["id"] for a in AREAS)
AREA_NAMES = tuple(a["name"] for a in AREAS)

# Rich styles per seat: the letter tells players apart, the colour helps.
SEAT_STYLE = ("bold red", "bold yellow", "bold green", "bold bright_blue")
TROLL_STYLE = "bold magenta"
DEMON_STYLE = "bold bright_magenta"
TROUBLE_STYLE = "bold reverse red"
RIVER_STYLE = "bright_blue on blue"
BRIDGE_STYLE = "bold black on yellow"

# Short area names that fit a map box (at most 12 characters after the number).
SHORT_AREA = {
    "dolly-sisters": "Dolly Sisters", "unreal-estate": "Unreal Estate",
    "dragons-landing": "Dragon's Lndg", "small-gods": "Small Gods",
    "the-scours": "The Scours", "the-hippo": "The Hippo", "the-shades": "The Shades",
    "dimwell": "Dimwell", "longwall": "Longwall", "isle-of-gods": "Isle of Gods",
    "seven-sleepers": "7 Sleepers", "nap-hill": "Nap Hill",
}

SYMBOL_WORDS = {
    "scroll": "Scroll", "minion": "Minion", "building": "Build",
    "assassinate": "Assassinate", "remove_trouble": "Remove trouble",
    "play_another": "Play another", "event": "Event", "interrupt": "Interrupt",
}

SYMBOL_HELP = {
    "scroll": "do what the card's text says",
    "minion": "place one of your minions",
    "building": "build in an area where you have a minion and no trouble",
    "assassinate": "remove another minion from an area with trouble",
    "remove_trouble": "take a trouble marker off the board",
    "play_another": "you may play another card",
    "event": "draw and resolve a random event (compulsory)",
    "interrupt": "play it when its moment comes, even in another player's turn",
}


# When each kind of interrupt card may be played (rules A6-A9, A14).
INTERRUPT_WHEN = {
    "prevent_move_or_removal": "When another player's card (its symbol or its text) would move or "
                               "remove one of your minions, in any player's turn. Not against random events.",
    "prevent_removal": "When one of your minions would be removed, by anyone's card or by a random event, "
                       "in any player's turn.",
    "replace_removal_with_placement": "When one of your minions would be removed, by anyone's card or "
                                      "by a random event, in any player's turn.",
    "immunity_to_card_text": "When the text of another player's card would affect you, in their turn.",
    "end_own_turn_keep_previous_card": "In your own turn, after you have played at least one card.",
}


def interrupt_when(cid: str) -> str:
    """When the interrupt card ``cid`` may be played ('' for other cards)."""
    c = CARD.get(cid)
    return INTERRUPT_WHEN.get(c.get("interrupt", ""), "") if c else ""


def seat_tag(seat: int) -> Text:
    """``R red`` in red: the letter and the word, so colour is never needed."""
    return Text(f"{LETTERS[seat]} {COLOURS[seat]}", style=SEAT_STYLE[seat])


def letter(seat: int) -> Text:
    return Text(LETTERS[seat], style=SEAT_STYLE[seat])


def card_name(cid: str) -> str:
    c = CARD.get(cid)
    return c["name"] if c else cid


def area_name(aid: str) -> str:
    a = AREA.get(aid)
    return f"{a['number']} {a['name']}" if a else aid


def area_title(aid: str) -> str:
    """The area's name alone (where a number could be taken for an option's)."""
    a = AREA.get(aid)
    return a["name"] if a else aid


def symbol_word(sym: str) -> str:
    if sym.startswith("money:"):
        return "$" + sym.split(":", 1)[1]
    return SYMBOL_WORDS.get(sym, sym)


def card_symbols(cid: str) -> str:
    c = CARD.get(cid)
    if c is None:
        return ""
    if not c["symbols"]:
        return "no symbols"
    return " · ".join(symbol_word(s) for s in c["symbols"])


def card_text(cid: str) -> str:
    c = CARD.get(cid)
    if c is None:
        return ""
    return c.get("text", "")


def personality_name(pid: str | None) -> str:
    if pid is None:
        return "unknown"
    p = PERSONALITY.get(pid)
    return p["name"] if p else pid


def humanize(text: str) -> str:
    """Card and area ids in an engine prompt become names: ``mr-boggis: Place a
    minion`` reads ``Mr Boggis: Place a minion``."""
    out = []
    for word in text.split(" "):
        core = word.rstrip(":,.?)").lstrip("(")
        if core in CARD:
            word = word.replace(core, CARD[core]["name"])
        elif core in AREA:
            word = word.replace(core, AREA[core]["name"])
        out.append(word)
    return " ".join(out)


def _who(word: str) -> Text:
    if word in COLOURS:
        s = COLOURS.index(word)
        return Text.assemble(letter(s), (f" {word}'s minion", SEAT_STYLE[s]))
    if word == "troll":
        return Text("a troll", style=TROLL_STYLE)
    if word == "demon":
        return Text("a demon", style=DEMON_STYLE)
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
        t.append(f"Play {card_name(cid)}", style="bold")
        sym = card_symbols(cid)
        if sym:
            t.append(f"  {sym}", style="dim")
        return t
    if verb in ("minion", "build") and args:
        t.append("Place a minion in " if verb == "minion" else "Build in ")
        t.append(place(args[0]), style="bold")
        if verb == "build":
            t.append(f" (${AREA[args[0]]['cost']})" if args[0] in AREA else "")
        if len(args) >= 3 and args[1] == "from":
            t.append(f", taking it from {place(args[2])}",
                     style="dim")
        return t
    if verb == "assassinate" and len(args) == 2:
        return Text.assemble("Assassinate ", _who(args[1]), " in ", (place(args[0]), "bold"))
    if verb == "pick" and len(args) == 2:
        return Text.assemble("Pick ", _who(args[1]), " in ", (place(args[0]), "bold"))
    if verb == "move" and len(args) == 3:
        return Text.assemble("Move ", _who(args[1]), " from ", (place(args[0]), "bold"),
                             " to ", (place(args[2]), "bold"))
    if verb == "remove-trouble" and args:
        return Text.assemble("Remove the trouble in ", (place(args[0]), "bold"))
    if verb == "ability" and args:
        return Text.assemble("Use your City Area card ", (place(args[0]), "bold"))
    if verb == "area" and args:
        return Text.assemble("Choose ", (place(args[0]), "bold"))
    if verb == "target" and args and args[0] in COLOURS:
        s = COLOURS.index(args[0])
        return Text.assemble("Choose ", seat_tag(s))
    if verb in ("give", "discard", "interrupt") and args:
        word = {"give": "Give", "discard": "Discard", "interrupt": "Interrupt with"}[verb]
        t.append(f"{word} ")
        t.append(card_name(args[0]), style="bold")
        return t
    if verb == "pay" and args:
        return Text(f"Pay ${args[0]}")
    fixed = {
        "scroll": "Do what the card's text says",
        "skip": "Skip this symbol",
        "stop": "Stop: play no more cards",
        "end": "End your turn",
        "done": "Done",
        "accept": "Take the card instead (it stays in front of you)",
        "refuse": "Do not pay",
        "win": "Claim the win",
        "no-win": "Not yet",
        "small-gods": "Pay $3 (Small Gods) to protect your piece",
        "pass": "Let it happen (pass)" if kind == "window" else "Pass",
    }
    return Text(fixed.get(verb, text))


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


def option_detail(text: str, prompt: str = "", kind: str = "") -> str:
    """A line or two explaining an option: a card's text, a City Area's power."""
    words = text.split()
    verb, args = words[0], words[1:]
    if verb == "pass" and kind == "window":
        return "Nothing stops it: what threatens you goes ahead."
    if verb in ("scroll", "skip", "pay", "accept", "refuse") and prompt_card(prompt):
        cid = prompt_card(prompt)
        if verb == "accept":
            # the consequence: what holding the card in front of you means
            return f"{card_name(cid)} stays in front of you for the rest of the game. {card_text(cid)}"
        what = card_text(cid) if verb == "scroll" else ""
        return f"{card_name(cid)}: {card_symbols(cid)}. {what}".strip()
    if verb in ("play", "interrupt", "give", "discard") and args and args[0] in CARD:
        cid = args[0]
        c = CARD[cid]
        parts = [f"{c['name']}: {card_symbols(cid)}."]
        if c.get("text"):
            parts.append(c["text"])
        if interrupt_when(cid):
            parts.append("Played: " + interrupt_when(cid))
        return " ".join(parts)
    if verb == "ability" and args and args[0] in AREA:
        return AREA[args[0]]["text"]
    if verb == "assassinate":
        return "The minion goes back to its owner, and the area loses its trouble marker."
    if verb == "small-gods":
        return AREA["small-gods"]["text"]
    if verb in ("minion", "build", "area") and args and args[0] in AREA:
        a = AREA[args[0]]
        return f"{a['name']} (area {a['number']}, building ${a['cost']}): {a['text']}"
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
        return f"{have}/{need} areas", f"Your minions are in {have} of the {need} demon-free areas you need."
    if cond == "area_control":
        return f"{have}/{need} controlled", f"You control {have} of the {need} areas you need."
    if cond == "trouble_markers_on_board":
        return f"{have}/{need} trouble", f"{have} of the {need} trouble markers you need are on the board."
    if cond == "net_worth":
        return f"${have}/${need} worth", f"Your net worth is ${have} of the ${need} you need."
    return (f"{have} cards left",
            f"You win if the draw pile runs out ({have} cards left) before anyone else wins.")


def score_parts(view, seat: int) -> tuple[int, int, int, int]:
    """Points by source (minions, buildings, money, loans), as the rules score them."""
    return view.seats[seat].score
