"""Nim's computer players: ``normal`` (and ``hard``) leave a multiple of four sticks when they
can, which wins with two players; ``easy`` takes a random amount."""

from __future__ import annotations

from collections.abc import Callable

from rules.core import Action, Rng
from tests.games.nim.game import MOST, Nim, NimState, Take


def choose(game: Nim, state: NimState, seat: int, level: str, dice: Callable[[], Rng]) -> Action:
    most = min(MOST, state.left)
    if level != "easy" and state.left % (MOST + 1):
        return Take(state.left % (MOST + 1))
    return Take(dice().randint(1, most))
