"""Dragon Farkle's computer player: always legal, reproducible, and banks or rolls by the odds."""

from __future__ import annotations

import pytest

from rules.core.policy import choose, play_bots
from rules.farkle import GAME
from rules.farkle.actions import Keep, Roll, Stop
from rules.farkle.policy import odds, roll_gain, win_chance
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
        # hard's search draws its dice from the position alone: a reloaded copy decides alike
        hard = choose(GAME, state, seat, "hard")
        assert choose(GAME, GAME.load(GAME.dump(state)), seat, "hard") == hard
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
    state.attack = Roller(
        0, 6, roll=[aside[-1]], event="blank", kept=[True], aside=aside, score=score
    )
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


def _defending(attack: int, roll: list[int]) -> object:
    """Seat 1 defends a brawl against ``attack`` soldiers and has just rolled ``roll``."""
    state = new(seats=2, turn=0, armies=[2000, 2000])
    state.action = "brawl"
    state.defender = 1
    state.stage = "roll"
    state.attack = Roller(0, 6, score=attack)
    state.defence = Roller(1, 5, roll=roll, event="blank")
    return state


def test_a_brawl_defender_sets_aside_the_dice_that_win_the_brawl() -> None:
    # 1, 1 and 5 make 250 and pass the attacker's 150 at once (the brawl is won); one 1 alone
    # (100, four dice left) still has to roll past 150 and loses a fifth of the time.
    state = _defending(150, [1, 1, 5, 2, 3])
    assert win_chance(150 + 1 - 100, 4, 5, True) < 0.85
    assert choose(GAME, state, 1, "normal") == Keep("a1 b1 c5")


def test_a_brawl_defender_keeps_the_dice_that_raise_its_chance_of_passing() -> None:
    # Against 600, keeping 5, 5, 5 and 1 (600, one die left) does not pass yet, but needs just one
    # scoring die: better odds than 100 with four dice to roll (the old "keep dice to roll" rule).
    state = _defending(600, [5, 5, 5, 1, 2])
    chosen = choose(GAME, state, 1, "normal")
    assert chosen == Keep("a5 b5 c5 d1")
    assert win_chance(601 - 600, 1, 5, True) > win_chance(601 - 100, 4, 5, True) + 0.1
