"""The one-crossing aiosqlite connection under SQLAlchemy: same results, fewer thread hops."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from bot.store import sqlite_driver
from bot.store.database import create_engine


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records every call that crosses to a connection's thread."""
    seen: list[str] = []
    original = sqlite_driver.OneHopConnection._execute

    async def counted(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(getattr(fn, "__name__", repr(fn)))
        return await original(self, fn, *args, **kwargs)

    monkeypatch.setattr(sqlite_driver.OneHopConnection, "_execute", counted)
    return seen


async def test_a_statement_is_one_crossing_with_its_rows(tmp_path: Path, hops: list[str]) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    async with engine.begin() as connection:
        await connection.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"))
        hops.clear()
        inserted = await connection.execute(text("INSERT INTO t (v) VALUES ('a'), ('b'), ('c')"))
        assert inserted.rowcount == 3
        rows = (await connection.execute(text("SELECT id, v FROM t ORDER BY id"))).all()
        assert [tuple(r) for r in rows] == [(1, "a"), (2, "b"), (3, "c")]
        updated = await connection.execute(text("UPDATE t SET v = 'z' WHERE id >= 2"))
        assert updated.rowcount == 2
        assert hops == ["_run", "_run", "_run"]  # three statements, three crossings
    await engine.dispose()


async def test_rows_of_an_insert_returning_and_lastrowid(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    async with engine.begin() as connection:
        await connection.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"))
        result = await connection.execute(text("INSERT INTO t (v) VALUES ('a') RETURNING id, v"))
        assert [tuple(r) for r in result.all()] == [(1, "a")]
        second = await connection.execute(text("INSERT INTO t (v) VALUES ('b')"))
        assert second.lastrowid == 2
    await engine.dispose()


async def test_a_failed_statement_raises_and_rolls_back(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    async with engine.begin() as connection:
        await connection.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)"))
        await connection.execute(text("INSERT INTO t (v) VALUES ('a')"))
    with pytest.raises(Exception, match="UNIQUE"):
        async with engine.begin() as connection:
            await connection.execute(text("INSERT INTO t (v) VALUES ('b')"))
            await connection.execute(text("INSERT INTO t (v) VALUES ('a')"))
    async with engine.connect() as connection:
        values = (await connection.execute(text("SELECT v FROM t"))).scalars().all()
    assert values == ["a"]  # the whole transaction rolled back, 'b' with it
    await engine.dispose()


async def test_no_crossing_to_roll_back_when_nothing_is_open(
    tmp_path: Path, hops: list[str]
) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    async with engine.connect() as connection:
        await connection.execute(text("SELECT 1"))
    hops.clear()
    async with engine.connect() as connection:  # the pool resets it on return: no crossing
        await connection.execute(text("SELECT 1"))
    assert hops == ["_run"]
    await engine.dispose()


@pytest.mark.usefixtures("tiny")
async def test_a_moves_writes_and_its_commit_are_one_crossing(
    tmp_path: Path, hops: list[str]
) -> None:
    """Save, log entry and deadlines of a move, and the commit: one crossing on SQLite,
    SQLAlchemy's errors."""
    from sqlalchemy.exc import IntegrityError

    from bot.service import Service
    from bot.store import repository as repo
    from tests.conftest import ALICE, BOB, HERE
    from tests.test_service import started

    service = await Service.open(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", render=False)
    await started(service, ALICE, BOB)
    async with service.sessions() as session, session.begin():
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        seen = row.version
        writes = repo.Writes().save_game(row, seen, {"updated_at": 5.0, "state": {"x": [1]}})
        writes.append_action(row.id, seen, 0, {"kind": "pass"}, 5.0, False)
        writes.clear_deadlines(row.id)
        writes.add_deadlines(
            [
                {"game_id": row.id, "seat": s, "kind": "default", "due_at": 9.0, "phase": "p"}
                for s in (0, 1)
            ]
        )
        hops.clear()
        await repo.run(session, writes)
        assert hops == []  # handed over: they go with the commit
    assert hops == ["_batch_then"]
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None and row.state == {"x": [1]} and row.version == seen + 1
        assert [(e.seq, e.action) for e in await repo.action_log(session, row.id)][-1] == (
            seen,
            {"kind": "pass"},
        )
        assert sorted(await repo.deadlines_of(session, row.id)) == [(0, "default"), (1, "default")]
    with pytest.raises(IntegrityError):  # the same log entry twice: retried by the service
        async with service.sessions() as session, session.begin():
            await repo.run(
                session, repo.Writes().append_action(row.id, seen, 0, {"kind": "pass"}, 6.0, False)
            )
    await service.close()


# ------------------------------------------------------------------ aiosqlite's internals


def test_the_aiosqlite_internals_this_driver_uses_are_there() -> None:
    """Fails loudly when an aiosqlite release drops an internal ``sqlite_driver`` uses: the bot
    still runs (on SQLAlchemy's own adapter, next test) but at a fraction of the throughput, so
    adapt ``sqlite_driver`` to the new release or keep the pin in pyproject.toml."""
    import aiosqlite

    missing = sqlite_driver.missing_internals()
    assert missing == [], (
        f"aiosqlite {aiosqlite.__version__} lacks {missing}: the service falls back to "
        "SQLAlchemy's aiosqlite adapter (slower, see bench service); fix sqlite_driver or the pin"
    )
    assert sqlite_driver.AVAILABLE


def test_a_missing_internal_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    import aiosqlite

    monkeypatch.delattr(aiosqlite.Connection, "_execute")
    assert sqlite_driver.missing_internals() == ["_execute"]


@pytest.mark.usefixtures("tiny")
async def test_without_the_internals_the_service_runs_on_sqlalchemys_adapter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.service import Service
    from bot.store import repository as repo
    from tests.conftest import ALICE, BOB, HERE
    from tests.test_service import started

    monkeypatch.setattr(sqlite_driver, "AVAILABLE", False)
    service = await Service.open(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", render=False)
    async with service.engine.connect() as connection:
        raw = (await connection.get_raw_connection()).driver_connection
        assert not isinstance(raw, sqlite_driver.OneHopConnection)
    await started(service, ALICE, BOB)
    assert (await service.act(ALICE, HERE, "tiny", "bid", {"amount": 2})).ok
    assert (await service.act(BOB, HERE, "tiny", "bid", {"amount": 3})).ok
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None and row.state is not None and row.state["phase"] == "take"
        assert len(await repo.action_log(session, row.id)) == 2
    await service.close()


async def test_commits_are_synced_by_default_and_normal_on_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's ``synchronous``: FULL (2) unless SQLITE_SYNCHRONOUS says otherwise; the
    migrations' engine uses the same."""
    for setting, pragma in ((None, 2), ("NORMAL", 1), ("EXTRA", 3)):
        if setting is None:
            monkeypatch.delenv("SQLITE_SYNCHRONOUS", raising=False)
        else:
            monkeypatch.setenv("SQLITE_SYNCHRONOUS", setting)
        for ddl in (False, True):
            engine = create_engine(
                f"sqlite+aiosqlite:///{tmp_path / 's.db'}", transactional_ddl=ddl
            )
            async with engine.connect() as connection:
                assert (await connection.execute(text("PRAGMA synchronous"))).scalar() == pragma
            await engine.dispose()


@pytest.mark.usefixtures("tiny")
async def test_handed_over_writes_run_before_the_next_statement_or_not_at_all(
    tmp_path: Path, hops: list[str]
) -> None:
    """Writes handed to the connection run, in one crossing, before the transaction's next
    statement (which sees them); a stale save raises there and rolls the whole transaction
    back; a rollback drops them unrun."""
    from sqlalchemy.orm.exc import StaleDataError

    from bot.service import Service
    from bot.store import repository as repo
    from tests.conftest import ALICE, BOB, HERE
    from tests.test_service import started

    service = await Service.open(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", render=False)
    await started(service, ALICE, BOB)
    async with service.sessions() as session, session.begin():
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        game_id, seen = row.id, row.version
        await repo.run(session, repo.Writes().save_game(row, seen, {"updated_at": 7.0}))
        hops.clear()
        found = await session.execute(
            text("SELECT updated_at FROM games WHERE id = :id"), {"id": game_id}
        )
        assert found.scalar() == 7.0  # the save ran first
        assert hops == ["_batch_then"]  # and in the statement's crossing
    # A save of a version another writer has replaced: nothing of the transaction stays.
    with pytest.raises(StaleDataError):
        async with service.sessions() as session, session.begin():
            row = await repo.open_game(session, HERE.channel_id)
            assert row is not None and row.version == seen + 1
            writes = repo.Writes().append_action(game_id, 999, 0, {"kind": "pass"}, 8.0, False)
            await repo.run(session, writes.save_game(row, seen, {"updated_at": 8.0}))
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None and row.updated_at == 7.0 and row.version == seen + 1
        assert all(entry.seq != 999 for entry in await repo.action_log(session, game_id))
    # Rolled back before anything ran them: they never reach the file.
    async with service.sessions() as session:
        async with session.begin() as transaction:
            row = await repo.open_game(session, HERE.channel_id)
            assert row is not None
            await repo.run(session, repo.Writes().save_game(row, seen + 1, {"updated_at": 9.0}))
            hops.clear()
            await transaction.rollback()
        assert hops == []
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        await session.refresh(row)
        assert row.updated_at == 7.0
    await service.close()
