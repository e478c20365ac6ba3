"""Attacks on how joined seats end at the audit (docs/fairness.md, *A log hash only
the host can check*, "At the audit"): a seat keeps its own wait when the host ends
the table there, counts a disclosure said on a direct link only over its own log
hash, says the others' frames of its log on its direct links (and names a signer
that signed two), and names no forfeit of a person it never had a direct link
with.  Each test is an attack, on the simulator: the host, a joiner or a stranger
tries to get an honest seat named, to keep a seat waiting, or to escape."""
from __future__ import annotations

from pathlib import Path

from ankh.net.io import sim
from ankh.net.play.events import Alert
from ankh.net.play.peer import AUDIT, FINAL
from ankh.net.tablecore.host import HostTable
from ankh.net.tablecore.join import JoinTable

from . import simtable
from .nethelp import decode
from .test_attack_theirs import DropsGreensDisclosure
from .test_audit_alone import refuse_green_alone

GREEN = 2


async def three_seats(t: sim.Scene, host: type[HostTable] = HostTable, yellow: type[JoinTable] = JoinTable,
                      green: type[JoinTable] = JoinTable) -> list:
    """Red hosts, yellow then green join, each program as given: how the three ended."""
    await t.host(seats=3, core=host)
    t.join("joiner 1", core=yellow)
    await t.until("host", lambda e: getattr(e, "seat", None) == 1)
    t.join("joiner 2", core=green)
    return await t.results("host", "joiner 1", "joiner 2")


def translated_fr(words) -> str:
    """What a person reading French sees of ``words``."""
    from ankh.tui import i18n
    i18n.set_language("fr")
    try:
        return i18n.translated(words)
    finally:
        i18n.set_language("en")


class EndsOnceGreenIsPastTheAudit(DropsGreensDisclosure):
    """Drops green's honest audit disclosure (on its link, and handed on by yellow),
    passes on everything else, so that green's own log finishes the audit and green
    signs the next step; then, the moment that frame comes, ends the table on its
    word alone, saying green signed its disclosure over a bogus log hash.  Green is
    then past the audit (no own wait of its own) and may never say its disclosure
    on its direct link to yellow, whose own wait would name green."""

    ended = False

    def received(self, seat: int, msg: dict) -> bool:
        past = self.dropped and not self.ended and msg["t"] == "frames" and any(
            f[:1] == bytes([GREEN]) and decode(f)["kind"] == "sync" for f in msg["f"])
        if past:
            self.ended = True
            refuse_green_alone(self)
            return False
        return super().received(seat, msg)


def test_a_host_that_drops_an_honest_disclosure_once_its_signer_is_past_the_audit_gets_it_named_by_nobody(
        tmp_path: Path) -> None:
    """Green discloses honestly; the host passes everyone else's disclosures to green
    (its log finishes the audit and it signs the last step) but drops green's, then
    ends the table on its word alone.  Yellow keeps its own wait for green: green,
    whose result the host's word ended, must still say its disclosure on its direct
    link, so that yellow never says that green withheld it."""
    t = simtable.scene(4, tmp_path)
    host, yellow, green = t.run(lambda t: three_seats(t, host=EndsOnceGreenIsPastTheAudit))
    assert t.nodes["host"].table.ended and host.alone, host.text
    assert t.nodes["joiner 2"].core.peer.phase == FINAL, "green's log finished the audit"
    assert t.nodes["joiner 1"].core.peer.phase == AUDIT, "yellow's log waits for green's disclosure"
    assert not yellow.forfeit and "(joiner 2)" not in yellow.text, yellow.text
    assert GREEN in t.nodes["joiner 1"].core.disclosed, "green said its disclosure on its direct link"
    assert green.partial and not green.forfeit, green.text
    told = [e.text for e in t.told["joiner 2"] if isinstance(e, Alert)]
    said = [str(text) for text in told if "after the audit" in str(text)]
    assert said and said[0].startswith("the host ended the table after the audit; this seat says its disclosure to "
                                       "yellow"), told
    french = translated_fr(next(text for text in told if "after the audit" in str(text)))
    assert french.startswith("l'hôte a arrêté la table après l'audit ; ce siège redit ses secrets à jaune"), french
    code, out = simtable.verify(t.nodes["joiner 1"].save.path)
    assert "joiner 2 (seat 2" not in out, out

