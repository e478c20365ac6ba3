"""Peers, agreement and fairness: the protocol layer of ankh (sans-I/O but ``io``).

- ``fair``: the fairness primitives: the group and its proofs, the dice beacon,
  mental-poker decks, sealed keys, the random steal, evidence of a cheat.
- ``wire``: what travels between installs: links, signed envelopes, schemas,
  the lobby's messages, who may hold a link.
- ``play``: a game over the protocol: the public log (``ledger``), a seat and
  its peer, the star's relay, endings, the local and in-memory tables.
- ``files``: the journal, the transcript and its offline audit (``verify``),
  the install's home, a seat's secrets.
- ``tablecore``: each role's table as a state machine answering with effects.
- ``io``: the only code that touches sockets, mDNS, SSH, clocks and files.
"""
