"""What happened, in player language: one sentence per rules event, with
real card, area, event and personality names, and "you" for the seat that
reads it.  Also the summary of everything since a seat's last decision,
and which of those happenings deserve a notice as they happen.

Events come from the rules with their parts (:class:`ankh.core.morpork.model.Event`
``data``); the record-notation ``text`` is only the fallback.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rich.text import Text

from ankh.core.morpork.model import COLOURS, Event

from ankh.tui.i18n import N_, _, ngettext
from ankh.tui.games.morpork.text import (AREA, AREA_IDS, PERSONALITY, SEAT_STYLE, area_names, card_name, colour,
                                         event_text, event_title, grammar, personality_name)

# Happenings a summary leaves out: bookkeeping the other lines already say.
QUIET = frozenset({"scroll", "draw", "turn", "setup"})


def said_already(ev, before) -> bool:
    """A draw right after the same seat's end of turn: "ended the turn and drew 2" said it."""
    return (ev.kind == "draw" and before is not None and before.kind == "end"
            and before.seat == ev.seat)


def worth_a_line(events, last: int) -> tuple:
    """The last ``last`` of ``events`` worth a line of their own (less those
    the line before them already said)."""
    out: list = []
    for n in range(len(events) - 1, -1, -1):
        if len(out) == last:
            break
        if not said_already(events[n], events[n - 1] if n else None):
            out.append(events[n])
    return tuple(reversed(out))


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _said(yours: bool, mine: str, theirs: str, **names) -> str:
    """A sentence whose subject is a seat: ``mine`` ("You played {card}.") when
    the reader did it, as each language says its own actions ("Vous avez
    joué…", not "Rouge (vous) a joué…"), else ``theirs`` ("{who} played {card}.")."""
    return _cap((mine if yours else theirs).format(**names))


def who(seat: int | None, viewer: int | None) -> str:
    if seat is None:
        return _("nobody")
    # Translators: the reader as a subject or object; {colour} (their seat) may be used,
    # as in "{colour} (vous)", to keep verbs in the third person.
    return _("you").format(colour=colour(seat)) if seat == viewer else colour(seat)


def piece(owner, viewer: int | None) -> str:
    """A minion as a noun phrase: your minion, red's minion, a troll."""
    if owner == "troll":
        return _("a troll")
    if owner == "demon":
        return _("a demon")
    if owner == viewer:
        return _("your minion")
    return _("{colour}'s minion").format(colour=colour(owner))


def building_of(owner: int | None, viewer: int | None) -> str:
    if owner == viewer:
        return _("your building")
    return _("{colour}'s building").format(colour=colour(owner))


def area(a: int | None) -> str:
    return "?" if a is None else area_names()[a]


def card(cid: str | None) -> str:
    if cid is None:
        return _("a card")
    return card_name(cid)


def event_name(eid: str | None) -> str:
    return event_title(eid) if eid else "?"


def personality(pid: str | None) -> str:
    return personality_name(pid) if pid in PERSONALITY else _("an unknown personality")


def names(items) -> str:
    return ", ".join(items)


END_REASONS = {
    "draw-pile": N_("The game ends: the draw pile is empty."),
    "riots": N_("The game ends in riots: eight trouble markers are on the board."),
}


def describe(ev: Event, viewer: int | None, view=None) -> str:
    """One sentence for ``ev`` as ``viewer`` reads it.  ``view`` (the
    viewer's :class:`~ankh.core.morpork.views.PlayerView`) names the cards and
    personalities the viewer was shown."""
    return grammar(_sentence(ev, viewer, view))


