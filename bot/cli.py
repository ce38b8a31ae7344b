"""The ``partida`` command: run the bot, sync its commands, play in the console, back up."""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot import config
from bot.store.database import SchemaError, database_url, is_sqlite, upgrade

if TYPE_CHECKING:  # the service loads the engines and SQLAlchemy: only for the commands using it
    from bot.service import Service

NO_TOKEN = """\
DISCORD_TOKEN is not set.

To run Partida on Discord you need a bot token:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", reset the token and copy it.
  3. Put it in the environment (export DISCORD_TOKEN=...) or in a .env file here:
       DISCORD_TOKEN=your-token
  4. Invite the bot (see README.md, "Inviting the bot"), then run: partida sync
     once to publish the slash commands, and partida run.

To try the games without Discord, play them in the console:
  partida console
  then type, for example:  @alice /game rules   (which games there are)
  @alice /game new <game>   @bob /game join   @alice /game start
"""


# Exit codes: 2 a usage or configuration problem, 3 a database the bot cannot use as it is.
USAGE, DATABASE = 2, 3


def main(argv: list[str] | None = None) -> int:
    try:
        settings = config.load()
    except config.ConfigError as error:
        print(f"configuration error: {error}", file=sys.stderr)
        return USAGE
    try:
        return _main(settings, argv)
    except config.ConfigError as error:  # an option given on the command line (--database)
        print(f"configuration error: {error}", file=sys.stderr)
        return USAGE
    except SchemaError as error:
        print(f"database error: {error}", file=sys.stderr)
        return DATABASE


def _main(settings: config.Config, argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(prog="partida", description="Board games by chat on Discord.")
    parser.add_argument("--log-level", default=None, type=str.upper, choices=config.LOG_LEVELS)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)")
    sync = sub.add_parser(
        "sync", help="publish the slash commands to Discord (global or one guild)"
    )
    sync.add_argument(
        "--guild", default=settings.dev_guild_id, type=int, help="a guild id for instant sync"
    )
    sync.add_argument(
        "--global",
        dest="everywhere",
        action="store_true",
        help="sync globally even if DEV_GUILD_ID is set",
    )
    console = sub.add_parser("console", help="play in the terminal as several users")
    console.add_argument("--images", default="images", help="folder for the rendered images")
    console.add_argument(
        "--database", default=None, help="database URL (default: DATABASE_URL or partida.db)"
    )
    console.add_argument("--locale", default="en", help="the server's language (en or es)")
    console.add_argument(
        "--threads",
        action="store_true",
        help="open a thread per game, as on Discord (type in one with @name#N)",
    )
    console.add_argument("script", nargs="?", help="a file of commands to play (default: stdin)")
    sub.add_parser("migrate", help="upgrade the database to the newest schema")
    backup = sub.add_parser(
        "backup", help="write a consistent copy of the SQLite database (safe while the bot runs)"
    )
    backup.add_argument("target")
    sub.add_parser(
        "doctor", help="check the token, the database and the bot's permissions; say what to fix"
    )
    dburl = sub.add_parser(
        "dburl", help="print the database URL in use (password hidden), or for pg_dump and psql"
    )
    dburl.add_argument(
        "--libpq",
        action="store_true",
        help="the postgresql:// form libpq tools take (pg_dump, psql), password included",
    )
    sub.add_parser(
        "compact",
        help="compact the logs of the games closed before 0008 now (the bot does it at start)",
    )
    prune = sub.add_parser(
        "prune", help="delete the games closed more than RETENTION_DAYS (or --days) days ago"
    )
    prune.add_argument("--days", type=int, default=settings.retention_days)
    ratings = sub.add_parser("ratings", help="the ratings (docs/ratings.md)")
    ratings.add_argument(
        "action",
        choices=["rebuild"],
        help="rebuild: rate every finished game again, in the order they ended",
    )
    args = parser.parse_args(argv)

    from bot.logs import setup_logging

    setup_logging(_log_level(args.log_level, args.command, settings), settings.discord_token)
    token = settings.discord_token
    if args.command in (None, "run"):
        if not token:
            print(NO_TOKEN, file=sys.stderr)
            return USAGE
        from bot.discord.run import run_bot

        # Migrate here, before connecting, so that a database the bot cannot use is reported
        # plainly (SchemaError) and not as a traceback out of the bot's start-up.
        url = database_url()
        asyncio.run(upgrade(url))
        return _with_discord(lambda: run_bot(token, url, settings.dev_guild_id))
    if args.command == "sync":
        if not token:
            print(NO_TOKEN, file=sys.stderr)
            return USAGE
        import discord

        from bot.discord.run import sync_commands

        guild = None if args.everywhere else args.guild

        def publish() -> int:
            try:
                count = sync_commands(token, guild)
            except discord.Forbidden as error:  # only a server's sync: the global one is ours
                print(
                    f"Discord refused to publish the commands in server {guild} ({error.text}): "
                    "invite the bot there first (README.md, Inviting the bot), or check the "
                    "id (Developer Mode on, then right-click the server, Copy Server ID)",
                    file=sys.stderr,
                )
                return 1
            print(f"synced {count} commands " + (f"to guild {guild}" if guild else "globally"))
            return 0

        return _with_discord(publish)
    if args.command == "console":
        from bot.console import run_console

        if args.database is not None:
            config.check_database_url(args.database, "--database")
        images = Path(args.images)
        if images.exists() and not images.is_dir():  # else a traceback at the first picture
            print(f"cannot write the pictures in {images}: not a folder", file=sys.stderr)
            return USAGE
        try:
            stream = open(args.script, encoding="utf-8") if args.script else sys.stdin  # noqa: SIM115
        except OSError as error:
            print(f"cannot read {args.script}: {error.strerror or error}", file=sys.stderr)
            return USAGE
        return asyncio.run(
            run_console(args.database, images, stream, locale=args.locale, threads=args.threads)
        )
    if args.command == "migrate":
        asyncio.run(upgrade(database_url()))
        print("database is at the newest schema")
        return 0
    if args.command == "ratings":
        return asyncio.run(
            _maintain(lambda s: s.rebuild_ratings(), "ratings rebuilt from {} finished games")
        )
    if args.command == "compact":
        return asyncio.run(
            _maintain(lambda s: s.compact_closed(), "compacted the logs of {} closed games")
        )
    if args.command == "prune":
        if args.days is None or args.days < 1:
            print("prune needs --days N (N >= 1) or RETENTION_DAYS", file=sys.stderr)
            return USAGE
        days = args.days
        return asyncio.run(
            _maintain(
                lambda s: s.prune(days), f"deleted {{}} games closed more than {days} days ago"
            )
        )
    if args.command == "backup":
        return backup_sqlite(database_url(), Path(args.target))
    if args.command == "dburl":
        return print_url(database_url(), libpq=args.libpq)
    if args.command == "doctor":
        from bot.doctor import run_doctor

        return run_doctor(os.environ.get("DISCORD_TOKEN", ""), database_url())
    parser.print_help()
    return USAGE


