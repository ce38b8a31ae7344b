"""Zombies vs Vampires' ``hard`` computer player: legal, reproducible, and a step ahead."""

from __future__ import annotations

import pytest

from rules.core.policy import choose, play_bots
from rules.zvv import GAME
from rules.zvv.actions import Build, Move
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, board, reach
from rules.zvv.notation import position
from rules.zvv.policy import leader, race, wall_mask, zone_border
from rules.zvv.state import ZvvState

ZONE_0_BUT_TWO = ["I9", "J9", "K9", "I10", "J10", "K10", "I11"]
ZONE_1_BUT_C3 = ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3"]
HOME_0_BUT_TWO = ["J9", "K9", "J10", "K10", "I11", "J11", "K11"]  # I9 and I10 free
FAR_RIVAL = ["F1", "G1", "H1", "I1", "J1", "K1", "F2", "G2", "H2"]  # nowhere near seat 0


# Small boards: a game of hard's searches on the full board takes seconds.
@pytest.mark.parametrize(
    "options", [{"size": 9}, {"size": 9, "two_star": "plain", "extra_roll": "bonus"}], ids=str
)
def test_every_choice_is_legal(options: dict[str, object]) -> None:
    state, _ = play_bots(GAME, ("hard", "normal"), 2, options, strict=True)
    assert GAME.is_over(state)


def test_the_same_position_gives_the_same_choice() -> None:
    state = GAME.new_game(2, {}, 5)
    for _ in range(24):
        seat = state.turn
        first = choose(GAME, state, seat, "hard")
        assert choose(GAME, GAME.load(GAME.dump(state)), seat, "hard") == first
        state, _ = GAME.apply(state, seat, first)


def test_the_next_rolls_change_nothing() -> None:
    # The state's generator decides the next rolls; hard weighs every face of the die as
    # equally likely and never reads it: a different generator, the same choices.
    state = GAME.new_game(2, {"size": 9}, 6)
    for _ in range(16):
        seat = state.turn
        other = GAME.copy(state)
        other.rng = state.rng ^ 0x5EED
        chosen = choose(GAME, state, seat, "hard")
        assert choose(GAME, other, seat, "hard") == chosen
        state, _ = GAME.apply(state, seat, chosen)


def test_a_pawn_is_not_parked_where_the_rival_jumps_over_it() -> None:
    # Seat 0 rolled a 2. C5 to E5 cuts its race by two, as much as any move, and is what normal
    # plays; but E5 lies right in front of the rival's last pawn (F5, walking west home to C3),
    # which then jumps over it: its next 2 reaches C5 instead of D5. Hard looks one roll ahead
    # for both and walks C5 another way.
    state = position(pawns={0: [*ZONE_0_BUT_TWO, "C5", "F8"], 1: [*ZONE_1_BUT_C3, "F5"]}, face="2")
    assert choose(GAME, state, 0, "normal") == Move("C5", "E5")
    chosen = choose(GAME, state, 0, "hard")
    assert isinstance(chosen, Move) and chosen.to != "E5"
    b = board(state.size)
    mask = wall_mask(b, state.walls)
    mine, _ = GAME.apply(state, 0, chosen)
    normals, _ = GAME.apply(state, 0, Move("C5", "E5"))
    assert race(mine, b, mask, 0) == race(normals, b, mask, 0)  # the same cut now
    assert "C5" in _rival_reach(normals, "F5", 2) and "C5" not in _rival_reach(mine, "F5", 2)


def _rival_reach(state: ZvvState, pawn: str, steps: int) -> set[str]:
    """Where seat 1's pawn can go with ``steps`` steps (jumps over pawns included)."""
    b = board(state.size)
    occupied = bytearray(b.size * b.size)
    for seat, pawns in enumerate(state.pawns):
        for sq in pawns:
            occupied[sq] = seat + 1
    start = b.square(pawn)
    assert start is not None
    home = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[1]])
    return {b.name(sq) for sq in reach(b, occupied, wall_mask(b, state.walls), start, steps, home)}


