"""The trade composer at 80×24: a multi-kind offer composed with keys and
sent, the answers as they come, the deal; the offers made to you with what
each would leave you (accept, decline, counter); a bank trade at your rates
from the same dialog; and the offer sent as one choice, the screen waiting
for the table's next decision as at a networked table."""
from __future__ import annotations

import pytest

from ankh.core.guilds.board import KINDS
from ankh.tui.app import AnkhApp
from ankh.tui.games.guilds.screens import GameScreen
from ankh.tui.games.guilds.trade import Composer
from ankh.tui.session import GameSession, Next

from ..helpers import footer_keys
from .test_screens import screen_text, until

K = {k: i for i, k in enumerate(KINDS)}

# Red to play; the dice are fixed at 6+6 (12: the Palace, where nobody has a
# house).  Red holds bricks and wool, yellow ore, green lumber.
POSITION = """\
game: guilds
players: 3
seed: 11
seats: red=person yellow={yellow} green={green}
rolls: 6+6
turn: red
houses red: V10 V30
houses yellow: V22 V24
houses green: V27 V36
hand red: 5 brick 1 wool 2 grain
hand yellow: 2 ore 1 wool 1 grain
hand green: 1 lumber 1 ore
"""


def position(yellow: str = "bot:heuristic", green: str = "bot:heuristic") -> str:
    return POSITION.format(yellow=yellow, green=green)


@pytest.fixture(autouse=True)
def no_key_guard(monkeypatch):
    monkeypatch.setattr(GameScreen, "KEY_GUARD", 0.0)


def game(app) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


def deciding(app) -> bool:
    """A decision of yours is up (under the composer or not)."""
    return any(isinstance(s, GameScreen) for s in app.screen_stack) and game(app).decision() is not None


def composer(app) -> Composer:
    assert isinstance(app.screen, Composer), app.screen
    return app.screen


async def at_the_composer(pilot, *keys: str) -> None:
    """At your decision, the composer opened (``t``), then ``keys``."""
    await until(pilot, lambda: deciding(pilot.app))
    await pilot.press("t", *keys)
    await pilot.pause()


async def set_counts(pilot, counts: dict[str, int]) -> None:
    """From a fresh composer: each kind's count by keys (< 0: give, > 0: ask for)."""
    c = composer(pilot.app)
    for kind, n in counts.items():
        while c.row != K[kind]:
            await pilot.press("down")
        await pilot.press(*(["left"] * -n if n < 0 else ["right"] * n))
    await pilot.pause()


async def test_a_bank_trade_from_the_composer_at_your_rates():
    session = GameSession.from_text(position())
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_composer(pilot)
        c = composer(app)
        assert "4:1" in screen_text(app)                  # your rates, beside the counts
        await pilot.press("p")                            # everybody, yellow, ...
        assert "Partner (p): Y yellow" in screen_text(app)   # the seat's letter, as everywhere (it said "yellow")
        await pilot.press("p", "p")                       # ... green, the bank
        assert c.partner == "bank"
        await set_counts(pilot, {"brick": -1, "ore": 1})  # one step gives your rate: 4 bricks
        assert c.give()[K["brick"]] == 4 and c.get()[K["ore"]] == 1
        assert "4 brick to the bank for 1 ore" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: deciding(app) and c.sent is None)
        assert session.game.state.hand(0) == [1, 0, 1, 2, 1]
        assert isinstance(app.screen, Composer)           # still open, with the trade told
        assert "red trades 4 brick with the bank for 1 ore." in screen_text(app)   # as the option says it


class SlowTable(GameSession):
    """A table that applies a choice later, as a networked one does once the
    other seats have it: ``choose`` only sends; ``deliver`` applies it and
    tells the screen the table moved."""

    networked = True

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sent: list[tuple] = []
        self.held: tuple | None = None
        self.listeners: list = []

    def watch(self, listener) -> None:
        self.listeners.append(listener)

    def unwatch(self, listener) -> None:
        self.listeners.remove(listener)

    def next(self) -> Next:
        return Next("wait") if self.held is not None else super().next()

    def choose(self, option: tuple, asked) -> bool:
        if self.held is not None or asked != self.game.state.pending:
            return False
        self.sent.append(option)
        self.held = option
        return True

    def deliver(self) -> None:
        option, self.held = self.held, None
        self.game.choose(option)
        for listener in list(self.listeners):
            listener()


