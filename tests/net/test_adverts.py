"""The join list does not vouch for what an advert only claims: a copy of a
real table's advert, a title with a look-alike letter, and a known host
advertised with another key are marked; the key a host proves on the link
is what the lobby shows, and a pinned host with another key is warned of."""
from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass

from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from ankh.net.play.events import Alert, HostKey
from ankh.net.files import home
from ankh.net.wire.adverts import skeleton, warnings
from ankh.net.wire.envelope import Identity, fingerprint
from ankh.net.io.discovery import SERVICE_TYPE, TableAdvert, TableBrowser, encode_txt
from ankh.net.io.node import HostNode, JoinNode

from .test_net_discovery import LOOPBACK, ours, wait_for
from .test_watch import bot_decide

HOST = Identity.from_seed(b"r" * 32)


@dataclass
class Ad:
    service: str
    title: str
    table_id: str = "00ff" * 8
    host_fp: str = fingerprint(HOST.public_key)
    host_name: str = "Rincewind"


def test_look_alike_titles_fold_to_one_skeleton() -> None:
    assert skeleton("Unseen Academy") == skeleton("Unseen Аcademy") == skeleton("unseen  academy")
    assert skeleton("P0rt") == skeleton("Port") and skeleton("Bill") == skeleton("BiII")
    assert skeleton("Unseen Academy") != skeleton("Unseen Academy 2")


def test_a_lone_honest_table_is_not_marked() -> None:
    assert warnings([Ad("a", "Unseen Academy")]) == {"a": []}


def test_copies_look_alikes_and_other_keys_are_marked() -> None:
    ads = [Ad("real", "Unseen Academy"), Ad("copy", "Unseen Academy-2"),
           Ad("cyrillic", "Unseen Аcademy", table_id="11" * 16),
           Ad("other", "Mended Drum", table_id="22" * 16, host_fp=fingerprint(Identity.generate().public_key))]
    notes = warnings(ads, pinned=lambda name: HOST.public_key if name == "Rincewind" else None)
    assert "another table has the same title" in notes["real"] and "another table has the same title" in notes["copy"]
    assert "another advert claims the same table: one of them is a copy" in notes["copy"]
    assert "its title looks like another table's, with different letters" in notes["cyrillic"]
    assert "its title mixes alphabets" in notes["cyrillic"]
    assert notes["other"] == ["Rincewind is known here with another key"]


async def test_a_spoofed_copy_of_a_real_advert_is_listed_and_marked() -> None:
    """Over mDNS on loopback: a real table, a spoof copying its whole TXT
    (title, table id, host fingerprint), and one whose title has a Cyrillic
    letter; the browser lists all three and the list marks every one."""
    table_id = os.urandom(16).hex()
    title = f"Academy {table_id[:6]}"
    raw = AsyncZeroconf(interfaces=LOOPBACK)
    real = TableAdvert(port=4600, table_id=table_id, host_key=HOST.public_key, host_name="Rincewind",
                       seats_taken=1, seats_total=3, title=title, interfaces=LOOPBACK)
    txt = encode_txt(table_id=table_id, seats_taken=1, seats_total=3, phase="lobby",
                     host_fp=fingerprint(HOST.public_key), host_name="Rincewind")
    spoofs = [AsyncServiceInfo(SERVICE_TYPE, f"{name}.{SERVICE_TYPE}", port=4601 + i, properties=txt,
                               server=f"spoof-{i}-{table_id[:6]}.local.", parsed_addresses=["127.0.0.1"])
              for i, name in enumerate([title + "-7", title.replace("a", "а", 1)])]
    browser = await TableBrowser(interfaces=LOOPBACK).start()
    try:
        await real.start()
        for spoof in spoofs:
            await raw.async_register_service(spoof)
        await wait_for(lambda: sum(1 for t in browser.tables.values() if t.table_id == table_id) == 3, 30)
        tables = [t for t in browser.tables.values() if t.table_id == table_id]
        notes = warnings(tables)
        assert all(notes[t.service] for t in tables)
        assert all("another advert claims the same table: one of them is a copy" in notes[t.service] for t in tables)
    finally:
        await real.close()
        await raw.async_close()
        await browser.close()


async def test_the_joiner_hears_the_key_the_host_proved_and_a_changed_key_is_warned_of(tmp_path, monkeypatch):
    monkeypatch.setenv("ANKH_HOME", str(tmp_path / "joiner"))
    home.KnownPlayers().pin("host", Identity.generate().public_key)  # "host" met before, with another key
    heard: list = []
    host_identity = Identity.generate()
    host = HostNode(host_identity, "host", seats=3, bots=1, decide=bot_decide(1), report=lambda e: None,
                    save_root=None, bind="127.0.0.1", advertise=False)
    port = await host.open()
    joiner = JoinNode(Identity.generate(), "joiner", decide=bot_decide(2),
                      report=heard.append, save_root=None)
    joining = asyncio.ensure_future(joiner.run("127.0.0.1", port))
    try:
        await wait_for(lambda: any(isinstance(e, Alert) for e in heard), 30)
    finally:
        joining.cancel()
        await asyncio.gather(joining, return_exceptions=True)
        await host.close()
    assert HostKey(host_identity.public_key) in heard
    (warning,) = [e.text for e in heard if isinstance(e, Alert)]
    assert "host's key has changed" in warning and fingerprint(host_identity.public_key) in warning
