"""The actions of Zombies vs Vampires (their ``kind`` names are stored in action logs: never
rename them). Squares and walls are written the way players type them (``C3``, ``C3-E3 N``)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Action


@dataclass(frozen=True)
class Roll(Action):
    """Roll the action die (or, after ±, the wall die to build; or a house-rule re-roll)."""

    kind = "roll"


@dataclass(frozen=True)
class Move(Action):
    """Move the pawn standing on ``pawn`` to ``to``."""

    kind = "move"
    pawn: str
    to: str


@dataclass(frozen=True)
class Build(Action):
    """Place the wall named ``wall`` (``C3-E3 N``: along the north sides of C3…E3)."""

    kind = "build"
    wall: str


@dataclass(frozen=True)
class Remove(Action):
    """Take the wall named ``wall`` off the board, back to the supply."""

    kind = "remove"
    wall: str


@dataclass(frozen=True)
class Stop(Action):
    """After 2* moved one pawn a single step: give up the second step."""

    kind = "stop"


@dataclass(frozen=True)
class Pass(Action):
    """Nothing the roll allows is possible (D4)."""

    kind = "pass"


@dataclass(frozen=True)
class Reroll(Action):
    """House rule D5 ("reroll"): roll the action die again instead of using the result."""

    kind = "reroll"
