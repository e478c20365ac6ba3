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

from ankh.tui.i18n import N_, _
from ankh.tui.games.morpork.text import (PERSONALITY, SEAT_STYLE, area_names, card_name, colour, event_text, event_title,
                   personality_name)

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
        return _cap(_("{who} played {card}.").format(who=w, card=card(d.get("card"))))
    if k == "scroll":
        return _cap(_("{who} carried out the text of {card}.").format(who=w, card=card(d.get("card"))))
    if k == "money":
        return _cap(_("{who} took ${amount} from the bank.").format(who=w, amount=d.get("amount")))
    if k == "pay":
        if d.get("event") == "subsidence":
            return _cap(_("{who} paid ${amount} for Subsidence.").format(who=w, amount=d.get("amount")))
        if d.get("target") is None:
            return _cap(_("{who} paid ${amount} to the bank.").format(who=w, amount=d.get("amount")))
        return _cap(_("{who} paid {target} ${amount}.").format(
            who=w, target=who(d["target"], viewer), amount=d.get("amount")))
    if k == "give":
        target = d.get("target")
        shown = _card_of(view, (d.get("handles") or (None,))[0])
        if shown and (target == viewer or you):
            return _cap(_("{who} gave {target} {card}.").format(
                who=w, target=who(target, viewer), card=card(shown)))
        return _cap(_("{who} gave {target} a card.").format(who=w, target=who(target, viewer)))
    if k == "loan":
        return _cap(_("{who} took a ${amount} loan ({card}).").format(
            who=w, amount=d.get("amount"), card=card(d.get("card"))))
    if k == "penalty":
        return _cap(_("{who} took {card} instead of paying: it stays in front of them.").format(
            who=w, card=card(d.get("card"))))
    if k == "take":
        cards = [card(_card_of(view, h) or None) for h in d.get("handles", ())]
        return _cap(_("{who} took {cards} from the discard pile.").format(who=w, cards=names(cards)))
    if k == "zorgo":
        if you and view is not None and view.personality:
            return _("You swapped personality with an unused one: you are now {personality}.").format(
                personality=personality(view.personality))
        return _cap(_("{who} swapped personality with an unused one.").format(who=w))
    if k == "look":
        if you and view is not None and view.unused_seen:
            return _("You looked at the unused personalities: {names}.").format(
                names=names(personality(p) for p in view.unused_seen))
        return _cap(_("{who} looked at {n} unused personalities.").format(
            who=w, n=len(d.get("handles", ()))))
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
            return _cap(_("{card}: {who} rolled {roll}, {area}.").format(
                card=card(d.get("card")), who=w, roll=d.get("roll"), area=area(a)))
        return _cap(_("{card}: {who} rolled {roll}.").format(card=card(d.get("card")), who=w,
                                                             roll=d.get("roll")))
    if k == "assassinate":
        return _cap(_("{who} assassinated {victim} in {area}.").format(
            who=w, victim=piece(d.get("who"), viewer), area=area(a)))
    if k == "removed":
        return _cap(_("{victim} in {area} was removed.").format(victim=piece(d.get("who"), viewer),
                                                                 area=area(a)))
    if k == "move":
        return _cap(_("{victim} moved from {source} to {area}.").format(
            victim=piece(d.get("who"), viewer), source=area(d.get("source")), area=area(a)))
    if k == "trouble":
        if d.get("removed"):
            return _cap(_("{who} removed the trouble marker in {area}.").format(who=w, area=area(a)))
        return _cap(_("{who} put a trouble marker in {area}.").format(who=w, area=area(a)))
    if k == "ability":
        return _cap(_("{who} used the City Area card {area}.").format(who=w, area=area(a)))
    if k == "discard":
        return _cap(_("{who} discarded {card}.").format(who=w, card=card(d.get("card"))))
    if k == "minion":
        if d.get("source") is not None:
            return _cap(_("{who} moved a minion from {source} to {area}.").format(
                who=w, source=area(d["source"]), area=area(a)))
        return _cap(_("{who} placed a minion in {area}.").format(who=w, area=area(a)))
    if k == "build":
        if d.get("over"):
            return _cap(_("{who} took over the building in {area}.").format(who=w, area=area(a)))
        if d.get("source") is not None:
            return _cap(_("{who} moved a building from {source} to {area} (${amount}).").format(
                who=w, source=area(d["source"]), area=area(a), amount=d.get("amount")))
        return _cap(_("{who} built in {area} for ${amount}.").format(who=w, area=area(a),
                                                                    amount=d.get("amount")))
    if k == "small-gods":
        return _cap(_("{who} paid $3 to Small Gods: the random event spares the piece.").format(who=w))
    if k == "interrupt":
        return _interrupt(d, w, viewer)
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
        return _cap(_("{who} chose {victim} in {area}.").format(who=w, victim=piece(d.get("who"), viewer),
                                                                 area=area(a)))
    if k == "land":
        if d.get("who") == "troll":
            return _("A troll lands in {area}.").format(area=area(a))
        return _("A demon lands in {area}.").format(area=area(a))
    if k == "building-lost":
        if d.get("by") is not None:
            return _cap(_("{who} removed {building} in {area}.").format(
                who=who(d["by"], viewer), building=building_of(ev.seat, viewer), area=area(a)))
        return _cap(_("{building} in {area} was destroyed.").format(building=building_of(ev.seat, viewer),
                                                                     area=area(a)))
    if k == "card-lost":
        return _("The City Area card {area} leaves the game.").format(area=area(a))
    if k == "end":
        if d.get("amount"):
            return _cap(_("{who} ended the turn and drew {n}.").format(who=w, n=d["amount"]))
        return _cap(_("{who} ended the turn.").format(who=w))
    if k == "draw":
        return _cap(_("{who} drew {n}.").format(who=w, n=d.get("amount")))
    if k == "pass":
        return _cap(_("{who} passed.").format(who=w))
    if k == "game-end":
        return _(END_REASONS.get(d.get("reason"), N_("The game ends.")))
    if k == "win":
        if d.get("winners"):
            line = (_("{winners} won on points ({points}).") if len(d["winners"]) == 1 else
                    _("{winners} share the win on points ({points} each)."))
            return _cap(line.format(winners=_(" and ").join(who(x, viewer) for x in d["winners"]),
                                    points=d.get("amount")))
        return _cap(_("{who} revealed {personality} and won.").format(
            who=w, personality=personality(d.get("personality"))))
    return ev.text


