"""FUSE's ``hard`` team-mate: always legal, reproducible, and it weighs the next round.

It plays ``normal``'s choices weighed by the next round: the dice the team can expect to place,
less the dice it can expect to lose to the dice nobody places (rolled again, each knocks a
matching die that is not safe off every player's cards)."""

from __future__ import annotations

import pytest

from rules.core.policy import choose, play_bots
from rules.fuse import FUSE
from rules.fuse.cards import EMPTY
from rules.fuse.dice import VALUE_OF
from rules.fuse.game import Take
from rules.fuse.search import Hand, exposure
from tests.fuse.support import position
from tests.support.fingerprint import option_sets


@pytest.mark.parametrize("options", list(option_sets(FUSE)), ids=str)
def test_every_choice_is_legal_in_every_option(options: dict[str, object]) -> None:
    for seed, levels in enumerate([("hard",), ("hard", "hard"), ("hard", "normal", "easy")]):
        state, _ = play_bots(FUSE, levels, seed, options, clock_step=2.0, strict=True)
        assert FUSE.is_over(state)


def test_a_whole_team_of_five_plays_legally_to_the_end() -> None:
    state, _ = play_bots(FUSE, ("hard",) * 5, 3, {}, clock_step=2.0, strict=True)
    assert FUSE.is_over(state)


def test_the_same_position_gives_the_same_choice() -> None:
    state = FUSE.new_game(3, {"mode": "live"}, 7)
    for step in range(150):
        if FUSE.is_over(state):
            break
        seat = min(FUSE.pending(state))
        first = choose(FUSE, state, seat, "hard", strict=True)
        assert choose(FUSE, FUSE.load(FUSE.dump(state)), seat, "hard") == first
        state, _ = FUSE.apply(state, seat, first, 1000.0 + step)


def test_takes_the_card_that_takes_more_dice_where_normal_takes_the_first_listed() -> None:
    # Seat 0 defused a bomb and takes a centre card. 2-06 ([R] [G] [B]) and 2-09 ([R|1] [B|2]
    # [G|3]) both have three slots and are worth 2 points; every die 2-06 takes, 2-09 takes
    # too, and 2-09 takes the 1s, 2s and 3s of any colour besides. Normal takes the first
    # listed of the two; hard takes 2-09, after which more of the next round's dice find a
    # place (the team's other cards take no yellow or black 1, 2 or 3).
    state = position(
        3,
        [["2-12"], ["1-06"], ["2-10"]],
        roll=["Y4", "K6", "B1"],
        centre=["2-06", "2-09", "1-03", "1-11", "2-04"],
    )
    state.taking[0] = True
    assert choose(FUSE, state, 0, "normal") == Take("2-06")
    assert choose(FUSE, state, 0, "hard", strict=True) == Take("2-09")


def test_a_die_rolled_again_knocks_off_the_dice_of_its_colour_or_its_new_number() -> None:
    # Seat 0 has a red 4 on 1-01 ([R|B] [G|Y] [K|R]): a red die rolled again always takes it
    # back (colour), a blue one only when it shows a 4 (one time in six). Seat 1's black 1 and
    # black 2 sit in the stack of 4-07 ([#] < [#] < [#] < [#], bottom first): the 1 under the 2
    # is safe, so only the black 2 on top is at risk.
    red4, black1, black2 = VALUE_OF["R4"], VALUE_OF["K1"], VALUE_OF["K2"]
    hands: list[Hand] = [
        [("1-01", (red4, EMPTY, EMPTY))],
        [("4-07", (black1, black2, EMPTY, EMPTY))],
    ]
    lose = exposure(hands)
    red, blue, black = 0, 1, 4
    assert lose[red] == pytest.approx(1 + 1 / 6)  # seat 0 surely, seat 1 on a 2
    assert lose[blue] == pytest.approx(2 / 6)  # a 4 for seat 0, a 2 for seat 1
    assert lose[black] == pytest.approx(1 / 6 + 1)
