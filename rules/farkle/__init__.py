"""Dragon Farkle (2–5 players): push-your-luck dice, brawls, and the Final Battle.

>>> from rules import get_game
>>> game = get_game("farkle")
>>> state = game.new_game(3, {}, seed=1)
>>> game.phase(state).split(".")[1]
'choose'
"""

from rules.core import Presentation, Registration, register
from rules.farkle.game import DragonFarkle
from rules.farkle.state import FarkleState
from rules.farkle.turn import plays_next


def _plays_next(state: FarkleState) -> int | None:
    """Whose turn follows (named by a brawl's message, which pings them: their turn then
    begins in it); nobody once the dragon is slain."""
    return None if state.stage == "over" else plays_next(state)


GAME = DragonFarkle()
REGISTRATION = register(
    Registration(
        GAME,
        policy="rules.farkle.policy",
        hard="rules.farkle.policy_hard",
        renderer="render.farkle",
        presentation=Presentation(plays_next=_plays_next),
    )
)

__all__ = ["GAME", "REGISTRATION", "DragonFarkle"]
