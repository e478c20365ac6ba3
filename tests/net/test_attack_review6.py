"""Attacks on how joined seats end at the audit (docs/fairness.md, *A log hash only
the host can check*, "At the audit"): a seat keeps its own wait when the host ends
the table there, counts a disclosure said on a direct link only over its own log
hash, says the others' frames of its log on its direct links (and names a signer
that signed two), and names no forfeit of a person it never had a direct link
with.  Each test is an attack, on the simulator: the host, a joiner or a stranger
tries to get an honest seat named, to keep a seat waiting, or to escape."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgpack
import pytest

from ankh.net.io import sim
from ankh.net.play.events import Alert
from ankh.net.play.peer import AUDIT, FINAL
from ankh.net.tablecore.effects import TellSeats
from ankh.net.tablecore.host import HostTable
from ankh.net.tablecore.join import JoinTable
from ankh.net.wire.envelope import HEADER_LEN, pack

from . import simtable
from .nethelp import decode, resign
from .test_attack_theirs import DropsGreensDisclosure
from .test_audit_alone import RefusesGreensDisclosureAlone, refuse_green_alone

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


class DropsGreensDisclosureQuietly(EndsOnceGreenIsPastTheAudit):
    """The same, but it does not end the table when green is past the audit: the test does."""

    def received(self, seat: int, msg: dict) -> bool:
        return DropsGreensDisclosure.received(self, seat, msg)


def test_a_seat_past_the_audit_keeps_saying_its_disclosure_no_longer_than_the_others_could_wait_for_it(
        tmp_path: Path) -> None:
    """The host drops green's disclosure and ends the table alone only once the others'
    own wait for it is over (half the host's wait after green was past the audit, and
    a beat).  Yellow heard green's disclosure on the direct link all that time and
    names nobody; green, ended then, shows its result after the usual few seconds,
    not after another half of the host's wait."""
    async def script(t: sim.Scene) -> list:
        task = asyncio.ensure_future(three_seats(t, host=DropsGreensDisclosureQuietly))
        await t.when(lambda: "joiner 2" in t.nodes and t.nodes["joiner 2"].core.peer is not None
                     and t.nodes["joiner 2"].core.peer.phase == FINAL)
        green, host = t.nodes["joiner 2"].core, t.nodes["host"].table
        await asyncio.sleep(green.abandon_after / 2 + green.here_every() + 1)
        t.do("host", lambda: refuse_green_alone(host))
        ended = t.loop.time()
        results = await task
        return [*results, t.loop.time() - ended]

    t = simtable.scene(4, tmp_path)
    host, yellow, green, took = t.run(script)
    assert host.alone and GREEN in t.nodes["joiner 1"].core.disclosed
    assert not yellow.forfeit and "(joiner 2)" not in yellow.text, yellow.text
    assert green.partial and not any("after the audit" in str(e.text) for e in t.told["joiner 2"]
                                     if isinstance(e, Alert)), green.text
    assert took < t.nodes["joiner 2"].core.abandon_after / 4, f"the table ended {took} virtual seconds later"


# -- a cheat that says the host's frames altered on its direct link, to name the host instead ---------

class CountsTwinChecks(JoinTable):
    """An honest seat that notes when it checks a frame handed on that differs from its own."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.checked_at: list[float] = []

    def _twin(self, evidence: list[bytes]) -> Any:
        self.checked_at.append(self.clock())
        return super()._twin(evidence)


def host_frames_told_wrong(core: JoinTable) -> list[bytes]:
    """The host's frames of ``core``'s log, each said three wrong ways: a byte of its
    body changed under the host's signature, signed again by ``core``'s own key as if
    by the host, and a genuine older frame of the host's under the number of a later one."""
    protocol = core.peer.protocol
    ours = [protocol.signed(0, seq) for seq in range(protocol.have()[0])]
    out = []
    for seq, frame in enumerate(ours):
        if frame is None:
            continue
        flipped = bytearray(frame)
        flipped[-1] ^= 1
        out.append(bytes(flipped))
        out.append(resign(frame, core.secrets.identity, lambda body: body.__setitem__("basis", bytes(32))))
        older = ours[seq - 1] if seq else None
        if older is not None:  # its header (signer, signature) kept, its seq said to be this one's
            payload = decode(older)
            out.append(older[:HEADER_LEN] + pack({**payload, "seq": seq}))
    return out


def floods_the_host_frames_wrong(base: type) -> type:
    class Floods(base):
        """Says on its direct links, each beat at the audit and after, hundreds of the
        host's frames told wrong, and the host's genuine frames too."""
        said = 0
        stay_until: float | None = None

        def late_left(self) -> float:  # its program stays, its links up, for the whole of the others' wait
            if self.stay_until is None:
                self.stay_until = self.clock() + self.abandon_after / 2 + 20
            return max(0.0, self.stay_until - self.clock())

        def say_here(self) -> None:
            super().say_here()
            if self.peer is not None and self.peer.phase in (AUDIT, FINAL):
                protocol = self.peer.protocol
                genuine = [f for seq in range(protocol.have()[0]) if (f := protocol.signed(0, seq)) is not None]
                for frame in (host_frames_told_wrong(self) * 10)[:600] + genuine:
                    self._do(TellSeats({"t": "mine", "f": frame}, keep=False))
                    self.said += 1
    return Floods


