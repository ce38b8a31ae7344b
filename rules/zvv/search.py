"""Zombies vs Vampires' ``hard`` computer player: expectimax over the action die.

``normal`` weighs a move by how much it cuts its own race now; ``hard`` weighs the position
each candidate leaves, one roll ahead for every seat:

- a seat's **outlook** is its race (``normal``'s wall-aware walking distance, walls scored
  exactly as ``normal`` scores them) less what its next roll is expected to cut from it: the
  action die's faces 2, 4 and 6 and 2* (two steps) each move its best pawn as far home as the
  pawns and walls really let it (jumps over pawns, walls that block), the other two faces move
  nothing. So a move that gives a rival a pawn to jump over, or blocks a rival's pawn, or leaves
  its own pawns with no long way open, is seen now, not when it is too late;
- a candidate's worth is the leading rival's outlook less its own (with two players, the one
  rival's);
- the candidates are every legal move, ranked first by ``normal``'s cut, the best ``MOVES`` of
  them weighed; on a Build, the best ``WALLS`` walls by ``normal``'s exact score. The ± choice,
  the roll and a seat that can never finish (D7) stay ``normal``'s.

Nothing here is random: the same position gives the same choice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import Action, Game
from rules.core.policy import Dice
from rules.zvv import policy
from rules.zvv.actions import Build, Move, Stop
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, Board, board, reach
from rules.zvv.policy import FAR, distances, move_gain, wall_mask, wall_worths
from rules.zvv.state import ZvvState

MOVES = 8
WALLS = 6
# The action die: the steps each face gives a pawn (2* as two steps of one pawn; Build and ±
# move nothing), each face one chance in six.
FACE_STEPS = (2, 4, 6, 2)
FACES = 6

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
        candidates: list[Action] = _move_shortlist(state, b, mask, seat, moves)
        if Stop() in legal:
            candidates.append(Stop())
    elif builds:
        worths = sorted(wall_worths(state, b, mask, seat, builds), reverse=True)
        candidates = [w[2] for w in worths[:WALLS]]
        if not candidates:
            return normal(game, state, seat, "normal", dice)
    else:
        return normal(game, state, seat, "normal", dice)
    best: tuple[float, int] | None = None
    choice = candidates[0]
    for i, action in enumerate(candidates):
        after, _ = game.apply(state, seat, action)
        key = (worth(after, b, seat), -i)
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


def worth(state: ZvvState, b: Board, seat: int) -> float:
    """How the position stands for ``seat``: the leading rival's outlook less its own."""
    if state.phase == "over":
        return 1e6 if seat in state.winners else -1e6
    mask = wall_mask(b, state.walls)
    occupied = bytearray(state.size * state.size)
    for s, pawns in enumerate(state.pawns):
        for sq in pawns:
            occupied[sq] = s + 1
    mine = outlook(state, b, mask, occupied, seat)
    rivals = [s for s in range(state.seats) if s != seat and s not in state.locked]
    if not rivals:
        return -mine
    return min(outlook(state, b, mask, occupied, s) for s in rivals) - mine


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
