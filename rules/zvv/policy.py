"""Zombies vs Vampires' computer player (see docs/bots.md and docs/games/zvv.md).

A seat's *race* is the sum, over its pawns not yet home, of the walking distance (round the
walls, pawns ignored: they move) to the nearest free square of its target zone; lower is
better. ``normal`` moves the pawn whose move cuts its race most (arrivals go deep, so the zone
fills from the back), builds the wall that lengthens the leading opponent's race most against
its own, and on ± removes a wall when that helps it more than the leader (else builds).

``easy`` plays the engine's absent-player move (greedy, walls near the centre) and a random
legal action one time in four.
"""

from __future__ import annotations

from typing import Any

from rules.core import Action, Game
from rules.core.policy import Dice
from rules.zvv.actions import Build, Move, Pass, Remove, Roll, Stop
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, Board, Wall, board
from rules.zvv.game import ZvvState

FAR = 1000  # the distance of a square that cannot reach the target
SHORTLIST = 6  # walls weighed exactly, of those the flow estimate ranks first
DEPTH = 0.3  # worth of one step deeper into the zone for an arriving pawn


def wall_mask(b: Board, walls: list[Wall]) -> list[int]:
    """Per square, bit d set when a wall lies on its side d."""
    mask = [0] * (b.size * b.size)
    for wall in walls:
        for sq, side in b.wall_edges(wall):
            mask[sq] |= 1 << side
    return mask


def distances(state: ZvvState, b: Board, mask: list[int], seat: int) -> list[int]:
    """Steps from every square to the nearest free square of ``seat``'s target zone."""
    target = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])
    mine = set(state.pawns[seat])
    dist = [FAR] * (b.size * b.size)
    frontier = [sq for sq in target if sq not in mine]
    for sq in frontier:
        dist[sq] = 0
    sides = list(zip(b.neighbour, (1, 2, 4, 8), strict=True))  # N, E, S, W and their wall bit
    here = 0
    while frontier:
        here += 1
        nxt = []
        for sq in frontier:
            for neighbour, wall in sides:
                n1 = neighbour[sq]
                if n1 >= 0 and not mask[sq] & wall and dist[n1] > here:
                    dist[n1] = here
                    nxt.append(n1)
        frontier = nxt
    return dist


def race(state: ZvvState, b: Board, mask: list[int], seat: int) -> int:
    target = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])
    dist = distances(state, b, mask, seat)
    return sum(dist[sq] for sq in state.pawns[seat] if sq not in target)


def leader(state: ZvvState, b: Board, mask: list[int], seat: int) -> int:
    """The opponent nearest to finishing (fewest pawns away, then the shortest race)."""
    others = [s for s in range(state.seats) if s != seat and s not in state.locked]
    if not others:
        others = [s for s in range(state.seats) if s != seat]
    return min(others, key=lambda s: (race(state, b, mask, s), s))


def choose(game: Game[Any], state: ZvvState, seat: int, level: str, dice: Dice) -> Action:
    legal = game.legal_actions(state, seat)
    if level == "easy":
        if dice().below(4) == 0:
            return dice().choice(legal)
        return game.pending(state)[seat].default
    phase = state.phase
    if phase == "roll":
        return Roll()
    if phase == "pass":
        return Pass()
    b = board(state.size)
    mask = wall_mask(b, state.walls)
    if phase in ("move", "split", "split_more"):
        return best_move(state, b, mask, seat, legal)
    if phase == "plusminus":
        return _plusminus(state, b, mask, seat, legal)
    builds = [a for a in legal if isinstance(a, Build)]
    if builds:
        return best_wall(state, b, mask, seat, builds)
    return legal[0]


def best_move(state: ZvvState, b: Board, mask: list[int], seat: int, legal: list[Action]) -> Action:
    """The move that shortens the race most; arrivals count their whole walk plus depth."""
    corner = OPPOSITE_CORNER[START_CORNERS[seat]]
    target = b.zone_squares(corner)
    dist = distances(state, b, mask, seat)
    best: tuple[float, int] | None = None
    choice: Action | None = None
    for i, action in enumerate(legal):
        if not isinstance(action, Move):
            continue
        start, dest = b.square(action.pawn), b.square(action.to)
        assert start is not None and dest is not None
        if dest in target:
            gain = dist[start] + 1 - DEPTH * b.distance_to_corner(dest, corner) / 4
        else:
            gain = dist[start] - dist[dest]
        key = (gain, -i)
        if best is None or key > best:
            best, choice = key, action
    if choice is None or (state.phase == "split_more" and best is not None and best[0] <= 0):
        return Stop() if Stop() in legal else legal[0]
    return choice


