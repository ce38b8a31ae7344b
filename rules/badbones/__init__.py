"""Bad Bones (David Flies, Sit Down!): the basic game for 2–6 players and the solo game."""

from rules.badbones.game import BadBones
from rules.core import register

GAME = register(BadBones())

__all__ = ["GAME", "BadBones"]
