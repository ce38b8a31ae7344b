"""Zombies vs Vampires' computer player: always legal, reproducible, races and walls well."""

from __future__ import annotations

import pytest

from rules.core.policy import choose, play_bots
from rules.zvv import GAME
from rules.zvv.actions import Build, Move, Remove
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, Wall, board
from rules.zvv.notation import position
from rules.zvv.policy import race, wall_mask
from rules.zvv.state import ZvvState
from tests.support.fingerprint import option_sets

# Seat 0 races to the bottom-right zone (I9…K11), seat 1 to the top-left one (A1…C3).
ZONE_0_BUT_I9 = ["J9", "K9", "I10", "J10", "K10", "I11", "J11", "K11"]
ZONE_1_BUT_C3 = ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3"]


@pytest.mark.parametrize("options", list(option_sets(GAME)), ids=str)
def test_every_choice_is_legal_in_every_option(options: dict[str, object]) -> None:
    # No random seat: random play rarely finishes the race (with no round limit, never).
    levels = ("normal", "easy", "normal") if options.get("size") == 9 else ("normal", "easy")
    state, _ = play_bots(GAME, levels, 3, options, strict=True)
    assert GAME.is_over(state)


def test_every_choice_is_legal_against_random_play() -> None:
    state, _ = play_bots(GAME, ("random", "normal"), 1, {"size": 9}, strict=True)
    assert GAME.result(state) is not None


def test_the_same_position_gives_the_same_choice() -> None:
    state = GAME.new_game(2, {}, 8)
    for _ in range(80):
        seat = state.turn
        first = choose(GAME, state, seat, "easy")
        assert choose(GAME, GAME.load(GAME.dump(state)), seat, "easy") == first
        assert choose(GAME, state, seat, "normal") == choose(GAME, state, seat, "normal")
        state, _ = GAME.apply(state, seat, first)


def test_a_pawn_takes_the_shortest_way_home() -> None:
    # The last pawn stands two steps from the one free square of its zone: with a 2 it arrives.
    state = position(pawns={0: [*ZONE_0_BUT_I9, "G9"], 1: [*ZONE_1_BUT_C3, "F5"]}, face="2")
    assert choose(GAME, state, 0, "normal") == Move("G9", "I9")


def test_a_pawn_walks_round_a_wall_rather_than_into_it() -> None:
    # A wall along the east sides of H9…H11 shuts the zone's west edge: the way in is from the
    # north, by I8. With a 2 from G9 the pawn cannot arrive; H8 (two steps from home, round the
    # wall) beats H10, which looks nearer to the corner but is four steps away.
    state = position(
        pawns={0: [*ZONE_0_BUT_I9, "G9"], 1: [*ZONE_1_BUT_C3, "F5"]},
        walls=["H9-H11 E"],
        face="2",
    )
    assert choose(GAME, state, 0, "normal") == Move("G9", "H8")
    # With a 4 it goes round and arrives.
    state = position(
        pawns={0: [*ZONE_0_BUT_I9, "G9"], 1: [*ZONE_1_BUT_C3, "F5"]},
        walls=["H9-H11 E"],
        face="4",
    )
    assert choose(GAME, state, 0, "normal") == Move("G9", "I9")


def test_a_wall_goes_across_the_leaders_way() -> None:
    # The opponent's last pawn is three steps from home; a wall of 3 must lengthen its walk
    # and not ours.
    state = position(
        pawns={0: [*ZONE_0_BUT_I9, "B9"], 1: [*ZONE_1_BUT_C3, "F3"]},
        face="build",
        wall_len=3,
    )
    action = choose(GAME, state, 0, "normal")
    assert isinstance(action, Build)
    b = board(state.size)
    wall = b.parse_wall(action.wall)
    assert wall is not None
    before, after = wall_mask(b, state.walls), wall_mask(b, [*state.walls, wall])
    assert race(state, b, after, 1) > race(state, b, before, 1)
    assert race(state, b, after, 0) <= race(state, b, before, 0)


def _worth(state: ZvvState, seat: int, rival: int, wall_name: str) -> int:
    """Steps a wall adds to the rival's race minus the steps it adds to the seat's own."""
    b = board(state.size)
    wall = b.parse_wall(wall_name)
    assert wall is not None
    before, after = wall_mask(b, state.walls), wall_mask(b, [*state.walls, wall])
    mine = race(state, b, after, seat) - race(state, b, before, seat)
    return race(state, b, after, rival) - race(state, b, before, rival) - mine


