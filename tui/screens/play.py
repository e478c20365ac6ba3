"""What every game's screen does the same way: drive a local session (the
bots think in a worker and answer at a human pace, or at once after Skip),
guard keys after others' moves, hand the keyboard over between people at one
keyboard, take back a choice, leave the game.

A game's screen subclasses :class:`PlayScreen` and says how it shows things
(:meth:`PlayScreen.show`, called after every change), how its options take
the keys (:meth:`PlayScreen.focus_decision`) and what its end screen is
(:meth:`PlayScreen.show_results`).  The session may be a networked one
(``ankh.tui.netplay``): the table then moves on its own and the screen
follows it, chat comes as notices (``c`` answers), the table fingerprint can
be shown again, and leaving closes the seat's link.

Textual calls the ``on_mount``/``on_key`` handlers of every class of the
screen, this one's too: a subclass adds to them and never calls them itself.
"""
from __future__ import annotations

import time
from functools import partial

from textual import on, work
from textual.binding import Binding
from textual.message import Message
from rich.text import Text
from textual.screen import Screen

from ankh.core.game import Decision
from ankh.tui.i18n import _, Localised, NP_
from ankh.tui.session import Next, Session


class HintReady(Message):
    """The hard bot weighed the options of ``next`` for a hint: ``rated``, best first."""

    def __init__(self, next: Next, rated: list[tuple[tuple, float]]) -> None:
        super().__init__()
        self.next = next
        self.rated = rated


class BotDecided(Message):
    """A bot has thought out its answer to ``next``."""

    def __init__(self, token: int, next: Next, option: tuple) -> None:
        super().__init__()
        self.token = token
        self.next = next
        self.option = option


