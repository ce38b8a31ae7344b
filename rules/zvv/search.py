"""Zombies vs Vampires' ``hard`` computer player: expectimax over the action die.

``normal`` weighs a move by how much it cuts its own race now; ``hard`` weighs the position
each candidate leaves, its own next two rolls and every rival's next roll ahead:

- a seat's **outlook** is its race (``normal``'s wall-aware walking distance, walls scored
  exactly as ``normal`` scores them) less what its next roll is expected to cut from it: the
  action die's faces 2, 4 and 6 and 2* (two steps) each move its best pawn as far home as the
  pawns and walls really let it (jumps over pawns, walls that block), the other two faces move
  nothing. So a move that gives a rival a pawn to jump over, or blocks a rival's pawn, is seen
  now, not when it is too late;
- its own outlook looks **two rolls** ahead (``outlook2``): after each face of the first roll,
  the move that cuts most, then the second roll's expected cut from there. A move that sets
  up a jump for the next-but-one roll (a pawn left as a stepping stone, a gap kept open) is
  worth its steps; one roll ahead only the best pawn's next move counted;
- with two players a candidate's worth is the rival's outlook less its own. With three or four
  (``standing``) every rival counts, by the chance of finishing before it (the two outlooks in
  turns, their difference against a spread taken from the position before the decision; the
  rivals play before our next turn): the one nearest to finishing weighs most, and a step of
  our own counts against all of them where a step taken from one rival counts against that
  one only. Weighing the leader alone, as before, traded our own steps for the leader's
  one for one: even with two players, a loss with more (the other rivals gained);
- the candidates are every legal move, ranked first by ``normal``'s cut, the best ``MOVES`` of
  them weighed; on a Build with three or four players, the best ``WALLS`` walls by
  ``normal``'s exact score with every edge along the leader's target zone worth ``SIEGE``
  steps more (``wall_worths``), so that the walls along that zone are among those searched
  (docs/bots.md, "ZvV with three and four players: the siege searched"). With two players a
  Build is not searched: it is ``normal``'s wall with that bonus. Measured against
  ``normal``, that wall won more games than the searched one (docs/bots.md, "ZvV: a style
  tuned against `normal`"): a wall there stands where all the rival's pawns must pass at the
  end, which neither the race nor a few rolls ahead can see. The ± choice, the roll and a
  seat that can never finish (D7) stay ``normal``'s.

Nothing here is random: the same position gives the same choice.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from rules.core import Action, Game
from rules.core.policy import Dice
from rules.zvv import policy
from rules.zvv.actions import Build, Move, Stop
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, Board, board, reach, step_counts
from rules.zvv.policy import FAR, distances, move_gain, race, wall_mask, wall_worths
from rules.zvv.state import ZvvState

MOVES = 8
WALLS = 6
SIEGE = 3.0  # steps a wall's edge along the leader's target zone is worth (walls only)
# The action die: the steps each face gives a pawn (2* as two steps of one pawn; Build and ±
# move nothing), each face one chance in six.
FACE_STEPS = (2, 4, 6, 2)
FACES = 6
# Three or four players: race steps a seat cuts per turn of its own on average (moves less the
# walls built in its way, plus those it takes away: ~2 in seeded games of ``normal``), and the
# spread of the turns a seat still needs, var = SPREAD_BASE + turns (the die, and walls built
# and taken away, move a race by many steps at once).
RATE = 2.0
SPREAD_BASE = 4.0

Normal = Callable[[Game[Any], ZvvState, int, str, Dice], Action]


def choose(game: Game[Any], state: ZvvState, seat: int, level: str, dice: Dice) -> Action:
    """``hard``'s choice (registered as the game's ``hard``, ``rules/core/policy.py``): the
    search, weighing its candidates with ``policy``'s measures and falling back on its
    ``normal`` (it builds on ``policy``)."""
    return choose_hard(game, state, seat, policy.choose, dice)


def choose_hard(game: Game[Any], state: ZvvState, seat: int, normal: Normal, dice: Dice) -> Action:
    legal = game.legal_actions(state, seat)
    if len(legal) == 1 or seat in state.locked:
        return legal[0] if len(legal) == 1 else normal(game, state, seat, "normal", dice)
    b = board(state.size)
    mask = wall_mask(b, state.walls)
    moves = [a for a in legal if isinstance(a, Move)]
    builds = [a for a in legal if isinstance(a, Build)]
    if moves:
        return searched_move(game, state, seat, legal)
    if builds and state.seats == 2:
        return policy.best_wall(state, b, mask, seat, builds, SIEGE)
    if builds:
        worths = sorted(wall_worths(state, b, mask, seat, builds, SIEGE), reverse=True)
        candidates: list[Action] = [w[2] for w in worths[:WALLS]]
        if candidates:
            return _best(game, state, b, mask, seat, candidates)
    return normal(game, state, seat, "normal", dice)


def searched_move(game: Game[Any], state: ZvvState, seat: int, legal: list[Action]) -> Action:
    """``hard``'s move (``legal`` holds a move): the best of ``normal``'s ``MOVES`` best moves
    (and stopping, when allowed) by the position each leaves, the next rolls ahead."""
    b = board(state.size)
    mask = wall_mask(b, state.walls)
    moves = [a for a in legal if isinstance(a, Move)]
    candidates: list[Action] = _move_shortlist(state, b, mask, seat, moves)
    if Stop() in legal:
        candidates.append(Stop())
    return _best(game, state, b, mask, seat, candidates)


def _best(
    game: Game[Any], state: ZvvState, b: Board, mask: list[int], seat: int, candidates: list[Action]
) -> Action:
    """The candidate that leaves the best position (``worth``); the first on a tie."""
    spread = _spread(state, b, mask)
    best: tuple[float, int] | None = None
    choice = candidates[0]
    for i, action in enumerate(candidates):
        after, _ = game.apply(state, seat, action)
        key = (worth(after, b, seat, spread), -i)
        if best is None or key > best:
            best, choice = key, action
    return choice


def _move_shortlist(
    state: ZvvState, b: Board, mask: list[int], seat: int, moves: list[Move]
) -> list[Action]:
    """The ``MOVES`` moves that cut the race most now (``normal``'s measure)."""
    corner = OPPOSITE_CORNER[START_CORNERS[seat]]
    dist = distances(state, b, mask, seat)
    scored = [(move_gain(b, dist, corner, move), -i, move) for i, move in enumerate(moves)]
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [m for _, _, m in scored[:MOVES]]


def _spread(state: ZvvState, b: Board, mask: list[int]) -> float:
    """The spread (one standard deviation, in turns) of the difference between two seats'
    turns still needed, from the position before the decision (the same for every
    candidate): more when the races are long, as more turns are left for luck."""
    if state.seats == 2:
        return 1.0  # unused: with two players the worth is the outlooks' difference
    live = [s for s in range(state.seats) if s not in state.locked] or [0]
    turns = sum(race(state, b, mask, s) for s in live) / len(live) / RATE
    return math.sqrt(2 * (SPREAD_BASE + turns))


def worth(state: ZvvState, b: Board, seat: int, spread: float) -> float:
    """How the position stands for ``seat``: with two players, the rival's outlook less its
    own; with more, the log of its chance to finish before every rival (``standing``)."""
    if state.phase == "over":
        return 1e6 if seat in state.winners else -1e6
    mask = wall_mask(b, state.walls)
    occupied = bytearray(state.size * state.size)
    for s, pawns in enumerate(state.pawns):
        for sq in pawns:
            occupied[sq] = s + 1
    mine = outlook2(state, b, mask, occupied, seat)
    rivals = [s for s in range(state.seats) if s != seat and s not in state.locked]
    if not rivals:
        return -mine
    theirs = [outlook(state, b, mask, occupied, s) for s in rivals]
    if state.seats == 2:
        return theirs[0] - mine
    return standing(mine, theirs, spread)


def standing(mine: float, theirs: list[float], spread: float) -> float:
    """The log of the chance to finish before every rival, each seat's turns still needed its
    outlook over ``RATE``; the rivals play before our next turn, so a tie is theirs (half a
    turn). Each rival counted apart (they are not independent, but the order of the
    candidates is what counts)."""
    total = 0.0
    for other in theirs:
        z = ((other - mine) / RATE - 0.5) / spread
        total += math.log(max(1e-300, 0.5 * math.erfc(-z / math.sqrt(2))))
    return total


def outlook(state: ZvvState, b: Board, mask: list[int], occupied: bytearray, seat: int) -> float:
    """The seat's race less the cut its next roll is expected to make (lower is better)."""
    target = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])
    dist = distances(state, b, mask, seat)
    away = [sq for sq in state.pawns[seat] if sq not in target]
    total = sum(dist[sq] for sq in away)
    expected = 0.0
    for steps in FACE_STEPS:
        cut = 0
        for sq in away:
            if dist[sq] >= FAR:
                continue
            for dest in reach(b, occupied, mask, sq, steps, target):
                cut = max(cut, dist[sq] - (0 if dest in target else dist[dest]))
        expected += cut
    return total - expected / FACES