def _with_discord(job: Callable[[], int | None]) -> int:
    """Run ``job`` (the bot, or a sync) and return its exit code (None: 0); a login Discord
    refuses, or a Discord the machine cannot reach, is one line saying what to do instead of a
    traceback. Once logged in, the bot rides out network failures itself (discord.py
    reconnects)."""
    import aiohttp
    import discord

    from bot.doctor import TOKEN_REFUSED

    try:
        return job() or 0
    except discord.LoginFailure:
        print(f"{TOKEN_REFUSED} (`partida doctor` checks it.)", file=sys.stderr)
        return USAGE
    except aiohttp.ClientConnectionError as error:
        print(
            f"cannot reach Discord ({error}): check this machine's network, DNS and firewall "
            "(it must reach discord.com and gateway.discord.gg on port 443)",
            file=sys.stderr,
        )
        return 1


def _log_level(asked: str | None, command: str | None, settings: config.Config) -> str:
    """``--log-level``, else ``LOG_LEVEL``; but the console is a game on the terminal, and its
    INFO lines (a line per command) would be mixed into the game: it logs warnings only unless
    asked for more."""
    if asked is not None:
        return asked
    if command == "console" and "LOG_LEVEL" not in os.environ:
        return "WARNING"
    return settings.log_level


async def _maintain(job: Callable[[Service], Awaitable[int]], done: str) -> int:
    """One maintenance job of ``partida`` (rebuild, compact, prune) on the configured database,
    through the service without pictures; ``done`` says how many it did ("{}")."""
    from bot.service import Service

    service = await Service.open(database_url(), render=False)
    try:
        count = await job(service)
    finally:
        await service.close()
    print(done.format(count))
    return 0


def print_url(url: str, *, libpq: bool) -> int:
    """The URL the bot uses (``DATABASE_URL`` with ``DATABASE_PASSWORD``, any form it accepts),
    or with ``libpq`` the ``postgresql://`` URI that pg_dump, pg_restore and psql take: no
    driver name, the password percent-encoded, asyncpg's ``ssl`` as libpq's ``sslmode``."""
    from urllib.parse import quote, urlencode

    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if not libpq:
        print(parsed.render_as_string(hide_password=True))
        return 0
    if is_sqlite(url):
        print(
            "the database is SQLite, not PostgreSQL: back it up with partida backup",
            file=sys.stderr,
        )
        return USAGE
    user = quote(parsed.username or "", safe="")
    if parsed.password is not None:
        user += ":" + quote(str(parsed.password), safe="")
    host = parsed.host or ""
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    where = f"{host}:{parsed.port}" if parsed.port else host
    query = {("sslmode" if k == "ssl" else k): v for k, v in parsed.query.items()}
    tail = "?" + urlencode(query, doseq=True) if query else ""
    at = "@" if user else ""
    print(f"postgresql://{user}{at}{where}/{quote(parsed.database or '', safe='')}{tail}")
    return 0


def backup_sqlite(url: str, target: Path) -> int:
    """SQLite's online backup API copies a consistent snapshot page by page while other
    connections keep writing (WAL), so the bot need not stop."""
    if not is_sqlite(url):
        print("backup is for SQLite; for PostgreSQL use pg_dump", file=sys.stderr)
        return USAGE
    from sqlalchemy.engine import make_url

    source_path = make_url(url).database or "partida.db"
    if not Path(source_path).is_file():
        print(f"no database at {source_path}", file=sys.stderr)
        return USAGE
    # Into a temporary file beside the target, renamed over it once complete: a full disk or a
    # crash mid-copy leaves the target as it was (or absent), never a truncated copy under its
    # name.
    target = target.resolve()
    try:
        handle, partial = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".partial", dir=target.parent
        )
        os.close(handle)
    except OSError as error:
        print(f"backup failed, cannot write in {target.parent}: {error}", file=sys.stderr)
        return 1
    try:
        source = sqlite3.connect(source_path, timeout=30)
        destination = sqlite3.connect(partial)
        try:
            with destination:
                source.backup(destination)
        finally:
            destination.close()
            source.close()
        os.replace(partial, target)
    except (sqlite3.Error, OSError) as error:
        for leftover in (partial, f"{partial}-journal"):
            Path(leftover).unlink(missing_ok=True)
        print(f"backup failed, {target} left as it was: {error}", file=sys.stderr)
        return 1
    print(f"backed up {source_path} to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
