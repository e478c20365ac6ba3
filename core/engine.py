"""The rules machine: setup, the turn, card symbols, City Area abilities,
interrupt windows and the end of the game.

Work still to do lives on ``State.stack`` as tuples ``(task, *args)``; a task
may change the state, push further tasks, or stop the machine by asking a
seat (``State.ask``) or the table (``State.request``); the answer is handed to
the continuation named there.  Whether something is asked at all depends
only on public information, so every engine in a networked game -- each
knowing different cards -- asks the same questions in the same order.

Readings of ambiguous rules (RULES.md section 14) are named where they are
implemented, as ``A<n>``.
"""
from __future__ import annotations

from .model import (
    ABILITY, ABILITY_PARAMS, ADJ, AREA_IDS, CARD, COLOURS, COST, DEMON, EVENT,
    INTERRUPT_KIND, LOAN_PENALTY, LOAN_REPAY, NUM_AREAS, PERSONALITY, SMALL_GODS, TROLL,
    DealCard, IllegalAction, MalformedAction, Outcome, PickRandom,
    Reveal,
)
from .state import NOBODY, REMOVED, State

# --- naming helpers for the log ----------------------------------------------------------


def who_name(who) -> str:
    return who if isinstance(who, str) else COLOURS[who]


def card_name(s: State, h: int) -> str:
    return s.card[h] or f"#{h}"


# --- starting a game ------------------------------------------------------------------------


def new_game(players: int, position=None) -> State:
    """A new game, waiting for its first setup request (personality deal).

    ``position`` (a :class:`ankh.core.record.Position`) replaces the
    rulebook's starting position once the cards are dealt: scenarios."""
    if position is not None:
        from .record import check_position
        problem = check_position(position, players)
        if problem:
            raise MalformedAction(f"impossible position: {problem}")
    s = State.new(players)
    s.push(t_first_player, position)
    sizes = position.hand_sizes if position is not None else {}
    for p in reversed(range(players)):
        s.push(t_draw, p, sizes.get(p, 5))
    s.push(t_deal_personality, 0)
    s.run()
    return s


def t_deal_personality(s: State, i: int) -> None:
    if i >= s.players:
        return
    s.push(t_deal_personality, i + 1)
    s.request(DealCard("personality", (s.personality[i],), i), r_personality_dealt, i)


def r_personality_dealt(s: State, ids, i: int) -> None:
    h = s.personality[i]
    if ids[0] is not None:
        s.pers[h] = ids[0]
    s.pers_seen[i].add(h)


def t_first_player(s: State, position) -> None:
    s.request(PickRandom(tuple(range(s.players)), 1, "first player"), r_first_player, position)


def r_first_player(s: State, picked, position) -> None:
    first = picked[0]
    s.log("setup", first, f"{COLOURS[first]} goes first")
    s.push(t_start_turn, first)
    if position is not None and not position.is_empty():
        s.push(t_position, position)


def t_position(s: State, pos) -> None:
    """Set up a scenario's position (areas listed replace their content)."""
    for a, st in pos.areas.items():
        for q in range(s.players):
            s.supply[q] += s.minions[a][q] - st.minions[q]
            s.minions[a][q] = st.minions[q]
        s.trolls[a], s.demons[a], s.trouble[a] = st.trolls, st.demons, st.trouble
        if s.building[a] != NOBODY:
            remove_building(s, a)
        if st.building is not None:
            put_building(s, st.building, a)
    for a in pos.out_of_play:
        s.city_owner[a] = REMOVED
    s.gained = set()
    for q, m in pos.money.items():
        s.money[q] = m
    s.push(t_position_trim, pos)
    s.push(t_position_events, pos)
    s.push(t_position_cards, pos)


def t_position_cards(s: State, pos) -> None:
    """Cards in front of players (loans, penalty cards), then the discard pile,
    face up from the top of the draw pile."""
    k = min(len(pos.cards_from_draw()), len(s.draw))
    if k:
        taken = tuple(s.draw[-1:-k - 1:-1])
        s.request(Reveal("player", taken), r_position_cards, pos, taken)


def r_position_cards(s: State, ids, pos, taken) -> None:
    owners = [q for q in sorted(pos.front) for _ in pos.front[q]]
    for i, (h, cid) in enumerate(zip(taken, ids)):
        reveal(s, h, cid)
        s.draw.remove(h)
        if i >= len(owners):
            s.discard.append(h)
        elif CARD[cid].get("effect") == "take_loan":
            s.loans[owners[i]].append(h)
        else:
            s.penalties[owners[i]].append(h)


