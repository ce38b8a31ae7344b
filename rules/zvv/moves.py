"""Moving pawns: 2, 4 and 6 move one pawn up to that many steps, 2* splits two steps between at
most two pawns (D2); a step goes to the square next to it or jumps one adjacent pawn (the
search itself is ``board.reach``). A pawn that arrives stays home (D8); the ninth wins.

Each action's check and its effect sit together: ``Move`` (``when_move``, ``check_move``,
``move``) and ``Stop`` (``when_stop``, ``stop``). The rest answers the engine's questions: who
can move where, and the absent player's move.
"""

from __future__ import annotations

from rules.core import Event, RulesError
from rules.zvv.actions import Move, Stop
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, Board, board, can_step, path_to, reach
from rules.zvv.state import ZvvState, face_args, memo, occupied, owner, target_zone
from rules.zvv.turns import end_turn
from rules.zvv.winning import arrived, check_locks

MOVE_PHASES = ("move", "split", "split_more")


def square(b: Board, text: str, strict: bool = False) -> int:
    """The square named ``text``; ``strict``: only its canonical name (in actions)."""
    sq = b.square(str(text))
    if sq is None or (strict and b.names[sq] != text):
        raise RulesError("zvv.error.bad_square", square=str(text)[:20], last=b.names[-1])
    return sq


def steps(state: ZvvState) -> int:
    """The steps the face lets a pawn take now (0 when the roll is no move)."""
    if state.phase == "split_more":
        return 1
    if state.face == "split":
        return 2
    return int(state.face) if state.face in ("2", "4", "6") else 0


# --------------------------------------------------------------------- Move


def when_move(state: ZvvState) -> None:
    if state.phase not in MOVE_PHASES:
        raise RulesError("zvv.error.not_a_move", **face_args(state))


def check_move(state: ZvvState, seat: int, action: Move) -> None:
    b = board(state.size)
    start = square(b, action.pawn, strict=True)
    dest = square(b, action.to, strict=True)
    found = owner(state, start)
    if found is None:
        raise RulesError("zvv.error.no_pawn", square=b.names[start])
    if found != seat:
        raise RulesError("zvv.error.not_your_pawn", square=b.names[start], owner_seat=found)
    if start in target_zone(state, seat):
        raise RulesError("zvv.error.pawn_home", square=b.names[start])
    if state.phase == "split_more" and start == state.moved:
        raise RulesError("zvv.error.same_pawn", square=b.names[start])
    n = steps(state)
    if dest not in reach_one(state, seat, start, n):
        raise RulesError(
            "zvv.error.out_of_reach", square=b.names[dest], pawn=b.names[start], steps=n
        )


def move(state: ZvvState, seat: int, action: Move, events: list[Event]) -> None:
    b = board(state.size)
    start = b.square(action.pawn)
    dest = b.square(action.to)
    assert start is not None and dest is not None
    parent = reach_one(state, seat, start, steps(state))
    path = path_to(parent, start, dest)
    pawns = state.pawns[seat]
    pawns[pawns.index(start)] = dest
    state.current.append({"type": "move", "seat": seat, "path": [b.names[s] for s in path]})
    events.append(
        Event(
            # "(1 steps)" read wrong: one step has its own text.
            "zvv.event.moved" if len(path) > 2 else "zvv.event.moved_one",
            {"seat": seat, "from": b.names[start], "to": b.names[dest], "steps": len(path) - 1},
        )
    )
    if dest in target_zone(state, seat):
        if arrived(state, seat, b.names[dest], events) or check_locks(state, events):
            return
    if state.phase == "split" and len(path) == 2:
        # D2: one step of the 2* is left for another pawn, if any of them can take it.
        state.moved = dest
        if any(sq != dest for sq in movable(state, seat)):
            state.phase = "split_more"
            return
    end_turn(state, events)


# --------------------------------------------------------------------- Stop (2*, D2)


def when_stop(state: ZvvState) -> None:
    if state.phase != "split_more":
        raise RulesError("zvv.error.cannot_stop")


def stop(state: ZvvState, seat: int, action: Stop, events: list[Event]) -> None:
    events.append(Event("zvv.event.stopped", {"seat": seat}))
    end_turn(state, events)


# --------------------------------------------------------------------- who can move where


def legal_moves(state: ZvvState, seat: int) -> list[Move | Stop]:
    names = board(state.size).names
    out: list[Move | Stop] = []
    for start, parent in reaches(state, seat):
        out.extend(Move(names[start], names[dest]) for dest in parent)
    if state.phase == "split_more":
        out.append(Stop())
    return out


def excluded(state: ZvvState) -> int:
    """The pawn 2* already moved (it may not take the second step too)."""
    return state.moved if state.phase == "split_more" else -1


