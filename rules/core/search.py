"""Search for the ``hard`` computer players: flat Monte-Carlo over the engine's own rules.

Each candidate action is tried on ``simulations`` private copies of the position; each copy is
first *determinized* by the game (what the seat cannot know, such as the dice to come and the
others' hidden cards, drawn afresh from a seeded generator), then played to the end (or a
horizon) by a fast playout policy, and scored for the seat. The same seeds serve every
candidate (common random numbers: each candidate starts from the same draws), and the first
candidate (the playout policy's own choice) is kept unless another beats it by more than the
noise of so few simulations (``clearly_best``): measured on Dragon Farkle, taking whichever
averaged better lost games to the rule of thumb it was meant to improve. Everything is seeded
from the position's ``dice()`` and the count is fixed, so the same position always gives the
same choice, however fast the machine. See docs/bots.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

from rules.core.actions import Action
from rules.core.game import Game
from rules.core.rng import Rng

S = TypeVar("S")

# (simulated state, its generator) -> the same state with the unknowns drawn afresh
Determinize = Callable[[S, Rng], S]
# (state, seat) -> the seat's value of a finished (or cut-off) simulation, 0..1
Score = Callable[[S, int], float]
# (state, seat to act) -> its action in a playout
Playout = Callable[[S, int], Action]


def playout(
    game: Game[S],
    state: S,
    policy: Playout[S],
    rng: Rng,
    horizon: int,
    until: Callable[[S], bool] | None = None,
    now: float = 0.0,
) -> S:
    """Play ``state`` on (in place) with ``policy`` for every seat, at most ``horizon`` steps,
    to the end of the game or until ``until(state)``. When several seats are asked at once,
    ``rng`` picks who acts first. Time stands still at ``now`` (a game with a clock passes the
    position's own time, so that no deadline passes inside a simulation)."""
    # Not rules.core.play.play_game: a play-out goes on from a position, up to a horizon.
    for _ in range(horizon):
        if game.is_over(state) or (until is not None and until(state)):
            break
        pending = game.pending(state)
        seat = next(iter(pending)) if len(pending) == 1 else rng.choice(sorted(pending))
        game.play(state, seat, policy(state, seat), now)
    return state


def monte_carlo(
    game: Game[S],
    state: S,
    seat: int,
    candidates: Sequence[Action],
    rng: Rng,
    simulations: int,
    determinize: Determinize[S],
    policy: Playout[S],
    score: Score[S],
    horizon: int = 2000,
    until: Callable[[S], bool] | None = None,
    z: float = 2.0,
    now: float = 0.0,
) -> Action:
    """The first candidate (the playout policy's own choice, say) unless another does better
    over ``simulations`` seeded playouts each (to the end, ``horizon`` steps or ``until``) by
    more than ``z`` standard errors of the difference: a search this small must not trade a
    sound rule of thumb for the luck of its dice."""
    seeds = [rng.next64() for _ in range(simulations)]
    scores: list[list[float]] = []
    for action in candidates:
        row = []
        for seed in seeds:
            sim_rng = Rng(seed)
            sim = determinize(game.copy(state), sim_rng)
            game.play(sim, seat, action, now)
            row.append(score(playout(game, sim, policy, sim_rng, horizon, until, now), seat))
        scores.append(row)
    return candidates[clearly_best(scores, z)]


def clearly_best(scores: Sequence[Sequence[float]], z: float) -> int:
    """The index of the candidate with the best mean whose paired lead over the first is more
    than ``z`` standard errors (0 when none is)."""
    n = len(scores[0])
    best, best_mean = 0, sum(scores[0]) / max(1, n)
    for i in range(1, len(scores)):
        diffs = [a - b for a, b in zip(scores[i], scores[0], strict=True)]
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / n)
        if mean > z * spread and best_mean < sum(scores[i]) / n:
            best, best_mean = i, sum(scores[i]) / n
    return best