def test_a_wall_goes_across_the_leaders_way() -> None:
    state = position(
        pawns={0: [*ZONE_0_BUT_TWO, "J11", "B9"], 1: [*ZONE_1_BUT_C3, "F3"]},
        face="build",
        wall_len=3,
    )
    action = choose(GAME, state, 0, "hard")
    assert isinstance(action, Build)
    b = board(state.size)
    wall = b.parse_wall(action.wall)
    assert wall is not None
    before, after = wall_mask(b, state.walls), wall_mask(b, [*state.walls, wall])
    assert race(state, b, after, 1) > race(state, b, before, 1)
    assert race(state, b, after, 0) <= race(state, b, before, 0)


def test_with_two_players_a_wall_goes_along_the_rivals_zone() -> None:
    # The vampires' pawns on E5 and F6 head for their zone in the top-left corner. With a
    # 3-long wall, normal walls C4-E4 (across E5's way); hard walls the zone's whole side,
    # A4-C4, where every vampire must pass at the end, whatever ways they take until then.
    state = position(pawns={0: ["H8"], 1: ["E5", "F6"]}, face="build", wall_len=3)
    assert choose(GAME, state, 0, "normal") == Build("C4-E4 N")
    assert choose(GAME, state, 0, "hard") == Build("A4-C4 N")
    b = board(state.size)
    wall = b.parse_wall("A4-C4 N")
    assert wall is not None
    assert sum(edge in zone_border(b, 1) for edge in b.wall_edges(wall)) == 3, "all along it"


def test_with_three_players_the_walls_searched_include_the_leaders_zone() -> None:
    # The opening of a three-player game: green (seat 2, top right, racing to the bottom-left
    # zone A9-C11) has a pawn out on H2 and leads; seat 0 builds a 3-long wall. No wall
    # lengthens anyone's race yet (a wall on the open board is walked round). normal, and hard
    # before, built D2-F2 N, in front of green's start, where its pawns walk round it; hard now
    # searches the walls along the leader's zone too and builds its top side, A9-C9 N, where
    # green's pawns must pass at the end, whatever ways they take until then.
    green = ["I1", "H2", "K1", "I2", "J2", "K2", "I3", "J3", "K3"]
    state = position(seats=3, pawns={2: green}, face="build", wall_len=3)
    b = board(state.size)
    assert leader(state, b, wall_mask(b, state.walls), 0) == 2
    assert choose(GAME, state, 0, "normal") == Build("D2-F2 N")
    assert choose(GAME, state, 0, "hard") == Build("A9-C9 N")
    wall = b.parse_wall("A9-C9 N")
    assert wall is not None
    assert sum(edge in zone_border(b, 2) for edge in b.wall_edges(wall)) == 3, "all along it"


def test_the_last_two_pawns_are_left_so_that_every_roll_counts() -> None:
    # Seat 0 has two pawns left, C10 (six steps from I10) and C6 (nine from I9), and rolled a 4.
    # Both C10-G10 and C6-D9 cut four steps, and one roll ahead they look alike; normal (and hard
    # before it looked two rolls ahead) took C10-G10, leaving pawns 2 and 9 steps away. Then a
    # roll is spent on the near pawn whatever it shows, while 6 and 5 steps away each big roll
    # finds a pawn to use it on. Counted exactly (every roll of the die, the best moves after it,
    # this board): 3.67 move rolls to finish from C10 and D9, against 3.84 from G10 and C6. Of
    # 23 such two-pawn positions where the two measures chose differently, the exact count sided
    # with the two-roll one in 18.
    state = position(
        pawns={0: ["C10", "C6", *HOME_0_BUT_TWO], 1: FAR_RIVAL},
        face="4",
    )
    assert choose(GAME, state, 0, "normal") == Move("C10", "G10")
    assert choose(GAME, state, 0, "hard") == Move("C6", "D9")
