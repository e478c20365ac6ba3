"""A small program the network-namespace tests run inside each namespace.

    lanpeer.py host TABLE_ID SEATS_TAKEN SEATS_TOTAL   # serve links, advertise; stdin: "seats N", "close"
    lanpeer.py browse                                  # print every table event as a JSON line
    lanpeer.py join ADDRESS PORT PROLOGUE_HEX [stay]    # connect, send "hello", print the reply;
                                                       # with "stay", then wait for the link to end

Each prints one JSON object per line on stdout.
"""
from __future__ import annotations

import asyncio
import dataclasses
import json
import sys

from ankh.net.wire.envelope import Identity
from ankh.net.io.discovery import TableAdvert, TableBrowser
from ankh.net.io.transport import ConnectionClosed, connect, serve, server_port

HOST_ID = Identity.from_seed(b"n" * 32)
GUEST_ID = Identity.from_seed(b"g" * 32)


def say(**fields) -> None:
    print(json.dumps(fields), flush=True)


async def lines():
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        yield line.split()


async def host(table_id: str, taken: int, total: int) -> None:
    async def echo(conn):
        try:
            while True:
                await conn.send(b"echo:" + await conn.recv())
        except ConnectionClosed as exc:
            say(event="guest-gone", reason=exc.reason)

    server = await serve(None, 0, HOST_ID, bytes.fromhex(table_id), echo)
    advert = await TableAdvert(port=server_port(server), table_id=table_id, host_key=HOST_ID.public_key,
                               host_name="Vimes", seats_taken=taken, seats_total=total).start()
    say(event="advertised", service=advert.service, port=server_port(server), txt=advert.txt)
    async for words in lines():
        if words[:1] == ["seats"]:
            await advert.update(seats_taken=int(words[1]))
            say(event="updated")
        elif words[:1] == ["close"]:
            break
    await advert.close()
    server.close()
    say(event="closed")


async def browse() -> None:
    browser = await TableBrowser(lambda e: say(event=e.change, table=dataclasses.asdict(e.table))).start()
    say(event="browsing")
    async for _ in lines():
        pass
    await browser.close()


async def join(address: str, port: int, prologue: bytes, stay: bool) -> None:
    try:
        conn = await connect(address, port, GUEST_ID, prologue, timeout=5)
        await conn.send(b"hello")
        reply = await asyncio.wait_for(conn.recv(), 5)
        say(event="reply", data=reply.decode(), peer=conn.peer_key.hex())
    except (ConnectionClosed, asyncio.TimeoutError) as exc:
        say(event="failed", reason=str(exc))
        return
    if not stay:
        await conn.aclose("bye")
        return
    try:
        await conn.recv()
    except ConnectionClosed as exc:
        say(event="host-gone", reason=exc.reason)


def main(argv: list[str]) -> None:
    command, args = argv[0], argv[1:]
    if command == "host":
        asyncio.run(host(args[0], int(args[1]), int(args[2])))
    elif command == "browse":
        asyncio.run(browse())
    elif command == "join":
        asyncio.run(join(args[0], int(args[1]), bytes.fromhex(args[2]), args[3:] == ["stay"]))


if __name__ == "__main__":
    main(sys.argv[1:])
