"""Pillow renderers: an engine's view of a game -> PNG bytes.

One module per game (``render/<game>.py``) with two functions:

- ``render_table(view: dict, names: list[str], lang: str) -> bytes``: the channel's picture
  after a phase, drawn from the *public* view only (``game.view(state, None)``), so it cannot
  leak hidden data. ``names[seat]`` is each seat's display name.
- ``render_board(view: dict, names: list[str], lang: str) -> bytes``: one seat's private picture
  (``/game board``), drawn from that seat's view.
- ``table_image(view, names, lang) -> Image``: ``render_table``'s picture before it is encoded
  (a replay, ``render/replay.py``, takes many and encodes them together).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from typing import Any

from PIL import Image


@functools.cache
def has_renderer(game: str) -> bool:
    """Whether ``game`` has a renderer (``render/<game>.py``); a game without one (the test
    game) is played in text alone."""
    return importlib.util.find_spec(f"render.{game}") is not None


def _module(game: str) -> Any:
    return importlib.import_module(f"render.{game}")


def render_table(game: str, view: dict[str, Any], names: list[str], lang: str) -> bytes:
    return bytes(_module(game).render_table(view, names, lang))


def table_image(game: str, view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    image: Image.Image = _module(game).table_image(view, names, lang)
    return image


def render_board(game: str, view: dict[str, Any], names: list[str], lang: str) -> bytes:
    return bytes(_module(game).render_board(view, names, lang))
