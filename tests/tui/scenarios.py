"""Game situations fixed by records (docs/record.md): hands, personalities,
areas and the moves so far are all written down, so each opens the same way."""
from __future__ import annotations

SETUP = """\
# ankh record 1
players: 3
seed: 5
first: {first}
personality red: lord-vetinari
personality yellow: lord-rust
personality green: dragon-king-of-arms
hand red: gaspode groat hex the-royal-mint {red5}
hand yellow: mr-gryle captain-carrot the-mended-drum modo sergeant-angua
hand green: librarian dr-cruces the-dysk rincewind history-monks
area the-hippo: red yellow building=green
area dimwell: red red red troll
"""

# Yellow assassinates red's minion in The Shades; red holds Gaspode: an interrupt window.
INTERRUPT_WINDOW = SETUP.format(first="yellow", red5="nobby-nobbs") + """
yellow: play mr-gryle
yellow: assassinate the-shades red
"""

# Red plays Nobby Nobbs and carries out its text: take $3 from which player?
CARD_TARGET = SETUP.format(first="red", red5="nobby-nobbs") + """
red: play nobby-nobbs
red: scroll
"""

# Red plays Queen Molly; the bot chosen must pick two cards to give red.
GIVE_TWO = SETUP.format(first="red", red5="queen-molly") + """
red: play queen-molly
red: minion the-hippo
red: scroll
"""

# The last card of the draw pile goes at the end of red's turn: scored on points.
SCORED = """\
# ankh record 1
players: 3
seed: 9
first: red
personality red: lord-vetinari
personality yellow: lord-rust
personality green: dragon-king-of-arms
hand red: groat gaspode hex the-royal-mint nobby-nobbs
area the-hippo: red yellow building=green
area dimwell: red red red troll
area small-gods: yellow yellow building=yellow
draw-pile: 1

red: play groat
red: minion dragons-landing
"""

# Red's turn with an empty hand choice: the first decision of a game.
OPENING = """\
# ankh record 1
players: 3
seed: 3
first: red
personality red: lord-vetinari
hand red: hex drumknott zorgo-the-retro-phrenologist shonky-shop the-ankh-morpork-sunshine-dragon-sanctuary
"""

# Red plays Groat: place a minion (areas can be clicked on the map).
PLACE_MINION = SETUP.format(first="red", red5="nobby-nobbs") + """
red: play groat
"""

# Three bot turns after red's: yellow's Gaspode cancels red's Duckman move, yellow
# assassinates red's minion in The Shades, green's Hubert makes blue pay red $3;
# blue (whose every card draws a random event first) is still to play: Explosion
# in The Hippo (roll 6) when it does.
FOLLOW = """\
# ankh record 1
players: 4
seed: 5
first: red
personality red: lord-vetinari
personality yellow: lord-rust
personality green: dragon-king-of-arms
personality blue: lord-selachii
hand red: the-duckman groat hex the-royal-mint nobby-nobbs
hand yellow: gaspode mr-gryle captain-carrot the-mended-drum modo
hand green: hubert dr-cruces the-dysk librarian history-monks
hand blue: archchancellor-ridcully rincewind the-senior-wrangler ponder-stibbons doctor-hix
events: explosion
rolls: 6
area the-hippo: red yellow building=green
area dimwell: red red red troll

red: play the-duckman
red: scroll
red: move the-shades yellow the-hippo
yellow: interrupt gaspode
yellow: play mr-gryle
yellow: assassinate the-shades red
green: play hubert
green: scroll
green: target blue
green: target red
green: minion the-hippo
green: end
"""

# Three players on the starting board, {first} to play first.
THREE = """\
# ankh record 1
players: 3
seed: 5
first: {first}
personality red: lord-vetinari
personality yellow: lord-rust
personality green: dragon-king-of-arms
"""

# Red holds {card} and four more.
RED_HOLDS = THREE.format(first="red") + """\
hand red: {card} groat hex the-royal-mint nobby-nobbs

"""

# Red plays Mrs Cake: carrying out its text shows red the unused personalities.
MRS_CAKE = RED_HOLDS.format(card="mrs-cake") + """
red: play mrs-cake
"""

# Red plays The Duckman: 22 ways to move another player's minion, in two steps.
TWO_STEP = RED_HOLDS.format(card="the-duckman") + """
red: play the-duckman
red: scroll
"""

# Yellow plays The Beggars' Guild on red: red gives two cards, one at a time.
BEGGARS = THREE.format(first="yellow") + """\
hand red: groat hex the-royal-mint nobby-nobbs modo
hand yellow: the-beggars-guild mr-gryle captain-carrot the-mended-drum sergeant-angua

yellow: play the-beggars-guild
yellow: scroll
yellow: target red
"""

# Red has played Groat and holds the Nap Hill City Area card (no Doctor Mossy Lawn).
END_WITH_CITY_CARD = THREE.format(first="red") + """\
hand red: groat hex the-royal-mint nobby-nobbs modo
area nap-hill: red building=red

red: play groat
red: minion the-hippo
"""