def test_the_wall_built_is_the_best_of_every_legal_wall_not_a_rough_guess() -> None:
    # Seat 1 builds a wall of 3 with the leader's pawns gathering near I9...K11. A rough estimate
    # built H7-J7 N (+7 steps against seat 0); every wall across seat 0's ways is weighed.
    state = position(
        pawns={
            0: ["H6", "H9", "J5", "K8", "D5", "J9", "H5", "F5", "I9"],
            1: ["D3", "D1", "B3", "F6", "F8", "I8", "E6", "F4", "K11"],
        },
        walls=["D2 N", "G3 N", "A4 N", "E2-G2 N", "K6 N", "E6-G6 N", "F9-H9 N"],
        turn=1,
        face="build",
        wall_len=3,
    )
    action = choose(GAME, state, 1, "normal")
    assert isinstance(action, Build)
    legal = [a.wall for a in GAME.legal_actions(state, 1) if isinstance(a, Build)]
    best = max(_worth(state, 1, 0, name) for name in legal)
    assert _worth(state, 1, 0, action.wall) == best
    assert best > _worth(state, 1, 0, "H7-J7 N")


def test_a_wall_never_shuts_its_own_zone_to_all_its_pawns() -> None:
    # Seat 1 races to the bottom-right zone; K4 N would leave none of its pawns a way into the
    # zone except through a wall (only a ± could open it again): the autopilot once walled its
    # own player's far corner like that, "sin salida".
    state = position(
        pawns={
            0: ["G7", "I1", "G2", "B4", "J2", "C5", "E2", "B3", "C3"],
            1: ["E6", "D3", "K6", "F4", "K8", "D6", "I11", "F7", "F8"],
        },
        walls=[
            "D2 N",
            "D3-D4 W",
            "J4 N",
            "C4 N",
            "D3 N",
            "E3-F3 N",
            "G4-I4 N",
            "D5-D7 W",
            "A6-C6 N",
            "G3-G4 W",
        ],
        turn=1,
        face="build",
        wall_len=1,
    )
    state.supply = [4, 5, 5]
    b = board(state.size)
    home = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[1]])

    def open_ways(walls: list[Wall]) -> list[str]:
        """Seat 1's pawns away that reach a square of the zone without crossing a wall."""
        mask = wall_mask(b, walls)
        reached, frontier = set(home), list(home)
        while frontier:
            sq = frontier.pop()
            for d in range(4):
                n = b.neighbour[d][sq]
                if n >= 0 and not mask[sq] >> d & 1 and n not in reached:
                    reached.add(n)
                    frontier.append(n)
        return [b.name(sq) for sq in state.pawns[1] if sq not in home and sq in reached]

    k4 = b.parse_wall("K4 N")
    assert k4 is not None and open_ways(state.walls) and not open_ways([*state.walls, k4])
    action = choose(GAME, state, 1, "normal")
    assert isinstance(action, Build)
    wall = b.parse_wall(action.wall)
    assert wall is not None
    assert open_ways([*state.walls, wall])


# A table left to the computer (every seat absent, or computer players only).


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_a_table_of_computer_players_finishes_well_within_the_round_limit(
    seats: int, seed: int
) -> None:
    # The walls run out (24 of them) long before the race is won: from then on a table only
    # moves on if the players take walls away on ±. It must end with a winner, not at round 200.
    state, _ = play_bots(GAME, ("normal",) * seats, seed, strict=True)
    assert state.ended_by == "win"
    assert state.turns // seats <= 120


def test_on_plus_minus_a_pawn_shut_out_of_its_zone_takes_a_wall_away() -> None:
    # Seat 0's last pawn stands on G9; walls along the west and north edges of its zone
    # (H9-H11 E, I8-K8 S) shut the free square I9 off. Rolling to build would only add a wall:
    # it removes one of the two.
    state = position(
        pawns={
            0: [*ZONE_0_BUT_I9, "G9"],
            1: ["C3", "D3", "E3", "C4", "D4", "E4", "C5", "D5", "E5"],
        },
        walls=["H9-H11 E", "I8-K8 S"],
        face="plusminus",
    )
    b = board(state.size)
    shutting = [b.wall_name(w) for w in state.walls]
    assert choose(GAME, state, 0, "normal") in [Remove(name) for name in shutting]


def test_with_the_supply_spent_plus_minus_takes_a_wall_back_rather_than_pass() -> None:
    # Every wall is on the board: the wall die can only end in "no walls of that length are
    # left", a pass. A wall in nobody's way goes back to the supply instead.
    state = position(
        pawns={0: ["E5"], 1: ["G7"]},
        walls=["A5 N"],
        face="plusminus",
    )
    state.supply = [0, 0, 0]
    [wall] = state.walls
    assert choose(GAME, state, 0, "normal") == Remove(board(state.size).wall_name(wall))
