"""A long option list in groups, each within a few keys.

A decision with more than ``LONG`` options (the phase C menu, the dice set
with parchments, the robber after a 7) is shown in groups under a heading:
what you may do now first (end your turn, neither), then the groups, each
heading with a letter that jumps to its first option and, for what is built
or bought, what it costs.  A group holds at most ``CHUNK`` options (the
robber's 18 spots are four groups by their number), so with the heading's
letter and the arrows every option is at most five keys away; a site is typed
by its number as on the map.
"""
from __future__ import annotations

from ankh.core.guilds.board import PARCH_CARD, PARCH_DEV, PARCH_DICE, PARCH_HOUSE, PARCH_VILLA, SPOT_IDS
from ankh.tui.i18n import N_, _

from .text import COSTS, cost_text

LONG = 9
CHUNK = 5
# The letters no key of the game screen takes: one per group heading, in order.
LETTERS = "abdfgjknovwxyz"

# Each group: the verbs it holds, its heading (with what its options cost).
GROUPS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"end", "roll", "pass", "no-steal", "keep", "promote", "guard", "win", "trade"}), ""),
    (frozenset({"rob"}), N_("Steal a card")),
    (frozenset({"robber"}), N_("Move the robber")),
    (frozenset({"assassin"}), N_("Hire an assassin (two cards, not ore)")),
    (frozenset({"fix"}), N_("Set the dice ({n} parchments)")),
    (frozenset({"found"}), N_("Lay a foundation ({cost})")),
    (frozenset({"house"}), N_("Build a house ({cost})")),
    (frozenset({"villa"}), N_("Build a villa ({cost})")),
    (frozenset({"p-house", "p-villa"}), N_("Build with parchments")),
    (frozenset({"gp"}), N_("Guild points (a card of the guild's resource)")),
    (frozenset({"dev", "p-dev"}), N_("A development token ({cost})")),
    (frozenset({"p-card"}), N_("A card from the bank ({n} parchments)")),
    (frozenset({"bank"}), N_("Trade with the bank")),
    (frozenset({"refresh"}), N_("Receipts")),
)
PARCHMENTS = {"fix": PARCH_DICE, "p-card": PARCH_CARD, "p-dev": PARCH_DEV, "p-house": PARCH_HOUSE,
              "p-villa": PARCH_VILLA}


def _group(option: tuple) -> int:
    return next((i for i, (verbs, _h) in enumerate(GROUPS) if option[0] in verbs), len(GROUPS))


def _number(option: tuple) -> int:
    """The number a robber's spot or a set of the dice goes by (the Shades: none)."""
    if option[0] == "fix":
        return option[1]
    sid = SPOT_IDS[option[1]]
    return int(sid.split(":")[1]) if ":" in sid else 0


def _heading(g: int, chunk: list[tuple], parts: int) -> str:
    verbs, words = GROUPS[g] if g < len(GROUPS) else (frozenset(), N_("Other"))
    verb = chunk[0][0]
    cost = next((COSTS[v] for v in sorted(verbs) if v in COSTS), ())   # (cards, where parchments also pay)
    title = _(words).format(cost=cost_text(cost), n=PARCHMENTS.get(verb, 0))
    if parts > 1 and verb in ("robber", "fix"):
        # the tokens (or totals) the group holds: not the numbers its options are chosen by
        numbers = [_number(o) for o in chunk if _number(o)]
        low, high = min(numbers), max(numbers)
        span = str(low) if low == high else f"{low}–{high}"
        title += " · " + (_("tokens {span}") if verb == "robber" else _("totals {span}")).format(span=span)
    return title


def _chunks(members: list[int], keys: list[int]) -> list[list[int]]:
    """``members`` in chunks of at most ``CHUNK``, about equal; those of one
    key (a number two robber's spots share) in one chunk."""
    runs: list[list[int]] = []
    for k, (i, key) in enumerate(zip(members, keys)):
        if k and key == keys[k - 1]:
            runs[-1].append(i)
        else:
            runs.append([i])
    limit = CHUNK if len(runs) < len(members) else -(-len(members) // -(-len(members) // CHUNK))
    chunks: list[list[int]] = [[]]
    for run in runs:
        if chunks[-1] and len(chunks[-1]) + len(run) > limit:
            chunks.append([])
        chunks[-1].extend(run)
    return chunks


def grouped(options: tuple) -> list[tuple[str, list[int]]] | None:
    """The rows of a long list: (heading, indices of its options), the first
    group without a heading (what ends the decision at once); None for a list
    short enough to read whole, or of one kind (sites typed by their number)."""
    if len(options) <= LONG:
        return None
    by: dict[int, list[int]] = {}
    for i, o in enumerate(options):
        by.setdefault(_group(o), []).append(i)
    if len(by) < 2 and options[0][0] not in ("robber", "fix", "bank", "assassin"):
        return None     # sites alone, typed by their number
    rows: list[tuple[str, list[int]]] = []
    for g in sorted(by):
        members = by[g]
        if g == 0:
            rows.append(("", members))
            continue
        verb = options[members[0]][0]
        if verb in ("robber", "fix"):
            members = sorted(members, key=lambda i: _number(options[i]))
        if verb in ("found", "house", "villa", "p-house", "p-villa"):   # typed by their site: one group
            chunks = [members]
        else:
            chunks = _chunks(members, [_number(options[i]) if verb in ("robber", "fix") else i for i in members])
        for chunk in chunks:
            rows.append((_heading(g, [options[i] for i in chunk], len(chunks)), chunk))
    return rows


def letter_of(rows: list[tuple[str, list[int]]]) -> dict[str, int]:
    """Each headed group's letter: the index of the group in ``rows``."""
    headed = [k for k, (heading, _m) in enumerate(rows) if heading]
    return dict(zip(LETTERS, headed))
