"""Trap tiles: one data table for every trap, and the wall's mirror.

A trap on the board is a tuple ``(kind, side, orientation)``: ``side`` 0 is intact, 1 damaged
(the index into ``stars``); ``orientation`` is ``"\\"`` or ``"/"`` for a wall, ``""`` otherwise.
Tuples are immutable, so copying a board's trap dict is a shallow copy.

The table already has the columns the advanced game needs (Market price, indestructible, traps
that may land on skeletons, traps with a hole that shows the printed arrow); the advanced traps
are new rows plus an effect in ``skeletons.py``, nothing else changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.badbones.board import E, N, S, W

Trap = tuple[str, int, str]

BACKSLASH = "\\"
SLASH = "/"
ORIENTATIONS = (BACKSLASH, SLASH)


@dataclass(frozen=True)
class TrapSpec:
    kind: str
    stars: tuple[int, ...]  # by side: (intact, damaged); one entry = no damaged side
    per_player: int  # in the basic supply
    cost: int  # advanced Market price (D2: the treasure is free, its price kept for reference)
    oriented: bool = False  # placed as \ or / (the wall)
    lands_on_skeletons: bool = False  # may be placed on skeletons (the dragon's landing, D8)
    indestructible: bool = False
    shows_arrow: bool = False  # a tile with a hole: the printed arrow still works under it


TRAPS: dict[str, TrapSpec] = {
    # D1: the wall's damaged side is worth 1 star.
    "wall": TrapSpec("wall", (2, 1), 2, 3, oriented=True),
    "catapult": TrapSpec("catapult", (2, 1), 2, 4),
    "dragon": TrapSpec("dragon", (3, 2), 1, 5, lands_on_skeletons=True),
    # Stolen once, then removed: it has no damaged side.
    "treasure": TrapSpec("treasure", (4,), 1, 0),
}
BASIC_TRAPS = ("wall", "catapult", "dragon", "treasure")


def basic_supply() -> list[str]:
    """The six tiles every player starts with: 2 walls, 2 catapults, 1 dragon, 1 treasure."""
    return [kind for kind in BASIC_TRAPS for _ in range(TRAPS[kind].per_player)]


def stars(trap: Trap) -> int:
    return TRAPS[trap[0]].stars[trap[1]]


def supply_stars(kind: str) -> int:
    """Tiles in the supply count as intact (end-of-game scoring)."""
    return TRAPS[kind].stars[0]


def after_trigger(trap: Trap) -> Trap | None:
    """The tile after a phase in which it was triggered: flipped, or ``None`` (destroyed)."""
    spec = TRAPS[trap[0]]
    if spec.indestructible:
        return trap
    if trap[1] + 1 < len(spec.stars):
        return (trap[0], trap[1] + 1, trap[2])
    return None


# D6: the wall is a diagonal mirror.
#   \ : moving S→E, E→S, N→W, W→N      / : moving S→W, W→S, N→E, E→N
_REFLECT = {
    BACKSLASH: {S: E, E: S, N: W, W: N},
    SLASH: {S: W, W: S, N: E, E: N},
}


def reflect(direction: int, orientation: str) -> int:
    return _REFLECT[orientation][direction]
