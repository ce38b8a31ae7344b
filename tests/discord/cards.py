"""A test-only game with what tiny lacks: an autocomplete parameter and a multi-select.

"Cards": seats take turns; on your turn either ``pick card:<one of your cards>`` (autocomplete
offers the cards in your hand) or ``keep dice:"a c"`` (a multi-select of the dice a, b, c). Each
seat plays twice, then the game ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from rules.core import (
    Action,
    Command,
    CommandArgs,
    Event,
    Game,
    Param,
    Pending,
    Result,
    RulesError,
)

HAND = ("ace", "king", "queen", "jack", "ten")
DICE = ("a", "b", "c")


@dataclass(frozen=True)
class Pick(Action):
    kind = "pick"
    card: str


@dataclass(frozen=True)
class Keep(Action):
    kind = "keep"
    dice: str


@dataclass
class CardsState:
    seats: int
    hands: list[list[str]]
    turn: int
    plays: int


class Cards(Game[CardsState]):
    name = "cards"
    min_seats = 1
    max_seats = 3
    action_types = (Pick, Keep)
    commands = (
        Command("pick", (Param("card", autocomplete=True),)),
        Command("keep", (Param("dice", autocomplete=True),), select="dice"),
    )

    def setup(self, num_seats: int, options: dict[str, Any], seed: int) -> CardsState:
        return CardsState(num_seats, [list(HAND) for _ in range(num_seats)], 0, 0)

    def pending(self, state: CardsState) -> dict[int, Pending]:
        if self.is_over(state):
            return {}
        return {state.turn: Pending("turn", Keep("a"))}

    def legal_actions(self, state: CardsState, seat: int) -> list[Action]:
        if self.is_over(state) or seat != state.turn:
            return []
        keeps = [" ".join(c) for n in (1, 2, 3) for c in combinations(DICE, n)]
        return [Pick(card) for card in state.hands[seat]] + [Keep(k) for k in keeps]

    def resolve(self, state: CardsState, seat: int, action: Action, now: float) -> list[Event]:
        if seat != state.turn or self.is_over(state):
            raise RulesError("core.error.not_your_turn")
        if isinstance(action, Pick):
            if action.card not in state.hands[seat]:
                raise RulesError("core.error.illegal", command="pick")
            state.hands[seat].remove(action.card)
        state.plays += 1
        state.turn = (state.turn + 1) % state.seats
        return [Event("cards.event.played", {"seat": seat, "what": action.kind})]

    def is_over(self, state: CardsState) -> bool:
        return state.plays >= 2 * state.seats

    def result(self, state: CardsState) -> Result | None:
        return Result(()) if self.is_over(state) else None

    def dump(self, state: CardsState) -> dict[str, Any]:
        return {
            "seats": state.seats,
            "hands": [list(h) for h in state.hands],
            "turn": state.turn,
            "plays": state.plays,
        }

    def load(self, data: dict[str, Any]) -> CardsState:
        return CardsState(
            data["seats"], [list(h) for h in data["hands"]], data["turn"], data["plays"]
        )

    def view(self, state: CardsState, seat: int | None) -> dict[str, Any]:
        return {
            "turn": state.turn,
            "plays": state.plays,
            "hand": state.hands[seat] if seat is not None else None,
        }

    def phase(self, state: CardsState) -> str:
        return f"{state.plays}"

    def to_command(self, action: Action) -> tuple[str, CommandArgs] | None:
        if isinstance(action, Pick):
            return "pick", {"card": action.card}
        if isinstance(action, Keep):
            return "keep", {"dice": action.dice}
        return None


CARDS = Cards()
