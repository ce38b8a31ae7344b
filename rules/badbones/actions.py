"""The actions of Bad Bones (their ``kind`` names are stable: saved action logs use them)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Action


@dataclass(frozen=True)
class Move(Action):
    """Phase 1: the hero steps one square (N NE E SE S SW W NW)."""

    kind = "move"
    direction: str


@dataclass(frozen=True)
class Place(Action):
    """Phase 2: a trap from the supply onto a square (``orientation`` ``\\`` or ``/`` for a wall,
    ``""`` for the others)."""

    kind = "place"
    trap: str
    square: str
    orientation: str = ""


@dataclass(frozen=True)
class Retrieve(Action):
    """Phase 2: a trap from the board back to the supply (intact again)."""

    kind = "retrieve"
    square: str


@dataclass(frozen=True)
class Nothing(Action):
    """Phase 2: do nothing."""

    kind = "nothing"


@dataclass(frozen=True)
class Prefer(Action):
    """Any time: a standing answer for one owner's choice (D5)."""

    kind = "prefer"
    choice: str
    value: str


@dataclass(frozen=True)
class Choose(Action):
    """While a phase resolves: answer the open question of your board (D5)."""

    kind = "choose"
    answer: str


ACTIONS: tuple[type[Action], ...] = (Move, Place, Retrieve, Nothing, Prefer, Choose)
SUBMISSIONS = (Move, Place, Retrieve, Nothing)


@dataclass(frozen=True)
class Buy(Action):
    """Advanced, the Market: buy one item (a trap or a weapon)."""

    kind = "buy"
    item: str


@dataclass(frozen=True)
class Pass(Action):
    """Advanced, the Market: stop buying (final)."""

    kind = "pass"


@dataclass(frozen=True)
class Weapon(Action):
    """Advanced: use your weapon (``target`` and ``to`` depend on the weapon, see weapons.py)."""

    kind = "weapon"
    target: str
    to: str = ""


@dataclass(frozen=True)
class Skip(Action):
    """Advanced: do not use your weapon this time."""

    kind = "skip"


@dataclass(frozen=True)
class Start(Action):
    """Cooperative setup: the tower your hero starts on."""

    kind = "start"
    square: str


ACTIONS = (*ACTIONS, Buy, Pass, Weapon, Skip, Start)
