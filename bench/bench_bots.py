"""Computer players: how often each level wins, how long a decision takes, and what a search
costs the event loop.

Run: ``python -m bench bots`` (every game with a computer player), or ``python -m
bench.bench_bots [game ...] [--games N] [--seats N] [--pair hard:normal] [--mode relaxed]
[--level hard]`` (``--seats``, ``--pair``, ``--mode`` and ``--level`` repeatable; ``--pair``
and ``--mode`` choose rows: given either, only the rows they name run; ``--help`` says more).
The games and their seat counts come from the registry (each registration's computer players
and ``versus``, each engine's ``seat_range``), so a game's new level or a new game is measured
the day it lands. Every game is seeded (seed = game number), so a run is reproducible; the
seats rotate with the seed, so no level always plays first. Win rates print with a 95% Wilson
interval, next to their target and PASS/FAIL (PASS: the measured rate meets the target; the
interval says how sure that is).

- Competitive games, every seat count where the players play each other: one seat of the
  stronger level against the others: ``hard`` vs ``normal`` (target: 65% with 2 players, twice
  the fair share with more), ``normal`` vs ``easy`` (65%; more than the fair share with more
  players) and ``normal`` vs ``random`` (uniformly random legal actions; 90%; likewise). A
  shared win counts for each winner.
- Team games (``TEAMS``), the team against the game: its win rate per level (``random``,
  ``easy``, ``normal``, ``hard``; every seat at that level) and seat count, in each mode of
  ``TEAMS``, no target. FUSE, Standard difficulty, 1-5 players: live, with a fixed clock step
  of ``TEAM_CLOCK_STEP`` seconds per action (the 10-minute clock then allows 600 / step
  actions: a brisk table), and relaxed (no clock; the bomb goes off after the deck's round
  limit). Bad Bones: solo (1 player) and cooperative (2-4 players, the house board): the same
  games as ``python -m bench coop`` (whose tables these are; it adds what beat the team).
- Decision time per game (a team mode's apart: ``badbones cooperative``) and level: p50 and
  p99 of ``choose``, in wall time and in CPU time of the worker process (the machine is shared:
  wall time counts other jobs' turns on the cores; the target, p99 <= 1 s for ``hard`` and
  50 ms for the others, is checked on wall time).
- The event loop's added latency while ``hard`` decides (``loop_lag``): a 1-ms ticker's
  lateness on an asyncio loop while decisions run in a thread (``asyncio.to_thread``) and in
  the decision worker process (``bot.service.thinking``).

Games run in worker processes (``WORKERS``; the machine has 2 cores).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sys
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from rules import game_names, get_game
from rules.core import Action, Game, Rng, registration
from rules.core.play import BOTS_SALT, START, Decide, Played, play_game
from rules.core.policy import by_levels, choose, has_policy

GAMES = 300
WORKERS = 2
TEAM_CLOCK_STEP = 2.0
Options = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Team:
    """A way a team plays against the game (``--mode``'s word names it): the game's options,
    how its games are timed, and the seat counts measured (none: every count the options allow)."""

    options: Options
    pace: str
    seats: tuple[int, ...] = ()


# Games played by a team against the game (their rows are team win rates), in each mode they are
# measured in. Bad Bones' are also ``python -m bench coop``'s tables (which adds what beat them):
# solo, and the cooperative game on the house board with 2-4 players (as issue 25 asks; the
# engine allows 6).
TEAMS: dict[str, dict[str, Team]] = {
    "fuse": {
        "live": Team(
            (("difficulty", "standard"), ("mode", "live")),
            f"the 10-minute clock, {TEAM_CLOCK_STEP:g} s per action",
        ),
        "relaxed": Team(
            (("difficulty", "standard"), ("mode", "relaxed")),
            "no clock, the deck's round limit",
        ),
    },
    "badbones": {
        "solo": Team((), "10 rounds against the skeletons, alone", (1,)),
        "cooperative": Team(
            (("cooperative", True),),
            "10 rounds, the house board (towers B2 D2 B4 D4, the capital beyond the top edge)",
            (2, 3, 4),
        ),
    },
}
TEAM_MODES = sorted({mode for modes in TEAMS.values() for mode in modes})
TEAM_LEVELS = ("random", "easy", "normal", "hard")
# (stronger, weaker, 2-player target); with more players the targets are shares of the table.
PAIRS = (("hard", "normal", 0.65), ("normal", "easy", 0.65), ("normal", "random", 0.9))
MAX_STEPS = 20_000
LIMIT_MS = {"hard": 1000.0}  # p99 of a decision, wall time; other levels: DEFAULT_LIMIT_MS
DEFAULT_LIMIT_MS = 50.0


@dataclass(frozen=True)
class Match:
    game: str
    seats: int
    levels: tuple[str, ...]  # per seat, before rotation: "random" | "easy" | "normal" | "hard"
    options: Options = ()
    clock_step: float = 1.0


Times = dict[str, list[tuple[float, float]]]  # level -> (wall, CPU) seconds per decision
# (game, or game and team mode; level) -> (wall, CPU) seconds per decision, over the rows
AllTimes = dict[tuple[str, str], list[tuple[float, float]]]


def bench_game(
    game: Game[Any],
    seats: int,
    options: Mapping[str, Any],
    seed: int,
    decide: Decide[Any],
    clock_step: float = 1.0,
    start: float = START,
    played: Played | None = None,
) -> Any:
    """One seeded game of the benches to its end, ``decide`` choosing every move: its final
    state. It is ``rules.core.play.play_game`` with the computer players' salt, drawing the
    seat to act even when only one is pending (the draws the per-seed figures of docs/bots.md
    were measured with), so the same seed is the same game for every bench."""
    state, _, _ = play_game(
        game,
        seats,
        seed,
        decide,
        salt=BOTS_SALT,
        options=options,
        start=start,
        clock_step=clock_step,
        max_steps=MAX_STEPS,
        draw_lone_seat=True,
        played=played,
    )
    return state


def seeded_game(
    game: Game[Any], seats: int, options: Options, seed: int, clock_step: float, decide: Decide[Any]
) -> tuple[int, ...]:
    """One seeded game to its end (:func:`bench_game`), ``decide`` choosing every move: the
    winning seats."""
    state = bench_game(game, seats, dict(options), seed, decide, clock_step)
    result = game.result(state)
    assert result is not None
    return result.winners


def play(match: Match, seed: int) -> tuple[tuple[int, ...], tuple[str, ...], Times]:
    """One seeded game: (winning seats, each seat's level, decision times per level)."""
    game = get_game(match.game)
    shift = seed % match.seats
    levels = match.levels[shift:] + match.levels[:shift]
    times: Times = {}
    by_level = by_levels(game, levels)

    def decide(state: Any, seat: int, rng: Rng) -> Action:
        wall, cpu = time.perf_counter(), time.process_time()
        action = by_level(state, seat, rng)
        took = (time.perf_counter() - wall, time.process_time() - cpu)
        if levels[seat] != "random":  # a random move is no decision worth timing
            times.setdefault(levels[seat], []).append(took)
        return action

    winners = seeded_game(game, match.seats, match.options, seed, match.clock_step, decide)
    return winners, levels, times


def _run(args: tuple[Match, int, int]) -> tuple[int, int, Times]:
    """Games ``lo``..``hi``-1 of ``match``: (games the first level won, games, times)."""
    match, lo, hi = args
    wins = 0
    times: Times = {}
    for seed in range(lo, hi):
        winners, levels, t = play(match, seed)
        for level, some in t.items():
            times.setdefault(level, []).extend(some)
        wins += any(levels[w] == match.levels[0] for w in winners)
    return wins, hi - lo, times


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def measure(pool: ProcessPoolExecutor, match: Match, games: int) -> tuple[int, int, Times]:
    chunk = max(1, games // (WORKERS * 4))
    parts = [(match, lo, min(games, lo + chunk)) for lo in range(0, games, chunk)]
    wins = total = 0
    times: Times = {}
    for w, n, t in pool.map(_run, parts):
        wins += w
        total += n
        for level, some in t.items():
            times.setdefault(level, []).extend(some)
    return wins, total, times


def _line(label: str, wins: int, n: int, target: str, ok: bool | None) -> str:
    lo, hi = wilson(wins, n)
    verdict = "" if ok is None else ("PASS" if ok else "FAIL")
    return (
        f"  {label:<38} {wins / max(1, n):6.1%}  [{lo:5.1%}, {hi:5.1%}]  n={n:<4} "
        f"target {target:<9} {verdict}"
    )


def competitive_seats(name: str) -> list[int]:
    """The seat counts at which the game's players play each other, with its default options
    (its registration's ``versus`` names the tables that play against the game instead)."""
    low, high = get_game(name).seat_range({})
    versus = registration(name).versus
    return [seats for seats in range(max(2, low), high + 1) if versus({}, seats) is None]


def team_seats(name: str, team: Team) -> list[int]:
    """The seat counts of a team mode's rows: its own, or every count its options allow."""
    low, high = get_game(name).seat_range(dict(team.options))
    return list(team.seats or range(low, high + 1))


def seat_counts(name: str) -> list[int]:
    """Every seat count the game's rows are measured at, competitive or team."""
    counts = set(competitive_seats(name))
    for team in TEAMS.get(name, {}).values():
        counts.update(team_seats(name, team))
    return sorted(counts)


def _first_options(name: str) -> Options:
    """The options of the game's ``hard`` positions for the event loop's bench: none where its
    players play each other, else its first team mode's."""
    return () if competitive_seats(name) else next(iter(TEAMS[name].values())).options


def competitive(name: str, seats: int) -> Iterator[tuple[Match, float, str]]:
    """(match, minimum win rate of its first seat's level, label) of a competitive game."""
    for strong, weak, two in PAIRS:
        floor = two if seats == 2 else (2 if strong == "hard" else 1) / seats
        label = f"{name} {seats}p {strong} vs {weak}"
        yield Match(name, seats, (strong,) + (weak,) * (seats - 1)), floor, label


def parse(argv: list[str]) -> argparse.Namespace:
    """The command line: which games, seat counts, level pairs and team modes to measure."""
    with_policy = [name for name in game_names() if has_policy(name)]
    modes = "; ".join(f"{name}: {', '.join(modes)}" for name, modes in TEAMS.items())
    parser = argparse.ArgumentParser(
        prog="python -m bench.bench_bots",
        description=(
            "How often each computer level wins (seeded games, seats rotated, 95% Wilson "
            "intervals) and how long its decisions take: competitive rows (one level against "
            "another) and team rows (every seat one level, the team against the game). "
            "--pair and --mode choose rows: given either, only the rows they name run."
        ),
    )
    parser.add_argument(
        "games_to_play",
        nargs="*",
        metavar="game",
        help=f"games to measure (default: every game with a computer player: {', '.join(with_policy)})",
    )
    parser.add_argument(
        "--games", type=int, default=GAMES, help=f"seeded games per row (default {GAMES})"
    )
    parser.add_argument(
        "--seats",
        type=int,
        action="append",
        default=[],
        help="only this seat count (repeatable; default: every seat count the game is measured at)",
    )
    parser.add_argument(
        "--pair",
        action="append",
        default=[],
        metavar="STRONG:WEAK",
        help="competitive rows: only this pair of levels, e.g. hard:normal (repeatable; "
        "default: all; without --mode, no team rows)",
    )
    parser.add_argument(
        "--mode",
        action="append",
        default=[],
        choices=TEAM_MODES,
        help=f"team rows: only this mode ({modes}; repeatable; default: every mode; without "
        "--pair, no competitive rows)",
    )
    parser.add_argument(
        "--level",
        action="append",
        default=[],
        choices=TEAM_LEVELS,
        help="team rows: only the team of this level (repeatable; default: every level)",
    )
    args = parser.parse_args(argv)
    unknown = [name for name in args.games_to_play if name not in with_policy]
    if unknown:
        parser.error(
            f"no computer player for {', '.join(unknown)} (games: {', '.join(with_policy)})"
        )
    args.games_to_play = args.games_to_play or with_policy
    return args


def tables(args: argparse.Namespace) -> Iterator[tuple[str, int, str]]:
    """The tables the command line measures, in order: (game, seats, team mode; "" for the
    competitive rows). ``--pair`` and ``--mode`` choose rows: given either, only theirs."""
    for name in args.games_to_play:
        for seats in seat_counts(name):
            if args.seats and seats not in args.seats:
                continue
            if seats in competitive_seats(name) and (args.pair or not args.mode):
                yield name, seats, ""
            for mode, team in TEAMS.get(name, {}).items():
                chosen = mode in args.mode if args.mode else not args.pair
                if chosen and seats in team_seats(name, team):
                    yield name, seats, mode


def main(argv: list[str] | None = None) -> None:
    args = parse(argv or [])
    names: list[str] = args.games_to_play
    games: int = args.games
    print(f"{games} seeded games per row (n: how many), {WORKERS} worker processes", flush=True)
    all_times: AllTimes = {}
    started = time.perf_counter()
    with ProcessPoolExecutor(WORKERS) as pool:
        for name, seats, mode in tables(args):
            if mode:
                _team(pool, name, seats, mode, args.level, games, all_times)
            else:
                _competitive(pool, name, seats, args.pair, games, all_times)
    _decision_times(all_times)
    loop_lag("farkle" if "farkle" in names else names[0])
    print(f"bench time {time.perf_counter() - started:.0f} s")


def _competitive(
    pool: ProcessPoolExecutor,
    name: str,
    seats: int,
    pairs: list[str],
    games: int,
    all_times: AllTimes,
) -> None:
    """A competitive game's rows at one seat count: each pair of levels (``pairs``: all)."""
    for match, floor, label in competitive(name, seats):
        if pairs and f"{match.levels[0]}:{match.levels[-1]}" not in pairs:
            continue
        wins, n, times = measure(pool, match, games)
        for level, some in times.items():
            all_times.setdefault((name, level), []).extend(some)
        target = f">= {floor:.0%}" if seats == 2 or "hard" in match.levels else ""
        target = target or f"> {floor:.0%}"
        ok = wins / n >= floor if target.startswith(">=") else wins / n > floor
        print(_line(label, wins, n, target, ok), flush=True)


def _team(
    pool: ProcessPoolExecutor,
    name: str,
    seats: int,
    mode: str,
    levels: list[str],
    games: int,
    all_times: AllTimes,
) -> None:
    """A team game's rows at one seat count and mode: the team's win rate at each level
    (``levels``: all); its decision times are the mode's own (a team's seats think longer)."""
    team = TEAMS[name][mode]
    options = ", ".join(f"{key}={value}" for key, value in team.options) or "default options"
    print(f"  {name} {seats}p {mode} ({options}): {team.pace}")
    for level in TEAM_LEVELS:
        if levels and level not in levels:
            continue
        match = Match(name, seats, (level,) * seats, team.options, TEAM_CLOCK_STEP)
        started = time.perf_counter()
        wins, n, times = measure(pool, match, games)
        for lv, some in times.items():
            all_times.setdefault((f"{name} {mode}", lv), []).extend(some)
        label = f"{name} {seats}p {mode} team of {level}"
        took = f"{time.perf_counter() - started:.0f} s"
        print(_line(label, wins, n, "-", None) + f" ({took})", flush=True)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def _decision_times(all_times: AllTimes) -> None:
    print("decision time (choose, per call; wall / CPU of the worker process)")
    for (name, level), times in sorted(all_times.items()):
        wall = [w * 1000 for w, _ in times]
        cpu = [c * 1000 for _, c in times]
        limit = LIMIT_MS.get(level, DEFAULT_LIMIT_MS)
        p99 = _percentile(wall, 0.99)
        print(
            f"  {name:<20} {level:<7} p50 {_percentile(wall, 0.5):7.2f} / "
            f"{_percentile(cpu, 0.5):7.2f} ms  p99 {p99:7.2f} / {_percentile(cpu, 0.99):7.2f} ms"
            f"  ({len(times)} decisions)  target p99 <= {limit:g} ms "
            f"{'PASS' if p99 <= limit else 'FAIL'}",
            flush=True,
        )


# --------------------------------------------------------------------------- the event loop

LAG_DECISIONS = 12


def _hard_positions(name: str, count: int) -> list[tuple[Any, int]]:
    """Positions where a ``hard`` seat decides (from seeded games of normal players)."""
    game = get_game(name)
    low = seat_counts(name)[0]
    found: list[tuple[Any, int]] = []
    seed = 0
    while len(found) < count:
        state = game.new_game(max(2, low), dict(_first_options(name)), seed)
        for step in range(400):
            if game.is_over(state):
                break
            seat = min(game.pending(state))
            if step % 17 == 5:
                found.append((game.copy(state), seat))
            game.play(state, seat, choose(game, state, seat, "normal"), 1_000_000.0 + step)
        seed += 1
    return found[:count]


def loop_lag(name: str) -> None:
    """How late a 1-ms ticker on the event loop runs while ``hard`` decisions are thought out
    in a thread, then in the decision worker process (what a table's answer waits)."""
    from bot.service import thinking

    game = get_game(name)
    positions = _hard_positions(name, LAG_DECISIONS)

    async def ticker(stop: asyncio.Event, lags: list[float]) -> None:
        while not stop.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            lags.append(time.perf_counter() - before - 0.001)

    async def run(in_process: bool) -> list[float]:
        stop, lags = asyncio.Event(), list[float]()
        tick = asyncio.create_task(ticker(stop, lags))
        for state, seat in positions:
            if in_process:
                await thinking.decide(game, state, seat, "hard")
            else:
                await asyncio.to_thread(choose, game, state, seat, "hard")
        stop.set()
        await tick
        return lags

    async def both() -> None:
        await thinking.decide(game, *positions[0], "hard")  # start the worker first
        print(f"event loop lateness during {LAG_DECISIONS} {name} hard decisions (1-ms ticker)")
        for in_process, label in ((False, "in a thread"), (True, "in the decision process")):
            lags = [lag * 1000 for lag in await run(in_process)]
            print(
                f"  {label:<24} p50 {_percentile(lags, 0.5):6.2f} ms  "
                f"p99 {_percentile(lags, 0.99):6.2f} ms  max {max(lags):6.2f} ms",
                flush=True,
            )

    asyncio.run(both())
    thinking.shutdown()


if __name__ == "__main__":
    main(sys.argv[1:])
