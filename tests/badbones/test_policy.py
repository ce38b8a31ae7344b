"""Bad Bones' computer player: always legal, reproducible, and its hero meets the skeletons."""

from __future__ import annotations

import pytest

from rules.badbones import GAME
from rules.badbones.actions import Move, Nothing, Place
from rules.badbones.policy import play_out
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


def test_a_trap_that_helps_is_placed_rather_than_nothing() -> None:
    # Round 2's trap phase: the skeleton on E4 walks west toward the tower (C3), and a trap on
    # D4 (the square it walks into) deals with it. The round played out says so, and normal
    # takes one of those placements rather than doing nothing (it used to try a sample of four
    # and could leave the one that helps out).
    mine = "hero B1 floors 4 houses 5\nA1 green.left:E\nE4 blue.right:W\nA5 pink.left:E"
    theirs = "hero C1 floors 4 houses 5\nA2 blue.left:E\nE2 yellow.right:W"
    state = game_from_text(mine, theirs, stage="trap", round=2)
    idle = play_out(GAME, state, 0, Nothing())
    helps = [
        a
        for a in GAME.legal_actions(state, 0)
        if isinstance(a, Place) and play_out(GAME, state, 0, a) > idle
    ]
    assert helps
    chosen = choose(GAME, state, 0, "normal")
    assert isinstance(chosen, Place)
    assert play_out(GAME, state, 0, chosen) >= max(play_out(GAME, state, 0, a) for a in helps)


def test_a_treasure_turns_a_skeleton_away_from_the_tower() -> None:
    # The skeleton on C4 faces north: its next step is the tower (C3). A treasure beside it (B4
    # or D4) turns it away at once; normal places it there rather than nothing.
    mine = "hero A1 floors 2 houses 5\nC4 N\nsupply treasure"
    theirs = "hero C1 floors 4 houses 5\nA2 blue.left:E"
    state = game_from_text(mine, theirs, stage="trap", round=2)
    assert choose(GAME, state, 0, "normal") in (Place("treasure", "B4"), Place("treasure", "D4"))
