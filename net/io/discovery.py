"""Tables on the LAN: advertised and found with mDNS/DNS-SD (python-zeroconf, asyncio API).

A hosted table is the service ``<title>._ankh._tcp.local.`` on its own,
unique server host name (``ankh-<table>-<random>.local.``: two tables with the
same title never resolve to each other's address).  Its TXT record is a hint
for the lobby list, not a proof of anything — who is really at the other end
is proved by the link's handshake:

======  ===========================================  =================
key     meaning                                      example
======  ===========================================  =================
v       protocol version                             ``2``
table   table id, hex                                ``9f2c…``
seats   seats taken / seats in all (2 to 4)           ``1/3``
phase   ``lobby``, ``playing`` or ``over``            ``lobby``
fp      the host's short identity fingerprint        ``abcd-efgh-…``
host    the host player's name                       ``Rincewind``
======  ===========================================  =================

:class:`TableBrowser` keeps a live list of the tables it hears of; a table
whose TXT does not parse is not listed (and one that turns malformed is
dropped), never a crash.  Both classes take ``interfaces`` (as python-zeroconf
does: ``InterfaceChoice.All`` or a list of addresses) so tests can stay on
loopback.
"""
from __future__ import annotations

import asyncio
import ipaddress
import os
import re
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import Literal

import ifaddr
from zeroconf import BadTypeInNameException, IPVersion, InterfaceChoice, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from ..wire.envelope import fingerprint
from ..files.home import check_name
from ..files.transcript import DEFAULT_KIND, KIND

SERVICE_TYPE = "_ankh._tcp.local."
PROTOCOL_VERSION = 2
PHASES = ("lobby", "playing", "over")
MIN_SEATS, MAX_SEATS = 2, 4
MAX_TITLE = 63                 # bytes: a DNS label
RESOLVE_TIMEOUT_MS = 3000
RESOLVE_ATTEMPTS = 4         # a table's details asked for this many times at once, then ...
RESOLVE_AGAIN_S = 30.0       # ... again at growing intervals, up to this far apart, while it is advertised

_FP_RE = re.compile(r"[a-z2-7]{4}(-[a-z2-7]{4}){3}")
_HEX_RE = re.compile(r"[0-9a-f]{8,64}")
_SEATS_RE = re.compile(r"([0-9])/([0-9])")
_VERSION_RE = re.compile(r"[1-9][0-9]{0,3}")


# -- the TXT record -------------------------------------------------------------------


@dataclass(frozen=True)
class TableInfo:
    """A table heard of on the LAN (from unauthenticated TXT: a hint)."""
    service: str                  # the full service name: the key of the entry
    title: str                    # the instance name, as people see it
    server: str                   # the table's own host name
    addresses: tuple[str, ...]    # IPv4 first, then IPv6 (link-local ones with %scope)
    port: int
    version: int
    table_id: str
    seats_taken: int
    seats_total: int
    phase: str
    host_fp: str
    host_name: str
    game: str = DEFAULT_KIND  # the game the table plays (``game=`` in the TXT; absent: the first game)

    @property
    def open(self) -> bool:
        return self.phase == "lobby" and self.seats_taken < self.seats_total


def encode_txt(*, table_id: str, seats_taken: int, seats_total: int, phase: str, host_fp: str,
               host_name: str, version: int = PROTOCOL_VERSION, game: str = DEFAULT_KIND) -> dict[str, str]:
    txt = {"v": str(version), "table": table_id, "seats": f"{seats_taken}/{seats_total}",
           "phase": phase, "fp": host_fp, "host": host_name, "game": game}
    if parse_txt({k.encode(): v.encode() for k, v in txt.items()}) is None:
        raise ValueError(f"not a valid table advert: {txt}")
    return txt


def parse_txt(properties: Mapping[bytes, bytes | None]) -> dict | None:
    """The fields of a table's TXT record, checked; None when anything is off."""
    try:
        fields = {k.decode("ascii"): v.decode("utf-8") for k, v in properties.items()
                  if isinstance(k, bytes) and isinstance(v, bytes)}
    except UnicodeDecodeError:
        return None
    try:
        version, table, seats, phase, fp, host = (fields[k] for k in ("v", "table", "seats", "phase",
                                                                      "fp", "host"))
    except KeyError:
        return None
    m = _SEATS_RE.fullmatch(seats)
    if (not _VERSION_RE.fullmatch(version) or not _HEX_RE.fullmatch(table) or m is None
            or phase not in PHASES or not _FP_RE.fullmatch(fp)):
        return None
    taken, total = int(m[1]), int(m[2])
    if not (MIN_SEATS <= total <= MAX_SEATS and 0 <= taken <= total):
        return None
    try:
        if check_name(host) != host:
            return None
    except ValueError:
        return None
    game = fields.get("game", DEFAULT_KIND)
    if not KIND.fullmatch(game):
        return None
    return {"version": int(version), "table_id": table, "seats_taken": taken, "seats_total": total,
            "phase": phase, "host_fp": fp, "host_name": host, "game": game}


