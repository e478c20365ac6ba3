"""What the screens say of what happened: harm marked as harm and nothing
else, no gap in the log, sentences a French reader reads as French."""
from __future__ import annotations

import re

import pytest

from ankh.core.game import Event
from ankh.tui import i18n
from ankh.tui.session import GameSession
from ankh.tui.games.morpork.words import describe, hits

from . import scenarios


def played(record: str) -> GameSession:
    """The game of ``record``, run on to its next decision."""
    session = GameSession.from_text(record)
    session.next()
    return session


def events(session: GameSession, kind: str) -> list[Event]:
    return [e for e in session.log if e.kind == kind]


def test_money_taken_from_you_hits_you_and_money_given_to_you_does_not():
    # Red's Nobby Nobbs takes $3 from yellow.
    session = played(scenarios.CARD_TARGET + "red: target yellow\n")
    (paid,) = events(session, "pay")
    assert (paid.seat, paid.data["target"]) == (1, 0)
    assert hits(paid, 1)                                   # yellow: taken
    assert not hits(paid, 0)                               # red: given to you


def test_what_you_pay_by_your_own_card_does_not_hit_you():
    # Red's Hobson's Livery Stable: red gives $2 to yellow, then moves a minion of red's.
    record = scenarios.RED_HOLDS.format(card="hobsons-livery-stable") + (
        "red: play hobsons-livery-stable\nred: scroll\nred: target yellow\n")
    session = played(record)
    (paid,) = events(session, "pay")
    assert paid.seat == 0 and paid.data["target"] == 1
    assert not hits(paid, 0) and not hits(paid, 1)


def test_a_payment_you_chose_instead_of_harm_does_not_hit_you():
    # Yellow's Fire Brigade threatens red's buildings; red chooses to pay $5.
    record = scenarios.THREE.format(first="yellow") + """\
hand yellow: the-fire-brigade groat hex the-royal-mint nobby-nobbs
area the-hippo: red building=red

yellow: play the-fire-brigade
yellow: scroll
yellow: target red
"""
    session = GameSession.from_text(record)
    nxt = session.next()
    while nxt.decision is not None and nxt.decision.kind == "window":
        session.choose(("pass",), nxt.decision)
        nxt = session.next()
    assert ("pay", 5) in nxt.decision.options, nxt.decision
    session.choose(("pay", 5), nxt.decision)
    session.next()
    (paid,) = events(session, "pay")
    assert paid.seat == 0 and not hits(paid, 0)


def test_cards_taken_from_you_hit_you_and_cards_given_to_you_do_not():
    # Red's Queen Molly: yellow must give red two cards of yellow's choice.
    session = played(scenarios.GIVE_TWO + "red: target yellow\n")
    while (nxt := session.next()).kind == "bot":
        session.apply_bot(nxt, session.think_job(nxt)())
    given = events(session, "give")
    assert given and all(e.seat == 1 and e.data["target"] == 0 for e in given)
    assert all(hits(e, 1) for e in given)
    assert not any(hits(e, 0) for e in given)


def test_money_from_a_city_area_card_is_in_the_log():
    """The Hippo's card gives $2; Isle of Gods costs $2: the log says how much."""
    record = scenarios.THREE.format(first="red") + """\
hand red: groat hex the-royal-mint nobby-nobbs modo
area the-hippo: red building=red

red: play groat
red: minion the-hippo
"""
    session = played(record)
    assert ("ability", 5) in session.next().decision.options
    before = session.game.state.money[0]
    session.choose(("ability", 5), session.next().decision)
    session.next()
    (used,) = events(session, "ability")
    gained = session.game.state.money[0] - before
    assert gained > 0
    assert describe(used, 0) == f"You used the City Area card The Hippo and took ${gained} from the bank."
    isle = Event("ability", 1, "yellow: ability isle-of-gods", {"area": 9})
    assert describe(isle, 0) == "Yellow paid $2 to use the City Area card Isle of Gods."


def test_cards_the_reader_was_not_shown_are_counted_not_listed():
    took = Event("take", 1, "yellow takes ?, ?, ?, ? from the discard pile", {"handles": (3, 9, 14, 20)})
    assert describe(took, 0) == "Yellow took 4 cards from the discard pile."


