"""The hero (rulebook, phase 1 "Move your hero"): one step in eight directions, never off the
board; he destroys every skeleton on the square he enters (``Resolver.hero_enters``, for his
phase-1 step and the two-handed sword alike).
"""

from __future__ import annotations

from rules.badbones.board import HERO_DIRS, SIZE
from rules.badbones.state import BadBonesState, Board

WEAPON_KILLS = 3  # a weapon triggers when the hero kills this many at once


def _hero_steps() -> dict[str, tuple[int | None, ...]]:
    steps: dict[str, tuple[int | None, ...]] = {}
    for name, (dr, dc) in HERO_DIRS.items():
        targets: list[int | None] = []
        for sq in range(SIZE * SIZE):
            row, col = sq // SIZE + dr, sq % SIZE + dc
            targets.append(row * SIZE + col if 0 <= row < SIZE and 0 <= col < SIZE else None)
        steps[name] = tuple(targets)
    return steps


_HERO_STEPS = _hero_steps()


def hero_target(board: Board, direction: str) -> int | None:
    """The square the hero would step to, or ``None`` off the board (or no hero left)."""
    if board.hero < 0:
        return None
    return _HERO_STEPS[direction][board.hero]


def heroes(state: BadBonesState) -> list[int]:
    """Seats that still have a hero (a killed emperor takes the hero with him)."""
    return [s for s, b in enumerate(state.boards) if b.hero >= 0]
