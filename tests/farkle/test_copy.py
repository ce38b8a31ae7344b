"""The state copy (``apply`` makes one per action; the engine's default, ``load(dump(state))``)
is a true deep copy: the copy shares no mutable object with the original, mutating it leaves
the original untouched, and a copy plays on exactly like the original (replay determinism)."""

from __future__ import annotations

import json

import pytest

from rules.core import Rng
from rules.farkle import GAME
from rules.farkle.state import FarkleState
from tests.support.copies import mutables


def _states(seed: int, seats: int) -> list[FarkleState]:
    """Every state along one random game."""
    rng = Rng(seed)
    state = GAME.new_game(seats, {}, seed)
    out = [state]
    while not GAME.is_over(state):
        seat = rng.choice(sorted(GAME.pending(state)))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)), 0.0)
        out.append(state)
    return out


def _scramble(state: FarkleState) -> None:
    """Change everything mutable in ``state``."""
    for p in state.players:
        p.army += 50
        p.items.append("poster")
        p.in_keep = not p.in_keep
    state.item_deck.clear()
    state.item_discard.append("shield")
    state.companion_deck.reverse()
    state.companion_discard.append("medic")
    for run in (state.attack, state.defence):
        if run is not None:
            run.roll.append(1)
            run.aside.append(5)
            run.gained.append("cloak")
            run.score += 50
    state.restrict.setdefault(0, []).append("bag")
    for items in state.restrict.values():
        items.append("arrow")
    state.last["outcome"] = "scrambled"
    for run in state.last.get("runs", []):
        run["score"] = -1
        run["roll"].append(1)
    state.rng.next64()
    state.stage = "over"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_copy_shares_nothing_mutable_with_its_original(seed: int) -> None:
    for state in _states(seed, 2 + seed)[::3]:
        copy = GAME.copy(state)
        assert copy is not state
        assert GAME.dump(copy) == GAME.dump(state)
        shared = mutables(state).keys() & mutables(copy).keys()
        assert not shared, [type(mutables(state)[i]).__name__ for i in shared]


@pytest.mark.parametrize("seed", [4, 5])
def test_mutating_a_copy_never_changes_the_original(seed: int) -> None:
    for state in _states(seed, 4)[::5]:
        before = json.dumps(GAME.dump(state), sort_keys=True)
        copy = GAME.copy(state)
        _scramble(copy)
        assert json.dumps(GAME.dump(state), sort_keys=True) == before


def test_a_copy_plays_on_exactly_like_its_original() -> None:
    for state in _states(6, 3)[::11]:
        copy = GAME.copy(state)
        a, b = Rng(99), Rng(99)
        one, two = state, copy
        for _ in range(40):
            if GAME.is_over(one):
                break
            seat = a.choice(sorted(GAME.pending(one)))
            assert seat == b.choice(sorted(GAME.pending(two)))
            legal = GAME.legal_actions(one, seat)
            assert legal == GAME.legal_actions(two, seat)
            action = a.choice(legal)
            assert action == b.choice(legal)
            one, ev1 = GAME.apply(one, seat, action, 5.0)
            two, ev2 = GAME.apply(two, seat, action, 5.0)
            assert ev1 == ev2 and GAME.dump(one) == GAME.dump(two)
