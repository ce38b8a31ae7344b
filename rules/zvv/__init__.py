"""Zombies vs Vampires (``zvv``): a race of nine pawns to the opposite corner, with walls."""

from rules.core import register
from rules.zvv.game import ZombiesVsVampires, ZvvState

GAME = ZombiesVsVampires()
register(GAME)

__all__ = ["GAME", "ZombiesVsVampires", "ZvvState"]
