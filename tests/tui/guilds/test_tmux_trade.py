"""A trade between two real ``ankh`` programs at a networked table, in
real 80×24 terminals (tmux): the host composes the offer once in the
composer (two kinds on one side), the guest opens theirs (``t``) and sees
it with what it would leave them, accepts, the host deals, and both
screens and a spectator's (``ankh watch``) tell the same trade and the
same cards after it."""
from __future__ import annotations

import re
import time
import uuid
from itertools import combinations

from ..terminal import Terminal
from ..test_tmux_lan import ankh_in_tmux, ready_and_compare_fingerprints
from .test_tmux_lan import GAME, open_guild_table

KINDS = ("brick", "lumber", "wool", "grain", "ore", "parchments")
PHASE_C = ("Trade, build, or end your turn.", " End your turn")   # the prompt, or its first option


def deciding(term: Terminal) -> bool:
    return "⏎ Choose" in term.screen().splitlines()[-1]


def grid(screen: str) -> dict[str, dict[str, int]]:
    """The composer's counts by kind: what you hold, and what the partner (the last column) holds."""
    rows = {}
    for line in screen.splitlines():
        cells = line.replace("│", " ").replace("▶", " ").replace("◀", " ").split()
        if cells and cells[0] in KINDS and len(cells) >= 6:
            rows[cells[0]] = {"hold": int(cells[3]), "theirs": int(cells[-1])}
    return rows


def current_row(screen: str) -> int:
    """The kind the composer's arrows change now (marked ▶)."""
    for line in screen.splitlines():
        cells = line.replace("│", " ").split()
        if len(cells) > 1 and cells[0] == "▶" and cells[1] in KINDS:
            return KINDS.index(cells[1])
    raise AssertionError(screen)


def one(kind: str) -> str:
    """A kind as one card is named (``1 parchment``)."""
    return "parchment" if kind == "parchments" else kind


def composition(rows) -> tuple[list[str], list[str]] | None:
    """Cards of two kinds on one side: one card each of two kinds you hold (parchments
    are a kind) for one card of a third the partner holds; or one card of yours for one
    of each of two kinds the partner holds."""
    mine = [k for k in KINDS if rows[k]["hold"] >= 1]
    theirs = [k for k in KINDS if rows[k]["theirs"] >= 1]
    for give in combinations(mine, 2):
        want = [k for k in theirs if k not in give]
        if want:
            return list(give), want[:1]
    for one_kind in mine:
        want = [k for k in theirs if k != one_kind]
        if len(want) >= 2:
            return [one_kind], want[:2]
    return None


def trade_line(term: Terminal) -> str:
    """The line telling the trade, as this screen's composer tells it."""
    screen = term.wait_for(" to G green for ", timeout=20)
    line = next(line for line in screen.splitlines() if " to G green for " in line)
    return " ".join(line.strip("│ ").split())


def cards_held(screen: str, seat: str) -> tuple[int, int]:
    """A seat's cards and parchments, as the players panel counts them."""
    found = re.search(seat + r" .*?(\d+) cards? · (\d+) parch", screen)
    assert found, screen
    return int(found[1]), int(found[2])


def test_a_multi_kind_trade_composed_once_and_dealt_between_two_programs(tmp_path):
    title = f"Host{uuid.uuid4().hex[:6]}"
    host = ankh_in_tmux(tmp_path / "a", tmp_path / "a.status", name=title)
    terms = [host]
    watchers: list[Terminal] = []                         # (a spectator never decides)
    try:
        port = open_guild_table(host)
        guest = ankh_in_tmux(tmp_path / "b", tmp_path / "b.status", "join", f"127.0.0.1:{port}")
        terms.append(guest)
        guest.wait_for(f"The table  ·  {GAME}", "not ready", timeout=20)
        host.wait_for("not ready")
        ready_and_compare_fingerprints(host, guest)
        guest.keys("C-r")
        host.keys("C-r")
        for term in terms:
            term.wait_for("Assassins at large", "Setting up", timeout=60)
        watcher = ankh_in_tmux(tmp_path / "c", tmp_path / "c.status", "watch", f"127.0.0.1:{port}")
        watchers.append(watcher)
        watcher.wait_for("Assassins at large", timeout=30)

        deadline = time.monotonic() + 300
        offered = None
        looked: list[str] = []                            # the composers that had nothing to offer
        while offered is None:
            over = any("The game is over" in t.screen() for t in terms)
            assert not over and time.monotonic() < deadline, "\n\n".join(looked[-3:] + [t.screen() for t in terms])
            for term in terms:
                if not deciding(term):
                    continue
                time.sleep(0.6)                           # the key guard: as a person reads
                if term is host and any(said in term.screen() for said in PHASE_C):
                    host.keys("t", "p", "p")              # the composer, the guest as partner (the bot is yellow)
                    screen = host.wait_for("You hold", "Partner (p): G green")
                    offered = composition(grid(screen))
                    if offered is None:
                        looked.append(screen)
                        host.keys("Escape")               # nothing to offer yet: end the turn
                        time.sleep(0.3)
                    else:
                        break
                term.keys("Enter")
            time.sleep(0.2)

        give, want = offered
        row = current_row(host.screen())
        for kind, key in [(k, "Left") for k in give] + [(k, "Right") for k in want]:
            target = KINDS.index(kind)
            host.keys(*["Down"] * ((target - row) % len(KINDS)), key)
            row = target
        cards = " + ".join(f"1 {one(k)}" for k in give)
        asked = " + ".join(f"1 {one(k)}" for k in want)
        sentence = f"{cards} for {asked} to G green"
        host.wait_for(sentence)
        host.keys("Enter")                                # sent, once
        guest.wait_for("t: the offer in the trade composer", timeout=30)
        time.sleep(0.6)
        guest.keys("t")
        screen = guest.wait_for("Offers made to you", "leaves you")    # the offer, and what it would leave
        assert f"gives {cards} for your {asked}" in screen, screen
        time.sleep(0.6)
        guest.keys("a")                                   # accept
        host.wait_for("Offers made to you", "1–9 deal", timeout=30)
        time.sleep(0.6)
        host.keys("1")                                    # deal with green
        watcher.keys("l")                                 # the spectator's log
        lines = {trade_line(t) for t in terms + watchers}
        assert len(lines) == 1, lines                     # the same trade on both screens and the spectator's
        line = next(iter(lines))
        assert all(one(k) in line for k in give + want), line
        # what each holds after it, the same on both screens (each sees the other's public counts)
        mine, theirs = grid(host.screen()), grid(guest.screen())
        assert {k: r["hold"] for k, r in mine.items()} == {k: r["theirs"] for k, r in theirs.items()}
        assert {k: r["theirs"] for k, r in mine.items()} == {k: r["hold"] for k, r in theirs.items()}
        watcher.keys("p")                                 # and the spectator counts the same cards
        seen = watcher.wait_for("R red", "G green", " parch.")      # the players panel, not the log
        for seat, rows in (("R red", {k: r["hold"] for k, r in mine.items()}),
                           ("G green", {k: r["theirs"] for k, r in mine.items()})):
            assert cards_held(seen, seat) == (sum(rows[k] for k in KINDS[:5]), rows["parchments"]), seen
    finally:
        for term in terms + watchers:
            term.close()
