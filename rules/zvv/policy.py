"""Zombies vs Vampires' computer player (see docs/bots.md and docs/games/zvv.md).

A seat's *race* is the sum, over its pawns not yet home, of the walking distance to the
nearest free square of its target zone: round pawns home (they never move again; a jump over
one counts), through pawns that still move (they go away), and through a wall only at
``WALL_COST`` extra steps (walls come down on ±, so a pawn shut in is far, not lost). Lower is
better. ``normal`` moves the pawn whose move cuts its race most (arrivals go deep, so the zone
fills from the back), builds the wall that lengthens the leading opponent's race most against
its own, and on ± removes the wall that cuts its own race by a larger share than the leader's
when that beats building (worth nothing once the supply is spent: the wall die then passes).
A seat that can never finish (D7) clears the way instead of walling the others in.

``easy`` plays the engine's absent-player move (greedy, walls near the centre) and a random
legal action one time in four.
"""

from __future__ import annotations

from typing import Any

from rules.core import Action, Game
from rules.core.policy import Dice
from rules.zvv.actions import Build, Move, Pass, Remove, Roll, Stop
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, Board, Wall, board
from rules.zvv.state import ZvvState

FAR = 1000  # the distance of a square that cannot reach the target
DEPTH = 0.3  # worth of one step deeper into the zone for an arriving pawn
# Steps a wall on the way counts for (a wall stays till someone rolls ± and takes it away).
WALL_COST = 8
BUILD_WORTH = 2  # what a wall across the leader's way is worth on average, in steps


def wall_mask(b: Board, walls: list[Wall]) -> list[int]:
    """Per square, bit d set when a wall lies on its side d."""
    mask = [0] * (b.size * b.size)
    for wall in walls:
        for sq, side in b.wall_edges(wall):
            mask[sq] |= 1 << side
    return mask


def fixed_squares(state: ZvvState, b: Board) -> set[int]:
    """Squares of pawns home: they never move again (D8), so a walk goes round them or jumps."""
    fixed: set[int] = set()
    for s in range(state.seats):
        target = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[s]])
        fixed.update(sq for sq in state.pawns[s] if sq in target)
    return fixed


def distances(
    state: ZvvState, b: Board, mask: list[int], seat: int, wall_cost: int = WALL_COST
) -> list[int]:
    """Steps from every square to the nearest free square of ``seat``'s target zone.

    Pawns that still move are ignored (they go away); pawns home stay for good, so a walk goes
    round them or jumps one onto a free square beyond. A wall crossed counts ``WALL_COST``
    steps more: walls come down (±), so a pawn shut in by walls is far from home, not lost,
    and still knows which way to go."""
    target = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])
    fixed = fixed_squares(state, b)
    dist = [FAR] * (b.size * b.size)
    buckets: list[list[int]] = [[sq for sq in target if sq not in fixed]]
    for sq in buckets[0]:
        dist[sq] = 0
    neighbour = b.neighbour

    def reach(sq: int, cost: int) -> None:
        if dist[sq] > cost and cost < FAR:
            dist[sq] = cost
            while len(buckets) <= cost:
                buckets.append([])
            buckets[cost].append(sq)

    here = 0
    while here < len(buckets):
        for sq in buckets[here]:
            if dist[sq] != here:
                continue  # reached more cheaply since it was queued
            for d in range(4):
                n1 = neighbour[d][sq]
                if n1 < 0:
                    continue
                cost = here + (1 + wall_cost if mask[sq] >> d & 1 else 1)
                if n1 not in fixed:
                    reach(n1, cost)
                    continue
                # A jump over the pawn home on n1, from the square beyond it, lands here.
                n2 = neighbour[d][n1]
                if n2 >= 0 and n2 not in fixed:
                    reach(n2, cost + (wall_cost if mask[n1] >> d & 1 else 0))
        here += 1
    return dist


def race(state: ZvvState, b: Board, mask: list[int], seat: int, wall_cost: int = WALL_COST) -> int:
    target = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])
    dist = distances(state, b, mask, seat, wall_cost)
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
    dist = distances(state, b, mask, seat)
    best: tuple[float, int] | None = None
    choice: Action | None = None
    for i, action in enumerate(legal):
        if not isinstance(action, Move):
            continue
        key = (move_gain(b, dist, corner, action), -i)
        if best is None or key > best:
            best, choice = key, action
    if choice is None or (state.phase == "split_more" and best is not None and best[0] <= 0):
        return Stop() if Stop() in legal else legal[0]
    return choice


