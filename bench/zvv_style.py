"""Direct policy search for Zombies vs Vampires' ``hard``: a ``Style``'s numbers and switches
tuned by games against ``normal`` (docs/bots.md, "ZvV: a style tuned against `normal`").

With its defaults a style plays exactly as ``normal`` (``rules/zvv/policy.py``); each number
moves one of ``normal``'s choices (moves, walls, ±). ``searched`` puts ``hard``'s searched moves
in place of ``normal``'s: ``Style(searched=True, siege=search.SIEGE)`` is today's ``hard`` with two
players (``AROUND_HARD`` screens around it). Two players only.

Run: ``python -m bench.zvv_style screen FIRST LAST LOG [NAME...]`` (the styles of ``SCREEN``,
or those named in ``STYLES``, each on seeds ``FIRST``..``LAST``-1 from both seats; the tuning
seeds were 10000–10149, around ``hard`` 20000–20149), ``python -m bench.zvv_style report LOG
NAME`` (each style's wins in a screen's log, and against style ``NAME`` on the same seeds and
seats) or ``python -m bench.zvv_style bench STYLE_JSON FIRST LAST LOG`` (the bench's 2-player
games ``FIRST``..``LAST``-1, the style's seat ``seed % 2`` as in ``play`` of
``bench/bench_bots.py``); results go to ``LOG`` as JSON lines, one a style and seed, so what
finished by a deadline counts. ``game_won(style, seed, seat)`` is the measure.
"""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import dataclass
from typing import Any

from bench.bench_bots import seeded_game, wilson
from rules import get_game
from rules.core import Action, Rng
from rules.core.policy import choose
from rules.zvv import policy, search
from rules.zvv.actions import Build, Move, Pass, Remove, Roll, Stop
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, Board, Wall, board
from rules.zvv.policy import (
    _build_chance,
    _flows,
    _open_pawns,
    _seals,
    distances,
    fixed_squares,
    leader,
    race,
    wall_mask,
    zone_border,
)
from rules.zvv.state import ZvvState


@dataclass(frozen=True)
class Style:
    """A whole way of playing ZvV, in a few numbers (the defaults: ``normal``)."""

    # Moves: the race's walls count ``move_wall`` steps; an arrival is worth its walk, less
    # ``depth`` per 4 squares short of the corner, plus ``arrive``; every move also gets
    # ``laggard`` per step its pawn had to go (> 0: bring the last pawns on first), and
    # ``spread`` per pawn more on the less used side of the zone (pawns coming in from both
    # sides: one wall cannot shut them all out).
    move_wall: int = 8
    depth: float = 0.3
    arrive: float = 0.0
    laggard: float = 0.0
    spread: float = 0.0
    # ``searched``: the moves are the registered ``hard``'s (its search) instead, and the
    # numbers above are unused; with ``siege`` = ``search.SIEGE`` the style is ``hard``.
    searched: bool = False
    # Walls: worth the rival's race longer less ``selfish`` times our own, walls at
    # ``build_wall`` steps, plus ``siege`` per unit edge along the rival's target zone (with
    # ``siege_free`` only edges into its free squares, not those of pawns home), plus
    # ``seal`` when it shuts every rival pawn with a wall-free way home out of the zone.
    build_wall: int = 8
    selfish: float = 1.0
    siege: float = 0.0
    siege_free: bool = False
    seal: float = 0.0
    # ±: take a wall away when its worth beats building (``build_worth`` steps of the rival's
    # race, times the chance the wall die can build); worth by shares of each race (normal)
    # or ``absolute`` steps; ``remove_bias`` steps in favour of taking away; walls at
    # ``pm_wall``; ``free_own``: first open the way home of pawns walled out of our zone;
    # ``keep_siege``: never take away a wall along the rival's target zone (our siege) unless
    # that gives one of our pawns a wall-free way home.
    pm_wall: int = 8
    build_worth: float = 2.0
    absolute: bool = False
    remove_bias: float = 0.0
    free_own: bool = False
    keep_siege: bool = False


