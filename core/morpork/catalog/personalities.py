"""The seven personality cards and their winning conditions by table size.
"""
from __future__ import annotations

from typing import Any

PERSONALITIES: list[dict[str, Any]] = [{'id': 'lord-vetinari',
  'name': 'Lord Vetinari',
  'condition': 'minion_presence',
  'thresholds': {2: 11, 3: 10, 4: 9},
  'text': 'At the start of your turn you win if your minions occupy at least N different areas '
          'that contain no demon: 11 areas with 2 players, 10 with 3, 9 with 4.'},
 {'id': 'lord-selachii',
  'name': 'Lord Selachii',
  'condition': 'area_control',
  'thresholds': {2: 7, 3: 5, 4: 4},
  'text': 'At the start of your turn you win if you control at least N areas: 7 with 2 players, 5 '
          'with 3, 4 with 4.'},
 {'id': 'lord-rust',
  'name': 'Lord Rust',
  'condition': 'area_control',
  'thresholds': {2: 7, 3: 5, 4: 4},
  'text': 'Same condition as Lord Selachii.'},
 {'id': 'lord-de-worde',
  'name': 'Lord de Worde',
  'condition': 'area_control',
  'thresholds': {2: 7, 3: 5, 4: 4},
  'text': 'Same condition as Lord Selachii.'},
 {'id': 'dragon-king-of-arms',
  'name': 'Dragon King of Arms',
  'condition': 'trouble_markers_on_board',
  'thresholds': {2: 8, 3: 8, 4: 8},
  'text': 'At the start of your turn you win if there are at least 8 trouble markers on the board '
          '(any areas, demon areas included).'},
 {'id': 'chrysoprase',
  'name': 'Chrysoprase',
  'condition': 'net_worth',
  'thresholds': {3: 50, 4: 50},
  'text': 'At the start of your turn you win if your cash plus the building cost of every building '
          'you own, minus $12 for each loan card (Mr Bent / The Bank of Ankh-Morpork) you hold, is '
          '$50 or more. Buildings in demon-occupied areas are worth $0. Removed from the '
          'personality deck before dealing in a 2-player game.'},
 {'id': 'commander-vimes',
  'name': 'Commander Vimes',
  'condition': 'draw_pile_exhausted',
  'thresholds': {},
  'text': 'You win if the game ends because the draw pile has been used up without anyone else '
          'having won. A Riots ending is decided on points even if you are in the game.'}]
