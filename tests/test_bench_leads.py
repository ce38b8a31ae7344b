"""``python -m bench.leads``: who counts as ahead in each game, read the way ``normal`` reads
it (the bench's figures are only as good as that)."""

from __future__ import annotations

import pytest

from bench import leads
from rules import get_game
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, board


def test_in_dragon_farkle_a_wannabe_inside_the_keep_is_ahead_of_any_army_outside() -> None:
    state = get_game("farkle").new_game(3, {}, 1)
    state.players[0].army = 4_950
    state.players[1].army, state.players[1].in_keep = 0, True
    state.players[2].army = 1_000
    assert leads.leader(leads.farkle_ahead(state)) == 1
    state.players[1].in_keep = False
    assert leads.leader(leads.farkle_ahead(state)) == 0


def test_in_zombies_vs_vampires_the_shorter_race_is_ahead() -> None:
    state = get_game("zvv").new_game(2, {}, 1)
    assert leads.leader(leads.zvv_ahead(state)) == 0, "a tie goes to the first seat"
    b = board(state.size)
    corner = OPPOSITE_CORNER[START_CORNERS[1]]
    zones = set().union(*(b.zone_squares(c) for c in START_CORNERS))
    free = [sq for sq in range(b.size * b.size) if sq not in zones]
    # The vampires' nine pawns on the free squares nearest their zone: a short race.
    state.pawns[1] = sorted(free, key=lambda sq: b.distance_to_corner(sq, corner))[:9]
    assert leads.leader(leads.zvv_ahead(state)) == 1


def test_the_command_line_takes_a_game_seats_games_and_the_first_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = leads.parse(["zvv", "--seats", "3", "--games", "10", "--first", "1000"])
    assert (args.game, args.seats, args.games, args.first) == ("zvv", 3, 10, 1000)
    with pytest.raises(SystemExit) as stopped:
        leads.parse(["chess"])
    assert stopped.value.code == 2
    capsys.readouterr()