def t_position_events(s: State, pos) -> None:
    k = min(len(pos.events_drawn), len(s.event_deck))
    if k:
        s.request(Reveal("event", tuple(s.event_deck[-1:-k - 1:-1])), r_position_events)


def r_position_events(s: State, ids) -> None:
    """Random events drawn before the position: face up, not carried out again."""
    for eid in ids:
        if eid not in EVENT:
            raise MalformedAction(f"unknown event {eid!r}")
        h = s.event_deck.pop()
        s.event[h] = eid
        s.events_done.append(h)


def t_position_trim(s: State, pos) -> None:
    if pos.draw_pile is not None and len(s.draw) > pos.draw_pile:
        gone = tuple(reversed(s.draw[:len(s.draw) - pos.draw_pile]))
        s.request(Reveal("player", gone), r_position_discard, gone)


def r_position_discard(s: State, ids, gone) -> None:
    discard_from_draw(s, gone, ids)


def discard_from_draw(s: State, handles, ids) -> None:
    """Cards turned face up from the draw pile onto the discard pile."""
    for h, cid in zip(handles, ids):
        reveal(s, h, cid)
        s.draw.remove(h)
        s.discard.append(h)


# --- drawing cards ---------------------------------------------------------------------------


def t_draw(s: State, p: int, k: int) -> None:
    """Draw ``k`` cards from the draw pile into ``p``'s hand (one request)."""
    k = min(k, len(s.draw))
    if k <= 0:
        return
    s.request(DealCard("player", tuple(s.draw[-1:-k - 1:-1]), p), r_drawn, p)


def r_drawn(s: State, ids, p: int) -> None:
    hand, seen, draw = s.hand[p], s.seen[p], s.draw
    for cid in ids:
        h = draw.pop()
        if cid is not None:
            learn(s, h, cid)
        hand.append(h)
        seen.add(h)
    if s.turn:
        s.log("draw", p, f"{COLOURS[p]} draws {len(ids)} ({len(draw)} left)", amount=len(ids))
    if not draw and s.turn:
        # A4: the game ends as soon as the last card of the draw pile is taken.
        end_game(s, "draw-pile")


def learn(s: State, h: int, cid: str) -> None:
    s.card[h] = cid
    s.handle_of[cid] = h


def reveal(s: State, h: int, cid: str) -> None:
    """A card shown to everybody: every seat now knows it."""
    learn(s, h, cid)
    for seen in s.seen:
        seen.add(h)


# --- the turn ----------------------------------------------------------------------------------


def t_start_turn(s: State, p: int) -> None:
    s.current = p
    s.turn += 1
    s.used = set()
    s.gained = set()
    s.played = 0
    s.last_played = None
    s.chain = None
    s.log("turn", p, f"turn {s.turn}: {COLOURS[p]}", amount=s.turn)
    s.push(t_end_turn, p)
    s.push(t_play_phase, p)
    pid = s.pers[s.personality[p]]
    if pid is None:
        opts = (("win",), ("no-win",))
    else:
        opts = (("win",),) if personality_met(s, p, pid) else (("no-win",),)
    s.ask(p, "check-win", opts, "Do you meet your personality's winning condition?",
          r_check_win, p)


def r_check_win(s: State, opt, p: int) -> None:
    if opt[0] == "win":
        h = s.personality[p]
        s.request(Reveal("personality", (h,)), r_win_revealed, p)


def r_win_revealed(s: State, ids, p: int) -> None:
    pid = ids[0]
    if not personality_met(s, p, pid):
        raise IllegalAction(f"{COLOURS[p]} claimed a win as {pid} without meeting it")
    reveal_personality(s, s.personality[p], pid)
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
    opts = [("play", h) for h in playable(s, p)]
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
        s.log("pass", p, f"{COLOURS[p]} passes")


def t_play_card(s: State, p: int, h: int) -> None:
    s.request(Reveal("player", (h,)), r_card_revealed, p, h)


def r_card_revealed(s: State, ids, p: int, h: int) -> None:
    cid = ids[0]
    if cid in INTERRUPT_KIND:
        raise IllegalAction(f"{cid} is an interrupt and cannot be played as a turn's card")
    reveal(s, h, cid)
    s.hand[p].remove(h)
    s.in_play.append(h)
    s.played += 1
    s.last_played = h
    s.log("play", p, f"{COLOURS[p]}: play {cid}", card=cid)
    s.push(t_finish_card, p, h)
    s.push(t_symbol, p, h, 0)


