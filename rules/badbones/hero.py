"""The hero (rulebook, phase 1 "Move your hero"): one step in eight directions, never off the
board; he destroys every skeleton on the square he enters. Phase 1 and the two-handed sword
(a weapon that moves him again) both strike through :func:`hero_strike`.
"""

from __future__ import annotations

from rules.badbones.board import HERO_DIRS, SIZE
from rules.badbones.skeletons import deliver, resolver_for
from rules.badbones.state import BadBonesState, Board, WeaponDue
from rules.core import Event

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


def hero_strike(state: BadBonesState, seat: int, square: int) -> tuple[int, list[Event]]:
    """The hero enters ``square`` and destroys every skeleton there: returns how many."""
    board = state.boards[seat]
    killed = board.on(square)
    board.hero = square
    if not killed:
        return 0, []
    board.skeletons = [s for s in board.skeletons if s.square != square]
    r = resolver_for(state, seat, board, [0] * state.seats)
    r.kill([s.token for s in killed])
    deliver(state, r)
    events = []
    if r.hero_died:
        events.append(Event("badbones.event.hero_died", {"seat": seat}))
    state.weapons.pop(seat, None)
    if board.weapon and board.hero >= 0 and len(killed) >= WEAPON_KILLS:
        state.weapons[seat] = WeaponDue(r.hero_kills[:], state.stage)
    return len(killed), events
