"""The guild variant\x27s screens."""
