"""Pig's rules: a small dice game with no parameters and no options, for tests only (it never
ships), the template of docs/adding-a-game.md, which the generic tests take along with the
shipped games (``tests/support/registered.py``: ``generic_games``, ``playing``).

On your turn, ``roll`` a die as often as you like: a 1 loses this turn's points and ends the
turn; ``hold`` banks them and passes the die on. The first to 20 points wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import Action, Command, CommandArgs, Event, Game, Pending, Result, Rng, RulesError

GOAL = 20


@dataclass(frozen=True)
class Roll(Action):
    kind = "roll"


@dataclass(frozen=True)
class Hold(Action):
    kind = "hold"


@dataclass
class PigState:
    seats: int
    scores: list[int]
    turn: int
    pot: int
    rng: int
    face: int = 0  # the last roll (0: none yet), for the picture


class Pig(Game[PigState]):
    name = "pig"
    min_seats = 1
    max_seats = 4
    action_types = (Roll, Hold)
    commands = (Command("roll", button=True), Command("hold", button=True))

    def setup(self, num_seats: int, options: dict[str, Any], seed: int) -> PigState:
        return PigState(num_seats, [0] * num_seats, 0, 0, seed)

    def pending(self, state: PigState) -> dict[int, Pending]:
        if self.is_over(state):
            return {}
        return {state.turn: Pending("turn", Hold(), args={"pot": state.pot})}

    def legal_actions(self, state: PigState, seat: int) -> list[Action]:
        if self.is_over(state) or seat != state.turn:
            return []
        return [Roll(), Hold()] if state.pot else [Roll()]

    def check(self, state: PigState, seat: int, action: Action) -> None:
        # The one place Pig decides legality, with the reason a player reads: typed commands,
        # buttons and ``apply`` all reach it (docs/engine.md, "One legality").
        if self.is_over(state):
            raise RulesError("core.error.game_over")
        if seat != state.turn:
            raise RulesError("core.error.not_your_turn")
        if isinstance(action, Hold) and not state.pot:
            raise RulesError("pig.error.nothing_to_hold")

    def resolve(self, state: PigState, seat: int, action: Action, now: float) -> list[Event]:
        if isinstance(action, Hold):  # (checked: there is something to hold)
            state.scores[seat] += state.pot
            events = [Event("pig.event.held", {"seat": seat, "pot": state.pot})]
            state.pot = 0
            state.turn = (state.turn + 1) % state.seats
            return events
        rng = Rng(state.rng)
        face = state.face = rng.randint(1, 6)
        state.rng = rng.state
        if face == 1:
            state.pot = 0
            state.turn = (state.turn + 1) % state.seats
            return [Event("pig.event.busted", {"seat": seat})]
        state.pot += face
        if state.scores[seat] + state.pot >= GOAL:  # no need to hold a win
            state.scores[seat] += state.pot
            state.pot = 0
        return [Event("pig.event.rolled", {"seat": seat, "face": face})]

    def is_over(self, state: PigState) -> bool:
        return max(state.scores) >= GOAL

    def result(self, state: PigState) -> Result | None:
        if not self.is_over(state):
            return None
        best = max(state.scores)
        winners = tuple(s for s, v in enumerate(state.scores) if v == best)
        return Result(winners, dict(enumerate(state.scores)))

    def dump(self, state: PigState) -> dict[str, Any]:
        return {**vars(state), "scores": list(state.scores)}

    def load(self, data: dict[str, Any]) -> PigState:
        return PigState(**{**data, "scores": list(data["scores"])})

    def view(self, state: PigState, seat: int | None) -> dict[str, Any]:
        # Nothing is hidden in Pig: every seat, and the channel, sees the same.
        return {
            "scores": list(state.scores),
            "turn": state.turn,
            "pot": state.pot,
            "face": state.face,
            "goal": GOAL,
            "over": self.is_over(state),
        }

    def phase(self, state: PigState) -> str:
        return f"{sum(state.scores)}.{state.turn}.{state.pot}"

    def to_command(self, action: Action) -> tuple[str, CommandArgs] | None:
        return action.kind, {}


PIG = Pig()
