"""Bad Bones' computer player (see docs/bots.md and docs/games/badbones.md).

``normal`` looks ahead by playing the round out on a copy of the state, through the engine API:
its own candidate action, every other pending seat's default, then the rest of the round (traps
phase, the skeletons' walk of phase 3, every owner's choice on its default) until the next round
begins. It then weighs its own board (``worth``). The candidates: the hero steps that kill most
on arrival or where skeletons will walk in (a quick count picks the few worth playing out), and
for the trap, doing nothing and a sample of the placements on the squares in front of the
skeletons (and under them, where a dragon may land). Only its own board is weighed (the others'
hidden submissions play out on their boards only).

``easy`` steps onto the square with the most skeletons (the engine's absent-player move), places
a random trap one time in three, and otherwise does what an absent player does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.badbones.actions import Buy, Move, Nothing, Place, Retrieve, Weapon
from rules.badbones.board import DELTA, SIZE, E, N, S, W, parse_square
from rules.badbones.hero import hero_target
from rules.badbones.state import BadBonesState
from rules.core import Action, Game
from rules.core.policy import Dice

# Hero steps and weapon uses played out, by seat count: every play-out resolves every board, so
# a bigger table tries fewer (a decision stays within ~50 ms). Every useful trap placement is
# tried at every table (a sample of two once left the helpful one out).
HERO_TRIES = {1: 4, 2: 3}
BIG_TABLE_TRIES = 2
SENT = 0.5  # worth of a skeleton sent to the one opponent
SKELETON = 0.7  # cost of a skeleton left on the board
THREAT = 2.5  # ... one step from the tower or the village
TILE = 1.5  # worth of a trap tile owned (on the board or in the supply)
FOREST = 0.5  # cost of a skeleton waiting in a forest (it walks in next phase 3)
LAST = 6.0  # scarcity: the last floor (house) costs this much more than the first
BASIC_TOWERS = frozenset({parse_square("C3")})
COOP_TOWERS = frozenset(parse_square(t) for t in ("B2", "D2", "B4", "D4"))


def worth(state: BadBonesState, seat: int) -> float:
    """How well seat's board stands (higher is better, :func:`board_worth`); in the cooperative
    game the shared capital counts too. With two players, every skeleton in the opponent's
    cemetery counts too: they come from this board (exits, catapult) and walk on the
    opponent's next round."""
    value = board_worth(state, seat)
    if state.coop:
        value += 3.0 * state.capital
    elif state.seats == 2:
        value += SENT * len(state.boards[1 - seat].cemetery)
    return value


def board_worth(state: BadBonesState, seat: int) -> float:
    """How well seat's own board stands: floors and houses, the last ones worth the most
    (losing all of either ends the game for the board); traps still owned; fewer skeletons on
    the board, above all those one step from the tower or the village."""
    b = state.boards[seat]
    value = 4.0 * b.floors + 3.0 * b.houses + TILE * (len(b.traps) + len(b.supply))
    # A treasure a skeleton faces, or on the square a skeleton in the forests walks in on, is
    # stolen next phase (the hero standing on it now must step off first): as good as gone.
    facing_into = {_ahead(s.square, s.facing, 1) for s in b.skeletons}
    facing_into.update(state.layout.entries[token.model][0] for token in b.forest)
    value -= sum(
        TILE
        for square, trap in b.traps.items()
        if trap.kind == "treasure" and square in facing_into
    )
    value -= LAST / max(1, b.floors) + (LAST / max(1, b.houses) if b.village else 0.0)
    towers = COOP_TOWERS if state.coop else BASIC_TOWERS
    home = N if state.coop else S  # the edge a skeleton burns a house through
    for skeleton in b.skeletons:
        facing = skeleton.facing
        ahead = _ahead(skeleton.square, facing, 1)
        threat = (ahead is None and facing == home) or (ahead in towers and ahead not in b.ruins)
        value -= THREAT if threat else SKELETON
    if b.eliminated:
        value -= 100.0
    return value


def play_out(game: Game[Any], state: BadBonesState, seat: int, action: Action) -> float:
    """Worth of seat's board once the round is over, had it played ``action`` now."""
    sim = game.copy(state)
    # The skeletons phase 4 draws are nobody's to know: the play-out draws its own.
    sim.rng = 0
    game.play(sim, seat, action, 0.0)
    start = state.round
    guard = 0
    while not game.is_over(sim) and sim.round == start and guard < 200:
        guard += 1
        pending = game.pending(sim)
        if not pending:
            break
        for other, p in sorted(pending.items()):
            game.play(sim, other, p.default, 0.0)
            break  # pending changes after every action: ask again
    return worth(sim, seat)


