"""The soldier table: check values from the rules file, and every roll of 1–6 dice scored two
independent ways (the engine's formula over face counts vs a brute-force search over every
partition of every subset into the table's combinations)."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, product

import pytest

from rules.farkle import scoring
from rules.farkle.dice import faces, facts, tokens


@pytest.mark.parametrize(
    ("dice", "value"),
    [
        ((2, 2, 2, 4, 4, 4), 600),  # D3: two triples score separately
        ((1, 2, 3, 4, 5, 6), 3000),
        ((2, 2, 3, 3, 6, 6), 2000),
        ((3, 3, 3, 3, 3, 3), 2500),
        ((1, 1, 1, 1, 1), 1600),  # D1: four of a kind plus a single
        ((1,), 100),
        ((5,), 50),
        ((1, 1, 1), 1000),
        ((6, 6, 6), 600),
        ((4, 4, 4, 4), 1500),
        ((2, 2, 2, 2, 3, 3), 2000),  # D2: four of a kind plus a pair
        ((5, 5, 5, 5, 5), 1550),
        ((1, 1, 5), 250),
    ],
)
def test_check_values(dice: tuple[int, ...], value: int) -> None:
    assert scoring.selection_value(dice) == value


def test_best_of_a_roll_with_idle_dice() -> None:
    assert scoring.best_score((1, 1, 1, 5, 2, 3)) == 1050
    assert scoring.selection_value((1, 1, 1, 5, 2, 3)) is None


def test_four_pair_option_off() -> None:
    assert scoring.selection_value((2, 2, 2, 2, 3, 3), four_pair=False) is None
    assert scoring.selection_value((2, 2, 2, 2, 1, 1), four_pair=False) == 1700
    assert scoring.selection_value((2, 2, 2, 2, 1, 1), four_pair=True) == 2000


def test_five_of_a_kind_of_a_non_scoring_face_leaves_a_die_idle() -> None:
    assert scoring.selection_value((2, 2, 2, 2, 2)) is None
    assert scoring.best_score((2, 2, 2, 2, 2)) == 1500


# ---------------------------------------------------------------- brute force


def _combos(four_pair: bool) -> list[tuple[int, ...]]:
    """Every row of the soldier table as a sorted multiset of faces, with its value below."""
    rows: list[tuple[int, ...]] = [(1,), (5,)]
    rows += [(f,) * 3 for f in range(1, 7)]
    rows += [(f,) * 4 for f in range(1, 7)]
    rows += [(f,) * 6 for f in range(1, 7)]
    rows.append((1, 2, 3, 4, 5, 6))
    for a, b, c in combinations(range(1, 7), 3):
        rows.append(tuple(sorted((a, a, b, b, c, c))))
    if four_pair:
        for a in range(1, 7):
            for b in range(1, 7):
                if a != b:
                    rows.append(tuple(sorted((a,) * 4 + (b, b))))
    return rows


def _row_value(row: tuple[int, ...]) -> int:
    if len(row) == 1:
        return 100 if row[0] == 1 else 50
    if len(set(row)) == 1:
        return {3: (1000 if row[0] == 1 else row[0] * 100), 4: 1500, 6: 2500}[len(row)]
    if len(set(row)) == 6:
        return 3000
    return 2000  # three pairs, or four of a kind plus a pair


ROWS = {fp: [(r, _row_value(r)) for r in _combos(fp)] for fp in (True, False)}


def _minus(have: tuple[int, ...], row: tuple[int, ...]) -> tuple[int, ...] | None:
    rest = list(have)
    for d in row:
        if d not in rest:
            return None
        rest.remove(d)
    return tuple(rest)


@cache
def brute_partition(dice: tuple[int, ...], four_pair: bool) -> int | None:
    """The best value of a split of ``dice`` (sorted) into table rows using every die."""
    if not dice:
        return 0
    best: int | None = None
    for row, value in ROWS[four_pair]:
        if row[0] != dice[0] and dice[0] not in row:
            continue  # every split covers the smallest die; try only rows holding it
        rest = _minus(dice, row)
        if rest is None:
            continue
        sub = brute_partition(rest, four_pair)
        if sub is not None and (best is None or value + sub > best):
            best = value + sub
    return best


@cache
def brute_roll(roll: tuple[int, ...], four_pair: bool) -> tuple[int, bool]:
    """Best score over every subset of positions, and whether no subset scores (Farkle)."""
    best, any_legal = 0, False
    n = len(roll)
    for mask in range(1, 1 << n):
        chosen = tuple(sorted(roll[i] for i in range(n) if mask >> i & 1))
        value = brute_partition(chosen, four_pair)
        if value is not None:
            any_legal = True
            best = max(best, value)
    return best, not any_legal


@pytest.mark.parametrize("four_pair", [True, False])
def test_every_roll_of_one_to_six_dice_two_ways(four_pair: bool) -> None:
    checked = 0
    for k in range(1, 7):
        for roll in product(range(1, 7), repeat=k):
            sorted_roll = tuple(sorted(roll))
            # The formula over counts vs the partition search, for the whole roll as a selection.
            assert scoring.selection_value(roll, four_pair) == brute_partition(
                sorted_roll, four_pair
            )
            best, farkle = brute_roll(sorted_roll, four_pair)
            assert scoring.best_score(roll, four_pair) == best, roll
            assert scoring.is_farkle(roll) == farkle, roll
            assert (not scoring.options(roll, four_pair)) == farkle
            checked += 1
    assert checked == sum(6**k for k in range(1, 7))


def test_options_list_exactly_the_legal_position_subsets() -> None:
    roll = (1, 5, 2, 2, 2, 3)
    masks = {m for m, _ in scoring.options(roll)}
    assert 0b000001 in masks and 0b000010 in masks and 0b011100 in masks
    assert 0b100000 not in masks  # the 3 alone
    assert scoring.all_scoring_mask(roll) == 0b011111
    assert scoring.best_mask(roll) == 0b011111  # 1 + 5 + 2-2-2 = 350


def test_the_engines_roll_facts_agree_with_the_soldier_table() -> None:
    """The engine answers its questions about a roll from one cached set of facts
    (``dice.facts``); each answer must be what the scoring functions say, for every roll of up to
    four dice and a seeded sample of five and six, with and without D2."""
    rng = random.Random(6)
    rolls = [list(r) for n in range(1, 5) for r in product(range(1, 7), repeat=n)]
    rolls += [[rng.randint(1, 6) for _ in range(n)] for n in (5, 6) for _ in range(1500)]
    for four_pair in (True, False):
        for roll in rolls:
            found = facts(roll, four_pair)
            opts = scoring.options(roll, four_pair)
            at = [tuple(i for i in range(len(roll)) if m >> i & 1) for m, _ in opts]
            picked = [tuple(roll[i] for i in dice) for dice in at]
            assert found.faces == faces(roll)
            assert found.texts == tuple(tokens(roll, dice) for dice in at)
            assert found.selections == tuple(
                (dice, v, p, tokens(roll, dice))
                for dice, (_, v), p in zip(at, opts, picked, strict=True)
            )
            if not opts:  # a Farkle
                assert found.default == "" and found.eaten == ((), 0, (), "")
                continue
            best = scoring.best_mask(roll, four_pair)
            assert found.default == tokens(roll, [i for i in range(len(roll)) if best >> i & 1])
            eat = scoring.all_scoring_mask(roll, four_pair)
            value = scoring.mask_value(roll, eat, four_pair)
            eaten = tuple(i for i in range(len(roll)) if eat >> i & 1)
            aside = tuple(roll[i] for i in eaten)
            assert found.eaten == (eaten, value, aside, tokens(roll, eaten))