def _sentence(ev: Event, viewer: int | None, view) -> str:
    d = ev.data or {}
    k = ev.kind
    you = ev.seat is not None and ev.seat == viewer
    w = who(ev.seat, viewer)
    a = d.get("area")
    if k == "setup":
        return _("You go first.") if you else _("{who} goes first.").format(who=_cap(w))
    if k == "turn":
        return _("Turn {n}: {who}").format(n=d.get("amount", "?"), who=w)
    if k == "play":
        return _said(you, _("You played {card}."), _("{who} played {card}."), who=w, card=card(d.get("card")))
    if k == "scroll":
        return _said(you, _("You carried out the text of {card}."),
                     _("{who} carried out the text of {card}."),
                     who=w, card=card(d.get("card")))
    if k == "money":
        return _said(you, _("You took ${amount} from the bank."),
                     _("{who} took ${amount} from the bank."),
                     who=w, amount=d.get("amount"))
    if k == "pay":
        if d.get("event") == "subsidence":
            return _said(you, _("You paid ${amount} for Subsidence."),
                         _("{who} paid ${amount} for Subsidence."),
                         who=w, amount=d.get("amount"))
        if d.get("target") is None:
            return _said(you, _("You paid ${amount} to the bank."),
                         _("{who} paid ${amount} to the bank."),
                         who=w, amount=d.get("amount"))
        if d.get("amount") == 0:   # (Mr Boggis, the Thieves' Guild… from a seat with no money)
            return _said(you, _("You had no money to pay {target}."), _("{who} had no money to pay {target}."),
                         who=w, target=who(d["target"], viewer))
        return _said(you, _("You paid {target} ${amount}."),
                     _("{who} paid {target} ${amount}."),
                     who=w, target=who(d["target"], viewer), amount=d.get("amount"))
    if k == "give":
        target = d.get("target")
        shown = _card_of(view, (d.get("handles") or (None,))[0])
        if shown and (target == viewer or you):
            return _said(you, _("You gave {target} {card}."),
                         _("{who} gave {target} {card}."),
                         who=w, target=who(target, viewer), card=card(shown))
        return _said(you, _("You gave {target} a card."),
                     _("{who} gave {target} a card."),
                     who=w, target=who(target, viewer))
    if k == "loan":
        return _said(you, _("You took a ${amount} loan ({card})."),
                     _("{who} took a ${amount} loan ({card})."),
                     who=w, amount=d.get("amount"), card=card(d.get("card")))
    if k == "penalty":
        if you:
            return _("You took {card} instead of paying: it stays in front of you.").format(
                card=card(d.get("card")))
        return _cap(_("{who} took {card} instead of paying: it stays in front of them.").format(
            who=w, card=card(d.get("card"))))
    if k == "take":
        known = [_card_of(view, h) for h in d.get("handles", ())]
        if known and all(known):
            return _said(you, _("You took {cards} from the discard pile."),
                         _("{who} took {cards} from the discard pile."),
                         who=w, cards=names(card(c) for c in known))
        if you:
            return ngettext("You took {n} card from the discard pile.",
                            "You took {n} cards from the discard pile.", len(known)).format(n=len(known))
        return _cap(ngettext("{who} took {n} card from the discard pile.",
                             "{who} took {n} cards from the discard pile.", len(known)).format(
            who=w, n=len(known)))
    if k == "zorgo":
        if you and view is not None and view.personality:
            return _("You swapped personality with an unused one: you are now {personality}.").format(
                personality=personality(view.personality))
        return _said(you, _("You swapped personality with an unused one."),
                     _("{who} swapped personality with an unused one."),
                     who=w)
    if k == "look":
        if you and view is not None and view.unused_seen:
            return _("You looked at the unused personalities: {names}.").format(
                names=names(personality(p) for p in view.unused_seen))
        return _said(you, _("You looked at {n} unused personalities."),
                     _("{who} looked at {n} unused personalities."),
                     who=w, n=len(d.get("handles", ())))
    if k == "swap":
        return _cap(_("{first} in {first_area} and {second} in {second_area} swapped places.").format(
            first=piece(d.get("who"), viewer), first_area=area(d.get("source")),
            second=piece(d.get("target"), viewer), second_area=area(a)))
    if k == "roll":
        if d.get("event"):
            if d.get("target") is not None:
                return _("{event} for {who}: the die says {roll}, {area}.").format(
                    event=event_name(d["event"]), who=who(d["target"], viewer), roll=d.get("roll"),
                    area=area(a))
            return _("{event}: the die says {roll}, {area}.").format(
                event=event_name(d["event"]), roll=d.get("roll"), area=area(a))
        if a is not None:
            return _said(you, _("{card}: you rolled {roll}, {area}."),
                         _("{card}: {who} rolled {roll}, {area}."),
                         card=card(d.get("card")), who=w, roll=d.get("roll"), area=area(a))
        return _said(you, _("{card}: you rolled {roll}."),
                     _("{card}: {who} rolled {roll}."),
                     card=card(d.get("card")), who=w, roll=d.get("roll"))
    if k == "assassinate":   # the attempt (an interrupt may stop it): the removal is told on its own
        return _said(you, _("You targeted {victim} in {area} for assassination."),
                     _("{who} targeted {victim} in {area} for assassination."),
                     who=w, victim=piece(d.get("who"), viewer), area=area(a))
    if k == "removed":
        return _cap(_("{victim} in {area} was removed.").format(victim=piece(d.get("who"), viewer),
                                                                 area=area(a)))
    if k == "move":
        return _cap(_("{victim} moved from {source} to {area}.").format(
            victim=piece(d.get("who"), viewer), source=area(d.get("source")), area=area(a)))
    if k == "trouble":
        if d.get("removed"):
            return _said(you, _("You removed the trouble marker in {area}."),
                         _("{who} removed the trouble marker in {area}."),
                         who=w, area=area(a))
        return _said(you, _("You put a trouble marker in {area}."),
                     _("{who} put a trouble marker in {area}."),
                     who=w, area=area(a))
    if k == "ability":
        # the money a City Area card gives or costs (the rules' log says only that it was used)
        card_area = AREA.get(AREA_IDS[a], {}) if a is not None else {}
        params = card_area.get("params") or {}
        if card_area.get("ability") == "take_money":
            return _said(you, _("You used the City Area card {area} and took ${amount} from the bank."),
                         _("{who} used the City Area card {area} and took ${amount} from the bank."),
                         who=w, area=area(a), amount=params.get("amount"))
        if card_area.get("ability") in ("pay_to_place_minion", "pay_to_remove_trouble"):
            return _said(you, _("You paid ${amount} to use the City Area card {area}."),
                         _("{who} paid ${amount} to use the City Area card {area}."),
                         who=w, area=area(a), amount=params.get("cost"))
        return _said(you, _("You used the City Area card {area}."),
                     _("{who} used the City Area card {area}."),
                     who=w, area=area(a))
    if k == "discard":
        return _said(you, _("You discarded {card}."), _("{who} discarded {card}."), who=w, card=card(d.get("card")))
    if k == "minion":
        if d.get("source") is not None:
            return _said(you, _("You moved a minion from {source} to {area}."),
                         _("{who} moved a minion from {source} to {area}."),
                         who=w, source=area(d["source"]), area=area(a))
        return _said(you, _("You placed a minion in {area}."),
                     _("{who} placed a minion in {area}."),
                     who=w, area=area(a))
    if k == "build":
        if d.get("over"):
            return _said(you, _("You took over the building in {area}."),
                         _("{who} took over the building in {area}."),
                         who=w, area=area(a))
        if d.get("source") is not None:
            return _said(you, _("You moved a building from {source} to {area} (${amount})."),
                         _("{who} moved a building from {source} to {area} (${amount})."),
                         who=w, source=area(d["source"]), area=area(a), amount=d.get("amount"))
        return _said(you, _("You built in {area} for ${amount}."),
                     _("{who} built in {area} for ${amount}."),
                     who=w, area=area(a), amount=d.get("amount"))
    if k == "small-gods":
        return _said(you, _("You paid $3 to Small Gods: the random event spares the piece."),
                     _("{who} paid $3 to Small Gods: the random event spares the piece."),
                     who=w)
    if k == "interrupt":
        return _interrupt(d, w, viewer, you)
    if k == "event":
        if d.get("outcome") == "dies-out":
            return _("Fire: the fire dies out.")
        if d.get("outcome") == "no-riot":
            return _("Riots: only {n} trouble markers are on the board, so no riot.").format(
                n=d.get("amount"))
        eid = d.get("event")
        text = event_text(eid or "")
        return _("Random event: {event}. {text}").format(event=event_name(eid), text=text).strip()
    if k == "fog":
        return _("Fog discarded {cards} from the draw pile.").format(
            cards=names(card(c) for c in d.get("cards", ())))
    if k == "pick":
        return _said(you, _("You chose {victim} in {area}."),
                     _("{who} chose {victim} in {area}."),
                     who=w, victim=piece(d.get("who"), viewer), area=area(a))
    if k == "land":
        if d.get("who") == "troll":
            return _("A troll lands in {area}.").format(area=area(a))
        return _("A demon lands in {area}.").format(area=area(a))
    if k == "building-lost":
        if d.get("by") is not None:
            return _said(d["by"] == viewer, _("You removed {building} in {area}."),
                         _("{who} removed {building} in {area}."),
                         who=who(d["by"], viewer), building=building_of(ev.seat, viewer), area=area(a))
        return _cap(_("{building} in {area} was destroyed.").format(building=building_of(ev.seat, viewer),
                                                                     area=area(a)))
    if k == "card-lost":
        return _("The City Area card {area} leaves the game.").format(area=area(a))
    if k == "end":
        n = d.get("amount")
        if you:
            return (ngettext("You ended your turn and drew {n} card.", "You ended your turn and drew {n} cards.",
                             n).format(n=n) if n else _("You ended your turn."))
        if n:
            return _cap(ngettext("{who} ended the turn and drew {n} card.",
                                 "{who} ended the turn and drew {n} cards.", n).format(who=w, n=n))
        return _cap(_("{who} ended the turn.").format(who=w))
    if k == "draw":
        n = d.get("amount") or 0
        if you:
            return ngettext("You drew {n} card.", "You drew {n} cards.", n).format(n=n)
        return _cap(ngettext("{who} drew {n} card.", "{who} drew {n} cards.", n).format(who=w, n=n))
    if k == "pass":
        return _said(you, _("You passed."), _("{who} passed."), who=w)
    if k == "game-end":
        return _(END_REASONS.get(d.get("reason"), N_("The game ends.")))
    if k == "win":
        if d.get("winners"):
            line = (_("{winners} won on points ({points}).") if len(d["winners"]) == 1 else
                    _("{winners} share the win on points ({points} each)."))
            return _cap(line.format(winners=_(" and ").join(who(x, viewer) for x in d["winners"]),
                                    points=d.get("amount")))
        return _said(you, _("You revealed {personality} and won."),
                     _("{who} revealed {personality} and won."),
                     who=w, personality=personality(d.get("personality")))
    return ev.text