def test_a_cheat_that_says_the_hosts_frames_altered_on_its_direct_link_still_forfeits_and_the_host_is_named_by_nobody(
        tmp_path: Path) -> None:
    """Green signs its disclosure over a bogus log hash (the host names it alone) and,
    to get the host named instead, says on its direct link to yellow every beat
    hundreds of the host's frames altered, signed again by itself, or a genuine older
    frame under a later number, and the genuine ones.  None is a second frame the host
    signed: yellow names nobody for two frames, checks two such frames each fifth of a
    second at most, and when its own wait is over names green's forfeit."""
    from . import simcheats

    bogus = simcheats.resigning("audit", lambda body: body.__setitem__("basis", bytes(32)), 1)

    t = simtable.scene(4, tmp_path)
    host, yellow, _ = t.run(lambda t: three_seats(t, yellow=CountsTwinChecks,
                                                  green=floods_the_host_frames_wrong(bogus(JoinTable))))
    green, core = t.nodes["joiner 2"].core, t.nodes["joiner 1"].core
    assert host.alone and "green (joiner 2) broke the rules: signed a log hash" in host.text, host.text
    assert green.said >= 1000, (green.said, green.peer.phase, green.result, t.nodes["joiner 2"].result)
    assert yellow.forfeit == (GREEN,) and "red (host)" not in yellow.text, yellow.text
    checks = sorted(core.checked_at)
    assert checks, "the frames that differ from yellow's were looked at"
    assert all(checks[i + 2] - checks[i] >= 0.2 for i in range(len(checks) - 2)), "two checks a fifth of a second"
    code, out = simtable.verify(t.nodes["joiner 1"].save.path)
    assert code == 1 and out.startswith("violation: joiner 2 (seat 2") and "host (seat 0" not in out, out


# -- a host that withholds its own disclosure, and drops an honest one to clear itself -----------------

class WithholdsItsOwnDisclosure(RefusesGreensDisclosureAlone):
    """Loses, so never sends its own audit disclosure to anyone, and ends the table on
    its word alone the moment green discloses (green signed over a bogus log hash,
    it says): green's disclosure, which reaches yellow on the direct link, is then
    the only one yellow's log lacks that it heard of."""

    def _send_outbox(self, seat: int) -> None:
        assert self.hub is not None
        frames = self.hub.outbox(seat)
        kept = [f for f in frames if not (f[:1] == b"\x00" and decode(f)["kind"] == "audit")]
        self.hub.requeue(seat, kept)
        super()._send_outbox(seat)


def test_a_host_that_withholds_its_own_disclosure_is_named_even_where_another_seats_came_round(
        tmp_path: Path) -> None:
    """The host withholds its own disclosure and refuses green's honest one alone.
    Yellow's own wait hears green's on the direct link (green is cleared), never the
    host's (which only the host could have sent): once its wait is over it names the
    host's forfeit, not green's, and its save says so to ``ankh verify``."""
    t = simtable.scene(4, tmp_path)
    host, yellow, green = t.run(lambda t: three_seats(t, host=WithholdsItsOwnDisclosure))
    core = t.nodes["joiner 1"].core
    assert host.alone and t.nodes["host"].table.refused, host.text
    assert set(core.peer.waiting_for()) == {0, GREEN} and GREEN in core.disclosed
    assert yellow.forfeit == (0,) and yellow.text.startswith("forfeit: red (host) withheld"), yellow.text
    code, out = simtable.verify(t.nodes["joiner 1"].save.path)
    assert code == 1 and out.startswith("violation: host (seat 0") and "joiner 2" not in out, out


# -- a cheat that signs over a bogus hash and never links to the others directly ------------------------

def test_a_cheat_that_never_links_to_the_others_directly_is_named_by_the_host_and_no_honest_seat_is_named(
        tmp_path: Path) -> None:
    """Green signs its disclosure over a bogus log hash and keeps away from yellow's
    direct links for the whole game (neither reaches the other's watch point).  The
    host names green alone; yellow, which cannot tell this from a host that drops an
    honest disclosure of a seat it keeps apart, names nobody (not the host either)
    and says whom the game waited for: the limit docs/fairness.md states.  Nor
    does ``ankh verify`` name anyone honest, from either save (the host's proves
    nothing of green's log hash either: only the host knows what it sent)."""
    from . import simcheats

    bogus = simcheats.resigning("audit", lambda body: body.__setitem__("basis", bytes(32)), 1)

    async def script(t: sim.Scene) -> list:
        t.darken("joiner 1", "joiner 2")
        t.darken("joiner 2", "joiner 1")
        return await three_seats(t, green=bogus(JoinTable))

    t = simtable.scene(4, tmp_path)
    host, yellow, _ = t.run(script)
    core = t.nodes["joiner 1"].core
    assert host.alone and "green (joiner 2) broke the rules: signed a log hash" in host.text, host.text
    assert GREEN not in core.reached and core.kept_apart
    assert yellow.partial and not yellow.forfeit and "waited for green" in yellow.text, yellow.text
    code, out = simtable.verify(t.nodes["joiner 1"].save.path)
    assert code == 3 and "violation" not in out, out
    code, out = simtable.verify(t.nodes["host"].save.path)
    assert "joiner 1 (seat 1" not in out and "host (seat 0" not in out, out


