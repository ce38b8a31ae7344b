"""FUSE speed: random legal 4-player games per second, and the table picture's time and size.

Run: ``.venv/bin/python -m bench fuse`` (about 25 s). Floor: >= 50 random 4-player live games/s
(1 s of clock per action) through the engine API. A live game's length is set by its clock:
``random_game`` advances the clock 1 s per action, so a random live game is ~600 actions
(about 75 rounds, far more than players manage in 10 minutes: at a table, the four players'
claims and placements of one round take 15-20 s, i.e. about 2 s of clock per action, which is
why the 2 s figure is printed too); the relaxed figure uses the default 60-round limit. 50
games/s is ~33 µs per action, far below what a player notices (a bot's move costs ~1.4 ms, a
picture 10-20 ms).

The cards memoise where a die may go per position (positions recur from game to game), so a
fresh process is slower for its first games: the first figure is the cold start (the first
second of games in this process), the others are measured after it, as in a running service.
The secondary figure goes through ``apply``, which copies the state before every action (what
a caller keeping the old state pays); ``random_game`` plays in place. Measured figures:
docs/games/fuse.md, Speed.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from typing import Any

from bench.fuse_pace import LATENCY, STEP, THINK, chat_row
from render.fuse import render_table
from rules.core import Rng
from rules.core.play import position_after, random_game
from rules.fuse import FUSE
from rules.fuse.game import FuseState

NAMES = ["Ana", "Bartholomew the Great", "Chen", "Dora", "Eve"]


def _games(
    options: Mapping[str, Any], seconds: float, clock_step: float = 1.0, first_seed: int = 0
) -> tuple[float, float, Counter[str]]:
    # CPU time, not wall time: the machine is shared, and other processes' load would
    # otherwise halve the figures from one run to the next. Each figure plays its own seeds
    # (``first_seed`` on): replaying games already played would find every position memoised.
    start = time.process_time()
    games = steps = 0
    ends: Counter[str] = Counter()
    while time.process_time() - start < seconds:
        final, n, _ = random_game(
            FUSE,
            4,
            first_seed + games,
            options,
            clock_step=clock_step,
            keep_events=False,
            validate=False,
        )
        games += 1
        steps += n
        ends[final.reason] += 1
    elapsed = time.process_time() - start
    return games / elapsed, steps / elapsed, ends


def _apply_games(seconds: float) -> tuple[float, float]:
    """The same random legal play through ``apply``, which copies the state before every
    action (what a caller that keeps the old state pays; ``random_game`` plays in place)."""
    start = time.process_time()
    games = steps = 0
    while time.process_time() - start < seconds:
        seed = 500_000 + games  # seeds of its own (see _games)
        # Its own loop, not rules.core.play.play_game: what it measures is apply's copy.
        rng = Rng(seed ^ 0x5EED)
        state = FUSE.new_game(4, {}, seed)
        now = 1_000_000.0
        while not FUSE.is_over(state):
            pending = FUSE.pending(state)
            seat = rng.choice(sorted(pending))
            state, _ = FUSE.apply(state, seat, rng.choice(FUSE.legal_actions(state, seat)), now)
            now += 1.0
            steps += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, steps / elapsed


def _mid_game(seats: int, seed: int, steps: int) -> FuseState:
    return position_after(FUSE, seats, seed, steps, {"hard": True})


def main() -> None:
    print("FUSE benchmark (CPU time)")
    print(f"{'what':44} {'figure':>12}")
    for first_seed, (label, options, step, seconds) in enumerate(
        (
            ("random 4p live games/s, cold start (1 s/act)", {}, 1.0, 1.0),
            ("random 4p live games/s (1 s per action)", {}, 1.0, 4.0),
            ("random 4p live games/s (2 s per action)", {}, 2.0, 4.0),
            ("random 4p relaxed games/s (deck limit)", {"mode": "relaxed"}, 1.0, 4.0),
        )
    ):
        per_s, steps_s, ends = _games(options, seconds, step, first_seed * 100_000)
        print(f"{label:44} {per_s:12.1f}")
        print(f"{'  actions/s':44} {steps_s:12.0f}   ({1e6 / steps_s:.1f} µs per action)")
        print(f"{'  endings':44} {dict(ends)!s:>12}")
    print(f"{'  floor (1 s per action)':44} {'>= 50':>12}")
    per_s, steps_s = _apply_games(4.0)
    print(f"{'random 4p live games/s through apply (copy)':44} {per_s:12.1f}")
    print(f"{'  actions/s':44} {steps_s:12.0f}   ({1e6 / steps_s:.1f} µs per action)")
    _chat_pace()
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


CHAT_GAMES = 60  # games per chat-pace row (seeds 0..59)


def _chat_pace() -> None:
    """Win rates of ``normal`` computer teams playing at a person's click rate (see
    bench/fuse_pace.py), with the targets: live Standard winnable in at least a third of 2-3
    player games; relaxed mode's limit (set by the deck, D14) beaten in most games."""
    print(f"chat pace: one action per {THINK:g} s per player + {LATENCY:g} s latency, normal teams")
    rows: list[tuple[str, int, dict[str, Any], float, float]] = [
        (f"live standard {seats}p", seats, {}, 1 / 3, STEP) for seats in (2, 3)
    ]
    rows += [
        (f"relaxed standard {seats}p", seats, {"mode": "relaxed"}, 0.5, STEP)
        for seats in range(1, 6)
    ]
    rows += [(f"live standard {seats}p", seats, {}, 0.0, STEP) for seats in (1, 4, 5)]
    rows += [
        (f"live insane {seats}p", seats, {"difficulty": "insane"}, 0.0, STEP) for seats in (3, 4)
    ]
    # the margin: slower people (3 s a click plus the latency)
    rows += [(f"live standard {seats}p, 3.5 s/act", seats, {}, 0.0, 3.5) for seats in (2, 3)]
    for label, seats, options, target, step in rows:
        _chat_line(label, chat_row(seats, options, CHAT_GAMES, step), target)
    # One player away for the whole game (docs/games/fuse.md, "The round timer"): the round
    # timer alone, or the autopilot after two of its rounds in a row (the service's rule),
    # which must leave the team its chances (the live target above).
    for seats in (2, 3):
        for label, after, target in (("timer", 0, 0.0), ("autopilot", 2, 1 / 3)):
            ends = chat_row(seats, {}, CHAT_GAMES, away=seats - 1, autopilot_after=after)
            _chat_line(f"live standard {seats}p, 1 away, {label}", ends, target)


def _chat_line(label: str, ends: Counter[str], target: float) -> None:
    rate = ends["won"] / CHAT_GAMES
    verdict = ("PASS" if rate >= target else "FAIL") if target else "(no target)"
    print(
        f"{'  ' + label + ' won':44} {rate:11.0%}   target >= {target:.0%} {verdict}  {dict(ends)}"
    )


if __name__ == "__main__":
    main()
