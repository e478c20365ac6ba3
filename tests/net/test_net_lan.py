"""Discovery over real multicast between network namespaces (root only).

Four namespaces on one bridge (itself in a fifth namespace, so the machine's
own network is untouched): a host advertises a table in the first, two
players browse from the second and third, and avahi-daemon runs in the
fourth so that ``avahi-browse`` can be asked what it sees.  The table's
address is joined over IPv4 and scoped IPv6, and a guest's cable is pulled
(its veth set down) to see keepalives notice on both sides.  Every namespace
and process made here is removed at the end, also when the test fails.
"""
from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

LANPEER = Path(__file__).with_name("lanpeer.py")
SUBNET = "10.77.0"


def run(*cmd: str) -> None:
    subprocess.run(cmd, check=True, capture_output=True, text=True)


class Proc:
    """A process inside a namespace whose stdout lines we can wait for."""

    def __init__(self, ns: str, *cmd: str, env: dict | None = None, stdin: bool = False) -> None:
        self.popen = subprocess.Popen(["ip", "netns", "exec", ns, *cmd], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True, env=env,
                                      stdin=subprocess.PIPE if stdin else subprocess.DEVNULL)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.popen.stdout:
            self.lines.put(line.rstrip("\n"))

    def expect(self, predicate, timeout: float = 20.0) -> dict:
        """The first JSON line satisfying ``predicate``."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.01))
            except queue.Empty:
                raise AssertionError(f"timed out; output so far: {self.seen}") from None
            self.seen.append(line)
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if predicate(obj):
                return obj

    def tell(self, line: str) -> None:
        self.popen.stdin.write(line + "\n")
        self.popen.stdin.flush()

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(5)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(5)


class Lan:
    def __init__(self, tmp: Path) -> None:
        self.prefix = f"ak{os.getpid() % 10000:04d}{os.urandom(2).hex()}"
        self.tmp = tmp
        self.namespaces: list[str] = []
        self.procs: list[Proc] = []

    def ns(self, i: int) -> str:
        return f"{self.prefix}n{i}"

    @property
    def switch(self) -> str:
        return f"{self.prefix}sw"

    def build(self, peers: int) -> None:
        switch = self.switch
        run("ip", "netns", "add", switch)
        self.namespaces.append(switch)
        run("ip", "-n", switch, "link", "add", "br0", "type", "bridge")
        run("ip", "-n", switch, "link", "set", "br0", "up")
        for i in range(1, peers + 1):
            ns = self.ns(i)
            run("ip", "netns", "add", ns)
            self.namespaces.append(ns)
            run("ip", "-n", switch, "link", "add", f"v{i}", "type", "veth", "peer", "name", "eth0", "netns", ns)
            run("ip", "-n", switch, "link", "set", f"v{i}", "master", "br0", "up")
            # No duplicate-address detection: the IPv6 link-local address is usable at once.
            run("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.eth0.accept_dad=0")
            run("ip", "-n", ns, "addr", "add", f"{SUBNET}.{i}/24", "dev", "eth0")
            run("ip", "-n", ns, "link", "set", "eth0", "up")
            run("ip", "-n", ns, "link", "set", "lo", "up")

    def start(self, i: int, *cmd: str, **kw) -> Proc:
        proc = Proc(self.ns(i), *cmd, **kw)
        self.procs.append(proc)
        return proc

    def peer(self, i: int, *args: str, stdin: bool = False) -> Proc:
        return self.start(i, sys.executable, str(LANPEER), *args, stdin=stdin)

    def teardown(self) -> None:
        for proc in reversed(self.procs):
            proc.stop()
        for ns in reversed(self.namespaces):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


@pytest.fixture
def lan(tmp_path):
    assert os.geteuid() == 0, "the namespace tests need root (ip netns); CI runs as root"
    assert shutil.which("ip"), "the namespace tests need iproute2's ip"
    lan = Lan(tmp_path)
    try:
        lan.build(4)
        yield lan
    finally:
        lan.teardown()
    left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert lan.prefix not in left


DBUS_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={bus}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
  </policy>
</busconfig>
"""

AVAHI_CONF = """[server]
host-name={name}
use-ipv4=yes
use-ipv6=no
allow-interfaces=eth0
enable-dbus=yes
[publish]
publish-addresses=no
publish-hinfo=no
publish-workstation=no
"""


