"""The turn: the win check, the turn's card and its symbols in order, further
cards, the end phase with Doctor Mossy Lawn, and the refill.

The tables of card texts and random events the turn carries out are built
here, where they are used, from the modules that define them.
"""
from __future__ import annotations

from typing import Any, Final

from .model import (
    AREA_IDS, CARD, COLOURS, EVENT, INTERRUPT_KIND, IllegalAction, MalformedAction, NUM_AREAS,
    SYMBOLS, Reveal, fast_new,
)
from .state import State
from .abilities import ability_options, use_ability
from .board import (
    assassination_options, build, build_options, place_minion, placement_options, reveal,
    t_draw, who_name,
)
from .effects_board import BOARD_EFFECTS
from .effects_common import Effect, params
from .effects_hands import HAND_EFFECTS
from .events import EVENT_HANDLERS
from .scoring import personality_met, reveal_personality, t_final_reveal
from .windows import remove_minion


# --- the turn ----------------------------------------------------------------------------------


def t_start_turn(s: State, p: int) -> None:
    s.current = p
    s.turn += 1
    s.used = 0
    s.gained = 0
    s.played = 0
    s.last_played = None
    s.chain = None
    if s.narrate:
        s.log("turn", p, f"turn {s.turn}: {COLOURS[p]}", amount=s.turn)
    s.push(t_end_turn, p)
    s.push(t_play_phase, p)
    pid = s.pers[s.personality[p]]
    opts: tuple[tuple[str], ...]
    if pid is None:
        opts = (("win",), ("no-win",))
    else:
        opts = (("win",),) if personality_met(s, p, pid) else (("no-win",),)
    s.ask(p, "check-win", opts, "Do you meet your personality's winning condition?",
          r_check_win, p)


def r_check_win(s: State, opt, p: int) -> None:
    if opt[0] == "win":
        h = s.personality[p]
        s.request(fast_new(Reveal, ("personality", (h,))), r_win_revealed, p)


def r_win_revealed(s: State, ids, p: int) -> None:
    pid = ids[0]
    if not personality_met(s, p, pid):
        raise IllegalAction(f"{COLOURS[p]} claimed a win as {pid} without meeting it")
    reveal_personality(s, s.personality[p], pid)
    if s.narrate:
        s.log("win", p, f"{COLOURS[p]} reveals {pid} and wins", personality=pid)
    s.stack.clear()
    s.ending = True
    s.push(t_final_reveal, "personality", p)


def playable(s: State, p: int) -> list[int]:
    """Handles in ``p``'s hand that may be played as a turn's card (not interrupts)."""
    return [h for h in s.hand[p] if s.card[h] is None or s.card[h] not in INTERRUPT_KIND]


def mossy_options(s: State, p: int) -> list[tuple]:
    """Doctor Mossy Lawn: own turn only, after at least one card was played (A14)."""
    if not s.played or s.current != p:
        return []
    return [("interrupt", h) for h in s.hand[p]
            if s.card[h] is None or s.card[h] == "doctor-mossy-lawn"]


def t_play_phase(s: State, p: int) -> None:
    """The turn's card.  You must play one if you hold any that is not an
    interrupt; "pass" is offered only when you hold none (or this engine cannot
    see the hand, and so cannot tell)."""
    opts: list[tuple] = [("play", h) for h in playable(s, p)]
    if not opts or s.card_ids_unknown(p):
        opts.append(("pass",))
    opts += ability_options(s, p)
    s.ask(p, "turn", opts, "Play a card from your hand", r_play_phase, p)


def r_play_phase(s: State, opt, p: int) -> None:
    verb = opt[0]
    if verb == "play":
        s.push(t_end_phase, p)
        s.push(t_play_card, p, opt[1])
    elif verb == "ability":
        s.push(t_play_phase, p)
        use_ability(s, p, opt[1])
    else:
        if s.narrate:
            s.log("pass", p, f"{COLOURS[p]} passes")


def t_play_card(s: State, p: int, h: int) -> None:
    s.request(fast_new(Reveal, ("player", (h,))), r_card_revealed, p, h)


def r_card_revealed(s: State, ids, p: int, h: int) -> None:
    cid = ids[0]
    if cid in INTERRUPT_KIND:
        raise IllegalAction(f"{cid} is an interrupt and cannot be played as a turn's card")
    reveal(s, h, cid)
    s.hand[p].remove(h)
    s.in_play.append(h)
    s.played += 1
    s.last_played = h
    if s.narrate:
        s.log("play", p, f"{COLOURS[p]}: play {cid}", card=cid)
    s.push(t_finish_card, p, h)
    s.push(t_symbol, p, h, 0)


