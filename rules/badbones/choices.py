"""D5: the choices a board's owner makes while skeletons move, their preferences and defaults.

Three choices arise in the basic game:

- ``top``: which opponent's cemetery receives a skeleton leaving through the top forest;
- ``catapult``: which opponent receives everything one catapult throws this phase (D10);
- ``dragon``: where each skeleton fleeing the dragon goes (D7).

Each player has a standing preference per choice (command ``prefer``):

- ``ask``  — stop and ask the owner (a pending ``choose`` input) whenever there is a real choice;
- ``auto`` — never ask; use the default below;
- a seat number (1-based, as the table image shows it) for ``top``/``catapult``, or a direction
  ``N``/``E``/``S``/``W`` for ``dragon`` — use it whenever it is possible, else the default.

Defaults (also what an AFK owner gets at the deadline):

- targets: the opponent with the most points right now (the leader), ties broken by the first
  such opponent to your right (seat order);
- dragon: the direction whose square is best for the owner, in this order: off the board into a
  forest, or onto the hero (the skeleton leaves the board) → onto a catapult → a plain square
  facing north → facing east/west → a square whose arrow would turn it → facing south → onto a
  wall, dragon or treasure, or beside the owner's treasure (the skeleton turns toward it and
  steals it next phase) → into the tower. Ties go N, E, W, S.
"""

from __future__ import annotations

from rules.badbones.board import DIRS, EXIT_VILLAGE, Layout, N, S
from rules.badbones.state import Board

CHOICES = ("top", "catapult", "dragon", "hearse", "instructor")
# Choices whose answer is a direction (the others name an opponent's seat).
DIRECTION_CHOICES = ("dragon", "instructor")
ASK, AUTO = "ask", "auto"
PREFERENCE_MODES = (ASK, AUTO)


def preference_values(choice: str, seats: int, seat: int) -> list[str]:
    """Every value ``prefer <choice>`` accepts from ``seat``: a target is a rival's seat ("to
    the rival you choose"), never your own, as the live question offers only opponents."""
    if choice in DIRECTION_CHOICES:
        return [ASK, AUTO, *DIRS]
    return [ASK, AUTO, *(str(s + 1) for s in range(seats) if s != seat)]


def default_target(seat: int, seats: int, scores: list[int]) -> int:
    if seats == 1:
        return seat
    order = [(seat + k) % seats for k in range(1, seats)]
    best = max(scores[s] for s in order)
    return next(s for s in order if scores[s] == best)


def repel_options(layout: Layout, square: int) -> list[int]:
    """Directions a skeleton may flee from a dragon on ``square``: never into the village."""
    return [d for d in (N, 1, 3, S) if layout.step[square][d] != EXIT_VILLAGE]


def repel_rank(board: Board, layout: Layout, square: int, d: int) -> int:
    """Lower is better for the owner (the default of the module docstring)."""
    target = layout.step[square][d]
    tower = target >= 0 and layout.is_tower[target] and target not in board.ruins
    if target < 0 or (target == board.hero and not tower):
        return 0
    if tower:
        return 9
    trap = board.traps.get(target)
    if trap is not None and not (trap.kind == "bomb" and trap.side):
        return 1 if trap.kind in ("catapult", "hearse", "bomb") else 7
    if any(layout.step[target][td] in _treasures(board) for td in range(4)):
        return 7  # it turns toward the treasure beside it and steals it next phase
    arrow = layout.arrow[target]
    if arrow >= 0 and (arrow - d) % 2 == 1:
        return 5
    return {N: 2, S: 6}.get(d, 3)


def _treasures(board: Board) -> set[int]:
    """The owner's treasures a skeleton could steal (not one the hero stands on)."""
    return {sq for sq, t in board.traps.items() if t.kind == "treasure" and sq != board.hero}


def default_repel(board: Board, layout: Layout, square: int) -> int:
    options = repel_options(layout, square)
    return min(options, key=lambda d: repel_rank(board, layout, square, d))