def slow_table(text: str) -> SlowTable:
    plain = GameSession.from_text(text)
    return SlowTable(plain.game, plain.bots)


async def test_a_bank_trade_is_sent_once_and_the_screen_waits_for_the_table():
    session = slow_table(position())
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_composer(pilot, "p", "p", "p")
        await set_counts(pilot, {"brick": -1, "ore": 1})
        await pilot.press("enter")
        await pilot.pause()
        assert session.sent == [("bank", K["brick"], K["ore"])]
        assert game(app).decision() is None                       # nothing assumed: the table has it
        assert session.game.state.hand(0) == [5, 0, 1, 2, 0]
        assert "Waiting for" in screen_text(app)
        await pilot.press("enter")                                # nothing more goes out meanwhile
        assert len(session.sent) == 1
        session.deliver()
        await until(pilot, lambda: deciding(app))
        assert session.game.state.hand(0) == [1, 0, 1, 2, 1]
        assert "Waiting for" not in screen_text(app)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_composer_fits_80x24_in_both_languages(lang):
    from ankh.tui import i18n
    i18n.set_language(lang)
    session = GameSession.from_text(position())
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        await pilot.press("t", "p")                       # yellow: what yellow holds shows too
        await set_counts(pilot, {"brick": -2, "wool": -1, "ore": 1})
        lines = screen_text(app).splitlines()
        box = [i for i, line in enumerate(lines) if line.startswith(("╭", "╰"))]
        assert len(box) == 2, lines                       # the whole box, top and bottom, on screen
        inside = lines[box[0]:box[1] + 1]
        assert all(line.endswith(("╮", "│", "╯")) for line in inside), inside   # no line runs out of it
        words = {"en": ("You give", "You get", "You hold", "After", "yellow", "parchments",
                        "2 brick + 1 wool for 1 ore to Y yellow", "Esc close"),
                 "fr": ("Vous donnez", "Vous recevez", "Vous avez", "Après", "jaune", "parchemins",
                        "2 argile + 1 laine contre 1 minerai à J jaune", "Échap ferme")}[lang]
        text = "\n".join(inside)
        for w in words:
            assert w in text, (w, text)
        hints = [line for line in inside if "Esc close" in line or "Échap ferme" in line]
        assert len(hints) == 1 and "↑↓" in hints[0]       # the keys on one line


async def hand_over(pilot, seat: int) -> None:
    """Several people at one keyboard: the next one takes it."""
    from ankh.tui.screens.dialogs import HandOver
    await until(pilot, lambda: isinstance(pilot.app.screen, HandOver))
    assert pilot.app.screen.seat == seat
    await pilot.press("enter")
    await until(pilot, lambda: deciding(pilot.app) and game(pilot.app).session.viewer == seat)


