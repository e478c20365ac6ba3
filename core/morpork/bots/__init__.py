"""Bots see what a seat sees and answer its decisions.

Bots never import a random generator or a clock: the caller hands one in
(a ``random.Random``-like generator; the search bot also takes a clock), so
the rules core stays free of chance and time.
"""
