"""What travels between two installs: encrypted links, signed envelopes, strict schemas,
the lobby's messages, who may hold a link, and the words a table list warns about (sans-I/O)."""
