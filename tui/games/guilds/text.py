"""The guild variant's words on screen: resources, districts, pieces, ranks,
every option of a decision and every line of the log, in the player's
language (the record notation stays English: :mod:`ankh.core.guilds.notation`).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rich.text import Text

from ankh.core.game import COLOURS
from ankh.core.guilds.board import (
    COST_DEV, COST_FOUNDATION, COST_HOUSE, COST_VILLA, KINDS, PARCH_CARD, PARCH_DEV, PARCH_DICE,
    DISTRICT_DATA, DISTRICT_IDS, DISTRICT_VERTICES, PARCH_HOUSE, PARCH_VILLA, SPOT_IDS, TOKENS,
    VERTEX_DISTRICTS,
)
from ankh.core.guilds.turn import gp_price
from ankh.tui.i18n import N_, NP_, NPn_, Nn_, _, ngettext, npgettext, pgettext
from ankh.tui.seats import _assemble, colour, seat_tag

# The five resources (and the guild of each), with the parchment as a sixth kind in trades:
# each a word and its plural, the plural as the language counts (French: « 0 parchemin »).
RESOURCE_WORDS = (NPn_("resource", "brick", "brick"), NPn_("resource", "lumber", "lumber"),
                  NPn_("resource", "wool", "wool"), NPn_("resource", "grain", "grain"),
                  NPn_("resource", "ore", "ore"), NPn_("resource", "parchment", "parchments"))
# The guild of each resource, as "the {guild} guild" names it (French: « la guilde du minerai »).
GUILD_WORDS = (NP_("guild", "brick"), NP_("guild", "lumber"), NP_("guild", "wool"),
               NP_("guild", "grain"), NP_("guild", "ore"))
# (Colours only add to the words: readable in 16 colours and in a light theme.)
RESOURCE_STYLE = ("red", "green", "cyan", "yellow", "blue", "magenta")

DISTRICT_WORDS = {
    "GRAIN": N_("Grain district"), "ALCHEMISTS": N_("Alchemists' Guild"), "WOOL": N_("Wool district"),
    "PALACE": N_("the Palace"), "BEGGARS": N_("Beggars' Guild"), "BRICK": N_("Brick district"),
    "ORE": N_("Ore district"), "UU": N_("Unseen University"),
    "THIEVES": N_("Thieves' and Assassins' Guild"), "SHADES": N_("The Shades"),
    "LUMBER": N_("Lumber district"),
}
# Short names for the map (at most 10 characters in both languages).
DISTRICT_SHORT = {
    "GRAIN": NP_("district", "Grain"), "ALCHEMISTS": NP_("district", "Alchemists"),
    "WOOL": NP_("district", "Wool"), "PALACE": NP_("district", "Palace"),
    "BEGGARS": NP_("district", "Beggars"), "BRICK": NP_("district", "Brick"),
    "ORE": NP_("district", "Ore"), "UU": NP_("district", "University"),
    "THIEVES": NP_("district", "Thieves"), "SHADES": NP_("district", "Shades"),
    "LUMBER": NP_("district", "Lumber"),
}
SPECIAL_TOKENS = {"ALCHEMISTS:5": N_("Library"), "ALCHEMISTS:10": N_("Laboratory")}

PIECE_WORDS = (N_("foundation"), N_("house"), N_("villa"))
PIECE_PLURALS = (N_("foundations"), N_("houses"), N_("villas"))
PIECE_MARKS = ("·", "▲", "■")       # on the map, after the owner's letter
RANK_WORDS = ("", N_("Captain"), N_("Lieutenant"))


def kind_name(k: int, n: int = 1) -> str:
    """A resource (or parchments, k = 5) as a word for ``n`` cards of it, singular
    or plural as the language shown counts (English: 0 parchments; French: 0 parchemin)."""
    return npgettext("resource", *RESOURCE_WORDS[k], n)


def guild_name(k: int) -> str:
    """Resource ``k``'s guild, as "the {guild} guild" names it."""
    return pgettext("guild", GUILD_WORDS[k])


