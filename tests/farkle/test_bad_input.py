"""Bad input: each is refused with its own message key and changes nothing."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from rules.core import RulesError
from rules.farkle import GAME
from rules.farkle.actions import (
    Brawl,
    Discard,
    Enter,
    Keep,
    Recruit,
    Roll,
    Scare,
    Stop,
    UseItem,
)
from rules.farkle.state import FarkleState
from tests.farkle.support import give, new, play, rig
from tests.support import refusals

refused = partial(refusals.refused, GAME)


def rolled(dice: list[int], event: str = "blank", **kw: Any) -> FarkleState:
    s = new(**kw)
    rig(s, (dice, event))
    play(s, 0, Recruit())
    return s


def test_setting_aside_a_non_scoring_die() -> None:
    s = rolled([1, 5, 2, 3, 4, 6])
    refused(s, 0, Keep("a1 c2"), "farkle.error.not_scoring")
    with pytest.raises(RulesError) as err:
        GAME.parse("keep", {"dice": "a c"}, s, 0)
    assert err.value.key == "farkle.error.not_scoring"


def test_an_empty_selection() -> None:
    s = rolled([1, 5, 2, 3, 4, 6])
    refused(s, 0, Keep(""), "farkle.error.empty_selection")


def test_dice_not_in_the_roll() -> None:
    s = rolled([1, 5, 2, 3, 4, 6])
    refused(s, 0, Keep("a5"), "farkle.error.bad_die")  # a shows 1
    refused(s, 0, Keep("z"), "farkle.error.bad_die")


def test_keep_when_the_dragon_eats_and_roll_before_keeping() -> None:
    refused(rolled([1, 5, 2, 3, 4, 6], "dragon"), 0, Keep("a1"), "farkle.error.dragon_eats")
    refused(rolled([1, 5, 2, 3, 4, 6]), 0, Roll(), "farkle.error.keep_first")
    refused(rolled([1, 5, 2, 3, 4, 6]), 0, Stop(), "farkle.error.keep_first")


def test_a_brawl_against_someone_in_the_keep() -> None:
    s = new()
    s.players[1].in_keep = True
    refused(s, 0, Brawl(1), "farkle.error.target_in_keep")
    with pytest.raises(RulesError) as err:
        GAME.parse("brawl", {"target": 2}, s, 0)
    assert err.value.key == "farkle.error.target_in_keep"
    refused(s, 0, Brawl(0), "farkle.error.brawl_self")
    refused(s, 0, Brawl(7), "farkle.error.bad_target")


def test_entering_the_keep_with_under_5000_soldiers() -> None:
    s = new(armies=[4950, 0, 0])
    refused(s, 0, Enter(), "farkle.error.keep_army")
    with pytest.raises(RulesError) as err:
        GAME.parse("enter", {}, s, 0)
    assert err.value.key == "farkle.error.keep_army"


def test_using_an_item_you_do_not_hold() -> None:
    s = rolled([1, 5, 2, 3, 4, 6])
    refused(s, 0, UseItem("potion"), "farkle.error.no_item")
    refused(s, 0, UseItem("sword"), "farkle.error.no_item")
    give(s, 1, "potion")
    refused(s, 0, UseItem("potion"), "farkle.error.no_item")


def test_using_an_item_outside_its_timing() -> None:
    s = rolled([1, 5, 2, 3, 4, 6])  # no dragon on this roll
    give(s, 0, "repellent", "arrow", "cloak", "draught", "bag")
    refused(s, 0, UseItem("repellent"), "farkle.error.item_timing")
    refused(s, 0, UseItem("arrow"), "farkle.error.item_timing")
    refused(s, 0, UseItem("cloak"), "farkle.error.item_timing")
    refused(s, 0, UseItem("draught"), "farkle.error.item_timing")
    refused(s, 0, UseItem("bag"), "farkle.error.item_timing")
    c = new()
    give(c, 0, "potion")
    refused(c, 0, UseItem("potion"), "farkle.error.item_timing")  # before any roll


def test_acting_when_it_is_not_your_turn() -> None:
    s = new()
    refused(s, 1, Recruit(), "core.error.not_your_turn")
    r = rolled([1, 5, 2, 3, 4, 6])
    refused(r, 2, Keep("a1"), "core.error.not_your_turn")
    with pytest.raises(RulesError) as err:
        GAME.parse("keep", {"dice": "a"}, r, 2)
    assert err.value.key == "core.error.not_your_turn"


def test_actions_of_the_wrong_stage() -> None:
    """An action at the wrong moment says what the moment asks instead."""
    s = new()
    refused(s, 0, Keep("a1"), "farkle.error.not_now")
    refused(s, 0, Discard("potion"), "farkle.error.not_now")
    s.players[0].companion = "skree"
    s.players[0].skree_used = True
    refused(s, 0, Scare(1), "farkle.error.skree_used")


def test_parse_accepts_loose_dice() -> None:
    s = rolled([1, 5, 2, 3, 4, 6])
    assert GAME.parse("keep", {"dice": "A, B"}, s, 0) == Keep("a1 b5")
    assert GAME.parse("keep", {"dice": "ab"}, s, 0) == Keep("a1 b5")
    assert GAME.parse("keep", {"dice": "b5 a1"}, s, 0) == Keep("a1 b5")
