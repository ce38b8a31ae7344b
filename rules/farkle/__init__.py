"""Dragon Farkle (2–5 players): push-your-luck dice, brawls, and the Final Battle.

>>> from rules import get_game
>>> game = get_game("farkle")
>>> state = game.new_game(3, {}, seed=1)
>>> game.phase(state).split(".")[1]
'choose'
"""

from rules.core import Registration, register
from rules.farkle.game import DragonFarkle

GAME = DragonFarkle()
REGISTRATION = register(
    Registration(
        GAME,
        policy="rules.farkle.policy",
        hard="rules.farkle.policy_hard",
        renderer="render.farkle",
    )
)

__all__ = ["GAME", "REGISTRATION", "DragonFarkle"]
