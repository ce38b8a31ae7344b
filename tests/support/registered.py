"""A test's own game in the registry for one test: registered for a ``with`` block (a fixture)
and taken out after it, so that the registry between tests lists the shipped games only and a
generic test parametrized over ``game_names()`` covers exactly those."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from rules.core.game import Game
from rules.core.registry import Registration, game_names, register, unregister

G = TypeVar("G", bound=Game[Any])


@contextmanager
def registered(game: G, entry: Registration | None = None) -> Iterator[G]:
    """``game`` registered inside the block, as a shipped game is (``entry``: its registration,
    by default the engine alone: no computer players, no renderer); taken out at its end unless
    it was already there (an outer block registered it: nested fixtures share it)."""
    added = game.name not in game_names()
    register(entry if entry is not None else Registration(game))
    try:
        yield game
    finally:
        if added:
            unregister(game.name)
