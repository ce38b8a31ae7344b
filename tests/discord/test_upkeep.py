"""The bot's upkeep from its start: the logs of games closed before compaction existed are
compacted, and with ``RETENTION_DAYS`` the games closed before it are deleted."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot.service import Place, Service
from bot.store import outage
from bot.store import repository as repo
from bot.store.models import ActionRow, GameLogRow, GameRow
from tests.conftest import ALICE, BOB, Clock
from tests.discord.conftest import Bots
from tests.test_ratings import play


async def games(service: Service) -> list[int]:
    async with service.sessions() as session:
        return list((await session.execute(select(GameRow.channel_id))).scalars())


async def test_the_bot_deletes_the_games_closed_before_the_retention(
    bots: Bots, database: str, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await Service.open(database, render=False, clock=clock)
    await play(service, (ALICE, BOB), (3, 1), (False, False), place=Place(501, 10))
    clock.now += 40 * 86400
    await play(service, (ALICE, BOB), (1, 3), (False, False), place=Place(502, 10))
    assert sorted(await games(service)) == [501, 502]
    monkeypatch.setenv("RETENTION_DAYS", "30")
    await bots.start()

    async def pruned() -> None:
        while await games(service) != [502]:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(pruned(), 30)
    async with service.sessions() as session:
        assert (await session.execute(select(func.count()).select_from(GameRow))).scalar() == 1
    await service.close()


async def test_the_bot_compacts_the_logs_of_the_games_closed_before_it_could(
    bots: Bots, database: str, clock: Clock
) -> None:
    """A finished game whose log is still a row per move (closed before migration 0008): the
    bot compacts it in the background from its start, and it reads the same."""
    from tests.test_compaction import entries, store_uncompacted

    service = await Service.open(database, render=False, clock=clock)
    game_id, _ = await store_uncompacted(service, "zvv")
    async with service.sessions() as session:
        before = entries(await repo.action_log(session, game_id))
    await bots.start()

    async def compacted() -> None:
        while True:
            async with service.sessions() as session:
                if await session.get(GameLogRow, game_id) is not None:
                    return
            await asyncio.sleep(0.05)

    await asyncio.wait_for(compacted(), 30)
    async with service.sessions() as session:
        rows = await session.execute(select(func.count()).select_from(ActionRow))
        assert rows.scalar() == 0
        assert entries(await repo.action_log(session, game_id)) == before
    await service.close()


async def test_retention_in_a_database_outage_logs_no_traceback(
    bots: Bots,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The hourly retention round that finds the database gone is the outage's business (one
    WARNING when it begins, docs/operations.md), not a bug's traceback at ERROR."""
    monkeypatch.setenv("RETENTION_DAYS", "30")
    monkeypatch.setattr("bot.discord.client.RETENTION_EVERY", 0.05)
    bot = await bots.start()
    assert bot.service is not None
    outage.database.worked()
    caplog.set_level(logging.INFO)
    caplog.clear()
    # The file replaced by a folder, which SQLite cannot open, and the pool's connections closed.
    (tmp_path / "partida.db").rename(tmp_path / "away.db")
    (tmp_path / "partida.db").mkdir()
    await bot.service.engine.dispose()
    try:
        await asyncio.sleep(0.5)  # rounds of retention meet the outage
    finally:
        (tmp_path / "partida.db").rmdir()
        (tmp_path / "away.db").rename(tmp_path / "partida.db")
    outage.database.worked()
    assert any(r.getMessage().startswith("database unavailable") for r in caplog.records)
    assert not [r.getMessage() for r in caplog.records if r.exc_info]
