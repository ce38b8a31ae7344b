"""FUSE's computer player: always legal, reproducible, and it defuses when it can."""

from __future__ import annotations

import pytest

from rules.core import Action, Event
from rules.core.policy import choose, play_bots
from rules.fuse import FUSE
from rules.fuse.game import Claim, FuseState, Place
from tests.fuse.support import position
from tests.support.fingerprint import option_sets


def act(state: FuseState, seat: int, action: Action) -> tuple[FuseState, list[Event]]:
    return FUSE.apply(state, seat, action, 1000.0)


@pytest.mark.parametrize("options", list(option_sets(FUSE)), ids=str)
def test_every_choice_is_legal_in_every_option(options: dict[str, object]) -> None:
    for seed, levels in enumerate([("normal",), ("normal", "easy"), ("easy", "random", "normal")]):
        state, _ = play_bots(FUSE, levels, seed, options, clock_step=2.0, strict=True)
        assert FUSE.is_over(state)


def test_the_same_position_gives_the_same_choice() -> None:
    state = FUSE.new_game(3, {"mode": "relaxed"}, 4)
    for _ in range(80):
        if FUSE.is_over(state):
            break
        seat = min(FUSE.pending(state))
        first = choose(FUSE, state, seat, "easy")
        assert choose(FUSE, FUSE.load(FUSE.dump(state)), seat, "easy") == first
        assert choose(FUSE, state, seat, "normal") == choose(FUSE, state, seat, "normal")
        state, _ = act(state, seat, first)


def test_claims_and_places_the_die_that_defuses_a_bomb() -> None:
    # 1-01 is [R|B] [G|Y] [K|R] with red and green placed: only the black 3 completes it. The
    # blue 5 and the yellow 4 would fit the empty 1-02 too, but a defused bomb comes first.
    state = position(
        3,
        [["1-01", "1-02"], ["1-09", "2-03"], ["1-10", "3-11"]],
        roll=["B5", "K3", "Y4"],
        placed={"1-01": ["R1", "G2", None]},
    )
    assert choose(FUSE, state, 0, "normal") == Claim("K3")
    state, _ = act(state, 0, Claim("K3"))
    assert choose(FUSE, state, 0, "normal") == Place("1-01", 3)


def test_leaves_a_die_to_the_teammate_who_defuses_with_it() -> None:
    # Seat 1 can defuse 1-01 with the black 3; seat 0 could only start a card with it, so seat 0
    # takes another die and leaves the black 3 to its teammate.
    state = position(
        3,
        [["1-02", "1-09"], ["1-01", "2-03"], ["1-10", "3-11"]],
        roll=["B5", "K3", "Y4"],
        placed={"1-01": ["R1", "G2", None]},
    )
    claim = choose(FUSE, state, 0, "normal")
    assert isinstance(claim, Claim) and claim.die != "K3"
    assert choose(FUSE, state, 1, "normal") == Claim("K3")


def test_does_not_pass_while_its_die_fits_and_the_teammate_has_another() -> None:
    # Seat 1 defuses 1-01 ([R|B] [G|Y] [K|R], red and green placed) with the black 3 or the red
    # 4; seat 0's 2-03 ([K|1] [K|2] [K|3]) takes only the black 3. Seat 0 claims the black 3
    # (one die fewer still needed) and seat 1 defuses with the red 4: nobody passes.
    state = position(
        3,
        [["2-03"], ["1-01"], ["2-06"]],
        roll=["K3", "R4"],
        placed={"1-01": ["R1", "G2", None]},
    )
    assert choose(FUSE, state, 0, "normal") == Claim("K3")
    assert choose(FUSE, state, 1, "normal") == Claim("R4")
