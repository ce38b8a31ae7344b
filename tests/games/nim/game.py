"""Nim's rules, a throw-away game kept in tests to show a game lands as its folder and one line
(docs/adding-a-game.md): one pile of sticks (option ``sticks``, 15); in turn, each player takes
1, 2 or 3 of them (command ``take``, a parameter and a button per amount); whoever takes the
last stick wins. Unlike Pig it has a parameter (a button per amount) and an option.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import (
    Action,
    Command,
    CommandArgs,
    Event,
    Game,
    OptionSpec,
    Param,
    Pending,
    Result,
    RulesError,
)

MOST = 3  # sticks one may take at once


@dataclass(frozen=True)
class Take(Action):
    kind = "take"
    count: int


@dataclass
class NimState:
    seats: int
    left: int
    turn: int
    winner: int = -1  # who took the last stick


class Nim(Game[NimState]):
    name = "nim"
    min_seats = 2
    max_seats = 4
    option_specs = (OptionSpec("sticks", "int", 15, min=5, max=30),)
    action_types = (Take,)
    commands = (Command("take", (Param("count", "int", choices=("1", "2", "3")),), button=True),)

    def setup(self, num_seats: int, options: dict[str, Any], seed: int) -> NimState:
        return NimState(num_seats, options["sticks"], seed % num_seats)

    def pending(self, state: NimState) -> dict[int, Pending]:
        if self.is_over(state):
            return {}
        return {state.turn: Pending("take", Take(1), args={"left": state.left})}

    def legal_actions(self, state: NimState, seat: int) -> list[Action]:
        if self.is_over(state) or seat != state.turn:
            return []
        return [Take(n) for n in range(1, min(MOST, state.left) + 1)]

    def check(self, state: NimState, seat: int, action: Action) -> None:
        if self.is_over(state):
            raise RulesError("core.error.game_over")
        if seat != state.turn:
            raise RulesError("core.error.not_your_turn")
        # (A typed count that is no number reaches here as text: refused like a 4.)
        if not isinstance(action, Take) or action.count not in range(1, MOST + 1):
            raise RulesError("nim.error.one_to_three")
        if action.count > state.left:
            raise RulesError("nim.error.not_that_many", left=state.left)

    def resolve(self, state: NimState, seat: int, action: Action, now: float) -> list[Event]:
        assert isinstance(action, Take)  # (checked)
        state.left -= action.count
        if not state.left:
            state.winner = seat
            return [Event("nim.event.last", {"seat": seat, "count": action.count})]
        state.turn = (state.turn + 1) % state.seats
        return [Event("nim.event.took", {"seat": seat, "count": action.count, "left": state.left})]

    def is_over(self, state: NimState) -> bool:
        return state.winner >= 0

    def result(self, state: NimState) -> Result | None:
        if not self.is_over(state):
            return None
        return Result((state.winner,), {s: int(s == state.winner) for s in range(state.seats)})

    def dump(self, state: NimState) -> dict[str, Any]:
        return dict(vars(state))

    def load(self, data: dict[str, Any]) -> NimState:
        return NimState(**data)

    def view(self, state: NimState, seat: int | None) -> dict[str, Any]:
        return {"left": state.left, "turn": state.turn, "winner": state.winner}

    def phase(self, state: NimState) -> str:
        return f"{state.left}.{state.turn}"

    def to_command(self, action: Action) -> tuple[str, CommandArgs] | None:
        assert isinstance(action, Take)
        return "take", {"count": action.count}


NIM = Nim()