def start_avahi(lan: Lan, i: int) -> dict:
    """avahi-daemon in namespace ``i``, on a private D-Bus (the machine's is not touched).

    Returns the environment avahi-browse needs to reach it.
    """
    missing = [p for p in ("avahi-daemon", "avahi-browse", "dbus-daemon") if not shutil.which(p)]
    assert not missing, (f"{', '.join(missing)} not installed: scripts/test installs avahi-daemon and "
                         "avahi-utils with apt-get when run as root on Debian")
    bus = lan.tmp / "bus"
    (lan.tmp / "bus.conf").write_text(DBUS_CONF.format(bus=bus))
    (lan.tmp / "avahi.conf").write_text(AVAHI_CONF.format(name=f"{lan.prefix}-avahi"))
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={bus}"}
    lan.start(i, "dbus-daemon", "--config-file", str(lan.tmp / "bus.conf"), "--nofork", "--nopidfile")
    deadline = time.monotonic() + 10
    while not bus.exists():
        assert time.monotonic() < deadline, "dbus-daemon did not start"
        time.sleep(0.05)
    # avahi-daemon keeps its pid file in /run/avahi-daemon: give it a private /run.
    daemon = lan.start(i, "unshare", "-m", "sh", "-c",
                       f"mount -t tmpfs tmpfs /run && exec avahi-daemon -f {lan.tmp / 'avahi.conf'} "
                       "--no-drop-root --no-chroot --no-rlimits", env=env)
    deadline = time.monotonic() + 15
    while not any("Server startup complete" in line for line in daemon.seen):
        try:
            daemon.seen.append(daemon.lines.get(timeout=0.2))
        except queue.Empty:
            pass
        assert daemon.popen.poll() is None, (
            "avahi-daemon could not run in a network namespace here: " + " | ".join(daemon.seen))
        assert time.monotonic() < deadline, "avahi-daemon did not start: " + " | ".join(daemon.seen)
    return env


def ours(table_id):
    return lambda e: e.get("table", {}).get("table_id") == table_id


def test_a_table_is_found_updated_joined_and_removed_across_namespaces(lan):
    table_id = os.urandom(16).hex()
    avahi_env = start_avahi(lan, 4)
    browsers = [lan.peer(i, "browse", stdin=True) for i in (2, 3)]
    for b in browsers:
        b.expect(lambda e: e["event"] == "browsing")
    host = lan.peer(1, "host", table_id, "1", "3", stdin=True)
    advertised = host.expect(lambda e: e["event"] == "advertised")

    for b in browsers:
        added = b.expect(lambda e: e["event"] == "added" and ours(table_id)(e))["table"]
        assert added["port"] == advertised["port"]
        assert added["addresses"][0] == f"{SUBNET}.1"
        assert any(a.startswith("fe80:") and "%" in a for a in added["addresses"]), added["addresses"]
        assert (added["seats_taken"], added["seats_total"], added["phase"]) == (1, 3, "lobby")
        assert added["host_name"] == "Vimes" and added["host_fp"] == advertised["txt"]["fp"]
        assert added["server"].startswith(f"ankh-{table_id[:8]}-")

    # The address found is the one to join: over IPv4, and over scoped IPv6 link-local.
    for address in added["addresses"]:
        joiner = lan.peer(3, "join", address, str(added["port"]), table_id)
        reply = joiner.expect(lambda e: e["event"] in ("reply", "failed"))
        assert reply["event"] == "reply" and reply["data"] == "echo:hello", (address, reply)

    # avahi, a different mDNS implementation, sees the table and its TXT.
    out = subprocess.run(["ip", "netns", "exec", lan.ns(4), "avahi-browse", "-rtp", "_ankh._tcp"],
                         capture_output=True, text=True, timeout=30, env=avahi_env).stdout
    resolved = [line.split(";") for line in out.splitlines() if line.startswith("=")]
    mine = [r for r in resolved if f'"table={table_id}"' in r[9]]
    assert mine, f"avahi-browse did not see the table: {out!r}"
    assert mine[0][7] == f"{SUBNET}.1" and mine[0][8] == str(advertised["port"])
    assert '"seats=1/3"' in mine[0][9] and '"host=Vimes"' in mine[0][9]

    host.tell("seats 2")
    host.expect(lambda e: e["event"] == "updated")
    for b in browsers:
        updated = b.expect(lambda e: e["event"] == "updated" and ours(table_id)(e))["table"]
        assert updated["seats_taken"] == 2

    # A cable pulled: the guest's link to the switch goes down, nothing is closed cleanly.
    # Keepalives notice within a few seconds, on both sides.
    stayer = lan.peer(2, "join", f"{SUBNET}.1", str(added["port"]), table_id, "stay")
    assert stayer.expect(lambda e: e["event"] in ("reply", "failed"))["event"] == "reply"
    cut = time.monotonic()
    run("ip", "-n", lan.switch, "link", "set", "v2", "down")
    assert "no word from the peer" in stayer.expect(lambda e: e["event"] == "host-gone")["reason"]
    assert "no word from the peer" in host.expect(
        lambda e: e["event"] == "guest-gone" and "no word" in e["reason"])["reason"]
    assert time.monotonic() - cut < 10
    run("ip", "-n", lan.switch, "link", "set", "v2", "up")

    host.tell("close")
    host.expect(lambda e: e["event"] == "closed")
    for b in browsers:
        gone = b.expect(lambda e: e["event"] == "removed" and ours(table_id)(e))["table"]
        assert gone["table_id"] == table_id
