"""Walls: Build places one straight wall of the wall die's length from the shared supply (D3),
± removes any wall back to the supply (or rolls the wall die and builds). Walls may not overlap
or cross other walls, nor lie inside a corner zone; the geometry is ``board.Board``'s.

Each action's check and its effect sit together: ``Build`` (``when_build``, ``check_build``,
``build``) and ``Remove`` (``when_remove``, ``check_remove``, ``remove``).
"""

from __future__ import annotations

from functools import cache

from rules.core import Event, RulesError
from rules.zvv.actions import Build, Remove
from rules.zvv.board import _WALL_RE, Board, Wall, board, side_letter
from rules.zvv.state import ZvvState, face_args, wall_ids
from rules.zvv.turns import end_turn


@cache
def placements(size: int, length: int) -> tuple[tuple[Wall, tuple[int, ...], Build], ...]:
    """Every wall of ``length`` not inside a zone, with its ids and its action (cached per
    board size: placements never change, only which are free)."""
    b = board(size)
    return tuple((w, wall_ids(b, w), Build(b.wall_name(w))) for w in b.all_walls(length))


def free_placements(state: ZvvState) -> list[tuple[Wall, tuple[int, ...], Build]]:
    if state.wall_len < 1 or state.supply[state.wall_len - 1] <= 0:
        return []
    taken = state.taken
    return [p for p in placements(state.size, state.wall_len) if taken.isdisjoint(p[1])]


def legal_walls(state: ZvvState) -> list[Wall]:
    """Every wall of the rolled length that may be built now."""
    return [p[0] for p in free_placements(state)]


def legal_builds(state: ZvvState) -> list[Build]:
    return [p[2] for p in free_placements(state)]


def legal_removes(state: ZvvState) -> list[Remove]:
    b = board(state.size)
    return [Remove(b.wall_name(w)) for w in state.walls]


# --------------------------------------------------------------------- Build


def when_build(state: ZvvState) -> None:
    if state.phase == "plusminus":
        raise RulesError("zvv.error.roll_wall_die")
    if state.phase != "build":
        raise RulesError("zvv.error.not_a_build", **face_args(state))


def check_build(state: ZvvState, seat: int, action: Build) -> None:
    b = board(state.size)
    wall = wall_text(b, action.wall)
    check_wall(state, b, wall)
    if b.wall_name(wall) != action.wall:
        # Actions carry the one canonical name (``parse`` reads every other way of
        # writing a wall), so the legal actions are exactly what ``play`` accepts.
        raise RulesError("zvv.error.bad_wall", wall=str(action.wall)[:20])


def check_wall(state: ZvvState, b: Board, wall: Wall) -> None:
    name = b.wall_name(wall)
    if wall[3] != state.wall_len:
        raise RulesError("zvv.error.wall_length", wall=name, length=state.wall_len)
    if state.supply[wall[3] - 1] <= 0:
        raise RulesError("zvv.error.no_supply", length=wall[3])
    if b.in_zone(wall):
        raise RulesError("zvv.error.wall_in_zone", wall=name)
    for sq, side in b.wall_edges(wall):
        if state.wallmask[sq] >> side & 1:
            raise RulesError("zvv.error.wall_overlap", wall=name)
    if any(p in state.points for p in b.wall_points(wall)):
        raise RulesError("zvv.error.wall_cross", wall=name)


def build(state: ZvvState, seat: int, action: Build, events: list[Event]) -> None:
    b = board(state.size)
    wall = b.parse_wall(action.wall)
    assert wall is not None  # checked by check
    add_wall(state, wall)
    state.supply[wall[3] - 1] -= 1
    state.current.append({"type": "build", "wall": b.wall_name(wall)})
    events.append(
        Event("zvv.event.built", {"seat": seat, "wall": b.wall_name(wall), "length": wall[3]})
    )
    end_turn(state, events)


def add_wall(state: ZvvState, wall: Wall) -> None:
    b = board(state.size)
    state.walls.append(wall)
    for sq, side in b.wall_edges(wall):
        state.wallmask[sq] |= 1 << side
    state.points.update(b.wall_points(wall))
    state.taken.update(wall_ids(b, wall))


# --------------------------------------------------------------------- Remove (±)


def when_remove(state: ZvvState) -> None:
    if state.phase == "build" and state.face == "plusminus":
        # ± went to building: the wall die was rolled, or the board had no wall.
        why = "chose_build" if state.walls else "nothing_to_remove"
        raise RulesError(f"zvv.error.{why}", length=state.wall_len)
    if state.phase != "plusminus":
        raise RulesError("zvv.error.not_a_remove", **face_args(state))


def check_remove(state: ZvvState, seat: int, action: Remove) -> None:
    b = board(state.size)
    found = find_wall(state, action.wall)
    if found is None or b.wall_name(found) != action.wall:
        raise RulesError("zvv.error.no_wall", wall=wall_text_name(b, action.wall))


def remove(state: ZvvState, seat: int, action: Remove, events: list[Event]) -> None:
    b = board(state.size)
    wall = find_wall(state, action.wall)
    assert wall is not None
    remove_wall(state, wall)
    state.supply[wall[3] - 1] += 1
    state.current.append({"type": "remove", "wall": b.wall_name(wall)})
    events.append(
        Event("zvv.event.removed", {"seat": seat, "wall": b.wall_name(wall), "length": wall[3]})
    )
    end_turn(state, events)


def remove_wall(state: ZvvState, wall: Wall) -> None:
    b = board(state.size)
    state.walls.remove(wall)
    for sq, side in b.wall_edges(wall):
        state.wallmask[sq] &= ~(1 << side)
    state.points.difference_update(b.wall_points(wall))
    state.taken.difference_update(wall_ids(b, wall))


# --------------------------------------------------------------------- wall names


def wall_text(b: Board, text: str) -> Wall:
    """Read a wall name for building: malformed is ``bad_wall``, outside the inner lines is
    ``wall_off_board``."""
    match = _WALL_RE.match(str(text))
    if not match:
        raise RulesError("zvv.error.bad_wall", wall=str(text)[:20])
    if not side_letter(match.group(5)):
        raise RulesError("zvv.error.bad_side", side=match.group(5)[:20])
    wall = b.parse_wall(str(text))
    if wall is None:
        raise RulesError("zvv.error.wall_off_board", wall=str(text)[:20].upper())
    return wall


def wall_text_name(b: Board, text: str) -> str:
    wall = b.parse_wall(str(text))
    return b.wall_name(wall) if wall else str(text)[:20].upper()


def find_wall(state: ZvvState, text: str) -> Wall | None:
    """The wall on the board named by ``text``: its exact name, or any one unit edge of it
    (``D3 N`` picks the wall ``C3-E3 N``), from either side."""
    b = board(state.size)
    wall = b.parse_wall(str(text))
    if wall is None:
        return None
    if wall in state.walls:
        return wall
    if wall[3] == 1:
        orient, line, start, _ = wall
        for w in state.walls:
            if w[0] == orient and w[1] == line and w[2] <= start < w[2] + w[3]:
                return w
    return None
