"""How a table's early ending reaches a seat that comes back for it
(the host keeps its last words and stays open for them up to FAREWELL): an
honest host is not blamed, and no seat is left without them."""
from __future__ import annotations

from ankh.net.io import sim
from ankh.net.io.node import HostNode

from tests import tinygame

tinygame.install()
sim.register_game("tiny=tests.tinygame")


def test_a_seat_voted_gone_that_comes_back_while_the_host_waits_for_the_others_does_not_accuse_the_host(
        monkeypatch) -> None:
    # seed 14, partitions only, the table's "gone" wait at 8 s (shortened from 60 s so that the
    # simulator's partitions, up to 12 s, outlast it).  Green's link drops as it moves (its log:
    # step 31, the host's: 30); red and yellow vote green gone at step 30; green comes back while
    # the host is still open for the last words, is sent the frames it lacks and then ``ended``,
    # which its own log (one move further) refuses: it says the honest host ended the table
    # without the seats' agreement.  On the merge base green said "the host closed the table
    # before the game ended" (the host had gone before green came back).  A seat the votes
    # left out hears only that the table ended.
    monkeypatch.setitem(HostNode.__init__.__kwdefaults__, "gone_after", 8)
    table = sim.play(14, "tiny", {"partition"}, seats=3)
    accusations = {n: r.text for n, r in table.results.items()
                   if "without the seats' agreement" in getattr(r, "text", "")}
    assert not accusations, accusations


def test_a_seat_back_with_its_join_after_an_early_end_hears_how_the_table_ended() -> None:
    # A seat that sent its key but lost its link before the roster came is back with ``join``
    # (it has no game yet: JoinTable.relinked), not ``rejoin``; HostTable._reattach sends it
    # the lobby, start, roster and game so far, and since the change still nothing of how the
    # table ended (no last words, and not even ``done``): it plays on from the frames until the
    # host's close, "the host closed the table before the game ended".  Now it is told.
    from ankh.net.wire.lobby import Start, decode
    from ankh.net.files.secrets import SeatSecrets
    from ankh.net.tablecore.effects import Broadcast, Send

    from .test_host_table import join, table

    t = table(seats=2, kind="tiny")
    green, nonce, seat = join(t, "green")
    start_msg = next(e.msg for e in t.take() if isinstance(e, Broadcast) and e.msg["t"] == "start")
    start, _ = Start.from_message(start_msg, my_key=green.public_key, my_nonce=nonce)
    secrets = SeatSecrets.generate(start.game_id, seat, green)
    t.received(seat, {"t": "key", "key": secrets.identity.public_key, "cert": secrets.cert})
    assert t.hub is not None and seat in t.hub.host.waiting_for()
    t.lost(seat, "the link dropped")
    t.clock.now += t.abandon_after + 1
    t.tick()
    assert t.result is not None and t.last_words, t.result
    t.take()
    back = t.arrive(green.public_key, None, {"t": "join", "name": "green", "nonce": nonce, "ready": 1})
    assert back == seat
    told = [m if isinstance(m, dict) else decode(m) for e in t.take() if isinstance(e, Send) and e.seat == seat
            for m in [e.msg]]
    kinds = [m["t"] for m in told]
    assert "bye" in kinds, kinds
