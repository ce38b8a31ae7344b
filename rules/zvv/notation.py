"""A short way to write a position (tests, bug reports, docs) and to print one.

>>> from rules.zvv.notation import position, diagram
>>> s = position(size=9, pawns={0: ["E5"], 1: ["E6"]}, walls=["E5 W"], face="2")
>>> s.phase, s.turn
('move', 0)
>>> print(diagram(s).splitlines()[5])
 5  .  .  .  . |Z  .  .  .  .
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.zvv import GAME
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, board
from rules.zvv.state import PAWNS, ZvvState, derive

# The phase a freshly rolled face leads to.
_FACE_PHASE = {"2": "move", "4": "move", "6": "move", "split": "split", "plusminus": "plusminus"}


def position(
    *,
    size: int = 11,
    seats: int = 2,
    pawns: Mapping[int, Iterable[str]] | None = None,
    walls: Iterable[str] = (),
    turn: int = 0,
    face: str = "",
    wall_len: int = 0,
    options: Mapping[str, Any] | None = None,
    seed: int = 1,
) -> ZvvState:
    """A state with the given pawns and walls, ``turn`` to act on ``face``.

    ``pawns[seat]`` lists some of the seat's pawns by square; the rest (up to 9) stay on their
    start squares where those are free, then on any free square of the start row… (tests name
    what matters). ``face`` "" means the seat still has to roll; ``"build"`` with ``wall_len``
    means the wall die already showed that length.
    """
    opts = dict(options or {})
    opts.setdefault("size", size)
    state = GAME.new_game(seats, opts, seed)
    b = board(state.size)
    given = {s: [_sq(b, name) for name in names] for s, names in (pawns or {}).items()}
    taken = {sq for squares in given.values() for sq in squares}
    for s in range(seats):
        mine = list(given.get(s, []))
        for sq in sorted(b.zone_squares(START_CORNERS[s])) + list(range(b.size * b.size)):
            if len(mine) >= PAWNS:
                break
            if sq not in taken and sq not in b.zone_squares(OPPOSITE_CORNER[START_CORNERS[s]]):
                mine.append(sq)
                taken.add(sq)
        state.pawns[s] = mine
    for name in walls:
        wall = b.parse_wall(name)
        if wall is None:
            raise ValueError(f"not a wall: {name}")
        state.walls.append(wall)
        state.supply[wall[3] - 1] -= 1
    derive(state)
    state.turn = turn
    state.face = face
    if face == "build":
        state.phase, state.wall_len = "build", wall_len
    elif face:
        state.phase = _FACE_PHASE[face]
    return state


def _sq(b: Any, name: str) -> int:
    sq = b.square(name)
    if sq is None:
        raise ValueError(f"not a square: {name}")
    return int(sq)


def diagram(state: ZvvState) -> str:
    """The board as text: ``Z``/``V`` for seats 0/1, ``z``/``v`` for seats 2/3, ``.`` empty;
    ``|`` a wall on a square's west side, ``_`` under a square a wall on its south side."""
    b = board(state.size)
    marks = "ZVzv"
    at: dict[int, str] = {}
    for s, squares in enumerate(state.pawns):
        for sq in squares:
            at[sq] = marks[s]
    lines = ["    " + "  ".join(b.names[c][0] for c in range(b.size))]
    for r in range(b.size):
        row = f"{r + 1:>2} "
        under = "   "
        for c in range(b.size):
            sq = r * b.size + c
            row += "|" if state.wallmask[sq] >> 3 & 1 else " "
            row += at.get(sq, ".") + " "
            under += " " + ("_" if state.wallmask[sq] >> 2 & 1 else " ") + " "
        lines.append(row.rstrip())
        if under.strip():
            lines.append(under.rstrip())
    return "\n".join(lines)
