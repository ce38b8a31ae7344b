"""A game lands as its folder and one registration line: Nim (tests/games/nim/), a throw-away
game added to show it, is named nowhere else in the code but by its line in ``TEST_GAMES``
(tests/support/registered.py) and its pinned fingerprint, and yet every generic test plays it
(docs/adding-a-game.md, "What checks it for you")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.support.registered import TEST_GAMES, generic_games, kept_games
from tests.test_no_game_named import _code_words

ROOT = Path(__file__).resolve().parent.parent
CODE = ("bot", "render", "rules", "i18n", "bench", "tests")


def named_outside(name: str) -> list[str]:
    """``file:line`` of every code word naming ``name`` outside its own folder (prose and
    comments aside; this file, which is about it, aside too)."""
    own = ROOT / "tests" / "games" / name
    word = re.compile(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", re.I)
    found = []
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_relative_to(own) or path == Path(__file__) or ".venv" in path.parts:
                continue
            if path.suffix == ".toml" and word.search(path.read_text(encoding="utf-8")):
                found.append(str(path.relative_to(ROOT)))
            elif path.suffix == ".py":
                tree = ast.parse(path.read_text(encoding="utf-8"))
                lines = {line for line, text in _code_words(tree) if word.search(text)}
                found += [f"{path.relative_to(ROOT)}:{line}" for line in sorted(lines)]
    return found


def test_a_throw_away_game_is_its_folder_and_one_line() -> None:
    hits = named_outside("nim")
    registered = [h for h in hits if h.startswith("tests/support/registered.py:")]
    pinned = [h for h in hits if h.startswith("tests/test_fingerprint.py:")]
    assert len(registered) == 1 and len(pinned) == 1, hits
    assert set(hits) == {*registered, *pinned}, hits
    assert "tests.games.nim" in TEST_GAMES


def test_every_test_game_is_a_generic_game() -> None:
    assert {"pig", "nim"} <= set(kept_games()) <= set(generic_games())
