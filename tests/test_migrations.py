"""The Alembic migrations and the models agree, and the schema enforces its rules."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, text

from bot.store.database import SchemaError, upgrade, upgrade_sync
from bot.store.database import create_engine as create_async_engine
from bot.store.models import Base

# Autogenerate cannot compare the leaderboard's index on an expression, and says so; it is
# checked by reading the schema (test_the_lists_indexes_are_made_as_the_models_name_them).
pytestmark = [
    pytest.mark.filterwarnings("ignore:autogenerate skipping metadata-specified expression"),
    pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based"),
]


def test_models_and_migrations_agree(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as connection:
        diff = compare_metadata(
            MigrationContext.configure(connection, opts={"compare_type": True}), Base.metadata
        )
    engine.dispose()
    assert diff == [], f"models differ from migrations; run autogenerate: {diff}"


def test_the_lists_indexes_are_made_as_the_models_name_them(tmp_path: Path) -> None:
    """Autogenerate cannot compare an index on an expression (the leaderboard's) nor see a
    partial index's condition on SQLite: they are read back from the schema here."""
    path = tmp_path / "ix.db"
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    with sqlite3.connect(path) as connection:
        made = dict(connection.execute("SELECT name, sql FROM sqlite_master WHERE type='index'"))
    assert "(mu - 3 * sigma) DESC" in made["ix_ratings_rank"]
    for partial in ("ix_games_open_guild", "ix_games_open_parent"):
        assert made[partial].endswith("WHERE open_channel_id IS NOT NULL"), made[partial]
    assert "ix_games_channel_id" not in made and "ix_games_parent_channel_id" not in made
    assert {"ix_games_channel_listed", "ix_games_parent_listed"} <= set(made)


def test_upgrade_is_idempotent(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'twice.db'}"
    upgrade_sync(url)
    upgrade_sync(url)


# ------------------------------------------------------------------ an interrupted first start

# Run the migration in a process that SIGKILLs itself right after the statement starting with
# ``point`` has run (a chosen point, not a timing): nothing after it, the commit included.
_KILLED_AT = """
import os, signal, sys
from sqlalchemy import event
from sqlalchemy.engine import Engine
from bot.store.database import SchemaError, upgrade_sync

url, point = sys.argv[1], sys.argv[2]

@event.listens_for(Engine, "after_cursor_execute")
def _kill(conn, cursor, statement, parameters, context, executemany):
    if statement.lstrip().startswith(point):
        os.kill(os.getpid(), signal.SIGKILL)

upgrade_sync(url)
print("not killed")
"""


def _schema_complete(path: Path) -> None:
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as connection:
        diff = compare_metadata(
            MigrationContext.configure(connection, opts={"compare_type": True}), Base.metadata
        )
        heads = MigrationContext.configure(connection).get_current_heads()
    engine.dispose()
    assert diff == [] and heads == (_newest(),), (diff, heads)


def _newest() -> str:
    """The newest revision of migrations/ (the one head a complete schema is at)."""
    from alembic.script import ScriptDirectory

    (head,) = ScriptDirectory(str(Path(__file__).resolve().parents[1] / "migrations")).get_heads()
    return str(head)


@pytest.mark.parametrize(
    "point",
    [
        "CREATE TABLE games",  # the first table of the first revision
        "CREATE INDEX ix_deadlines_due_at",  # midway
        "CREATE TABLE seats",  # every table made, no version yet
        "INSERT INTO alembic_version",  # the version stamped, not committed
    ],
)
def test_a_start_killed_inside_the_migration_starts_next_time(tmp_path: Path, point: str) -> None:
    path = tmp_path / "killed.db"
    url = f"sqlite+aiosqlite:///{path}"
    killed = subprocess.run(
        [sys.executable, "-c", _KILLED_AT, url, point],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stdout + killed.stderr
    tables = sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [], f"the killed revision left {tables}: it was not one transaction"
    upgrade_sync(url)  # the next start
    _schema_complete(path)


def _half_made(path: Path, *names: str) -> None:
    """What a killed first start of an earlier version left: some tables, no version."""
    engine = create_engine(f"sqlite:///{path}")
    for name in names:
        Base.metadata.tables[name].create(engine)
    engine.dispose()


def test_a_half_made_empty_schema_is_repaired(tmp_path: Path) -> None:
    path = tmp_path / "half.db"
    _half_made(path, "games", "players")
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    _schema_complete(path)


def test_tables_with_rows_but_no_version_are_refused_not_dropped(tmp_path: Path) -> None:
    path = tmp_path / "rows.db"
    _half_made(path, "players")
    with sqlite3.connect(path) as connection:
        connection.execute("INSERT INTO players (user_id, language) VALUES (1, 'es')")
    with pytest.raises(SchemaError, match="no schema version"):
        upgrade_sync(f"sqlite+aiosqlite:///{path}")
    kept = sqlite3.connect(path).execute("SELECT user_id, language FROM players").fetchall()
    assert kept == [(1, "es")]


# ------------------------------------------------------------------ databases the bot cannot use


def _migrate(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, path: Path) -> int:
    from bot.cli import main

    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")
    return main(["migrate"])


def test_an_unknown_revision_is_a_clear_message_and_exit_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "newer.db"
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0099'")
    assert _migrate(monkeypatch, tmp_path, path) == 3
    err = capsys.readouterr().err
    assert "revision '0099'" in err and "newer Partida" in err and "Traceback" not in err


def test_another_applications_database_is_not_called_a_newer_partidas(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """DATABASE_URL pointing at a database another Alembic application uses (its own
    ``alembic_version``, none of Partida's tables): told to give Partida a database of its
    own, not to "run the newer Partida" that migrated it."""
    path = tmp_path / "shop.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)")
        connection.execute("INSERT INTO alembic_version VALUES ('4f2a9c1b7e3d')")
        connection.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY)")
    assert _migrate(monkeypatch, tmp_path, path) == 3
    err = capsys.readouterr().err
    assert "another application" in err and "a database of its own" in err, err
    assert "newer Partida" not in err and "Traceback" not in err


def test_a_corrupt_database_is_a_clear_message_and_exit_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "corrupt.db"
    path.write_bytes(bytes(range(256)) * 64)
    assert _migrate(monkeypatch, tmp_path, path) == 3
    err = capsys.readouterr().err
    assert "damaged or not a Partida database" in err and "backup" in err
    assert "Traceback" not in err


def test_partida_run_migrates_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``partida run`` migrates before connecting (to report a database it cannot use plainly);
    the bot's start-up, which opens the service, does not run Alembic a second time."""
    from bot.discord import run
    from bot.discord.client import PartidaBot
    from bot.store import database

    migrations: list[str] = []
    real = database.upgrade_sync

    def counted(url: str) -> None:
        migrations.append(url)
        real(url)

    async def serve(bot: PartidaBot, token: str) -> None:
        # As serve runs it, without the gateway: leaving ``async with`` closes the bot (its
        # tasks awaited, then the service), so nothing is left for SQLite's thread to answer
        # after the event loop has closed.
        async with bot:
            await bot.setup_hook()  # what start-up runs before the gateway: opens the service
            assert bot._deadline_task is not None

    monkeypatch.setattr(database, "upgrade_sync", counted)
    monkeypatch.setattr(run, "serve", serve)
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'run.db'}")
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    from bot.cli import main

    assert main(["run"]) == 0
    assert len(migrations) == 1, migrations


async def test_a_new_database_file_is_its_owners_alone(tmp_path: Path) -> None:
    """It will hold every player's hidden cards, as its backups do (0600): under the usual
    umask 022 a new partida.db was readable by every user of the machine, -wal and -shm too."""
    path = tmp_path / "partida.db"
    url = f"sqlite+aiosqlite:///{path}"
    previous = os.umask(0o022)
    try:
        await upgrade(url, wait=0)
        engine = create_async_engine(url)
        async with engine.begin() as connection:  # a write: SQLite makes its -wal and -shm
            await connection.execute(text("UPDATE alembic_version SET version_num = version_num"))
            modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir()}
        await engine.dispose()
    finally:
        os.umask(previous)
    assert "partida.db-wal" in modes, modes
    assert set(modes.values()) == {0o600}, modes
