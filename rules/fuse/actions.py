"""The actions of FUSE (their ``kind`` names are stable: saved action logs use them)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Action


@dataclass(frozen=True)
class Draw(Action):
    """Start: draw and roll the first round's dice (starts the clock in live mode)."""

    kind = "draw"


@dataclass(frozen=True)
class Claim(Action):
    """Take one of the rolled dice, named like ``R4`` (colour letter, number)."""

    kind = "claim"
    die: str


@dataclass(frozen=True)
class Place(Action):
    """Put the claimed die on one of your bomb cards (slot numbers start at 1)."""

    kind = "place"
    card: str
    slot: int


@dataclass(frozen=True)
class Pass(Action):
    """Leave the round's dice (a claimed die is released)."""

    kind = "pass"


@dataclass(frozen=True)
class Take(Action):
    """After a defuse: take a bomb card from the centre row."""

    kind = "take"
    card: str


@dataclass(frozen=True)
class Return(Action):
    """Return one of your dice (the one on ``card`` at ``slot``) to the bag."""

    kind = "return"
    card: str
    slot: int


ACTIONS = (Draw, Claim, Place, Pass, Take, Return)
