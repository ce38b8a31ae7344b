"""The bot's configuration: every environment variable it reads, read here and nowhere else.

``load`` reads a ``.env`` file (python-dotenv; the environment wins over the file) and then the
environment into one frozen ``Config``. A bad value is a ``ConfigError`` naming the variable,
raised at start, not a surprise later. An empty value counts as unset (``DEV_GUILD_ID=`` in a
``.env`` file means "no development guild"). README.md, "Configuration", lists them.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///partida.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# SQLite's durability: FULL syncs the WAL at every commit, so an acknowledged move survives a
# power loss; NORMAL syncs only at checkpoints (faster, but the last moves can be lost).
SQLITE_SYNCHRONOUS = ("FULL", "EXTRA", "NORMAL")


class ConfigError(ValueError):
    """A variable with a value the bot cannot use; the message names it and says what fits."""

    def __init__(self, variable: str, problem: str) -> None:
        super().__init__(f"{variable}: {problem}")
        self.variable = variable


@dataclass(frozen=True)
class Config:
    discord_token: str = ""
    database_url: str = DEFAULT_DATABASE_URL
    db_pool_size: int = 10  # PostgreSQL connections kept open per process
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    render_workers: int | None = None  # None: one process per core (0 on a one-core machine)
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    sqlite_synchronous: str = "FULL"
    # PostgreSQL's password, when not in DATABASE_URL: any characters, no URL-encoding needed.
    database_password: str | None = None
    # Seconds to wait at start for a database server that is not up yet (refused, starting).
    database_wait: int = 60
    # /healthz and /metrics (bot/discord/health.py): off unless a port is set.
    health_port: int | None = None
    health_host: str = "127.0.0.1"
    retention_days: int | None = None  # None: keep every closed game (docs/operations.md)


def _value(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


def _whole(env: Mapping[str, str], name: str, low: int, high: int | None = None) -> int | None:
    value = _value(env, name)
    if value is None:
        return None
    try:
        number = int(value)
    except ValueError:
        raise ConfigError(name, f"must be a whole number, got {value!r}") from None
    if number < low:
        raise ConfigError(name, f"must be at least {low}, got {number}")
    if high is not None and number > high:
        raise ConfigError(name, f"must be at most {high}, got {number}")
    return number


def _default(value: int | None, default: int) -> int:
    return default if value is None else value


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...], default: str) -> str:
    value = _value(env, name)
    if value is None:
        return default
    if value.upper() not in choices:
        raise ConfigError(name, f"must be one of {', '.join(choices)}, got {value!r}")
    return value.upper()


# The URL schemes the bot can use (``bot.store.database.database_url`` picks the async driver).
DATABASE_SCHEMES = (
    "sqlite",
    "sqlite+aiosqlite",
    "postgresql",
    "postgres",
    "postgresql+asyncpg",
    "postgresql+psycopg2",
)


def _database_url(env: Mapping[str, str]) -> str:
    return check_database_url(_value(env, "DATABASE_URL") or DEFAULT_DATABASE_URL)


def check_database_url(value: str, variable: str = "DATABASE_URL") -> str:
    """``value`` if it is a URL of a database the bot can use; else a ``ConfigError`` naming
    ``variable`` (the console's ``--database`` takes the same URLs)."""
    example = "e.g. sqlite:///partida.db or postgresql://user@host:5432/db"
    try:
        url = make_url(value)
        url.port  # noqa: B018  # parsed lazily: a port that is not a number fails here
    except (ArgumentError, ValueError):
        raise ConfigError(variable, f"is not a database URL ({example})") from None
    if url.drivername not in DATABASE_SCHEMES:
        raise ConfigError(
            variable,
            f"{url.drivername}:// is not a database Partida can use: SQLite or PostgreSQL "
            f"({example})",
        )
    return value


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    count = _whole(env, "SHARD_COUNT", 1)
    raw = _value(env, "SHARD_IDS")
    if raw is None:
        return count, None
    if count is None:
        raise ConfigError(
            "SHARD_IDS", "needs SHARD_COUNT (the total number of shards of every process)"
        )
    ids: list[int] = []
    for part in raw.split(","):
        if not part.strip():
            continue
        try:
            ids.append(int(part))
        except ValueError:
            raise ConfigError(
                "SHARD_IDS", f"must be shard numbers separated by commas, got {raw!r}"
            ) from None
    if not ids or any(not 0 <= i < count for i in ids):
        raise ConfigError("SHARD_IDS", f"must be numbers from 0 to {count - 1}, got {raw!r}")
    twice = next((i for i in ids if ids.count(i) > 1), None)
    if twice is not None:  # discord.py would open two sessions of it, each given every event
        raise ConfigError("SHARD_IDS", f"names shard {twice} twice, got {raw!r}")
    return count, tuple(ids)


def from_env(env: Mapping[str, str]) -> Config:
    """The configuration in ``env`` (raises ``ConfigError`` for the first bad value)."""
    count, ids = _shards(env)
    return Config(
        discord_token=_value(env, "DISCORD_TOKEN") or "",
        database_url=_database_url(env),
        # Not stripped: a password may end with a space.
        db_pool_size=_whole(env, "DB_POOL_SIZE", 1) or 10,
        dev_guild_id=_whole(env, "DEV_GUILD_ID", 1),
        log_level=_choice(env, "LOG_LEVEL", LOG_LEVELS, "INFO"),
        render_workers=_whole(env, "RENDER_WORKERS", 0),
        shard_count=count,
        shard_ids=ids,
        sqlite_synchronous=_choice(env, "SQLITE_SYNCHRONOUS", SQLITE_SYNCHRONOUS, "FULL"),
        database_password=env.get("DATABASE_PASSWORD") or None,
        database_wait=_default(_whole(env, "DATABASE_WAIT", 0), 60),
        health_port=_whole(env, "HEALTH_PORT", 1, 65535),
        health_host=_value(env, "HEALTH_HOST") or "127.0.0.1",
        retention_days=_whole(env, "RETENTION_DAYS", 1),
    )


def load(dotenv: Path | None = Path(".env")) -> Config:
    """Read ``dotenv`` (if it exists) into the environment, without replacing what is set
    there (to a value: an empty one counts as unset), then the configuration from the
    environment. ``partida`` calls this once at start."""
    if dotenv is not None and dotenv.is_file():
        from dotenv.main import DotEnv

        # override=False: a ``${NAME}`` in the file is the environment's NAME first, too.
        values = DotEnv(None, stream=io.StringIO(_read_dotenv(dotenv)), override=False).dict()
        for name, value in values.items():
            # The environment wins, but an empty value there counts as unset, as everywhere.
            if value is not None and not os.environ.get(name, "").strip():
                os.environ[name] = value
    return current()


def _read_dotenv(dotenv: Path) -> str:
    """The file's text; one it cannot read is a ``ConfigError`` naming it (python-dotenv would
    raise a traceback out of ``partida``)."""
    try:
        return dotenv.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(
            dotenv.name,
            f"is not UTF-8 text (byte {error.object[error.start]:#04x} at {error.start}): "
            "save it as UTF-8",
        ) from None
    except OSError as error:
        raise ConfigError(
            dotenv.name,
            f"cannot read it ({error.strerror or error}): let the bot's user read {dotenv.resolve()}",
        ) from None


def current() -> Config:
    """The configuration in the process's environment now (after ``load`` read ``.env``)."""
    return from_env(os.environ)
