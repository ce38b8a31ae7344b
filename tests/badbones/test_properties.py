"""Properties over many random legal games: tokens are conserved, nothing leaves the grid,
games end, dump/load is lossless, illegal actions change nothing."""

from __future__ import annotations

import json
from collections import Counter
from functools import partial

import pytest

from rules.badbones import GAME
from rules.badbones.actions import Move, Place
from rules.badbones.board import BASIC
from rules.badbones.state import (
    HERO,
    LANDING,
    SKELETONS,
    TRAP,
    BadBonesState,
    Skeleton,
    Token,
)
from rules.badbones.traps import Trap
from rules.core import Action
from rules.core.play import random_game
from tests.badbones.helpers import position, token_counts
from tests.support import checked_play


def check_invariants(state: BadBonesState) -> None:
    counts = token_counts(state)
    assert all(counts[Token(m)] == 12 for m in range(15)), counts
    for board in state.boards:
        assert 0 <= board.hero < 25
        assert 0 <= board.floors <= 4 and 0 <= board.houses <= 5
        assert Counter(board.supply) + Counter(t.kind for t in board.traps.values()) <= Counter(
            {"wall": 2, "catapult": 2, "dragon": 1, "treasure": 1}
        )
        for skeleton in board.skeletons:
            sq = skeleton.square
            assert 0 <= sq < 25, "a skeleton off the grid"
            assert not BASIC.is_tower[sq], "a skeleton standing on the tower"
            if state.stage in (HERO, TRAP):
                # Between phases a skeleton never shares a square with the hero or a trap: the
                # hero kills it, walls/catapults/dragons move it on, a treasure is stolen.
                assert sq != board.hero, "a skeleton sharing the hero's square"
                assert sq not in board.traps, "a skeleton standing on a trap"
        for sq in board.traps:
            assert not BASIC.is_tower[sq]


def check_views(state: BadBonesState, seat: int) -> None:
    """The public view never shows a hidden submission, nor a seat's view another's."""
    view = GAME.view(state, None)
    assert view.get("my_submission") is None and "question" not in view
    for other in range(state.seats):
        if other != seat and other in state.subs:
            assert GAME.view(state, seat)["my_submission"] != state.subs[other] or (
                state.subs.get(seat) == state.subs[other]
            )


def wrong(state: BadBonesState, seat: int, legal: list[Action], now: float) -> list[Action]:
    return [Place("catapult", "C3") if state.stage != HERO else Move("N" * 3)]


def asks_or_moves_on(before: BadBonesState, after: BadBonesState, seat: int, _: object) -> None:
    """After an answer in a landing or skeleton step, the answered question's buttons are stale
    (a follow-up is a new question), and the questions still open elsewhere keep theirs,
    whatever this answer did (the phase token itself stays while answers come)."""
    if after.stage in (LANDING, SKELETONS):
        asked = {s: p.asked for s, p in GAME.pending(before).items()}
        now = {s: p.asked for s, p in GAME.pending(after).items()}
        assert seat not in now or now[seat] != asked.get(seat)
        assert all(now[s] == asked[s] for s in now if s != seat and s in asked)


play_checked = partial(
    checked_play.play_checked,
    GAME,
    invariants=check_invariants,
    checked=check_views,
    wrong=wrong,
    step=asks_or_moves_on,
)


@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5, 6])
def test_random_games_keep_the_invariants(seats: int) -> None:
    # 10 whole games a seat count check every invariant at every step, through every phase
    # and ending (the rare corners are the rulebook tests' to set up); 25 found nothing more.
    for seed in range(10):
        play_checked(seats, seed)


def test_random_games_with_automatic_choices_and_heroic_solo() -> None:
    for seed in range(10):  # (as above: each option in 10 whole games)
        play_checked(4, seed, {"choices": "auto"})
        play_checked(1, seed, {"heroic": True, "solo_rounds": 3})


def test_many_random_games_end_and_replay_identically() -> None:
    # Through the platform's random player: 6 games a seat count end (the checked games
    # above prove it at length); one seat count replays identically.
    for seed in range(30):
        final, steps, _ = random_game(GAME, 2 + seed % 5, seed)
        assert GAME.result(final) is not None
        token_counts(final)
    a, sa, _ = random_game(GAME, 4, 99)
    b, sb, _ = random_game(GAME, 4, 99)
    assert GAME.dump(a) == GAME.dump(b) and sa == sb


def test_copy_is_deep() -> None:
    state, _, _ = random_game(GAME, 3, 5)
    copy = GAME.copy(state)
    assert GAME.dump(copy) == GAME.dump(state)
    copy.boards[0].skeletons.append(Skeleton(0, Token(0), 0))
    copy.boards[0].traps[0] = Trap("wall", 0, "/")
    copy.bag[0] += 1
    assert GAME.dump(copy) != GAME.dump(state)
    assert 0 not in state.boards[0].traps or state.boards[0].traps[0] != Trap("wall", 0, "/")


def test_a_saved_game_keeps_its_numbers_for_tokens_skeletons_and_traps() -> None:
    # Games saved before tokens became plain data hold these numbers; they must load as before.
    state = position(
        "D4 yellow.right:W!^@nice\nforest red.top@saboteur blue.left\nB2 wall\\~",
        "",
        options={"chiefs": True},
    )
    board = GAME.dump(state)["boards"][0]
    nice, saboteur = state.boards[0].skeletons[0].token.chief, state.boards[0].forest[0].chief
    yellow_right, red_top, blue_left = 11, 2, 8
    # square << 13 | frozen << 12 | chief << 7 | rested << 6 | model << 2 | facing
    assert board["skeletons"] == [18 << 13 | 1 << 12 | nice << 7 | 1 << 6 | yellow_right << 2 | 3]
    assert board["forest"] == [red_top | saboteur << 4, blue_left]  # model | chief << 4
    assert board["traps"] == [[6, "wall", 1, "\\"]]
    loaded = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    assert loaded.boards[0] == state.boards[0]
    assert loaded.boards[0].skeletons[0] == Skeleton(18, Token(11, nice), 3, True, True)
