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


HELP_AND_MINE = """\
@ana:es /help
@ana:es /help farkle
@tom /tiny new rounds:4
@tom /game mine
@ana:es /game mine
"""


async def test_help_and_mine_in_the_console(tmp_path: Path) -> None:
    install()
    out = io.StringIO()
    code = await run_console(
        f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        tmp_path / "img",
        io.StringIO(HELP_AND_MINE),
        out,
    )
    text = out.getvalue()
    assert code == 0
    assert "`/partida nueva`" in text and "/farkle nueva" in text
    assert "rounds" in text and "opened" in text, "/tiny new takes the options"
    assert "(waiting for players): https://discord.com/channels/1/1" in text
    assert "No tienes ninguna partida abierta" in text