def _interrupt(d: dict, w: str, viewer, you: bool) -> str:
    c = card(d.get("card"))
    stopped = d.get("stopped")
    if stopped == "end":
        return _said(you, _("You played {card}: the turn ends now and {back} goes back to the hand."),
                     _("{who} played {card}: the turn ends now and {back} goes back to the hand."),
                     who=w, card=c, back=card(d.get("back")))
    by = d.get("by")
    if stopped == "remove":
        mine, theirs = (_("You played {card}: the minion in {area} is not removed."),
                        _("{who} played {card}: the minion in {area} is not removed."))
    elif stopped == "move":
        mine, theirs = (_("You played {card}: the minion in {area} does not move."),
                        _("{who} played {card}: the minion in {area} does not move."))
    elif stopped == "text":
        mine, theirs = (_("You played {card}: the card's text does not affect you."),
                        _("{who} played {card}: the card's text does not affect them."))
    else:
        mine, theirs = _("You played {card}."), _("{who} played {card}.")
    line = _said(you, mine, theirs, who=w, card=c, area=area(d.get("area")))
    if by is not None and by == viewer:
        line += " " + _("Your action is cancelled.")
    return line


def _card_of(view, h) -> str | None:
    """The card behind handle ``h`` if the viewer holds it."""
    if view is None or h is None:
        return None
    for handle, cid in view.hand:
        if handle == h and cid != "?":
            return cid
    return None