def styled(state: ZvvState, seat: int, legal: list[Action], style: Style) -> Action:
    """The style's choice; a seat that can never finish (D7) plays as ``normal``."""
    phase = state.phase
    if phase == "roll":
        return Roll()
    if phase == "pass":
        return Pass()
    b = board(state.size)
    mask = wall_mask(b, state.walls)
    if seat in state.locked:
        return _level(state, seat, "normal")
    if phase in ("move", "split", "split_more"):
        if style.searched:  # hard's own choice: its search when there is a move to choose
            return _level(state, seat, "hard")
        return _move(state, b, mask, seat, legal, style)
    if phase == "plusminus":
        return _plusminus(state, b, mask, seat, legal, style)
    builds = [a for a in legal if isinstance(a, Build)]
    if builds:
        return _wall(state, b, mask, seat, builds, style)
    return legal[0]


def _level(state: ZvvState, seat: int, level: str) -> Action:
    """The registered computer player's choice at ``level``."""
    return choose(get_game("zvv"), state, seat, level)


def _move(
    state: ZvvState, b: Board, mask: list[int], seat: int, legal: list[Action], style: Style
) -> Action:
    """``policy.best_move`` with the style's weights."""
    corner = OPPOSITE_CORNER[START_CORNERS[seat]]
    zone = b.zone_squares(corner)
    dist = distances(state, b, mask, seat, style.move_wall)
    away = [sq for sq in state.pawns[seat] if sq not in zone]
    sides = [_side(b, sq, corner) for sq in away]
    best: tuple[float, int] | None = None
    choice: Action | None = None
    for i, action in enumerate(legal):
        if not isinstance(action, Move):
            continue
        start, dest = b.square(action.pawn), b.square(action.to)
        assert start is not None and dest is not None
        if dest in zone:
            gain = dist[start] + 1 - style.depth * b.distance_to_corner(dest, corner) / 4
            gain += style.arrive
        else:
            gain = dist[start] - dist[dest]
        if style.laggard:
            gain += style.laggard * min(dist[start], 60)
        if style.spread and dest not in zone:  # a pawn home is safe from walls
            rest = list(sides)
            rest.remove(_side(b, start, corner))
            rest.append(_side(b, dest, corner))
            gain += style.spread * (_balance(rest) - _balance(sides))
        key = (gain, -i)
        if best is None or key > best:
            best, choice = key, action
    if choice is None or (state.phase == "split_more" and best is not None and best[0] <= 0):
        return Stop() if Stop() in legal else legal[0]
    return choice


def _side(b: Board, sq: int, corner: str) -> int:
    """Which side of the zone a pawn comes in by: 1 over the top or bottom edge (more rows than
    columns to go), -1 by the left or right edge, 0 either."""
    r, c = b.rc(sq)
    far = b.size - 3
    dr = max(0, r - 2) if corner[0] == "T" else max(0, far - r)
    dc = max(0, c - 2) if corner[1] == "L" else max(0, far - c)
    return (dr > dc) - (dr < dc)


def _balance(sides: list[int]) -> int:
    """The pawns on the less used side (those that can take either count for it)."""
    either = sides.count(0)
    return min(sides.count(1) + either, sides.count(-1) + either)