def t_symbol(s: State, p: int, h: int, i: int) -> None:
    symbols = CARD[s.card[h]]["symbols"]
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
        s.log("money", p, f"{COLOURS[p]} takes ${n}", amount=n)
    else:
        t_ask_symbol(s, p, h, i)


SYMBOL_PROMPTS = {
    "minion": "Place a minion",
    "building": "Build a building",
    "assassinate": "Assassinate a minion",
    "remove_trouble": "Remove a trouble marker",
    "scroll": "Carry out the card's text",
}


def t_ask_symbol(s: State, p: int, h: int, i: int) -> None:
    sym = CARD[s.card[h]]["symbols"][i]
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
        from .effects import EFFECTS
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


def do_option(s: State, p: int, opt: tuple, h: int | None = None) -> None:
    """Carry out a symbol action (also used by abilities and card texts)."""
    verb = opt[0]
    if verb == "minion":
        place_minion(s, p, opt[1], opt[2] if len(opt) > 2 else None)
    elif verb == "build":
        build(s, p, opt[1], opt[2] if len(opt) > 2 else None)
    elif verb == "assassinate":
        s.log("assassinate", p, f"{COLOURS[p]}: assassinate {AREA_IDS[opt[1]]} {who_name(opt[2])}",
              area=opt[1], who=opt[2], card=None if h is None else s.card[h])
        remove_minion(s, opt[1], opt[2], ("symbol", p))
    elif verb == "remove-trouble":
        s.trouble[opt[1]] = False
        s.log("trouble", p, f"{COLOURS[p]}: remove-trouble {AREA_IDS[opt[1]]}", area=opt[1],
              removed=True)
    elif verb == "scroll":
        from .effects import EFFECTS
        s.log("scroll", p, f"{COLOURS[p]}: scroll ({s.card[h]})", card=s.card[h])
        EFFECTS[CARD[s.card[h]]["effect"]].start(s, p, h)
    else:
        raise AssertionError(opt)


def t_ask_another(s: State, p: int, h: int) -> None:
    opts = [("play", x) for x in playable(s, p)]
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
    opts = [("play", x) for x in playable(s, p)]
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
    s.log("end", p, f"{COLOURS[p]} ends the turn" + (f" and draws {need}" if need else ""), amount=need)
    s.push(t_draw, p, need)


def play_mossy(s: State, p: int, h: int) -> None:
    s.request(Reveal("player", (h,)), r_mossy_revealed, p, h)


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
    s.log("interrupt", p, f"{COLOURS[p]}: interrupt doctor-mossy-lawn ({s.card[back]} back to hand)",
          card="doctor-mossy-lawn", back=s.card[back], stopped="end")


# --- City Area abilities ----------------------------------------------------------------------


def ability_usable(s: State, p: int, a: int) -> bool:
    """Own turn, once per turn, not the turn it was gained, no demon in the area."""
    return (s.city_owner[a] == p and s.current == p and a not in s.used
            and a not in s.gained and not s.demons[a])


def ability_options(s: State, p: int) -> list[tuple]:
    if s.current != p or s.ending or p not in s.city_owner:
        return []
    out = []
    for a in range(NUM_AREAS):
        if s.city_owner[a] != p or not ability_usable(s, p, a):
            continue
        kind = ABILITY[a]
        prm = ABILITY_PARAMS[a]
        if kind == "take_money":
            ok = True
        elif kind == "pay_to_place_minion":
            ok = s.money[p] >= prm["cost"] and bool(
                placement_options(s, p, _area_and_neighbours(prm["centre_area"] - 1)))
        elif kind == "draw_then_discard":
            ok = bool(s.draw)
        elif kind == "discard_for_money":
            ok = bool(s.hand[p])
        elif kind == "place_trouble":
            ok = bool(shades_targets(s, prm["centre_area"] - 1))
        elif kind == "pay_to_remove_trouble":
            ok = s.money[p] >= prm["cost"] and any(s.trouble)
        else:  # random_event_protection (Small Gods) is used in windows, not here
            ok = False
        if ok:
            out.append(("ability", a))
    return out


def _area_and_neighbours(c: int):
    fixed = ADJ[c] | {c}
    return lambda s: fixed


def shades_targets(s: State, c: int) -> list[int]:
    return [a for a in sorted(ADJ[c] | {c}) if s.minion_total(a) and not s.trouble[a]]


