"""Dragon Farkle's computer player: always legal, reproducible, and banks or rolls by the odds."""

from __future__ import annotations

import pytest

from rules.core.policy import choose, play_bots
from rules.farkle import GAME
from rules.farkle.actions import Roll, Stop
from rules.farkle.policy import odds, roll_gain
from rules.farkle.state import Roller
from tests.farkle.support import new
from tests.support.fingerprint import option_sets


@pytest.mark.parametrize("options", list(option_sets(GAME)), ids=str)
def test_every_choice_is_legal_in_every_option(options: dict[str, object]) -> None:
    for seed, levels in enumerate([("normal", "easy"), ("easy", "random", "normal")]):
        state, _ = play_bots(GAME, levels, seed, options, strict=True)
        assert GAME.is_over(state)


def test_the_same_position_gives_the_same_choice() -> None:
    state = GAME.new_game(3, {}, 5)
    for _ in range(60):
        if GAME.is_over(state):
            break
        seat = next(iter(GAME.pending(state)))
        first = choose(GAME, state, seat, "easy")
        assert choose(GAME, GAME.load(GAME.dump(state)), seat, "easy") == first
        assert choose(GAME, state, seat, "normal") == choose(GAME, state, seat, "normal")
        state, _ = GAME.apply(state, seat, first)


def test_farkle_odds_match_the_soldier_table() -> None:
    # One die scores only as a 1 or a 5; six dice Farkle 2.3% of the time.
    assert odds(1, True) == (pytest.approx(4 / 6), pytest.approx(75))
    assert odds(6, True)[0] == pytest.approx(0.0231, abs=0.0005)


def _rolling(score: int, aside: list[int]) -> object:
    """A Recruit between two rolls: ``aside`` set aside so far, ``score`` soldiers at stake."""
    state = new(seats=2, turn=0)
    state.action = "recruit"
    state.stage = "next"
    state.attack = Roller(0, 6, roll=[aside[-1]], event="blank", kept=1, aside=aside, score=score)
    return state


def test_banks_a_big_turn_when_one_die_is_left() -> None:
    # 1,500 at stake and one die to roll: two Farkles in three, so stopping is right.
    state = _rolling(1500, [1, 1, 1, 5, 5])
    assert roll_gain(1500, 1, True) < 0
    assert choose(GAME, state, 0, "normal") == Stop()


def test_rolls_on_with_hot_dice() -> None:
    # All six dice set aside: six fresh dice almost never Farkle, so roll them.
    state = _rolling(1100, [1, 1, 1, 5, 5, 5])
    assert choose(GAME, state, 0, "normal") == Roll()


def test_a_small_score_with_three_dice_rolls_on() -> None:
    state = _rolling(150, [1, 5, 5])
    assert choose(GAME, state, 0, "normal") == Roll()
