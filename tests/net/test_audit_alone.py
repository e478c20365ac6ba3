"""The end-of-game audit when the host ends the table on its word alone: the host
cheats, on the simulator, to get an honest seat named as one that withheld its
disclosure.  A seat keeps its own wait at the audit (the host's "signed a log hash
that is not the hash of the log" proves nothing elsewhere), counts a disclosure
said on a direct link over its own log hash, says the others' frames of its log
since the other people's last ones on its direct links (so a seat the host told
another story finds the host's second frame), and names no forfeit of a person it
never had a direct link with (docs/fairness.md, *A log hash only the host can
check*).  The seat that really signs over a bogus hash forfeits:
``tests/net/test_attack_review4.py``."""
from __future__ import annotations

from pathlib import Path

from ankh.net.io import sim
from ankh.net.play.events import Alert
from ankh.net.play.peer import AUDIT
from ankh.net.tablecore.effects import TellSeats
from ankh.net.tablecore.host import HostTable
from ankh.net.tablecore.join import JoinTable

from . import simtable
from .nethelp import decode, resign
from .test_attack_links import three_seats
from .test_attack_theirs import DropsGreensDisclosure

GREEN = 2


class RefusesGreensDisclosureAlone(HostTable):
    """Takes green's honest audit disclosure and, instead of relaying it, ends the
    table at once as if green had signed it over a log hash that is not the log's:
    a verdict only the host can give, so nobody can check it."""

    refused = False

    def received(self, seat: int, msg: dict) -> bool:
        audit = [i for i, f in enumerate(msg["f"]) if f[:1] == bytes([GREEN]) and decode(f)["kind"] == "audit"] \
            if not self.refused and self.hub is not None and msg["t"] == "frames" else []
        if audit:
            self.refused = True
            if audit[0]:  # what came before it is taken and relayed as always
                super().received(seat, {**msg, "f": msg["f"][:audit[0]]})
            refuse_green_alone(self)
            return False
        return super().received(seat, msg)


def refuse_green_alone(host: HostTable) -> None:
    """The host ends the table on its word alone: green signed over a bogus log hash."""
    assert host.hub is not None
    ledger = host.hub.host.protocol.ledger
    error = ledger.blame(GREEN, f"signed a log hash at step {ledger.index} that is not the hash of the log "
                                "it was sent (every seat is sent the same frames)", ())
    error.alone = True
    host._abort(error)


async def _refused_at_the_audit(t: sim.Scene) -> list:
    await t.host(seats=3, core=RefusesGreensDisclosureAlone)
    t.join("joiner 1")
    await t.until("host", lambda e: getattr(e, "seat", None) == 1)
    t.join("joiner 2")
    return await t.results("host", "joiner 1")


def test_a_host_that_refuses_an_honest_disclosure_on_its_word_alone_gets_nobody_to_name_it(tmp_path: Path) -> None:
    """The host ends the table the moment green discloses, saying green signed over a
    bogus log hash.  Yellow does not end on that word: it keeps its own wait, hears
    green's disclosure on its direct link, signed over yellow's own log hash, and
    says only whom the game waited for; it never says green withheld it."""
    t = simtable.scene(4, tmp_path)
    host, yellow = t.run(_refused_at_the_audit)
    assert t.nodes["host"].table.refused and host.alone and "green (joiner 2) broke the rules" in host.text
    core = t.nodes["joiner 1"].core
    assert GREEN in core.disclosed, "green's disclosure came round on the direct link"
    told = [str(e.text) for e in t.told["joiner 1"] if isinstance(e, Alert)]
    assert any("this seat waits for the disclosure of green" in text for text in told), told
    assert not yellow.forfeit and "(joiner 2)" not in yellow.text and yellow.partial, yellow.text


def test_a_seat_that_holds_another_version_of_a_host_frame_names_the_host_and_never_the_seat_it_refused(
        tmp_path: Path) -> None:
    """Where the host told green another story (one of its frames signed twice), green's
    log hash at the audit differs from yellow's, and the host's "green signed a bogus
    log hash" would be true of what the host sent yellow.  Green says the host's frames
    of its log on its direct link: yellow finds the host's second frame under one
    number and names the host, never green; its save keeps the evidence for ``ankh
    verify``.  And every seat at the audit says those frames: the host's frames of
    yellow's log since green's last one are among what yellow says."""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=3, core=RefusesGreensDisclosureAlone)
        t.join("joiner 1")
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2")
        yellow = t.nodes["joiner 1"]
        await t.when(lambda: yellow.core.provisional)  # the host ended it at the audit; yellow keeps its wait
        said = yellow.core._log_since()
        protocol = yellow.core.peer.protocol
        hosts = [f for f in said if f[0] == 0]
        assert hosts and all(protocol.signed(0, decode(f)["seq"]) == f for f in hosts), "the host's frames it holds"
        audit = next(f for f in hosts if decode(f)["kind"] == "audit")
        key = t.nodes["host"].table.hub.host.protocol.secrets.identity
        twin = resign(audit, key, lambda body: body.__setitem__("basis", bytes(32)))
        t.do("joiner 2", lambda: t.nodes["joiner 2"].core._do(TellSeats({"t": "mine", "f": twin}, keep=False)))
        return await t.results("host", "joiner 1")

    t = simtable.scene(4, tmp_path)
    host, yellow = t.run(script)
    assert host.alone and "green (joiner 2)" in host.text
    assert yellow.text.startswith("aborted: red (host) broke the rules: signed two different messages"), yellow.text
    assert "(joiner 2)" not in yellow.text and not yellow.forfeit
    code, out = simtable.verify(t.nodes["joiner 1"].save.path)
    assert code == 1 and "(seat 0" in out and "joiner 2" not in out, out


