"""The state copy (``apply`` makes one per action) is a true deep copy: the copy
shares no mutable object with the original, mutating it leaves the original untouched, and a
copy plays on exactly like the original (replay determinism)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.core import Rng
from rules.fuse import FUSE
from rules.fuse.game import FuseState
from tests.support.copies import mutables


def _states(seed: int, seats: int, options: dict[str, Any] | None = None) -> list[FuseState]:
    """Every state along one random game (the clock moving 1 s per action)."""
    rng = Rng(seed)
    state = FUSE.new_game(seats, options or {}, seed)
    now = 1_000_000.0
    out = [state]
    while not FUSE.is_over(state):
        seat = rng.choice(sorted(FUSE.pending(state)))
        state, _ = FUSE.apply(state, seat, rng.choice(FUSE.legal_actions(state, seat)), now)
        now += 1.0
        out.append(state)
    return out


def _scramble(state: FuseState) -> None:
    """Change everything mutable in ``state``."""
    for name in ("faces", "bag", "drawn", "loose", "deck", "centre", "used", "done", "taking"):
        getattr(state, name).append(getattr(state, name)[0] if getattr(state, name) else 0)
    for name in ("queue", "defused", "fuses"):
        getattr(state, name).append("X")
    for hand in state.hands:
        hand.append("X")
    for dice in state.dice.values():
        dice.append(3)
    state.dice["X"] = [1]
    state.claims[0] = 7
    for owed in state.owing.values():
        owed.append(("X", 0))
    state.owing[9] = []
    state.stage = "over"
    state.rng += 1


@pytest.mark.parametrize("seats", [1, 2, 4, 5])
def test_a_copy_shares_nothing_mutable_with_its_original(seats: int) -> None:
    for state in _states(seats, seats)[::17]:
        copy = FUSE.copy(state)
        assert copy is not state and copy == state
        shared = mutables(state).keys() & mutables(copy).keys()
        assert not shared, [type(mutables(state)[i]).__name__ for i in shared]


def test_mutating_a_copy_never_changes_the_original() -> None:
    for state in _states(3, 4, {"hard": True})[::13]:
        before = json.dumps(FUSE.dump(state), sort_keys=True)
        _scramble(FUSE.copy(state))
        assert json.dumps(FUSE.dump(state), sort_keys=True) == before


def test_a_copy_plays_on_exactly_like_its_original() -> None:
    for state in _states(4, 3)[::41]:
        copy = FUSE.copy(state)
        a, b = Rng(99), Rng(99)
        one, two = state, copy
        now = state.last_now + 1
        for _ in range(40):
            if FUSE.is_over(one):
                break
            seat = a.choice(sorted(FUSE.pending(one)))
            assert seat == b.choice(sorted(FUSE.pending(two)))
            legal = FUSE.legal_actions(one, seat)
            assert legal == FUSE.legal_actions(two, seat)
            action = a.choice(legal)
            assert action == b.choice(legal)
            one, ev1 = FUSE.apply(one, seat, action, now)
            two, ev2 = FUSE.apply(two, seat, action, now)
            now += 1
            assert ev1 == ev2 and one == two
