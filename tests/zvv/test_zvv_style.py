"""The tuning bench of Zombies vs Vampires' ``hard`` (``bench/zvv_style.py``): a style with
its defaults plays as ``normal``, each number moves the choice it names, and a style's games
against ``normal`` are the same from the same seed, so that it cannot rot."""

from __future__ import annotations

import pytest

from bench.bench_bots import seeded_game
from bench.zvv_style import Style, game_won, styled
from rules.core import Action, Rng
from rules.core.policy import choose
from rules.zvv import GAME
from rules.zvv.actions import Build, Remove, Roll
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, board
from rules.zvv.notation import position
from rules.zvv.search import SIEGE
from rules.zvv.state import ZvvState


def test_the_default_style_is_normal_in_every_decision_of_a_game() -> None:
    differ: list[tuple[int, Action, Action]] = []

    def decide(state: ZvvState, seat: int, _rng: Rng) -> Action:
        first = choose(GAME, state, seat, "normal")
        mine = styled(state, seat, GAME.legal_actions(state, seat), Style())
        if mine != first:
            differ.append((state.turns, first, mine))
        return first

    seeded_game(GAME, 2, (), 3, 1.0, decide)
    assert differ == []


@pytest.mark.parametrize("seed", [3, 11])
def test_searched_moves_with_the_siege_are_hard_in_every_decision_of_a_game(seed: int) -> None:
    # The screen around hard starts from hard itself: its searched moves, normal's wall with
    # the siege, normal's ±. Both seats play hard; each choice is checked against the style.
    style = Style(searched=True, siege=SIEGE)
    differ: list[tuple[int, Action, Action]] = []

    def decide(state: ZvvState, seat: int, _rng: Rng) -> Action:
        first = choose(GAME, state, seat, "hard")
        mine = styled(state, seat, GAME.legal_actions(state, seat), style)
        if mine != first:
            differ.append((state.turns, first, mine))
        return first

    seeded_game(GAME, 2, (), seed, 1.0, decide)
    assert differ == []


def test_a_bias_towards_removing_takes_away_a_wall_in_nobodys_way() -> None:
    # A wall on the edge of the board costs nobody a step: normal rolls to build (a wall is
    # worth ~2 steps of the rival's race); a style leaning 4 steps towards removing takes it.
    state = position(pawns={0: ["E5"], 1: ["G7"]}, walls=["A5 N"], face="plusminus")
    [wall] = state.walls
    legal = GAME.legal_actions(state, 0)
    assert styled(state, 0, legal, Style()) == Roll()
    taken = Remove(board(state.size).wall_name(wall))
    assert styled(state, 0, legal, Style(remove_bias=4.0)) == taken


def test_a_siege_builds_along_the_rivals_zone() -> None:
    # A 3-long wall to build: a style paying for every edge along the zone the rival races to
    # builds one there.
    state = position(face="build", wall_len=3)
    b = board(state.size)
    zone = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[1]])
    action = styled(state, 0, GAME.legal_actions(state, 0), Style(siege=20.0))
    assert isinstance(action, Build)
    wall = b.parse_wall(action.wall)
    assert wall is not None
    assert all((sq in zone) != (b.neighbour[d][sq] in zone) for sq, d in b.wall_edges(wall))


def test_a_style_keeping_its_siege_leaves_the_wall_along_the_rivals_zone() -> None:
    # The zombies' A3, B3, C3 and C1 are still in the vampires' target zone, fenced on the
    # south (A4, B4, C4 N) and partly on the east (D2-D3 W); C1 can still walk out by D1, so
    # nobody is shut in. normal takes A4 N away (A3's way out is shorter); a style keeping its
    # siege rolls instead: every vampire must come in past that wall at the end.
    state = position(
        pawns={0: ["A3", "B3", "C3", "C1"], 1: ["G7", "H6", "G5"]},
        walls=["A4 N", "B4 N", "C4 N", "D2-D3 W"],
        face="plusminus",
    )
    legal = GAME.legal_actions(state, 0)
    assert styled(state, 0, legal, Style()) == Remove("A4 N")
    assert styled(state, 0, legal, Style(keep_siege=True)) == Roll()


def test_a_game_is_the_same_from_the_same_seed() -> None:
    style = Style(arrive=3.0)
    assert [game_won(style, 7, seat) for seat in (0, 1)] == [
        game_won(style, 7, seat) for seat in (0, 1)
    ]
