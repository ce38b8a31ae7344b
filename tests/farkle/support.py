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


def encode(dice: list[int], event: str | None = None) -> int:
    """The generator draw that ``rules.farkle.dice.throw`` turns into these faces."""
    value = 0 if event is None else FACE_INDEX[event]
    for face in reversed(dice):
        value = value * 6 + face - 1
    return value


def rig(state: FarkleState, *rolls: tuple[list[int], str | None] | int) -> None:
    """Queue rolls: each ``(dice, event)`` is one throw of soldier dice and the event die
    (``event`` None: soldier dice alone, as a Potion of Courage throws them); a bare int is
    queued as it is (a Lucky Squire die, the Siege Engineer's event die, a card pick…)."""
    script: list[int] = []
    for roll in rolls:
        if isinstance(roll, int):
            script.append(roll)
        else:
            script.append(encode(*roll))
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
