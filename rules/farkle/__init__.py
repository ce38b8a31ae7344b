"""Dragon Farkle (2–5 players): push-your-luck dice, brawls, and the Final Battle.

>>> from rules import get_game
>>> game = get_game("farkle")
>>> state = game.new_game(3, {}, seed=1)
>>> game.phase(state).split(".")[1]
'choose'
"""

from rules.core import register
from rules.farkle.game import DragonFarkle

GAME = register(DragonFarkle())

__all__ = ["GAME", "DragonFarkle"]