def style_line(line: str, seat: int | None = None) -> Text:
    """A sentence with its colour words in their seat's style."""
    t = Text(line)
    for s in range(len(COLOURS)):
        word = re.escape(colour(s))
        # whole words only: "vert" in "ouvert", "red" in "entered" are no seats
        t.highlight_regex(rf"\b(?:{word}|{word.capitalize()})\b", style=SEAT_STYLE[s])
    return t


# --- what happened since your last decision ------------------------------------------------------


def hits(ev: Event, viewer: int | None) -> bool:
    """Whether ``ev`` harms ``viewer``: a minion of theirs removed or moved,
    a building or City Area card lost, money or cards taken from them.  Money
    or cards given to them, and what they chose to pay or give, are no harm."""
    if viewer is None:
        return False
    d = ev.data or {}
    k = ev.kind
    if k in ("removed", "move", "building-lost") and ev.seat == viewer:
        return not d.get("chosen")  # not what your own card chose
    if k in ("pay", "give") and ev.seat == viewer and d.get("target") not in (None, viewer):
        return not d.get("chosen") and d.get("amount") != 0  # taken from you by another's card
    if k == "interrupt" and d.get("by") == viewer:
        return True
    if k == "swap" and viewer in (d.get("who"), d.get("target")):
        return d.get("by") != viewer
    if k == "card-lost" and d.get("target") == viewer:
        return True
    return False