def use_ability(s: State, p: int, a: int) -> None:
    s.used.add(a)
    kind = ABILITY[a]
    prm = ABILITY_PARAMS[a]
    s.log("ability", p, f"{COLOURS[p]}: ability {AREA_IDS[a]}", area=a)
    if kind == "take_money":
        s.money[p] += prm["amount"]
    elif kind == "pay_to_place_minion":
        s.money[p] -= prm["cost"]
        ask_placement(s, p, _area_and_neighbours(prm["centre_area"] - 1),
                      f"{AREA_IDS[a]}: place a minion")
    elif kind == "draw_then_discard":
        s.push(t_discard_one, p, "Unreal Estate: discard a card")
        s.push(t_draw, p, 1)
    elif kind == "discard_for_money":
        s.push(t_gain, p, prm["amount"])
        s.push(t_discard_one, p, "The Scours: discard a card for $2")
    elif kind == "place_trouble":
        s.ask(p, "area", [("area", x) for x in shades_targets(s, prm["centre_area"] - 1)],
              "The Shades: place a trouble marker", r_place_trouble, p)
    elif kind == "pay_to_remove_trouble":
        s.money[p] -= prm["cost"]
        s.ask(p, "area", [("area", x) for x in range(NUM_AREAS) if s.trouble[x]],
              "Isle of Gods: remove a trouble marker", r_remove_trouble, p)


def r_place_trouble(s: State, opt, p: int) -> None:
    s.trouble[opt[1]] = True
    s.log("trouble", p, f"{COLOURS[p]}: trouble {AREA_IDS[opt[1]]}", area=opt[1])


def r_remove_trouble(s: State, opt, p: int) -> None:
    s.trouble[opt[1]] = False
    s.log("trouble", p, f"{COLOURS[p]}: remove-trouble {AREA_IDS[opt[1]]}", area=opt[1], removed=True)


def t_gain(s: State, p: int, n: int) -> None:
    s.money[p] += n
    s.log("money", p, f"{COLOURS[p]} takes ${n}", amount=n)


def t_discard_one(s: State, p: int, prompt: str) -> None:
    """``p`` discards one card of their choice from hand (face up: revealed)."""
    if not s.hand[p]:
        return
    s.ask(p, "discard", [("discard", h) for h in s.hand[p]], prompt, r_discard, p)


def r_discard(s: State, opt, p: int) -> None:
    discard_card(s, p, opt[1])


def discard_card(s: State, p: int, h: int) -> None:
    s.request(Reveal("player", (h,)), r_discard_revealed, p, h)


def r_discard_revealed(s: State, ids, p: int, h: int) -> None:
    reveal(s, h, ids[0])
    s.hand[p].remove(h)
    s.discard.append(h)
    s.log("discard", p, f"{COLOURS[p]}: discard {ids[0]}", card=ids[0])


# --- placing, building, removing, moving ---------------------------------------------------------


def placement_options(s: State, p: int, allowed) -> list[tuple]:
    """``("minion", to)``, or ``("minion", to, from)`` when all 12 minions are on
    the board: A5, the minion comes off first (the area it leaves loses its
    trouble) and the destination is computed after, never the area it left."""
    if s.supply[p] > 0:
        return [("minion", a) for a in sorted(allowed(s))]
    out = []
    for f in s.own_areas(p):
        s.minions[f][p] -= 1
        to = allowed(s) - {f}
        s.minions[f][p] += 1
        out += [("minion", a, f) for a in sorted(to)]
    return out


def ask_placement(s: State, p: int, allowed, prompt: str, trouble: bool = True) -> None:
    opts = placement_options(s, p, allowed)
    if opts:
        s.ask(p, "place", opts, prompt, r_place, p, trouble)


def r_place(s: State, opt, p: int, trouble: bool) -> None:
    place_minion(s, p, opt[1], opt[2] if len(opt) > 2 else None, trouble)


def place_minion(s: State, p: int, a: int, f: int | None = None, trouble: bool = True) -> None:
    if f is not None:
        s.minions[f][p] -= 1
        s.supply[p] += 1
        s.trouble[f] = False
        s.log("minion", p, f"{COLOURS[p]}: minion {AREA_IDS[a]} from {AREA_IDS[f]}", area=a, source=f)
    else:
        s.log("minion", p, f"{COLOURS[p]}: minion {AREA_IDS[a]}", area=a)
    s.supply[p] -= 1
    arrive(s, a, p, trouble)