@pytest.mark.parametrize("answer", ["accept", "decline", "counter"])
async def test_an_offer_made_to_you_shows_what_it_would_leave_you(answer):
    session = GameSession.from_text(position(yellow="person"))
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        await pilot.press("t", "p")                                  # to yellow
        await set_counts(pilot, {"brick": -2, "ore": 1})
        await pilot.press("enter")
        await hand_over(pilot, 1)
        assert game(app).decision().kind == "answer"
        assert "t: the offer in the trade composer" in screen_text(app)
        await pilot.press("t")
        await pilot.pause()
        c = composer(app)
        text = screen_text(app)
        # yellow holds 2 ore 1 wool 1 grain: taking the offer leaves 2 brick, 1 ore
        assert "red gives 2 brick for your 1 ore" in text, text
        assert "leaves you: brick 2  lumber 0  wool 1  grain 1  ore 1  parchments 0" in text, text
        assert c.give()[K["ore"]] == 1 and c.get()[K["brick"]] == 2     # a counter starts from the offer
        if answer == "accept":
            await pilot.press("a")
        elif answer == "decline":
            await pilot.press("d")
        else:
            await pilot.press(*["down"] * ((K["grain"] - c.row) % 6), "left")  # 1 ore and 1 grain
            assert c.give() == (0, 0, 0, 1, 1, 0) and c.get() == (2, 0, 0, 0, 0, 0)
            await pilot.press("enter")
        if answer == "decline":
            await hand_over(pilot, 0)                                 # red's turn goes on
            assert game(app).decision().kind == "action"
            assert session.game.state.hand(0) == [5, 0, 1, 2, 0]
            assert any(e.kind == "answer" and "declines" in e.text for e in session.log)
            return
        await hand_over(pilot, 0)
        assert game(app).decision().kind == "deal"
        await pilot.press("t")
        await pilot.pause()
        text = screen_text(app)
        g = 1 if answer == "counter" else 0
        assert f"yellow gives {'1 grain + ' * g}1 ore for your 2 brick" in text, text
        assert f"leaves you: brick 3  lumber 0  wool 1  grain {2 + g}  ore 1  parchments 0" in text, text
        await pilot.press("1")                                          # deal with yellow
        await until(pilot, lambda: deciding(app) and game(app).decision().kind == "action")
        assert session.game.state.hand(0) == [3, 0, 1, 2 + g, 1]
        assert session.game.state.hand(1) == [2, 0, 1, 1 - g, 1]
        assert "red gives 2 brick to Y yellow for" in screen_text(app)   # told in the composer


async def test_an_offer_goes_out_as_one_choice_and_the_screen_waits_for_the_table():
    session = slow_table(position())
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        await pilot.press("t", "p")                                   # to yellow
        await set_counts(pilot, {"brick": -2, "wool": -1, "ore": 1})
        await pilot.press("enter")
        await pilot.pause()
        assert session.sent == [("offer", "2b1w", "1o", 1)]         # the whole offer, once
        assert game(app).decision() is None and "Waiting for" in screen_text(app)
        assert session.game.state.trade is None                      # nothing assumed: the table has it
        await pilot.press("enter", "a", "1")                         # nothing more goes out meanwhile
        assert len(session.sent) == 1
        session.deliver()                                              # the table applies it
        await until(pilot, lambda: session.game.state.trade is not None or deciding(app))
        assert len(session.sent) == 1
        assert any(e.kind == "offer" for e in session.log)
        offer = next(e for e in session.log if e.kind == "offer")
        assert offer.data["give"] == [2, 0, 1, 0, 0, 0] and offer.data["want"] == [0, 0, 0, 0, 1, 0]


async def test_a_multi_kind_offer_to_the_bots_their_answers_and_a_deal():
    session = GameSession.from_text(position())
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_composer(pilot)
        await set_counts(pilot, {"brick": -2, "wool": -1, "ore": 1})     # to everybody
        assert "Enter offers 2 brick + 1 wool for 1 ore to everybody." in screen_text(app)
        assert "Send" in footer_keys(app)
        await pilot.press("enter")
        await until(pilot, lambda: deciding(app) and game(app).decision().kind == "deal")
        await pilot.pause()
        assert "Send" not in footer_keys(app)                            # a deal is made with 1-9, or x
        text = screen_text(app)
        # the answers as they came, each seat's own terms, with what each would leave red
        assert "red offers 2 brick + 1 wool for 1 ore to everybody." in text, text
        assert "yellow counters: gives 1 wool for 1 grain." in text, text
        assert "green counters: gives 1 lumber for 2 grain." in text, text
        assert "1 Y yellow gives 1 wool for your 1 grain" in text, text
        assert "leaves you: brick 5  lumber 0  wool 2  grain 1  ore 0  parchments 0" in text, text
        assert "2 G green gives 1 lumber for your 2 grain" in text, text
        assert "leaves you: brick 5  lumber 1  wool 1  grain 0  ore 0  parchments 0" in text, text
        await pilot.press("2")                                            # deal with green
        await until(pilot, lambda: deciding(app) and game(app).decision().kind == "action")
        assert session.game.state.hand(0) == [5, 1, 1, 0, 0]
        assert session.game.state.hand(2) == [0, 0, 0, 2, 1]
        assert "red gives 2 grain to G green for 1 lumber." in screen_text(app)
        assert not any(composer(app).delta)                              # the counts start afresh


