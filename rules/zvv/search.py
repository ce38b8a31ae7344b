"""Zombies vs Vampires' ``hard`` computer player: expectimax over the action die.

A search over the rival's next roll, every outcome enumerated (nothing sampled).

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
- with two players, a candidate is weighed one turn deeper (``reply_worth``): after the
  rival's whole next turn, every face of its action die in turn (and for a Build every length of
  the wall die), the rival answering as ``normal`` would, the position then weighed as above. So
  a move that leaves a pawn in a corridor the rival's best wall shuts, or a wall the rival will
  take away on its ±, is seen before it is made. The rival's walls are weighed once per decision
  on the position before our move (``_rival_walls``, the dearest part of its turn);
- the candidates are every legal move, ranked first by ``normal``'s cut, the best ``MOVES`` of
  them weighed; on a Build, the best ``WALLS`` walls by ``normal``'s exact score. The ± choice,
  the roll and a seat that can never finish (D7) stay ``normal``'s.

Nothing here is random: the same position gives the same choice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import Action, Game, Rng
from rules.core.policy import Dice
from rules.zvv import policy
from rules.zvv.actions import Build, Move, Roll, Stop
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, Board, board, reach
from rules.zvv.policy import FAR, distances, move_gain, wall_mask, wall_worths
from rules.zvv.rolls import show_face, show_wall_len
from rules.zvv.state import ZvvState

MOVES = 6
WALLS = 6
DEEP = 3  # at most this many candidates weighed after the rival's next turn (two players)
CLOSE = 2.0  # ... those within this many steps (``worth``) of the best
# The action die: the steps each face gives a pawn (2* as two steps of one pawn; Build and ±
# move nothing), each face one chance in six.
FACE_STEPS = (2, 4, 6, 2)
FACES = 6
# Every face of the action die, each one chance in six (the rival's next roll, weighed in turn).
ROLL_FACES = ("2", "4", "6", "build", "plusminus", "split")


def _no_dice() -> Rng:
    """The rival's ``normal`` draws nothing (only ``easy`` does): this is never rolled."""
    return Rng(0)


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
    # Every candidate weighed where it leaves the race (``worth``); the best by that measure
    # first, ties to normal's order.
    after = [game.apply(state, seat, action)[0] for action in candidates]
    values = [worth(a, b, seat) for a in after]
    ranked = sorted(range(len(candidates)), key=lambda i: (-values[i], i))
    close = [i for i in ranked[:DEEP] if values[i] >= values[ranked[0]] - CLOSE]
    if state.seats != 2 or len(close) == 1:
        return candidates[ranked[0]]
    # Two players, and more than one candidate within ``CLOSE`` steps of the best: those (at
    # most ``DEEP``) are weighed again after the rival's whole next turn, every face of its die
    # in turn (``reply_worth``), the rival playing ``normal``. Only then: a rival's turn costs
    # some 12 ms of play per candidate and its walls 45 ms per decision, and where one move
    # leads by more than a few steps the rival's answer rarely turns it round.
    rival = 1 - seat
    threats = _rival_walls(game, state, b, rival)
    return candidates[
        max(close, key=lambda i: (reply_worth(game, after[i], b, seat, rival, threats), -i))
    ]


def _rival_walls(game: Game[Any], state: ZvvState, b: Board, rival: int) -> dict[int, Build]:
    """The wall ``normal`` would build for ``rival`` now, per length of the wall die (none for a
    length it cannot build). Weighed once per decision, on the position before our move: a move
    changes the rival's best wall little, and this is the dearest part of a rival's turn."""
    walls: dict[int, Build] = {}
    for length in (1, 2, 3):
        sim = _rolled(game, state, rival, "build", length)
        if sim.phase == "build":
            chosen = policy.choose(game, sim, rival, "normal", _no_dice)
            if isinstance(chosen, Build):
                walls[length] = chosen
    return walls


def reply_worth(
    game: Game[Any], after: ZvvState, b: Board, seat: int, rival: int, threats: dict[int, Build]
) -> float:
    """``worth`` for ``seat`` of ``after`` (the rival to roll) once the rival's turn is
    played: the average over the six faces of the action die (and the wall die's three lengths)
    of ``worth`` after ``normal``'s answer to each. The rival's walls are ``threats`` (its
    wall before our move) while they can still be built, else ``normal``'s own choice. So a
    move that leaves a pawn where the rival's wall hurts most, or a wall the rival takes away
    on its ±, is weighed by what follows, not just by where it leaves the race."""
    if after.phase != "roll" or after.turn != rival:
        return worth(after, b, seat)  # the game is over, or the house bonus roll is ours
    total = 0.0
    for face in ROLL_FACES:
        if face == "build" or (face == "plusminus" and not after.walls):
            total += _build_worth(game, after, b, seat, rival, threats)
            continue
        sim = _rolled(game, after, rival, face)
        if face == "plusminus":
            answer = policy.choose(game, sim, rival, "normal", _no_dice)
            if isinstance(answer, Roll):
                total += _build_worth(game, after, b, seat, rival, threats)
                continue
            game.play(sim, rival, answer, 0.0)
        for _ in range(3):  # a move, or 2*'s two steps (then Stop), or a pass
            if sim.phase == "over" or sim.turn != rival or sim.phase == "roll":
                break
            game.play(sim, rival, policy.choose(game, sim, rival, "normal", _no_dice), 0.0)
        total += worth(sim, b, seat)
    return total / len(ROLL_FACES)


def _build_worth(
    game: Game[Any], after: ZvvState, b: Board, seat: int, rival: int, threats: dict[int, Build]
) -> float:
    """The average ``worth`` of the rival's wall over the wall die's lengths (1, 2, 3 alike)."""
    total = 0.0
    for length in (1, 2, 3):
        sim = _rolled(game, after, rival, "build", length)
        if sim.phase != "build":
            total += worth(after, b, seat)  # no wall of that length left, or no place: a pass
            continue
        wall = threats.get(length)
        if wall is None or wall not in game.legal_actions(sim, rival):
            answer = policy.choose(game, sim, rival, "normal", _no_dice)
        else:
            answer = wall
        game.play(sim, rival, answer, 0.0)
        total += worth(sim, b, seat)
    return total / 3


def _rolled(game: Game[Any], state: ZvvState, rival: int, face: str, length: int = 0) -> ZvvState:
    """A copy of ``state`` with the rival to play and the action die showing ``face`` (and the
    wall die ``length`` for a Build): the search weighs each outcome instead of drawing one.
    (Before our own move, for ``_rival_walls``, the turn is handed to the rival by hand.)"""
    sim = game.copy(state)
    sim.turn, sim.moved = rival, -1
    if face == "build":
        sim.face = face
        show_wall_len(sim, length, [])
    else:
        show_face(sim, face, [], "zvv.event.rolled")
    return sim


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
