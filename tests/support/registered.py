"""A test's own game in the registry for one test: registered for a ``with`` block (a fixture)
and taken out after it, so that the registry between tests lists the shipped games only and a
generic test parametrized over ``game_names()`` covers exactly those."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from i18n import catalogue
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


def generic_games() -> list[str]:
    """The games a generic test runs over: every shipped game, and the template game (Pig,
    tests/support/pig.py: docs/adding-a-game.md), which :func:`playing` registers for the test
    that plays it."""
    from tests.support.pig import PIG

    return [*game_names(), PIG.name]


@contextmanager
def playing(name: str) -> Iterator[None]:
    """Inside the block ``name`` is a registered game: a shipped one already is; the template
    is registered there, with its texts."""
    from tests.support.pig import PIG, TEXTS

    if name == PIG.name and name not in game_names():
        with registered(PIG, TEXTS):
            yield
    else:
        yield
