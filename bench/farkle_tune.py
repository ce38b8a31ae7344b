"""Direct policy search for Dragon Farkle's ``hard``: a ``Style``'s numbers tuned by games
against ``normal`` (docs/bots.md, "Dragon Farkle `hard`: a style tuned against `normal`").

Run: ``python -m bench.farkle_tune GENERATIONS POPULATION ELITE SEEDS LOG`` (cross-entropy
method; every candidate plays the same tuning seeds, 10000 and up, from both seats; the
measured run was ``8 24 6 1500``, stopped after 3 generations: 73 styles of 3,000
games, ~8 s of CPU each).
``games(style, seeds, seats)`` is the measure.
"""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import asdict, dataclass, fields
from typing import Any

from bench.bench_bots import seeded_game
from rules import get_game
from rules.core import Action, Rng
from rules.farkle.actions import Brawl, Enter, Recruit, Scare
from rules.farkle.policy import KEEP_ARMY, normal
from rules.farkle.policy_hard import brawl_attack
from rules.farkle.state import FarkleState


@dataclass(frozen=True)
class Style:
    """A whole way of playing, in a few numbers (the defaults: ``hard`` without its in-turn
    playouts, i.e. ``normal`` with the exact brawl attack and the Keep's 1,000)."""

    onward: float = 1.0  # weight on what one more roll adds (normal's ONWARD)
    behind: float = 0.0  # ... plus this per 1,000 soldiers the richest other leads by
    threat: float = 0.0  # ... plus this while another wannabe can fight the dragon
    reach: float = 1.0  # ... times this once banking would open the Keep
    enter_at: int = 5000  # soldiers with which it enters the Keep from outside
    stay_at: int = 1000  # ... and fights again from inside
    brawl_min: int = 1000  # a target worth a brawl has this many soldiers
    brawl_ratio: float = 0.5  # ... and at least this share of ours


def styled(state: FarkleState, seat: int, legal: list[Action], style: Style) -> Action:
    """The style's choice: its own strategic choice and weight on rolling on, and ``hard``'s
    exact brawl attack; the rest as ``normal``."""
    stage = state.stage
    if stage == "choose":
        return _strategy(state, seat, legal, style)
    r = state.roller()
    if r is not None and state.defence is None and state.action == "brawl":
        if stage in ("next", "dragon", "dodge"):
            return brawl_attack(state, r, legal)
    return normal(state, seat, legal, _onward(state, seat, style))


def _onward(state: FarkleState, seat: int, style: Style) -> float:
    me = state.players[seat]
    others = [p for t, p in enumerate(state.players) if t != seat]
    lead = max(p.army for p in others) - me.army
    weight = style.onward + style.behind * max(-3.0, min(3.0, lead / 1000))
    if any(p.in_keep or p.army >= KEEP_ARMY for p in others):
        weight += style.threat
    r = state.attack
    if r is not None and me.army < style.enter_at <= me.army + r.score:
        weight *= style.reach
    return max(0.0, weight)


def _strategy(state: FarkleState, seat: int, legal: list[Action], style: Style) -> Action:
    me = state.players[seat]
    first = normal(state, seat, legal)
    if isinstance(first, Scare):
        return first
    if Enter() in legal and me.army >= (style.stay_at if me.in_keep else style.enter_at):
        return Enter()
    targets = [a for a in legal if isinstance(a, Brawl)]
    if targets:
        rich = max(targets, key=lambda a: (state.players[a.target].army, -a.target))
        theirs = state.players[rich.target].army
        if theirs >= style.brawl_min and theirs >= style.brawl_ratio * me.army:
            return rich
    return Recruit() if Recruit() in legal else first


def game_won(style: Style, seed: int, seats: int, shift: int) -> bool:
    """One seeded game, ``style`` in seat ``shift``, ``normal`` elsewhere (the bench's loop)."""
    game = get_game("farkle")

    def decide(state: FarkleState, seat: int, _rng: Rng) -> Action:
        legal = game.legal_actions(state, seat)
        return styled(state, seat, legal, style) if seat == shift else normal(state, seat, legal)

    return shift in seeded_game(game, seats, (), seed, 1.0, decide)


def games(style: Style, seeds: range, seats: int = 2) -> int:
    """Games won by ``style`` over ``seeds``, each played from every seat (common dice)."""
    return sum(game_won(style, s, seats, shift) for s in seeds for shift in range(seats))


# Searched numbers: (field, low, high, starting spread).
SPACE = (
    ("onward", 0.5, 2.0, 0.3),
    ("behind", -0.3, 0.5, 0.15),
    ("threat", -1.0, 1.5, 0.4),
    ("reach", 0.2, 2.0, 0.4),
    ("enter_at", 5000, 8000, 800),
    ("stay_at", 50, 4000, 1000),
    ("brawl_min", 0, 4000, 800),
    ("brawl_ratio", 0.0, 2.0, 0.4),
)


def style_of(x: list[float]) -> Style:
    ints = {f.name for f in fields(Style) if f.type == "int"}
    values: dict[str, Any] = {}
    for (name, low, high, _), v in zip(SPACE, x, strict=True):
        v = min(high, max(low, v))
        values[name] = int(round(v / 50) * 50) if name in ints else round(v, 3)
    return Style(**values)


def cem(generations: int, pop: int, elite: int, seeds: range, log: str) -> None:
    """Cross-entropy method from ``Style()``: each generation draws ``pop`` styles around the
    mean (the mean itself first), plays each on ``seeds`` and moves to the ``elite`` best;
    every style's games go to ``log`` (JSON lines)."""
    rnd = random.Random(25)
    base = Style()
    mean = [float(getattr(base, name)) for name, *_ in SPACE]
    spread = [s for *_, s in SPACE]
    for g in range(generations):
        xs = [mean] + [
            [rnd.gauss(m, s) for m, s in zip(mean, spread, strict=True)] for _ in range(pop - 1)
        ]
        scored = []
        for x in xs:
            style = style_of(x)
            t = time.process_time()
            won = games(style, seeds)
            scored.append((won, x))
            with open(log, "a") as f:
                f.write(
                    json.dumps(
                        {
                            "gen": g,
                            "won": won,
                            "n": 2 * len(seeds),
                            "cpu": round(time.process_time() - t, 1),
                            "style": asdict(style),
                        }
                    )
                    + "\n"
                )
        scored.sort(key=lambda e: -e[0])
        best = [x for _, x in scored[:elite]]
        mean = [sum(v) / elite for v in zip(*best, strict=True)]
        spread = [
            max(0.2 * s0, (sum((v - m) ** 2 for v in col) / elite) ** 0.5)
            for col, m, (*_, s0) in zip(zip(*best, strict=True), mean, SPACE, strict=True)
        ]
        with open(log, "a") as f:
            f.write(json.dumps({"gen": g, "mean": asdict(style_of(mean))}) + "\n")


if __name__ == "__main__":
    gens, pop, elite, n = (int(a) for a in sys.argv[1:5])
    cem(gens, pop, elite, range(10000, 10000 + n), sys.argv[5])
