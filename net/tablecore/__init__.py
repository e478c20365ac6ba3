"""The table's core: what a seat's process decides, with no sockets, clocks or files.

The I/O layer (:mod:`ankh.net.io.host`, :mod:`~ankh.net.io.join`,
:mod:`~ankh.net.io.node`) feeds it messages and the time and carries out
what it asks for.
"""
