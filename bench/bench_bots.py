"""Computer players: how often ``normal`` wins, and how long a decision takes.

Run: ``python -m bench bots`` (all games), or ``python -m bench.bench_bots [game ...]
[--games N]``. Every game is seeded (seed = game number), so a run is reproducible; the seats'
order rotates with the seed, so no level always plays first. Win rates print with a 95% Wilson
interval, next to their target and PASS/FAIL (PASS: the measured rate meets the target; the
interval says how sure that is).

- Competitive games (Dragon Farkle, Zombies vs Vampires: 2 players; Bad Bones: 2 and 4): one
  ``normal`` seat against ``random`` (uniformly random legal actions) or ``easy`` seats. A
  shared win counts as a win for each winner (Bad Bones' D11 shared victory, ZvV's ties).
- FUSE (cooperative): the team's win rate per level and seat count, Standard difficulty, live
  mode with a fixed clock step of ``FUSE_CLOCK_STEP`` seconds per action (the 10-minute clock
  then allows 600 / step actions: a brisk table of humans).
- Decision time: p50 and p99 of ``choose`` over every decision the ``normal`` seats made, in
  CPU time of the worker process (the machine is shared: wall time would count other jobs).

Games run in worker processes (``WORKERS``; the machine has 2 cores).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from rules import get_game
from rules.core import Rng
from rules.core.policy import choose

GAMES = 500
# Rows that need fewer games to be sure, or cost too much for a ~5-minute run, as a share of
# GAMES: ZvV against random play goes to the 200-round limit (random pawns never leave the
# zone the bot races to), ~1 s a game in the engine alone; the rows without a target (Bad
# Bones with 4 players, FUSE other than 2 players) are for information.
SHARE = {("zvv", 2, "random"): 0.2, ("badbones", 4, "random"): 0.4, ("badbones", 4, "easy"): 0.4}
FUSE_OTHER_SEATS_SHARE = 0.4
WORKERS = 2
FUSE_CLOCK_STEP = 2.0
FUSE_SEATS = (1, 2, 3, 4)
MAX_STEPS = 20_000


@dataclass(frozen=True)
class Match:
    game: str
    seats: int
    levels: tuple[str, ...]  # per seat, before rotation: "random" | "easy" | "normal"
    options: tuple[tuple[str, Any], ...] = ()
    clock_step: float = 1.0


def play(match: Match, seed: int) -> tuple[tuple[int, ...], tuple[str, ...], list[float]]:
    """One seeded game: (winning seats, each seat's level, normal's decision times)."""
    game = get_game(match.game)
    shift = seed % match.seats
    levels = match.levels[shift:] + match.levels[:shift]
    state = game.new_game(match.seats, dict(match.options), seed)
    rng = Rng(seed ^ 0xB075)
    now = 1_000_000.0
    times: list[float] = []
    steps = 0
    while not game.is_over(state):
        pending = game.pending(state)
        seat = rng.choice(sorted(pending))
        level = levels[seat]
        if level == "random":
            action = rng.choice(game.legal_actions(state, seat))
        else:
            # CPU time of this process: the machine is shared, and wall time would count the
            # other jobs' turns on the cores too (the other benches report per CPU-second).
            start = time.process_time()
            action = choose(game, state, seat, level)
            if level == "normal":
                times.append(time.process_time() - start)
        game.play(state, seat, action, now)
        now += match.clock_step
        steps += 1
        if steps > MAX_STEPS:
            raise AssertionError(f"{match}: seed {seed} does not end")
    result = game.result(state)
    assert result is not None
    return result.winners, levels, times


def _run(args: tuple[Match, int, int]) -> tuple[int, int, list[float]]:
    """Games ``lo``..``hi``-1 of ``match``: (games a normal seat won, games, decision times)."""
    match, lo, hi = args
    wins = 0
    times: list[float] = []
    for seed in range(lo, hi):
        winners, levels, t = play(match, seed)
        times += t
        if "normal" in levels:
            wins += any(levels[w] == "normal" for w in winners)
        else:
            wins += bool(winners)  # FUSE without a normal seat: the team's win
    return wins, hi - lo, times


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def measure(pool: ProcessPoolExecutor, match: Match, games: int) -> tuple[int, int, list[float]]:
    chunk = max(1, games // (WORKERS * 4))
    parts = [(match, lo, min(games, lo + chunk)) for lo in range(0, games, chunk)]
    wins = total = 0
    times: list[float] = []
    for w, n, t in pool.map(_run, parts):
        wins += w
        total += n
        times += t
    return wins, total, times


def _line(label: str, wins: int, n: int, target: str, ok: bool | None) -> str:
    lo, hi = wilson(wins, n)
    verdict = "" if ok is None else ("PASS" if ok else "FAIL")
    return (
        f"  {label:<44} {wins / max(1, n):6.1%}  [{lo:5.1%}, {hi:5.1%}]  n={n:<4} "
        f"target {target:<10} {verdict}"
    )


def competitive(game: str) -> Iterator[tuple[Match, float, str]]:
    """(match, minimum win rate, label) of each competitive game's rows."""
    seat_counts = (2, 4) if game == "badbones" else (2,)
    for seats in seat_counts:
        for rival in ("random", "easy"):
            floor = (0.9 if rival == "random" else 0.65) if seats == 2 else 1 / seats
            label = f"{game} {seats}p normal vs {rival}"
            yield Match(game, seats, ("normal",) + (rival,) * (seats - 1)), floor, label


