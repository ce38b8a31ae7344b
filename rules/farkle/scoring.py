"""The soldier table: what a set of dice is worth, and whether a roll is a Farkle.

A *selection* (dice set aside from one roll) is legal only if every die in it belongs to a
scoring combination; its value is the best split into combinations (rules file, section 2).
Because straight, three pairs, four-of-a-kind-plus-a-pair and six of a kind use all six dice,
the best split is a short formula over the face counts (:func:`selection_value`); the tests
check it against a brute-force search over every partition.

>>> selection_value((2, 2, 2, 4, 4, 4))
600
>>> selection_value((1, 1, 1, 1, 1))
1600
>>> selection_value((1, 1, 1, 5, 2, 3)) is None  # the 2 and the 3 do not score
True
>>> best_score((1, 1, 1, 5, 2, 3))
1050
>>> is_farkle((2, 3, 3, 6, 6, 2))  # three pairs
False
>>> is_farkle((2, 3, 4, 6))
True
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

TRIPLE = (0, 1000, 200, 300, 400, 500, 600)  # three of a face, by face
SINGLE = (0, 100, 0, 0, 0, 50, 0)  # a lone 1 or 5
FOUR_OF_A_KIND = 1500
THREE_PAIRS = 2000
SIX_OF_A_KIND = 2500
STRAIGHT = 3000


def _face_value(face: int, count: int) -> int | None:
    """The best value of ``count`` dice of one ``face`` on their own (None: some die idles).

    Five of a kind is four of a kind plus a single (D1); two triples of one face would be six of a
    kind, which is worth more."""
    if count == 0:
        return 0
    if count < 3:
        return SINGLE[face] * count if SINGLE[face] else None
    if count == 3:
        return TRIPLE[face]
    if count == 4:
        return FOUR_OF_A_KIND
    if count == 5:
        return FOUR_OF_A_KIND + SINGLE[face] if SINGLE[face] else None
    return SIX_OF_A_KIND


def value_of_counts(counts: Sequence[int], four_pair: bool = True) -> int | None:
    """:func:`selection_value` from face counts (``counts[f]`` dice show ``f``, index 0 unused)."""
    best: int | None = 0
    for face in range(1, 7):
        v = _face_value(face, counts[face])
        if v is None:
            best = None
            break
        best += v  # type: ignore[operator]
    if sum(counts) == 6:
        shape = sorted(c for c in counts[1:] if c)
        whole = 0
        if shape == [1, 1, 1, 1, 1, 1]:
            whole = STRAIGHT
        elif shape == [2, 2, 2] or (four_pair and shape == [2, 4]):
            whole = THREE_PAIRS  # D2: four of a kind plus a pair counts as three pairs
        if whole and (best is None or whole > best):
            best = whole
    return best


def selection_value(dice: Sequence[int], four_pair: bool = True) -> int | None:
    """Soldiers a set-aside selection is worth, or None if some die in it does not score."""
    if not dice:
        return None
    counts = [0] * 7
    for d in dice:
        counts[d] += 1
    return value_of_counts(counts, four_pair)


def is_farkle(roll: Sequence[int]) -> bool:
    """True when no die of the roll can be set aside: no 1, no 5, no triple, no three pairs
    (a straight always has a 1)."""
    counts = [0] * 7
    for d in roll:
        counts[d] += 1
    if counts[1] or counts[5] or max(counts) >= 3:
        return False
    return sorted(c for c in counts if c) != [2, 2, 2]


def options(roll: Sequence[int], four_pair: bool = True) -> tuple[tuple[int, int], ...]:
    """Every legal selection of ``roll`` as ``(mask, value)``: bit ``i`` of ``mask`` is die
    ``i``. Ordered by mask. Empty exactly when the roll is a Farkle. Tuples, not lists: callers
    share them."""
    return search_options(tuple(roll), four_pair)


# Per ordered roll and setting of D2, cached and bounded (the 6^6 ordered rolls fit).
@functools.lru_cache(maxsize=100_000)
def search_options(key: tuple[int, ...], four_pair: bool = True) -> tuple[tuple[int, int], ...]:
    """:func:`options` of a roll given as a tuple (the cache's key)."""
    # Only a 1, a 5 or a die whose face shows three times or more can be part of a selection
    # of fewer than six dice (any other die would idle); a six-dice selection (straight, three
    # pairs, four of a kind plus a pair) is the whole roll. So the search runs over the subsets
    # of those candidate dice (a handful in a usual roll, not all 63 subsets) plus the whole
    # roll; submasks come out in increasing order, so the list stays ordered by mask.
    counts = [0] * 7
    for d in key:
        counts[d] += 1
    cand = 0
    for i, d in enumerate(key):
        if d == 1 or d == 5 or counts[d] >= 3:
            cand |= 1 << i
    out: list[tuple[int, int]] = []
    sub = cand & -cand  # the lowest submask; (sub - cand) & cand is the next one up
    while sub:
        value = mask_value(key, sub, four_pair)
        if value is not None:
            out.append((sub, value))
        sub = (sub - cand) & cand
    if len(key) == 6 and cand != (1 << 6) - 1:
        value = selection_value(key, four_pair)
        if value is not None:
            out.append(((1 << 6) - 1, value))
    return tuple(out)


def best_score(roll: Sequence[int], four_pair: bool = True) -> int:
    """The most soldiers any legal selection of ``roll`` is worth (0 for a Farkle)."""
    return max((v for _, v in options(roll, four_pair)), default=0)


def best_mask(roll: Sequence[int], four_pair: bool = True) -> int:
    """The selection an absent player keeps: the highest value, then the fewest dice (more
    dice left to roll). 0 for a Farkle."""
    best = (0, 0, 0)
    for mask, value in options(roll, four_pair):
        key = (value, -mask.bit_count(), -mask)
        if best == (0, 0, 0) or key > best:
            best = key
    return -best[2]


def all_scoring_mask(roll: Sequence[int], four_pair: bool = True) -> int:
    """ "All the scoring dice" (dragon face, Final Battle): the legal selection with the most
    dice, then the highest value. 0 for a Farkle."""
    best: tuple[int, int, int] | None = None
    for mask, value in options(roll, four_pair):
        key = (mask.bit_count(), value, -mask)
        if best is None or key > best:
            best = key
    return 0 if best is None else -best[2]


def mask_value(roll: Sequence[int], mask: int, four_pair: bool = True) -> int | None:
    """The value of the dice of ``mask`` (None: empty, or some die does not score)."""
    return selection_value([d for i, d in enumerate(roll) if mask >> i & 1], four_pair)


def half(amount: int) -> int:
    """Half of ``amount`` soldiers, rounded down to a multiple of 50 (soldiers come in fifties):
    what the dragon eats with the Dragon Whisperer, a brawl moves past a Tower Shield, a Healing
    Draught banks."""
    return (amount // 2) // 50 * 50
