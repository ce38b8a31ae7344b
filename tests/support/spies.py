"""Watching what code under test reads, without changing what it gets."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from bot.service import Reply, Service
from i18n import t


def keys_read(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> list[str]:
    """The catalogue keys ``module`` looks up through its ``t`` from now on, in order (each
    still translated as usual)."""
    seen: list[str] = []

    def spy(key: str, lang: str = "en", /, **args: object) -> str:
        seen.append(key)
        return t(key, lang, **args)

    monkeypatch.setattr(module, "t", spy)
    return seen


def refusal_keys(service: Service) -> list[str]:
    """The keys of the refusals ``service`` answers from now on, in order (each still answered
    as usual)."""
    keys: list[str] = []
    original = service.refusal

    def refused(error: Any, lang: str) -> Reply:
        keys.append(error.key)
        return original(error, lang)

    service.refusal = refused  # type: ignore[method-assign]  # a spy in the method's place
    return keys