def table_from_info(info: AsyncServiceInfo) -> TableInfo | None:
    """A resolved service as a table entry, or None when it is not a well-formed ankh table."""
    fields = parse_txt(info.properties or {})
    port = info.port
    addresses = tuple(info.parsed_scoped_addresses())
    if fields is None or not isinstance(port, int) or not 0 < port < 65536 or not addresses:
        return None
    title = info.name[: -len("." + SERVICE_TYPE)] if info.name.endswith("." + SERVICE_TYPE) else info.name
    return TableInfo(service=info.name, title=title, server=info.server or "", addresses=addresses,
                     port=port, **fields)


# -- where we are -------------------------------------------------------------------------


def _zeroconf(interfaces, ip_version: IPVersion | None) -> AsyncZeroconf:
    if ip_version is None and interfaces == InterfaceChoice.All:
        try:
            return AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.All)
        except OSError:  # no IPv6 here
            return AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
    return AsyncZeroconf(interfaces=interfaces, ip_version=ip_version)


def local_addresses(interfaces=InterfaceChoice.All, ip_version: IPVersion | None = None) -> list[str]:
    """The addresses to advertise: those given, or every non-loopback address of this host."""
    if isinstance(interfaces, list):
        return [str(a) for a in interfaces if isinstance(a, str)]
    want_v6 = ip_version in (None, IPVersion.All, IPVersion.V6Only)
    want_v4 = ip_version != IPVersion.V6Only
    out: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            try:
                addr = ipaddress.ip_address(text)
            except ValueError:
                continue
            if addr.is_loopback or (addr.version == 4 and not want_v4) or (addr.version == 6 and not want_v6):
                continue
            out.append(str(addr))
    return sorted(set(out), key=lambda a: (":" in a, a))


def _title(text: str) -> str:
    text = "".join(c for c in text if c.isprintable() and c != ".").strip() or "ankh table"
    while len(text.encode("utf-8")) > MAX_TITLE:
        text = text[:-1]
    return text


# -- advertising ------------------------------------------------------------------------


class TableAdvert:
    """One hosted table, announced on the LAN until :meth:`close`.

    ``await TableAdvert(...).start()`` (or ``async with``) registers it;
    :meth:`update` changes seats, phase and the rest of the TXT record.
    """

    def __init__(self, *, port: int, table_id: bytes | str, host_key: bytes, host_name: str,
                 seats_taken: int, seats_total: int, phase: str = "lobby", title: str | None = None,
                 version: int = PROTOCOL_VERSION, game: str = DEFAULT_KIND, interfaces=InterfaceChoice.All,
                 ip_version: IPVersion | None = None, addresses: list[str] | None = None,
                 zeroconf: AsyncZeroconf | None = None) -> None:
        table_hex = table_id.hex() if isinstance(table_id, bytes) else table_id
        self._txt = encode_txt(table_id=table_hex, seats_taken=seats_taken, seats_total=seats_total,
                               phase=phase, host_fp=fingerprint(host_key), host_name=host_name,
                               version=version, game=game)
        self.port = port
        self.title = _title(title if title is not None else f"{host_name}'s table")
        self.server = f"ankh-{table_hex[:8]}-{os.urandom(4).hex()}.local."
        self._interfaces = interfaces
        self._ip_version = ip_version
        self._addresses = addresses
        self._own_zc = zeroconf is None
        self._zc = zeroconf
        self._info: AsyncServiceInfo | None = None

    @property
    def service(self) -> str | None:
        """The registered service name (python-zeroconf renames it on a clash)."""
        return self._info.name if self._info is not None else None

    @property
    def txt(self) -> dict[str, str]:
        return dict(self._txt)

    def _make_info(self, name: str) -> AsyncServiceInfo:
        addresses = self._addresses or local_addresses(self._interfaces, self._ip_version)
        return AsyncServiceInfo(SERVICE_TYPE, name, port=self.port, properties=self._txt,
                                server=self.server, parsed_addresses=addresses)

    async def start(self) -> TableAdvert:
        if self._zc is None:
            self._zc = _zeroconf(self._interfaces, self._ip_version)
        self._info = self._make_info(f"{self.title}.{SERVICE_TYPE}")
        await (await self._zc.async_register_service(self._info, allow_name_change=True))
        return self

    async def update(self, *, seats_taken: int | None = None, seats_total: int | None = None,
                     phase: str | None = None) -> None:
        seats = self._txt["seats"].split("/")
        txt = encode_txt(table_id=self._txt["table"], host_fp=self._txt["fp"], host_name=self._txt["host"],
                         version=int(self._txt["v"]), game=self._txt["game"],
                         seats_taken=int(seats[0]) if seats_taken is None else seats_taken,
                         seats_total=int(seats[1]) if seats_total is None else seats_total,
                         phase=self._txt["phase"] if phase is None else phase)
        self._txt = txt
        if self._info is not None and self._zc is not None:
            self._info = self._make_info(self._info.name)
            await (await self._zc.async_update_service(self._info))

    async def close(self) -> None:
        """Say goodbye on the LAN (browsers drop the table at once) and stop."""
        info, self._info = self._info, None
        if self._zc is None:
            return
        if info is not None:
            await (await self._zc.async_unregister_service(info))
        if self._own_zc:
            await self._zc.async_close()
            self._zc = None

    async def __aenter__(self) -> TableAdvert:
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.close()


