"""Pure game engines: no I/O, no Discord, no database.

>>> from rules import get_game
>>> game = get_game("zvv")  # doctest: +SKIP
"""

from rules.core import RulesError, game_names, get_game

__all__ = ["RulesError", "game_names", "get_game"]
