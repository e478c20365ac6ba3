"""The table's players: what everyone may see of each seat, and your own
secret personality with its progress towards the win."""
from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ankh.tui.i18n import _
from ankh.tui.games.morpork.text import (
    PERSONALITY, SEAT_STYLE, short_area, card_name, personality_name, win_condition, progress, seat_tag,
)
from ankh.core.morpork.catalog import AREAS


class Players(Widget):
    """One block per seat: money, pieces left, City Area cards, loans,
    penalty cards, hand size."""

    DEFAULT_CSS = """
    Players { height: auto; }
    """

    view = reactive(None, layout=True)

    def render(self) -> Text:
        view = self.view
        out = Text(no_wrap=True, overflow="ellipsis")
        if view is None:
            return out
        for i, s in enumerate(view.seats):
            if i:
                out.append("\n")
            turn = s.seat == view.current and view.outcome is None
            out.append("▶ " if turn else "  ", style="bold")
            out.append_text(seat_tag(s.seat))
            if s.seat == view.viewer:
                out.append(" " + _("(you)"), style="bold")
            out.append(f"  ${s.money}", style="bold")
            out.append("  " + _("hand {n}").format(n=s.hand_size))
            out.append("\n    " + _("left: {minions} minions, {buildings} buildings").format(
                minions=s.minions_left, buildings=s.buildings_left))
            extras = []
            if s.city_cards:
                extras.append(Text(_("cards: {names}").format(
                    names=", ".join(short_area(AREAS[a]["id"]) for a in s.city_cards)), style="dim"))
            if s.loans:
                extras.append(Text(_("loans: {names}").format(names=", ".join(card_name(c) for c in s.loans)),
                                   style="dim"))
            if s.penalties:
                extras.append(Text(_("penalty: {names}").format(
                    names=", ".join(card_name(c) for c in s.penalties)), style="dim"))
            if s.personality and s.seat != view.viewer:
                extras.append(Text(_("is {personality}").format(personality=personality_name(s.personality)),
                                   style=SEAT_STYLE[s.seat]))
            if s.known_hand and s.seat != view.viewer:
                extras.append(Text(_("you know they hold: {cards}").format(
                    cards=", ".join(card_name(c) for c in s.known_hand)), style="italic"))
            for e in extras:
                out.append("\n    ")
                out.append_text(e)
        return out


class You(Widget):
    """Your secret personality, what it needs, and how far you are."""

    DEFAULT_CSS = """
    You { height: auto; }
    """

    view = reactive(None, layout=True)

    def render(self) -> Text:
        view = self.view
        out = Text()
        if view is None or view.viewer is None:
            return out
        pid = view.personality
        out.append_text(seat_tag(view.viewer))
        out.append(" " + _("(you) secretly") + " ")
        out.append(personality_name(pid), style="bold reverse")
        short, long = progress(view)
        if long:
            out.append("\n" + long, style="bold")
        if pid in PERSONALITY:
            out.append("\n" + win_condition(pid), style="italic")
        if view.unused_seen:
            out.append("\n" + _("Unused personalities you have seen: {names}.").format(
                names=", ".join(personality_name(x) for x in view.unused_seen)), style="bold")
        return out