def move_gain(b: Board, dist: list[int], corner: str, move: Move) -> float:
    """How much ``move`` cuts its pawn's walk home (``dist``: the seat's distances); an
    arrival counts the whole walk, and a little more the deeper it goes into the zone."""
    start, dest = b.square(move.pawn), b.square(move.to)
    assert start is not None and dest is not None
    if dest in b.zone_squares(corner):
        return dist[start] + 1 - DEPTH * b.distance_to_corner(dest, corner) / 4
    return dist[start] - dist[dest]


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


def _flows(
    state: ZvvState, b: Board, mask: list[int], seat: int, wall_cost: int = WALL_COST
) -> dict[tuple[int, int], int]:
    """Per unit edge (square, side), how many of the seat's pawns have a shortest path over it:
    a wall there makes them walk round."""
    dist = distances(state, b, mask, seat, wall_cost)
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
                    step = 1 + wall_cost if mask[sq] >> d & 1 else 1
                    if n1 >= 0 and dist[n1] == dist[sq] - step:
                        flow[(sq, d)] = flow.get((sq, d), 0) + 1
                        if n1 not in seen:
                            seen.add(n1)
                            nxt.append(n1)
            frontier = nxt
    return flow


def best_wall(
    state: ZvvState, b: Board, mask: list[int], seat: int, builds: list[Build], siege: float = 0.0
) -> Build:
    """The wall that lengthens the leader's race most against our own, weighed exactly.

    Only a wall across one of the leader's shortest paths can lengthen its race, so those are
    all weighed (a rough estimate once built a wall worth 8 steps while one worth 46 was
    legal), and a few that cross nobody's way as a safe fallback. A wall that shuts one of our
    own pawns out of every free square of its zone is never built: only a ± could undo it.
    ``siege``: see ``wall_worths``."""
    walls = []
    for i, action in enumerate(builds):
        wall = b.parse_wall(action.wall)
        assert wall is not None
        walls.append((-i, action, wall, b.wall_edges(wall)))
    rival = leader(state, b, mask, seat)
    if seat in state.locked:
        theirs, mine = _flows(state, b, mask, rival), _flows(state, b, mask, seat)

        # D7: this seat can never finish; a wall in the others' way would only make the game
        # endless. It builds where the wall crosses nobody's way (else where it hurts least).
        def harm(w: tuple[int, Build, Wall, list[tuple[int, int]]]) -> tuple[int, int]:
            return (sum(theirs.get(e, 0) + mine.get(e, 0) for e in w[3]), -w[0])

        return min(walls, key=harm)[1]
    weighed = wall_worths(state, b, mask, seat, builds, siege)
    if weighed:
        return max(weighed, key=lambda w: (w[0], w[1]))[2]
    # Every weighed wall shuts us in: the one that does so least.
    base = (race(state, b, mask, seat), race(state, b, mask, rival))
    sealing = [
        (_cost_change(state, b, (seat, rival), [*state.walls, w[2]], base), w[0], w[1])
        for w in walls
    ]
    return max(sealing, key=lambda c: (c[0], c[1]))[2]


def wall_worths(
    state: ZvvState,
    b: Board,
    mask: list[int],
    seat: int,
    builds: list[Build],
    siege: float = 0.0,
) -> list[tuple[float, int, Build]]:
    """(worth, -index, build) of every wall across one of the leader's shortest paths and of a
    few that cross nobody's way, weighed exactly (the leader's race longer against our own);
    never one that shuts every one of our open pawns out of the zone.

    ``siege`` (``hard``): each edge of the wall along the zone the leader
    races to is worth that many steps more, and every such wall is weighed. A wall there stands
    where every pawn of the leader must pass at the end, however its ways change until then."""
    rival = leader(state, b, mask, seat)
    theirs, mine = _flows(state, b, mask, rival), _flows(state, b, mask, seat)
    base = (race(state, b, mask, seat), race(state, b, mask, rival))
    walls = []
    for i, action in enumerate(builds):
        wall = b.parse_wall(action.wall)
        assert wall is not None
        walls.append((-i, action, wall, b.wall_edges(wall)))
    border = zone_border(b, rival) if siege else set()
    across = [w for w in walls if any(e in theirs or e in border for e in w[3])]
    quiet = [w for w in walls if not any(e in theirs or e in mine for e in w[3])]
    open_ways = _open_pawns(state, b, mask, seat)
    out = []
    for order, action, wall, edges in across + quiet[:2]:
        if _seals(state, b, [*state.walls, wall], seat, open_ways):
            continue
        touched = (any(e in mine for e in edges), any(e in theirs for e in edges))
        worth = _cost_change(state, b, (seat, rival), [*state.walls, wall], base, touched)
        worth += siege * sum(e in border for e in edges)
        out.append((worth, order, action))
    return out


