"""A damaged database file: the deadline runner says what is wrong and what to do, instead of
killing the console or retrying forever in the bot."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from bot.console import run_console
from bot.service import Actor, Place, Service
from bot.service.errors import DamagedDatabase

HERE = Place(100, 1)


async def _damaged_database(path: Path) -> str:
    """A database with a game waiting on a deadline, then its pages overwritten on disk."""
    url = f"sqlite+aiosqlite:///{path}"
    service = await Service.open(url, render=False)
    await service.new_game(Actor(1, "Alice"), HERE, "tiny", {})
    await service.join(Actor(2, "Bob"), HERE)
    await service.start(Actor(1, "Alice"), HERE)
    await service.close()  # the last connection folds the WAL back into the file
    data = bytearray(path.read_bytes())
    for offset in range(4096, len(data), 4096):  # every page but the first (the header)
        data[offset : offset + 4096] = b"\xa5" * min(4096, len(data) - offset)
    path.write_bytes(bytes(data))
    return url


async def test_the_deadline_runner_names_a_damaged_database(tmp_path: Path) -> None:
    url = await _damaged_database(tmp_path / "d.db")
    service = await Service.open(url, render=False, migrate=False)
    try:
        with pytest.raises(DamagedDatabase, match="malformed|not a database"):
            await service.run_deadlines()
        with pytest.raises(DamagedDatabase):
            await service.next_deadline()
    finally:
        await service.close()


async def test_the_console_keeps_going_on_a_damaged_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "c.db"
    url = await _damaged_database(path)
    from bot.service import service as service_module

    real_open = service_module.Service.open

    async def open_without_migrating(url: str | None = None, **kwargs: Any) -> Service:
        kwargs["migrate"] = False  # (the start-up check of the schema is tested on its own)
        return await real_open(url, **kwargs)

    monkeypatch.setattr(service_module.Service, "open", open_without_migrating)
    out = io.StringIO()
    script = io.StringIO("/wait 1m\n@alice /game status\n/wait 2m\n")
    code = await run_console(url, tmp_path / "img", script, out)
    text = out.getvalue()
    assert code == 0
    # after each of the three lines (both waits and the command), and no crash
    assert text.count("the database is damaged") == 3, text
    assert "restore the latest backup" in text
