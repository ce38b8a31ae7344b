"""An admin's bad day: each database the bot cannot use ends ``partida migrate``/``run`` with
one line, ``database error: …`` saying what to do, and exit code 3 (docs/operations.md, "The
database"); a bad URL is a configuration error (exit 2); ``partida doctor`` finds the same.

The CLI runs in a subprocess, as an admin would run it. Files the bot's user may not write are
made the usual way (mode, owner, folder). Root may write anything, so when the tests run as
root the CLI runs as root *without* the capabilities that let it ignore modes and owners
(``setpriv --bounding-set=-dac_override,...``): then the kernel refuses it exactly as it
refuses another user (its sentences still name root as the user it runs as).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.store.database import upgrade_sync
from tests.support.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTA4NzY1NDMyMTA5ODc2NTQzMg.GxYzAb.abcdefghijklmnopqrstuvwxyz0123456789AB"
STRANGER = 10001  # a uid that is not the test's: the bot's user in the Docker image
ROOT_BOUND = ["--bounding-set=-dac_override,-dac_read_search,-fowner"]


def as_bot_user() -> list[str]:
    """The prefix that runs a command as a user that file modes and owners bind."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv (util-linux): root ignores file modes")
    try:
        probe = subprocess.run([setpriv, *ROOT_BOUND, "true"], capture_output=True, timeout=10)
    except OSError as error:
        pytest.skip(f"setpriv cannot run here: {error}")
    if probe.returncode != 0:
        pytest.skip(f"setpriv cannot drop capabilities here: {probe.stderr.decode().strip()}")
    return [setpriv, *ROOT_BOUND]


def partida(
    tmp_path: Path, *args: str, url: str, prefix: list[str] | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": url,
        "DATABASE_WAIT": "0",
        "DISCORD_TOKEN": TOKEN,
        **env,
    }
    return subprocess.run(
        [*(prefix or []), sys.executable, "-m", "bot.cli", *args],
        cwd=tmp_path,  # no .env of the developer's
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def one_line(run: subprocess.CompletedProcess[str], code: int, *words: str) -> str:
    """The run ended with ``code`` and one line on stderr holding ``words``; returns it."""
    lines = run.stderr.strip().splitlines()
    assert run.returncode == code and len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def database(tmp_path: Path) -> Path:
    """A migrated SQLite database alone in a folder, closed (no -wal, -shm left)."""
    folder = tmp_path / "state"
    folder.mkdir()
    path = folder / "partida.db"
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    for extra in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        extra.unlink(missing_ok=True)
    return path


def url_of(path: Path) -> str:
    return f"sqlite:///{path}"


@pytest.mark.parametrize("command", [["migrate"], ["run"]])
def test_a_read_only_database_file(tmp_path: Path, database: Path, command: list[str]) -> None:
    prefix = as_bot_user()
    database.chmod(0o444)
    run = partida(tmp_path, *command, url=url_of(database), prefix=prefix)
    line = one_line(run, 3, "database error:", str(database), "cannot write", "mode 0444")
    assert "chmod u+rw" in line


@pytest.mark.parametrize("command", [["migrate"], ["run"]])
def test_a_database_restored_as_another_user(
    tmp_path: Path, database: Path, command: list[str]
) -> None:
    """The backup is 0600 by design: restored by root (here: by another user), the bot's user
    cannot read it, and the sentence says whose it is and the chown that fixes it."""
    prefix = as_bot_user()
    if os.geteuid() != 0:
        pytest.skip("giving a file away needs root")
    database.chmod(0o600)
    os.chown(database, STRANGER, STRANGER)
    run = partida(tmp_path, *command, url=url_of(database), prefix=prefix)
    line = one_line(run, 3, "database error:", f"uid {STRANGER}", "mode 0600", "chown")
    assert "restored" in line


@pytest.mark.parametrize("command", [["migrate"], ["run"]])
def test_a_folder_the_bot_cannot_write(tmp_path: Path, database: Path, command: list[str]) -> None:
    """WAL needs partida.db-wal and partida.db-shm beside the file: a writable file in a folder
    the bot cannot write in is not enough."""
    prefix = as_bot_user()
    database.chmod(0o666)
    if os.geteuid() == 0:
        os.chown(database.parent, STRANGER, STRANGER)
    database.parent.chmod(0o755)
    try:
        run = partida(tmp_path, *command, url=url_of(database), prefix=prefix)
    finally:
        database.parent.chmod(0o755)
    one_line(run, 3, "database error:", "cannot create files", "partida.db-wal", "chown")


@pytest.mark.parametrize("command", [["migrate"], ["run"]])
def test_a_database_server_that_is_down(tmp_path: Path, command: list[str]) -> None:
    url = f"postgresql://partida:secret@127.0.0.1:{free_port()}/partida"
    run = partida(tmp_path, *command, url=url)
    line = one_line(run, 3, "database error:", "cannot reach the database server", "127.0.0.1")
    assert "secret" not in line


def test_a_server_not_up_is_waited_for_then_named(tmp_path: Path) -> None:
    """DATABASE_WAIT: the start tries again for that long, says once that it waits, then
    gives the same one line."""
    url = f"postgresql://partida:secret@127.0.0.1:{free_port()}/partida"
    started = time.monotonic()
    run = partida(tmp_path, "migrate", url=url, DATABASE_WAIT="2")
    assert time.monotonic() - started >= 2
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 3 and len(lines) == 2, run.stderr
    assert "level=WARNING" in lines[0] and "waiting up to 2 s for the database" in lines[0]
    assert lines[1].startswith("database error: cannot reach the database server")


def test_a_server_name_that_does_not_resolve(tmp_path: Path) -> None:
    run = partida(tmp_path, "migrate", url="postgresql://partida:secret@nowhere.invalid/partida")
    one_line(run, 3, "database error:", "'nowhere.invalid' is not known")


@pytest.mark.parametrize("parameter", ["connect_timeout=10", "application_name=partida"])
def test_a_url_parameter_the_driver_does_not_take(tmp_path: Path, parameter: str) -> None:
    """libpq's parameters that asyncpg does not know (a URL copied from a hosting service's
    page): one line naming it, not asyncpg's "connect() got an unexpected keyword argument"
    traceback. (Its ``sslmode`` is understood: test_dburl.py.)"""
    url = f"postgresql://partida:secret@127.0.0.1:{free_port()}/partida?{parameter}"
    for command in ("migrate", "run"):
        run = partida(tmp_path, command, url=url)
        name = parameter.partition("=")[0]
        line = one_line(run, 3, "database error:", f"?{name}=", "remove it")
        assert "secret" not in line


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://partida@db/partida", "mysql:// is not a database Partida can use"),
        ("postgresql://partida@db:port/partida", "is not a database URL"),
    ],
)
def test_a_bad_database_url_is_a_configuration_error(tmp_path: Path, url: str, words: str) -> None:
    run = partida(tmp_path, "migrate", url=url)
    one_line(run, 2, "configuration error: DATABASE_URL:", words)