def _interrupt(d: dict, w: str, viewer) -> str:
    c = card(d.get("card"))
    stopped = d.get("stopped")
    if stopped == "end":
        return _cap(_("{who} played {card}: the turn ends now and {back} goes back to the hand.").format(
            who=w, card=c, back=card(d.get("back"))))
    by = d.get("by")
    if stopped == "remove":
        text = _("{who} played {card}: the minion in {area} is not removed.")
    elif stopped == "move":
        text = _("{who} played {card}: the minion in {area} does not move.")
    elif stopped == "text":
        text = _("{who} played {card}: the card's text does not affect them.")
    else:
        text = _("{who} played {card}.")
    line = _cap(text.format(who=w, card=c, area=area(d.get("area"))))
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
    """Whether ``ev`` happens to ``viewer``'s pieces, money or hand, by someone else."""
    if viewer is None:
        return False
    d = ev.data or {}
    k = ev.kind
    if k in ("removed", "move", "building-lost") and ev.seat == viewer:
        return True
    if k in ("pay", "give") and d.get("target") == viewer and ev.seat != viewer:
        return True
    if k == "pay" and ev.seat == viewer and d.get("target") not in (None, viewer):
        return True  # money taken from you by another's card
    if k == "interrupt" and d.get("by") == viewer:
        return True
    if k == "swap" and viewer in (d.get("who"), d.get("target")):
        return True
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