# -- browsing ---------------------------------------------------------------------------

Change = Literal["added", "updated", "removed"]


@dataclass(frozen=True)
class TableEvent:
    change: Change
    table: TableInfo


class TableBrowser:
    """A live list of the tables on the LAN: :attr:`tables`, by service name.

    Changes reach ``on_change(event)`` if given, and the async iterator
    :meth:`events` (``async for event in browser.events(): ...``).
    """

    def __init__(self, on_change: Callable[[TableEvent], None] | None = None, *,
                 interfaces=InterfaceChoice.All, ip_version: IPVersion | None = None,
                 zeroconf: AsyncZeroconf | None = None, resolve_timeout_ms: int = RESOLVE_TIMEOUT_MS) -> None:
        self.tables: dict[str, TableInfo] = {}
        self._on_change = on_change
        self._interfaces = interfaces
        self._ip_version = ip_version
        self._own_zc = zeroconf is None
        self._zc = zeroconf
        self._timeout = resolve_timeout_ms
        self._browser: AsyncServiceBrowser | None = None
        self._queue: asyncio.Queue[TableEvent | None] = asyncio.Queue()
        self._tasks: set[asyncio.Task] = set()
        self._removals: dict[str, int] = {}   # so a late answer cannot bring a table back

    async def start(self) -> TableBrowser:
        if self._zc is None:
            self._zc = _zeroconf(self._interfaces, self._ip_version)
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, SERVICE_TYPE, handlers=[self._on_state])
        return self

    async def close(self) -> None:
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._own_zc and self._zc is not None:
            await self._zc.async_close()
            self._zc = None
        self._queue.put_nowait(None)

    async def __aenter__(self) -> TableBrowser:
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def events(self) -> AsyncIterator[TableEvent]:
        """Every change from now until :meth:`close`."""
        while (event := await self._queue.get()) is not None:
            yield event
        self._queue.put_nowait(None)

    def _on_state(self, zeroconf: Zeroconf, service_type: str, name: str,
                  state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            self._removals[name] = self._removals.get(name, 0) + 1
            gone = self.tables.pop(name, None)
            if gone is not None:
                self._emit(TableEvent("removed", gone))
            return
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        removals = self._removals.get(name, 0)
        try:
            info = AsyncServiceInfo(SERVICE_TYPE, name)
        except BadTypeInNameException:
            return
        # An answer lost, or late on a loaded machine, is asked for again: the browser hears of
        # a service once, and a table not resolved then would stay off the list.  A few times at
        # once, then at growing intervals for as long as the table is advertised (its goodbye,
        # or the browser's close, ends the asking).
        attempt, pause = 0, 1.0
        while True:
            if self._zc is None or self._removals.get(name, 0) != removals:
                return
            if await info.async_request(self._zc.zeroconf, self._timeout):
                break
            attempt += 1
            if attempt >= RESOLVE_ATTEMPTS:
                await asyncio.sleep(pause)
                pause = min(RESOLVE_AGAIN_S, pause * 2)
        if self._removals.get(name, 0) != removals:
            return
        try:
            table = table_from_info(info)
        except (ValueError, TypeError, UnicodeError):  # whatever the wire held, not listed
            table = None
        before = self.tables.get(name)
        if table is None:
            if before is not None:
                del self.tables[name]
                self._emit(TableEvent("removed", before))
            return
        if table == before:
            return
        self.tables[name] = table
        self._emit(TableEvent("added" if before is None else "updated", table))

    def _emit(self, event: TableEvent) -> None:
        self._queue.put_nowait(event)
        if self._on_change is not None:
            self._on_change(event)