def zone_border(b: Board, seat: int) -> set[tuple[int, int]]:
    """The unit edges (square, side) from ``seat``'s target zone out to the rest of the board."""
    zone = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])
    inside = zone | {-1}  # a zone square, or off the board
    return {(sq, d) for sq in zone for d in range(4) if b.neighbour[d][sq] not in inside}


def _open_pawns(state: ZvvState, b: Board, mask: list[int], seat: int) -> list[int]:
    """The seat's pawns away from home that can walk home without crossing a wall."""
    target = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])
    dist = distances(state, b, mask, seat, wall_cost=FAR)
    return [sq for sq in state.pawns[seat] if sq not in target and dist[sq] < FAR]


def _seals(state: ZvvState, b: Board, walls: list[Wall], seat: int, open_ways: list[int]) -> bool:
    """Whether these walls shut every one of ``open_ways`` (the pawns with a wall-free way
    home) out of the zone: a pawn walled in alone may still be worth it, a zone shut to all of
    them is the seat walling itself out of the game until a ± comes."""
    if not open_ways:
        return False
    dist = distances(state, b, wall_mask(b, walls), seat, wall_cost=FAR)
    return all(dist[sq] >= FAR for sq in open_ways)


def _plusminus(
    state: ZvvState, b: Board, mask: list[int], seat: int, legal: list[Action]
) -> Action:
    """Take away the wall that helps us most against the leader, if that beats building.

    Building is worth about ``BUILD_WORTH`` when the wall die gives a length that can still
    be built, nothing when it cannot (the supply of that length is out, or no place is left):
    then the turn passes. So with the supply nearly spent a wall that costs nobody anything is
    worth taking away (it comes back to the supply), and one that blocks us even more."""
    removes = [a for a in legal if isinstance(a, Remove)]
    if not removes:
        return Roll() if Roll() in legal else legal[0]
    rival = leader(state, b, mask, seat)
    base = (race(state, b, mask, seat), race(state, b, mask, rival))
    if seat in state.locked:  # D7: it cannot finish; it clears the way so that others can
        cuts = []
        for i, action in enumerate(removes):
            wall = b.parse_wall(action.wall)
            assert wall is not None
            cleared = wall_mask(b, [w for w in state.walls if w != wall])
            cuts.append((base[1] - race(state, b, cleared, rival), -i, action))
        cut = max(cuts, key=lambda c: (c[0], c[1]))
        return cut[2] if cut[0] > 0 else Roll() if Roll() in legal else legal[0]
    best: tuple[float, int, Action] | None = None
    for i, action in enumerate(removes):
        wall = b.parse_wall(action.wall)
        assert wall is not None
        after = wall_mask(b, [w for w in state.walls if w != wall])
        mine, theirs = race(state, b, after, seat), race(state, b, after, rival)
        # Each race's share cut: the same few steps count more for the seat nearer the end.
        worth = (base[0] - mine) / max(base[0], 1) - (base[1] - theirs) / max(base[1], 1)
        if best is None or (worth, -i) > best[:2]:
            best = (worth, -i, action)
    assert best is not None
    build = BUILD_WORTH * _build_chance(state, b) / max(base[1], 1)
    if best[0] >= build and (best[0] > 0 or build == 0):
        return best[2]
    return Roll() if Roll() in legal else legal[0]


def _build_chance(state: ZvvState, b: Board) -> float:
    """The chance that the wall die gives a length with a wall left in the supply and a free
    place to build it (the die shows 1, 2 and 3 twice each)."""
    lengths = [n for n in (1, 2, 3) if state.supply[n - 1] > 0]
    taken = {edge for w in state.walls for edge in b.wall_edges(w)}
    points = {p for w in state.walls for p in b.wall_points(w)}
    can = 0
    for n in lengths:
        for wall in b.all_walls(n):
            edges = b.wall_edges(wall)
            if taken.isdisjoint(edges) and points.isdisjoint(b.wall_points(wall)):
                can += 1
                break
    return can / 3