def main(argv: list[str] | None = None) -> None:
    args = list(argv or [])
    games = GAMES
    if "--games" in args:
        i = args.index("--games")
        games = int(args[i + 1])
        del args[i : i + 2]
    names = args or ["farkle", "zvv", "badbones", "fuse"]
    print(f"up to {games} seeded games per row (n: how many), {WORKERS} worker processes")
    all_times: dict[str, list[float]] = {}
    started = time.perf_counter()
    with ProcessPoolExecutor(WORKERS) as pool:
        for name in names:
            if name == "fuse":
                _fuse(pool, games, all_times)
                continue
            for match, floor, label in competitive(name):
                share = SHARE.get((name, match.seats, match.levels[1]), 1.0)
                wins, n, times = measure(pool, match, max(20, int(games * share)))
                all_times.setdefault(f"{name} {match.seats}p", []).extend(times)
                target = f">= {floor:.0%}"
                if match.seats > 2:
                    target = f"> {floor:.0%}"  # better than an equal share of the table
                ok = wins / n >= floor if match.seats == 2 else wins / n > floor
                print(_line(label, wins, n, target, ok), flush=True)
    print("decision time of normal (choose, per call, CPU time)")
    for name, times in all_times.items():
        times.sort()
        p50 = times[len(times) // 2] * 1000
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
        verdict = "PASS" if p99 <= 50 else "FAIL"
        print(
            f"  {name:<12} p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  ({len(times)} decisions)  "
            f"target p99 <= 50 ms {verdict}"
        )
    print(f"bench time {time.perf_counter() - started:.0f} s")


def _fuse(pool: ProcessPoolExecutor, games: int, all_times: dict[str, list[float]]) -> None:
    print(f"  fuse: Standard, live, clock step {FUSE_CLOCK_STEP:g} s per action")
    options = (("difficulty", "standard"), ("mode", "live"))
    for seats in FUSE_SEATS:
        rates: dict[str, float] = {}
        for level in ("random", "easy", "normal"):
            match = Match("fuse", seats, (level,) * seats, options, FUSE_CLOCK_STEP)
            share = 1.0 if seats == 2 else FUSE_OTHER_SEATS_SHARE
            wins, n, times = measure(pool, match, max(20, int(games * share)))
            all_times.setdefault(f"fuse {seats}p", []).extend(times)
            rates[level] = wins / n
            ok: bool | None = None
            target = "-"
            if level == "normal" and seats == 2:
                # 3x random play's rate (random teams hardly ever win: then any win passes)
                target = f">= 3x{rates['random']:.1%}"
                ok = rates["normal"] >= 3 * rates["random"] and rates["normal"] > 0
            print(_line(f"fuse {seats}p team of {level}", wins, n, target, ok), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