class PlayScreen(Localised, Screen):
    # A new decision that follows others' moves ignores answering keys for
    # this long (and as long again after each such key meanwhile, but never
    # past KEY_GUARD_TIMES guards from the first: keys pressed on and on, a
    # person's or a script's, are not shut out for ever).
    KEY_GUARD = 0.5
    KEY_GUARD_TIMES = 4
    # Keys that could answer a decision (the others only look around).
    ANSWERING = frozenset({"enter", "space", "u", *"0123456789"})

    BINDINGS = [
        Binding("u", "undo", NP_("key", "Undo")),
        Binding("space", "skip", NP_("key", "Skip"), key_display="␣"),
        Binding("question_mark", "app.help", NP_("key", "Help"), key_display="?"),
        Binding("f1", "app.help", show=False),
        Binding("q", "leave", NP_("key", "Quit")),
        Binding("c", "chat", NP_("key", "Chat"), show=False),
        Binding("e", "end_table", NP_("key", "End table")),
        Binding("i", "hint", NP_("key", "Hint"), show=False),   # (the palette offers it: the footer is full)
    ]

    def __init__(self, session: Session, bot_delay: float = 0.0) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self._token = 0
        self._next: Next | None = None
        self._ended = False
        self._fast = False
        self._handing_over = False
        self._guard_until = 0.0
        self._guard_ends = 0.0      # the guard is never held past this
        self._others_moved = False
        self._pump_queued = False   # a networked table moved: a pump is on its way
        self._chat_told = len(session.chat_lines)
        self._shown_decision: tuple | None = None    # (decision, log length) last shown
        self._offered: tuple | None = None           # the keys the footer last showed (refresh_bindings)
        self._keys_due = False                       # the footer's keys are to be looked at once drawn
        self.told: Text | None = None                # (80×24) what was said, in the prompt for a while
        self._told_timer = None

    # --- what is said at your decision ------------------------------------------------------------

    def notify(self, message: str, *, title: str = "", severity="information", timeout: float | None = None,
               markup: bool = True) -> None:
        """A notice; at 80×24 where :meth:`tells_in_prompt`, said in the prompt for a
        while instead (a notice there would cover the right end of the options)."""
        if not (self.is_current and self.tells_in_prompt()):
            super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
            return
        told = Text.from_markup(message) if markup else Text(message)
        if title:   # (French sets a space before the colon)
            told = Text.assemble((_("{title}:").format(title=title) + " ", "bold"), told)
        told.stylize("bold yellow" if severity != "information" else "italic")
        self.told = told
        if self._told_timer is not None:
            self._told_timer.stop()
        self._told_timer = self.set_timer(timeout or self.app.NOTIFICATION_TIMEOUT, self._untell)
        self.show_told()

    def _untell(self) -> None:
        self.told, self._told_timer = None, None
        self.show_told()

    def tells_in_prompt(self) -> bool:
        """Whether what is said goes into the prompt (:meth:`show_told`): at 80×24, at
        your decision."""
        return (getattr(self, "mode", "") == "compact" and self._next is not None and self._next.kind == "person"
                and not self._handing_over)

    def show_told(self) -> None:
        """Show :attr:`told` (None: no longer) in the prompt; the game's screen says where."""

    # --- the table (a networked game) ------------------------------------------------------------

    @property
    def fingerprint(self) -> str | None:
        """A networked table's fingerprint (the same on every screen of the table)."""
        return self.session.fingerprint

    def table_status(self) -> tuple[str, str]:
        """A networked table's alert (a link down, the result, an error) and
        note (whom it waits for, the audit); both empty in a local game."""
        return self.session.net_alert, self.session.net_note

    def action_fingerprint(self) -> None:
        from ankh.tui.screens.dialogs import Shown
        if self.fingerprint:
            self.app.push_screen(Shown(_("Table fingerprint"), self.fingerprint,
                                       _("Every screen at this table shows the same words: read them aloud "
                                         "to compare.")))

    def action_end_table(self) -> None:
        """A networked game a seat left for good: agree to end it now (the
        table ends once most of the seats still there agree)."""
        if self.session.can_end_table:
            self.session.end_table()
            self.notify(_("You agreed to end the table; it ends when most of the seats still there agree."),
                        timeout=5)

    def table_commands(self):
        """The command palette's entries every game screen has: the table's
        fingerprint, taking back a choice, a hint."""
        from textual.app import SystemCommand
        if self.fingerprint:
            yield SystemCommand(_("Table fingerprint"), _("Show it again, to compare with the other screens"),
                                self.action_fingerprint)
        if self.check_action("undo", ()):
            yield SystemCommand(_("Undo"), _("Take back your last choice (or hear why not)"), self.action_undo)
        if self.check_action("hint", ()):
            yield SystemCommand(_("Hint (i)"), _("The hard bot's best choices here, with their chances"),
                                self.action_hint)

    def action_hint(self) -> None:
        """A local game: the hard bot's best choices at this decision, with their
        estimated chances, weighed from this seat's knowledge in a worker."""
        nxt = self._next
        job = self.session.hint_job(nxt) if nxt is not None and not self._handing_over else None
        if job is None:
            self.notify(_("No hint here: there is nothing to weigh."), timeout=4)
            return
        self.notify(_("The hard bot weighs your options…"), timeout=3)
        self._weigh(job, nxt)

    @work(thread=True, exclusive=True, group="hint")
    def _weigh(self, job, nxt: Next) -> None:
        self.post_message(HintReady(nxt, job()))

    @on(HintReady)
    def _hint_ready(self, msg: HintReady) -> None:
        if self._next != msg.next or not msg.rated:
            return   # the game moved on meanwhile
        from ankh.tui.games import ui
        from ankh.tui.screens.dialogs import Shown
        words = ui(self.session.rules.id).option_words
        view = self.session.view(msg.next.seat)
        lines = [f"{n}. {words(view, option)}  ({round(100 * chance)} %)"
                 for n, (option, chance) in enumerate(msg.rated, 1)]
        self.app.push_screen(Shown(_("Hint: the hard bot's best choices here"), "\n".join(lines),
                                   _("Each with its estimated chance to win, weighed from what you have "
                                     "seen (the cards hidden from you dealt again in each world)."),
                                   plain=True))

    def _tell_notices(self) -> None:
        """What a networked game must say once, at length (the host left: the game is paused)."""
        notices = self.session.notices
        while notices:   # (at length, for long: a notice even at your decision at 80×24)
            self.app.notify(notices.pop(0), severity="warning", timeout=30)

    def action_chat(self) -> None:
        """A networked game: say something to the table."""
        from ankh.tui.screens.lobby import ChatDialog
        if self.session.networked and not self.session.spectating:
            say = self.session.say
            self.app.push_screen(ChatDialog(), lambda line: say(line) if line and line.strip() else None)

    def _tell_chat(self) -> None:
        lines = self.session.chat_lines
        if not self.is_current:
            return  # told once you are back from the help or a dialog
        from ankh.tui.seats import colour
        for seat, name, said in lines[self._chat_told:]:
            if seat != self.session.viewer:  # plain text: a peer's markup is shown as it was typed
                title = _("Chat") if self.session.spectating else _("Chat (c to answer)")
                self.app.notify(f"{colour(seat)} ({name}): {said}", title=title, timeout=8, markup=False)
        self._chat_told = len(lines)

    # --- driving ----------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.session.watch(self._table_moved)  # (a networked table moves on its own)
        self.pump()

    def on_unmount(self) -> None:
        self.session.unwatch(self._table_moved)

    def _table_moved(self) -> None:
        if not self._pump_queued:
            self._pump_queued = True
            self.call_later(self._pump_from_table)

    def _pump_from_table(self) -> None:
        self._pump_queued = False
        if self.is_attached:
            self.pump()

    def pump(self) -> None:
        """Run the game until a person or a bot must decide, then show it."""
        self._token += 1
        before = len(self.session.log)
        nxt = self.session.next()
        while nxt.kind == "bot" and (self.bot_delay <= 0 or self._fast):
            self.session.apply_bot(nxt, self.session.think_job(nxt)())
            nxt = self.session.next()
        self.session.save()
        if len(self.session.log) != before or nxt.kind == "bot":
            self._others_moved = True
        self._next = nxt
        if nxt.kind == "person" and nxt.seat != self.session.viewer:
            self._hand_over(nxt.seat)
        if nxt.kind != "bot":
            self._fast = False
        if nxt.kind == "person" and self._others_moved:
            self.guard_keys()
            self._others_moved = False
        self.show()
        self.refresh_bindings()
        if nxt.kind == "bot":
            self.set_timer(self.bot_delay, partial(self._think, self._token))
        elif nxt.kind == "over" and not self._ended:
            self._ended = True
            self.show_results()

    def _think(self, token: int) -> None:
        if token != self._token or self._next is None or self._next.kind != "bot":
            return
        self._run_bot(self.session.think_job(self._next), token, self._next)

    @work(thread=True, exclusive=True, group="bots")
    def _run_bot(self, job, token: int, nxt: Next) -> None:
        self.post_message(BotDecided(token, nxt, job()))

    @on(BotDecided)
    def _bot_decided(self, msg: BotDecided) -> None:
        if msg.token != self._token:
            return
        self.session.apply_bot(msg.next, msg.option)
        self.pump()

    def choose(self, option: tuple) -> bool:
        """A person's answer to the decision shown, and the game on from there (False:
        ignored, see :meth:`answer`)."""
        if not self.answer(option):
            return False
        self.pump()
        return True

    def answer(self, option: tuple) -> bool:
        """Hand the session a person's answer to the decision shown (False: ignored, the
        key guard holds, nothing is pending, or the session waits for another decision
        now: a networked table may have moved on before this screen heard of it)."""
        if self._handing_over or self.guarded() or self._next is None or self._next.kind != "person":
            return False
        if self.told is not None:   # said of the decision answered now
            self._told_timer.stop()
            self._untell()
        return self.session.choose(option, self._next.decision)

    def decision_is_new(self, decision: Decision | None) -> bool:
        """Whether ``decision``, about to be shown, was not shown last (the same
        options may come again later in the game: the log's length tells them apart)."""
        shown = (decision, len(self.session.log))
        new = decision is not None and shown != self._shown_decision
        self._shown_decision = shown
        return new

    def show(self) -> None:
        """Show the game as it stands (the subclass's)."""

    def focus_decision(self) -> None:
        """Give the options of the decision shown the keys (the subclass's)."""

    def show_results(self) -> None:
        """The end screen (the subclass's)."""

    # --- keys -------------------------------------------------------------------------------------

    def refresh_bindings(self) -> None:
        """Have the footer show the keys again, if what it offers changed, once the
        screen is drawn.  Each move asks (a key may come or go with it), and so does
        the focus a decision gives its options, one after the other; the footer
        builds every key anew when told: told at every move of a game, that was
        most of what the screen did, and told twice a decision, much of the rest."""
        if not self.is_mounted:
            super().refresh_bindings()
            return
        if not self._keys_due:
            self._keys_due = True
            self.call_after_refresh(self._offer_keys)

    def _offer_keys(self) -> None:
        self._keys_due = False
        if not self.is_attached:
            return
        palette = self.app.COMMAND_PALETTE_BINDING    # (the footer shows it apart)
        offered = (self.app.app_focus, tuple((key, b.binding.action, b.binding.description, b.enabled, b.tooltip)
                                             for key, b in self.active_bindings.items()
                                             if b.binding.show or key == palette))
        if offered != self._offered:
            self._offered = offered
            super().refresh_bindings()

    def guard_keys(self) -> None:
        """The decision shown is new: hold off answering keys for a moment."""
        now = time.monotonic()
        self._guard_until = now + self.KEY_GUARD
        self._guard_ends = now + self.KEY_GUARD_TIMES * self.KEY_GUARD

    def guarded(self) -> bool:
        return time.monotonic() < self._guard_until

    def on_key(self, event) -> None:
        if self._next is None or self._next.kind != "person" or event.key not in self.ANSWERING:
            return
        now = time.monotonic()
        if now < self._guard_until:
            self._guard_until = min(now + self.KEY_GUARD, self._guard_ends)
            event.stop()
            event.prevent_default()

    def _hand_over(self, seat: int) -> None:
        """Several people at one keyboard: hide the table until the next one is there."""
        from ankh.tui.screens.dialogs import HandOver

        def done(_=None) -> None:
            self.session.viewer = seat
            self._handing_over = False
            self.show()
            self.focus_decision()

        self._handing_over = True
        self.app.clear_notifications()
        self.app.push_screen(HandOver(seat), done)

    def action_undo(self) -> None:
        if not self.session.can_undo():
            self.notify(self.session.undo_refusal(), title=_("Cannot take back"), timeout=5)
            return
        self.session.undo()
        self.notify(_("Took back your last choice."), timeout=2)
        self.pump()

    def action_skip(self) -> None:
        """Let the bots play on at once until your next decision."""
        if self._next is None or self._next.kind != "bot" or self._fast:
            return
        self._fast = True
        self.pump()

    def action_leave(self) -> None:
        """Ask first; a finished game is left at once."""
        from ankh.tui.screens.dialogs import Confirm
        if self.session.over:
            self.leave()
            return
        if self.session.networked and not self.session.spectating:
            question = (_("Leave the table? The others are told the game is paused.") if self.session.hosting
                        else _("Leave the table? The others wait for you.")) + " " + self.session.come_back()
        elif self.session.path:
            question = _("Leave this game? It is saved as {name}: you can load it later.").format(
                name=self.session.path.name)
        else:
            question = _("Leave this game? It is not saved.")
        self.app.push_screen(Confirm(question, _("Leave"), _("Stay")),
                             lambda yes: self.leave() if yes else None)

    def leave(self) -> None:
        self._token += 1  # forget any bot still thinking
        if self.session.networked:  # a networked seat: its link, closed
            self.run_worker(self.session.close(), exclusive=False)
        if self.session.path:
            told = _("Left the game. It is saved as {name}.").format(name=self.session.path.name)
        else:
            told = _("Left the game.")
        self.app.notify(told, timeout=4)
        self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "skip":
            return self._next is not None and self._next.kind == "bot" and self.bot_delay > 0
        if action == "end_table":   # a seat left for good: the others may end the table
            return self.session.can_end_table
        if action == "chat":   # a word to the table: a seat at a networked one (spectators read)
            return self.session.networked and not self.session.spectating
        if action == "hint":   # a local game, at a person's decision
            return (not self.session.networked and self._next is not None and self._next.kind == "person"
                    and not self._handing_over)
        if action == "undo":   # every move at a networked table is final; a spectator has none
            return not (self.session.over or self.session.networked or self.session.spectating)
        return True