# -- a save made during the own wait -------------------------------------------------------------------

def without_wait_notes(save: Path) -> None:
    """The journal in ``save`` as a version of ankh that kept no note of the own wait wrote it."""
    from ankh.net.files import journal

    path = save / journal.JOURNAL_FILE
    data = path.read_bytes()
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data[len(journal.pack(journal.MAGIC)):])
    records = list(unpacker)
    kept = [r for r in records if not journal.is_wait_note(r)]
    assert len(kept) < len(records), "the seat noted its own wait"
    path.write_bytes(journal.pack(journal.MAGIC) + b"".join(journal.pack(r) for r in kept))


async def killed_in_its_own_wait(t: sim.Scene, old_journal: bool = False) -> tuple[Path, list, Any, tuple]:
    """Green signs its disclosure over a bogus log hash, the host ends the table alone,
    yellow keeps its own wait, and is killed twenty seconds into it: ``ankh verify``
    of its save then, what it was told, and how the seat started again from that save
    ends (its host gone; ``old_journal``: its journal as written before the own wait
    was noted there); and the seconds its wait had left when it was killed, and that
    the seat started again took to end."""
    from . import simcheats

    bogus = simcheats.resigning("audit", lambda body: body.__setitem__("basis", bytes(32)), 1)
    await t.host(seats=3)
    t.join("joiner 1")
    await t.until("host", lambda e: getattr(e, "seat", None) == 1)
    t.join("joiner 2", core=bogus(JoinTable))
    await t.when(lambda: t.nodes["joiner 1"].core.provisional)
    await asyncio.sleep(20)
    told = [e.text for e in t.told["joiner 1"] if isinstance(e, Alert)]
    left = t.nodes["joiner 1"].core.late_left()
    save = await t.kill("joiner 1")
    assert save is not None
    during = simtable.verify(save)
    if old_journal:
        without_wait_notes(save)
    again = t.loop.time()
    resumed = await (await t.resume("joiner 1", save))
    return save, [*during, told], resumed, (left, t.loop.time() - again)


def test_a_save_made_during_the_own_wait_verifies_and_resumes_as_before_from_an_older_journal(
        tmp_path: Path) -> None:
    """The person saw (in French too) that the seat waits for green's disclosure; the
    save made in the wait reads "incomplete" to ``ankh verify``, naming nobody.  Its
    journal as an earlier version wrote it (no note of the own wait) still carries on
    as it did then: the seat started again from it finds its host gone, names nobody,
    and its save still verifies."""
    t = simtable.scene(4, tmp_path)
    save, (code, out, told), resumed, _ = t.run(lambda t: killed_in_its_own_wait(t, old_journal=True))
    wait = next(text for text in told if "during the audit" in str(text))
    assert str(wait).startswith("the host ended the table during the audit; this seat waits for the disclosure "
                                "of green"), wait
    assert translated_fr(wait).startswith("l'hôte a arrêté la table pendant l'audit ; ce siège attend encore"), wait
    assert code == 3 and out.startswith("incomplete:") and "violation" not in out, out
    assert not resumed.forfeit and "red" in resumed.text and "yellow" not in resumed.text, resumed.text
    assert "did not come back" in resumed.text, resumed.text
    code, out = simtable.verify(save)
    assert code == 3 and "violation" not in out, out


def test_a_seat_started_again_in_its_own_wait_goes_on_with_it_and_names_no_seat_whose_link_does_not_come_back(
        tmp_path: Path) -> None:
    """The seat started again from a save made in its own wait goes on with that wait
    (the host ended the table there: it does not wait for the host again), with no
    more time than it had left.  Green's program has ended and never links to it
    again; a seat started again judges only the seats whose link to it came back (one
    it reached before may not know where it is now, or be an honest seat done saying
    its disclosure: docs/fairness.md), so it names nobody, says whom the game waited
    for, and its save names nobody to ``ankh verify``."""
    t = simtable.scene(4, tmp_path)
    save, (code, out, _), resumed, (left, took) = t.run(killed_in_its_own_wait)
    assert code == 3 and out.startswith("incomplete:") and "violation" not in out, out
    assert not resumed.forfeit and "waited for green" in resumed.text, resumed.text
    assert "did not come back" not in resumed.text, "it did not wait for the host again"
    beat = t.nodes["joiner 1"].core.here_every()
    assert left > 2 * beat and left - beat <= took <= left, (left, took, beat)
    code, out = simtable.verify(save)
    assert code == 3 and "violation" not in out, out
