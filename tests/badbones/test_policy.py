"""Bad Bones' computer player: always legal, reproducible, and its hero meets the skeletons."""

from __future__ import annotations

import pytest

from rules.badbones import GAME
from rules.badbones.actions import Move, Nothing, Place
from rules.badbones.board import N, parse_square
from rules.badbones.policy import play_out
from rules.badbones.position import game_from_text
from rules.badbones.state import BadBonesState
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


def test_a_big_table_tries_every_trap_that_helps() -> None:
    # The position of the test above at a table of three: every play-out resolves three boards,
    # and normal used to play out a sample of two placements only, so it did nothing here. It
    # now weighs every placement on a square the skeletons walk into, as at two.
    mine = "hero B1 floors 4 houses 5\nA1 green.left:E\nE4 blue.right:W\nA5 pink.left:E"
    theirs = "hero C1 floors 4 houses 5\nA2 blue.left:E\nE2 yellow.right:W"
    state = game_from_text(mine, theirs, "hero C1 floors 4 houses 5\nA2 blue.left:E", stage="trap")
    idle = play_out(GAME, state, 0, Nothing())
    chosen = choose(GAME, state, 0, "normal")
    assert isinstance(chosen, Place)
    assert play_out(GAME, state, 0, chosen) > idle


def test_a_trap_waits_where_a_skeleton_walks_in_from_the_forest() -> None:
    # Nothing stands on the board, but a red skeleton waits in the right forest: in phase 3 it
    # walks in on E3, heading west for the tower. A wall on E3 turns it aside as it enters;
    # normal used to weigh only the squares in front of skeletons already on the board, so it
    # did nothing.
    mine = "hero E2 floors 4 houses 4\nforest red.right\nsupply wall treasure"
    state = game_from_text(mine, "hero C1 floors 4 houses 5\nA2 blue.left:E", stage="trap")
    chosen = choose(GAME, state, 0, "normal")
    assert isinstance(chosen, Place) and chosen.square == "E3"
    assert play_out(GAME, state, 0, chosen) > play_out(GAME, state, 0, Nothing())


# A position met in play (seed 0, round 5): the hero stands on E2, the red skeleton walking in on
# E3 heads west, and three more skeletons wait in the right forest.
STOLEN_NEXT_PHASE = (
    "hero E2 floors 4 houses 4\nA3 red.left:E\nB3 catapult~\nE3 red.right:W\nB4 yellow.left:E\n"
    "C4 dragon~\nD4 yellow.left:E\nE4 blue.right:W\nB5 pink.left:E\n"
    "forest green.top yellow.right red.right blue.right pink.top\nsupply wall wall treasure",
    "hero A2 floors 4 houses 5\nC1 red.top:S\nD1 pink.right:W\nB2 wall/~\nE2 dragon~\n"
    "A3 red.left:E\nD3 catapult~\nA4 yellow.left:E\nE5 green.right:W\n"
    "forest pink.top blue.left green.top pink.right green.right\nsupply wall catapult treasure",
)


def test_no_treasure_where_it_is_stolen_next_phase() -> None:
    # A treasure under the hero on E2 turns the skeleton that walks in on E3 toward it, and the
    # hero keeps it safe this phase. But the hero must step off in next round's phase 1, and the
    # skeleton then steps onto E2 and steals it: four stars lost for one round's detour. Normal
    # (which used to place it there) now counts a treasure a skeleton faces as gone.
    state = game_from_text(*STOLEN_NEXT_PHASE, stage="trap", round=5)
    treasure = Place("treasure", "E2")
    after = _round_on_defaults(GAME.apply(state, 0, treasure)[0])
    board = after.boards[0]
    assert board.traps[parse_square("E2")].kind == "treasure"  # still there after this round
    assert [s for s in board.skeletons if s.square == parse_square("E3")][0].facing == N
    assert choose(GAME, state, 0, "normal") != treasure
    # Next round: the hero steps off, and the skeleton takes the treasure.
    after = _round_on_defaults(GAME.apply(after, 0, Move("W"))[0])
    assert parse_square("E2") not in after.boards[0].traps


def _round_on_defaults(state: BadBonesState) -> BadBonesState:
    """The round played to its end, every seat still to act taking its default."""
    start = state.round
    while state.round == start and not GAME.is_over(state):
        seat, pending = min(GAME.pending(state).items())
        state, _ = GAME.apply(state, seat, pending.default)
    return state


def test_the_bags_next_draws_change_nothing() -> None:
    # The opponent has submitted, so normal's play-out of each trap runs through phase 4, which
    # draws new skeletons from the bag. Nobody knows those draws: with another generator in the
    # state (other draws to come), normal weighs the same and chooses the same.
    mine = "hero E2 floors 4 houses 4\nE3 red.right:W\nsupply wall catapult treasure"
    state = game_from_text(mine, "hero C1 floors 4 houses 5\nA2 blue.left:E", stage="trap")
    state, _ = GAME.apply(state, 1, Nothing())
    # (A treasure on A4, where a yellow skeleton from the left forest walks in, was judged by
    # the true next draws: whether phase 4 drew one.)
    for flip in (1, 0x5EED):
        other = GAME.copy(state)
        other.rng = state.rng ^ flip
        for action in GAME.legal_actions(state, 0):
            assert play_out(GAME, other, 0, action) == play_out(GAME, state, 0, action)
        assert choose(GAME, other, 0, "normal") == choose(GAME, state, 0, "normal")
