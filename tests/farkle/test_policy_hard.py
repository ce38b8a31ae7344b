"""Dragon Farkle's ``hard`` computer player: legal, reproducible, and it looks past the rule of
thumb where the game says so (the Keep's 5,000, a brawl's mark)."""

from __future__ import annotations

import pytest

from rules.core.policy import choose, play_bots
from rules.farkle import GAME
from rules.farkle.actions import Roll, Stop
from rules.farkle.policy import roll_gain
from rules.farkle.policy_hard import _beaten, attack_chance
from rules.farkle.state import FarkleState, Roller
from tests.farkle.support import new
from tests.support.fingerprint import option_sets


@pytest.mark.parametrize("options", list(option_sets(GAME)), ids=str)
def test_every_hard_choice_is_legal_in_every_option(options: dict[str, object]) -> None:
    state, _ = play_bots(GAME, ("hard", "normal", "easy"), 3, options, strict=True)
    assert GAME.is_over(state)


def _recruiting(army: int, score: int, aside: list[int]) -> FarkleState:
    """Seat 0 recruits with ``army`` soldiers, ``score`` at stake, ``aside`` set aside."""
    state = new(seats=2, turn=0, armies=[army, 1000])
    state.action = "recruit"
    state.stage = "next"
    state.attack = Roller(
        0, 6, roll=[aside[-1]], event="blank", kept=[True], aside=aside, score=score
    )
    return state


def test_rolls_on_for_the_soldiers_that_open_the_keep() -> None:
    # 4,000 soldiers and 950 at stake with three dice: banking leaves 4,950, one roll short of
    # the Keep. By soldiers alone the roll does not pay (normal stops); hard rolls for the 50.
    state = _recruiting(4000, 950, [1, 1, 1])
    assert roll_gain(950, 3, True) < 0
    assert choose(GAME, state, 0, "normal") == Stop()
    assert choose(GAME, state, 0, "hard") == Roll()


def test_banks_the_same_turn_when_it_opens_nothing() -> None:
    # The same 950 with no army behind it, or with 4,050 (already past 5,000 once banked).
    assert choose(GAME, _recruiting(0, 950, [1, 1, 1]), 0, "hard") == Stop()
    assert choose(GAME, _recruiting(4050, 950, [1, 1, 1]), 0, "hard") == Stop()


def _attacking(score: int, aside: list[int]) -> FarkleState:
    """Seat 0 attacks seat 1 in a brawl, ``score`` set aside so far, between two rolls."""
    state = new(seats=2, turn=0, armies=[2000, 2000])
    state.action = "brawl"
    state.defender = 1
    state.stage = "next"
    state.attack = Roller(
        0, 6, roll=[aside[-1]], event="blank", kept=[True], aside=aside, score=score
    )
    return state


def test_a_brawl_attacker_stops_where_the_defender_is_unlikely_to_pass() -> None:
    # 1,100 against a defender's five dice: the defender passes it about one time in ten; the
    # last die would risk it all for little. Hard stops.
    assert 1 - _beaten(1100, 5, True) > 0.85 > attack_chance(1100, 1, 6, 5, True, 2)
    assert choose(GAME, _attacking(1100, [1, 1, 1, 5, 5]), 0, "hard") == Stop()


def test_a_brawl_attacker_rolls_on_where_its_mark_is_easily_passed() -> None:
    # 150 with five dice left: the defender would pass it four times in five.
    assert attack_chance(150, 5, 6, 5, True, 2) > 1 - _beaten(150, 5, True)
    assert choose(GAME, _attacking(150, [1, 5]), 0, "hard") == Roll()