async def test_why_a_count_goes_no_further_is_a_line_of_the_composer_while_it_holds():
    """It was a notice for three seconds at the top right, easy to miss."""
    session = GameSession.from_text(position())
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_composer(pilot)
        await set_counts(pilot, {"ore": 2})                 # yellow holds two, green one
        said = "Nobody you ask holds more ore."

        def box() -> str:
            lines = screen_text(app).splitlines()
            edges = [i for i, line in enumerate(lines) if line.startswith(("╭", "╰"))]
            return "\n".join(lines[edges[0]:edges[1] + 1])
        assert said not in box()
        await pilot.press("right")                          # a third: nobody holds it
        await pilot.pause()
        assert composer(app).get()[K["ore"]] == 2
        assert said in box() and not len(app._notifications)
        await pilot.press("up", "down")                     # said of the last push, not of another kind
        await pilot.pause()
        assert said not in box()
        await pilot.press("right")
        await pilot.pause()
        assert said in box()
        await pilot.press("left")                           # one fewer: it holds no longer
        await pilot.pause()
        assert said not in box() and composer(app).get()[K["ore"]] == 1


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_closing_the_composer_while_the_bots_decide_offers_no_choice(size):
    """The footer showed "⏎ Choose" when the composer was closed while a bot
    answered the offer (at 120×40; at 80×24 the hand panel took the keys):
    Textual gave the keys to the screen's first widget as the dialog closed."""
    session = GameSession.from_text(position())
    app = AnkhApp(session, bot_delay=60)                # the bots are still deciding throughout
    async with app.run_test(size=size) as pilot:
        await at_the_composer(pilot)
        await set_counts(pilot, {"brick": -2, "ore": 1})
        await pilot.press("enter")
        await until(pilot, lambda: game(app)._next is not None and game(app)._next.kind == "bot")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.pause()
        footer = "".join(segment.text for segment in app.screen._compositor.render_strips()[-1])
        assert game(app).decision() is None
        assert "⏎" not in footer and app.screen.focused is None, (footer, app.screen.focused)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_composers_columns_are_whole_at_80_columns_with_the_bank(lang):
    """In French the bank's column was cut (« la banqu », its 18 cards read
    1) and « Vous recevez » lost its first word."""
    from ankh.tui import i18n
    from ankh.tui.seats import colour
    i18n.set_language(lang)
    try:
        session = GameSession.from_text(position())
        app = AnkhApp(session, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await at_the_composer(pilot, "p", "p", "p")
            assert composer(app).partner == "bank"
            text = screen_text(app)
            headings = [i18n._(w) for w in ("Kind", "You give", "You get", "You hold", "After", "Rate")]
            assert all(h in text for h in headings), text
            assert i18n._("the bank") in text
            bank = session.game.state.bank
            for k, kind in enumerate(KINDS[:5]):
                row = next(line for line in text.splitlines() if f" {i18n.pgettext('resource', kind)} " in line)
                assert row.rstrip(" │").endswith(f" {bank[k]}"), row
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang, asked", [("en", "Y yellow offers 1 ore for 1 brick. Your answer?"),
                                         ("fr", "J jaune propose 1 minerai contre 1 argile. Votre réponse ?")])
def test_the_question_of_an_offer_made_to_you_begins_with_a_capital(lang, asked):
    """« jaune propose … Votre réponse ? » began a sentence in lower case."""
    from ankh.core.guilds.offers import offer_option
    from ankh.tui import i18n
    from ankh.tui.games.guilds.text import prompt_text
    i18n.set_language(lang)
    try:
        session = GameSession.from_text(position().replace("turn: red", "turn: yellow"))
        while (nxt := session.next()).kind == "bot":
            if session.game.state.pending.kind == "action":     # yellow offers 1 ore for 1 brick to red
                session.apply_bot(nxt, offer_option((0, 0, 0, 0, 1, 0), (1, 0, 0, 0, 0, 0), 0))
            else:
                session.apply_bot(nxt, session.think_job(nxt)())
        d = session.next().decision
        assert d is not None and d.kind == "answer", d
        assert prompt_text(session.view(), d) == asked
    finally:
        i18n.set_language("en")


