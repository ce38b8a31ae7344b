"""Bad Bones' ``hard`` computer player: legal, reproducible, blind to the others' sealed
choices, and a search that finds what the round holds."""

from __future__ import annotations

from typing import Any

import pytest

from rules.badbones import GAME, policy
from rules.badbones.actions import Move, Nothing, Place, Start
from rules.badbones.position import game_from_text
from rules.badbones.search import (
    CAPITAL_PATH,
    TOWER_PATH,
    choose_hard,
    heading,
    knowledge,
    standing,
)
from rules.badbones.state import BadBonesState
from rules.core import Action, Game, Rng
from rules.core.policy import Dice, choose, play_bots
from tests.support.fingerprint import option_sets

OPPONENT = "hero C1 floors 4 houses 5\nA2 blue.left:E\nE2 yellow.right:W"


@pytest.mark.parametrize("options", list(option_sets(GAME)), ids=str)
def test_every_choice_is_legal_in_every_option(options: dict[str, object]) -> None:
    levels = ("hard",) if "solo_rounds" in options else ("hard", "normal")
    state, _ = play_bots(GAME, levels, 1, options, strict=True)
    assert GAME.is_over(state)


def test_the_same_position_gives_the_same_choice() -> None:
    state = GAME.new_game(2, {}, 4)
    for _ in range(12):
        seat = min(GAME.pending(state))
        first = choose(GAME, state, seat, "hard")
        assert choose(GAME, GAME.load(GAME.dump(state)), seat, "hard") == first
        state, _ = GAME.apply(state, seat, first)


def test_the_others_sealed_moves_change_nothing() -> None:
    # Phase 1: the opponent has already sent a hero step, hidden until both have. Whatever it
    # is (or if there is none yet), hard picks the same step: it samples the opponent's choice
    # and never reads the one submitted.
    state = game_from_text("hero C3\nD4 W*2\nB2 E", OPPONENT)
    alone = choose(GAME, state, 0, "hard")
    for step in ("S", "E", "W"):
        sealed, _ = GAME.apply(state, 1, Move(step))
        assert GAME.sealed(sealed, 1)
        assert choose(GAME, sealed, 0, "hard") == alone


def test_the_others_sealed_traps_change_nothing() -> None:
    mine = "hero B1 floors 4 houses 5\nA1 green.left:E\nE4 blue.right:W\nA5 pink.left:E"
    state = game_from_text(mine, OPPONENT, stage="trap", round=2)
    alone = choose(GAME, state, 0, "hard")
    for trap in (Nothing(), Place("catapult", "B2"), Place("wall", "D2", "/")):
        sealed, _ = GAME.apply(state, 1, trap)
        assert choose(GAME, sealed, 0, "hard") == alone
    # What the search reads is the position without the opponent's submission.
    assert GAME.dump(knowledge(GAME, sealed, 0)) == GAME.dump(knowledge(GAME, state, 0))


def test_the_bags_next_draws_change_nothing() -> None:
    # The state's generator decides which skeletons phase 4 draws from the bag; nobody at the
    # table knows them, and hard samples them afresh: a different generator, the same choice.
    mine = "hero B1 floors 4 houses 5\nA1 green.left:E\nE4 blue.right:W\nA5 pink.left:E"
    state = game_from_text(mine, OPPONENT, stage="trap", round=2)
    other = GAME.copy(state)
    other.rng = state.rng ^ 0x5EED
    assert choose(GAME, other, 0, "hard") == choose(GAME, state, 0, "hard")


def test_teammates_sealed_tower_picks_change_nothing() -> None:
    state = GAME.new_game(3, {"cooperative": True}, 2)
    alone = choose(GAME, state, 0, "hard")
    assert isinstance(alone, Start)
    for square in ("B2", "D4"):
        sealed, _ = GAME.apply(state, 1, Start(square))
        sealed, _ = GAME.apply(sealed, 2, Start("D2"))
        assert choose(GAME, sealed, 0, "hard") == alone


def test_a_skeleton_walking_to_the_tower_meets_a_trap() -> None:
    # Three players: the skeleton on E4 walks west, toward the tower's row (D4, then C4's arrow
    # turns it north, into the tower), and the one on A5 east, toward the village (B5, then
    # C5's arrow turns it south); doing nothing leaves both on their way. Hard, like normal,
    # puts a trap in front of one or under it (a dragon on A5 repels the pink skeleton into
    # the forest, to an opponent).
    mine = "hero B1 floors 4 houses 5\nA1 green.left:E\nE4 blue.right:W\nA5 pink.left:E"
    third = "hero C1 floors 4 houses 5\nA2 blue.left:E"
    state = game_from_text(mine, OPPONENT, third, stage="trap", round=2)
    chosen = choose(GAME, state, 0, "hard")
    assert isinstance(chosen, Place) and chosen.square in ("D4", "E4", "A5", "B5")