def arrive(s: State, a: int, who, trouble: bool = True) -> None:
    """A minion (a seat's, a troll or a demon) arrives in area ``a``: trouble if the
    area already held a minion; a demon always brings trouble."""
    occupied = s.minion_total(a) > 0
    if who == TROLL:
        s.trolls[a] += 1
    elif who == DEMON:
        s.demons[a] += 1
        occupied = True
    else:
        s.minions[a][who] += 1
    if trouble and occupied:
        s.trouble[a] = True


def depart(s: State, a: int, who) -> None:
    if who == TROLL:
        s.trolls[a] -= 1
    elif who == DEMON:
        s.demons[a] -= 1
    else:
        s.minions[a][who] -= 1
    s.trouble[a] = False


def build_options(s: State, p: int, factor: float = 1) -> list[tuple]:
    cands = [a for a in range(NUM_AREAS)
             if s.minions[a][p] and s.building[a] == NOBODY and not s.trouble[a]
             and s.money[p] >= int(COST[a] * factor)]
    if s.buildings_left[p] > 0:
        return [("build", a) for a in cands]
    own = s.buildings_on_board(p)
    return [("build", a, f) for a in cands for f in own]


def build(s: State, p: int, a: int, f: int | None = None, factor: float = 1) -> None:
    if f is not None:
        remove_building(s, f)
    cost = int(COST[a] * factor)
    s.money[p] -= cost
    put_building(s, p, a)
    s.log("build", p, f"{COLOURS[p]}: build {AREA_IDS[a]}" + (f" from {AREA_IDS[f]}" if f is not None else "")
          + f" (${cost})", area=a, source=f, amount=cost)


def put_building(s: State, p: int, a: int) -> None:
    s.building[a] = p
    s.buildings_left[p] -= 1
    if s.city_owner[a] != REMOVED:
        s.city_owner[a] = p
        s.gained.add(a)


def remove_building(s: State, a: int) -> None:
    p = s.building[a]
    s.building[a] = NOBODY
    s.buildings_left[p] += 1
    if s.city_owner[a] != REMOVED:
        s.city_owner[a] = NOBODY


def assassination_options(s: State, p: int, exclude=None) -> list[tuple]:
    out = []
    for a in range(NUM_AREAS):
        if not s.trouble[a]:
            continue
        out += [("assassinate", a, w) for w in targets_in(s, a, exclude=p)]
    return out


def targets_in(s: State, a: int, exclude=None) -> list:
    """Minions in ``a`` by owner: seats (but ``exclude``), then troll, demon."""
    row = s.minions[a]
    out: list = [q for q in range(s.players) if row[q] and q != exclude]
    if s.trolls[a]:
        out.append(TROLL)
    if s.demons[a]:
        out.append(DEMON)
    return out


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
            and not (q == s.current and SMALL_GODS in s.gained))


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
        s.log("small-gods", q, f"{COLOURS[q]}: small-gods ($3)", amount=3, stopped=kind)
        return
    h = opt[1]
    s.request(Reveal("player", (h,)), r_guard_revealed, q, kind, cause, h)


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


# --- random events --------------------------------------------------------------------------------


def t_event(s: State, p: int) -> None:
    if not s.event_deck:
        return  # A28: nothing happens when the event deck is empty
    s.request(Reveal("event", (s.event_deck[-1],)), r_event_revealed, p)


def r_event_revealed(s: State, ids, p: int) -> None:
    eid = ids[0]
    if eid not in EVENT:
        raise MalformedAction(f"unknown event {eid!r}")
    h = s.event_deck.pop()
    s.event[h] = eid
    s.events_done.append(h)
    s.log("event", p, f"event {eid}", event=eid)
    from .events import EVENT_HANDLERS
    EVENT_HANDLERS[eid](s, p)


# --- personalities, end of game, scoring -------------------------------------------------------


def personality_progress(s: State, p: int, pid: str) -> tuple[int, int | None]:
    """``(have, need)`` toward personality ``pid``'s win, for ``p``.  Commander
    Vimes has no threshold: ``have`` is then the cards left in the draw pile."""
    cond = PERSONALITY[pid]["condition"]
    need = PERSONALITY[pid]["thresholds"].get(s.players)
    if cond == "minion_presence":
        have = sum(1 for a in range(NUM_AREAS) if s.minions[a][p] and not s.demons[a])
    elif cond == "area_control":
        have = sum(1 for a in range(NUM_AREAS) if s.controls(p, a))
    elif cond == "trouble_markers_on_board":
        have = s.trouble_count()
    elif cond == "net_worth":
        have = net_worth(s, p)
    else:
        return len(s.draw), None
    return have, need


