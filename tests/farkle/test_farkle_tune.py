"""The tuning bench of Dragon Farkle's ``hard`` (``bench/farkle_tune.py``): ``normal`` with
another weight on rolling on, and a style's games against ``normal``, so that it cannot rot."""

from __future__ import annotations

from bench.farkle_tune import Style, game_won, games, styled
from rules.farkle import GAME
from rules.farkle.actions import Roll, Stop
from rules.farkle.policy import normal
from rules.farkle.state import Roller
from tests.farkle.support import new


def test_a_heavier_weight_on_rolling_on_rolls_where_normal_banks() -> None:
    # Three 5s set aside (500 soldiers at stake), three dice to roll: a Farkle 28% of the time
    # loses more than the 120 soldiers a scoring roll adds on average, so normal banks; a
    # style that counts what rolling on leads to twice rolls on.
    state = new(seats=2, turn=0)
    state.action = "recruit"
    state.stage = "next"
    state.attack = Roller(0, 6, roll=[5], event="blank", kept=[True], aside=[5, 5, 5], score=500)
    legal = GAME.legal_actions(state, 0)
    assert normal(state, 0, legal) == Stop()
    assert normal(state, 0, legal, onward=2.0) == Roll()
    assert styled(state, 0, legal, Style(onward=2.0)) == Roll()


def test_a_style_that_never_enters_the_keep_never_wins() -> None:
    # Only slaying the dragon in the Final Battle wins the game.
    never = Style(enter_at=10**6, stay_at=10**6)
    assert games(never, range(2)) == 0


def test_a_game_is_the_same_from_the_same_seed() -> None:
    assert [game_won(Style(), 7, 2, seat) for seat in (0, 1)] == [
        game_won(Style(), 7, 2, seat) for seat in (0, 1)
    ]
