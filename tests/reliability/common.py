"""Helpers shared by the reliability tests: a service on its own event loop (for hypothesis,
whose examples are synchronous), snapshots of a game's stored rows, and message checks."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import select

from bot.service import Reply, Service
from bot.store import repository as repo
from bot.store.models import DeadlineRow
from i18n import catalogue
from rules.core import get_game
from tests.reliability.driver import all_games
from tests.support.registered import generic_games

T = TypeVar("T")

BARE_KEY = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_-]+)+$")
UNFILLED = re.compile(r"\{[a-z_]+\}")


def games() -> list[str]:
    """Every registered game, the test games of the generic tests (Pig, Nim: registered for
    each test that takes them, tests/conftest.py) and the tiny platform game: tests
    parametrized over this cover each game as it lands (a game whose engine is missing is
    absent from the registry)."""
    return list(dict.fromkeys([*generic_games(), *all_games()]))


def game_params() -> list[Any]:
    return [pytest.param(kind, id=kind) for kind in games()]


class LoopService:
    """A service driven from synchronous code (hypothesis) on a private event loop."""

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.service: Service = self.run(Service.open(url, render=False))

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coro)

    def close(self) -> None:
        self.run(self.service.close())
        self.loop.close()


@contextmanager
def loop_service(
    tmp_path: Path, name: str = "fuzz.db", url: str | None = None
) -> Iterator[LoopService]:
    """A service on its own event loop: on ``url`` (a test database), else a SQLite file."""
    svc = LoopService(url or f"sqlite+aiosqlite:///{tmp_path / name}")
    try:
        yield svc
    finally:
        svc.close()


async def snapshot(service: Service, game_id: int) -> tuple[Any, ...]:
    """Everything a command could change about one game."""
    async with service.sessions() as session:
        row = await repo.game_by_id(session, game_id)
        assert row is not None
        log = [entry.seq for entry in await repo.action_log(session, game_id)]
        deadlines = (
            await session.execute(
                select(DeadlineRow.seat, DeadlineRow.kind, DeadlineRow.due_at).where(
                    DeadlineRow.game_id == game_id
                )
            )
        ).all()
        return (
            row.status,
            row.state,
            row.phase,
            row.version,
            row.settings,
            row.host_id,
            [(s.seat, s.user_id, s.left) for s in row.seats],
            sorted(log),
            sorted(tuple(d) for d in deadlines),
        )


@contextmanager
def production_logging(level: str = "DEBUG") -> Iterator[io.StringIO]:
    """The bot's own logging set-up (``bot.logs.setup_logging``), writing into a buffer the
    test reads; the previous handlers and levels come back afterwards."""
    from bot.logs import setup_logging

    root = logging.getLogger()
    saved_handlers, saved_level = root.handlers[:], root.level
    saved_levels = {name: logging.getLogger(name).level for name in logging.root.manager.loggerDict}
    setup_logging(level)
    (handler,) = root.handlers
    assert isinstance(handler, logging.StreamHandler)
    buffer = io.StringIO()
    handler.setStream(buffer)
    try:
        yield buffer
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
        for name, value in saved_levels.items():
            logging.getLogger(name).setLevel(value)


def check_refusal_text(reply: Reply) -> str:
    """A refusal is one translated line: not a raw catalogue key, no unfilled ``{arg}``."""
    assert reply.private is not None, "a refusal must tell the user why"
    text = str(reply.private.text)
    assert text.startswith("⚠️ "), text
    body = text.removeprefix("⚠️ ").strip()
    assert body and not BARE_KEY.match(body), f"untranslated message: {body!r}"
    assert not UNFILLED.search(body), f"unfilled template argument: {body!r}"
    return body


def check_key(key: str) -> None:
    for lang in ("en", "es"):
        assert key in catalogue(lang), f"error key {key!r} missing in {lang}"


def engine_commands(kind: str) -> list[tuple[str, list[str]]]:
    return [(c.name, [p.name for p in c.params]) for c in get_game(kind).commands]