def amount(n: int, k: int) -> str:
    return f"{n} {kind_name(k, n)}"


def cards_words(counts) -> str:
    """Cards of several kinds (six counts): ``2 brick + 1 wool`` (none: ``nothing``)."""
    parts = [amount(n, k) for k, n in enumerate(counts) if n]
    return " + ".join(parts) if parts else _("nothing")


def _cards(text: str) -> str:
    """A move's cards (``"2b1w"``) in words."""
    from ankh.core.guilds.offers import cards_of
    return cards_words(cards_of(text))


def district_name(did: str) -> str:
    return _(DISTRICT_WORDS[did])


def district_short(did: str) -> str:
    return pgettext("district", DISTRICT_SHORT[did])


def spot_name(spot: int | str) -> str:
    """A robber spot: a district's number token (``Grain district 6``), or the Shades."""
    sid = SPOT_IDS[spot] if isinstance(spot, int) else spot
    if sid == "SHADES":
        return district_name("SHADES")
    did, value = sid.split(":")
    special = SPECIAL_TOKENS.get(sid)
    name = district_name(did)
    return f"{name} {value} ({_(special)})" if special else f"{name} {value}"


def cost_text(cost) -> str:
    return ", ".join(kind_name(k) if n == 1 else amount(n, k) for k, n in enumerate(cost) if n)


def costs() -> list[tuple[str, str]]:
    """What each thing costs (cards, or parchments), for the costs at a glance."""
    def alt(cost, n: int) -> str:
        return _("{cards} / {n} parch.").format(cards=cost_text(cost), n=n)
    return [
        (_("Foundation"), cost_text(COST_FOUNDATION)),
        (_("House"), alt(COST_HOUSE, PARCH_HOUSE)),
        (_("Villa"), alt(COST_VILLA, PARCH_VILLA)),
        (_("Token"), alt(COST_DEV, PARCH_DEV)),
        (_("Bank card"), _("{n} parch.").format(n=PARCH_CARD)),
        (_("Set dice"), _("{n} parch.").format(n=PARCH_DICE)),
        (_("Guild point"), _("1 of its kind (2 after two)")),
        (_("Assassin"), _("2 different, not ore")),
    ]


def costs_short() -> list[str]:
    """The costs in three short lines (a wide screen's corner): pieces by
    their marks on the map, ``p`` for parchments."""
    def cards(cost) -> str:
        return "+".join(kind_name(k) if n == 1 else f"{n} {kind_name(k, n)}" for k, n in enumerate(cost) if n)
    return [
        f"· {cards(COST_FOUNDATION)}",
        f"▲ {cards(COST_HOUSE)} / {PARCH_HOUSE}p",
        f"■ {cards(COST_VILLA)} / {PARCH_VILLA}p",
        _("token") + f" {cards(COST_DEV)} / {PARCH_DEV}p",
        _("card {c}p · dice {d}p").format(c=PARCH_CARD, d=PARCH_DICE),   # two lines: one ran out of
        _("GP 1 card · assassin 2"),                                      # a 120×40 screen's panel
    ]


# --- options ---------------------------------------------------------------------------------------

# What an option that builds or buys with cards costs (the grouped list says it in its headings).
COSTS = {"found": COST_FOUNDATION, "house": COST_HOUSE, "villa": COST_VILLA, "dev": COST_DEV}


def option_text(state, option: tuple, priced: bool = False) -> str:
    """An option of a decision in the player's words; a site's option names
    the districts around it and their numbers, so a site can be chosen from
    the list as well as from the map.  ``priced``: what it costs beside it, as
    a short list shows it (a long list says it once in its group's heading)."""
    text = _option_words(state, option)
    if priced and option[0] in COSTS:
        text += f" ({cost_text(COSTS[option[0]])})"
    v = option_vertex(option)
    if v is not None and VERTEX_DISTRICTS[v]:
        return f"{text}  ({site_districts(v)})"
    if option[0] == "robber" and state is not None and option[1] < len(TOKENS):
        hit = sorted({state.occ[v] // 3 for v in DISTRICT_VERTICES[TOKENS[option[1]][0]]
                      if state.occ[v] > 0 and state.occ[v] % 3})
        if hit:
            return text + "  (" + _("blocks {seats}").format(seats=", ".join(tag(p) for p in hit)) + ")"
    return text


