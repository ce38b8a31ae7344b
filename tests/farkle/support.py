"""Helpers for Dragon Farkle rule tests: a rigged die, and positions set up by hand."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.core import Action, Event, Rng
from rules.farkle import GAME
from rules.farkle.state import FarkleState

FACE_INDEX = {"dragon": 0, "rally": 1, "blank": 2}


class RiggedRng(Rng):
    """Answers ``randint`` and ``below`` from a script (soldier faces, event die faces), then
    falls back to the real generator. Rule tests ``play`` in place so the script survives."""

    __slots__ = ("script",)

    def __init__(self, seed: int, script: Iterable[int]) -> None:
        super().__init__(seed)
        self.script = list(script)

    def randint(self, lo: int, hi: int) -> int:
        if self.script:
            return self.script.pop(0)
        return super().randint(lo, hi)

    def below(self, n: int) -> int:
        if self.script:
            return self.script.pop(0)
        return super().below(n)


def rig(state: FarkleState, *rolls: tuple[list[int], str] | int) -> None:
    """Queue rolls: each ``(dice, event)`` is the soldier dice then the event die of one roll;
    a bare int is queued as it is (a Lucky Squire die, a shuffle draw…)."""
    script: list[int] = []
    for roll in rolls:
        if isinstance(roll, int):
            script.append(roll)
        else:
            dice, event = roll
            script += dice
            script.append(FACE_INDEX[event])
    old = state.rng
    state.rng = RiggedRng(old.state, script)


def new(
    seats: int = 3, turn: int = 0, armies: Iterable[int] | None = None, **options: Any
) -> FarkleState:
    """A game whose first turn is ``turn``'s, every hand empty and companions unset, so a test
    states exactly what matters."""
    state = GAME.new_game(seats, options, seed=7)
    for p in state.players:
        state.item_deck += p.items
        p.items = []
        p.companion = "none"
    state.companion_deck = []
    state.turn = turn
    if armies is not None:
        for p, a in zip(state.players, armies, strict=True):
            p.army = a
    return state


def give(state: FarkleState, seat: int, *items: str) -> None:
    for item in items:
        state.item_deck.remove(item)
        state.players[seat].items.append(item)


def play(state: FarkleState, seat: int, action: Action) -> list[Event]:
    return GAME.play(state, seat, action, 1000.0)


def stack(state: FarkleState, *items: str) -> None:
    """Put ``items`` on top of the item deck: the first one named is drawn first."""
    for item in reversed(items):
        state.item_deck.remove(item)
        state.item_deck.append(item)
