"""Bad Bones' computer player: always legal, reproducible, and its hero meets the skeletons."""

from __future__ import annotations

import pytest

from rules.badbones import GAME
from rules.badbones.actions import Move
from rules.badbones.position import game_from_text
from rules.core.policy import choose, play_bots
from tests.support.fingerprint import option_sets


@pytest.mark.parametrize("options", list(option_sets(GAME)), ids=str)
def test_every_choice_is_legal_in_every_option(options: dict[str, object]) -> None:
    tables = [("normal",), ("normal", "easy"), ("easy", "random", "normal")]
    if options.get("cooperative"):
        tables = tables[1:]
    for seed, levels in enumerate(tables):
        state, _ = play_bots(GAME, levels, seed, options, strict=True)
        assert GAME.is_over(state)


def test_the_same_position_gives_the_same_choice() -> None:
    state = GAME.new_game(3, {}, 6)
    for _ in range(40):
        if GAME.is_over(state):
            break
        seat = min(GAME.pending(state))
        first = choose(GAME, state, seat, "easy")
        assert choose(GAME, GAME.load(GAME.dump(state)), seat, "easy") == first
        assert choose(GAME, state, seat, "normal") == choose(GAME, state, seat, "normal")
        state, _ = GAME.apply(state, seat, first)


def test_the_hero_steps_onto_the_biggest_group() -> None:
    # Three skeletons on D4, one on B2: stepping south-east kills three at once.
    state = game_from_text("D4 W*3\nB2 E", "A1 S")
    assert choose(GAME, state, 0, "normal") == Move("SE")


def test_the_hero_waits_where_the_skeletons_will_walk() -> None:
    # Two skeletons on E3 walk west in phase 3: E3 -> D3, then on to the tower. Nothing can be
    # killed by stepping now (an absent hero would step north, the first direction), but a
    # hero standing on D3 kills both when they walk into him.
    state = game_from_text("E3 W*2\nA5 E", "A1 S")
    assert GAME.pending(state)[0].default == Move("N")
    assert choose(GAME, state, 0, "normal") == Move("E")