def personality_met(s: State, p: int, pid: str) -> bool:
    """The start-of-turn win check for personality ``pid`` held by ``p``
    (Commander Vimes wins only when the draw pile runs out)."""
    have, need = personality_progress(s, p, pid)
    return need is not None and have >= need


def net_worth(s: State, p: int) -> int:
    """Chrysoprase: cash + building costs (0 where a demon is) - $12 per loan."""
    worth = s.money[p] - LOAN_REPAY * len(s.loans[p])
    worth += sum(COST[a] for a in range(NUM_AREAS) if s.building[a] == p and not s.demons[a])
    return worth


def score(s: State, p: int) -> int:
    """Points: 5 a minion, a building its cost (nothing in a demon area), $1 a
    point after loans; A15: each loan is repaid with $12 while possible, else -15."""
    return sum(score_parts(s, p))


def score_parts(s: State, p: int) -> tuple[int, int, int, int]:
    """``score`` by source: minions, buildings, money, loans (repaid or -15 each)."""
    minions = buildings = 0
    for a in range(NUM_AREAS):
        if not s.demons[a]:
            minions += 5 * s.minions[a][p]
            if s.building[a] == p:
                buildings += COST[a]
    cash = s.money[p]
    return minions, buildings, cash, after_loans(cash, len(s.loans[p])) - cash


def after_loans(cash: int, loans: int) -> int:
    """Points left from ``cash`` once ``loans`` are settled (A15): each repaid
    with $12 while possible, else -15 points."""
    penalty = 0
    for _ in range(loans):
        if cash >= LOAN_REPAY:
            cash -= LOAN_REPAY
        else:
            penalty += LOAN_PENALTY
    return cash - penalty


def best_city_card(s: State, p: int) -> int:
    """A16: the tie-break looks only at City Area cards actually held."""
    return max((COST[a] for a in range(NUM_AREAS) if s.city_owner[a] == p), default=0)


def end_game(s: State, detail: str) -> None:
    """The game ends now (``draw-pile`` or ``riots``): forget pending work, reveal
    every personality, then decide."""
    s.stack.clear()
    s.chain = None
    s.ending = True
    s.discard += s.in_play  # cards left mid-resolution are done with
    s.in_play.clear()
    s.push(t_final_reveal, detail, None)
    s.log("game-end", None, f"the game ends ({detail})", reason=detail)


def reveal_personality(s: State, h: int, pid: str) -> None:
    s.pers[h] = pid
    for seen in s.pers_seen:
        seen.add(h)


def t_final_reveal(s: State, detail: str, winner) -> None:
    hidden = tuple(s.personality[p] for p in range(s.players)
                   if not all(s.personality[p] in seen for seen in s.pers_seen))
    if hidden:
        s.request(Reveal("personality", hidden), r_final_revealed, detail, winner, hidden)
    else:
        r_final_revealed(s, (), detail, winner, ())


def r_final_revealed(s: State, ids, detail: str, winner, hidden) -> None:
    for h, pid in zip(hidden, ids):
        reveal_personality(s, h, pid)
    pers = tuple(s.pers[s.personality[p]] for p in range(s.players))
    scores = tuple(score(s, p) for p in range(s.players))
    if detail == "personality":
        s.outcome = Outcome((winner,), "personality", pers[winner], None, pers)
        return
    if detail == "draw-pile" and "commander-vimes" in pers:
        w = pers.index("commander-vimes")
        s.outcome = Outcome((w,), "vimes", "commander-vimes", scores, pers)
        s.log("win", w, f"{COLOURS[w]} is Commander Vimes and wins", personality="commander-vimes")
        return
    top = max(scores)
    tied = [p for p in range(s.players) if scores[p] == top]
    if len(tied) > 1:
        best = max(best_city_card(s, p) for p in tied)
        tied = [p for p in tied if best_city_card(s, p) == best]
    s.outcome = Outcome(tuple(tied), "points", detail, scores, pers)
    s.log("win", tied[0], " and ".join(COLOURS[p] for p in tied) + (" win" if len(tied) > 1 else " wins") + f" on points ({top})",
          winners=tuple(tied), amount=top)


# Importing the tables registers them (they import this module's helpers).
from . import effects as _effects  # noqa: E402,F401
from . import events as _events  # noqa: E402,F401
