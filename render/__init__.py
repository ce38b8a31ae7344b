"""Pillow renderers: an engine's view of a game -> PNG bytes.

One module per game (``render/<game>.py``) with two functions:

- ``render_table(view: dict, names: list[str], lang: str) -> bytes``: the channel's picture
  after a phase, drawn from the *public* view only (``game.view(state, None)``), so it cannot
  leak hidden data. ``names[seat]`` is each seat's display name.
- ``render_board(view: dict, names: list[str], lang: str) -> bytes``: one seat's private picture
  (``/game board``), drawn from that seat's view.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from typing import Any


@functools.cache
def has_renderer(game: str) -> bool:
    """Whether ``game`` has a renderer (``render/<game>.py``); a game without one (the test
    game) is played in text alone."""
    return importlib.util.find_spec(f"render.{game}") is not None


def _module(game: str) -> Any:
    return importlib.import_module(f"render.{game}")


def render_table(game: str, view: dict[str, Any], names: list[str], lang: str) -> bytes:
    return bytes(_module(game).render_table(view, names, lang))


def render_board(game: str, view: dict[str, Any], names: list[str], lang: str) -> bytes:
    return bytes(_module(game).render_board(view, names, lang))