def shown_to(ev: Event, viewer: int | None) -> bool:
    """Whether ``ev`` shows the viewer something: personalities, a card."""
    return viewer is not None and ev.seat == viewer and ev.kind in ("look", "zorgo", "take")


def notable(ev: Event, viewer: int | None) -> bool:
    """Worth a notice as it happens: random events, die rolls, what hits you,
    and what you are shown."""
    return ev.kind in ("event", "roll", "fog", "land") or hits(ev, viewer) or shown_to(ev, viewer)


@dataclass(frozen=True)
class TurnPart:
    """The happenings of one turn (or the part of it) in a summary."""
    seat: int | None
    turn: int | None
    lines: tuple[tuple[str, bool], ...]   # (sentence, whether it hits the viewer)


def summary(events, viewer: int | None, view=None, seat: int | None = None,
            turn: int | None = None) -> tuple[TurnPart, ...]:
    """Everything in ``events`` grouped by turn, in player language; ``seat``
    and ``turn`` are whose turn it was when ``events`` begin."""
    parts: list[TurnPart] = []
    lines: list = []
    for ev in events:
        if ev.kind == "turn":
            if lines:
                parts.append(TurnPart(seat, turn, tuple(lines)))
            seat, turn, lines = ev.seat, (ev.data or {}).get("amount"), []
            continue
        if ev.kind in QUIET:
            continue
        lines.append((describe(ev, viewer, view), hits(ev, viewer)))
    if lines:
        parts.append(TurnPart(seat, turn, tuple(lines)))
    return tuple(parts)


def changed_areas(events, viewer: int | None) -> frozenset[int]:
    """Areas something happened in, except what the viewer did there."""
    out = set()
    for ev in events:
        d = ev.data or {}
        mine = ev.seat == viewer and ev.kind in ("minion", "build", "trouble", "assassinate", "ability", "pick")
        if mine:
            continue
        for key in ("area", "source"):
            if isinstance(d.get(key), int):
                out.add(d[key])
    return frozenset(out)


def others_acted(events, viewer: int | None) -> bool:
    """Whether anything in ``events`` was not the viewer's own doing."""
    return any(ev.kind not in QUIET and (ev.seat != viewer or hits(ev, viewer)) for ev in events)


def gained_this_turn(events, view) -> tuple[int, ...]:
    """The areas whose City Area card the viewer gained in their turn now
    going on (a card is used from the next turn on)."""
    if view is None or view.viewer is None or view.current != view.viewer or view.outcome is not None:
        return ()
    start = next((n for n in range(len(events) - 1, -1, -1) if events[n].kind == "turn"), 0)
    mine = view.seats[view.viewer].city_cards
    return tuple(dict.fromkeys(e.data["area"] for e in events[start:]
                               if e.kind == "build" and e.seat == view.viewer and (e.data or {}).get("area") in mine))