def tag(seat: int) -> str:
    """A seat in an option or a question: its letter and colour (``Y yellow``), as
    the log and the panels name it, so that colour is never needed."""
    return seat_tag(seat).plain


def site_districts(v: int) -> str:
    """The districts a site touches, with their number tokens: ``Grain 6·11, Alchemists 5·10``."""
    return ", ".join(" ".join((district_short(DISTRICT_IDS[d]), "·".join(map(str, DISTRICT_DATA[d][5]))))
                     .strip() for d in VERTEX_DISTRICTS[v])


def _option_words(state, option: tuple) -> str:
    verb, *a = option
    if verb == "place":
        return _("Place a house on site {v}").format(v=a[0])
    if verb == "take":
        return _("Take {resource}").format(resource=kind_name(a[0]))
    if verb == "roll":
        return _("Roll the dice")
    if verb == "fix":
        return _("Set the dice to {n} ({p} parchments)").format(n=a[0], p=PARCH_DICE)
    if verb == "guard":
        cid = state.dcard[a[0]] if state is not None else None
        if cid is not None and cid.startswith("vetinari"):
            return _("Play a Vetinari token")
        return _("Play a guard token")
    if verb == "win":
        return _("Show your Vetinari tokens and win")
    if verb == "discard":
        return _discard_words(state, a[0])
    if verb == "robber":
        if SPOT_IDS[a[0]] == "SHADES":   # a district, not a number token: « dans les Ombres »
            if state is not None and state.robber == a[0]:   # already there: the move does nothing
                return _("Leave the robber on the Shades")
            return _("Move the robber to the Shades")
        return _("Move the robber to {spot}").format(spot=spot_name(a[0]))
    if verb == "rob":
        return _("Steal a card from {colour}").format(colour=tag(a[0]))
    if verb == "no-steal":
        return _("Steal nothing")
    if verb == "assassin":
        return _("Hire an assassin for {a} and {b}").format(a=kind_name(a[0]), b=kind_name(a[1]))
    if verb == "pass":
        return _("Neither")
    if verb == "show":
        return _("Show {resource}").format(resource=kind_name(a[0]))
    if verb == "swap":
        return _("Give {resource} for 2 parchments").format(resource=kind_name(a[0]))
    if verb == "keep":
        return _("Keep your cards")
    if verb == "gp":
        if state is not None and getattr(state.pending, "kind", None) == "palace":   # the Palace's, free
            return _("A point in the {guild} guild").format(guild=guild_name(a[0]))
        # what it costs beside it: a card of the guild's resource, two after two bought this turn
        n = gp_price(state, a[0]) if state is not None else 1
        return _("A point in the {guild} guild ({cost})").format(guild=guild_name(a[0]), cost=amount(n, a[0]))
    if verb == "end":
        return _("End your turn")
    if verb == "bank":
        n = state.rate(state.pending.seat, a[0]) if state is not None and state.pending is not None else 4
        return _("Bank: {n} {give} for 1 {get}").format(n=n, give=kind_name(a[0], n), get=kind_name(a[1]))
    if verb == "found":
        return _("Lay a foundation on site {v}").format(v=a[0])
    if verb == "house":
        return _("Build a house on site {v}").format(v=a[0])
    if verb == "villa":
        return _("Build a villa on site {v}").format(v=a[0])
    if verb == "dev":
        return _("Buy a development token")
    if verb == "p-card":
        return _("{n} parchments: take {resource} from the bank").format(n=PARCH_CARD, resource=kind_name(a[0]))
    if verb == "p-dev":
        return _("{n} parchments: a development token").format(n=PARCH_DEV)
    if verb == "p-house":
        return _("{n} parchments: a house on site {v}").format(n=PARCH_HOUSE, v=a[0])
    if verb == "p-villa":
        return _("{n} parchments: a villa on site {v}").format(n=PARCH_VILLA, v=a[0])
    if verb == "refresh":
        # the rule: a card of your choice turns both receipts face up, and a seat with a receipt face up
        # is neither robbed nor made to discard on a 7 (one turns face down at each of its turns)
        return _("Pay 1 {resource}: both receipts face up, safe from the robber for 2 turns").format(
            resource=kind_name(a[0]))
    if verb == "promote":
        return _("Turn in 3 guards: become Captain or Lieutenant")
    if verb == "trade":
        return _("Offer a trade to the others… (t)")
    if verb == "cancel":
        return _("Cancel")
    if verb == "accept":
        return _("Accept")
    if verb == "decline":
        return _("Decline")
    if verb == "offer":
        who = _("everybody") if a[2] < 0 else tag(a[2])
        return _("Offer {give} for {get} to {who}").format(give=_cards(a[0]), get=_cards(a[1]), who=who)
    if verb == "counter":
        return _("Counter: give {give} for {get}").format(give=_cards(a[0]), get=_cards(a[1]))
    if verb == "deal":
        return _("Trade with {colour}").format(colour=tag(a[0]))
    return " ".join(map(str, option))


