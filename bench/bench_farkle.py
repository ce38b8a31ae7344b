"""Dragon Farkle speed: random legal 4-player games per second (target ≥ 200/s, issue 6),
scoring calls per second, and the time to draw a table. Run:
``.venv/bin/python -m bench.bench_farkle`` (about 20 s).

A random 4-player game is ~460 actions, so 200 games/s means ~11 µs per action for the whole
API loop (pending, legal_actions, apply with its copy). Before the performance pass (commit
78cfc7c) the API figure was ~68-72 games/s on this machine (~32 µs per action)."""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import product

from rules.core import Rng
from rules.core.play import random_game
from rules.farkle import GAME, scoring


def _timed(fn: Callable[[], int], budget: float) -> tuple[int, float]:
    """Call ``fn`` (which returns a count) until ``budget`` seconds pass; returns the count and
    the CPU seconds spent (the machine is shared: wall time would measure the neighbours)."""
    start, cpu = time.perf_counter(), time.process_time()
    count = 0
    while time.perf_counter() - start < budget:
        count += fn()
    return count, time.process_time() - cpu


def games_via_api(budget: float) -> tuple[float, float]:
    """Whole random games through the public API (``apply`` copies the state each step)."""
    seeds = iter(range(10**9))
    steps = 0

    def one() -> int:
        nonlocal steps
        _, n, _ = random_game(GAME, 4, next(seeds))
        steps += n
        return 1

    games, spent = _timed(one, budget)
    return games / spent, steps / spent


def games_in_place(budget: float) -> tuple[float, float]:
    """Random legal games applying actions in place (``play`` on one state, no copies): the
    engine's own cost, as a simulation or a bot player would drive it."""
    seeds = iter(range(10**9))
    steps = 0

    def one() -> int:
        nonlocal steps
        seed = next(seeds)
        rng = Rng(seed ^ 0x5EED)
        state = GAME.new_game(4, {}, seed)
        while state.stage != "over":
            pending = GAME.pending(state)
            seat = rng.choice(sorted(pending))
            actions = GAME.legal_actions(state, seat)
            GAME.play(state, seat, rng.choice(actions), 0.0)
            steps += 1
        return 1

    games, spent = _timed(one, budget)
    return games / spent, steps / spent


def scoring_calls(budget: float) -> dict[str, float]:
    rolls = [r for k in range(1, 7) for r in product(range(1, 7), repeat=k)]
    out: dict[str, float] = {}

    def values() -> int:
        for r in rolls:
            scoring.selection_value(r)
        return len(rolls)

    def farkles() -> int:
        for r in rolls:
            scoring.is_farkle(r)
        return len(rolls)

    def options_cold() -> int:
        for cache in scoring._OPTIONS.values():
            cache.clear()
        for r in rolls[:5000]:
            scoring.options(r)
        return 5000

    def options_warm() -> int:
        for r in rolls[:5000]:
            scoring.options(r)
        return 5000

    for name, fn in (
        ("selection_value", values),
        ("is_farkle", farkles),
        ("options (cold cache)", options_cold),
        ("options (warm cache)", options_warm),
    ):
        n, spent = _timed(fn, budget)
        out[name] = n / spent
    return out


def render_time() -> float:
    from render.farkle import render_table

    state = GAME.new_game(5, {}, 1)
    rng = Rng(1)
    for _ in range(40):
        pend = GAME.pending(state)
        seat = rng.choice(sorted(pend))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    view = GAME.view(state, None)
    names = ["Ana", "Bea", "Chen", "Dee", "Eve"]
    start = time.perf_counter()
    for _ in range(10):
        render_table(view, names, "en")
    return (time.perf_counter() - start) / 10


def main() -> None:
    api_games, api_steps = games_via_api(6.0)
    fast_games, fast_steps = games_in_place(6.0)
    calls = scoring_calls(1.5)
    render = render_time()
    print("Dragon Farkle benchmark (per CPU-second of this process)")
    print(
        f"{'random 4-player games/s (API, apply copies)':<48}{api_games:>12.1f}"
        f"   ({api_steps:,.0f} actions/s, {1e6 / api_steps:.1f} µs per action)"
    )
    print(f"{'  target (issue 6)':<48}{'>= 200':>12}")
    print(
        f"{'random 4-player games/s (play in place)':<48}{fast_games:>12.1f}"
        f"   ({fast_steps:,.0f} actions/s, {1e6 / fast_steps:.1f} µs per action)"
    )
    for name, rate in calls.items():
        print(f"{'scoring: ' + name + ' calls/s':<48}{rate:>12,.0f}")
    print(f"{'render_table, 5 players (ms)':<48}{render * 1000:>12.1f}")


if __name__ == "__main__":
    main()
