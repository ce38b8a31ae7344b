"""How much a lead is worth: in seeded games with every seat on ``normal``, how often the seat
ahead at a quarter, a half and three quarters of the game (counted in decisions) goes on to win.

Run: ``python -m bench.leads zvv --seats 3 --games 100 --first 1000``. It prints, per point of
the game, the leader's wins with a 95% Wilson interval next to the fair share. Near the fair
share, a lead says nothing about who wins: the table takes it back (in Zombies vs Vampires every
``normal`` walls in the seat nearest to finishing), and a player whose edge shows as a lead
cannot turn it into many more wins. The games are the bots bench's (``bench_bots.seeded_game``,
seed = game number). Issue 25's notes in docs/bots.md quote its figures.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from bench.bench_bots import seeded_game, wilson
from rules import get_game
from rules.core import Action, Rng
from rules.core.policy import choose
from rules.farkle.state import FarkleState
from rules.zvv.board import board
from rules.zvv.policy import race, wall_mask
from rules.zvv.state import ZvvState

POINTS = (0.25, 0.5, 0.75)  # how far into the game (share of its decisions) the lead is read


def farkle_ahead(state: FarkleState) -> list[float]:
    """Per seat, how far ahead: inside the Dragon's Keep above any army outside, then soldiers."""
    return [p.army + (1e9 if p.in_keep else 0) for p in state.players]


def zvv_ahead(state: ZvvState) -> list[float]:
    """Per seat, how far ahead: the race ``normal`` plays by (steps home, a wall crossed counting
    ``WALL_COST``), shorter first."""
    b = board(state.size)
    mask = wall_mask(b, state.walls)
    return [-race(state, b, mask, seat) for seat in range(state.seats)]


AHEAD: dict[str, Callable[[Any], list[float]]] = {"farkle": farkle_ahead, "zvv": zvv_ahead}


def leader(scores: list[float]) -> int:
    """The seat furthest ahead (the first such seat on a tie)."""
    return max(range(len(scores)), key=lambda seat: (scores[seat], -seat))


def leaders_won(game_name: str, seats: int, seed: int) -> dict[float, bool]:
    """One seeded game, every seat ``normal``: per point of the game, whether its leader won."""
    game = get_game(game_name)
    ahead = AHEAD[game_name]
    seen: list[list[float]] = []

    def decide(state: Any, seat: int, rng: Rng) -> Action:
        seen.append(ahead(state))
        return choose(game, state, seat, "normal")

    winners = seeded_game(game, seats, (), seed, 1.0, decide)
    return {point: leader(seen[int(len(seen) * point)]) in winners for point in POINTS}


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.leads", description=__doc__)
    parser.add_argument("game", choices=sorted(AHEAD))
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse(argv)
    won = dict.fromkeys(POINTS, 0)
    for seed in range(args.first, args.first + args.games):
        for point, hit in leaders_won(args.game, args.seats, seed).items():
            won[point] += hit
    print(
        f"{args.game}, {args.seats} players, seeds {args.first}-{args.first + args.games - 1},"
        f" every seat normal: the leader wins (fair share {1 / args.seats:.1%})"
    )
    for point in POINTS:
        low, high = wilson(won[point], args.games)
        print(
            f"  led at {point:.0%} of the game: {won[point]}/{args.games}"
            f" = {won[point] / args.games:.1%} ({low:.1%}-{high:.1%})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