def _discard_left(decision) -> tuple[int, int]:
    """After a 7, the cards still to discard and how many the 7 asked for, from
    the decision's prompt ("discard 2 cards of 4"; an older one without the
    total: as many as are left)."""
    n = [int(x) for x in re.findall(r"\d+", decision.prompt)] or [0]
    return n[0], n[1] if len(n) > 1 else n[0]


def _discard_words(state, k: int) -> str:
    """A discard after a 7, saying how many of that kind the seat holds (the
    question above the options says how many cards are still to discard)."""
    d = getattr(state, "pending", None) if state is not None else None
    if d is None or getattr(d, "kind", None) != "discard":
        return _("Discard {resource}").format(resource=kind_name(k))
    held = state.res[d.seat * 5 + k]
    return _("Discard {resource} (you hold {held})").format(resource=kind_name(k), held=held)


def option_vertex(option: tuple) -> int | None:
    """The site an option names, if any."""
    if option[0] in ("place", "found", "house", "villa", "p-house", "p-villa"):
        return option[1]
    return None


def offer_text(trade) -> str:
    """The trade on the table (``state.trade``: offerer, give, want, asked, answers), in words:
    a sentence's start (its colour with a capital)."""
    p, give, want = trade[:3]
    said = _("{colour} offers {give} for {get}").format(colour=tag(p), give=cards_words(give),
                                                         get=cards_words(want))
    return said[:1].upper() + said[1:]


def prompt_text(view, decision) -> str:
    """What the decision asks, in words."""
    k = decision.kind
    if k == "answer" and view.trade is not None:
        return offer_text(view.trade) + ". " + _("Your answer?")
    if k == "deal":
        return _("Who do you trade with? (they accepted or countered)")
    if k == "discard":
        left, total = _discard_left(decision)   # the cards go one at a time
        return ngettext("A 7: {n} of {total} card left to discard (you held more than 7).",
                        "A 7: {n} of {total} cards left to discard (you held more than 7).",
                        total).format(n=left, total=total)
    if k == "palace":   # one point per building, in turn: say which (the options change as guilds fill)
        n = 1 + sum(1 for q, _g in view.palace if q == decision.seat)
        return _("The Palace: choose a guild for your point number {n} (at most 2 in one guild).").format(n=n)
    return _(PROMPTS.get(decision.prompt, decision.prompt)) if decision.prompt in PROMPTS else decision.prompt


