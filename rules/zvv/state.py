"""The position: plain data, what is derived from it, and its saved form.

A pawn is home iff it stands in its target zone (it never leaves it, D8), so there is no flag
for it. The walls' derived fields (``wallmask``, ``points``, ``taken``) are rebuilt from
``walls`` by ``derive`` and never saved; ``memo`` holds what one position's legal actions cost
to find. ``dump``/``load`` keep the saved format games in the database already have.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, Board, Wall, board

SCHEMA = 1
PAWNS = 9
KINDS = ("zombie", "vampire", "zombie", "vampire")  # players 3–4 play the same sides in new colours
POINT = 1 << 20  # offset of inner-point ids in ``ZvvState.taken``


@dataclass
class ZvvState:
    schema: int
    size: int
    seats: int
    options: dict[str, Any]
    pawns: list[list[int]]  # per seat, the squares of its 9 pawns (pawn order is stable)
    walls: list[Wall]  # in the order they were built
    supply: list[int]  # walls left of length 1, 2, 3
    turn: int  # the seat whose turn it is
    turns: int  # turns completed so far
    phase: str  # roll | move | split | split_more | plusminus | build | pass | over
    face: str  # the action die ("" before the roll): 2 4 6 build plusminus split
    wall_len: int  # the wall die (0 when not rolled this turn)
    moved: int  # 2*: the square the first pawn stopped on (-1 otherwise)
    bonus_used: bool  # the house extra roll (D5) was used this turn
    current: list[dict[str, Any]]  # what the turn in progress did (for the picture)
    last: list[dict[str, Any]]  # what the previous turn did
    locked: list[int]  # seats that can never finish (D7), in the order they got locked
    winners: list[int]
    ended_by: str  # "" | "win" | "limit" | "locked"
    rng: int
    actions: int  # actions applied (part of the phase token)
    # Derived from ``walls`` (rebuilt by ``load``; never dumped): the wall sides of each square
    # as a bit mask (bit d: a wall on side d) and the grid points strictly inside walls.
    wallmask: list[int] = field(default_factory=list, compare=False)
    points: set[int] = field(default_factory=set, compare=False)
    # Every unit edge (square * 4 + side) and inner point (``POINT + p``) a wall takes, for
    # checking all placements at C speed (``set.isdisjoint``).
    taken: set[int] = field(default_factory=set, compare=False)
    # Memo of the legal actions and the default for one position (see ``memo``): pending,
    # legal_actions and autocomplete all ask for them, often several times per action.
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


# --------------------------------------------------------------------- saved form


def dump(state: ZvvState) -> dict[str, Any]:
    return {
        "schema": state.schema,
        "size": state.size,
        "seats": state.seats,
        "options": dict(state.options),
        "pawns": [list(p) for p in state.pawns],
        "walls": [list(w) for w in state.walls],
        "supply": list(state.supply),
        "turn": state.turn,
        "turns": state.turns,
        "phase": state.phase,
        "face": state.face,
        "wall_len": state.wall_len,
        "moved": state.moved,
        "bonus_used": state.bonus_used,
        "current": [copy_entry(e) for e in state.current],
        "last": [copy_entry(e) for e in state.last],
        "locked": list(state.locked),
        "winners": list(state.winners),
        "ended_by": state.ended_by,
        "rng": state.rng,
        "actions": state.actions,
    }


def load(data: dict[str, Any]) -> ZvvState:
    state = ZvvState(
        schema=int(data.get("schema", SCHEMA)),
        size=int(data["size"]),
        seats=int(data["seats"]),
        options=dict(data["options"]),
        pawns=[list(p) for p in data["pawns"]],
        walls=[(str(w[0]), int(w[1]), int(w[2]), int(w[3])) for w in data["walls"]],
        supply=list(data["supply"]),
        turn=int(data["turn"]),
        turns=int(data["turns"]),
        phase=str(data["phase"]),
        face=str(data["face"]),
        wall_len=int(data["wall_len"]),
        moved=int(data["moved"]),
        bonus_used=bool(data["bonus_used"]),
        current=[copy_entry(e) for e in data["current"]],
        last=[copy_entry(e) for e in data["last"]],
        locked=[int(s) for s in data["locked"]],
        winners=list(data["winners"]),
        ended_by=str(data["ended_by"]),
        rng=int(data["rng"]),
        actions=int(data["actions"]),
    )
    derive(state)
    return state


def copy_entry(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in entry.items()}


# --------------------------------------------------------------------- derived from the walls


def wall_ids(b: Board, wall: Wall) -> tuple[int, ...]:
    """The ids a wall takes in ``ZvvState.taken``: one per unit edge, one per inner point."""
    edges = tuple(sq * 4 + side for sq, side in b.wall_edges(wall)[::2])
    return edges + tuple(POINT + p for p in b.wall_points(wall))


def derive(state: ZvvState) -> None:
    """Rebuild the fields derived from ``walls`` (after ``load``, or a hand-made position)."""
    b = board(state.size)
    state.wallmask = [0] * (b.size * b.size)
    state.points = set()
    state.taken = set()
    for wall in state.walls:
        for sq, side in b.wall_edges(wall):
            state.wallmask[sq] |= 1 << side
        state.points.update(b.wall_points(wall))
        state.taken.update(wall_ids(b, wall))


# --------------------------------------------------------------------- questions on the position


def memo(state: ZvvState) -> dict[str, Any]:
    """The state's memo, emptied when the position changed since it was filled.

    The key is the whole position that legal actions depend on, not a counter, so that code
    which edits a state by hand (tests, the notation helper) never reads a stale memo."""
    key = (
        state.phase,
        state.face,
        state.wall_len,
        state.turn,
        state.moved,
        state.bonus_used,
        tuple(map(tuple, state.pawns)),
        tuple(state.walls),
        tuple(state.supply),
        state.options.get("extra_roll"),
    )
    memo = state.memo
    if memo.get("key") != key:
        memo.clear()
        memo["key"] = key
    return memo


def face_key(face: str) -> str:
    """The catalogue key of an action die face (errors and events name the face shown)."""
    return f"zvv.face.{face}"


def face_args(state: ZvvState) -> dict[str, str]:
    """The face shown, as an error's arguments (none before the roll)."""
    return {"face_key": face_key(state.face)} if state.face else {}


def occupied(state: ZvvState) -> bytearray:
    """Per square: 0 if empty, else the seat standing there plus one."""
    occ = bytearray(state.size * state.size)
    for seat, pawns in enumerate(state.pawns):
        for sq in pawns:
            occ[sq] = seat + 1
    return occ


def target_zone(state: ZvvState, seat: int) -> frozenset[int]:
    """The squares of the seat's target zone (the corner opposite its start)."""
    return board(state.size).zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])


def home_count(state: ZvvState, seat: int) -> int:
    """How many of the seat's pawns are home."""
    home = target_zone(state, seat)
    return sum(1 for sq in state.pawns[seat] if sq in home)


def owner(state: ZvvState, sq: int) -> int | None:
    """The seat whose pawn stands on ``sq``, if any."""
    for seat, pawns in enumerate(state.pawns):
        if sq in pawns:
            return seat
    return None
