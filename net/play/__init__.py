"""A game played over the protocol: the public log, one seat and its peer, the star's relay,
endings by the seats' agreement, the local and in-memory tables, and what a table tells the
screens (sans-I/O)."""
