"""Alembic on SQLite and PostgreSQL: from empty, from every earlier revision, and back to base."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bot.store.database import alembic_config
from bot.store.models import Base
from tests.reliability import pg

# Autogenerate cannot compare the leaderboard's index on an expression, and says so; it is
# checked by reading the schema (test_the_lists_indexes_are_made_as_the_models_name_them).
pytestmark = [
    pytest.mark.filterwarnings("ignore:autogenerate skipping metadata-specified expression"),
    pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based"),
]


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'm.db'}"
        return
    url = pg.create_database()
    try:
        yield url
    finally:
        pg.drop_database(url)


def _inspect(url: str) -> tuple[set[str], list[object]]:
    """The tables present and the autogenerate diff against the models (through the async
    driver, as the bot connects)."""

    async def go() -> tuple[set[str], list[object]]:
        engine = create_async_engine(url)
        async with engine.connect() as connection:

            def work(sync: Connection) -> tuple[set[str], list[object]]:
                tables = set(inspect(sync).get_table_names())
                diff = compare_metadata(
                    MigrationContext.configure(sync, opts={"compare_type": True}),
                    Base.metadata,
                )
                return tables, diff

            result = await connection.run_sync(work)
        await engine.dispose()
        return result

    return asyncio.run(go())


def revisions() -> list[str]:
    """Every revision in ``migrations/versions``, oldest first."""
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    return [r.revision for r in reversed(list(script.walk_revisions()))]


APP_TABLES = {t.name for t in Base.metadata.sorted_tables}


def test_there_is_a_linear_history_with_one_head() -> None:
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    assert len(script.get_heads()) == 1
    assert revisions()


def test_from_empty_to_head_matches_the_models(empty_url: str) -> None:
    command.upgrade(alembic_config(empty_url), "head")
    tables, diff = _inspect(empty_url)
    assert APP_TABLES <= tables
    assert diff == [], f"models differ from migrations on {make_url(empty_url).drivername}: {diff}"


@pytest.mark.parametrize("start", revisions())
def test_from_every_revision_to_head_and_back_to_base(empty_url: str, start: str) -> None:
    config = alembic_config(empty_url)
    command.upgrade(config, start)
    command.upgrade(config, "head")
    tables, diff = _inspect(empty_url)
    assert diff == []
    command.downgrade(config, "base")
    tables, _ = _inspect(empty_url)
    assert not (APP_TABLES & tables), f"downgrade left {APP_TABLES & tables}"
    command.upgrade(config, "head")  # and up again from base
    assert _inspect(empty_url)[1] == []


def test_each_step_down_and_up_again(empty_url: str) -> None:
    """Every single downgrade step works, and its upgrade re-applies cleanly."""
    config = alembic_config(empty_url)
    command.upgrade(config, "head")
    for _ in revisions():
        command.downgrade(config, "-1")
        command.upgrade(config, "+1")
        command.downgrade(config, "-1")
    command.upgrade(config, "head")
    assert _inspect(empty_url)[1] == []
