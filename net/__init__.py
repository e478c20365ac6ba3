"""Peers, agreement and fairness: the protocol layer of ankh (sans-I/O).

- ``envelope``: identities, signed msgpack envelopes, strict bounded decoding.
- ``group``: the Ed25519 group, x-only, and the Chaum-Pedersen proof.
- ``dice``: the dice beacon (committed hash chains).
- ``deck``: mental-poker decks (shuffle, lock, keys, audit).
- ``ledger``: the public log as a state machine, shared by seats and verifier.
- ``seat``: one seat as a bytes-in, events-out protocol object.
- ``table``: N seats wired together in memory, answering the rules' requests.
- ``transcript``, ``verify``: saved games and their offline audit.
- ``secrets``: what a seat keeps to resume after a crash.
- ``local``: the table of a local game, where one process knows every card.
"""
