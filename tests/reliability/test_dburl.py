"""The database URL an admin gives, in every form the bot accepts, reaches pg_dump intact
(``partida dburl --libpq``), and a password of any characters reaches the bot intact
(``DATABASE_PASSWORD``, as deploy/compose.yaml passes it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot import config
from bot.store.database import database_url

ROOT = Path(__file__).resolve().parents[2]
# Passwords that break a URL built by plain substitution (the 1 of 6 the issue found, and more).
PASSWORDS = ["plain", "p@ss", "a/b", "c#d", "e%41f", "g:h", "sp ace", "all@/#%:? ", "ñandú$"]


@pytest.mark.parametrize("password", PASSWORDS)
def test_database_password_reaches_the_bot_verbatim(
    password: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {
        "DATABASE_URL": "postgresql://partida@db:5432/partida",
        "DATABASE_PASSWORD": password,
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert config.current().database_password == password
    assert make_url(database_url()).password == password


def dburl(url: str, **env: str) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "bot.cli", "dburl", "--libpq"],
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT), "DATABASE_URL": url}
        | env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT / "deploy",  # (no .env there)
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_the_libpq_form_of_each_url_form() -> None:
    forms = {
        "postgresql+asyncpg://u:p%40w@h:5433/d?ssl=require": (
            "postgresql://u:p%40w@h:5433/d?sslmode=require"
        ),
        "postgresql://u:pw@h/d": "postgresql://u:pw@h/d",
        "postgres://u@h/d": "postgresql://u@h/d",
        "postgresql+psycopg2://u@[::1]:5432/d": "postgresql://u@[::1]:5432/d",
    }
    for given, expected in forms.items():
        assert dburl(given) == expected, given
    assert dburl("postgresql://u@h/d", DATABASE_PASSWORD="a b@c/d#e%f:g") == (
        "postgresql://u:a%20b%40c%2Fd%23e%25f%3Ag@h/d"
    )


def test_pg_dump_takes_every_url_form() -> None:
    """The documented backup command, `pg_dump -Fc -d "$(partida dburl --libpq)"`, against a
    real server, for each form of DATABASE_URL (a password of URL-breaking characters too: the
    test server trusts its users, so the password is parsed, not checked)."""
    url = os.environ.get("PARTIDA_TEST_PG_URL")
    if not url:
        pytest.skip("PARTIDA_TEST_PG_URL is not set (tests/reliability/start_postgres.sh)")
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed (Debian package postgresql-client)")
    parsed = make_url(url)
    forms = [
        parsed.set(drivername="postgresql+asyncpg"),
        parsed.set(drivername="postgresql"),
        parsed.set(drivername="postgres"),
    ]
    for form in forms:
        for password in (None, "all@/#%: x"):
            env = {"DATABASE_PASSWORD": password} if password else {}
            libpq = dburl(form.render_as_string(hide_password=False), **env)
            dump = subprocess.run(
                ["pg_dump", "--schema-only", "-d", libpq],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert dump.returncode == 0, (form.drivername, password, dump.stderr)
            assert "PostgreSQL database dump" in dump.stdout


@pytest.mark.parametrize("mode", ["disable", "prefer"])
def test_libpqs_sslmode_reaches_asyncpg(mode: str, tmp_path: Path) -> None:
    """``?sslmode=require`` is how hosted PostgreSQL services write their URLs (libpq's name);
    asyncpg calls it ``ssl``, and took ``sslmode`` for a keyword it does not know: a
    TypeError traceback out of ``partida migrate``. The test server has no TLS, so the modes
    it accepts are tried."""
    url = os.environ.get("PARTIDA_TEST_PG_URL")
    if not url:
        pytest.skip("PARTIDA_TEST_PG_URL is not set (tests/reliability/start_postgres.sh)")
    given = make_url(url).set(drivername="postgresql").update_query_dict({"sslmode": mode})
    run = subprocess.run(
        [sys.executable, "-m", "bot.cli", "migrate"],
        env={
            "PATH": os.environ.get("PATH", ""),
            "PYTHONPATH": str(ROOT),
            "DATABASE_URL": given.render_as_string(hide_password=False),
            "DATABASE_WAIT": "0",
        },
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert dburl(given.render_as_string(hide_password=False)).endswith(f"?sslmode={mode}")