def t_symbol(s: State, p: int, h: int, i: int) -> None:
    symbols = SYMBOLS[s.card[h]]
    if i >= len(symbols):
        return
    sym = symbols[i]
    if sym == "play_another":
        t_ask_another(s, p, h)
        return
    s.push(t_symbol, p, h, i + 1)
    if sym == "event":
        s.push(t_event, p)
    elif sym.startswith("money:"):
        # Taking money can never hurt its taker, so the optional symbol is always used.
        n = int(sym[6:])
        s.money[p] += n
        if s.narrate:
            s.log("money", p, f"{COLOURS[p]} takes ${n}", amount=n)
    else:
        t_ask_symbol(s, p, h, i)


SYMBOL_PROMPTS: Final = {
    "minion": "Place a minion",
    "building": "Build a building",
    "assassinate": "Assassinate a minion",
    "remove_trouble": "Remove a trouble marker",
    "scroll": "Carry out the card's text",
}


def t_ask_symbol(s: State, p: int, h: int, i: int) -> None:
    sym = SYMBOLS[s.card[h]][i]
    opts = symbol_options(s, p, h, sym)
    extra = ability_options(s, p)
    if not opts and not extra:
        return  # nothing can be done (public information): skip without asking
    opts.append(("skip",))
    opts += extra
    opts += mossy_options(s, p)
    s.ask(p, "action", opts, f"{s.card[h]}: {SYMBOL_PROMPTS[sym]}", r_action, p, h, i)


def symbol_options(s: State, p: int, h: int, sym: str) -> list[tuple]:
    if sym == "minion":
        return placement_options(s, p, lambda st: st.placement_areas(p))
    if sym == "building":
        return build_options(s, p)
    if sym == "assassinate":
        return assassination_options(s, p)
    if sym == "remove_trouble":
        return [("remove-trouble", a) for a in range(NUM_AREAS) if s.trouble[a]]
    if sym == "scroll":
        card = CARD[s.card[h]]
        eff = EFFECTS[card["effect"]]
        return [("scroll",)] if eff.can(s, p, h) else []
    raise AssertionError(sym)


def r_action(s: State, opt, p: int, h: int, i: int) -> None:
    verb = opt[0]
    if verb == "skip":
        return
    if verb == "ability":
        s.push(t_ask_symbol, p, h, i)
        use_ability(s, p, opt[1])
    elif verb == "interrupt":
        play_mossy(s, p, opt[1])
    else:
        do_option(s, p, opt, h)


def do_option(s: State, p: int, opt: tuple, h: Any = None) -> None:
    """Carry out a symbol action (also used by abilities and card texts)."""
    verb = opt[0]
    if verb == "minion":
        place_minion(s, p, opt[1], opt[2] if len(opt) > 2 else None)
    elif verb == "build":
        build(s, p, opt[1], opt[2] if len(opt) > 2 else None)
    elif verb == "assassinate":
        if s.narrate:
            s.log("assassinate", p, f"{COLOURS[p]}: assassinate {AREA_IDS[opt[1]]} {who_name(opt[2])}",
                  area=opt[1], who=opt[2], card=None if h is None else s.card[h])
        remove_minion(s, opt[1], opt[2], ("symbol", p))
    elif verb == "remove-trouble":
        s.trouble[opt[1]] = False
        if s.narrate:
            s.log("trouble", p, f"{COLOURS[p]}: remove-trouble {AREA_IDS[opt[1]]}", area=opt[1],
                  removed=True)
    elif verb == "scroll":
        if s.narrate:
            s.log("scroll", p, f"{COLOURS[p]}: scroll ({s.card[h]})", card=s.card[h])
        EFFECTS[CARD[s.card[h]]["effect"]].start(s, p, h)
    else:
        raise AssertionError(opt)


def t_ask_another(s: State, p: int, h: int) -> None:
    opts: list[tuple] = [("play", x) for x in playable(s, p)]
    extra = ability_options(s, p)
    if not s.hand[p] and not extra:
        return
    opts.append(("stop",))
    opts += extra
    opts += mossy_options(s, p)
    s.ask(p, "another", opts, "You may play another card", r_another, p, h)


def r_another(s: State, opt, p: int, h: int) -> None:
    verb = opt[0]
    if verb == "play":
        s.chain = opt[1]
    elif verb == "ability":
        s.push(t_ask_another, p, h)
        use_ability(s, p, opt[1])
    elif verb == "interrupt":
        play_mossy(s, p, opt[1])