PROMPTS = {
    "place a house on any free vertex": N_("Place a house on any free site (type its number)."),
    "take a resource card of your choice": N_("Take a resource card of your choice."),
    "roll, or first play a guard or set the dice": N_("Roll, or first play a guard or set the dice."),
    "trade, build, or end your turn": N_("Trade, build, or end your turn."),
    "show one of your cards to the Beggars' Guild": N_("Show one of your cards to the Beggars' Guild."),
    "give a card for 2 parchments at the Library?": N_("Give a card for 2 parchments at the Library?"),
    "take a resource of your choice from the Laboratory": N_("Take a resource of your choice from the Laboratory."),
    "move the robber, hire an assassin, or neither": N_("A 7: move the robber, hire an assassin, or neither."),
    "steal from whom?": N_("Steal from whom?"),
    "offer which cards?": N_("Offer which cards?"),
    "ask for which cards?": N_("Ask for which cards?"),
    "offer to whom?": N_("Offer to whom?"),
    "the guard moves the robber": N_("The guard moves the robber."),
    "the guard moves the robber or hires an assassin": N_("The guard moves the robber or hires an assassin."),
}


# --- the log ---------------------------------------------------------------------------------------

_C = "(red|yellow|green|blue)"
_R = "(brick|lumber|wool|grain|ore|parchment)"
_COLOUR = {c: i for i, c in enumerate(COLOURS)}
_KIND = {k: i for i, k in enumerate(KINDS)}


def _seat(m: str) -> Text:
    return seat_tag(_COLOUR[m])


def _k(m: str) -> str:
    return kind_name(_KIND[m])


def _g(m: str) -> str:
    return guild_name(_KIND[m])


def describe(event, viewer: int | None = None, stolen: Callable[[int], Any] | None = None) -> Text:
    """A line of the log in the player's words (``event.text`` is the notation).
    ``stolen(handle)``: the card a steal moved, where the viewer was its thief
    or its victim (None elsewhere): their line names it."""
    t = event.text
    if event.kind in TRADE_WORDS and event.data and "give" in event.data:
        return trade_words(event)
    if event.kind == "steal" and stolen is not None and event.data:
        card = stolen(event.data["handle"])
        if card is not None:
            return _assemble(_("{seat} steals {what} from {victim}."), seat=seat_tag(event.seat),
                             what=amount(1, card), victim=seat_tag(event.data["victim"]))
    for pattern, sentence, parts in LINES:
        m = re.fullmatch(pattern, t)
        if m:
            p = parts(m)
            words = ngettext(*sentence, int(p["n"])) if isinstance(sentence, tuple) else _(sentence)
            return _assemble(words, **p)
    return Text(t)


TRADE_WORDS = frozenset({"offer", "answer", "trade"})


def trade_words(event) -> Text:
    """An offer, an answer or a trade between seats, from its data (any cards on either side)."""
    d = event.data
    seat, give, get = seat_tag(event.seat), cards_words(d["give"]), cards_words(d["want"])
    if event.kind == "offer":
        if d.get("to") is None:
            return _assemble(_("{seat} offers {give} for {get} to everybody."), seat=seat, give=give, get=get)
        return _assemble(_("{seat} offers {give} for {get} to {other}."), seat=seat, give=give, get=get,
                         other=seat_tag(d["to"]))
    if event.kind == "trade":
        return _assemble(_("{seat} gives {give} to {other} for {get}."), seat=seat, give=give, get=get,
                         other=seat_tag(d["other"]))
    if d.get("answer") == "counter":
        return _assemble(_("{seat} counters: gives {give} for {get}."), seat=seat, give=give, get=get)
    return _assemble(_("{seat} accepts.") if d.get("answer") == "accept" else _("{seat} declines."), seat=seat)


def _piece(word: str) -> str:
    return _(PIECE_WORDS[("foundation", "house", "villa").index(word)])


