"""One person and three computer players, in the console, each game to its end.

The person types only their own moves, as a player at a terminal would (``@alice /zvv move
…``); the computer players play theirs at once between the person's lines (the console plays
computers without the bot's short delay). The person's moves are picked by the easy policy
and typed as the command the engine maps them to.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bot.console import Console, ConsoleClock
from bot.service import Place, Service
from bot.service.match import Match
from bot.store import repository as repo
from bot.store.models import FINISHED, GameRow
from rules.core.policy import choose
from tests.support.registered import generic_games

# Every game with its default options but these: ZvV on its smallest board, ending at 40 rounds
# at most.
OPTIONS = {"zvv": "size:9 walls:4 round_limit:40"}
MAX_LINES = 3000


async def _game(service: Service) -> GameRow | None:
    async with service.sessions() as session:
        row = await repo.open_game(session, 1)
        if row is None:  # finished: the channel is free again; the game is the latest one
            rows = await repo.finished_games(session, 1, limit=1)
            return rows[0] if rows else None
        return row


def _typed(kind: str, match: Match, seat: int) -> str:
    """The person's move, as they would type it in the console."""
    action = choose(match.engine, match.state, seat, "easy")
    mapped = match.engine.to_command(action)
    assert mapped is not None, f"{kind}: {action!r} has no command a person could type"
    command, args = mapped
    words = " ".join(f"{k}:{v}" for k, v in args.items() if v is not None)
    return f"@alice /{kind} {command} {words}".rstrip()


@pytest.mark.parametrize("kind", generic_games())
async def test_one_person_and_three_computers_play_to_the_end(tmp_path: Path, kind: str) -> None:
    clock = ConsoleClock()
    service = await Service.open(
        f"sqlite+aiosqlite:///{tmp_path / 'c.db'}", clock=clock, render=False, computer_delay=0.0
    )
    out = io.StringIO()
    console = Console(service, clock, tmp_path / "img", out)
    try:
        await console.line(f"@alice /game new {kind} {OPTIONS.get(kind, '')}")
        await console.line("@alice /game addbot normal")
        await console.line("@alice /game addbot easy")
        await console.line("@alice /game addbot")
        await console.line("@alice /game start")
        typed = 0
        while True:
            row = await _game(service)
            assert row is not None
            if row.status == FINISHED:
                break
            match = Match.of(row)
            pending = match.engine.pending(match.state)
            assert set(pending) == {0}, (
                f"the computers never keep the table waiting: the person is awaited, not "
                f"{sorted(pending)}"
            )
            await console.line(_typed(kind, match, 0))
            typed += 1
            assert typed < MAX_LINES, "the game did not end"
        text = out.getvalue()
        (tmp_path / "console.txt").write_text(text)
        assert re.search(r"👥 2/\d: alice, 🤖 Normal 1\n", text), "the lobby names the computer"
        assert "🤖 Easy 2" in text and "🤖 Normal 3" in text
        assert "ran out of time" not in text, "nobody waited on a deadline"
        assert "⚠️" not in text, f"a typed move was refused: {_first_refusal(text)}"
        async with service.sessions() as session:
            log = await repo.action_log(session, row.id)
        typed_in_log = [e for e in log if e.seat == 0 and not e.by_default]
        assert len(typed_in_log) == typed, "each typed move is one entry of the log"
        rolled_for_her = {e.action["type"] for e in log if e.seat == 0 and e.by_default}
        assert rolled_for_her <= {"roll"}, "only ZvV's autoroll is played for the person"
        assert all(e.by_default for e in log if e.seat != 0), "computer moves are logged as such"
        assert await service.state_from_log(row.id) == row.state, "the log replays to the same game"
        history = await service.history(console.actor("alice", None), Place(1, 1, "en"))
        assert history.private is not None and "🤖 Normal 1" in str(history.private.whole)
    finally:
        await service.close()


def _first_refusal(text: str) -> str:
    found = re.search(r"⚠️[^\n]*", text)
    return found.group(0) if found else ""