def _wall(
    state: ZvvState, b: Board, mask: list[int], seat: int, builds: list[Build], style: Style
) -> Action:
    """``policy.best_wall`` / ``wall_worths`` with the style's weights."""
    wc = style.build_wall
    rival = leader(state, b, mask, seat)
    theirs, mine = _flows(state, b, mask, rival, wc), _flows(state, b, mask, seat, wc)
    base = (race(state, b, mask, seat, wc), race(state, b, mask, rival, wc))
    border = zone_border(b, rival) if style.siege else set()
    if style.siege_free:  # a zone square with a pawn home needs no wall: nobody walks in
        fixed = fixed_squares(state, b)
        border = {e for e in border if e[0] not in fixed}
    walls = []
    for i, action in enumerate(builds):
        wall = b.parse_wall(action.wall)
        assert wall is not None
        walls.append((-i, action, wall, b.wall_edges(wall)))
    across = [w for w in walls if any(e in theirs for e in w[3])]
    quiet = [w for w in walls if not any(e in theirs or e in mine for e in w[3])]
    if style.siege:  # every wall along the rival's zone is weighed too
        seen = {id(w) for w in across}
        across += [w for w in walls if id(w) not in seen and any(e in border for e in w[3])]
    open_ways = _open_pawns(state, b, mask, seat)
    rival_ways = _open_pawns(state, b, mask, rival) if style.seal else []
    out: list[tuple[float, int, Action]] = []
    for order, action, wall, edges in across + quiet[:2]:
        if _seals(state, b, [*state.walls, wall], seat, open_ways):
            continue
        after = wall_mask(b, [*state.walls, wall])
        m = race(state, b, after, seat, wc) if any(e in mine for e in edges) else base[0]
        t = race(state, b, after, rival, wc) if any(e in theirs for e in edges) else base[1]
        worth = (t - base[1]) - style.selfish * (m - base[0])
        worth += style.siege * sum(e in border for e in edges)
        if rival_ways and _seals(state, b, [*state.walls, wall], rival, rival_ways):
            worth += style.seal
        out.append((worth, order, action))
    if out:
        return max(out, key=lambda w: (w[0], w[1]))[2]
    return policy.best_wall(state, b, mask, seat, builds)


def _removal_worth(
    state: ZvvState,
    b: Board,
    seat: int,
    rival: int,
    wall: Wall,
    base: tuple[int, int],
    style: Style,
) -> float:
    after = wall_mask(b, [w for w in state.walls if w != wall])
    mine = race(state, b, after, seat, style.pm_wall)
    theirs = race(state, b, after, rival, style.pm_wall)
    if style.absolute:
        return (base[0] - mine) - (base[1] - theirs) + style.remove_bias
    # Each race's share cut: the same few steps count more for the seat nearer the end.
    share = (base[0] - mine) / max(base[0], 1) - (base[1] - theirs) / max(base[1], 1)
    return share + style.remove_bias / max(base[1], 1)


def _plusminus(
    state: ZvvState, b: Board, mask: list[int], seat: int, legal: list[Action], style: Style
) -> Action:
    """``policy._plusminus`` with the style's weights."""
    removes = [a for a in legal if isinstance(a, Remove)]
    roll = Roll() if Roll() in legal else legal[0]
    if not removes:
        return roll
    rival = leader(state, b, mask, seat)
    base = (race(state, b, mask, seat, style.pm_wall), race(state, b, mask, rival, style.pm_wall))
    parsed = []
    for action in removes:
        wall = b.parse_wall(action.wall)
        assert wall is not None
        parsed.append((action, wall))
    if style.keep_siege:
        parsed = _siege_kept(state, b, mask, seat, rival, parsed)
        if not parsed:
            return roll
    if style.free_own:
        shut = len(_open_pawns(state, b, mask, seat))
        opened = []
        for i, (action, wall) in enumerate(parsed):
            after = wall_mask(b, [w for w in state.walls if w != wall])
            gain = len(_open_pawns(state, b, after, seat)) - shut
            if gain > 0:
                worth = _removal_worth(state, b, seat, rival, wall, base, style)
                opened.append((gain, worth, -i, action))
        if opened:
            return max(opened, key=lambda o: o[:3])[3]
    best: tuple[float, int, Action] | None = None
    for i, (action, wall) in enumerate(parsed):
        worth = _removal_worth(state, b, seat, rival, wall, base, style)
        if best is None or (worth, -i) > best[:2]:
            best = (worth, -i, action)
    assert best is not None
    build = style.build_worth * _build_chance(state, b)
    if not style.absolute:
        build /= max(base[1], 1)
    if best[0] >= build and (best[0] > 0 or build == 0):
        return best[2]
    return roll


