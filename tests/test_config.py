"""The configuration: read once from the environment and .env, a bad value named at start."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot import config
from bot.config import Config, ConfigError, from_env


def test_nothing_set_is_the_documented_defaults() -> None:
    assert from_env({}) == Config(
        discord_token="",
        database_url="sqlite+aiosqlite:///partida.db",
        db_pool_size=10,
        dev_guild_id=None,
        log_level="INFO",
        render_workers=None,
        shard_count=None,
        shard_ids=None,
        sqlite_synchronous="FULL",
        retention_days=None,
    )


def test_every_variable_is_read_and_typed() -> None:
    settings = from_env(
        {
            "DISCORD_TOKEN": " abc.def.ghi ",
            "DATABASE_URL": "postgresql://u@db/partida",
            "DB_POOL_SIZE": "4",
            "DEV_GUILD_ID": "1234",
            "LOG_LEVEL": "debug",
            "RENDER_WORKERS": "0",
            "SHARD_COUNT": "4",
            "SHARD_IDS": "2, 3",
            "SQLITE_SYNCHRONOUS": "normal",
            "RETENTION_DAYS": "365",
        }
    )
    assert settings == Config(
        "abc.def.ghi",
        "postgresql://u@db/partida",
        4,
        1234,
        "DEBUG",
        0,
        4,
        (2, 3),
        "NORMAL",
        retention_days=365,
    )


def test_the_database_password_wait_and_health_settings() -> None:
    settings = from_env(
        {
            "DATABASE_PASSWORD": " p@ss/w#rd ",
            "DATABASE_WAIT": "0",
            "HEALTH_PORT": "9108",
            "HEALTH_HOST": "0.0.0.0",
        }
    )
    assert settings.database_password == " p@ss/w#rd "  # verbatim: spaces may be part of it
    assert settings.database_wait == 0  # 0: do not wait (not the default 60)
    assert (settings.health_port, settings.health_host) == (9108, "0.0.0.0")
    assert (Config().database_wait, Config().health_port, Config().health_host) == (
        60,
        None,
        "127.0.0.1",
    )


def test_an_empty_value_counts_as_unset() -> None:
    assert from_env({"DEV_GUILD_ID": "", "RENDER_WORKERS": " ", "LOG_LEVEL": ""}) == Config()


@pytest.mark.parametrize(
    ("env", "variable", "says"),
    [
        ({"DB_POOL_SIZE": "ten"}, "DB_POOL_SIZE", "whole number"),
        ({"DB_POOL_SIZE": "0"}, "DB_POOL_SIZE", "at least 1"),
        ({"DEV_GUILD_ID": "my-guild"}, "DEV_GUILD_ID", "whole number"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL", "DEBUG, INFO"),
        ({"RENDER_WORKERS": "-1"}, "RENDER_WORKERS", "at least 0"),
        ({"RENDER_WORKERS": "two"}, "RENDER_WORKERS", "whole number"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT", "at least 1"),
        ({"SHARD_IDS": "0,1"}, "SHARD_IDS", "needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "SHARD_IDS", "from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "zero"}, "SHARD_IDS", "separated by commas"),
        # Twice: discord.py would open two sessions of shard 0, each getting every command.
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,1,0"}, "SHARD_IDS", "shard 0 twice"),
        ({"DATABASE_URL": "partida.db"}, "DATABASE_URL", "not a database URL"),
        ({"SQLITE_SYNCHRONOUS": "OFF"}, "SQLITE_SYNCHRONOUS", "FULL, EXTRA, NORMAL"),
        ({"DATABASE_URL": "mysql://u@db/p"}, "DATABASE_URL", "SQLite or PostgreSQL"),
        ({"DATABASE_URL": "postgresql://u@db:port/p"}, "DATABASE_URL", "not a database URL"),
        ({"DATABASE_WAIT": "-1"}, "DATABASE_WAIT", "at least 0"),
        ({"HEALTH_PORT": "0"}, "HEALTH_PORT", "at least 1"),
        # Not a TCP port: the bot would log in, then stop with OverflowError at the bind.
        ({"HEALTH_PORT": "99999"}, "HEALTH_PORT", "at most 65535"),
        ({"RETENTION_DAYS": "0"}, "RETENTION_DAYS", "at least 1"),
        ({"RETENTION_DAYS": "a year"}, "RETENTION_DAYS", "whole number"),
    ],
)
def test_a_bad_value_is_an_error_naming_the_variable(
    env: dict[str, str], variable: str, says: str
) -> None:
    with pytest.raises(ConfigError, match=says) as caught:
        from_env(env)
    assert caught.value.variable == variable and str(caught.value).startswith(f"{variable}:")


def test_the_command_reports_a_bad_value_and_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SHARD_IDS", "0")
    monkeypatch.delenv("SHARD_COUNT", raising=False)
    assert main(["migrate"]) == 2
    assert "configuration error: SHARD_IDS: needs SHARD_COUNT" in capsys.readouterr().err
    assert not (tmp_path / "partida.db").exists(), "nothing was done"


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """The variables the .env files here set, unset now and after the test (monkeypatch
    remembers them unset, so what load_dotenv puts in os.environ is taken out again)."""
    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID", "LOG_LEVEL", "DB_POOL_SIZE"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    return monkeypatch


def _load(tmp_path: Path, text: str) -> Config:
    dotenv = tmp_path / ".env"
    dotenv.write_text(text, encoding="utf-8")
    return config.load(dotenv)


def test_dotenv_inline_comments_are_not_part_of_the_value(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    settings = _load(
        tmp_path,
        "# the bot's settings\n"
        "DISCORD_TOKEN=abc.def # from the developer portal\n"
        "export DEV_GUILD_ID=1234  # my test server\n"
        'LOG_LEVEL="debug" # quoted, then a comment\n',
    )
    assert settings.discord_token == "abc.def"
    assert settings.dev_guild_id == 1234
    assert settings.log_level == "DEBUG"


def test_dotenv_a_hash_inside_quotes_is_kept(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> None:
    assert _load(tmp_path, 'DISCORD_TOKEN="abc#def" # comment\n').discord_token == "abc#def"


def test_dotenv_a_mismatched_quote_is_not_half_read(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    """The old parser stripped any quotes off both ends ('abc" became abc); python-dotenv
    refuses the line (with a warning) and reads the others."""
    settings = _load(tmp_path, "DISCORD_TOKEN='abc\"\nDEV_GUILD_ID=77\n")
    assert settings.discord_token == "" and "DISCORD_TOKEN" not in os.environ
    assert settings.dev_guild_id == 77


def test_the_environment_wins_over_dotenv(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("DEV_GUILD_ID", "5")
    assert _load(tmp_path, "DEV_GUILD_ID=6\n").dev_guild_id == 5


def test_a_bad_value_in_dotenv_names_the_variable(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ConfigError, match="DB_POOL_SIZE"):
        _load(tmp_path, "DB_POOL_SIZE=lots\n")


def test_a_dotenv_that_is_not_utf8_is_a_configuration_error(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    """Saved in another encoding (Latin-1 by an old editor): named, not a UnicodeDecodeError
    traceback out of python-dotenv."""
    dotenv = tmp_path / ".env"
    dotenv.write_bytes(b"DISCORD_TOKEN=abc\nDEV_GUILD_ID=12 # el servidor de pruebas de Jos\xe9\n")
    with pytest.raises(ConfigError, match="UTF-8") as caught:
        config.load(dotenv)
    assert caught.value.variable == ".env" and "DISCORD_TOKEN" not in os.environ


def test_an_unreadable_dotenv_is_a_configuration_error(
    tmp_path: Path, clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A .env the bot's user may not read (mode 0600, another owner) stops ``partida`` with
    one line naming it, exit code 2, not a PermissionError traceback."""
    from bot.cli import main

    clean_env.chdir(tmp_path)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\n", encoding="utf-8")
    real_read = Path.read_text

    def refused(path: Path, *args: object, **kwargs: object) -> str:
        # chmod 000 does not stop root, who runs the tests here: the kernel's answer, faked.
        if path.name == ".env":
            raise PermissionError(13, "Permission denied", str(path))
        return real_read(path, *args, **kwargs)  # type: ignore[arg-type]

    clean_env.setattr(Path, "read_text", refused)
    assert main(["dburl"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("configuration error: .env: cannot read it (Permission denied)"), err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["console", "missing.txt"], "cannot read missing.txt: No such file or directory"),
        (
            ["console", "--database", "mysql://u@db/p"],
            "configuration error: --database: mysql:// is not a database Partida can use",
        ),
        (["console", "--database", "games.db"], "configuration error: --database: is not a"),
    ],
)
def test_the_consoles_arguments_are_checked_like_the_environment(
    args: list[str],
    says: str,
    tmp_path: Path,
    clean_env: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A script that is not there, or a ``--database`` that is not a URL of SQLite or
    PostgreSQL: one line and exit code 2, as for ``DATABASE_URL`` (they were tracebacks)."""
    from bot.cli import main

    clean_env.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(says) and "Traceback" not in err, err
    assert not list(tmp_path.iterdir()), "nothing was made"


def test_an_empty_variable_in_the_environment_leaves_the_dotenv_value(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    """An empty value counts as unset in the environment too: ``DEV_GUILD_ID=`` exported
    (or given empty by compose's ``${VAR:-}``) does not hide the file's value. It did, and a
    ``DATABASE_URL`` in .env then silently gave way to the default SQLite file."""
    clean_env.setenv("DEV_GUILD_ID", "")
    clean_env.setenv("LOG_LEVEL", "  ")
    settings = _load(tmp_path, "DEV_GUILD_ID=6\nLOG_LEVEL=debug\n")
    assert settings.dev_guild_id == 6 and settings.log_level == "DEBUG"


def test_the_consoles_images_folder_that_is_a_file(
    tmp_path: Path, clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--images`` naming a file: said at once, not a FileExistsError traceback at the first
    picture, after the game's first moves were saved."""
    from bot.cli import main

    clean_env.chdir(tmp_path)
    (tmp_path / "pictures").write_text("not a folder", encoding="utf-8")
    assert main(["console", "--images", "pictures", "--database", "sqlite:///c.db"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cannot write the pictures in pictures: not a folder"), err
    assert not (tmp_path / "c.db").exists(), "nothing was played"


def test_dotenv_interpolation_takes_the_environments_value_first(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    """``${NAME}`` in .env is the environment's NAME when it is set there, as the variables
    themselves are (python-dotenv's ``load_dotenv(override=False)``, as before)."""
    clean_env.setenv("DB_NAME", "from-env")
    clean_env.delenv("DATABASE_URL", raising=False)
    settings = _load(tmp_path, "DB_NAME=from-file\nDATABASE_URL=sqlite:///${DB_NAME}.db\n")
    assert settings.database_url == "sqlite:///from-env.db"