def test_a_penalty_card_you_took_stays_in_front_of_you():
    took = Event("penalty", 0, "red takes mr-pin-and-mr-tulip", {"card": "mr-pin-and-mr-tulip"})
    assert describe(took, 0) == "You took Mr Pin & Mr Tulip instead of paying: it stays in front of you."
    assert describe(took, 1).endswith("it stays in front of them.")


@pytest.mark.parametrize("lang, area, words", [
    ("fr", 11, "Rouge a placé un Agent à Mont-Roupillon."),
    ("fr", 4, "Rouge a placé un Agent aux Décapes."),
    ("fr", 1, "Rouge a placé un Agent sur le Terrain Forcier."),
    ("en", 11, "Red placed a minion in Nap Hill."),
])
def test_each_area_is_said_with_its_own_preposition(lang, area, words):
    i18n.set_language(lang)
    assert describe(Event("minion", 0, "", {"area": area}), 1) == words


def test_french_contracts_de_le_before_a_name_with_its_article():
    i18n.set_language("fr")
    line = describe(Event("scroll", 0, "", {"card": "the-ankh-morpork-sunshine-dragon-sanctuary"}), 1)
    assert "du Sanctuaire" in line and "de Le" not in line


@pytest.mark.parametrize("lang, mine, theirs", [
    ("en", "You drew 3 cards.", "Yellow drew 1 card."),
    ("fr", "Vous avez pioché 3 cartes.", "Jaune a pioché 1 carte."),
])
def test_your_own_draw_is_said_to_you(lang, mine, theirs):
    i18n.set_language(lang)
    assert describe(Event("draw", 0, "", {"amount": 3}), 0) == mine
    assert describe(Event("draw", 1, "", {"amount": 1}), 0) == theirs


@pytest.mark.parametrize("event, words", [
    (Event("play", 0, "", {"card": "groat"}), "Vous avez joué Groat."),
    (Event("pay", 0, "", {"target": 2, "amount": 2}), "Vous avez payé $2 à vert."),
    (Event("minion", 0, "", {"area": 4}), "Vous avez placé un Agent aux Décapes."),
    (Event("build", 0, "", {"area": 11, "amount": 12}), "Vous avez construit à Mont-Roupillon pour $12."),
    (Event("take", 0, "", {"handles": (3, 9)}), "Vous avez pris 2 cartes dans la défausse."),
    (Event("building-lost", 1, "", {"by": 0, "area": 4}), "Vous avez retiré le Bâtiment jaune aux Décapes."),
    (Event("interrupt", 0, "", {"card": "gaspode", "stopped": "text"}),
     "Vous avez joué Gaspode : le texte de la carte ne vous affecte pas."),
])
def test_your_own_actions_are_said_to_you_in_french_as_french_says_them(event, words):
    """Not « Rouge (vous) a joué… »: « Vous avez joué… »."""
    i18n.set_language("fr")
    assert describe(event, event.data.get("by", event.seat)) == words


def test_no_sentence_of_a_whole_game_makes_the_reader_a_third_person_in_french():
    """Every line of a four-player game's log, as each seat reads it: « (vous) »
    names the reader only as an object (« Jaune a payé $2 à rouge (vous). »)."""
    i18n.set_language("fr")
    session = GameSession.new(4, 0, 3, "random", seed=3, save=False)
    while (nxt := session.next()).kind != "over":
        if nxt.kind == "bot":
            session.apply_bot(nxt, session.think_job(nxt)())
        else:                                   # red, here a person: the first option each time
            session.choose(nxt.decision.options[0], nxt.decision)
    lines = [describe(e, seat) for e in session.log for seat in range(4)]
    assert len(lines) > 400 and any(line.startswith("Vous avez ") for line in lines)
    subjects = [line for line in lines if re.match(r"\S+ \(vous\) ", line)]
    assert subjects == []


def test_bot_levels_are_named_in_the_players_language():
    from ankh.tui.bots import bot_label
    i18n.set_language("fr")
    assert bot_label("search") == "difficile"


