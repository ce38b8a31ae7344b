"""Dragon Farkle speed: random legal 4-player games per second (floor: >= 100/s), scoring
calls per second, and the time to draw a table. Run: ``.venv/bin/python -m bench farkle``
(about 35 s).

The headline is whole random games through ``rules.core.play.random_game`` (the function the
tests use; it plays each action in place), in steady state: the engine keeps what it works out
about each ordered roll (``rules.farkle.dice.facts``: 55,986 rolls of 1–6 dice per setting of
D2), so the bench works every roll out first, as a long-running process has. The first line
shows what a fresh process gets meanwhile, the ``apply`` line what a caller that keeps every
old state pays for the copy per action. A random 4-player game is ~460 actions, so 100 games/s
is ~22 µs per action for the whole loop (``pending``, ``legal_actions``, ``play`` and the
loop's own random choices): far below what a player can notice (a bot's move costs ~1.4 ms, a
picture 10–20 ms). Measured figures: docs/games/farkle.md, Performance."""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import product

from rules.core import Rng
from rules.core.play import random_game
from rules.farkle import GAME, scoring
from rules.farkle.dice import facts


def _timed(fn: Callable[[], int], budget: float) -> tuple[int, float]:
    """Call ``fn`` (which returns a count) until ``budget`` seconds pass; returns the count and
    the CPU seconds spent (the machine is shared: wall time would measure the neighbours)."""
    start, cpu = time.perf_counter(), time.process_time()
    count = 0
    while time.perf_counter() - start < budget:
        count += fn()
    return count, time.process_time() - cpu


def random_games(budget: float, first_seed: int = 0) -> tuple[float, float]:
    """Whole random 4-player games through ``random_game``: (games/s, actions/s)."""
    seeds = iter(range(first_seed, 10**9))
    steps = 0

    def one() -> int:
        nonlocal steps
        _, n, _ = random_game(GAME, 4, next(seeds), keep_events=False, validate=False)
        steps += n
        return 1

    games, spent = _timed(one, budget)
    return games / spent, steps / spent


def games_via_apply(budget: float) -> tuple[float, float]:
    """The same random games through ``apply``, which copies the state before each action (what
    a caller keeping the old state pays): random_game's loop with ``apply`` for ``play``."""
    seeds = iter(range(10**9))
    steps = 0

    def one() -> int:
        nonlocal steps
        seed = next(seeds)
        # Its own loop, not rules.core.play.play_game: what it measures is apply's copy.
        rng = Rng(seed ^ 0x5EED)
        state = GAME.new_game(4, {}, seed)
        now = 1_000_000.0
        while not GAME.is_over(state):
            seat = rng.choice(sorted(GAME.pending(state)))
            actions = GAME.legal_actions(state, seat)
            state, _ = GAME.apply(state, seat, rng.choice(actions), now)
            now += 1.0
            steps += 1
        return 1

    games, spent = _timed(one, budget)
    return games / spent, steps / spent


def fill_roll_caches() -> float:
    """Work out every ordered roll of 1–6 dice for both settings of D2 (what a long-running
    process ends up with); returns the CPU seconds it took."""
    cpu = time.process_time()
    for n in range(1, 7):
        for roll in product(range(1, 7), repeat=n):
            for four_pair in (True, False):
                facts(list(roll), four_pair)
    return time.process_time() - cpu


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
        scoring.search_options.cache_clear()
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
    fresh_games, fresh_steps = random_games(3.0, first_seed=10**6)
    fill = fill_roll_caches()
    games, steps = random_games(6.0)
    apply_games, apply_steps = games_via_apply(4.0)
    calls = scoring_calls(1.5)
    render = render_time()
    print("Dragon Farkle benchmark (per CPU-second of this process)")
    print(
        f"{'  fresh process, first 3 s (caches filling)':<48}{fresh_games:>12.1f}"
        f"   ({fresh_steps:,.0f} actions/s, {1e6 / fresh_steps:.1f} µs per action)"
    )
    print(f"{'  every roll worked out once (s)':<48}{fill:>12.2f}")
    print(
        f"{'random 4-player games/s (random_game)':<48}{games:>12.1f}"
        f"   ({steps:,.0f} actions/s, {1e6 / steps:.1f} µs per action)"
    )
    print(f"{'  floor':<48}{'>= 100':>12}")
    print(
        f"{'random 4-player games/s (apply, copy per step)':<48}{apply_games:>12.1f}"
        f"   ({apply_steps:,.0f} actions/s, {1e6 / apply_steps:.1f} µs per action)"
    )
    for name, rate in calls.items():
        print(f"{'scoring: ' + name + ' calls/s':<48}{rate:>12,.0f}")
    print(f"{'render_table, 5 players (ms)':<48}{render * 1000:>12.1f}")


if __name__ == "__main__":
    main()