def t_finish_card(s: State, p: int, h: int) -> None:
    """A card is done: onto the discard pile, unless its text already put it in
    front of a player (a loan, a penalty card)."""
    if h in s.in_play:
        s.in_play.remove(h)
        s.discard.append(h)
    if s.chain is not None:
        nxt, s.chain = s.chain, None
        s.push(t_play_card, p, nxt)


def t_play_extra(s: State, p: int, k: int) -> None:
    """Drumknott / Ponder Stibbons: play ``k`` more cards, each resolved fully
    (with its own chain) before the next; A20: compulsory while you can."""
    if k <= 0 or not s.hand[p]:
        return
    s.push(t_play_extra, p, k - 1)
    opts: list[tuple] = [("play", x) for x in playable(s, p)]
    if not opts or s.card_ids_unknown(p):
        opts.append(("skip",))
    opts += mossy_options(s, p)
    s.ask(p, "extra", opts, "Play another card (required)", r_play_extra, p)


def r_play_extra(s: State, opt, p: int) -> None:
    if opt[0] == "play":
        s.push(t_play_card, p, opt[1])
    elif opt[0] == "interrupt":
        play_mossy(s, p, opt[1])
    else:
        s.stack.pop()  # no playable card: the remaining extra play is void too


def t_end_phase(s: State, p: int) -> None:
    """Before the refill: City Area cards, or Doctor Mossy Lawn once a card was
    played.  Asked whenever either could be used (public: abilities, a card
    played and a card in hand), so holding Mossy Lawn is not given away."""
    extra = ability_options(s, p)
    if not extra and not (s.played and s.hand[p]):
        return
    opts = [("end",)] + extra + mossy_options(s, p)
    s.ask(p, "end", opts, "End your turn (or first use a City Area card or Doctor Mossy Lawn)",
          r_end_phase, p)


def r_end_phase(s: State, opt, p: int) -> None:
    if opt[0] == "ability":
        s.push(t_end_phase, p)
        use_ability(s, p, opt[1])
    elif opt[0] == "interrupt":
        play_mossy(s, p, opt[1])


def t_end_turn(s: State, p: int) -> None:
    s.push(t_start_turn, (p + 1) % s.players)
    need = s.refill_need(p)
    if s.narrate:
        s.log("end", p, f"{COLOURS[p]} ends the turn" + (f" and draws {need}" if need else ""), amount=need)
    s.push(t_draw, p, need)


def play_mossy(s: State, p: int, h: int) -> None:
    s.request(fast_new(Reveal, ("player", (h,))), r_mossy_revealed, p, h)


def r_mossy_revealed(s: State, ids, p: int, h: int) -> None:
    if ids[0] != "doctor-mossy-lawn" or not s.played:
        raise IllegalAction(f"{ids[0]} cannot interrupt your own turn")
    reveal(s, h, ids[0])
    s.hand[p].remove(h)
    s.discard.append(h)
    # A14: the card played just before comes back to hand -- unless its text
    # already laid it in front of a player (a loan taken stands, card and debt).
    back = s.last_played
    if back in s.in_play:
        s.in_play.remove(back)
        s.hand[p].append(back)
    elif back in s.discard:
        s.discard.remove(back)
        s.hand[p].append(back)
    s.discard += s.in_play
    s.in_play.clear()
    s.chain = None
    while s.stack[-1][0] is not t_end_turn:
        s.stack.pop()
    if s.narrate:
        s.log("interrupt", p, f"{COLOURS[p]}: interrupt doctor-mossy-lawn ({s.card[back]} back to hand)",
              card="doctor-mossy-lawn", back=s.card[back], stopped="end")


# --- random events --------------------------------------------------------------------------------


def t_event(s: State, p: int) -> None:
    if not s.event_deck:
        return  # A28: nothing happens when the event deck is empty
    s.request(fast_new(Reveal, ("event", (s.event_deck[-1],))), r_event_revealed, p)


def r_event_revealed(s: State, ids, p: int) -> None:
    eid = ids[0]
    if eid not in EVENT:
        raise MalformedAction(f"unknown event {eid!r}")
    h = s.event_deck.pop()
    s.event[h] = eid
    s.events_done.append(h)
    if s.narrate:
        s.log("event", p, f"event {eid}", event=eid)
    EVENT_HANDLERS[eid](s, p)


# --- the tables of card texts and random events -----------------------------------------------


def drumknott(s: State, p: int, h: int) -> None:
    s.push(t_play_extra, p, params(s, h)["count"])


EFFECTS: dict[str, Effect] = {
    **HAND_EFFECTS,
    **BOARD_EFFECTS,
    "play_additional_cards": Effect(lambda s, p, h: bool(s.hand[p]), drumknott),
}
