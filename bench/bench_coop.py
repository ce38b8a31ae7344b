"""Bad Bones solo and cooperative: how often a table of computer players wins, and what beats it.

Run: ``python -m bench coop [--games N] [--levels normal hard] [--seats 1 2 3 4]``. Every seat plays the same
level; a row is ``N`` seeded games (seed = game number) of the solo game (10 rounds) or the
cooperative game with 2, 3 and 4 players (10 rounds, the house board of
``../shared/rules/bad-bones.md``: towers on B2, D2, B4, D4, the capital beyond the top edge),
printed with a 95% Wilson interval. For the games lost it prints the round the game was lost in,
what fell (the shared capital, a board's last tower floor, or the solo game's village) and, for
every tower floor and capital house lost, the entry of the skeleton that took it (its forest and
symbol: where it walked onto the board), most frequent first. The tables are Bad Bones' team
modes in ``bench/bench_bots.py`` (``TEAMS``), whose team rows (``python -m bench bots``) play
the same seeded games and print their win rates with the other levels' and decision times.

Which skeleton took a floor or a house is not in the engine's events (they count floors and
houses), so the worker processes note it where the resolver spends a skeleton on a tower or
on the village (``Resolver._tower`` and ``Resolver._village``, wrapped in the bench's worker
processes only) while a phase commits (``phases.commit``; not its dry runs, nor the computer
players' play-outs on copies).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.bench_bots import TEAMS, WORKERS, bench_game, wilson
from rules import get_game
from rules.badbones import phases
from rules.badbones.board import model_name
from rules.badbones.skeletons import Resolver
from rules.badbones.state import BadBonesState, Token
from rules.core import Action, Event, Rng
from rules.core.policy import choose

GAMES = 100
LEVELS = ("normal", "hard")
# (players, options): the team modes of ``python -m bench bots`` (solo, cooperative 2-4 players).
TABLES: tuple[tuple[int, dict[str, Any]], ...] = tuple(
    (seats, dict(team.options)) for team in TEAMS["badbones"].values() for seats in team.seats
)

# Entries of the skeletons that took a floor ("tower") or a house ("capital": the village in the
# solo game) since it was last emptied (filled by the wrapped resolver methods).
_hits: list[tuple[str, str]] = []


def _instrument() -> None:
    if getattr(Resolver, "_bench_noted", False):
        return
    tower, village = Resolver._tower, Resolver._village
    commit, dry_run = phases.commit, phases.dry_run
    # True while a phase commits, False inside a dry run (which finds the owners' questions by
    # resolving a board on a copy, also from inside a commit that starts the next phase).
    committing: list[bool] = [False]

    def noted_commit(state: BadBonesState) -> list[Event]:
        committing.append(True)
        try:
            return commit(state)
        finally:
            committing.pop()

    def noted_dry_run(state: BadBonesState, seat: int, scores: list[int] | None = None) -> None:
        committing.append(False)
        try:
            dry_run(state, seat, scores)
        finally:
            committing.pop()

    def noted_tower(self: Resolver, square: int, unit: list[Token]) -> list[Token]:
        before = self.floors_lost
        rest = tower(self, square, unit)
        if committing[-1] and self.floors_lost > before:
            # Cooperative: the tower stops the unit's last skeleton; basic: every one hits.
            hit = unit[len(rest) :] if self.coop else unit
            _hits.extend(("tower", model_name(t.model)) for t in hit)
        return rest

    def noted_village(self: Resolver, token: Token) -> None:
        before = (self.houses_lost, self.capital)
        village(self, token)
        if committing[-1] and (self.houses_lost > before[0] or self.capital < before[1]):
            _hits.append(("capital", model_name(token.model)))

    Resolver._tower = noted_tower  # type: ignore[method-assign]
    Resolver._village = noted_village  # type: ignore[method-assign]
    phases.commit = noted_commit
    phases.dry_run = noted_dry_run
    Resolver._bench_noted = True  # type: ignore[attr-defined]


# Won, the round it ended in, the hits, what was lost ("" when won; "capital", "towers": a
# board's last floor; "village": the solo game's).
Outcome = tuple[bool, int, list[tuple[str, str]], str]


def play(seats: int, options: dict[str, Any], level: str, seed: int) -> Outcome:
    """One seeded game of the table (the bots bench's, ``bench_game``), the clock standing at 0."""
    _instrument()
    game = get_game("badbones")
    hits: list[tuple[str, str]] = []

    def decide(state: Any, seat: int, rng: Rng) -> Action:
        action = choose(game, state, seat, level)
        _hits.clear()  # what the computer's play-outs hit on their copies is not the game
        return action

    def played(seat: int, action: Action, now: float) -> None:
        hits.extend(_hits)

    state = bench_game(game, seats, options, seed, decide, 0.0, start=0.0, played=played)
    result = game.result(state)
    assert result is not None
    won = bool(result.winners)
    return won, state.round, hits, "" if won else _lost_by(state)


def _lost_by(state: BadBonesState) -> str:
    """What fell: the shared capital, a board's last floor, or (solo) the village."""
    if state.coop and state.capital <= 0:
        return "capital"
    return "towers" if any(b.floors <= 0 for b in state.boards) else "village"


def _run(args: tuple[int, dict[str, Any], str, int, int]) -> list[Outcome]:
    seats, options, level, lo, hi = args
    return [play(seats, options, level, seed) for seed in range(lo, hi)]


def main(argv: list[str] | None = None) -> None:
    args = list(argv or [])
    games = int(_values(args, "--games", [str(GAMES)])[0])
    levels = _values(args, "--levels", list(LEVELS))
    seats = [int(v) for v in _values(args, "--seats", [str(t) for t, _ in TABLES])]
    print(f"Bad Bones solo and cooperative, {games} seeded games per row, every seat one level")
    started = time.perf_counter()
    with ProcessPoolExecutor(WORKERS) as pool:
        for table, options in TABLES:
            if table not in seats:
                continue
            for level in levels:
                chunk = max(1, games // (WORKERS * 4))
                parts = [
                    (table, options, level, lo, min(games, lo + chunk))
                    for lo in range(0, games, chunk)
                ]
                outcomes = [o for part in pool.map(_run, parts) for o in part]
                _report(table, level, outcomes)
    print(f"bench time {time.perf_counter() - started:.0f} s")


def _values(args: list[str], flag: str, default: list[str]) -> list[str]:
    """The words after ``flag`` up to the next option (``default`` without the flag)."""
    if flag not in args:
        return default
    words = []
    for word in args[args.index(flag) + 1 :]:
        if word.startswith("--"):
            break
        words.append(word)
    return words


def _report(seats: int, level: str, outcomes: list[Outcome]) -> None:
    wins = sum(won for won, _, _, _ in outcomes)
    n = len(outcomes)
    lo, hi = wilson(wins, n)
    name = "solo" if seats == 1 else f"cooperative {seats}p"
    print(f"  {name:<16} {level:<7} won {wins / n:6.1%}  [{lo:5.1%}, {hi:5.1%}]  n={n}", flush=True)
    lost = [(r, hits) for won, r, hits, _ in outcomes if not won]
    if not lost:
        return
    rounds = Counter(r for r, _ in lost)
    print("      lost in round: " + ", ".join(f"{r}: {c}" for r, c in sorted(rounds.items())))
    causes = Counter(cause for won, _, _, cause in outcomes if not won)
    print("      lost by: " + ", ".join(f"{c} {n}" for c, n in causes.most_common()))
    for kind in ("tower", "capital"):
        entries = Counter(e for _, hits in lost for k, e in hits if k == kind)
        if entries:
            top = ", ".join(f"{e} {c}" for e, c in entries.most_common(6))
            where = "capital houses" if kind == "capital" else "tower floors"
            print(f"      {where} taken by (entry: forest and symbol): {top}")


if __name__ == "__main__":
    main(sys.argv[1:])
