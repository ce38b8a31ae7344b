"""Fixtures: a fake Discord, the real service on a SQLite file, and the bot connected to both."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord import async_sync_commands
from bot.discord.client import PartidaBot
from bot.service import Service
from tests.conftest import Clock
from tests.discord.cards import CARDS, Cards
from tests.fakediscord import FakeDiscord
from tests.support.migrated import copy_migrated
from tests.support.registered import registered
from tests.support.tiny import Tiny


@pytest.fixture
async def fake(tiny: Tiny) -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server
        server.check()


@pytest.fixture
def quick_windows(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord's rate-limit windows a tenth as long, in the fake and in the bot's own pace of
    posts (``send.CHANNEL_WINDOW``) alike: for a whole game whose claims are counts (posts,
    edits, pings, calls), not seconds, which otherwise waits out a 5-second window for every
    5 edits. The limits, the headers and the 429s are Discord's; the 3-second window to answer
    an interaction is real time. Tests of the rate limits themselves keep Discord's seconds."""
    fake.ratelimits.scale = 0.1
    monkeypatch.setattr("bot.discord.send.CHANNEL_WINDOW", 5.0 * fake.ratelimits.scale)


@pytest.fixture
def database(tmp_path: Path, migrated: Path) -> str:
    """A SQLite file at the newest revision (a copy: tests/support/migrated.py)."""
    return copy_migrated(migrated, tmp_path / "partida.db")


# The edit delay for whole Bad Bones games of patient players (``tests/fakediscord/table.py``,
# ``play`` with one player at a time): each waits for the bot's edits before the next move, so no
# two moves share an edit, and a click's answer is private, so no edit races it; the wait only
# made a hundred-move game wait 20 s. Not for games whose clicks answer by editing the table
# message (a Farkle or Zombies vs Vampires turn): there a quicker channel edit goes out before
# the click's answer instead of being spared by it (a Farkle game's CPU doubled). Tests whose
# players answer at once (``together``) or click within the window keep the default (0.2 s).
PATIENT_EDIT_DELAY = 0.05


class Bots:
    """Starts bots against the fake; each gets its own service on the same database file, like a
    restarted process. Everything is closed at the end of the test."""

    def __init__(self, fake: FakeDiscord, database: str, clock: Clock) -> None:
        self.fake = fake
        self.database = database
        self.clock = clock
        self.running: list[PartidaBot] = []

    async def start(self, *, render: bool = False, **options: Any) -> PartidaBot:
        if not self.fake.registered(self.fake.guild_id):
            # What `partida sync --guild` does, once, before the first start.
            await async_sync_commands(self.fake.token, self.fake.guild_id)
        service = await Service.open(self.database, render=render, clock=self.clock)
        # Edits wait a fifth of a second for more of their kind here, not two: tests that
        # count edits send their clicks within that window.
        options.setdefault("edit_delay", 0.2)
        bot = PartidaBot(service=service, clock=self.clock, guild_ready_timeout=0.05, **options)
        bot._owns_service = True  # the bot closes it, as in production
        await self.fake.run(bot)
        self.fake.busy_checks.append(lambda: bot.busy > 0 or bot.outbox.busy)
        self.running.append(bot)
        return bot

    async def stop(self, bot: PartidaBot) -> None:
        await bot.close()
        self.running.remove(bot)


@pytest.fixture
async def bots(fake: FakeDiscord, database: str, clock: Clock) -> AsyncIterator[Bots]:
    manager = Bots(fake, database, clock)
    yield manager
    await fake.idle()
    for bot in list(manager.running):
        await manager.stop(bot)


@pytest.fixture
def cards() -> Iterator[Cards]:
    """The test-only game with an autocomplete parameter and a multi-select."""
    with registered(CARDS) as game:
        yield game


@pytest.fixture
def errors(caplog: pytest.LogCaptureFixture) -> Callable[[], list[str]]:
    """Log records at ERROR or above (the adapter logs every failed command there)."""
    caplog.set_level(logging.INFO)

    def found() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]

    return found
