"""Run the benchmarks: ``python -m bench [name [--option ...] ...]`` (names: service, load,
each registered game that has a ``bench_<game>.py`` (read from the registry), replay, bots,
rest, table, rebuild, storage, memory, render, fairuse, faults, growth, coop, capacity). Options after a name are
that benchmark's: ``python -m bench growth --quick``."""

from __future__ import annotations

import importlib
import importlib.util
import sys

from rules.core import game_names

# The engine benchmarks: one per registered game that has one.
GAMES = tuple(g for g in game_names() if importlib.util.find_spec(f"bench.bench_{g}"))

ALL = (
    "service",
    "load",
    *GAMES,
    "replay",
    "bots",
    "rest",
    "table",
    "rebuild",
    "storage",
    "memory",
    "render",
    "fairuse",
    "faults",
    "growth",
    "coop",
    "capacity",
)


def main(argv: list[str]) -> int:
    runs: list[tuple[str, list[str]]] = []
    for word in argv:
        if word.startswith("-") and runs:
            runs[-1][1].append(word)
        elif runs and runs[-1][1] and word not in ALL:
            runs[-1][1].append(word)  # an option's value
        else:
            runs.append((word, []))
    for name, options in runs or [(name, []) for name in ALL]:
        try:
            module = importlib.import_module(f"bench.bench_{name}")
        except ModuleNotFoundError as exc:
            print(f"== {name}: not available ({exc.name})")
            continue
        print(f"== {name}")
        if options:
            module.main(options)
        else:
            module.main()
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
