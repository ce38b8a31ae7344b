"""The shape of the imports (docs/architecture.md): no module imports another round a loop, and
the service stands on few floors, so a newcomer reads it from the bottom up without a stack of
classes across modules.

Read from the source as text (``ast``): every import a module makes as it loads, those under
``TYPE_CHECKING`` too (a loop that only the type checker walks is still one a reader walks); not
an import inside a function, run once every module is loaded (the registry's ``import rules``,
to list the game packages)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "rules", "render", "i18n")
# The longest chain of imports inside bot/service, counted in modules (a module importing none
# of its neighbours stands on floor 1). It was 13 when the service was a stack of four classes
# (Service ← Upkeep ← Runner ← Reading); 10 since they became one class on one base.
SERVICE_FLOORS = 10


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules ``path`` imports (a name imported from a package that is itself a
    module counts as that module)."""
    named: set[str] = set()
    for node in _loading(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            named |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                named.add(inner if inner in modules else node.module)
    return {name for name in named if name in modules}


def _loading(tree: ast.AST) -> list[ast.AST]:
    """The nodes run as the module loads: all but the bodies of functions."""
    found: list[ast.AST] = []
    for node in ast.iter_child_nodes(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            found += [node, *_loading(node)]
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, modules) - {name} for name, path in modules.items()}


def _loop(graph: dict[str, set[str]]) -> list[str] | None:
    """One loop of imports, as the modules round it, or None."""
    state: dict[str, int] = {}  # 1: on the path now, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for other in sorted(graph[name]):
            if state.get(other) == 1:
                return [*path[path.index(other) :], other]
            if other not in state and (found := visit(other)) is not None:
                return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (found := visit(name)) is not None:
            return found
    return None


def test_no_module_imports_another_round_a_loop() -> None:
    graph = _graph()
    assert len(graph) > 100, "the project's modules are found"
    assert _loop(graph) is None, " → ".join(_loop(graph) or [])


def test_the_service_stands_on_few_floors() -> None:
    graph = _graph()
    inside = {
        name: {other for other in imported if other.startswith("bot.service.")}
        for name, imported in graph.items()
        if name.startswith("bot.service.")
    }

    @functools.cache
    def floor(name: str) -> int:
        return 1 + max((floor(other) for other in inside[name]), default=0)

    def chain(name: str) -> list[str]:
        below = max(inside[name], key=floor, default=None)
        return [name, *(chain(below) if below else [])]

    top = max(inside, key=floor)
    assert floor(top) <= SERVICE_FLOORS, " → ".join(chain(top))