def _siege_kept(
    state: ZvvState,
    b: Board,
    mask: list[int],
    seat: int,
    rival: int,
    parsed: list[tuple[Remove, Wall]],
) -> list[tuple[Remove, Wall]]:
    """The walls ± may take away: not one along the rival's target zone, unless taking it away
    gives one of our pawns a wall-free way home."""
    border = zone_border(b, rival)
    shut = len(_open_pawns(state, b, mask, seat))
    kept = []
    for action, wall in parsed:
        if any(e in border for e in b.wall_edges(wall)):
            after = wall_mask(b, [w for w in state.walls if w != wall])
            if len(_open_pawns(state, b, after, seat)) <= shut:
                continue
        kept.append((action, wall))
    return kept


def game_won(style: Style, seed: int, shift: int) -> bool:
    """One seeded 2-player game, ``style`` in seat ``shift``, ``normal`` in the other (the
    bench's loop: ``play`` of ``bench/bench_bots.py`` puts the measured level in seat
    ``seed % 2``)."""
    game = get_game("zvv")

    def decide(state: ZvvState, seat: int, _rng: Rng) -> Action:
        if seat != shift:
            return choose(game, state, seat, "normal")
        return styled(state, seat, game.legal_actions(state, seat), style)

    return shift in seeded_game(game, 2, (), seed, 1.0, decide)


# One change at a time around the defaults (a name, the changes).
SCREEN: tuple[tuple[str, dict[str, Any]], ...] = (
    ("defaults", {}),
    ("move_wall 4", {"move_wall": 4}),
    ("move_wall 16", {"move_wall": 16}),
    ("depth 0", {"depth": 0.0}),
    ("arrive 3", {"arrive": 3.0}),
    ("laggard 0.1", {"laggard": 0.1}),
    ("laggard -0.1", {"laggard": -0.1}),
    ("build_wall 3", {"build_wall": 3}),
    ("build_wall 20", {"build_wall": 20}),
    ("selfish 0.5", {"selfish": 0.5}),
    ("selfish 2", {"selfish": 2.0}),
    ("siege 3", {"siege": 3.0}),
    ("pm_wall 20", {"pm_wall": 20}),
    ("build_worth 8", {"build_worth": 8.0}),
    ("build_worth 0", {"build_worth": 0.0}),
    ("absolute", {"absolute": True}),
    ("absolute, build_worth 8", {"absolute": True, "build_worth": 8.0}),
    ("remove_bias 4", {"remove_bias": 4.0}),
    ("free_own", {"free_own": True}),
    ("spread 1", {"spread": 1.0}),
    ("spread 2", {"spread": 2.0}),
    ("seal 20", {"seal": 20.0}),
    ("depth 1", {"depth": 1.0}),
    ("depth 3", {"depth": 3.0}),
    ("build_worth 20", {"build_worth": 20.0}),
    ("remove_bias -4", {"remove_bias": -4.0}),
    ("remove_bias -12", {"remove_bias": -12.0}),
    # Combined: the changes that won a few games more each.
    ("arrive 3, siege 3", {"arrive": 3.0, "siege": 3.0}),
    (
        "arrive 3, siege 3, build_worth 8, pm_wall 20, seal 20",
        {"arrive": 3.0, "siege": 3.0, "build_worth": 8.0, "pm_wall": 20, "seal": 20.0},
    ),
    # Around the pair.
    ("arrive 6, siege 3", {"arrive": 6.0, "siege": 3.0}),
    ("arrive 3, siege 6", {"arrive": 3.0, "siege": 6.0}),
    ("arrive 6, siege 6", {"arrive": 6.0, "siege": 6.0}),
    ("arrive 1.5, siege 1.5", {"arrive": 1.5, "siege": 1.5}),
)


