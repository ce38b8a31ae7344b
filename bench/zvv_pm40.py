"""Scratch (issue 25, lane zvv-pm40): a ceiling experiment for ZvV ``hard`` with two players.

± and Build decided by determinized play-outs with many worlds (common random numbers: every
candidate meets the same dice turn by turn in a world), both sides on ``normal`` in the
play-out (its builds by ``quick_wall``), the end weighed by ``search.worth``. Moves stay
``hard``'s. No time budget: this asks whether more search on walls wins more games at all.

Run: ``python -m bench.zvv_pm40 OUT LO HI [WORLDS]``: for each seed, today's ``hard`` and the
variant each play the bench's 2-player game (``bench_bots.play``), one line per seed in OUT.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from typing import Any

from bench.bench_bots import Match, play
from rules.core import Action, Game, Rng
from rules.core import policy as core_policy
from rules.core.policy import Dice, position_rng
from rules.core.registry import registration
from rules.zvv import policy, search
from rules.zvv.actions import Build, Remove, Roll
from rules.zvv.board import board
from rules.zvv.policy import _flows, leader, race, wall_mask, wall_worths
from rules.zvv.state import ZvvState

WORLDS = 48
REMOVALS = 2
BUILDS = 6
PLAYOUT_TURNS = 4  # turns after the decision's own: ours ends, then R, us, R, us
QUICK_WALLS = 4
STATS: dict[str, list[float]] = {}


def choose(game: Game[Any], state: ZvvState, seat: int, level: str, dice: Dice) -> Action:
    legal = game.legal_actions(state, seat)
    if state.seats == 2 and len(legal) > 1 and seat not in state.locked:
        if state.phase == "plusminus":
            return _decide(game, state, seat, _pm_candidates(game, state, seat, legal, dice))
        if state.phase == "build":
            return _decide(game, state, seat, _build_candidates(state, seat, legal))
    return search.choose(game, state, seat, level, dice)


def _pm_candidates(
    game: Game[Any], state: ZvvState, seat: int, legal: list[Action], dice: Dice
) -> list[Action]:
    first = policy.choose(game, state, seat, "normal", dice)
    removes = [a for a in legal if isinstance(a, Remove)]
    b = board(state.size)
    mask = wall_mask(b, state.walls)
    rival = 1 - seat
    base = (race(state, b, mask, seat), race(state, b, mask, rival))
    ranked = sorted(removal_worths(state, b, seat, rival, base, removes), reverse=True)
    out: list[Action] = [first]
    for _, _, r in ranked[:REMOVALS]:
        if r not in out:
            out.append(r)
    if Roll() in legal and Roll() not in out:
        out.append(Roll())
    return out


def removal_worths(
    state: ZvvState, b: Any, seat: int, rival: int, base: tuple[int, int], removes: list[Remove]
) -> list[tuple[float, int, Remove]]:
    """``normal``'s measure of each removal (a copy of its ± loop, as in branch zvv-hard3)."""
    out = []
    for i, action in enumerate(removes):
        wall = b.parse_wall(action.wall)
        after = wall_mask(b, [w for w in state.walls if w != wall])
        mine, theirs = race(state, b, after, seat), race(state, b, after, rival)
        worth = (base[0] - mine) / max(base[0], 1) - (base[1] - theirs) / max(base[1], 1)
        out.append((worth, -i, action))
    return out


def _build_candidates(state: ZvvState, seat: int, legal: list[Action]) -> list[Action]:
    b = board(state.size)
    mask = wall_mask(b, state.walls)
    builds = [a for a in legal if isinstance(a, Build)]
    worths = sorted(wall_worths(state, b, mask, seat, builds), reverse=True)
    return [w[2] for w in worths[:BUILDS]] or [legal[0]]