LINES = [
    (rf"turn (\d+): {_C}", N_("Turn {n}: {seat}."), lambda m: {"n": m[1], "seat": _seat(m[2])}),
    (rf"{_C} plays first", N_("{seat} plays first."), lambda m: {"seat": _seat(m[1])}),
    (rf"the bank is short of {_R}: nobody takes any", N_("The bank is short of {what}: nobody takes any."),
     lambda m: {"what": _k(m[1])}),
    (rf"{_C} starts with (.*)", N_("{seat} starts with {what}."),
     lambda m: {"seat": _seat(m[1]), "what": ", ".join(_k(w) for w in m[2].split())}),
    (rf"{_C} builds a (foundation|house|villa) on V(\d+)", N_("{seat} builds a {piece} on site {v}."),
     lambda m: {"seat": _seat(m[1]), "piece": _piece(m[2]), "v": int(m[3])}),
    (rf"{_C} lays a foundation on V(\d+)", N_("{seat} lays a foundation on site {v}."),
     lambda m: {"seat": _seat(m[1]), "v": int(m[2])}),
    (rf"{_C} presides the {_R} guild", N_("{seat} becomes president of the {guild} guild."),
     lambda m: {"seat": _seat(m[1]), "guild": _g(m[2])}),
    (rf"the {_R} presidency is locked for {_C}", N_("The {guild} presidency is locked for {seat}."),
     lambda m: {"guild": _g(m[1]), "seat": _seat(m[2])}),
    (rf"{_C} wins with (\d+) VP", N_("{seat} wins with {n} VP."), lambda m: {"seat": _seat(m[1]), "n": m[2]}),
    (rf"{_C} sets the dice to (\d+)", N_("{seat} spends parchments and sets the dice to {n}."),
     lambda m: {"seat": _seat(m[1]), "n": m[2]}),
    (rf"{_C} rolls (\d)\+(\d) = (\d+)", N_("{seat} rolls {a}+{b} = {n}."),
     lambda m: {"seat": _seat(m[1]), "a": m[2], "b": m[3], "n": m[4]}),
    (rf"{_C} takes (\d+) {_R}", N_("{seat} takes {what}."),
     lambda m: {"seat": _seat(m[1]), "what": amount(int(m[2]), _KIND[m[3]])}),
    (rf"{_C} shows {_R}", N_("{seat} shows {what} to the Beggars' Guild."),
     lambda m: {"seat": _seat(m[1]), "what": _k(m[2])}),
    (rf"{_C} gives {_R} for 2 parchments", N_("{seat} gives {what} to the Library for 2 parchments."),
     lambda m: {"seat": _seat(m[1]), "what": _k(m[2])}),
    (rf"{_C} takes {_R} from the Laboratory", N_("{seat} takes {what} from the Laboratory."),
     lambda m: {"seat": _seat(m[1]), "what": _k(m[2])}),
    (rf"{_C} takes {_R}", N_("{seat} takes {what}."), lambda m: {"seat": _seat(m[1]), "what": _k(m[2])}),
    (rf"{_C} gains a point in the {_R} guild", N_("{seat} gains a point in the {guild} guild (the Palace)."),
     lambda m: {"seat": _seat(m[1]), "guild": _g(m[2])}),
    (rf"{_C} takes a parchment", N_("{seat} takes a parchment (Unseen University)."),
     lambda m: {"seat": _seat(m[1])}),
    (rf"{_C}'s guard arrests the assassin on (\d+)", N_("{seat}'s guard arrests the assassin on {n}."),
     lambda m: {"seat": _seat(m[1]), "n": m[2]}),
    (rf"{_C} discards {_R}", N_("{seat} discards {what}."), lambda m: {"seat": _seat(m[1]), "what": _k(m[2])}),
    (rf"{_C} leaves the robber on SHADES", N_("{seat} leaves the robber on the Shades."),
     lambda m: {"seat": _seat(m[1])}),
    (rf"{_C} neither moves the robber nor hires an assassin",
     N_("{seat} neither moves the robber nor hires an assassin."), lambda m: {"seat": _seat(m[1])}),
    (rf"{_C} moves the robber to SHADES", N_("{seat} moves the robber to the Shades."),
     lambda m: {"seat": _seat(m[1])}),
    (rf"{_C} moves the robber to (\S+)", N_("{seat} moves the robber to {spot}."),
     lambda m: {"seat": _seat(m[1]), "spot": spot_name(m[2])}),
    (rf"{_C} steals a card from {_C} \(#\d+\)", N_("{seat} steals a card from {victim}."),
     lambda m: {"seat": _seat(m[1]), "victim": _seat(m[2])}),
    (rf"{_C} steals nothing \(7 or more cards in hand\)",
     N_("{seat} steals nothing: holding 7 or more cards, one may not steal."), lambda m: {"seat": _seat(m[1])}),
    (rf"{_C} steals nothing \(nobody to rob there\)",
     N_("{seat} steals nothing: nobody there can be robbed (no cards, or a receipt face up)."),
     lambda m: {"seat": _seat(m[1])}),
    (rf"{_C} steals nothing \(by choice\)", N_("{seat} chooses to steal nothing."),
     lambda m: {"seat": _seat(m[1])}),
    (rf"{_C} hires an assassin \(track (\d+)\)", N_("{seat} hires an assassin: {n} on the track."),
     lambda m: {"seat": _seat(m[1]), "n": m[2]}),
    (r"the fire at the Alchemists' Guild is put out", N_("The fire at the Alchemists' Guild is put out."),
     lambda m: {}),
    (r"the Alchemists' Laboratory blows up", N_("The Alchemists' Laboratory blows up: the fire token is on it."),
     lambda m: {}),
    (r"the contract fails \((\d)\)", N_("The contract fails (die: {n})."), lambda m: {"n": m[1]}),
    (r"the contract succeeds \((\d)\)", N_("The contract succeeds (die: {n})."), lambda m: {"n": m[1]}),
    (rf"{_C} plays guard-\d+", N_("{seat} plays a guard."), lambda m: {"seat": _seat(m[1])}),
    (rf"{_C} plays vetinari-\d+", N_("{seat} plays a Vetinari token."), lambda m: {"seat": _seat(m[1])}),
    (rf"{_C} takes a development token \(#\d+\)", N_("{seat} takes a development token."),
     lambda m: {"seat": _seat(m[1])}),
    (rf"{_C} shows (\d+) Vetinari token\(s\)", Nn_("{seat} shows {n} Vetinari token.", "{seat} shows {n} Vetinari tokens."),
     lambda m: {"seat": _seat(m[1]), "n": m[2]}),
    (rf"{_C} turns a receipt face down", N_("{seat} turns a receipt face down."), lambda m: {"seat": _seat(m[1])}),
    (rf"{_C} becomes (Captain|Lieutenant)", N_("{seat} becomes {rank}."),
     lambda m: {"seat": _seat(m[1]), "rank": _(m[2])}),
    (rf"{_C} spends (\d+) parchments for {_R}",
     Nn_("{seat} spends {n} parchment for {what}.", "{seat} spends {n} parchments for {what}."),
     lambda m: {"seat": _seat(m[1]), "n": m[2], "what": _k(m[3])}),
    (rf"{_C} spends (\d+) parchments", Nn_("{seat} spends {n} parchment.", "{seat} spends {n} parchments."),
     lambda m: {"seat": _seat(m[1]), "n": m[2]}),
    (rf"{_C} trades (\d+) {_R} for {_R}", N_("{seat} trades {give} with the bank for 1 {get}."),
     lambda m: {"seat": _seat(m[1]), "give": amount(int(m[2]), _KIND[m[3]]), "get": _k(m[4])}),
    (rf"{_C} buys a point in the {_R} guild", N_("{seat} buys a point in the {guild} guild."),
     lambda m: {"seat": _seat(m[1]), "guild": _g(m[2])}),
    (rf"{_C} takes the offer back", N_("{seat} takes the offer back."), lambda m: {"seat": _seat(m[1])}),
    (rf"{_C} turns both receipts face up", N_("{seat} turns both receipts face up."),
     lambda m: {"seat": _seat(m[1])}),
]

