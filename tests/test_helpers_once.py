"""A test helper is written once: two functions under ``tests/`` with the same body (names aside)
are one helper copied, and the copy belongs in ``tests/support/`` (docs/testing.md)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# Test games (tests/games/<game>/) are laid out as shipped games, each its own package with its
# own renderer: a game's ``render_table`` written like another game's is not a test helper.
GAMES = TESTS / "games"
# Bodies smaller than this many syntax nodes are one-liners (``return GAME.apply(…)``), which
# say what they do more plainly where they stand than behind an import.
SMALLEST = 12


def _body(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    """The statements of ``node`` without its docstring."""
    body = node.body
    first = body[0] if body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return body[1:]
    return body


def helpers() -> dict[str, list[str]]:
    """Each helper body (its parameters and statements) → where it is defined."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(TESTS.rglob("*.py")):
        if path.is_relative_to(GAMES):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if node.name.startswith("test_"):
                continue
            body = _body(node)
            if sum(1 for stmt in body for _ in ast.walk(stmt)) < SMALLEST:
                continue
            key = type(node).__name__ + ast.dump(node.args) + "".join(map(ast.dump, body))
            found[key].append(f"{path.relative_to(TESTS.parent)}:{node.lineno} {node.name}")
    return found


def test_no_helper_is_defined_twice() -> None:
    copies = [places for places in helpers().values() if len(places) > 1]
    assert not copies, "move each to tests/support/:\n" + "\n".join(map(" = ".join, copies))


def test_the_check_sees_a_copy() -> None:
    """The check itself: this file's ``_body``, copied, is found."""
    source = (TESTS / "test_helpers_once.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    (original,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "_body"]
    copy = ast.FunctionDef(**{**original.__dict__, "name": "_body_again"})
    keys = {ast.dump(f.args) + "".join(map(ast.dump, _body(f))) for f in (original, copy)}
    assert len(keys) == 1 and sum(1 for s in _body(original) for _ in ast.walk(s)) >= SMALLEST
