"""The SSH table server is bounded (``ankh.net.io.ssh``): a terminal of any
asked size is clamped, sessions are capped per key and in all, a connection
holding no session is closed, and a player's home comes only from a key
whose signature was checked."""
from __future__ import annotations

import asyncio
import sys

import asyncssh
import pytest

from ankh.net.io.ssh import LOGIN_PER_ADDRESS, MAX_COLUMNS, MAX_ROWS, SshServer, terminal_size

from .doorhelp import SlowRoad, idle_sockets, until

SHOW_SIZE = [sys.executable, "-c", "import os; s = os.get_terminal_size(0); print(f'size {s.columns}x{s.lines}')"]
WAIT = [sys.executable, "-c", "import time; print('in', flush=True); time.sleep(60)"]


async def _server(tmp_path, command, **kw) -> SshServer:
    server = SshServer(command, tmp_path, host="127.0.0.1", **kw)
    await server.start()
    return server


async def _connect(server: SshServer, user: str, key=None, **kw) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect("127.0.0.1", server.port, username=user, known_hosts=None,
                                  client_keys=[key] if key is not None else None, agent_path=None,
                                  password=None if key is not None else "", **kw)


async def _read_all(process) -> str:
    out = b""
    while chunk := await asyncio.wait_for(process.stdout.read(65536), 30):
        out += chunk
    return out.decode(errors="replace")


def test_sizes_are_clamped() -> None:
    assert terminal_size(65535, 65535) == (MAX_COLUMNS, MAX_ROWS)
    assert terminal_size(0, 0) == (1, 1)
    assert terminal_size(120, 40) == (120, 40)


async def test_a_huge_terminal_is_clamped(tmp_path) -> None:
    server = await _server(tmp_path, SHOW_SIZE)
    try:
        async with await _connect(server, "big", asyncssh.generate_private_key("ssh-ed25519")) as conn:
            process = await conn.create_process(term_type="xterm", term_size=(65535, 65535), encoding=None)
            assert f"size {MAX_COLUMNS}x{MAX_ROWS}" in await _read_all(process)
    finally:
        await server.close()


async def test_sessions_are_capped_per_key_and_in_all(tmp_path) -> None:
    server = await _server(tmp_path, WAIT, per_key=2, max_sessions=3)
    alice, bob, carol = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(3))
    conns = []
    try:
        async def session(user, key) -> tuple[asyncssh.SSHClientProcess, str]:
            conn = await _connect(server, user, key)
            conns.append(conn)
            process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            first = await asyncio.wait_for(process.stdout.read(64), 30)
            return process, first.decode()

        for _ in range(2):
            _p, said = await session("alice", alice)
            assert "in" in said
        third, _said = await session("alice", alice)
        await asyncio.wait_for(third.wait_closed(), 30)
        assert third.exit_status == 1
        assert "you have 2 sessions open here already" in (await third.stderr.read()).decode()
        _p, said = await session("bob", bob)
        assert "in" in said
        full, _said = await session("carol", carol)
        await asyncio.wait_for(full.wait_closed(), 30)
        assert "as many sessions as it can" in (await full.stderr.read()).decode()
        assert len(server.sessions) == 3
    finally:
        for conn in conns:
            conn.close()
        await server.close()


async def test_a_connection_holding_no_session_is_closed(tmp_path) -> None:
    server = await _server(tmp_path, WAIT, no_session_timeout=0.5)
    try:
        conn = await _connect(server, "lurker", asyncssh.generate_private_key("ssh-ed25519"))
        await asyncio.wait_for(conn.wait_closed(), 30)  # logged in, asked for nothing: closed
        assert not server.connections
    finally:
        await server.close()


