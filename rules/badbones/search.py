"""Bad Bones' ``hard`` computer player: determinized Monte-Carlo search over the engine.

A decision is weighed on what the seat knows, never more:

- **Its knowledge.** A copy of the state where every other seat's hidden submission of this
  phase (D13) is withdrawn (``Game.withdraw``) and the bag's draws are unknown: each sampled
  world reseeds the state's generator, so the skeletons of phase 4 are a fresh draw.
  :func:`knowledge` is all the search reads; its generator is seeded from that copy
  (``position_rng``), so two positions the seat cannot tell apart give the same choice.
- **The others' choices.** A rival (competitive game) plays the rest of the round on its
  defaults: its choices resolve on its own board, the same way for every candidate in a world
  (the same seed), so thinking them out would shift every candidate's standing alike and only
  cost time (measured: the same wins, 30% less time; docs/bots.md). A teammate (cooperative
  game), whose tower pick or trap takes from the shared supply and guards the shared capital,
  plays ``normal`` three times in four and otherwise a random plausible action (a hero step,
  or a trap on a square the skeletons walk into, or nothing).
- **The play-out.** The candidate, then the rest of the round with the seat (and its
  teammates) on ``normal`` (owners' questions on their defaults) and ``EXTRA_ROUNDS`` more on
  every seat's absent-player defaults, then the position is weighed: a game over counts as won
  or lost; otherwise the seat's board (``board_worth``) against the best rival's
  (competitive), the team's boards, its shared supply and the capital (cooperative), or its
  own (solo), each less the skeletons waiting in its forests. The cooperative game also counts
  the skeletons heading for a standing tower or the capital (``heading``), nearer ones more:
  the capital falls in most lost games, to skeletons still several rounds away when the
  play-out ends.
- **The candidates.** ``normal``'s own play-out (one round, the others' defaults) ranks every
  hero step, every useful trap placement and retrieval, every tower pick and every answer to an
  owner's question; the best ``CANDIDATES`` get ``WORLDS`` sampled worlds each (fewer at a
  bigger table), the same worlds for every candidate (common random numbers: the comparison
  is fair and its noise small). The Market and weapons stay ``normal``'s.

Cost is bounded by the count of play-outs (``CANDIDATES * worlds(seats)``), never by the
clock: the same position gives the same choice whatever the machine's load.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.badbones import policy
from rules.badbones.actions import Choose, Move, Nothing, Place, Retrieve, Start
from rules.badbones.board import EXIT_VILLAGE
from rules.badbones.policy import FOREST, TILE, board_worth, play_out, trap_tries
from rules.badbones.scoring import winners
from rules.badbones.skeletons import way_on
from rules.badbones.state import HERO, OVER, START, TRAP, BadBonesState
from rules.core import Action, Game, Rng, RulesError
from rules.core.policy import Dice, position_rng

CANDIDATES = 5
WORLDS = 6
EXTRA_ROUNDS = 1  # full rounds played out after the current one
OTHERS_NORMAL = 3  # of 4: how often a sampled rival plays normal rather than a random try
WIN = 1000.0
# Cooperative leaf (``heading``): a skeleton d rounds from a standing tower costs TOWER_PATH / d,
# from the capital CAPITAL_PATH * seats / d (a house is worth 3 * seats to the team), traced
# up to REACH rounds (the capital is 6 from the bottom forest).
TOWER_PATH = 3.0
CAPITAL_PATH = 1.5
REACH = 6
HIDDEN_STAGES = (HERO, TRAP, START)
# Decisions the search weighs (the Market and weapons stay normal's).
SEARCHED = (Move, Place, Retrieve, Nothing, Start, Choose)

Rollout = Callable[[Game[Any], BadBonesState, int, str, Dice], Action]


def knowledge(game: Game[Any], state: BadBonesState, seat: int) -> BadBonesState:
    """What ``seat`` knows of the position: the state without the others' sealed submissions
    and without the generator that will draw the next skeletons from the bag."""
    known = game.copy(state)
    known.rng = 0
    if known.stage in HIDDEN_STAGES:
        for other in sorted(known.subs):
            if other != seat:
                game.withdraw(known, other)
    return known


def choose(game: Game[Any], state: BadBonesState, seat: int, level: str, dice: Dice) -> Action:
    """``hard``'s choice (registered as the game's ``hard``, ``rules/core/policy.py``): the
    search, playing its candidates out with ``normal`` (it builds on ``policy``)."""
    return choose_hard(game, state, seat, policy.choose, dice)


def choose_hard(
    game: Game[Any], state: BadBonesState, seat: int, normal: Rollout, dice: Dice
) -> Action:
    """The candidate whose sampled play-outs end best for ``seat`` (``normal``: the rollout
    policy; ``dice``: normal's own randomness, for the decisions left to it)."""
    legal = game.legal_actions(state, seat)
    searched: list[Action] = [a for a in legal if isinstance(a, SEARCHED)]
    if len(legal) == 1 or not searched:
        return legal[0] if len(legal) == 1 else normal(game, state, seat, "normal", dice)
    known = knowledge(game, state, seat)
    rng = position_rng(game, known, seat)
    candidates = _shortlist(game, known, seat, searched, rng)
    if len(candidates) == 1:
        return candidates[0]
    seeds = [rng.next64() for _ in range(worlds(known.seats))]
    memo: dict[tuple[Any, ...], Action] = {}
    best: tuple[float, int] | None = None
    choice = candidates[0]
    for i, action in enumerate(candidates):
        total = sum(_play_out(game, known, seat, action, normal, seed, memo) for seed in seeds)
        key = (total, -i)
        if best is None or key > best:
            best, choice = key, action
    return choice


def worlds(seats: int) -> int:
    """Sampled worlds per candidate: every play-out resolves every board, so a bigger table
    samples fewer (two players: ``WORLDS``; four: half as many), keeping a decision's cost,
    and its p99, about the same at every table."""
    return WORLDS if seats <= 2 else max(2, WORLDS * 2 // seats)


def _shortlist(
    game: Game[Any], known: BadBonesState, seat: int, searched: list[Action], rng: Rng
) -> list[Action]:
    """The ``CANDIDATES`` best actions by normal's one-round play-out (trap placements: only
    those on squares the skeletons walk into, as normal tries them)."""
    places = [a for a in searched if isinstance(a, Place)]
    if places:
        useful = set(trap_tries(known, seat, places))
        searched = [a for a in searched if not isinstance(a, Place) or a in useful]
    scored = sorted(
        ((play_out(game, known, seat, a), -i, a) for i, a in enumerate(searched)),
        key=lambda t: (t[0], t[1]),
        reverse=True,
    )
    return [a for _, _, a in scored[:CANDIDATES]]


def _play_out(
    game: Game[Any],
    known: BadBonesState,
    seat: int,
    action: Action,
    normal: Rollout,
    seed: int,
    memo: dict[tuple[Any, ...], Action],
) -> float:
    """One sampled world: ``action``, then the round on ``normal`` and the rounds after on the
    absent players' defaults. ``memo`` keeps normal's choices by what they depend on (the
    seat's own board, the stage): the same for every candidate and world where that board is
    the same, which it is for every rival during the round (boards are resolved apart)."""
    rng = Rng(seed)
    sim = game.copy(known)
    sim.rng = rng.next64()  # the bag's draws: unknown, so sampled
    guessed = {s: rng.below(4) >= OTHERS_NORMAL for s in range(known.seats)}
    _play(game, sim, seat, action)
    stage, start = known.stage, known.round
    end = start + 1 + EXTRA_ROUNDS
    guard = 0
    while not game.is_over(sim) and sim.round < end and guard < 400:
        guard += 1
        pending = game.pending(sim)
        if not pending:
            break
        other = min(pending)
        if sim.round > start or (other != seat and not sim.coop):
            # A rival's choices resolve on its own board, alike for every candidate in a world
            # (the same seed): thinking them out would shift every candidate's standing alike.
            move = pending[other].default
        elif other != seat and sim.stage == stage in HIDDEN_STAGES and guessed[other]:
            move = _random_try(sim, other, game.legal_actions(sim, other), Rng(seed + other))
        elif sim.stage in HIDDEN_STAGES:
            key = (other, sim.stage, repr(sim.boards[other]), sim.capital, tuple(sim.pool))
            if key not in memo:
                memo[key] = normal(game, sim, other, "normal", lambda: rng)
            move = memo[key]
        else:
            move = normal(game, sim, other, "normal", lambda: rng)
        _play(game, sim, other, move)
    return standing(sim, seat)


def _play(game: Game[Any], sim: BadBonesState, seat: int, action: Action) -> None:
    """``action``, or nothing when a sampled teammate already took the shared tile (the
    cooperative supply) in this world."""
    try:
        game.play(sim, seat, action, 0.0)
    except RulesError:
        game.play(sim, seat, Nothing(), 0.0)


def _random_try(sim: BadBonesState, seat: int, legal: list[Action], rng: Rng) -> Action:
    """A plausible action of a rival whose choice is unknown: any hero step, or nothing or a
    trap where the skeletons walk."""
    places = [a for a in legal if isinstance(a, Place)]
    if places:
        tries = trap_tries(sim, seat, places)
        return rng.choice([Nothing(), *tries]) if tries else Nothing()
    return rng.choice(legal)


def heading(state: BadBonesState, seat: int) -> float:
    """Cooperative: what the skeletons heading straight for a standing tower or the capital
    will cost, nearer ones more: each skeleton on the board and waiting in the forests (one
    round to walk in) is followed square by square, turned where the engine turns it
    (``way_on``: toward a treasure beside it, by a ruin's arrow), until a trap, a tower, the
    edge or ``REACH`` rounds. One step from a tower or the edge, a skeleton on the board is
    already counted by ``board_worth``."""
    b = state.boards[seat]
    layout = state.layout
    treasures = [sq for sq, trap in b.traps.items() if trap.kind == "treasure"]

    def goes_on(square: int, facing: int) -> int:
        return way_on(layout, b.ruins, treasures, square, facing)

    walks = [(s.square, s.facing, 0) for s in b.skeletons]
    for token in b.forest:
        entry, facing = layout.entries[token.model]
        walks.append((entry, goes_on(entry, facing), 1))  # it walks in as onto any square
    cost = 0.0
    for square, facing, d in walks:
        if d and (square in b.traps or square == b.hero):
            continue
        while d < REACH:
            d += 1
            nxt = layout.step[square][facing]
            if nxt < 0:
                if nxt == EXIT_VILLAGE and d > 1:
                    cost += CAPITAL_PATH * state.seats / d
                break
            if nxt in b.traps:
                break
            if layout.is_tower[nxt] and nxt not in b.ruins:
                if d > 1:
                    cost += TOWER_PATH / d
                break
            square = nxt
            facing = goes_on(square, facing)
    return cost


def standing(state: BadBonesState, seat: int) -> float:
    """How the position stands for ``seat`` at the end of a play-out (higher is better)."""
    if state.stage == OVER:
        if state.coop or state.solo:
            won = state.outcome in ("won", "heroic")
        else:
            won = seat in winners(state.boards, state.scores)
        # A loss later is a smaller loss: the game may still turn.
        return WIN if won else -WIN + 10.0 * state.round

    def own(s: int) -> float:
        return board_worth(state, s) - FOREST * len(state.boards[s].forest)

    if state.coop:
        # The shared supply's tiles are the team's as much as those on its boards
        # (``board_worth`` counts those): placing one is worth what it does, not a tile gained.
        team = sum(own(s) - heading(state, s) for s in range(state.seats)) + TILE * len(state.pool)
        return team + 3.0 * state.seats * state.capital
    if state.solo:
        return own(seat)
    return own(seat) - max(own(s) for s in range(state.seats) if s != seat)
