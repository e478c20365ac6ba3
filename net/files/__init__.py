"""A table's files: the journal as it is written, the public transcript and its offline audit,
the install's home (identity, names, saves) and a seat's secrets (sans-I/O encoding)."""