def movable(state: ZvvState, seat: int) -> list[int]:
    """The seat's pawns not yet home that have at least one step, in pawn order."""
    b = board(state.size)
    occ = occupied(state)
    target = target_zone(state, seat)
    skip = excluded(state)
    return [
        sq
        for sq in state.pawns[seat]
        if sq not in target and sq != skip and can_step(b, occ, state.wallmask, sq)
    ]


def reaches(state: ZvvState, seat: int) -> list[tuple[int, dict[int, int]]]:
    """For each of the seat's pawns that may move now: (its square, reach parents)."""
    found = memo(state)
    key = f"reaches{seat}"
    if key not in found:
        found[key] = _compute_reaches(state, seat)
    cached: list[tuple[int, dict[int, int]]] = found[key]
    return cached


def _compute_reaches(state: ZvvState, seat: int) -> list[tuple[int, dict[int, int]]]:
    b = board(state.size)
    occ = occupied(state)
    target = target_zone(state, seat)
    n = steps(state)
    skip = excluded(state)
    out = []
    for sq in state.pawns[seat]:
        if sq in target or sq == skip:
            continue
        parent = reach(b, occ, state.wallmask, sq, n, target)
        if parent:
            out.append((sq, parent))
    return out


def reach_one(state: ZvvState, seat: int, start: int, n: int) -> dict[int, int]:
    """Where the pawn on ``start`` reaches in ``n`` steps (→ the square it came from)."""
    found = memo(state)
    if f"reaches{seat}" in found and n == steps(state):
        for sq, parent in found[f"reaches{seat}"]:
            if sq == start:
                cached: dict[int, int] = parent
                return cached
    b = board(state.size)
    return reach(b, occupied(state), state.wallmask, start, n, target_zone(state, seat))


def reach_names(state: ZvvState) -> list[str]:
    """Every square one of the seat to act's pawns can reach now, in a move phase."""
    if state.phase not in MOVE_PHASES:
        return []
    b = board(state.size)
    squares = {sq for _, parent in reaches(state, state.turn) for sq in parent}
    return [b.names[sq] for sq in sorted(squares)]


def greedy_move(state: ZvvState) -> Move | None:
    """An AFK player's move: a pawn arrives if it can (on the deepest square, so the zone fills
    from the back and no square gets shut in), else the move that most shortens a pawn's walk to
    a free square of its target zone. In the 2* second step, ``None`` when no step helps (the
    default then stops)."""
    seat = state.turn
    b = board(state.size)
    corner = OPPOSITE_CORNER[START_CORNERS[seat]]
    target = target_zone(state, seat)
    dist = walk_distances(state, seat)
    best: tuple[int, int, int] | None = None
    best_move: Move | None = None
    for start, parent in reaches(state, seat):
        before = dist[start]
        for dest in parent:
            if dest in target:
                score = (1, -b.distance_to_corner(dest, corner), 0)
            else:
                score = (0, before - dist[dest], before)
            if best is None or score > best:
                best, best_move = score, Move(b.names[start], b.names[dest])
    if state.phase == "split_more" and (best is None or best[:2] <= (0, 0)):
        return None
    return best_move


def goalward(state: ZvvState, seat: int, start: int) -> list[int]:
    """Every square the pawn on ``start`` reaches, the most useful first: home squares (the
    deepest first, as the zone fills from the back), then the fewest steps left to a free home
    square, then the farthest move. All of them: the service filters what the player typed
    before it keeps 25 (the nearest 25 hid the far squares players wanted)."""
    b = board(state.size)
    corner = OPPOSITE_CORNER[START_CORNERS[seat]]
    target = target_zone(state, seat)
    dist = walk_distances(state, seat)
    parent = reach_one(state, seat, start, steps(state))

    def usefulness(sq: int) -> tuple[int, int, int, int]:
        if sq in target:
            return (0, b.distance_to_corner(sq, corner), 0, sq)
        return (1, dist[sq], -len(path_to(parent, start, sq)), sq)

    return sorted(parent, key=usefulness)


def walk_distances(state: ZvvState, seat: int) -> list[int]:
    """Steps from every square to the nearest free square of the seat's target zone, going
    round walls (pawns ignored: they move)."""
    b = board(state.size)
    target = target_zone(state, seat)
    far = 4 * state.size * state.size
    dist = [far] * (state.size * state.size)
    home = set(state.pawns[seat])
    frontier = [sq for sq in target if sq not in home]
    for sq in frontier:
        dist[sq] = 0
    walls = state.wallmask
    while frontier:
        nxt = []
        for sq in frontier:
            for d in range(4):
                n1 = b.neighbour[d][sq]
                if n1 >= 0 and not walls[sq] >> d & 1 and dist[n1] > dist[sq] + 1:
                    dist[n1] = dist[sq] + 1
                    nxt.append(n1)
        frontier = nxt
    return dist