def _cost_change(
    state: ZvvState,
    b: Board,
    seats: tuple[int, int],
    walls: list[Wall],
    base: tuple[int, int],
    touched: tuple[bool, bool] = (True, True),
) -> float:
    """How much a change of the walls helps ``seats[0]`` against ``seats[1]`` (the rival's race
    longer, its own shorter). A race whose shortest paths the change does not touch
    (``touched``) cannot get longer: it is not searched again."""
    mask = wall_mask(b, walls)
    mine = race(state, b, mask, seats[0]) if touched[0] else base[0]
    theirs = race(state, b, mask, seats[1]) if touched[1] else base[1]
    return (theirs - base[1]) - (mine - base[0])


def _flows(state: ZvvState, b: Board, mask: list[int], seat: int) -> dict[tuple[int, int], int]:
    """Per unit edge (square, side), how many of the seat's pawns have a shortest path over it:
    a wall there makes them walk round."""
    dist = distances(state, b, mask, seat)
    target = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])
    flow: dict[tuple[int, int], int] = {}
    for pawn in state.pawns[seat]:
        if pawn in target or dist[pawn] >= FAR:
            continue
        seen = {pawn}
        frontier = [pawn]
        while frontier:
            nxt = []
            for sq in frontier:
                for d in range(4):
                    n1 = b.neighbour[d][sq]
                    if n1 >= 0 and not mask[sq] >> d & 1 and dist[n1] == dist[sq] - 1:
                        flow[(sq, d)] = flow.get((sq, d), 0) + 1
                        if n1 not in seen:
                            seen.add(n1)
                            nxt.append(n1)
            frontier = nxt
    return flow


def best_wall(state: ZvvState, b: Board, mask: list[int], seat: int, builds: list[Build]) -> Build:
    rival = leader(state, b, mask, seat)
    theirs, mine = _flows(state, b, mask, rival), _flows(state, b, mask, seat)
    base = (race(state, b, mask, seat), race(state, b, mask, rival))
    ranked: list[tuple[int, int, Build, Wall]] = []
    for i, action in enumerate(builds):
        wall = b.parse_wall(action.wall)
        assert wall is not None
        edges = b.wall_edges(wall)
        estimate = sum(theirs.get(e, 0) - mine.get(e, 0) for e in edges)
        ranked.append((estimate, -i, action, wall))
    ranked.sort(reverse=True, key=lambda r: (r[0], r[1]))
    # Weigh the most promising exactly, and a few that cross nobody's path (a safe fallback).
    quiet = [r for r in ranked if r[0] == 0 and not any(mine.get(e) for e in b.wall_edges(r[3]))]
    shortlist = ranked[:SHORTLIST] + quiet[:2]
    best: tuple[float, int] | None = None
    choice = builds[0]
    for _, order, action, wall in shortlist:
        edges = b.wall_edges(wall)
        touched = (any(e in mine for e in edges), any(e in theirs for e in edges))
        worth = _cost_change(state, b, (seat, rival), [*state.walls, wall], base, touched)
        if best is None or (worth, order) > best:
            best, choice = (worth, order), action
    return choice


def _plusminus(
    state: ZvvState, b: Board, mask: list[int], seat: int, legal: list[Action]
) -> Action:
    rival = leader(state, b, mask, seat)
    theirs, mine = _flows(state, b, mask, rival), _flows(state, b, mask, seat)
    # Only a wall on our own shortest paths is worth taking away: weigh the few that block us
    # most (by the flow estimate) exactly.
    ranked: list[tuple[int, int, Remove, Wall]] = []
    for i, action in enumerate(legal):
        if isinstance(action, Remove):
            wall = b.parse_wall(action.wall)
            assert wall is not None
            estimate = sum(mine.get(e, 0) - theirs.get(e, 0) for e in b.wall_edges(wall))
            if estimate > 0:
                ranked.append((estimate, -i, action, wall))
    ranked.sort(reverse=True, key=lambda r: (r[0], r[1]))
    base = (race(state, b, mask, seat), race(state, b, mask, rival))
    best: tuple[float, Action] | None = None
    for _, _, action, wall in ranked[:4]:
        rest = [w for w in state.walls if w != wall]
        worth = _cost_change(state, b, (seat, rival), rest, base)
        if best is None or worth > best[0]:
            best = (worth, action)
    # A removal must beat what building is worth on average (a wall against the leader).
    if best is not None and best[0] >= 2:
        return best[1]
    return Roll() if Roll() in legal else legal[0]
