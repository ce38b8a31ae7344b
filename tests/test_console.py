"""The console adapter, driven by a script as a user would type it."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

from bot.console import run_console
from tests.support.tiny import install

SCRIPT = """\
# a whole tiny game, with a Spanish player, a stranger and a timeout
@alice /game new tiny rounds:1
@bob:es /game join
@alice /game start
@alice /tiny bid 3
@carol /tiny bid 1
/wait 25h
@alice /press 1
@bob /game status
@bob /tiny take
@alice /game history
nonsense line
"""


async def test_a_scripted_game_in_the_console(tmp_path: Path) -> None:
    install()
    out = io.StringIO()
    code = await run_console(
        f"sqlite+aiosqlite:///{tmp_path / 'c.db'}", tmp_path / "img", io.StringIO(SCRIPT), out
    )
    text = out.getvalue()
    assert code == 0
    assert "Te has unido" in text, "bob's client speaks Spanish"
    assert "You are not playing in this game." in text, "carol is not seated"
    assert "bob ran out of time" in text, "the 25-hour wait ran bob's deadline"
    assert "Winner: alice" in text
    assert "Finished games in this channel" in text
    assert "? Write: @user /command" in text


def test_console_words_read_like_discord_options() -> None:
    from bot.console import _command_named, _split, _words
    from rules.core import get_game

    assert _words(r"place trap:wall square:B2 orientation:\ ") == [
        "place",
        "trap:wall",
        "square:B2",
        "orientation:\\",
    ]
    assert _words('keep dice:"a c"') == ["keep", "dice:a c"]
    assert _split(["dice:a", "c", "d"]) == ({"dice": "a c d"}, [])
    assert _split(["A1", "to:B2"]) == ({"to": "B2"}, ["A1"])
    zvv = get_game("zvv")
    assert _command_named("zvv", zvv.commands, "tirar") == "roll"
    assert _command_named("zvv", zvv.commands, "roll") == "roll"


RATED = """\
@alice /game new tiny rounds:1
@bob /game join
@alice /game start
@alice /tiny bid 3
@bob /tiny bid 1
@alice /tiny pass
@bob /tiny pass
@bob /game leaderboard tiny
@carol:es /game leaderboard game:tiny
@carol /game stats @alice
@bob /game stats
"""


async def test_ratings_in_the_console_and_the_rebuild_command(tmp_path: Path) -> None:
    from bot.cli import main

    install()
    url = f"sqlite+aiosqlite:///{tmp_path / 'c.db'}"
    out = io.StringIO()
    assert await run_console(url, tmp_path / "img", io.StringIO(RATED), out) == 0
    text = out.getvalue()
    assert "Ratings: alice" in text, "the closing message tells the change"
    assert "leaderboard on this server (page 1 of 1)" in text
    assert "1. alice" in text and "2. bob" in text
    assert "Clasificación de" in text, "each reader's language"
    assert "alice: jugadas 1, ganadas 1" in text and "bob: played 1, won 0" in text
    # partida ratings rebuild: the same ratings from the stored games.
    os.environ["DATABASE_URL"] = url
    try:
        assert await asyncio.to_thread(main, ["ratings", "rebuild"]) == 0
    finally:
        del os.environ["DATABASE_URL"]
    again = io.StringIO()
    await run_console(url, tmp_path / "img", io.StringIO("@bob /game stats\n"), again)
    assert "bob: played 1, won 0" in again.getvalue()