def _decide(game: Game[Any], state: ZvvState, seat: int, candidates: list[Action]) -> Action:
    if len(candidates) == 1:
        return candidates[0]
    t0 = time.process_time()
    known = game.copy(state)
    known.rng = 0
    base = position_rng(game, known, seat).state
    totals = [0.0] * len(candidates)
    for w in range(WORLDS):
        for i, action in enumerate(candidates):
            totals[i] += played_out(game, state, seat, action, base, w)
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    STATS.setdefault(state.phase, []).append(time.process_time() - t0)
    STATS.setdefault(state.phase + "_changed", []).append(float(best != 0))
    return candidates[best]


def _turn_seed(base: int, world: int, turn: int, bonus: bool) -> int:
    digest = hashlib.blake2b(f"{base}|{world}|{turn}|{bonus}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def played_out(
    game: Game[Any], state: ZvvState, seat: int, action: Action, base: int, world: int
) -> float:
    start = state.turns
    st = game.copy(state)
    st.rng = _turn_seed(base, world, -1, False)
    game.play(st, seat, action, 0.0)
    while st.phase != "over" and st.turns - start <= PLAYOUT_TURNS:
        if st.phase == "roll":
            st.rng = _turn_seed(base, world, st.turns, st.bonus_used)
        who = st.turn
        if st.phase == "build":
            chosen: Action = quick_wall(game, st, who)
        else:
            chosen = policy.choose(game, st, who, "normal", _no_dice)
        game.play(st, who, chosen, 0.0)
    return search.worth(st, board(st.size), seat, 1.0)


def _no_dice() -> Rng:
    raise AssertionError("normal draws nothing")


def quick_wall(game: Game[Any], state: ZvvState, seat: int) -> Action:
    legal = game.legal_actions(state, seat)
    builds = [a for a in legal if isinstance(a, Build)]
    if not builds or seat in state.locked:
        return policy.choose(game, state, seat, "normal", _no_dice)
    b = board(state.size)
    mask = wall_mask(b, state.walls)
    theirs = _flows(state, b, mask, leader(state, b, mask, seat))
    crossing = []
    for i, action in enumerate(builds):
        wall = b.parse_wall(action.wall)
        paths = sum(theirs.get(edge, 0) for edge in b.wall_edges(wall))
        if paths:
            crossing.append((paths, -i, action))
    crossing.sort(reverse=True)
    shortlist = [action for _, _, action in crossing[:QUICK_WALLS]]
    weighed = wall_worths(state, b, mask, seat, shortlist)
    if weighed:
        return max(weighed)[2]
    return shortlist[0] if shortlist else builds[0]


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def main() -> None:
    global WORLDS
    out, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if len(sys.argv) > 4:
        WORLDS = int(sys.argv[4])
    match = Match("zvv", 2, ("hard", "normal"))
    path = registration("zvv").hard
    assert path is not None
    for seed in range(lo, hi):
        core_policy._loaded.pop(path, None)
        w0, lv0, t0 = play(match, seed)
        kept = any(lv0[w] == "hard" for w in w0)
        core_policy._loaded[path] = choose
        STATS.clear()
        c = time.process_time()
        w1, lv1, t1 = play(match, seed)
        took = time.process_time() - c
        var = any(lv1[w] == "hard" for w in w1)
        cpu = [x[1] for x in t1.get("hard", [])]
        line = {
            "seed": seed,
            "kept": int(kept),
            "variant": int(var),
            "game_cpu": round(took, 1),
            "hard_cpu_p50": round(_pct(cpu, 0.5) * 1000, 1),
            "hard_cpu_max": round(max(cpu) * 1000, 1),
            "decisions": {k: len(v) for k, v in STATS.items() if not k.endswith("_changed")},
            "changed": {k: int(sum(v)) for k, v in STATS.items() if k.endswith("_changed")},
            "cpu_ms": {k: round(_pct(v, 0.5) * 1000) for k, v in STATS.items() if "_" not in k},
            "hard_cpu_all": [round(x * 1000, 2) for x in cpu],
        }
        with open(out, "a") as f:
            f.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
