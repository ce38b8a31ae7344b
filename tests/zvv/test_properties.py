"""Properties over random positions and random legal games: reachability is exact, games end,
states round-trip, invariants hold, refused actions change nothing, defaults are legal."""

from __future__ import annotations

from functools import partial

import pytest

from rules.core import Action, Rng, RulesError
from rules.core.play import random_game
from rules.zvv import GAME
from rules.zvv.actions import Build, Move, Remove
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, Wall, board, reach
from rules.zvv.notation import position
from rules.zvv.state import ZvvState, occupied, target_zone
from tests.support import checked_play


def brute_reach(
    size: int,
    pawns: set[tuple[int, int]],
    walls: list[Wall],
    start: tuple[int, int],
    steps: int,
    target: set[tuple[int, int]],
) -> set[tuple[int, int]]:
    """Every end square of every walk of up to ``steps`` steps, by plain enumeration (the
    rulebook's words, with coordinates; independent of the engine's tables)."""
    blocked: set[frozenset[tuple[int, int]]] = set()
    for orient, line, first, length in walls:
        for k in range(first, first + length):
            if orient == "h":
                blocked.add(frozenset({(line - 1, k), (line, k)}))
            else:
                blocked.add(frozenset({(k, line - 1), (k, line)}))
    others = pawns - {start}

    def free(sq: tuple[int, int]) -> bool:
        return 0 <= sq[0] < size and 0 <= sq[1] < size and sq not in others

    out: set[tuple[int, int]] = set()

    def walk(sq: tuple[int, int], left: int) -> None:
        if left == 0:
            return
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            one = (sq[0] + dr, sq[1] + dc)
            if not (0 <= one[0] < size and 0 <= one[1] < size):
                continue
            if frozenset({sq, one}) in blocked:
                continue
            land = one
            if one in others:  # jump
                land = (one[0] + dr, one[1] + dc)
                if not free(land) or frozenset({one, land}) in blocked:
                    continue
            if sq in target and land not in target:
                continue  # once in the target zone, never out (D8)
            if land != start:
                out.add(land)
            walk(land, left - 1)

    walk(start, steps)
    return out


def random_position(rng: Rng, size: int) -> ZvvState:
    b = board(size)
    state = position(size=size, seats=2 + rng.below(3), face="6")
    squares = list(range(size * size))
    rng.shuffle(squares)
    taken = 0
    for seat in range(state.seats):
        target = target_zone(state, seat)
        mine: list[int] = []
        while len(mine) < 9:
            sq = squares[taken]
            taken += 1
            # Some pawns home, most on the way.
            if sq not in target or rng.below(3) == 0:
                mine.append(sq)
        state.pawns[seat] = mine
    candidates = b.all_walls(1) + b.all_walls(2) + b.all_walls(3)
    for _ in range(rng.below(25)):
        wall = rng.choice(candidates)
        edges = b.wall_edges(wall)
        if any(state.wallmask[sq] >> side & 1 for sq, side in edges):
            continue
        if any(p in state.points for p in b.wall_points(wall)):
            continue
        state.walls.append(wall)
        for sq, side in edges:
            state.wallmask[sq] |= 1 << side
        state.points.update(b.wall_points(wall))
    return state


@pytest.mark.parametrize("seed", range(12))
def test_reachability_is_exact(seed: int) -> None:
    rng = Rng(seed)
    size = (9, 11, 13, 15)[seed % 4]
    b = board(size)
    state = random_position(rng, size)
    occ = occupied(state)
    all_pawns = {b.rc(sq) for p in state.pawns for sq in p}
    for seat in range(state.seats):
        target = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])
        for sq in state.pawns[seat][:4]:
            for steps in (1, 2, 4, 6):
                fast = reach(b, occ, state.wallmask, sq, steps, target)
                slow = brute_reach(
                    size, all_pawns, state.walls, b.rc(sq), steps, {b.rc(t) for t in target}
                )
                assert {b.rc(s) for s in fast} == slow, (seed, b.names[sq], steps)


def check_invariants(state: ZvvState) -> None:
    b = board(state.size)
    squares = [sq for p in state.pawns for sq in p]
    assert len(squares) == len(set(squares)) == 9 * state.seats, "one pawn per square"
    for wall_len in (1, 2, 3):
        on_board = sum(1 for w in state.walls if w[3] == wall_len)
        assert on_board + state.supply[wall_len - 1] == state.options["walls"]
    edges = [e for w in state.walls for e in b.wall_edges(w)]
    assert len(edges) == len(set(edges)), "walls never overlap"
    points = [p for w in state.walls for p in b.wall_points(w)]
    assert len(points) == len(set(points)), "walls never cross"
    assert not any(b.in_zone(w) for w in state.walls), "no wall inside a zone"


def one_at_a_time(state: ZvvState) -> None:
    """(The walls' and pawns' invariants cost more: at the checked steps, and at the end.)"""
    if GAME.is_over(state):
        check_invariants(state)
    else:
        assert len(GAME.pending(state)) == 1, "one player moves at a time"


