"""The icon grammar of the bomb cards and the completability check."""

from __future__ import annotations

import itertools
import random

import pytest

from rules.fuse.cards import (
    ALL_VALUES,
    BLACK,
    BLUE,
    EMPTY,
    GREEN,
    RED,
    YELLOW,
    BombCard,
    die,
    house_deck,
    parse_card,
)
from tests.fuse.support import card

DECK = house_deck()


def V(token: str) -> int:  # noqa: N802 - a die literal, like R4
    return die("RBGYK".index(token[0]), int(token[1:]))


def filled(c: BombCard, *tokens: str | None) -> tuple[int, ...]:
    values = [V(t) if t else EMPTY for t in tokens]
    return tuple(values + [EMPTY] * (len(c.slots) - len(values)))


def legal(card_id: str, slot: int, token: str, *before: str | None) -> bool:
    c = card(card_id)
    return c.can_place(filled(c, *before), slot, V(token))


# ------------------------------------------------------------------ the deck


def test_the_house_deck_has_49_standard_5_hard_and_11_fuse_cards() -> None:
    levels = [c.level for c in DECK.bombs.values() if not c.hard]
    assert [levels.count(n) for n in (1, 2, 3, 4)] == [12, 13, 12, 12]
    hard = [c for c in DECK.bombs.values() if c.hard]
    assert len(hard) == 5 and all(c.points == 6 for c in hard)
    assert all(c.points == c.level for c in DECK.bombs.values() if not c.hard)
    assert sorted(DECK.fuses) == sorted(f"F-{m}" for m in "RBGYK123456")


def test_the_deck_uses_every_icon_kind_of_the_grammar() -> None:
    slots = [s for c in DECK.bombs.values() for s in c.slots]
    marks = {s.mark for s in slots}
    assert {"", "?", "#", "*", "#|*", "#*"} <= marks
    kinds = {(r.kind, r.attr) for c in DECK.bombs.values() for r in c.relations}
    assert {("eq", "number"), ("ne", "number"), ("lt", "number"), ("gt", "number")} <= kinds
    assert {("sum", "number"), ("sums", "number")} <= kinds
    assert {("eq", "colour"), ("ne", "colour"), ("eq", "either"), ("eq", "both")} <= kinds
    plain = [s.alts for s in slots if s.mark == ""]
    assert any(len(a) == 1 and a[0][0] is not None and a[0][1] is None for a in plain)  # colour
    assert any(len(a) == 1 and a[0][0] is None and a[0][1] is not None for a in plain)  # number
    assert any(len(a) == 1 and None not in a[0] for a in plain)  # colour + number
    assert any(len(a) == 2 and a[0][1] is None and a[1][1] is None for a in plain)  # 2 colours
    assert any(len(a) == 2 and a[0][0] is None and a[1][0] is None for a in plain)  # 2 numbers
    assert any(len(a) == 2 and a[0][1] is None and a[1][0] is None for a in plain)  # colour|number
    layouts = [tuple(p.layout for p in c.parts) for c in DECK.bombs.values()]
    assert ("stack",) in layouts and ("stack", "stack") in layouts and ("pyramid",) in layouts


def test_every_card_can_be_defused_from_empty() -> None:
    for c in DECK.bombs.values():
        assert c.completable(tuple([EMPTY] * len(c.slots))), c.id


# ------------------------------------------------------------------ plain icons


def test_a_colour_slot_takes_any_number_of_that_colour() -> None:
    assert legal("2-06", 0, "R1") and legal("2-06", 0, "R6")
    assert not legal("2-06", 0, "B1")


def test_a_number_slot_takes_that_number_in_any_colour() -> None:
    assert legal("4-04", 0, "R2") and legal("4-04", 0, "K2")
    assert not legal("4-04", 0, "R3")


def test_a_colour_and_number_slot_takes_only_that_die() -> None:
    assert legal("3-05", 2, "B4")
    assert not legal("3-05", 2, "B3") and not legal("3-05", 2, "G4")


def test_a_blank_slot_takes_any_die() -> None:
    assert all(legal("1-07", 0, f"{c}{n}") for c in "RBGYK" for n in range(1, 7))


