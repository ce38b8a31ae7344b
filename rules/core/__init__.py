"""What every game shares: the engine API, actions, events, pending inputs, RNG, errors."""

from rules.core.actions import Action, ActionCodec
from rules.core.errors import RulesError
from rules.core.events import Event, public, visible_to
from rules.core.game import Game
from rules.core.registry import game_names, get_game, register
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
    "Result",
    "Rng",
    "Snapshot",
    "RulesError",
    "Turn",
    "game_names",
    "get_game",
    "public",
    "register",
    "visible_to",
]