def test_a_seat_kept_apart_from_another_names_no_forfeit_of_it(tmp_path: Path) -> None:
    """The host keeps yellow and green apart (neither reaches the other's watch point)
    and drops green's disclosure, then says, after its whole wait, that green forfeits.
    Yellow waited as long, but it never had a direct link to green: it cannot tell a
    seat that withheld its disclosure from one whose disclosure the host keeps from
    it, so it says only whom the game waited for."""
    async def script(t: sim.Scene) -> list:
        await t.host(seats=3, core=DropsGreensDisclosure)
        t.darken("joiner 1", "joiner 2")
        t.darken("joiner 2", "joiner 1")
        t.join("joiner 1")
        await t.until("host", lambda e: getattr(e, "seat", None) == 1)
        t.join("joiner 2")
        return await t.results("host", "joiner 1")

    t = simtable.scene(4, tmp_path)
    host, yellow = t.run(script)
    core = t.nodes["joiner 1"].core
    assert host.text.startswith("forfeit: green"), host.text
    assert GREEN not in core.reached and core.peer.phase == AUDIT and core.kept_apart
    assert not yellow.forfeit and "(joiner 2)" not in yellow.text, yellow.text


async def green_signs_over_a_bogus_hash(t: sim.Scene, talks: bool = True) -> None:
    """An honest host and yellow; green (joined last) signs its audit disclosure over a
    bogus log hash (``talks``: and keeps talking on its direct links, the host's word
    notwithstanding; else its program ends when the host names it)."""
    from . import simcheats

    bogus = simcheats.resigning("audit", lambda body: body.__setitem__("basis", bytes(32)), 1)
    await t.host(seats=3)
    t.join("joiner 1")
    await t.until("host", lambda e: getattr(e, "seat", None) == 1)
    t.join("joiner 2", core=(simcheats.talking(bogus) if talks else bogus)(JoinTable))


def test_a_disclosure_over_a_bogus_hash_then_silence_is_named_by_the_host_alone(tmp_path: Path) -> None:
    """Green signs its disclosure over a bogus log hash, the host names it alone at once,
    and green's program ends there: its direct link to yellow goes silent, as an honest
    seat's link gone dark would.  Yellow's own wait names nobody and says whom the game
    waited for; every save verifies as incomplete, naming nobody (the price of never
    naming an honest seat whose link went dark: docs/fairness.md, "At the audit")."""
    async def with_green_silent(t: sim.Scene) -> list:
        await green_signs_over_a_bogus_hash(t, talks=False)
        return await t.results("host", "joiner 1")

    t = simtable.scene(4, tmp_path)
    host, yellow = t.run(with_green_silent)
    assert host.alone and "green (joiner 2) broke the rules: signed a log hash" in host.text
    assert yellow.partial and not yellow.forfeit and "waited for green" in yellow.text, yellow.text
    assert GREEN not in t.nodes["joiner 1"].core.alive and GREEN in t.nodes["joiner 1"].core.reached
    for name in ("host", "joiner 1"):
        code, out = simtable.verify(t.nodes[name].save.path)
        assert code == 3 and out.startswith("incomplete") and "violation" not in out, (name, out)


def test_the_save_of_a_seat_that_waited_out_a_disclosure_over_a_bogus_hash_verifies_as_its_forfeit(
        tmp_path: Path) -> None:
    """Green signs its disclosure over a bogus log hash; the host names it alone at once;
    green's program keeps talking on its direct link (its part of the audit over that
    hash, the others' frames of its log): it is there and withholds its disclosure.
    Yellow, after its own wait, names green's forfeit, with the game's result as it
    stood, and its save says the same to ``ankh verify`` (green named, yellow not)."""
    async def with_green_cheating(t: sim.Scene) -> list:
        await green_signs_over_a_bogus_hash(t)
        return await t.results("host", "joiner 1")

    t = simtable.scene(4, tmp_path)
    host, yellow = t.run(with_green_cheating)
    assert host.alone and "green (joiner 2) broke the rules: signed a log hash" in host.text
    assert yellow.forfeit == (GREEN,) and yellow.text.startswith("forfeit: green (joiner 2) withheld"), yellow.text
    code, out = simtable.verify(t.nodes["joiner 1"].save.path)
    assert code == 1 and out.startswith("violation: joiner 2 (seat 2") and "withheld its audit disclosure" in out, out
    assert "joiner 1" not in out and "host (seat 0" not in out, out
