"""What players type: commands read into actions, and what autocomplete offers.

Actions carry canonical names only (``Move("C3", "D4")``, ``Build("C3-E3 N")``); this module
reads every other way of writing them (any case, a wall from either side or end, side words in
English or Spanish) and offers, while typing, only what makes a legal action now.
"""

from __future__ import annotations

from typing import Any

from rules.core import Action, CommandArgs, RulesError
from rules.zvv.actions import Build, Move, Pass, Remove, Reroll, Roll, Stop
from rules.zvv.board import SIDES, Board, board, side_letter
from rules.zvv.moves import MOVE_PHASES, excluded, goalward, movable, square
from rules.zvv.state import ZvvState
from rules.zvv.walls import find_wall, legal_walls, wall_text, wall_text_name


def read(state: ZvvState, command: str, given: dict[str, str]) -> Action:
    """The action a command's words name (the turn and the phase already checked)."""
    b = board(state.size)
    if command == "move":
        if "pawn" not in given:
            raise RulesError("zvv.error.no_pawn_given")
        pawn = square(b, given["pawn"])
        if "to" not in given:
            raise RulesError("zvv.error.no_destination", square=b.names[pawn])
        dest = square(b, given["to"])
        return Move(b.names[pawn], b.names[dest])
    if command == "build":
        return build_from_args(state, given)
    if command == "remove":
        return remove_from_args(state, given)
    return {"roll": Roll(), "stop": Stop(), "pass": Pass(), "reroll": Reroll()}[command]


def build_from_args(state: ZvvState, given: dict[str, str]) -> Action:
    b = board(state.size)
    if "square" not in given:
        raise RulesError("zvv.error.no_wall_square")
    sq = square(b, given["square"])
    side = side_letter(given.get("side", ""))
    if not side:
        raise RulesError("zvv.error.bad_side", side=given.get("side", "")[:20])
    direction = side_letter(given.get("direction", "")) or None
    length = state.wall_len
    if length > 1:
        wanted = ("E", "W") if side in "NS" else ("N", "S")
        if direction not in wanted:
            raise RulesError(
                "zvv.error.bad_direction", side=side, choices=" / ".join(wanted), length=length
            )
    wall = b.wall_from(sq, side, direction, length)
    if wall is None:
        raise off_board(b, sq, side, direction or "", length)
    return Build(b.wall_name(wall))


def remove_from_args(state: ZvvState, given: dict[str, str]) -> Action:
    """The wall named by ``wall`` (``C3-E3 N``, ``c3 oeste``…), or by ``wall`` + ``side``
    (``G9`` + ``E``): the same squares and sides ``build`` reads."""
    b = board(state.size)
    text = " ".join(v for v in (given.get("wall", ""), given.get("side", "")) if v)
    wall_text(b, text)  # a malformed name or side says so, not "no such wall"
    wall = find_wall(state, text)
    if wall is None:
        raise RulesError("zvv.error.no_wall", wall=wall_text_name(b, text))
    return Remove(b.wall_name(wall))


def off_board(b: Board, sq: int, side: str, direction: str, length: int) -> RulesError:
    """Why the wall typed as square, side and direction is not on the board: it lies along the
    board's edge (a side of an edge square facing out), or it runs past the last square."""
    r, c = divmod(sq, b.size)
    last = b.size - 1
    args: dict[str, Any] = {"square": b.names[sq], "side_key": f"zvv.side.{side}"}
    if (side, r) in (("N", 0), ("S", last)) or (side, c) in (("W", 0), ("E", last)):
        return RulesError("zvv.error.wall_on_edge", **args)
    return RulesError(
        "zvv.error.wall_runs_off", length=length, direction_key=f"zvv.side.{direction}", **args
    )


def build_args(name: str) -> CommandArgs:
    """``C3-E3 N`` → square C3, side N, direction E (length 1: no direction)."""
    squares, side = name.rsplit(" ", 1)
    first, _, last = squares.partition("-")
    args: CommandArgs = {"square": first, "side": side}
    if last:
        args["direction"] = "E" if side in "NS" else "S"
    return args


# --------------------------------------------------------------------- autocomplete


def suggest(
    state: ZvvState, seat: int, command: str, param: str, filled: dict[str, str]
) -> list[str] | None:
    """The pawns that can move and the squares the chosen one reaches; for walls, the squares,
    sides and directions that make a legal wall of the rolled length. ``None``: the common
    suggestions (from the legal actions) serve."""
    b = board(state.size)
    if command == "move" and state.phase in MOVE_PHASES:
        if param == "pawn":
            return [b.names[sq] for sq in movable(state, seat) if sq != excluded(state)]
        if param == "to":
            start = b.square(filled.get("pawn", ""))
            if start is None or start not in set(movable(state, seat)):
                return []
            return [b.names[sq] for sq in goalward(state, seat, start)]
        return []
    if command == "build" and state.phase == "build":
        options = build_options(state)
        sq = b.square(filled.get("square", ""))
        side = side_letter(filled.get("side", ""))
        if param == "square":
            return list(dict.fromkeys(b.names[s] for s, _, _ in options))
        if param == "side":
            return list(dict.fromkeys(sd for s, sd, _ in options if sq is None or s == sq))
        if param == "direction":
            return list(
                dict.fromkeys(
                    d
                    for s, sd, d in options
                    if d and (sq is None or s == sq) and (not side or sd == side)
                )
            )
        return []
    return None


def build_options(state: ZvvState) -> list[tuple[int, str, str]]:
    """Every (square, side, direction) that names a legal wall now: the same wall can be named
    from either side and from either end, and autocomplete should accept them all."""
    b = board(state.size)
    n = b.size
    out: list[tuple[int, str, str]] = []
    for wall in legal_walls(state):
        orient, line, start, length = wall
        ends = (start, start + length - 1)
        if orient == "h":
            for side, row in (("N", line), ("S", line - 1)):
                out.append((row * n + ends[0], side, "E" if length > 1 else ""))
                if length > 1:
                    out.append((row * n + ends[1], side, "W"))
        else:
            for side, col in (("W", line), ("E", line - 1)):
                out.append((ends[0] * n + col, side, "S" if length > 1 else ""))
                if length > 1:
                    out.append((ends[1] * n + col, side, "N"))
    out.sort(key=lambda o: (o[0], SIDES.index(o[1])))
    return out
