"""Bots see what a seat sees and answer its decisions.

Bots never import a random generator: the caller hands one in (anything
with ``random()`` and ``choice()``), so the rules core stays free of chance.
"""
