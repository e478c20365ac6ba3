"""Interrupt windows, and the removals and moves they can stop.

A task that threatens a seat's piece is queued with a window (``t_guard``)
in front of it; the seat may answer with an interrupt card (Gaspode, Susan,
Igor, Fresh Start Club, Wallace Sonky) or Small Gods, cancelling the task.
"""
from __future__ import annotations

from .model import AREA_IDS, COLOURS, INTERRUPT_KIND, IllegalAction, Reveal, SMALL_GODS, fast_new
from .state import State
from .board import arrive, ask_placement, depart, reveal, who_name


def remove_minion(s: State, a: int, who, cause) -> None:
    """Remove one of ``who``'s minions from ``a``; the owner may answer with an
    interrupt first.  ``cause`` is ``(kind, seat)``: kind ``symbol``/``text`` (a
    card of ``seat``), ``event``, or ``forced`` (a roll of 1 on your own card)."""
    s.push(t_do_remove, a, who)
    if isinstance(who, str) or (cause[0] in ("symbol", "text") and cause[1] == who):
        return  # neutral minions have no owner to answer; your own choice is not a threat
    s.push(t_guard, who, "remove", cause, a)


def t_do_remove(s: State, a: int, who) -> None:
    if not s.pieces_of(who, a):
        return
    depart(s, a, who)
    if not isinstance(who, str):
        s.supply[who] += 1
    if s.narrate:
        s.log("removed", None if isinstance(who, str) else who,
              f"{who_name(who)} minion removed from {AREA_IDS[a]}", area=a, who=who)


def move_minion(s: State, f: int, t: int, who, cause) -> None:
    s.push(t_do_move, f, t, who)
    if not isinstance(who, str) and cause[0] in ("symbol", "text") and cause[1] != who:
        s.push(t_guard, who, "move", cause, f)


def t_do_move(s: State, f: int, t: int, who) -> None:
    if not s.pieces_of(who, f):
        return
    depart(s, f, who)
    arrive(s, t, who)
    if s.narrate:
        s.log("move", None if isinstance(who, str) else who,
              f"{who_name(who)} minion moves {AREA_IDS[f]} -> {AREA_IDS[t]}", area=t, source=f, who=who)


# --- interrupt windows ------------------------------------------------------------------------------


def interrupt_applies(cid: str, kind: str, cause, q: int) -> bool:
    """Whether interrupt card ``cid`` answers a ``kind`` threat to seat ``q``.

    A7/A8: Gaspode and Wallace Sonky only against another player's card
    (Sonky only its text); Susan, Igor and Fresh Start Club against any
    removal, random events and forced rolls of 1 included.
    """
    ik = INTERRUPT_KIND.get(cid)
    other = cause[0] in ("symbol", "text") and cause[1] != q
    if ik == "prevent_removal" or ik == "replace_removal_with_placement":
        return kind == "remove"
    if ik == "prevent_move_or_removal":
        return kind in ("remove", "move") and other
    if ik == "immunity_to_card_text":
        return cause[0] == "text" and other
    return False


def small_gods_usable(s: State, q: int) -> bool:
    """Small Gods answers random events in any turn, but like every City Area
    card not in the turn it was gained, nor while a demon is in Small Gods."""
    return (s.city_owner[SMALL_GODS] == q and not s.demons[SMALL_GODS] and s.money[q] >= 3
            and not (q == s.current and s.gained >> SMALL_GODS & 1))


def window_could_use_hand(kind: str, cause, q: int) -> bool:
    """Could any interrupt card answer this threat?  Public information only."""
    other = cause[0] in ("symbol", "text") and cause[1] != q
    if kind == "remove":
        return True
    if kind == "move":
        return other
    if kind == "text":
        return cause[0] == "text" and other
    return False


def t_guard(s: State, q: int, kind: str, cause, a) -> None:
    """Open an interrupt window for seat ``q`` that may cancel the task beneath.

    Every seat that could answer is asked, whether or not it holds an
    interrupt, so asking leaks nothing.  Small Gods (A9) answers random events.
    """
    opts: list[tuple] = []
    if s.hand[q] and window_could_use_hand(kind, cause, q):
        for h in s.hand[q]:
            cid = s.card[h]
            if cid is None or interrupt_applies(cid, kind, cause, q):
                opts.append(("interrupt", h))
        ask = True
    else:
        ask = False
    if cause[0] == "event" and small_gods_usable(s, q):
        opts.append(("small-gods",))
        ask = True
    if not ask:
        return
    what = {"remove": "one of your minions would be removed",
            "move": "one of your minions would be moved",
            "text": "a card's text would affect you",
            "building": "one of your buildings would be lost",
            "land": "a neutral minion would land where you have a piece",
            "card": "your City Area card would leave the game"}[kind]
    where = f" ({AREA_IDS[a]})" if isinstance(a, int) else ""
    s.ask(q, "window", [("pass",)] + opts, f"Interrupt? {what}{where}", r_guard, q, kind, cause)


def r_guard(s: State, opt, q: int, kind: str, cause) -> None:
    if opt[0] == "pass":
        return
    if opt[0] == "small-gods":
        s.money[q] -= 3
        pop_guarded(s)
        if s.narrate:
            s.log("small-gods", q, f"{COLOURS[q]}: small-gods ($3)", amount=3, stopped=kind)
        return
    h = opt[1]
    s.request(fast_new(Reveal, ("player", (h,))), r_guard_revealed, q, kind, cause, h)


def pop_guarded(s: State):
    """Cancel the guarded task (and any further windows guarding the same task)."""
    while s.stack[-1][0] is t_guard:
        s.stack.pop()
    return s.stack.pop()


def r_guard_revealed(s: State, ids, q: int, kind: str, cause, h: int) -> None:
    cid = ids[0]
    if not interrupt_applies(cid, kind, cause, q):
        raise IllegalAction(f"{cid} does not answer this ({kind})")
    reveal(s, h, cid)
    s.hand[q].remove(h)
    s.discard.append(h)
    guarded = pop_guarded(s)
    if s.narrate:
        s.log("interrupt", q, f"{COLOURS[q]}: interrupt {cid}", card=cid, stopped=kind,
              by=cause[1] if cause[0] in ("symbol", "text") else None,
              area=guarded[1][0] if guarded[0] in (t_do_remove, t_do_move) else None)
    if INTERRUPT_KIND[cid] == "replace_removal_with_placement":
        # A6: the minion comes off and is placed elsewhere under the normal rule.
        _, (a, who) = guarded
        depart(s, a, who)
        s.supply[who] += 1
        ask_placement(s, q, lambda st: st.placement_areas(q) - {a},
                      f"{cid}: place the rescued minion in another area")
