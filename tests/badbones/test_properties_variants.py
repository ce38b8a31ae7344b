"""Properties over random legal games with the advanced, cooperative and chiefs options: every
token (180 + the 19 chiefs) is always somewhere, nothing leaves the grid or stands on a standing
tower, games end, dump/load is lossless, illegal actions change nothing."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from rules.badbones import GAME
from rules.badbones.actions import Buy, Move, Place, Weapon
from rules.badbones.state import (
    CHIEFS,
    HERO,
    MARKET,
    TOTAL_TOKENS,
    TRAP,
    WEAPON,
    BadBonesState,
)
from rules.badbones.traps import Trap
from rules.core import Action, Rng
from tests.support import checked_play


def total_tokens(state: BadBonesState) -> int:
    n = sum(state.bag) + len(state.chiefs) + len(state.removed)
    return n + sum(len(b.tokens()) for b in state.boards)


def check_invariants(state: BadBonesState) -> None:
    expected = TOTAL_TOKENS + (CHIEFS if state.options.get("chiefs") else 0)
    assert total_tokens(state) == expected
    chiefs = sorted(state.chiefs + [t.chief for t in state.removed])
    chiefs += [t.chief for b in state.boards for t in b.tokens() if t.chief]
    assert sorted(chiefs) == (list(range(1, 20)) if expected > TOTAL_TOKENS else [])
    lay = state.layout
    assert 0 <= state.capital <= state.seats
    for board in state.boards:
        assert -1 <= board.hero < 25
        assert 0 <= board.floors <= 4
        for skeleton in board.skeletons:
            sq = skeleton.square
            assert 0 <= sq < 25
            assert not (lay.is_tower[sq] and sq not in board.ruins), "on a standing tower"
            if state.stage in (HERO, TRAP):
                assert sq != board.hero, "a skeleton sharing the hero's square"
                trap = board.traps.get(sq)
                assert trap is None or trap.kind == "labyrinth" or trap == Trap("bomb", 1, ""), trap
        for sq in board.traps:
            assert not (lay.is_tower[sq] and sq not in board.ruins)


def wrong(state: BadBonesState, seat: int, legal: list[Action], now: float) -> list[Action]:
    return [Buy("treasure"), Weapon("Z9"), Place("catapult", "A0"), Move("NNN")]


def weapons_and_purchases(state: BadBonesState, seat: int, legal: list[Action], rng: Rng) -> Action:
    """Mostly real weapon uses and purchases: they are what this file is about."""
    useful: list[Action] = [a for a in legal if isinstance(a, Weapon | Buy)]
    if state.stage == HERO:
        useful = [GAME.pending(state)[seat].default]  # the step that kills the most: weapons
    return rng.choice(useful if useful and rng.below(4) else legal)


play_checked = partial(
    checked_play.play_checked,
    GAME,
    invariants=check_invariants,
    wrong=wrong,
    every=5,
    choose=weapons_and_purchases,
    max_steps=6000,
)


ALL = {"advanced": True, "cooperative": True, "chiefs": True}


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_all_options_on(seats: int) -> None:
    # 15 whole games a seat count with every option at once reach the weapons, the Market,
    # chiefs and the cooperative end; test_weapons_and_market_are_reached proves the reach.
    for seed in range(15):
        play_checked(seats, seed, ALL)


@pytest.mark.parametrize(
    "options",
    [
        {"advanced": True},
        {"chiefs": True},
        {"cooperative": True},
        {"advanced": True, "chiefs": True},
    ],
)
def test_each_variant(options: dict[str, Any]) -> None:
    for seed in range(10):  # 10 games a seat count and variant, both ways of choosing
        for seats in (2, 4) if options.get("cooperative") else (1, 3, 5):
            play_checked(seats, seed, {**options, "choices": "auto" if seed % 2 else "ask"})


def test_weapons_and_market_are_reached() -> None:
    stages: set[str] = set()
    for seed in range(20):
        state = GAME.new_game(3, {"advanced": True}, seed)
        rng = Rng(seed)
        while not GAME.is_over(state):
            stages.add(state.stage)
            pending = GAME.pending(state)
            seat = rng.choice(sorted(pending))
            actions = GAME.legal_actions(state, seat)
            useful: list[Action] = [a for a in actions if isinstance(a, Weapon | Buy)]
            if state.stage == HERO:
                useful = [pending[seat].default]  # the step that kills the most
            state, _ = GAME.apply(state, seat, rng.choice(useful or actions))
    assert {MARKET, WEAPON} <= stages