# Red's Fire Brigade on yellow (a bot with $2: it can only refuse to pay).
FIRE_BRIGADE = scenarios.THREE.format(first="red") + """\
seats: red=person yellow=bot:random green=bot:random
money yellow: 2
hand red: the-fire-brigade groat hex the-royal-mint nobby-nobbs
area the-hippo: yellow building=yellow
area dimwell: yellow building=yellow

red: play the-fire-brigade
red: scroll
"""


def test_a_bots_forced_answer_does_not_stop_you_taking_your_choice_back():
    session = GameSession.from_text(FIRE_BRIGADE)
    nxt = session.next()                      # yellow could only refuse to pay: red picks the building
    assert nxt.kind == "person" and nxt.decision.prompt == "Remove which of yellow's buildings?", nxt
    assert session.can_undo()
    session.undo()
    assert ("scroll",) in session.next().decision.options


def test_a_refused_take_back_says_what_became_known():
    session = GameSession.from_text(scenarios.MRS_CAKE)
    session.next()
    d = session.next().decision
    session.choose(d.options[0], d)                        # Mrs Cake: draws, shows personalities
    session.next()
    assert not session.can_undo()
    why = session.undo_refusal()
    assert why.startswith("Since your last choice: ") and "cannot be taken back" in why
    assert "new information came" not in why


async def test_a_city_area_card_gained_this_turn_says_why_it_is_not_offered_yet():
    """Red builds in The Hippo with The Opera House: at the end of the turn
    red's Dimwell card is offered, The Hippo's is not, and the question says why."""
    from textual.widgets import Static
    from ankh.tui.app import AnkhApp
    from .helpers import settle
    record = scenarios.THREE.format(first="red") + """\
money red: 20
hand red: the-opera-house groat hex nobby-nobbs modo
area the-hippo: red
area dimwell: red building=red

red: play the-opera-house
red: build the-hippo
red: skip
"""
    for lang, words in (("en", "The Hippo: City Area card gained this turn, usable from your next turn."),
                        ("fr", "L'Hippo : carte Quartier gagnée ce tour-ci, utilisable à partir de votre "
                               "prochain tour.")):
        i18n.set_language(lang)
        app = AnkhApp(GameSession.from_text(record), bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            view = app.screen.view
            assert 5 in view.seats[0].city_cards
            assert "ability dimwell" in view.option_texts and "ability the-hippo" not in view.option_texts
            question = str(app.screen.query_one("#question", Static).content)
            assert words in question, question


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_nothing_paid_by_a_seat_with_no_money_is_told_as_such_and_hits_nobody(lang):
    """Mr Boggis took $2 from each other player, and yellow, with none, was
    said to have "paid green $0" (and red, with none, was told "! You paid
    green $0." as harm)."""
    i18n.set_language(lang)
    nothing = Event("pay", 0, "red pays $0 to green", {"target": 2, "amount": 0})
    assert not hits(nothing, 0)
    for viewer in (0, 1):
        said = describe(nothing, viewer)
        assert "$0" not in said and "0 $" not in said, said
    assert describe(nothing, 0) == i18n._("You had no money to pay {target}.").format(target=i18n._("green"))
    assert hits(Event("pay", 0, "red pays $2 to green", {"target": 2, "amount": 2}), 0)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_assassination_gaspode_stopped_is_not_told_as_done(lang):
    """Red's Gaspode stopped yellow's assassination in The Shades, and the log
    and the summary still said "Yellow assassinated your minion in The Shades.":
    the attempt is told as an attempt, the removal (when it happens) on its own."""
    i18n.set_language(lang)
    session = played(scenarios.INTERRUPT_WINDOW + "red: interrupt gaspode\n")
    view = session.view(0)
    assert view.area("the-shades").minions[0] == 1                     # red's minion is still there
    (attempt,) = events(session, "assassinate")
    assert not events(session, "removed")
    for viewer in (0, 1, 2):
        said = describe(attempt, viewer).lower()
        assert i18n._("assassinated").lower() not in said and "assassiné" not in said, said
