"""The twelve random event cards.
"""
from __future__ import annotations

from typing import Any

EVENTS: list[dict[str, Any]] = [{'id': 'the-dragon',
  'name': 'The Dragon',
  'text': "Roll once. Everything in the rolled area is wiped out: all minions (players' minions, "
          'trolls and demons), the trouble marker and the building.'},
 {'id': 'flood',
  'name': 'Flood',
  'text': 'Roll twice. Each rolled area that borders the river floods. Starting with the active '
          'player and going round, each player must move all their minions out of flooded areas '
          'into neighbouring areas that are not flooded this time (a river-side neighbour is fine '
          'if it did not flood). Buildings, trolls and demons stay put.'},
 {'id': 'fire',
  'name': 'Fire',
  'text': 'Roll to see where the fire starts. No building there: nothing happens. Otherwise that '
          'building burns down and you roll again: if the new area borders the last rolled area '
          'and has a building, it burns too and you keep rolling; the fire dies as soon as a roll '
          'gives a non-adjacent area or an area without a building.'},
 {'id': 'fog',
  'name': 'Fog',
  'text': 'Turn the top five cards of the draw pile face up onto the discard pile so everyone sees '
          'them.'},
 {'id': 'riots',
  'name': 'Riots',
  'text': 'Count the trouble markers in play. At 8 or above the game stops at once and is settled '
          'on points; below 8 nothing happens.'},
 {'id': 'explosion',
  'name': 'Explosion',
  'text': 'Roll once; the building in the rolled area (if any) is removed.'},
 {'id': 'mysterious-murders',
  'name': 'Mysterious Murders',
  'text': 'Each player in turn, starting with the active player and passing the die left, rolls '
          'once and removes one minion of their choice from the rolled area, whether or not it has '
          "a trouble marker. If the roller's own minions are the only ones there, one of them must "
          'go.'},
 {'id': 'demons-from-the-dungeon-dimensions',
  'name': 'Demons from the Dungeon Dimensions',
  'text': 'Roll four times and put a demon in each rolled area (the same area can get more than '
          'one). Every area that gets a demon also gets a trouble marker if it lacks one. While '
          'any demon remains in an area: its City Area power is switched off, its building is '
          'worth nothing, nobody controls it, it does not count for Vetinari, and at the end '
          'nobody scores pieces there.'},
 {'id': 'subsidence',
  'name': 'Subsidence',
  'text': 'Every player owes $2 for each of their buildings on the board. Any building a player '
          'cannot pay for is taken off the board.'},
 {'id': 'bloody-stupid-johnson',
  'name': 'Bloody Stupid Johnson',
  'text': 'Roll once. If someone has a building in the rolled area, its City Area card is put out '
          "of the game for good, so nobody can use that area's power again, and the building's "
          'owner must take one of their own minions out of that area. The building itself stays '
          'and still counts for control and for its value.'},
 {'id': 'trolls',
  'name': 'Trolls',
  'text': 'Roll three times and put a troll in each rolled area (stacking allowed), adding a '
          'trouble marker wherever a minion was already present.'},
 {'id': 'earthquake',
  'name': 'Earthquake',
  'text': 'Roll twice; any building in either rolled area is removed (rolling the same area twice '
          'has no extra effect).'}]
