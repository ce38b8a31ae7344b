"""A test's own game in the registry for one test: registered for a ``with`` block (a fixture)
and taken out after it, so that the registry between tests lists the shipped games only.

A generic test is parametrized over :func:`generic_games`: the shipped games and the test games
of ``TEST_GAMES`` (each a folder of ``tests/games/``), which ``tests/conftest.py`` registers
for each test that takes one."""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from i18n import LANGUAGES, _flatten, catalogue
from rules.core.game import Game
from rules.core.registry import Registration, game_names, register, unregister

# A test game's texts: key -> language -> text (it ships in no catalogue).
Texts = Mapping[str, Mapping[str, str]]

G = TypeVar("G", bound=Game[Any])


@contextmanager
def registered(
    game: G, texts: Texts | None = None, entry: Registration | None = None
) -> Iterator[G]:
    """``game`` registered inside the block, as a shipped game is (``entry``: its registration,
    by default the engine alone: no computer players, no renderer), with its ``texts`` in the
    loaded catalogues; taken out at its end unless it was already there (an outer block
    registered it: nested fixtures share it)."""
    added = game.name not in game_names()
    register(entry if entry is not None else Registration(game))
    written = add_texts(texts or {})
    try:
        yield game
    finally:
        for lang, key in written:
            catalogue(lang).pop(key, None)
        if added:
            unregister(game.name)


def add_texts(texts: Texts) -> list[tuple[str, str]]:
    """Put ``texts`` in the loaded catalogues; the ``(language, key)`` pairs that were new."""
    written = []
    for key, by_lang in texts.items():
        for lang, text in by_lang.items():
            if key not in catalogue(lang):
                catalogue(lang)[key] = text
                written.append((lang, key))
    return written


# The games kept in tests, one line each: its folder, laid out as a shipped game is
# (tests/games/__init__.py), whose ``REGISTRATION`` and ``TEXTS`` the generic tests take.
TEST_GAMES = (
    "tests.games.pig",
    "tests.games.nim",
)


def texts_in(folder: Path) -> dict[str, dict[str, str]]:
    """A test game's texts, from its folder's ``<lang>.toml`` (laid out as a shipped game's
    ``i18n/<lang>/<game>.toml``): key -> language -> text."""
    out: dict[str, dict[str, str]] = {}
    for lang in LANGUAGES:
        flat: dict[str, str] = {}
        _flatten("", tomllib.loads((folder / f"{lang}.toml").read_text(encoding="utf-8")), flat)
        for key, text in flat.items():
            out.setdefault(key, {})[lang] = text
    return out


def kept_games() -> dict[str, ModuleType]:
    """The test games by name (each module has ``REGISTRATION`` and ``TEXTS``)."""
    modules = [importlib.import_module(path) for path in TEST_GAMES]
    return {module.REGISTRATION.name: module for module in modules}


def generic_games() -> list[str]:
    """The games a generic test runs over: every shipped game, and the test games (Pig,
    the template of docs/adding-a-game.md, and Nim), which :func:`playing` registers for the
    test that plays them."""
    return [*game_names(), *kept_games()]


@contextmanager
def playing(name: str) -> Iterator[None]:
    """Inside the block ``name`` is a registered game: a shipped one already is; a test game
    is registered there, as its folder declares it, with its texts."""
    module = kept_games().get(name)
    if module is not None and name not in game_names():
        with registered(module.REGISTRATION.game, module.TEXTS, module.REGISTRATION):
            yield
    else:
        yield
