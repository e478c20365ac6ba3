"""The end-of-game audit of a game with steals: each victim discloses its
steals' shuffle scalars and orders (never a slot's key), so that the rules,
replayed with every card known, know every stolen and reshuffled card under
its new handle from the steal on.  A lie about such a card (a pass while
holding a stolen card the rules would have had played) is named after the
audit, by every seat, spectator and ``ankh verify``; a victim whose
disclosure is not the shuffle it proved is named too."""
from __future__ import annotations

from typing import Any

import pytest

from ankh.net.play.peer import _EndOfLog, _Seeing, illegal_move
from ankh.net.files.transcript import Transcript
from ankh.net.files.verify import verify_transcript

from tests import tinygame

from .nethelp import decode, resign
from .star import Star, star_peers
from .test_steal_blame import spectator_of
from .test_tinygame import bots

tinygame.install()
CHEAT = 1


def played(seed: int, cheat: bool = False) -> tuple[Star, list[tuple[int, bool]]]:
    """A tiny game of three.  With ``cheat``, seat 1 forgets the cards under the
    handles a steal gave it (its own engine offers it a pass then) and passes
    whenever it may: ``lies`` says, for each pass, whether it held a card the
    rules would have had it play."""
    star = Star(star_peers(3, seed=b"steal-audit-%d" % seed, kind="tiny"))
    players = bots(3, seed)
    lies: list[tuple[int, bool]] = []
    if cheat:
        engine = star.peers[CHEAT].engine
        honest_options = type(engine).options

        def forgetful(seat: int) -> tuple:
            if seat != CHEAT:
                return honest_options(engine, seat)
            saved = dict(engine.card)
            engine.card.update((h, None) for h in engine.hands[seat] if h >= len(tinygame.CARDS))
            try:
                return honest_options(engine, seat)
            finally:
                engine.card.update(saved)

        engine.options = forgetful

        honest_bot = players[CHEAT]

        class Passer:
            def choose(self, state: Any, decision: Any) -> tuple:
                if ("pass",) in decision.options:
                    lies.append((star.peers[CHEAT].moves, ("pass",) not in honest_options(state, CHEAT)))
                    return ("pass",)
                return honest_bot.choose(state, decision)

        players[CHEAT] = Passer()
    star.play(players)
    return star, lies


def test_the_audit_knows_every_card_a_steal_moved_as_its_holder_knew_it() -> None:
    seen = 0
    for seed in range(6):
        star, _ = played(seed)
        audits = [p.audit for p in star.peers]
        assert all(a is not None and a.fair for a in audits)
        assert len({repr(sorted(a.slots.get("cards", {}).items())) for a in audits}) == 1  # the same everywhere
        slots = audits[0].slots.get("cards", {})
        for peer in star.peers:
            keys = peer.protocol.ledger.hand_keys.get("cards")
            if keys is None:
                continue
            for handle, (card, _) in keys._known.items():
                if handle >= len(tinygame.CARDS):  # a slot a steal made
                    assert slots[handle] == card
                    seen += 1
        # the every-card replay knows every card of every hand at the end
        L = star.peers[0].ledger()
        cards = {name: dict(enumerate(order)) for name, order in audits[0].decks.items()}
        r = _Seeing(L.roster, [f for _, frames in L.log for f in frames], cards, "every card", audits[0].slots)
        with pytest.raises(_EndOfLog):  # it stops at the audit
            r.pump()
        assert all(r.engine.card[h] is not None for hand in r.engine.hands for h in hand)
        assert r.engine.scores == star.peers[0].engine.scores
    assert seen >= 3


def test_a_pass_while_holding_a_stolen_card_worth_playing_is_named_after_the_audit() -> None:
    """Only the every-card replay can see this lie, and only if it knows the card
    under the handle the steal gave it: nobody else ever saw that card."""
    caught = 0
    for seed in range(30):
        star, lies = played(seed, cheat=True)
        lied = [move for move, lie in lies if lie]
        verdicts = {p.audit.violations for p in star.peers}
        spectator = spectator_of(star)
        report = verify_transcript(star.peers[0].protocol.transcript().to_bytes())
        if not lied:
            assert verdicts == {()} and spectator.audit.fair and report.status == "fair", (seed, verdicts)
            continue
        caught += 1
        (violations,) = verdicts  # the same at every seat
        assert [s for s, _ in violations] == [CHEAT], (seed, violations)
        assert "every card known after the audit" in violations[0][1]
        assert [s for s, _ in spectator.audit.violations] == [CHEAT]
        assert [v.seat for v in report.violations] == [CHEAT], str(report)
        if caught >= 2:
            break
    assert caught >= 1, "no game where the cheat held a stolen card worth playing"


def _audit_of(star: Star, victim: int) -> tuple[Transcript, int, int]:
    """The saved game, and where in it the victim's audit message is."""
    t = star.peers[0].protocol.transcript()
    i, k = next((i, k) for i, step in enumerate(t.ops) for k, f in enumerate(step)
                if decode(f)["kind"] == "audit" and decode(f)["from"] == victim)
    return t, i, k


def test_a_victim_whose_audit_is_not_the_shuffle_it_proved_is_named() -> None:
    star = next(s for s, _ in (played(seed) for seed in range(6)) if s.peers[0].ledger().robbed)
    victim = star.peers[0].ledger().robbed[0].victim
    identity = star.peers[victim].protocol.secrets.identity
    t, i, k = _audit_of(star, victim)
    assert decode(t.ops[i][k])["body"]["steals"], "the victim's audit holds its steals"

    def rotated(body: dict) -> None:  # another order of the same slots
        entry = body["steals"][0]
        entry["perm"] = entry["perm"][1:] + entry["perm"][:1]

    def dropped(body: dict) -> None:
        del body["steals"]

    for change, words in ((rotated, "not the one proven"), (dropped, "robbed in")):
        ops = [list(step) for step in t.ops[: i + 1]]  # the file ends with the audit
        ops[i][k] = resign(ops[i][k], identity, change)
        report = verify_transcript(Transcript(t.roster, ops).to_bytes())
        assert [v.seat for v in report.violations] == [victim], str(report)
        assert words in report.violations[0].message


def test_the_every_card_replay_without_the_steals_orders_misses_the_lie() -> None:
    """The lie above needs the audit's orders: with the decks' cards alone the rules
    cannot see the stolen card, and take the pass."""
    for seed in range(30):
        star, lies = played(seed, cheat=True)
        if any(lie for _, lie in lies):
            break
    else:
        pytest.fail("no game where the cheat held a stolen card worth playing")
    L = star.peers[0].ledger()
    audit = star.peers[0].audit
    frames = [f for _, fs in L.log for f in fs]
    cards = {name: dict(enumerate(order)) for name, order in audit.decks.items()}
    assert illegal_move(L.roster, frames, cards, "decks only") is None
    liar = illegal_move(L.roster, frames, cards, "every card", audit.slots)
    assert liar is not None and liar.seat == CHEAT
