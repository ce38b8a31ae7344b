"""Zombies vs Vampires (``zvv``): a race of nine pawns to the opposite corner, with walls."""

from rules.core import Registration, register
from rules.zvv.game import ZombiesVsVampires, ZvvState

GAME = ZombiesVsVampires()
REGISTRATION = register(
    Registration(GAME, policy="rules.zvv.policy", hard="rules.zvv.search", renderer="render.zvv")
)

__all__ = ["GAME", "REGISTRATION", "ZombiesVsVampires", "ZvvState"]
