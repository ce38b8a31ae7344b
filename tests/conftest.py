"""Shared fixtures: a service over a real SQLite file, with a clock the test controls."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import Actor, Place, Service
from tests.support.tiny import install


class Clock:
    """A settable clock: ``clock.now += 3600`` is an hour later."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(tmp_path: Path, clock: Clock) -> AsyncIterator[Service]:
    install()
    svc = await Service.open(
        f"sqlite+aiosqlite:///{tmp_path / 'partida.db'}", clock=clock, render=False
    )
    yield svc
    await svc.close()


ALICE = Actor(1, "Alice")
BOB = Actor(2, "Bob")
CAROL = Actor(3, "Carol", locale="es-ES")
MOD = Actor(9, "Mod", can_manage=True)
HERE = Place(100, 10)
