"""Tables advertised and found with mDNS on loopback; TXT records checked, malformed ones ignored."""
from __future__ import annotations

import asyncio
import os

import pytest
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from ankh.net.wire.envelope import Identity, fingerprint
from ankh.net.io import discovery
from ankh.net.io.discovery import (
    PROTOCOL_VERSION,
    SERVICE_TYPE,
    TableAdvert,
    TableBrowser,
    TableEvent,
    encode_txt,
    parse_txt,
)

LOOPBACK = ["127.0.0.1"]
HOST = Identity.from_seed(b"h" * 32)
GOOD = {b"v": b"1", b"table": b"00ff" * 8, b"seats": b"1/4", b"phase": b"lobby",
        b"fp": fingerprint(HOST.public_key).encode(), b"host": b"Rincewind"}


def test_a_well_formed_txt_record_parses():
    assert parse_txt(GOOD) == {"version": 1, "table_id": "00ff" * 8, "seats_taken": 1, "seats_total": 4,
                               "phase": "lobby", "host_fp": fingerprint(HOST.public_key),
                               "host_name": "Rincewind", "game": "morpork"}  # no game= : the first game's table
    assert parse_txt({**GOOD, b"extra": b"ignored", b"flag": None}) is not None


def test_an_advert_names_its_game_and_a_malformed_game_is_not_listed():
    assert parse_txt({**GOOD, b"game": b"guilds"})["game"] == "guilds"
    for bad in (b"Guilds", b"g\x1b[2J", b"", b"a" * 17):
        assert parse_txt({**GOOD, b"game": bad}) is None, bad


@pytest.mark.parametrize("key,value", [
    (b"v", b"0"), (b"v", b"one"), (b"v", None), (b"table", b"XYZ"), (b"table", b"ab"),
    (b"seats", b"5/4"), (b"seats", b"1/5"), (b"seats", b"1/1"), (b"seats", b"-1/4"), (b"seats", b"14"),
    (b"phase", b"dancing"), (b"fp", b"not-a-fingerprint"), (b"host", b"\x1b[2Jevil"),
    (b"host", b""), (b"host", b"\xff\xfe"), (b"table", "é".encode() * 8),
])
def test_malformed_txt_records_are_rejected(key, value):
    assert parse_txt({**GOOD, key: value}) is None
    missing = dict(GOOD)
    del missing[key]
    assert parse_txt(missing) is None


def test_an_advert_refuses_to_announce_nonsense():
    with pytest.raises(ValueError):
        encode_txt(table_id="00ff" * 8, seats_taken=5, seats_total=4, phase="lobby",
                   host_fp=fingerprint(HOST.public_key), host_name="Rincewind")


async def wait_for(condition, timeout=30.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.05)


def ours(browser: TableBrowser, table_ids) -> dict:
    """The browser's tables that this test advertised (other programs may advertise too)."""
    return {t.table_id: t for t in browser.tables.values() if t.table_id in table_ids}