def _ahead(square: int, facing: int, steps: int) -> int | None:
    r, c = divmod(square, SIZE)
    dr, dc = DELTA[facing]
    r, c = r + dr * steps, c + dc * steps
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else None


def _trap_squares(state: BadBonesState, seat: int) -> set[int]:
    """Where this round's walk meets a trap first: the square in front of each skeleton on the
    board, the skeletons' own squares (the dragon may land there), and the entry squares of the
    skeletons waiting in the forests (they walk in this phase 3)."""
    b = state.boards[seat]
    out: set[int] = set()
    for skeleton in b.skeletons:
        square = skeleton.square
        out.add(square)
        ahead = _ahead(square, skeleton.facing, 1)
        if ahead is not None:
            out.add(ahead)
    entries = state.layout.entries
    out.update(entries[token.model][0] for token in b.forest)
    return out


def _treasure_squares(state: BadBonesState, seat: int) -> set[int]:
    """Where a treasure turns skeletons: every square orthogonally next to one or next to where
    one walks in (a skeleton turns toward a treasure beside it when it lands), and the hero's
    square (a treasure the hero stands on is not stolen this phase)."""
    b = state.boards[seat]
    out: set[int] = set() if b.hero < 0 else {b.hero}
    for square in _trap_squares(state, seat):
        for facing in (N, E, S, W):
            beside = _ahead(square, facing, 1)
            if beside is not None:
                out.add(beside)
    return out


def trap_tries(state: BadBonesState, seat: int, places: list[Place]) -> list[Action]:
    """The placements worth playing out, at every table: every trap on a square the skeletons
    walk into (so a trap that helps is never missed for a sample that left it out) and the
    treasure where it turns skeletons."""
    ahead = _trap_squares(state, seat)
    lure = _treasure_squares(state, seat)
    tries: list[Action] = []
    for place in places:
        square = parse_square(place.square)
        if square in ahead or (place.trap == "treasure" and square in lure):
            tries.append(place)
    return tries


def _hero_shortlist(state: BadBonesState, seat: int, moves: list[Move]) -> list[Action]:
    """The hero steps worth playing out: by skeletons killed on arrival, then by skeletons that
    will walk into the hero's square in phase 3 (the square in front of them)."""
    b = state.boards[seat]
    here: dict[int, int] = {}
    coming: dict[int, int] = {}
    for skeleton in b.skeletons:
        square = skeleton.square
        here[square] = here.get(square, 0) + 1
        ahead = _ahead(square, skeleton.facing, 1)
        if ahead is not None:
            coming[ahead] = coming.get(ahead, 0) + 1
    scored = []
    for i, move in enumerate(moves):
        target = hero_target(b, move.direction)
        assert target is not None
        scored.append((here.get(target, 0) + 0.8 * coming.get(target, 0), -i, move))
    scored.sort(reverse=True, key=lambda t: (t[0], t[1]))
    return [m for _, _, m in scored[: HERO_TRIES.get(state.seats, BIG_TABLE_TRIES)]]


def choose(game: Game[Any], state: BadBonesState, seat: int, level: str, dice: Dice) -> Action:
    legal = game.legal_actions(state, seat)
    default = game.pending(state)[seat].default if seat in game.pending(state) else legal[0]
    if level == "easy":
        placing = [a for a in legal if isinstance(a, Place)]
        if placing and dice().below(3) == 0:
            return dice().choice(placing)
        return default if default in legal else legal[0]
    moves = [a for a in legal if isinstance(a, Move)]
    if moves:
        return _best(game, state, seat, _hero_shortlist(state, seat, moves))
    places = [a for a in legal if isinstance(a, Place)]
    retrieves = [a for a in legal if isinstance(a, Retrieve)]
    if places or retrieves:
        return _best(game, state, seat, [Nothing(), *trap_tries(state, seat, places), *retrieves])
    buys = [a for a in legal if isinstance(a, Buy)]
    if buys:
        return buys[0]
    weapons = [a for a in legal if isinstance(a, Weapon)]
    if weapons:
        return _best(game, state, seat, weapons[:BIG_TABLE_TRIES])
    return default if default in legal else legal[0]


def _best(game: Game[Any], state: BadBonesState, seat: int, actions: Sequence[Action]) -> Action:
    best: tuple[float, int] | None = None
    choice = actions[0]
    for i, action in enumerate(actions):
        key = (play_out(game, state, seat, action), -i)
        if best is None or key > best:
            best, choice = key, action
    return choice
