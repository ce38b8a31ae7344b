"""The console adapter, driven by a script as a user would type it."""

from __future__ import annotations

import io
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


THREADS = """\
@alice /game new tiny rounds:1
@bob#1 /game join
@alice /game new tiny rounds:1
@carol#2 /game join
@alice#1 /game start
@alice /game status
@alice#1 /tiny bid 3
@bob#1 /tiny bid 1
@alice#1 /tiny take
@bob#1 /tiny pass
/wait 2h
"""


async def test_threads_and_edits_in_the_console(tmp_path: Path) -> None:
    install()
    out = io.StringIO()
    code = await run_console(
        f"sqlite+aiosqlite:///{tmp_path / 't.db'}",
        tmp_path / "img",
        io.StringIO(THREADS),
        out,
        threads=True,
    )
    text = out.getvalue()
    assert code == 0
    assert "[#thread 1 «tiny.name · alice»] (a thread from №1" in text
    assert "[#1 ✎ №1]" in text and "2/4: alice, bob" in text, "the lobby, edited in place"
    assert "There are 2 games here; use their threads: #thread 1" in text
    assert "[#thread 1 «tiny.name · alice» ✎ №3] ✅ alice is ready." in text
    assert "[#1 №" in text and "in #thread 1 «tiny.name · alice»: 🏆 Winner: alice" in text
    assert "[#thread 1 «tiny.name · alice»] (archived)" in text
