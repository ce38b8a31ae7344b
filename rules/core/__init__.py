"""What every game shares: the engine API, actions, events, pending inputs, RNG, errors."""

from rules.core.actions import Action, ActionCodec
from rules.core.errors import RulesError
from rules.core.events import Event, public, visible_to
from rules.core.game import Game
from rules.core.registry import (
    Presentation,
    Registration,
    game_names,
    get_game,
    register,
    registration,
)
from rules.core.rng import Rng
from rules.core.spec import (
    Command,
    CommandArgs,
    OptionSpec,
    Param,
    Pending,
    Piece,
    Result,
    Snapshot,
    Turn,
)

__all__ = [
    "Action",
    "ActionCodec",
    "Command",
    "CommandArgs",
    "Event",
    "Game",
    "OptionSpec",
    "Param",
    "Pending",
    "Piece",
    "Presentation",
    "Registration",
    "Result",
    "Rng",
    "Snapshot",
    "RulesError",
    "Turn",
    "game_names",
    "get_game",
    "public",
    "register",
    "registration",
    "visible_to",
]
