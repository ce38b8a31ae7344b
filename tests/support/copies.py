"""Checks shared by the games' copy tests: what mutable objects a state reaches."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Any


def mutables(root: Any) -> dict[int, Any]:
    """Every mutable object reachable from ``root`` (lists, dicts, sets, non-frozen objects),
    by id; immutable containers (tuples, read-only mappings) are looked through."""
    found: dict[int, Any] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if isinstance(obj, str | int | float | bool | type(None)):
            continue
        if isinstance(obj, list | dict | set):
            if id(obj) in found:
                continue
            found[id(obj)] = obj
        if isinstance(obj, dict | MappingProxyType):
            todo += list(obj.keys()) + list(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            todo += list(obj)
        elif dataclasses.is_dataclass(obj):
            # every dataclass (instance or class) has it; mypy's DataclassInstance does not say so
            if not obj.__dataclass_params__.frozen:  # type: ignore[union-attr]
                if id(obj) in found:
                    continue
                found[id(obj)] = obj
            todo += [getattr(obj, f.name) for f in dataclasses.fields(obj)]
        elif hasattr(obj, "__slots__"):  # Rng
            found.setdefault(id(obj), obj)
            todo += [getattr(obj, s) for s in obj.__slots__ if hasattr(obj, s)]
    return found
