"""``partida doctor`` against the fake Discord and a temporary SQLite database."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.cli import main
from bot.doctor import Finding, diagnose, report, token_shape
from bot.service import Actor, Place, Service
from tests.fakediscord import FakeDiscord

QUIET = 920_000_000_000_000_002  # a channel where an overwrite takes permissions away
GONE = 920_000_000_000_000_999  # a channel deleted since its game was opened


async def open_games(url: str, *channels: int) -> None:
    service = await Service.open(url, render=False)
    try:
        for channel in channels:
            reply = await service.new_game(
                Actor(1, "Host"), Place(channel, FakeDiscord.guild_id), "tiny", {}
            )
            assert reply.ok
    finally:
        await service.close()


def problems(findings: list[Finding]) -> list[str]:
    return [f.text for f in findings if not f.ok]


async def test_all_in_order(fake: FakeDiscord, database: str) -> None:
    await open_games(database, fake.channel_id)
    findings = await diagnose(fake.token, database)
    assert problems(findings) == []
    assert any("#games in Game night" in f.text and "every permission" in f.text for f in findings)
    out = io.StringIO()
    assert report(findings, out) == 0 and "Everything is in order." in out.getvalue()


async def test_a_channel_missing_permissions_and_a_deleted_one(
    fake: FakeDiscord, database: str
) -> None:
    fake.channels[QUIET] = "quiet"
    fake.denied[QUIET] = (1 << 15) | (1 << 35)  # Attach Files, Create Public Threads
    await open_games(database, fake.channel_id, QUIET, GONE)
    findings = await diagnose(fake.token, database)
    [quiet, gone] = problems(findings)
    assert quiet.startswith("#quiet in Game night")
    assert "lacks Create Public Threads and Attach Files" in quiet
    assert "Server Settings" in quiet
    assert f"channel {GONE}" in gone and "cannot see" in gone
    assert report(findings, io.StringIO()) == 1


async def test_a_role_without_embed_links(fake: FakeDiscord, database: str) -> None:
    fake.bot_permissions &= ~(1 << 14)
    await open_games(database, fake.channel_id)
    [missing] = problems(await diagnose(fake.token, database))
    assert "lacks Embed Links." in missing


async def test_a_token_discord_refuses(fake: FakeDiscord, database: str) -> None:
    await open_games(database)
    head, _, _ = fake.token.partition(".")
    wrong = f"{head}.abcdef.{'x' * 38}"
    [refused] = problems(await diagnose(wrong, database))
    assert refused.startswith("Discord refused the token")


def test_token_shapes() -> None:
    assert token_shape("").text.startswith("DISCORD_TOKEN is not set")
    assert "remove that word" in token_shape("Bot abc.def.ghi").text
    assert "quotes or spaces" in token_shape('"abc.def.ghi"').text
    assert "client secret" in token_shape("0123456789abcdef0123456789abcdef").text
    assert "not a bot's id" in token_shape("!!!!.abcdef.ghijkl").text
    good = token_shape("OTAwMDAwMDAwMDAwMDAwMDAx.abcdef." + "x" * 38)
    assert good.ok and "900000000000000001" in good.text


async def test_the_database_empty_missing_or_unreachable(tmp_path: Path) -> None:
    missing = f"sqlite+aiosqlite:///{tmp_path / 'none.db'}"
    (tmp_path / "empty.db").write_bytes(b"")
    empty = f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
    unreachable = "postgresql+asyncpg://partida:hunter2@127.0.0.1:1/partida"
    from bot.doctor import check_database

    [no_file], _ = await check_database(missing)
    assert (
        not no_file.ok and "no database file" in no_file.text and "partida migrate" in no_file.text
    )
    assert not (tmp_path / "none.db").exists(), "the doctor created nothing"
    found, _ = await check_database(empty)
    assert [f.ok for f in found] == [True, False] and "empty" in found[1].text
    [refused], _ = await check_database(unreachable)
    assert not refused.ok and "cannot reach the database server at 127.0.0.1:1" in refused.text
    assert "hunter2" not in refused.text and "***" in refused.text


def test_the_command_exits_nonzero_when_something_is_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "Bot not-a-token")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'partida.db'}")
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "FIX   DISCORD_TOKEN starts with" in out and "until the token is fixed" in out


async def test_the_pictures_font_missing(
    fake: FakeDiscord, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without DejaVu (a slim Docker image, a minimal server) the pictures fall back to
    Pillow's font, which has none of the games' symbols: every one is drawn as an empty box,
    and nothing said so. The doctor does, with the package to install."""
    import render.common

    findings = await diagnose(fake.token, database)
    assert any(f.ok and "font" in f.text for f in findings), "found here"
    monkeypatch.setattr(
        render.common, "_FONT_FILES", {False: ("/nowhere/A.ttf",), True: ("/nowhere/B.ttf",)}
    )
    [missing] = problems(await diagnose(fake.token, database))
    assert "DejaVu" in missing and "apt-get install fonts-dejavu-core" in missing


async def test_a_damaged_sqlite_file(tmp_path: Path) -> None:
    """Not a SQLite database (a disk fault, a half-copied backup): the doctor says what
    ``partida run`` says, restore a backup; not to check "that the server is running and
    accepts this user and password", which a SQLite file has neither of."""
    from bot.doctor import check_database

    (tmp_path / "partida.db").write_bytes(bytes(range(256)) * 20)
    [damaged], _ = await check_database(f"sqlite+aiosqlite:///{tmp_path / 'partida.db'}")
    assert not damaged.ok and "damaged" in damaged.text and "Restore a backup" in damaged.text
    assert "server" not in damaged.text and "password" not in damaged.text


async def test_another_applications_database(tmp_path: Path) -> None:
    """An unknown revision and none of Partida's tables: another application's database, as
    ``partida migrate`` says, not "a newer version upgraded it" followed by a failed read
    reported as a server that cannot be reached."""
    import sqlite3

    from bot.doctor import check_database

    path = tmp_path / "shop.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)")
        connection.execute("INSERT INTO alembic_version VALUES ('4f2a9c1b7e3d')")
    findings, games = await check_database(f"sqlite+aiosqlite:///{path}")
    assert [f.ok for f in findings] == [True, False] and games == []
    assert "another application" in findings[1].text and "of its own" in findings[1].text
