"""Trap tiles: one data table for every trap, and the wall's mirror.

A trap on the board is a :class:`Trap` (immutable, so copying a board's trap dict is a shallow
copy).

The table already has the columns the advanced game needs (Market price, indestructible, traps
that may land on skeletons, traps with a hole that shows the printed arrow); the advanced traps
are new rows plus an effect in ``skeletons.py``, nothing else changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.badbones.board import E, N, S, W

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
    coloured: bool = False  # placed white or black side up (the labyrinth)
    permanent: bool = False  # its last side stays for good and cannot be retrieved (bomb)
    # Market availability by player count (1–6 players); the treasure is never sold (D2)
    market: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Trap:
    """A tile on the board: ``side`` 0 is intact, 1 damaged (the index into its ``stars``);
    ``orientation`` is ``\\`` or ``/`` for a wall, ``white`` or ``black`` for a labyrinth,
    ``""`` otherwise."""

    kind: str
    side: int = 0
    orientation: str = ""


# Advanced prices and the advanced traps' stars are house data (rules file, section 5).
TRAPS: dict[str, TrapSpec] = {
    # D1: the wall's damaged side is worth 1 star.
    "wall": TrapSpec("wall", (2, 1), 2, 3, oriented=True, market=(2, 4, 6, 8, 10, 12)),
    "catapult": TrapSpec("catapult", (2, 1), 2, 4, market=(2, 4, 6, 8, 10, 12)),
    "dragon": TrapSpec("dragon", (3, 2), 1, 5, lands_on_skeletons=True, market=(2, 3, 5, 6, 8, 9)),
    # Stolen once, then removed: it has no damaged side.
    "treasure": TrapSpec("treasure", (4,), 1, 0),
    "barricade": TrapSpec("barricade", (2, 1), 0, 3, market=(1, 1, 2, 2, 3, 3)),
    "spring": TrapSpec("spring", (2, 1), 0, 3, market=(1, 1, 2, 2, 3, 3)),
    "labyrinth": TrapSpec(
        "labyrinth", (2,), 0, 4, indestructible=True, coloured=True, market=(1, 1, 2, 2, 3, 3)
    ),
    "portal": TrapSpec("portal", (2, 1), 0, 4, market=(1, 1, 2, 2, 3, 3)),
    # Intact, then the blast area (0 stars) for the rest of the game; it has a hole.
    "bomb": TrapSpec(
        "bomb",
        (2, 0),
        0,
        5,
        lands_on_skeletons=True,
        shows_arrow=True,
        permanent=True,
        market=(1, 1, 2, 2, 3, 3),
    ),
    "hearse": TrapSpec("hearse", (2,), 0, 6, indestructible=True, market=(1, 1, 2, 2, 3, 3)),
}
BASIC_TRAPS = ("wall", "catapult", "dragon", "treasure")
ADVANCED_TRAPS = ("barricade", "bomb", "hearse", "labyrinth", "portal", "spring")
WHITE, BLACK = "white", "black"
COLOURS = (WHITE, BLACK)

# Weapon cards: Market price (house data, rules file section 5); one card of each.
WEAPONS: dict[str, int] = {
    "crossbow": 4,
    "rapier": 4,
    "morningstar": 5,
    "battleaxe": 5,
    "teleport": 5,
    "icewand": 6,
    "sword": 6,
    "deathwand": 6,
}
MARKET_COINS = 20
COOP_MARKET_COINS = 12  # per player, one purse for the team


def market_stock(players: int) -> dict[str, int]:
    """What the Market sells for ``players`` players: traps by the table, one of each weapon."""
    stock = {k: spec.market[players - 1] for k, spec in TRAPS.items() if spec.market[0]}
    stock.update({w: 1 for w in WEAPONS})
    return stock


def price(item: str) -> int:
    return WEAPONS[item] if item in WEAPONS else TRAPS[item].cost


def basic_supply() -> list[str]:
    """The six tiles every player starts with: 2 walls, 2 catapults, 1 dragon, 1 treasure."""
    return [kind for kind in BASIC_TRAPS for _ in range(TRAPS[kind].per_player)]


def stars(trap: Trap) -> int:
    return TRAPS[trap.kind].stars[trap.side]


def supply_stars(kind: str) -> int:
    """Tiles in the supply count as intact (end-of-game scoring)."""
    return TRAPS[kind].stars[0]


def after_trigger(trap: Trap) -> Trap | None:
    """The tile after a phase in which it was triggered: flipped, or ``None`` (destroyed)."""
    spec = TRAPS[trap.kind]
    if spec.indestructible or (spec.permanent and trap.side == len(spec.stars) - 1):
        return trap
    if trap.side + 1 < len(spec.stars):
        return Trap(trap.kind, trap.side + 1, trap.orientation)
    return None


# D6: the wall is a diagonal mirror.
#   \ : moving S→E, E→S, N→W, W→N      / : moving S→W, W→S, N→E, E→N
_REFLECT = {
    BACKSLASH: {S: E, E: S, N: W, W: N},
    SLASH: {S: W, W: S, N: E, E: N},
}


def reflect(direction: int, orientation: str) -> int:
    return _REFLECT[orientation][direction]
