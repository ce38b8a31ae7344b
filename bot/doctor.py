"""``partida doctor``: is everything in place for the bot to run? It checks, and says in plain
sentences what to fix:

- the token: its shape (a pasted ``Bot `` prefix, quotes, a client secret instead of the bot
  token), then that Discord accepts it (logging in, and connecting to the gateway);
- the database: that it is reachable, that this user can write it (and, for SQLite, create
  files in its folder: ``-wal`` and ``-shm``), that its files have their folder's owner, and
  that its schema is at the newest revision;
- every channel with an open game: that the bot can see it and has the permissions it needs
  there (:data:`NEEDED`).

The exit code is 0 when all is well, 1 when something needs fixing.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import discord

from bot.store import database
from bot.store.database import alembic_config, create_engine, is_sqlite

# The permissions the bot uses in a game's channel, with the names Discord's settings show.
NEEDED = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("send_messages_in_threads", "Send Messages in Threads"),
    ("create_public_threads", "Create Public Threads"),
    ("embed_links", "Embed Links"),
    ("attach_files", "Attach Files"),
    ("read_message_history", "Read Message History"),
)
# How long to wait for Discord's gateway to say the bot is ready.
READY_TIMEOUT = 30.0


@dataclass(frozen=True)
class Finding:
    ok: bool
    text: str  # a sentence: what is fine, or what is wrong and how to fix it


@dataclass(frozen=True)
class OpenGame:
    game_id: int
    kind: str
    channel_id: int
    guild_id: int | None


# ---------------------------------------------------------------------------------- the token


def token_shape(token: str) -> Finding:
    """A bot token is three dot-separated parts, the first the bot's user id in base64."""
    if not token:
        return Finding(
            False, "DISCORD_TOKEN is not set: put the bot's token in the environment or in .env."
        )
    if token.lower().startswith("bot "):
        return Finding(
            False, 'DISCORD_TOKEN starts with "Bot ": remove that word, keep only the token.'
        )
    if token != token.strip().strip("'\"") or any(c.isspace() for c in token):
        return Finding(
            False, "DISCORD_TOKEN has quotes or spaces in it: keep only the token itself."
        )
    parts = token.split(".")
    if len(parts) != 3 or not all(parts):
        return Finding(
            False,
            "DISCORD_TOKEN does not look like a bot token (three parts separated by dots). "
            "Copy it again from the developer portal, Bot page, Reset Token; the client secret "
            "on the OAuth2 page is a different thing.",
        )
    try:
        user_id = base64.urlsafe_b64decode(parts[0] + "=" * (-len(parts[0]) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError):
        user_id = ""
    if not user_id.isdigit():
        return Finding(
            False,
            "DISCORD_TOKEN's first part is not a bot's id: copy the token again from the "
            "developer portal (Bot page, Reset Token).",
        )
    return Finding(True, f"The token is well formed (it belongs to the bot with id {user_id}).")


# ---------------------------------------------------------------------------------- the database


def _shown(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


async def check_database(url: str) -> tuple[list[Finding], list[OpenGame]]:
    """Reachable, at the newest schema; and the open games (channel by channel)."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from sqlalchemy import select

    from bot.store.models import GameRow

    if is_sqlite(url):
        from sqlalchemy.engine import make_url

        path = make_url(url).database or ""
        if path and path != ":memory:" and not Path(path).is_file():
            return [
                Finding(
                    False,
                    f"There is no database file at {path}: the bot creates it when it first "
                    "starts, or run `partida migrate` now. (If you meant another file, set "
                    "DATABASE_URL.)",
                )
            ], []
    heads = set(ScriptDirectory.from_config(alembic_config(url)).get_heads())
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            current = await connection.run_sync(
                lambda sync: MigrationContext.configure(sync).get_current_heads()
            )
            findings = [Finding(True, f"The database at {_shown(url)} is reachable.")]
            if set(current) == heads:
                findings.append(Finding(True, "The database schema is at the newest revision."))
            elif not current:
                findings.append(
                    Finding(
                        False,
                        "The database is empty: run `partida migrate` (or start the bot once).",
                    )
                )
                return findings, []
            elif set(current) - set(_all_revisions(url)) and not await connection.run_sync(
                database.has_games
            ):
                other = database.foreign(", ".join(current))
                findings.append(Finding(False, other[:1].upper() + other[1:] + "."))
                return findings, []
            elif set(current) - set(_all_revisions(url)):
                findings.append(
                    Finding(
                        False,
                        f"The database is at revision {', '.join(current)}, which this version "
                        "of Partida does not know: a newer version upgraded it. Install that "
                        "version (or newer) here too.",
                    )
                )
            else:
                findings.append(
                    Finding(
                        False,
                        f"The database is at revision {', '.join(current)}, the newest is "
                        f"{', '.join(sorted(heads))}: run `partida migrate`.",
                    )
                )
            findings.extend(await _writable(url))
            rows = await connection.execute(
                select(GameRow.id, GameRow.kind, GameRow.channel_id, GameRow.guild_id).where(
                    GameRow.open_channel_id.is_not(None)
                )
            )
            games = [OpenGame(*row) for row in rows]
    except Exception as exc:  # any driver's error: the sentence names it
        from bot.store import access

        said = access.describe(exc, url)  # what ``partida run`` would say, and what to do
        if said is None and database.corrupt(url, exc):
            said = database.damaged(url, exc)
        if said is not None:
            said = said.rstrip(".")
            return [Finding(False, f"The database at {_shown(url)} cannot be used: {said}.")], []
        return [
            Finding(
                False,
                f"Cannot reach the database at {_shown(url)} ({type(exc).__name__}: "
                f"{str(exc).splitlines()[0] if str(exc) else 'no details'}). Check DATABASE_URL, "
                "that the server is running and accepts this user and password.",
            )
        ], []
    finally:
        await engine.dispose()
    return findings, games


async def _writable(url: str) -> list[Finding]:
    """This user can write the database (and, for SQLite, create files in its folder), and the
    files agree with their folder's owner."""
    from bot.store import access
    from bot.store.database import write_probe

    me = access.user_name(os.geteuid())
    if is_sqlite(url):
        from sqlalchemy.engine import make_url

        path = Path(make_url(url).database or "")
        problem = access.sqlite_access(path) or access.mixed_owners(path)
        if problem is not None:
            return [Finding(False, f"The database cannot be used: {problem}.")]
    try:
        await write_probe(url)
    except Exception as error:  # any driver's error: the sentence names it
        said = access.describe(error, url) or f"{type(error).__name__}: {error}"
        return [Finding(False, f"The database cannot be written: {said}.")]
    where = " and its folder" if is_sqlite(url) else ""
    return [
        Finding(
            True,
            f"The database{where} can be written as {me} (run `partida doctor` as the bot's "
            "user to check for that user).",
        )
    ]


def _all_revisions(url: str) -> list[str]:
    from alembic.script import ScriptDirectory

    return [s.revision for s in ScriptDirectory.from_config(alembic_config(url)).walk_revisions()]


# ---------------------------------------------------------------------------------- Discord

# Said by the doctor and by ``partida run`` and ``sync`` when the login is answered 401.
TOKEN_REFUSED = (
    "Discord refused the token: it was reset or mistyped. Open the developer portal, Bot page, "
    "Reset Token, and put the new token in DISCORD_TOKEN."
)


async def check_discord(token: str, games: list[OpenGame]) -> list[Finding]:
    """Log in, connect to the gateway, and look at each open game's channel as the bot sees it."""
    intents = discord.Intents.none()
    intents.guilds = True  # what the bot itself asks for
    client = discord.AutoShardedClient(intents=intents)
    findings: list[Finding] = []
    async with client:
        try:
            await client.login(token)
        except discord.LoginFailure:
            return [Finding(False, TOKEN_REFUSED)]
        except (discord.HTTPException, OSError) as exc:
            return [Finding(False, f"Cannot reach Discord to log in ({exc}). Check the network.")]
        user = client.user
        findings.append(Finding(True, f"Discord accepts the token: the bot is {user}."))
        connecting = asyncio.create_task(client.connect(reconnect=False))
        ready = asyncio.create_task(client.wait_until_ready())
        done, _ = await asyncio.wait(
            {connecting, ready}, timeout=READY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            reason = "it closed the connection"
            if connecting.done() and connecting.exception() is not None:
                reason = str(connecting.exception())
            elif not connecting.done():
                reason = f"no answer within {READY_TIMEOUT:.0f} s"
            findings.append(
                Finding(
                    False,
                    f"The bot could not connect to Discord's gateway ({reason}). If it mentions "
                    "intents: switch every privileged intent off on the portal's Bot page.",
                )
            )
            return findings
        findings.append(Finding(True, f"The bot is connected and in {len(client.guilds)} servers."))
        if not games:
            findings.append(Finding(True, "No game is open, so no channel to check."))
        for game in games:
            findings.append(await _channel(client, game))
        await client.close()
        await asyncio.gather(connecting, return_exceptions=True)
    return findings


async def _channel(client: discord.Client, game: OpenGame) -> Finding:
    where = f"channel {game.channel_id} (game {game.game_id}, {game.kind})"
    channel = client.get_channel(game.channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(game.channel_id)
        except (discord.NotFound, discord.Forbidden):
            return Finding(
                False,
                f"The bot cannot see {where}: the channel was deleted, the bot was removed from "
                "that server, or it lacks View Channel there. Invite it again or give it View "
                "Channel; `/game cancel` in the channel closes the game.",
            )
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return Finding(False, f"{where} is not a server channel: games need a server channel.")
    guild = channel.guild
    me = guild.me
    name = f"#{channel.name} in {guild.name} (game {game.game_id}, {game.kind})"
    if me is None:
        return Finding(False, f"The bot is not a member of the server of {name}: invite it again.")
    permissions = channel.permissions_for(me)
    missing = [label for attribute, label in NEEDED if not getattr(permissions, attribute)]
    if not missing:
        return Finding(True, f"{name}: the bot has every permission it needs.")
    return Finding(
        False,
        f"{name}: the bot lacks {_listed(missing)}. Give {'it' if len(missing) == 1 else 'them'} "
        "to the bot's role (Server Settings, Roles) or in the channel (Edit Channel, "
        "Permissions).",
    )


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# ---------------------------------------------------------------------------------- pictures


def check_fonts() -> Finding:
    from render.common import fonts_found

    if fonts_found():
        return Finding(True, "The pictures' font (DejaVu) is installed.")
    return Finding(
        False,
        "The DejaVu font is not installed: the table pictures fall back to Pillow's font, "
        "which draws every symbol of the games as an empty box. Install it (Debian, Ubuntu: "
        "`apt-get install fonts-dejavu-core`), then restart the bot.",
    )


# ---------------------------------------------------------------------------------- all


async def diagnose(token: str, url: str) -> list[Finding]:
    shape = token_shape(token)
    if not shape.ok:
        shape = Finding(False, shape.text + " (Discord is not asked until the token is fixed.)")
    database, games = await check_database(url)
    fonts = check_fonts()
    return [shape, *database, fonts, *(await check_discord(token, games) if shape.ok else [])]


def report(findings: list[Finding], out: TextIO) -> int:
    for finding in findings:
        print(("ok    " if finding.ok else "FIX   ") + finding.text, file=out)
    problems = sum(not f.ok for f in findings)
    if problems:
        print(f"\n{problems} thing(s) to fix; then run `partida doctor` again.", file=out)
        return 1
    print("\nEverything is in order.", file=out)
    return 0


def run_doctor(token: str, url: str, out: TextIO | None = None) -> int:
    return report(asyncio.run(diagnose(token.strip(), url)), out or sys.stdout)
