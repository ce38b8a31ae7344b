"""The registry of games: adapters list and create games by name without importing each one.

Every game package registers its engine when imported; :func:`get_game` imports the known game
packages on first use. Adding a game is one line in ``GAME_PACKAGES``.
"""

from __future__ import annotations

import importlib
from typing import Any

from rules.core.errors import RulesError
from rules.core.game import Game

# The game packages that ship with Partida (imported lazily, in this order).
GAME_PACKAGES: tuple[str, ...] = ("rules.badbones", "rules.farkle", "rules.fuse", "rules.zvv")

_games: dict[str, Game[Any]] = {}
_loaded = False


def register(game: Game[Any]) -> Game[Any]:
    """Add a game engine under its ``name`` (called by each game package; tests register their
    own games for one test only, ``tests/support/registered.py``)."""
    if game.name in _games and type(_games[game.name]) is not type(game):
        raise ValueError(f"game name taken: {game.name}")
    _games[game.name] = game
    return game


def unregister(name: str) -> None:
    """Take a game out of the registry again (a test's own game, once the test is over), so
    that the registry lists the shipped games only."""
    _games.pop(name, None)


def _load_packages() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for package in GAME_PACKAGES:
        try:
            importlib.import_module(package)
        except ModuleNotFoundError as exc:
            # A game still being written is simply absent; anything else is a real bug.
            if exc.name != package:
                raise


def get_game(name: str) -> Game[Any]:
    """The engine registered as ``name``; an unknown name is a RulesError for the user."""
    _load_packages()
    try:
        return _games[name]
    except KeyError:
        raise RulesError(
            "core.error.unknown_game", game=str(name)[:50], games=", ".join(_games)
        ) from None


def game_names() -> list[str]:
    """Every registered game, in registration order."""
    _load_packages()
    return list(_games)
