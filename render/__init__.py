"""Pillow renderers: an engine's view of a game -> PNG bytes.

One module per game (``render/<game>.py``, named by the game's registration: ``renderer``) with
three functions:

- ``render_table(view: dict, names: list[str], lang: str) -> bytes``: the channel's picture
  after a phase, drawn from the *public* view only (``game.view(state, None)``), so it cannot
  leak hidden data. ``names[seat]`` is each seat's display name.
- ``render_board(view: dict, names: list[str], lang: str) -> bytes``: one seat's private picture
  (``/game board``), drawn from that seat's view.
- ``table_image(view, names, lang) -> Image``: ``render_table``'s picture before it is encoded
  (a replay, ``render/replay.py``, takes many and encodes them together).
"""

from __future__ import annotations

import importlib
from typing import Any

from PIL import Image

from rules.core import RulesError, registration


def _renderer(game: str) -> str | None:
    try:
        return registration(game).renderer
    except RulesError:  # a game this process does not know (a test's, in a render worker)
        return None


def has_renderer(game: str) -> bool:
    """Whether ``game`` has a renderer (its registration names one); a game without one (a
    test's game) is played in text alone."""
    return _renderer(game) is not None


def _module(game: str) -> Any:
    path = _renderer(game)
    if path is None:
        raise ModuleNotFoundError(f"game {game} has no renderer", name=game)
    return importlib.import_module(path)


def render_table(game: str, view: dict[str, Any], names: list[str], lang: str) -> bytes:
    return bytes(_module(game).render_table(view, names, lang))


def table_image(game: str, view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    image: Image.Image = _module(game).table_image(view, names, lang)
    return image


def render_board(game: str, view: dict[str, Any], names: list[str], lang: str) -> bytes:
    return bytes(_module(game).render_board(view, names, lang))