def test_doctor_names_a_file_the_bot_cannot_write(tmp_path: Path, database: Path) -> None:
    prefix = as_bot_user()
    database.chmod(0o444)
    run = partida(tmp_path, "doctor", url=url_of(database), prefix=prefix, DISCORD_TOKEN="")
    assert run.returncode == 1
    assert "FIX   The database cannot be used: Partida, running as" in run.stdout
    assert "chmod u+rw" in run.stdout, run.stdout


def test_doctor_names_files_of_another_owner_even_as_root(tmp_path: Path, database: Path) -> None:
    """Run by root (who can write anything), doctor still sees a restore done as root: the
    database's files do not belong to its folder's owner, the bot's user."""
    if os.geteuid() != 0:
        pytest.skip("giving a folder away needs root")
    os.chown(database.parent, STRANGER, STRANGER)
    run = partida(tmp_path, "doctor", url=url_of(database), DISCORD_TOKEN="")
    assert run.returncode == 1
    assert f"`chown {STRANGER}: {database}*` as root" in run.stdout, run.stdout


def test_doctor_says_the_database_can_be_written(tmp_path: Path, database: Path) -> None:
    run = partida(tmp_path, "doctor", url=url_of(database), DISCORD_TOKEN="")
    assert "ok    The database and its folder can be written as" in run.stdout, run.stdout
    assert "cannot be used" not in run.stdout


def test_a_database_path_that_is_a_folder(tmp_path: Path) -> None:
    (tmp_path / "partida.db").mkdir()
    run = partida(tmp_path, "migrate", url=url_of(tmp_path / "partida.db"))
    one_line(run, 3, "database error:", "is a folder, not a database file")


def test_a_postgresql_user_that_may_not_read_the_tables(tmp_path: Path) -> None:
    """A migrated database, and a user that may connect but was granted nothing on its tables
    (a role made for the bot and never given the database): told what to grant, not that the
    database "is damaged or not a Partida database" and to "move the file away"."""
    import asyncio
    import uuid

    from sqlalchemy.engine import make_url

    from tests.reliability import pg

    url = pg.create_database()
    role = f"r_{uuid.uuid4().hex[:12]}"
    try:
        upgrade_sync(url)
        pg._in_thread(lambda: asyncio.run(pg._execute(url, f'CREATE ROLE "{role}" LOGIN')))
        as_role = make_url(url).set(username=role).render_as_string(hide_password=False)
        for command in ("migrate", "doctor"):
            run = partida(tmp_path, command, url=as_role, LOG_LEVEL="WARNING")
            said = run.stderr + run.stdout
            assert f"user {role!r} may not" in said, said
            assert "damaged" not in said and "move the file" not in said, said
        run = partida(tmp_path, "migrate", url=as_role, LOG_LEVEL="WARNING")
        one_line(run, 3, "database error:", "make it the owner of the database")
    finally:
        pg.drop_database(url)
        pg._in_thread(lambda: asyncio.run(pg._execute(pg.require_pg(), f'DROP ROLE "{role}"')))