def test_split_slots_take_either_condition() -> None:
    assert legal("1-01", 0, "R3") and legal("1-01", 0, "B3") and not legal("1-01", 0, "G3")
    assert legal("2-03", 0, "K5") and legal("2-03", 0, "R1") and not legal("2-03", 0, "R2")
    assert legal("1-10", 0, "Y1") and legal("1-10", 0, "Y6") and not legal("1-10", 0, "Y3")


# ------------------------------------------------------------------ relations


def test_hash_equal_needs_the_same_number() -> None:
    assert legal("3-02", 1, "B3", "R3") and not legal("3-02", 1, "B4", "R3")


def test_hash_different_needs_different_numbers() -> None:
    assert legal("1-11", 1, "R4", "R3") and not legal("1-11", 1, "B3", "R3")


def test_greater_and_lower_hold_between_neighbours() -> None:
    # [4] > [#] > [#]
    assert legal("2-02", 1, "K3", "R4") and not legal("2-02", 1, "K5", "R4")
    # [#] > [#] < [#]: the middle is below both sides
    assert legal("1-05", 2, "G2", "R5", "B1") and not legal("1-05", 2, "G1", "R5", "B1")


def test_a_sum_must_reach_its_total() -> None:
    assert legal("3-10", 1, "Y4", "R3") and not legal("3-10", 1, "Y5", "R3")
    # [R] + [B] = 7 keeps the colours of its slots
    assert legal("3-04", 1, "B1", "R6") and not legal("3-04", 1, "G1", "R6")


def test_equal_sums() -> None:
    # [#] + [#] = [#] + [#]
    assert legal("2-04", 3, "G1", "R3", "B2", "K4")
    assert not legal("2-04", 3, "G2", "R3", "B2", "K4")


def test_rainbow_equal_needs_one_colour_and_different_needs_all_colours() -> None:
    assert legal("2-05", 1, "R6", "R1") and not legal("2-05", 1, "B1", "R1")
    assert legal("1-03", 1, "B1", "R1") and not legal("1-03", 1, "R6", "R1")


def test_hash_or_rainbow_equal_shares_a_number_or_a_colour_over_the_whole_run() -> None:
    assert legal("2-01", 1, "B4", "R4") and legal("2-01", 1, "R1", "R4")
    assert not legal("2-01", 1, "B1", "R4")
    # R4 B4 then G4 (all 4s) fits; R4 R1 then R6 (all red) fits; R4 B4 then B6 mixes: refused
    assert legal("2-01", 2, "G4", "R4", "B4") and legal("2-01", 2, "R6", "R4", "R1")
    assert not legal("2-01", 2, "B6", "R4", "B4")


def test_hash_and_rainbow_needs_an_identical_die() -> None:
    assert legal("4-06", 1, "Y5", "Y5")
    assert not legal("4-06", 1, "Y4", "Y5") and not legal("4-06", 1, "R5", "Y5")


def test_a_coloured_hash_slot_keeps_its_colour() -> None:
    # [#] = [#] = [B#]
    assert legal("4-05", 2, "B2", "R2", "G2") and not legal("4-05", 2, "K2", "R2", "G2")


# ------------------------------------------------------------------ completability


def test_a_placement_that_leaves_the_card_impossible_is_refused() -> None:
    # [#] < [#] < [#] < [#]: a 4 first leaves only 5 and 6 for three rising slots.
    assert legal("3-06", 0, "R3") and not legal("3-06", 0, "R4")
    # the third slot of the same card cannot be a 2 (two lower numbers must fit below it)
    assert not legal("3-06", 2, "R2") and legal("3-06", 2, "R3")
    # [4] > [#] > [#]: a 1 in the middle leaves nothing for the last slot
    assert not legal("2-02", 1, "K1") and legal("2-02", 1, "K2")
    # [#] > [#] < [#]: a 6 in the middle can never be below its neighbours
    assert not legal("1-05", 1, "K6")
    # [#|*] ×3: after R4 and B1 (no shared number or colour) nothing fits
    assert not legal("2-01", 1, "B1", "R4")
    # five different colours: a second red is refused
    assert not legal("4-12", 1, "R2", "R1")


