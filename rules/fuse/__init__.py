"""FUSE (Kane Klenko, Renegade Game Studios): cooperative real-time dice, 1–5 players."""

from rules.core import register
from rules.fuse.game import Fuse

FUSE = Fuse()
register(FUSE)

__all__ = ["FUSE", "Fuse"]