@pytest.mark.parametrize("then", ["password", "its own key"])
async def test_only_a_key_whose_signature_checked_chooses_the_home(tmp_path, then: str) -> None:
    """A client offers someone else's public key without its secret (its
    signature fails), then logs in another way: it never gets that key's home."""
    server = await _server(tmp_path, WAIT)
    victim = asyncssh.generate_private_key("ssh-ed25519")
    mallory = asyncssh.generate_private_key("ssh-ed25519")
    (forged,) = asyncssh.load_keypairs([victim])

    def bad_signature(data: bytes) -> bytes:
        good = victim.sign(data, forged.sig_algorithm)
        return good[:-1] + bytes([good[-1] ^ 1])

    forged.sign = bad_signature  # type: ignore[method-assign]
    keys = [forged] + ([mallory] if then == "its own key" else [])
    conn = await asyncssh.connect("127.0.0.1", server.port, username="mallory", known_hosts=None,
                                  client_keys=keys, agent_path=None, password="",
                                  preferred_auth=("publickey", "password"))
    try:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        await asyncio.wait_for(process.stdout.read(64), 30)
        (session,) = server.sessions
        if then == "password":
            assert session.player.key is None
        else:
            assert session.player.key is not None
            assert session.player.key.public_data == mallory.public_data
    finally:
        conn.close()
        await server.close()