Cuts = dict[int, tuple[int, tuple[int, int] | None]]


def outlook2(state: ZvvState, b: Board, mask: list[int], occupied: bytearray, seat: int) -> float:
    """The seat's race less what its next two rolls are expected to cut: for each face of the
    first, the move that cuts most (the first of them, in pawn order), then the second roll's
    expected cut from there (a Build or ± first: the second from here). The distances are not
    searched again after the first move (a pawn arriving changes them a little)."""
    target = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])
    dist = distances(state, b, mask, seat)
    away = [sq for sq in state.pawns[seat] if sq not in target]
    total = sum(dist[sq] for sq in away)
    first = _best_cuts(b, occupied, mask, dist, target, away)
    stay = _expected_cut(first)
    expected = 2 * stay  # Build or ± first: nothing moves, the second roll is from here
    for steps, faces in ((2, 2), (4, 1), (6, 1)):  # 2 and 2* both give a pawn two steps
        cut, move = first[steps]
        if move is None:
            expected += faces * stay
            continue
        sq, dest = move
        occupied[dest], occupied[sq] = occupied[sq], 0
        moved = [dest if p == sq else p for p in away if p != sq or dest not in target]
        later = _expected_cut(_best_cuts(b, occupied, mask, dist, target, moved))
        occupied[sq], occupied[dest] = occupied[dest], 0
        expected += faces * (cut + later)
    return total - expected / FACES


def _expected_cut(cuts: Cuts) -> float:
    """The cut one roll is expected to make: faces 2 and 2* two steps, 4, 6, and two faces
    that move nothing."""
    return (2 * cuts[2][0] + cuts[4][0] + cuts[6][0]) / FACES


def _best_cuts(
    b: Board,
    occupied: bytearray,
    mask: list[int],
    dist: list[int],
    target: frozenset[int],
    away: list[int],
) -> Cuts:
    """For 2, 4 and 6 steps: the largest cut of one pawn's move and the move, (from, to)."""
    best: Cuts = {2: (0, None), 4: (0, None), 6: (0, None)}
    for sq in away:
        here = dist[sq]
        if here >= FAR:
            continue
        for dest, steps in step_counts(reach(b, occupied, mask, sq, 6, target)).items():
            cut = here - (0 if dest in target else dist[dest])
            for face in (2, 4, 6):
                if steps <= face and cut > best[face][0]:
                    best[face] = (cut, (sq, dest))
    return best
