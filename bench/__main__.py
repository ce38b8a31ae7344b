"""Run the benchmarks: ``python -m bench [name ...]`` (names: service, load, badbones, farkle,
fuse, zvv, replay, bots, rest, rebuild, storage, memory, render, fairuse, faults); options such as ``--quick`` are left to the benchmarks."""

from __future__ import annotations

import importlib
import sys

ALL = (
    "service",
    "load",
    "badbones",
    "farkle",
    "fuse",
    "zvv",
    "replay",
    "bots",
    "rest",
    "rebuild",
    "storage",
    "memory",
    "render",
    "fairuse",
    "faults",
)


def main(argv: list[str]) -> int:
    names = [a for a in argv if not a.startswith("-")]
    for name in names or ALL:
        try:
            module = importlib.import_module(f"bench.bench_{name}")
        except ModuleNotFoundError as exc:
            print(f"== {name}: not available ({exc.name})")
            continue
        print(f"== {name}")
        module.main()
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