# Around today's ``hard`` (its searched moves, the siege, ``normal``'s ±): one change at a
# time, on fresh seeds (the bench's 0–899 are held out).
HARD = {"searched": True, "siege": search.SIEGE}
AROUND_HARD: tuple[tuple[str, dict[str, Any]], ...] = (
    ("hard", HARD),
    ("hard, siege 2", {**HARD, "siege": 2.0}),
    ("hard, siege 4", {**HARD, "siege": 4.0}),
    ("hard, siege 6", {**HARD, "siege": 6.0}),
    ("hard, build_worth 4", {**HARD, "build_worth": 4.0}),
    ("hard, build_worth 8", {**HARD, "build_worth": 8.0}),
    ("hard, keep_siege", {**HARD, "keep_siege": True}),
    ("hard, seal 20", {**HARD, "seal": 20.0}),
    ("hard, selfish 0.5", {**HARD, "selfish": 0.5}),
    ("hard, siege_free", {**HARD, "siege_free": True}),
    ("hard, build_worth 1", {**HARD, "build_worth": 1.0}),
)
STYLES = dict(SCREEN) | dict(AROUND_HARD)


def _log(path: str, entry: dict[str, Any]) -> None:
    with open(path, "a") as f:
        f.write(json.dumps(entry) + "\n")


def screen(seeds: range, path: str, names: list[str]) -> None:
    """Each named style on ``seeds`` from both seats, one log line a style and seed."""
    for name in names:
        style = Style(**STYLES[name])
        for seed in seeds:
            t = time.process_time()
            each = "".join(str(int(game_won(style, seed, shift))) for shift in range(2))
            cpu = round(time.process_time() - t, 2)
            _log(path, {"name": name, "seed": seed, "games": each, "cpu": cpu})


def report(path: str, against: str) -> None:
    """Per style of a screen's log: games won of those played, the 95% interval, and the games
    (same seed, same seat) won only by it / only by ``against``, with a sign test."""
    games: dict[str, dict[tuple[int, int], bool]] = {}
    for line in open(path):
        entry = json.loads(line)
        for shift, won in enumerate(entry["games"]):
            games.setdefault(entry["name"], {})[(entry["seed"], shift)] = won == "1"
    ref = games.get(against, {})
    for name, played in games.items():
        won = sum(played.values())
        lo, hi = wilson(won, len(played))
        line = f"{name}: {won}/{len(played)} ({won / len(played):.1%}, {lo:.1%}-{hi:.1%})"
        both = [k for k in played if k in ref]
        if name != against and both:
            mine = sum(played[k] and not ref[k] for k in both)
            theirs = sum(ref[k] and not played[k] for k in both)
            line += f"; n={len(both)}: only it {mine} / only {against} {theirs}"
            line += f" (p = {sign_test(mine, theirs):.2f})"
        print(line)


def sign_test(a: int, b: int) -> float:
    """Two-sided sign test: the chance of a split at least this uneven of a + b fair coins."""
    n, k = a + b, min(a, b)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def bench(style: Style, seeds: range, path: str) -> None:
    """The bench's 2-player games, one log line a seed (the style's seat is ``seed % 2``)."""
    for seed in seeds:
        t = time.process_time()
        won = game_won(style, seed, seed % 2)
        _log(path, {"seed": seed, "won": won, "cpu": round(time.process_time() - t, 2)})


if __name__ == "__main__":
    if sys.argv[1] == "screen":
        first, last = int(sys.argv[2]), int(sys.argv[3])
        screen(range(first, last), sys.argv[4], sys.argv[5:] or [name for name, _ in SCREEN])
    elif sys.argv[1] == "report":
        report(sys.argv[2], sys.argv[3])
    else:
        style = Style(**json.loads(sys.argv[2]))
        bench(style, range(int(sys.argv[3]), int(sys.argv[4])), sys.argv[5])