def checked(state: ZvvState, seat: int) -> None:
    check_invariants(state)
    assert GAME.dump(GAME.copy(state)) == GAME.dump(state)
    assert GAME.legal_actions(state, (seat + 1) % state.seats) == []


def wrong(state: ZvvState, seat: int, legal: list[Action], now: float) -> list[Action]:
    return [a for a in (Move("A1", "K11"), Build("B2 N"), Remove("F6 N")) if a not in legal]


def home_pawns_stay(before: ZvvState, after: ZvvState, seat: int, _: object) -> None:
    for s in range(after.seats):
        home = set(before.pawns[s]) & target_zone(before, s)
        assert home <= set(after.pawns[s]) & target_zone(after, s), "home pawns never move"


play_checked = partial(
    checked_play.play_checked,
    GAME,
    invariants=one_at_a_time,
    checked=checked,
    wrong=wrong,
    step=home_pawns_stay,
    max_steps=20_000,
)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_end_with_invariants(seats: int) -> None:
    state = play_checked(seats, seats)
    result = GAME.result(state)
    assert result is not None and result.winners


def test_random_games_on_small_and_big_boards_with_options() -> None:
    play_checked(2, 5, {"size": 9, "walls": 2, "extra_roll": "reroll", "round_limit": 40})
    play_checked(4, 6, {"size": 15, "two_star": "plain", "extra_roll": "bonus", "round_limit": 30})


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_platform_random_player_ends_games(seats: int) -> None:
    final, steps, events = random_game(GAME, seats, seed=10 + seats)
    again, steps2, _ = random_game(GAME, seats, seed=10 + seats)
    assert GAME.dump(final) == GAME.dump(again) and steps == steps2, "replays identically"
    assert GAME.is_over(final) and events


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_absent_players_still_finish_the_race(seats: int) -> None:
    """Everyone AFK: the defaults (greedy moves) take a game to a real finish."""
    for seed in range(2):
        state = GAME.new_game(seats, {}, seed)
        while not GAME.is_over(state):
            ((seat, pending),) = GAME.pending(state).items()
            state, _ = GAME.apply(state, seat, pending.default)
        assert state.ended_by == "win", (seats, seed, state.ended_by)
        assert state.turns < 400


def oracle_refusal(size: int, walls: list[Wall], new: Wall) -> str | None:
    """Why ``new`` may not be built, by plain geometry on grid points (y, x): ``None`` if it
    may. Independent of the engine's tables."""
    zone_of = {}
    for r0 in (0, size - 3):
        for c0 in (0, size - 3):
            for dr in range(3):
                for dc in range(3):
                    zone_of[(r0 + dr, c0 + dc)] = (r0, c0)

    def ends(w: Wall) -> tuple[tuple[int, int], tuple[int, int]]:
        orient, line, start, length = w
        if orient == "h":
            return (line, start), (line, start + length)
        return (start, line), (start + length, line)

    orient, line, start, length = new
    for k in range(start, start + length):
        a, b = ((line - 1, k), (line, k)) if orient == "h" else ((k, line - 1), (k, line))
        if a in zone_of and zone_of.get(a) == zone_of.get(b):
            return "wall_in_zone"
    (ay, ax), (by, bx) = ends(new)
    found: set[str] = set()
    for old in walls:
        (cy, cx), (dy, dx) = ends(old)
        if old[0] == orient:
            if orient == "h" and ay == cy and min(bx, dx) - max(ax, cx) > 0:
                found.add("wall_overlap")
            if orient == "v" and ax == cx and min(by, dy) - max(ay, cy) > 0:
                found.add("wall_overlap")
        else:
            h, v = (((ay, ax), (by, bx)), ((cy, cx), (dy, dx)))
            if orient == "v":
                h, v = v, h
            y, x = h[0][0], v[0][1]  # where the two lines meet
            if h[0][1] < x < h[1][1] and v[0][0] < y < v[1][0]:
                found.add("wall_cross")
    # The engine names an overlap before a crossing when a wall does both.
    for reason in ("wall_overlap", "wall_cross"):
        if reason in found:
            return reason
    return None


@pytest.mark.parametrize("seed", range(6))
def test_wall_legality_matches_plain_geometry(seed: int) -> None:
    rng = Rng(100 + seed)
    size = (9, 11, 13, 15)[seed % 4]
    b = board(size)
    state = position(size=size, options={"walls": 30})
    for _ in range(60):
        length = 1 + rng.below(3)
        orient = rng.choice(["h", "v"])
        wall: Wall = (orient, 1 + rng.below(size - 1), rng.below(size - length + 1), length)
        state.face, state.phase, state.wall_len = "build", "build", length
        expected = oracle_refusal(size, list(state.walls), wall)
        try:
            state, _ = GAME.apply(state, state.turn, Build(b.wall_name(wall)))
            got = None
        except RulesError as err:
            got = err.key.rsplit(".", 1)[1]
        assert got == expected, (b.wall_name(wall), [b.wall_name(w) for w in state.walls])
    assert state.walls, "some walls were built"