def test_the_hero_steps_onto_the_biggest_group_when_no_trap_is_left() -> None:
    # Three skeletons on D4 walk west to C4, whose arrow turns them north, into the tower.
    # With traps in the supply, a catapult on C4 would throw all three at the opponent; with
    # none left, the hero steps onto D4 and kills them now.
    state = game_from_text("D4 W*3\nB2 E\nsupply", "A1 S")
    assert choose(GAME, state, 0, "hard") == Move("SE")


@pytest.mark.parametrize("stage", ["hero", "trap"])
def test_a_rival_plays_the_round_out_on_its_defaults(stage: str) -> None:
    # A rival's hero step and trap resolve on its own board, the same for every candidate in a
    # world: the search thinks out only its own seat's rest of the round (normal, the rollout
    # policy here), never the rival's.
    mine = "hero B1 floors 4 houses 5\nA1 green.left:E\nE4 blue.right:W\nA5 pink.left:E"
    state = game_from_text(mine, OPPONENT, stage=stage, round=2)
    asked: set[int] = set()

    def normal(game: Game[Any], sim: BadBonesState, seat: int, level: str, dice: Dice) -> Action:
        asked.add(seat)
        return policy.choose(game, sim, seat, level, dice)

    chosen = choose_hard(GAME, state, 0, normal, lambda: Rng(1))
    assert chosen in GAME.legal_actions(state, 0)
    assert asked == {0}


def test_the_team_weighs_the_skeletons_heading_for_a_tower() -> None:
    # The cooperative house board: towers on B2 D2 B4 D4, the capital beyond the top edge. A
    # blue skeleton waiting in the left forest walks in on A2 and, the round after, into the
    # tower on B2; a green one walks in on A1 and along row 1 out to the right forest. A trap on
    # A2 meets the blue one first (what the trap does to it is the play-out's to weigh, not the
    # straight walk's); with B2 in ruins, the ruins' arrow turns it north there, and it walks
    # on, further off, to the capital.
    def cost(board: str) -> float:
        return heading(game_from_text(board, "hero C3", options={"cooperative": True}), 0)

    blue = cost("hero C3\nforest blue.left")
    assert blue > cost("hero C3\nforest blue.left\nruins B2") > 0
    assert cost("hero C3\nforest green.left") == cost("hero C3\nforest blue.left\nA2 wall/") == 0
    # One step from a tower, a skeleton is already counted by the board's worth; three steps
    # (B5 north, over the ruins of B4, to B2), it counts for less than one in the forest.
    assert cost("hero C3\nA2 blue.left:E") == 0
    assert 0 < cost("hero C3\nB5 yellow.top:N\nruins B4") < blue


def test_the_look_ahead_turns_a_skeleton_where_the_board_turns_it() -> None:
    # heading follows a skeleton the way the engine walks it (``way_on``). The cooperative
    # side's only arrows are the ruins'; the basic side shows the printed ones (C1 S, C2 S,
    # B3 E, D3 W, C4 N, C5 S; tower C3, the village beyond row 5). A skeleton walking east
    # along row 5 is turned south by C5's arrow, into the village the round after; one walking
    # south down column D is turned west by D3's arrow, into the tower on the third round, not
    # into the village on the fifth.
    def cost(board: str) -> float:
        return heading(game_from_text(board), 0)

    assert cost("hero A1\nB5 pink.left:E") == CAPITAL_PATH / 2
    assert cost("hero A1\nD1 blue.top:S") == TOWER_PATH / 3


def test_the_look_ahead_sees_a_treasure_lure_a_skeleton_off_its_way() -> None:
    # The cooperative house board: a red skeleton on C5 walks north up column C, where no
    # tower stands, and out to the capital on the fifth round. A treasure on D3, beside its
    # path, turns it east when it reaches C3 (its allure outweighs every arrow), and it walks
    # onto the treasure: no longer heading for the capital.
    def cost(board: str) -> float:
        return heading(game_from_text(board, options={"cooperative": True}), 0)

    assert cost("hero A1\nC5 red.top:N") == CAPITAL_PATH / 5
    assert cost("hero A1\nC5 red.top:N\nD3 treasure") == 0


def test_the_team_gains_nothing_by_a_trap_that_stops_nothing() -> None:
    # Cooperative: the traps come from one shared supply. A wall placed on A3, where no skeleton
    # walks, is the same wall the team had in its supply: the search weighs both alike, so it
    # places a trap for what it stops, and keeps the supply for the rounds the capital needs it.
    def team(board: str, pool: list[str]) -> float:
        options = {"cooperative": True, "pool": pool}
        return standing(game_from_text(board, options=options), 0)

    assert team("hero A1\nA3 wall/", []) == team("hero A1", ["wall"])
