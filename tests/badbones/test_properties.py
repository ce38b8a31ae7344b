"""Properties over many random legal games: tokens are conserved, nothing leaves the grid,
games end, dump/load is lossless, illegal actions change nothing."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rules.badbones import GAME
from rules.badbones.actions import Move, Place
from rules.badbones.board import BASIC
from rules.badbones.state import (
    HERO,
    LANDING,
    OVER,
    SKELETONS,
    TRAP,
    BadBonesState,
    Skeleton,
    Token,
)
from rules.badbones.traps import Trap
from rules.core import Rng, RulesError
from rules.core.play import random_game
from tests.badbones.helpers import position, token_counts


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


def play_checked(seats: int, seed: int, options: dict[str, object] | None = None) -> BadBonesState:
    rng = Rng(seed * 7 + 1)
    state = GAME.new_game(seats, options, seed)
    steps = 0
    while not GAME.is_over(state):
        check_invariants(state)
        pending = GAME.pending(state)
        assert pending
        seat = rng.choice(sorted(pending))
        actions = GAME.legal_actions(state, seat)
        assert actions and pending[seat].default in actions
        action = rng.choice(actions)
        if steps % 7 == 0:
            data = json.loads(json.dumps(GAME.dump(state)))
            assert GAME.dump(GAME.load(data)) == GAME.dump(state)
            # An illegal action changes nothing.
            wrong = Place("catapult", "C3") if state.stage != HERO else Move("N" * 3)
            before = GAME.dump(state)
            with pytest.raises(RulesError):
                GAME.apply(state, seat, wrong)
            assert GAME.dump(state) == before
            # The public view never shows a hidden submission.
            view = GAME.view(state, None)
            assert view.get("my_submission") is None and "question" not in view
            for other in range(seats):
                if other != seat and other in state.subs:
                    assert GAME.view(state, seat)["my_submission"] != state.subs[other] or (
                        state.subs.get(seat) == state.subs[other]
                    )
        asked = {s: p.asked for s, p in GAME.pending(state).items()}
        state, _ = GAME.apply(state, seat, action)
        if state.stage in (LANDING, SKELETONS):
            # An answered question's buttons are stale (a follow-up is a new question); the
            # questions still open elsewhere keep theirs, whatever this answer did.
            now = {s: p.asked for s, p in GAME.pending(state).items()}
            assert seat not in now or now[seat] != asked.get(seat)
            assert all(now[s] == asked[s] for s in now if s != seat and s in asked)
        steps += 1
        assert steps < 5000
    check_invariants(state)
    assert state.stage == OVER and GAME.result(state) is not None
    return state


@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5, 6])
def test_random_games_keep_the_invariants(seats: int) -> None:
    for seed in range(25):
        play_checked(seats, seed)


def test_random_games_with_automatic_choices_and_heroic_solo() -> None:
    for seed in range(25):
        play_checked(4, seed, {"choices": "auto"})
        play_checked(1, seed, {"heroic": True, "solo_rounds": 3})


def test_many_random_games_end_and_replay_identically() -> None:
    for seed in range(150):
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