async def test_the_composer_says_why_no_offer_goes_out_once_the_offers_of_a_turn_are_made():
    """After the turn's last offer the composer said "Wait for your turn to
    decide." on your own turn (and so at a 7 or a guild point it cannot trade)."""
    from ankh.core.guilds.trading import MAX_OFFERS
    session = GameSession.from_text(position())
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_composer(pilot)
        for _ in range(MAX_OFFERS):
            await set_counts(pilot, {"brick": -1, "ore": 1})
            await pilot.press("enter")
            await until(pilot, lambda: deciding(app) and game(app).decision().kind in ("deal", "action"))
            if game(app).decision().kind == "deal":
                await pilot.press("x")                    # nobody's answer taken: the offer is cancelled
                await until(pilot, lambda: deciding(app) and game(app).decision().kind == "action")
            await pilot.pause()
        assert session.game.state.offers == MAX_OFFERS
        await set_counts(pilot, {"brick": -1, "ore": 1})
        text = screen_text(app)
        assert "No more offers to the players this turn; the bank still trades (p)." in text, text
        assert "Wait for your turn" not in text


async def test_at_the_bank_a_count_that_stops_short_of_your_cards_says_your_rate():
    """Red holds 1 wool at 4:1: it said "You hold no more wool to give." of the wool it holds."""
    session = GameSession.from_text(position())
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_composer(pilot, "p", "p", "p")       # the bank
        await set_counts(pilot, {"wool": -1})
        assert composer(app).give()[K["wool"]] == 0
        text = screen_text(app)
        assert "Your rate for wool is 4:1; you hold 1." in text and "no more wool" not in text, text
        await set_counts(pilot, {"lumber": -1})           # none held: that is why
        assert "You hold no more lumber to give." in screen_text(app)


