"""One registration per game: no module outside a game's own places names a game.

A game lives in ``rules/<game>/`` (its engine, computer players and its one registration),
``render/<game>.py`` (its pictures, named by the registration) and ``i18n/*/<game>.toml`` (its
texts). Everything else (the service, the Discord adapter, the console, the shared rendering,
``rules/core``, the catalogue code) asks the registry and the registration; so a new game
needs no line anywhere else, and a second real-time or cooperative game copies nothing. The
code of every other module is read (its names, imports and string constants, f-strings' parts
included), not its comments or docstrings, which may take a game as an example.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from i18n import LANGUAGES, catalogue
from rules.core.registry import game_names, registration
from tests.support.registered import generic_games, kept_games

ROOT = Path(__file__).resolve().parent.parent
# The code a game must not be named in (tests/, docs/ and bench/, whose benchmarks are per game,
# are not the product).
SHARED = ("bot", "render", "rules", "i18n")


def _game_places() -> set[Path]:
    """Each shipped game's own modules: its package and its renderer."""
    own: set[Path] = set()
    for name in game_names():
        entry = registration(name)
        package = ROOT / "rules" / type(entry.game).__module__.split(".")[1]
        own.update(package.rglob("*.py"))
        if entry.renderer is not None:
            own.add(ROOT / (entry.renderer.replace(".", "/") + ".py"))
    return own


def _shared_modules() -> list[Path]:
    own = _game_places()
    found = [p for top in SHARED for p in sorted((ROOT / top).rglob("*.py")) if p not in own]
    assert found and len(own) >= len(game_names()), "the scan reads the project's modules"
    return found


def _words() -> dict[str, re.Pattern[str]]:
    """Each game's kind, and the name of its package, as a word of code (an identifier split
    at underscores and dots, a catalogue key ``<game>.…``, a command ``/<game> …``)."""
    names: set[str] = set(kept_games())  # the test games too: the product never names them
    for name in game_names():
        entry = registration(name)
        names.update({name, type(entry.game).__module__.split(".")[1]})
    return {n: re.compile(rf"(?<![A-Za-z0-9]){re.escape(n)}(?![A-Za-z0-9])", re.I) for n in names}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the constants that are docstrings (prose, like comments)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _code_words(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, text) of every name, import and string constant of the module's code."""
    prose = _docstrings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in prose:
                yield line, node.value
        elif isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, ast.alias):
            yield line, node.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield line, node.module
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield line, node.name
        elif isinstance(node, ast.arg):
            yield line, node.arg


def named_games(path: Path) -> list[str]:
    """Where the module at ``path`` names a game in its code: ``file:line: text``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    words = _words()
    found = []
    for line, text in _code_words(tree):
        for name, word in words.items():
            if word.search(text):
                shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
                found.append(f"{shown}:{line}: {name} in {text[:60]!r}")
    return found


def test_no_module_outside_a_games_places_names_a_game() -> None:
    found = [hit for path in _shared_modules() for hit in named_games(path)]
    assert not found, "a game named outside its own places:\n" + "\n".join(found)


@pytest.mark.parametrize("text", ["fuse.live.timer", "/zvv move", "from rules.farkle import x"])
def test_the_scan_finds_a_game_named(tmp_path: Path, text: str) -> None:
    """The scan is not blind: a key, a command and an import naming a game are each found,
    while a word that only contains a game's name ("refused") and prose are not."""
    code = f'"""Prose about FUSE and Dragon Farkle."""\n# zvv in a comment\nx = {text!r}\ny = "refused"\n'
    module = tmp_path / "shared.py"
    module.write_text(code, encoding="utf-8")
    hits = named_games(module)
    assert len(hits) == 1 and ":3:" in hits[0], hits


@pytest.mark.parametrize("name", generic_games())
def test_each_registration_names_what_there_is(name: str) -> None:
    """A game's registration is the one place its parts are named, so each must be there: the
    computer players' modules with their ``choose``, the renderer, the catalogue in every
    language (``i18n/<lang>/<game>.toml``, keys beginning with the game's name; a test game's
    ``<lang>.toml`` in its folder)."""
    entry = registration(name)
    kept = kept_games().get(name)
    folder = ROOT / "i18n" if kept is None else Path(str(kept.__file__)).parent
    for path in (entry.policy, entry.hard):
        if path is not None:
            assert callable(importlib.import_module(path).choose), path
    assert entry.hard is None or entry.policy is not None, "hard builds on a policy"
    if entry.renderer is not None:
        assert callable(importlib.import_module(entry.renderer).render_table)
    for lang in LANGUAGES:
        found = (
            folder / lang / f"{entry.catalogue}.toml" if kept is None else folder / f"{lang}.toml"
        )
        texts = found.read_text(encoding="utf-8")
        keys = [k for k in catalogue(lang) if k.startswith(f"{entry.catalogue}.")]
        assert texts and keys, (lang, name)
