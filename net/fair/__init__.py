"""The fairness primitives: the group and its proofs, the dice beacon, mental-poker decks,
sealed keys, the random steal, and the evidence that proves a cheat (sans-I/O)."""
