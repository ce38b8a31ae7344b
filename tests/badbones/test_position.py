"""The position notation round-trips and builds games whose 180 tokens are all somewhere."""

from __future__ import annotations

from collections import Counter

from rules.badbones import GAME
from rules.badbones.position import board_from_text, board_to_text, game_from_text
from rules.core.play import random_game
from tests.badbones.helpers import token_counts


def test_notation_round_trips_for_random_boards() -> None:
    for seed in range(20):
        state, _, _ = random_game(GAME, 3, seed)
        for board in state.boards:
            text = board_to_text(board)
            again = board_from_text(text)
            assert board_to_text(again) == text
            assert Counter(again.skeletons) == Counter(board.skeletons)
            assert again.traps == board.traps and sorted(again.supply) == sorted(board.supply)


def test_game_from_text_keeps_every_token() -> None:
    state = game_from_text("C2 S*3\nforest red.top\ncemetery blue.left", "B1 green.right:W!")
    token_counts(state)
    assert sum(state.bag) == 180 - 6
    assert state.boards[1].skeletons[0].rested, "'!' marks a skeleton that already moved"


def test_notation_round_trips_with_every_option() -> None:
    for options in (
        {"advanced": True, "chiefs": True},
        {"advanced": True, "cooperative": True, "chiefs": True},
    ):
        coop = bool(options.get("cooperative"))
        for seed in range(10):
            state, _, _ = random_game(GAME, 3, seed, options)
            for board in state.boards:
                text = board_to_text(board)
                again = board_from_text(text, coop=coop)
                assert board_to_text(again) == text
                assert again.traps == board.traps and again.weapon == board.weapon
                assert sorted(again.ruins) == sorted(board.ruins)
                assert again.floors == board.floors and again.hero == board.hero
