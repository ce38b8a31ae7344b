"""A database outage seen from Discord: every command, whether it changes a game or only reads,
is answered at once with the translated "database not available", and the log has one
WARNING when the outage begins and one when it ends, no traceback."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.store import outage
from i18n import t
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord


async def test_an_outage_answers_everyone_and_logs_twice(
    bots: Bots, fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bot = await bots.start()
    assert bot.service is not None
    alice = fake.add_user(101, "Alice")
    bob = fake.add_user(102, "Bob", "es-ES")
    await (await fake.slash(alice, "game new", game="tiny")).result()
    await fake.idle()  # the lobby posted and its message recorded
    outage.database.worked()
    caplog.set_level(logging.INFO)
    caplog.clear()
    # The file replaced by a folder, which SQLite cannot open (nothing else runs in between),
    # and the pool's open connections closed: the database is gone.
    (tmp_path / "partida.db").rename(tmp_path / "away.db")
    (tmp_path / "partida.db").mkdir()
    await bot.service.engine.dispose()
    answers = []
    for user, path in [(bob, "game join"), (alice, "game history"), (bob, "game mine")]:
        answers.append((user, (await (await fake.slash(user, path)).result()).text))
    (tmp_path / "partida.db").rmdir()
    (tmp_path / "away.db").rename(tmp_path / "partida.db")
    joined = await (await fake.slash(bob, "game join")).result()
    await fake.idle()
    for user, text in answers:
        lang = "es" if user is bob else "en"
        assert t("lobby.error.database", lang) in text, text
    assert t("lobby.error.database", "es") not in joined.text
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 2, warnings
    assert warnings[0].startswith("database unavailable")
    assert warnings[1].startswith("database available again")
    assert not any(r.exc_info for r in caplog.records)
