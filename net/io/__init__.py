"""Everything in ankh that touches the network: TCP links and LAN discovery.

- ``transport``: asyncio TCP connections carrying a :class:`ankh.net.wire.link.Link`
  (connect, serve, keepalive, handshake timeout).
- ``discovery``: tables advertised and browsed with mDNS/DNS-SD (python-zeroconf).

Nothing else in ``ankh.net`` imports asyncio, socket or zeroconf.
"""
