"""End-of-game scoring and the winner (rulebook "End of the Game", D11)."""

from __future__ import annotations

from rules.badbones.state import Board
from rules.badbones.traps import stars, supply_stars

FLOOR_POINTS = 4
HOUSE_POINTS = 3


def score(board: Board) -> int:
    """Stars in the supply (all counted intact) + stars on the board as they lie
    + 4 per tower floor + 3 per intact house."""
    return (
        sum(supply_stars(kind) for kind in board.supply)
        + sum(stars(trap) for trap in board.traps.values())
        + FLOOR_POINTS * board.floors
        + HOUSE_POINTS * board.houses
    )


def final_scores(boards: list[Board]) -> dict[int, int | None]:
    """Points per seat; an eliminated player does not count points (``None``)."""
    return {s: (None if b.eliminated else score(b)) for s, b in enumerate(boards)}


def winners(boards: list[Board], scores: dict[int, int | None]) -> tuple[int, ...]:
    """Most points; tie: tallest tower (D11); still tied: shared victory."""
    alive = [s for s, v in scores.items() if v is not None]
    if not alive:
        return ()
    best = max((scores[s] or 0, boards[s].floors) for s in alive)
    return tuple(s for s in alive if (scores[s] or 0, boards[s].floors) == best)
