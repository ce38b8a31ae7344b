"""A tiny game for testing the platform without a real game (it never ships in the product).

"Bid and take": each round, every seat secretly bids 1–3 (a simultaneous phase); the highest
unique bid scores that many points. Then, in seat order, each seat may ``take`` one point from
the pot or ``pass`` (a turn-based phase). After ``rounds`` rounds (option), most points wins.
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
    Registration,
    Result,
    Rng,
    RulesError,
    register,
)


@dataclass(frozen=True)
class Bid(Action):
    kind = "bid"
    amount: int


@dataclass(frozen=True)
class Take(Action):
    kind = "take"


@dataclass(frozen=True)
class Pass(Action):
    kind = "pass"


@dataclass
class TinyState:
    seats: int
    rounds: int
    round: int
    phase: str  # "bid" | "take" | "over"
    bids: dict[int, int]
    turn: int
    scores: list[int]
    rng: int


class Tiny(Game[TinyState]):
    name = "tiny"
    min_seats = 1
    max_seats = 4
    option_specs = (OptionSpec("rounds", "int", 2, min=1, max=9),)
    action_types = (Bid, Take, Pass)
    commands = (
        Command("bid", (Param("amount", "int", choices=("1", "2", "3")),), button=True),
        Command("take", button=True),
        Command("pass", button=True),
    )

    def setup(self, num_seats: int, options: dict[str, Any], seed: int) -> TinyState:
        return TinyState(num_seats, options["rounds"], 1, "bid", {}, 0, [0] * num_seats, seed)

    def pending(self, state: TinyState) -> dict[int, Pending]:
        if state.phase == "bid":
            return {s: Pending("bid", Bid(1)) for s in range(state.seats) if s not in state.bids}
        if state.phase == "take":
            return {state.turn: Pending("take", Pass())}
        return {}

    def legal_actions(self, state: TinyState, seat: int) -> list[Action]:
        if state.phase == "bid":
            return [Bid(n) for n in (1, 2, 3)]
        if state.phase == "take" and seat == state.turn:
            return [Take(), Pass()]
        return []

    def sealed(self, state: TinyState, seat: int) -> bool:
        return state.phase == "bid" and seat in state.bids

    def withdraw(self, state: TinyState, seat: int) -> list[Event]:
        del state.bids[seat]
        return []

    def check(self, state: TinyState, seat: int, action: Action) -> None:
        if state.phase == "over":
            raise RulesError("core.error.game_over")
        if isinstance(action, Bid):
            if state.phase != "bid":
                raise RulesError("core.error.wrong_phase")
            if action.amount not in (1, 2, 3):
                raise RulesError("core.error.bad_action")  # bids are 1, 2 or 3
            return
        if not isinstance(action, Take | Pass):
            raise RulesError("core.error.bad_action")
        if state.phase != "take":
            raise RulesError("core.error.wrong_phase")
        if seat != state.turn:
            raise RulesError("core.error.not_your_turn")

    def resolve(self, state: TinyState, seat: int, action: Action, now: float) -> list[Event]:
        if isinstance(action, Bid):
            state.bids[seat] = action.amount
            events = [Event("tiny.event.bid", {"seat": seat, "amount": action.amount}, to=seat)]
            if len(state.bids) == state.seats:
                events += self._resolve_bids(state)
            return events
        events = []
        if isinstance(action, Take):
            state.scores[seat] += 1
            events.append(Event("tiny.event.take", {"seat": seat}))
        state.turn += 1
        if state.turn == state.seats:
            state.round += 1
            state.turn = 0
            state.phase = "bid" if state.round <= state.rounds else "over"
        return events

    def _resolve_bids(self, state: TinyState) -> list[Event]:
        amounts = list(state.bids.values())
        unique = [a for a in amounts if amounts.count(a) == 1]
        events = [Event("tiny.event.reveal", {"bids": dict(sorted(state.bids.items()))})]
        if unique:
            best = max(unique)
            winner = next(s for s, a in state.bids.items() if a == best)
            state.scores[winner] += best
            events.append(Event("tiny.event.win", {"seat": winner, "amount": best}))
        # A coin flip, so the RNG is exercised and saved with the state.
        rng = Rng(state.rng)
        events.append(Event("tiny.event.coin", {"side": rng.choice(["heads", "tails"])}))
        state.rng = rng.state
        state.bids = {}
        state.phase = "take"
        return events

    def is_over(self, state: TinyState) -> bool:
        return state.phase == "over"

    def result(self, state: TinyState) -> Result | None:
        if not self.is_over(state):
            return None
        best = max(state.scores)
        winners = tuple(s for s, v in enumerate(state.scores) if v == best)
        return Result(winners, dict(enumerate(state.scores)))

    def dump(self, state: TinyState) -> dict[str, Any]:
        data = dict(vars(state))
        data["bids"] = {str(k): v for k, v in state.bids.items()}
        data["scores"] = list(state.scores)
        return data

    def load(self, data: dict[str, Any]) -> TinyState:
        fields = dict(data)
        fields["bids"] = {int(k): v for k, v in data["bids"].items()}
        fields["scores"] = list(data["scores"])
        return TinyState(**fields)

    def view(self, state: TinyState, seat: int | None) -> dict[str, Any]:
        return {
            "round": state.round,
            "phase": state.phase,
            "scores": list(state.scores),
            "submitted": sorted(state.bids),
            "my_bid": state.bids.get(seat) if seat is not None else None,
            "turn": state.turn,
        }

    def phase(self, state: TinyState) -> str:
        return f"{state.round}.{state.phase}.{state.turn}"

    def to_command(self, action: Action) -> tuple[str, CommandArgs] | None:
        if isinstance(action, Bid):
            return "bid", {"amount": action.amount}
        return action.kind, {}


TINY = Tiny()

# What its players read (a test game's texts are no part of the product's catalogues: the
# ``tiny`` fixture and ``install`` add them). Buttons keep the command's own words ("bid 3").
TEXTS: dict[str, dict[str, str]] = {
    "tiny.pending.bid": {"en": "make your bid", "es": "haz tu apuesta"},
    "tiny.pending.take": {"en": "take a point or pass", "es": "toma un punto o pasa"},
    "tiny.error.bid": {"en": "Bid one, two or three.", "es": "Apuesta uno, dos o tres."},
    "tiny.event.bid": {"en": "{seat} bids {amount}.", "es": "{seat} apuesta {amount}."},
    "tiny.event.take": {"en": "{seat} takes a point.", "es": "{seat} toma un punto."},
    "tiny.event.reveal": {"en": "The bids are shown.", "es": "Se muestran las apuestas."},
    "tiny.event.win": {"en": "{seat} wins {amount}.", "es": "{seat} gana {amount}."},
    "tiny.event.coin": {"en": "The coin says {side}.", "es": "La moneda dice {side}."},
    "tiny.event.secret": {"en": "A secret: {card}.", "es": "Un secreto: {card}."},
    "tiny.option_name.rounds": {"en": "rounds", "es": "rondas"},
}


def install() -> Tiny:
    """Register the tiny game for the rest of the process (idempotent) and return it: for a
    process of its own (a bot a test starts, a benchmark). A test registers it for itself only,
    with the ``tiny`` fixture (tests/conftest.py)."""
    from tests.support.registered import add_texts

    register(Registration(TINY))
    add_texts(TEXTS)
    return TINY
