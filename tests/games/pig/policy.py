"""Pig's computer players (``choose``, rules/core/policy.py): ``normal`` rolls until the turn's
points reach 12 (about where holding pays best in a race to 20; a roll reaching 20 wins by
itself); ``easy`` holds at a threshold drawn anew each time, from 4 to 12. No ``hard`` module:
``hard`` plays ``normal``."""

from __future__ import annotations

from collections.abc import Callable

from rules.core import Action, Rng
from tests.games.pig.game import Hold, Pig, PigState, Roll

NORMAL_HOLD = 12


def choose(game: Pig, state: PigState, seat: int, level: str, dice: Callable[[], Rng]) -> Action:
    if not state.pot:
        return Roll()  # nothing to hold yet
    enough = dice().randint(4, NORMAL_HOLD) if level == "easy" else NORMAL_HOLD
    return Hold() if state.pot >= enough else Roll()
