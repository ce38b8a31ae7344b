"""The reliability tests cover every registered game and the tiny test game too
(``common.games``): it is registered for each of them, and taken out after it."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _tiny_too(tiny: object) -> None:
    """(The ``tiny`` fixture of tests/conftest.py, for every test here.)"""
