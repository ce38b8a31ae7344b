"""``partida run`` and ``partida sync`` when Discord will not have the bot: a token it refuses,
or no way to reach it. One line saying what to do, never a traceback (the token not in it)."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot.cli import main
from tests.fakediscord import FakeDiscord

TOKEN = "MTA4NzY1NDMyMTA5ODc2NTQzMg.GxYzAb.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture
def discord_elsewhere(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDiscord]:
    """The fake Discord on a loop of its own, so that ``partida`` (which runs its own loop
    with ``asyncio.run``) can be called as an admin runs it. Its access log is off: ``partida``
    points the logs at the test's captured stderr, closed before the fake's last lines."""
    monkeypatch.setattr(logging.getLogger("aiohttp.access"), "disabled", True)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def start() -> FakeDiscord:
        fake = FakeDiscord()
        await fake.start()
        return fake

    fake = asyncio.run_coroutine_threadsafe(start(), loop).result(30)
    try:
        yield fake
    finally:
        asyncio.run_coroutine_threadsafe(fake.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


@pytest.fixture
def admin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'partida.db'}")
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.delenv("HEALTH_PORT", raising=False)
    return monkeypatch


@pytest.mark.parametrize("command", [["run"], ["sync"], ["sync", "--guild", "5"]])
def test_a_token_discord_refuses(
    command: list[str],
    admin: pytest.MonkeyPatch,
    discord_elsewhere: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A token reset on the portal, or the client secret pasted in its place: Discord
    answers 401 to the login."""
    assert TOKEN != discord_elsewhere.token
    assert main(command) == 2
    err = capsys.readouterr().err
    assert "Discord refused the token" in err and "Reset Token" in err, err
    assert "Traceback" not in err and TOKEN not in err, err


@pytest.mark.parametrize("command", [["run"], ["sync"]])
def test_discord_out_of_reach(
    command: list[str],
    admin: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No network (a firewall, DNS down): the login cannot connect."""
    admin.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")
    assert main(command) == 1
    err = capsys.readouterr().err
    assert "cannot reach Discord" in err and "127.0.0.1" in err, err
    assert "Traceback" not in err and TOKEN not in err, err


def test_sync_to_a_server_the_bot_is_not_in(
    admin: pytest.MonkeyPatch,
    discord_elsewhere: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``partida sync --guild`` with a server that has not invited the bot yet, or a channel's
    or a user's id copied instead of the server's: Discord answers 403 Missing Access."""
    admin.setenv("DISCORD_TOKEN", discord_elsewhere.token)
    elsewhere = discord_elsewhere.guild_id + 1
    assert main(["sync", "--guild", str(elsewhere)]) == 1
    err = capsys.readouterr().err
    assert f"server {elsewhere}" in err and "invite" in err.lower() and "Copy Server ID" in err
    assert "Traceback" not in err and discord_elsewhere.token not in err, err
    assert main(["sync", "--guild", str(discord_elsewhere.guild_id)]) == 0
    assert f"to guild {discord_elsewhere.guild_id}" in capsys.readouterr().out