def test_stacks_are_built_bottom_up_and_keep_their_order() -> None:
    c = card("4-01")  # stack: [#] > [#] > [#] > [#]
    assert not c.supported(filled(c), 1)
    assert legal("4-01", 0, "R6") and not legal("4-01", 1, "R5")
    assert legal("4-01", 1, "R5", "R6") and not legal("4-01", 1, "R6", "R6")
    # a 3 at the bottom leaves no room for three falling numbers above it
    assert not legal("4-01", 0, "R3")


def test_a_die_under_another_in_a_stack_is_safe() -> None:
    c = card("4-03")  # stack: [Y] [R] [B] [G]
    f = filled(c, "Y1", "R1")
    assert c.safe(f, 0) and not c.safe(f, 1)


def test_pyramids_need_both_dice_below() -> None:
    c = card("6-02")  # [K] [R] [K] / [B] [G] / [Y]
    assert c.supported(filled(c), 0) and not c.supported(filled(c), 3)
    assert not c.supported(filled(c, "K1"), 3)
    assert c.supported(filled(c, "K1", "R1"), 3) and not c.supported(filled(c, "K1", "R1"), 4)
    f = filled(c, "K1", "R1", "K2", "B3")
    assert c.safe(f, 0) and c.safe(f, 1) and not c.safe(f, 2) and not c.safe(f, 3)
    assert not c.supported(f, 5)


def test_double_stacks_are_two_towers() -> None:
    c = card("6-04")  # stack: [1|2] [3|4] [5|6] ; stack: [R|Y] [K|B] [R|G]
    assert c.supported(filled(c), 0) and c.supported(filled(c), 3)
    assert not c.supported(filled(c), 4) and c.supported(filled(c, None, None, None, "R1"), 4)


def test_the_notation_rejects_nonsense() -> None:
    for bad in ("[X]", "[7]", "pyramid: [1] [2] / [3]", "[1] / [2]", "= [1]", "[1] @ [2]"):
        with pytest.raises(ValueError):
            parse_card("x", 1, 1, bad)


def _brute(c: BombCard, values: tuple[int, ...]) -> bool:
    empty = [s for s, v in enumerate(values) if v < 0]
    lo = [1] * len(values)
    hi = [6] * len(values)
    for combo in itertools.product(ALL_VALUES, repeat=len(empty)):
        trial = list(values)
        for s, v in zip(empty, combo, strict=True):
            trial[s] = v
        if all(c.slots[s].accepts(v) for s, v in enumerate(trial)) and all(
            r.holds(trial, lo, hi) for r in c.relations
        ):
            return True
    return False


def test_the_completability_search_agrees_with_brute_force() -> None:
    rng = random.Random(7)
    for c in DECK.bombs.values():
        for _ in range(6):
            n = len(c.slots)
            keep_empty = set(rng.sample(range(n), min(2, n)))
            values = tuple(
                EMPTY if s in keep_empty else rng.choice(sorted(c.slots[s].domain))
                for s in range(n)
            )
            assert c.completable(values) == _brute(c, values), (c.id, values)


def test_colour_constants_follow_the_notation() -> None:
    assert [RED, BLUE, GREEN, YELLOW, BLACK] == [0, 1, 2, 3, 4]


def test_memoised_placements_agree_with_a_fresh_search() -> None:
    """``can_place`` memoises on a reduced key; it must answer as a fresh search would, for
    every card, over random sequences of legal placements."""
    from rules.fuse.cards import _search

    rng = random.Random(11)
    for c in DECK.bombs.values():
        for _ in range(25):
            values = [EMPTY] * len(c.slots)
            while EMPTY in values:
                value = rng.randrange(30)
                for s in range(len(values)):
                    fresh = (
                        values[s] < 0
                        and c.fits(s, value)
                        and c.supported(tuple(values), s)
                        and _search(c, values[:s] + [value] + values[s + 1 :])
                    )
                    assert c.can_place(tuple(values), s, value) == fresh, (c.id, values, s, value)
                    assert (s in c.legal_slots(tuple(values), value)) == fresh
                options = [s for s in range(len(values)) if c.can_place(tuple(values), s, value)]
                if options:
                    values[rng.choice(options)] = value
                elif rng.random() < 0.05:
                    break