@pytest.mark.parametrize("over_ssh", [False, True])
async def test_over_ssh_a_table_cannot_send_a_spectator_elsewhere(tmp_path, monkeypatch, over_ssh: bool) -> None:
    """A table tells its spectators where else to watch it; over SSH a spectator
    follows only its own table's machine there, never an address the table
    names elsewhere (the server's network is not the table's to probe)."""
    from ankh.net.wire.envelope import Identity
    from ankh.net.files.home import ENV_SSH, ENV_SSH_JOIN
    from ankh.net.io.node import HostNode, WatchNode

    from .test_watch import bot_decide

    monkeypatch.setenv("ANKH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(ENV_SSH_JOIN, "")
    if over_ssh:
        monkeypatch.setenv(ENV_SSH, "guest")
    else:
        monkeypatch.delenv(ENV_SSH, raising=False)
    host = HostNode(Identity.generate(), "host", seats=2, bots=1, decide=bot_decide(5), report=lambda e: None,
                    save_root=None, bind="127.0.0.1", advertise=False)
    port = await host.open()
    host.watchers.set_points([("127.0.0.1", port), ("10.9.9.9", 22), ("127.0.0.1", 22)])
    watcher = WatchNode(Identity.generate(), report=lambda e: None)
    await asyncio.wait_for(asyncio.gather(host.run(), watcher.run("127.0.0.1", port)), 300)
    if over_ssh:
        assert watcher.points == [("127.0.0.1", port), ("127.0.0.1", 22)]
    else:
        assert ("10.9.9.9", 22) in watcher.points


async def test_a_flood_of_idle_sockets_does_not_keep_a_key_holder_out(tmp_path) -> None:
    """140 sockets that never say a word, from one address and reopened as the
    server closes them, against a server of 6 sessions: a key holder on
    another network still logs in and gets a session, and the flood's address
    holds no more than its share of the door.  (A key holder behind the
    flood's own address competes with it for that address's share.)"""
    server = await _server(tmp_path, WAIT, max_sessions=6)
    stop = asyncio.Event()

    async def flood() -> int:
        sockets = await idle_sockets(server.port, 140)
        reopened = 0
        while not stop.is_set():
            await asyncio.sleep(0.05)
            closed = [c for c in sockets if c.closed]
            sockets = [c for c in sockets if not c.closed] + await idle_sockets(server.port, len(closed))
            reopened += len(closed)
        reopened += sum(1 for c in sockets if c.closed)  # (a loaded machine may not have looked yet)
        for c in sockets:
            c.transport.close()
        return reopened

    flooding = asyncio.ensure_future(flood())
    try:
        # The door is full once the server holds no more of the flood's sockets than its room.
        await asyncio.wait_for(until(lambda: server.door.links >= LOGIN_PER_ADDRESS), 30)
        for _ in range(3):
            conn = await asyncio.wait_for(
                _connect(server, "alice", asyncssh.generate_private_key("ssh-ed25519"),
                         local_addr=("127.1.0.1", 0)), 30)
            async with conn:
                process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
                assert "in" in (await asyncio.wait_for(process.stdout.read(64), 30)).decode()
        assert server.door.links <= LOGIN_PER_ADDRESS + 1   # one address holds no more than its share
    finally:
        stop.set()
        assert await flooding > 0     # the flood was answered by closing its idle sockets
        await server.close()


async def test_a_key_holder_behind_the_floods_own_address_gets_in(tmp_path) -> None:
    """The flood and the key holder share one address (a NAT, one IPv6 /64):
    the key holder's client has spoken (its first bytes are in, the rest
    delayed by a slow network) when 140 sockets that never send a byte arrive
    from that address, and the idle sockets make way, not the key holder."""
    server = await _server(tmp_path, WAIT, max_sessions=6)
    road = SlowRoad(server.port, "127.0.0.9")
    port = await road.start()
    flood: list = []
    try:
        login = asyncio.ensure_future(asyncssh.connect(
            "127.0.0.1", port, username="alice", known_hosts=None, agent_path=None,
            client_keys=[asyncssh.generate_private_key("ssh-ed25519")]))
        await asyncio.wait_for(road.first_passed.wait(), 30)
        flood = await idle_sockets(server.port, 140, source="127.0.0.9")
        # The address holds at most its share: the rest of the flood was closed.
        await asyncio.wait_for(until(lambda: sum(c.closed for c in flood) >= 140 - LOGIN_PER_ADDRESS), 30)
        road.release()
        async with await asyncio.wait_for(login, 30) as conn:
            process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            assert "in" in (await asyncio.wait_for(process.stdout.read(64), 30)).decode()
    finally:
        for c in flood:
            c.transport.close()
        await road.close()
        await server.close()


async def test_logins_that_open_no_session_hold_no_more_than_their_addresss_share(tmp_path) -> None:
    """One address logs in again and again (as a guest: no key needed) and
    opens nothing: the server keeps no more of those connections than an
    address's share of its door, the oldest closed first, so they cannot
    take its descriptors; a key holder still gets a session."""
    server = await _server(tmp_path, WAIT, max_sessions=6)
    conns = []
    try:
        for _ in range(LOGIN_PER_ADDRESS + 8):
            conns.append(await asyncio.wait_for(_connect(server, "guest", local_addr=("127.0.0.9", 0)), 30))
        await asyncio.wait_for(until(lambda: len(server.connections) <= LOGIN_PER_ADDRESS), 30)
        conn = await asyncio.wait_for(
            _connect(server, "alice", asyncssh.generate_private_key("ssh-ed25519"), local_addr=("127.1.0.1", 0)), 30)
        conns.append(conn)
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        assert "in" in (await asyncio.wait_for(process.stdout.read(64), 30)).decode()
    finally:
        for conn in conns:
            conn.close()
        await server.close()


async def test_guests_hold_at_most_half_the_sessions_and_a_key_holder_gets_in(tmp_path) -> None:
    """Guests from many addresses (and one IPv6 /64 counts as one) cannot fill
    the server: half its sessions are kept for players with a key."""
    server = await _server(tmp_path, WAIT, max_sessions=6, per_key=3)
    conns = []
    try:
        async def session(source: str, key=None) -> tuple[asyncssh.SSHClientProcess, str]:
            conn = await _connect(server, "guest", key, local_addr=(source, 0))
            conns.append(conn)
            process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            return process, (await asyncio.wait_for(process.stdout.read(64), 30)).decode()

        outcomes = [await session(f"127.0.0.{2 + i}") for i in range(5)]
        held = [p for p, said in outcomes if "in" in said]
        assert len(held) == 3
        refused = next(p for p, said in outcomes if "in" not in said)
        await asyncio.wait_for(refused.wait_closed(), 30)
        assert "log in with a key" in (await refused.stderr.read()).decode()
        _p, said = await session("127.0.0.9", asyncssh.generate_private_key("ssh-ed25519"))
        assert "in" in said
    finally:
        for conn in conns:
            conn.close()
        await server.close()


def test_a_guest_is_counted_by_its_ipv6_network() -> None:
    from ankh.net.io.ssh import GUEST
    from ankh.net.wire.admission import address_key
    assert GUEST + address_key("2001:db8::1") == GUEST + address_key("2001:db8::abcd")
