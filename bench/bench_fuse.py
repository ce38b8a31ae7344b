"""FUSE speed: random legal 4-player games per second, and the table picture's time and size.

Run: ``.venv/bin/python -m bench.bench_fuse`` (about 15 s). Target: ≥ 100 random 4-player
games/s. A live game's length is set by its clock: ``random_game`` advances the clock 1 s per
action, so a random live game is ~600 actions (about 75 rounds, far more than players manage in
10 minutes); the relaxed figure uses the default 60-round limit.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from typing import Any

from render.fuse import render_table
from rules.core import Rng
from rules.core.play import random_game
from rules.fuse import FUSE

NAMES = ["Ana", "Bartholomew the Great", "Chen", "Dora", "Eve"]


def _games(
    options: Mapping[str, Any], seconds: float, clock_step: float = 1.0
) -> tuple[float, float, Counter[str]]:
    # CPU time, not wall time: the machine is shared, and other processes' load would
    # otherwise halve the figures from one run to the next.
    start = time.process_time()
    games = steps = 0
    ends: Counter[str] = Counter()
    while time.process_time() - start < seconds:
        final, n, _ = random_game(FUSE, 4, games, options, clock_step=clock_step)
        games += 1
        steps += n
        ends[final.reason] += 1
    elapsed = time.process_time() - start
    return games / elapsed, steps / elapsed, ends


def _lean_games(seconds: float) -> tuple[float, float]:
    """The same random legal play without ``apply``'s defensive copy: ``play`` mutates a state
    the driver owns (how the service's replay or a simulation would run the engine)."""
    start = time.process_time()
    games = steps = 0
    while time.process_time() - start < seconds:
        rng = Rng(games ^ 0x5EED)
        state = FUSE.new_game(4, {}, games)
        now = 1_000_000.0
        while not FUSE.is_over(state):
            pending = FUSE.pending(state)
            seat = rng.choice(sorted(pending))
            FUSE.play(state, seat, rng.choice(FUSE.legal_actions(state, seat)), now)
            now += 1.0
            steps += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, steps / elapsed


def _mid_game(seats: int, seed: int, steps: int):  # type: ignore[no-untyped-def]
    rng = Rng(seed)
    state = FUSE.new_game(seats, {"hard": True}, seed)
    now = 1e6
    for _ in range(steps):
        if FUSE.is_over(state):
            break
        pending = FUSE.pending(state)
        seat = rng.choice(sorted(pending))
        actions = FUSE.legal_actions(state, seat)
        useful = [a for a in actions if a.kind != "pass"]
        state, _ = FUSE.apply(state, seat, rng.choice(useful or actions), now)
        now += 1
    return state


def main() -> None:
    print("FUSE benchmark (CPU time)")
    print(f"{'what':44} {'figure':>12}")
    for label, options, step in (
        ("random 4p live games/s (1 s per action)", {}, 1.0),
        ("random 4p live games/s (2 s per action)", {}, 2.0),
        ("random 4p relaxed games/s (60 rounds)", {"mode": "relaxed"}, 1.0),
    ):
        per_s, steps_s, ends = _games(options, 4.0, step)
        print(f"{label:44} {per_s:12.1f}")
        print(f"{'  actions/s':44} {steps_s:12.0f}")
        print(f"{'  endings':44} {dict(ends)!s:>12}")
    per_s, steps_s = _lean_games(4.0)
    print(f"{'random 4p live games/s, in place (no copy)':44} {per_s:12.1f}")
    print(f"{'  actions/s':44} {steps_s:12.0f}")
    for seats in (1, 4, 5):
        state = _mid_game(seats, seats, 120)
        view = FUSE.view(state, None)
        render_table(view, NAMES[:seats], "en")  # warm the fonts
        start = time.process_time()
        runs = 10
        for _ in range(runs):
            png = render_table(view, NAMES[:seats], "en")
        ms = (time.process_time() - start) / runs * 1000
        print(f"{f'render {seats}p table ms':44} {ms:12.1f}")
        print(f"{f'render {seats}p table KB':44} {len(png) / 1024:12.1f}")


if __name__ == "__main__":
    main()