async def test_the_counts_you_set_come_back_when_the_partner_goes_round_past_the_bank():
    """A partner's bounds cut what the counts show, not what you set: past a
    seat that holds one ore and past the bank (where one wool is no whole
    rate), everybody gets the offer you composed."""
    app = AnkhApp(GameSession.from_text(position()), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_composer(pilot)
        c = composer(app)
        await set_counts(pilot, {"brick": -1, "wool": -1, "ore": 2})
        assert (c.give(), c.get()) == ((1, 0, 1, 0, 0, 0), (0, 0, 0, 0, 2, 0))
        await pilot.press("p", "p")                                 # yellow (2 ore), green (1 ore)
        assert c.partner == 2 and c.get()[K["ore"]] == 1
        await pilot.press("p")                                      # the bank
        assert c.partner == "bank" and c.give()[K["wool"]] == 0
        await pilot.press("p")                                      # everybody again
        assert c.partner is None
        assert (c.give(), c.get()) == ((1, 0, 1, 0, 0, 0), (0, 0, 0, 0, 2, 0))
        assert "Enter offers 1 brick + 1 wool for 2 ore to everybody." in screen_text(app)


async def test_after_a_deal_the_options_under_the_composer_are_the_turn_s_again():
    """The composer covers the top of the options at 80×24; the rows below it
    showed the deal's options ("Trade with yellow", "Cancel") after the deal
    was done, until the composer closed."""
    app = AnkhApp(GameSession.from_text(position()), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_composer(pilot)
        await set_counts(pilot, {"brick": -2, "wool": -1, "ore": 1})
        await pilot.press("enter")
        await until(pilot, lambda: deciding(app) and game(app).decision().kind == "deal")
        await pilot.pause()
        assert "3 Cancel" in screen_text(app)
        await pilot.press("2")                                            # deal with green
        await until(pilot, lambda: deciding(app) and game(app).decision().kind == "action")
        for _ in range(3):
            await pilot.pause()
        text = screen_text(app)
        below = text.split("╰", 1)[1]                                     # under the composer
        assert "Cancel" not in below and "Trade with" not in below, below
        assert "End your turn" in below, below


async def test_the_counts_start_afresh_once_an_offer_you_accepted_is_dealt():
    """Yellow's offer to everybody, accepted from the composer: once yellow deals
    with red, red's counts start afresh, as after a trade red offered (they
    kept the offer's terms, 2 ore to get from a yellow that held none)."""
    text = ("game: guilds\nplayers: 3\nseed: 11\nseats: red=person yellow=bot:heuristic green=bot:heuristic\n"
            "rolls: 6+6 6+6 6+6\nturn: yellow\nvillas red: V24\nhouses green: V31\nhouses yellow: V09\n"
            "hand yellow: 1 grain 1 ore 2 brick 3 wool\nhand red: 1 grain 2 ore 1 lumber\nreceipts yellow: 2\n")
    session = GameSession.from_text(text)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        assert game(app).decision().kind == "answer" and session.game.state.trade[0] == 1
        await pilot.press("t")
        await pilot.pause()
        c = composer(app)
        assert any(c.delta)                                   # the offer's terms, from red's side
        await pilot.press("a")
        await until(pilot, lambda: any(e.kind == "trade" for e in session.log))
        for _ in range(3):
            await pilot.pause()
        assert [e.data["other"] for e in session.log if e.kind == "trade"] == [0]
        assert session.game.state.trade is None                   # (green, who holds nothing, offers nothing)
        assert isinstance(app.screen, Composer) and not any(c.delta), c.delta


async def test_once_you_answered_the_composer_does_not_say_enter_offers_while_the_others_decide():
    """Red accepts yellow's offer from the composer; while yellow deals, the
    composer said "Enter offers 1 grain for 1 brick to Y yellow", which
    Enter did not do."""
    text = ("game: guilds\nplayers: 3\nseed: 11\nseats: red=person yellow=bot:heuristic green=bot:heuristic\n"
            "rolls: 6+6\nturn: yellow\nvillas red: V24\nhouses green: V31\nhouses yellow: V09\n"
            "hand yellow: 1 grain 1 ore 2 brick 3 wool\nhand red: 1 grain 2 ore 1 lumber\nhand green: 1 wool\n"
            "yellow: roll\nyellow: offer 1 brick for 1 grain to red\n")
    session = GameSession.from_text(text)
    app = AnkhApp(session, bot_delay=60)                      # yellow takes its time to deal
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app))
        assert game(app).decision().kind == "answer"
        await pilot.press("t")
        await pilot.pause()
        assert "Enter accepts: you give 1 grain for 1 brick." in screen_text(app)
        await pilot.press("a")
        await until(pilot, lambda: any(e.kind == "answer" and e.seat == 0 for e in session.log))
        await pilot.pause()
        text = screen_text(app)
        assert game(app).decision() is None and "Enter offers" not in text, text
        assert "Wait for your turn to decide." in text, text


async def test_the_log_shown_under_the_composer_ends_on_the_deal_once_it_closes():
    """At 80×24 with the log in view (l), a trade dealt in the composer: once
    it closes, the log shows its last line, the deal (it stopped at the answers)."""
    turns = "".join(f"{seat}: roll\n{seat}: end\n" for seat in ("yellow", "green", "red") * 2 + ("yellow", "green"))
    text = position().replace("rolls: 6+6", "rolls:" + " 6+6" * 9).replace("turn: red", "turn: yellow") + turns
    session = GameSession.from_text(text)
    app = AnkhApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: deciding(app) and game(app).decision().kind == "action")
        await pilot.press("l")
        await at_the_composer(pilot)
        await set_counts(pilot, {"brick": -2, "wool": -1, "ore": 1})
        await pilot.press("enter")
        await until(pilot, lambda: deciding(app) and game(app).decision().kind == "deal")
        await pilot.press("2")                                            # deal with green
        await until(pilot, lambda: deciding(app) and game(app).decision().kind == "action")
        await pilot.press("escape")
        for _ in range(3):
            await pilot.pause()
        box = game(app).query_one("#log")
        assert box.max_scroll_y > 0                                       # a log longer than its panel
        assert box.scroll_y == box.max_scroll_y
        assert "red gives 2 grain to G green for 1 lumber." in screen_text(app)