# On its own (scripts/test): it waits on mDNS answers and goodbyes on loopback, which other tests'
# adverts and browsers, and a machine loaded by them, can hold up past its deadlines.
@pytest.mark.serial
async def test_tables_appear_fill_up_and_vanish_and_malformed_ones_are_ignored():
    ids = [os.urandom(16).hex() for _ in range(3)]
    seen: list[TableEvent] = []
    browser = await TableBrowser(seen.append, interfaces=LOOPBACK).start()
    raw = AsyncZeroconf(interfaces=LOOPBACK)
    adverts = [TableAdvert(port=4000 + i, table_id=ids[i], host_key=HOST.public_key, host_name="Rincewind",
                           seats_taken=1, seats_total=3, title="Twin", interfaces=LOOPBACK) for i in range(2)]
    broken = AsyncServiceInfo(SERVICE_TYPE, f"Broken {ids[2][:6]}.{SERVICE_TYPE}", port=4999,
                              properties={**GOOD, b"table": ids[2].encode(), b"seats": b"9/9"},
                              server=f"broken-{ids[2][:6]}.local.", parsed_addresses=["127.0.0.1"])
    try:
        await asyncio.gather(adverts[0].start(), adverts[1].start(),
                             raw.async_register_service(broken))
        await wait_for(lambda: len(ours(browser, ids)) == 2)
        a, b = (ours(browser, ids)[i] for i in ids[:2])
        # Two tables with one title: renamed apart, each on its own host name and port.
        assert a.service != b.service and a.server != b.server
        assert (a.port, b.port) == (4000, 4001)
        assert a.addresses == b.addresses == ("127.0.0.1",)
        assert a.title.startswith("Twin") and a.seats_taken == 1 and a.seats_total == 3 and a.open
        assert a.host_fp == HOST.fingerprint and a.host_name == "Rincewind" and a.version == PROTOCOL_VERSION
        # A seat is taken, then the game starts.
        await adverts[0].update(seats_taken=2)
        await wait_for(lambda: ours(browser, ids)[ids[0]].seats_taken == 2)
        await adverts[0].update(seats_taken=3, phase="playing")
        await wait_for(lambda: ours(browser, ids)[ids[0]].phase == "playing")
        assert not ours(browser, ids)[ids[0]].open
        # The table gone: its entry goes.
        await adverts[1].close()
        await wait_for(lambda: ids[1] not in ours(browser, ids))
        # The broken advert was never listed; fixed, it is; broken again, it is dropped.
        assert ids[2] not in ours(browser, ids)
        broken = AsyncServiceInfo(SERVICE_TYPE, broken.name, port=4999,
                                  properties={**GOOD, b"table": ids[2].encode()},
                                  server=broken.server, parsed_addresses=["127.0.0.1"])
        await (await raw.async_update_service(broken))
        await wait_for(lambda: ids[2] in ours(browser, ids))
        broken = AsyncServiceInfo(SERVICE_TYPE, broken.name, port=4999,
                                  properties={**GOOD, b"table": ids[2].encode(), b"phase": b"\xff"},
                                  server=broken.server, parsed_addresses=["127.0.0.1"])
        await (await raw.async_update_service(broken))
        await wait_for(lambda: ids[2] not in ours(browser, ids))
    finally:
        for advert in adverts:
            await advert.close()
        await raw.async_close()
        await browser.close()
    mine = [(e.change, e.table.table_id) for e in seen if e.table.table_id in ids]
    assert mine.count(("added", ids[0])) == 1
    assert ("updated", ids[0]) in mine and ("removed", ids[1]) in mine
    assert ("removed", ids[0]) in mine  # closing the advert in `finally`
    assert mine.index(("added", ids[2])) < mine.index(("removed", ids[2]))


@pytest.mark.parametrize("name,port,lost_answers", [
    ("Lost", 5124, 1),                                 # the first answer lost: asked again at once
    ("Late", 5125, discovery.RESOLVE_ATTEMPTS + 1),    # past the first tries: asked again, later
], ids=["first answer lost", "lost again and again"])
async def test_a_table_whose_answers_were_lost_is_asked_for_again_and_listed(monkeypatch, name, port, lost_answers):
    """A table still advertised is asked for again, a few times at once and then at growing
    intervals: a machine loaded for a while (or a lossy network) lists it late, not never."""
    table_id = os.urandom(16).hex()
    lost: list[str] = []
    real = AsyncServiceInfo.async_request

    async def lost_for_a_while(self, zc, timeout, *args, **kwargs):
        if self.name.startswith(name) and len(lost) < lost_answers:
            lost.append(self.name)
            return False                # as if the answer never came back within the timeout
        return await real(self, zc, timeout, *args, **kwargs)

    monkeypatch.setattr(AsyncServiceInfo, "async_request", lost_for_a_while)
    async with TableBrowser(interfaces=LOOPBACK) as browser:
        async with TableAdvert(port=port, table_id=table_id, host_key=HOST.public_key, host_name=name,
                               seats_taken=1, seats_total=2, title=name, interfaces=LOOPBACK):
            await wait_for(lambda: table_id in ours(browser, [table_id]))
    assert len(lost) == lost_answers


async def test_the_browser_is_also_an_async_iterator():
    table_id = os.urandom(16).hex()
    async with TableBrowser(interfaces=LOOPBACK) as browser:
        async with TableAdvert(port=5123, table_id=table_id, host_key=HOST.public_key, host_name="Twoflower",
                               seats_taken=1, seats_total=2, interfaces=LOOPBACK):
            async def first_of_ours(change):
                async for event in browser.events():
                    if event.table.table_id == table_id and event.change == change:
                        return event.table
            table = await asyncio.wait_for(first_of_ours("added"), 15)
            assert table.title == "Twoflower's table" and table.port == 5123
        table = await asyncio.wait_for(first_of_ours("removed"), 15)
        assert table.table_id == table_id
