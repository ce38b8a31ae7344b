"""Bad Bones (David Flies, Sit Down!): the basic game for 2–6 players and the solo game."""

from collections.abc import Mapping
from typing import Any

from rules.badbones.game import BadBones
from rules.core import Registration, register


def against_the_game(options: Mapping[str, Any], seats: int) -> str | None:
    """The cooperative game (the team against the skeletons) and the solo game are played
    against the game: one rating per variant, harder with ``heroic``."""
    if not (options.get("cooperative") or seats == 1):
        return None
    variant = "coop" if options.get("cooperative") else "solo"
    return f"{variant}{'-heroic' if options.get('heroic') else ''}"


GAME = BadBones()
REGISTRATION = register(
    Registration(
        GAME,
        policy="rules.badbones.policy",
        hard="rules.badbones.search",
        renderer="render.badbones",
        versus=against_the_game,
    )
)

__all__ = ["GAME", "REGISTRATION", "BadBones"]
