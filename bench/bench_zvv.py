"""Zombies vs Vampires speed: random legal 4-player games per second, legal-move generation per
second (moves of 6 with jumps; wall placements), and the time to draw a table.

Run: ``.venv/bin/python -m bench.bench_zvv``. Uniformly random play rarely finishes the race (it
fills the far zone in a bad order), so those games mostly end on the 200-round limit: ~1,600
turns each, a heavy case. Games of absent players (every seat on its default, greedy action)
end with a winner and show a realistic game length.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from render.zvv import render_table
from rules.core import Rng
from rules.core.play import random_game
from rules.zvv import GAME
from rules.zvv.board import board, reach
from rules.zvv.state import ZvvState, occupied, target_zone


def _timed(fn: Callable[[], int], budget: float) -> tuple[int, float]:
    start = time.perf_counter()
    count = 0
    while time.perf_counter() - start < budget:
        count += fn()
    return count, time.perf_counter() - start


def random_games(budget: float) -> tuple[float, float, float]:
    """Whole random legal 4-player games through the public API (``apply`` copies)."""
    seeds = iter(range(10**9))
    steps = 0
    turns = 0

    def one() -> int:
        nonlocal steps, turns
        state, n, _ = random_game(GAME, 4, next(seeds), keep_events=False, validate=False)
        steps += n
        turns += state.turns
        return 1

    games, spent = _timed(one, budget)
    return games / spent, steps / spent, turns / max(1, games)


def afk_games(budget: float) -> tuple[float, float]:
    """4-player games where every seat plays its default (greedy) action."""
    seeds = iter(range(10**9))
    turns = 0

    def one() -> int:
        nonlocal turns
        # Its own loop, not rules.core.play.play_game: a speed figure (one pending call a move).
        state = GAME.new_game(4, {}, next(seeds))
        while not GAME.is_over(state):
            ((seat, pending),) = GAME.pending(state).items()
            GAME.play(state, seat, pending.default, 0.0)
        turns += state.turns
        return 1

    games, spent = _timed(one, budget)
    return games / spent, turns / max(1, games)


def _positions(phase: str, count: int) -> list[ZvvState]:
    """Mid-game 4-player positions (snapshots of random games every 40 actions), rolled to a
    6 (``move``) or to a Build of each length."""
    out: list[ZvvState] = []
    seed = 0
    while len(out) < count:
        seed += 1
        rng = Rng(seed)
        state = GAME.new_game(4, {}, seed)
        for step in range(1, 2000):
            ((seat, _),) = GAME.pending(state).items()
            GAME.play(state, seat, rng.choice(GAME.legal_actions(state, seat)), 0.0)
            if GAME.is_over(state) or len(out) >= count:
                break
            if step % 40 or state.phase != "roll" or step < 200:
                continue
            snap = GAME.copy(state)
            if phase == "move":
                snap.face, snap.phase = "6", "move"
            else:
                snap.face, snap.phase, snap.wall_len = "build", "build", 1 + len(out) % 3
            out.append(snap)
    return out


def _fresh(state: ZvvState) -> ZvvState:
    """The position with its memo emptied, so every call below does the whole work (a copy
    would measure the copy too)."""
    state.memo.clear()
    return state


def generation(phase: str, budget: float) -> tuple[float, float]:
    """``legal_actions`` calls per second on mid-game positions, and actions per call."""
    positions = _positions(phase, 40)
    total = 0
    calls = 0

    def one() -> int:
        nonlocal total, calls
        for state in positions:
            total += len(GAME.legal_actions(_fresh(state), state.turn))
            calls += 1
        return len(positions)

    done, spent = _timed(one, budget)
    return done / spent, total / max(1, calls)


def reach_speed(budget: float) -> float:
    """Single-pawn searches (up to 6 steps with jumps) per second on mid-game positions."""
    positions = _positions("move", 20)
    jobs = []
    for state in positions:
        occ = occupied(state)
        target = target_zone(state, state.turn)
        b = board(state.size)
        for sq in state.pawns[state.turn]:
            if sq not in target:
                jobs.append((b, occ, state.wallmask, sq, target))

    def one() -> int:
        for b, occ, walls, sq, target in jobs:
            reach(b, occ, walls, sq, 6, target)
        return len(jobs)

    done, spent = _timed(one, budget)
    return done / spent


def render_speed(budget: float) -> float:
    state = _positions("move", 1)[0]
    view = GAME.view(state, None)
    names = ["Ana", "Bartolomé", "Chen", "Dolores"]

    def one() -> int:
        render_table(view, names, "en")
        return 1

    done, spent = _timed(one, budget)
    return spent / done * 1000


def main() -> None:
    games, steps, turns = random_games(8.0)
    afk, afk_turns = afk_games(4.0)
    moves, per_move = generation("move", 3.0)
    walls, per_wall = generation("build", 3.0)
    searches = reach_speed(2.0)
    ms = render_speed(3.0)
    rows = [
        ("random legal 4-player games / s (API)", f"{games:,.1f}"),
        ("  steps / s", f"{steps:,.0f}"),
        ("  turns per game (round limit)", f"{turns:,.0f}"),
        ("AFK (greedy) 4-player games / s", f"{afk:,.1f}"),
        ("  turns per game (to a win)", f"{afk_turns:,.0f}"),
        ("legal move generation / s (roll 6, 4 players)", f"{moves:,.0f}"),
        ("  moves per position", f"{per_move:,.0f}"),
        ("  one pawn's reach (6 steps) / s", f"{searches:,.0f}"),
        ("legal wall generation / s (length 1–3)", f"{walls:,.0f}"),
        ("  placements per position", f"{per_wall:,.0f}"),
        ("table picture (ms)", f"{ms:,.0f}"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:>10}")


if __name__ == "__main__":
    main()
