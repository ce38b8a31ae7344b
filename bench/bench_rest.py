"""What the chat sees, and what it costs in REST calls: whole games of each game played through
the fake Discord (tests/fakediscord) by random legal moves, clicked where a button makes them
and typed otherwise.

Printed per game: moves and resolved phases; REST calls in all and per move (interaction
calls included: a move that may change a game is deferred, then answered, two calls that
Discord's global rate limit does not count; lobby commands included; target ≤ 3 a move, of
which at most 1 a channel call); channel posts, edits and
pings (users a post may notify) per resolved phase; and the calls by route. Two kinds of
players: *patient* ones wait longer than the edit delay between moves (every readiness change
is an edit), *quick* ones submit together (several make one edit).

``python -m bench rest`` (environment: ``BENCH_REST_GAMES`` = games, default all four;
``BENCH_REST_SEATS`` = seats, default each game's largest table but ZvV's, whose long games
get 2; ``BENCH_REST_CLICKS=1``: no typed command, a move no button makes is made in the menus
of its steps, and the line adds the picks and private answers they cost).
"""

from __future__ import annotations

import asyncio
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from bot.discord import async_sync_commands
from bot.discord.client import PartidaBot
from bot.discord.send import EDIT_DELAY
from bot.service import Service
from rules.core import get_game
from tests.fakediscord import FakeDiscord
from tests.fakediscord.table import Counts, play

# FUSE's live mode runs on a 10-minute wall clock that random play never sees out: relaxed
# mode ends on its round limit.
OPTIONS: dict[str, dict[str, str]] = {"fuse": {"mode": "relaxed"}}
GAMES = os.environ.get("BENCH_REST_GAMES", "badbones farkle fuse zvv").split()
SEATS = os.environ.get("BENCH_REST_SEATS")
CLICKS = os.environ.get("BENCH_REST_CLICKS") == "1"


def seats_for(game: str) -> int:
    if SEATS:
        return int(SEATS)
    engine = get_game(game)
    return 2 if game == "zvv" else engine.max_seats


async def one(
    game: str,
    patient: bool,
    folder: Path,
    *,
    seats: int | None = None,
    options: dict[str, Any] | None = None,
    computers: int = 0,
    together: int = 1,
    seed: int = 11,
    level: str | None = None,
    render: bool = False,
) -> Counts:
    """One whole game of ``game`` through a fake Discord of its own (``seats`` players, and
    ``computers`` computer seats; see :func:`tests.fakediscord.table.play`)."""
    async with FakeDiscord() as fake:
        await async_sync_commands(fake.token, fake.guild_id)
        name = f"{game}-{patient}-{seed}-{len(list(folder.iterdir()))}.db"
        url = f"sqlite+aiosqlite:///{folder / name}"
        service = await Service.open(url, render=render)
        # Patient players outwait any delay; quick ones meet the real one (2 s).
        delay = 0.05 if patient else EDIT_DELAY
        bot = PartidaBot(service=service, guild_ready_timeout=0.05, edit_delay=delay)
        bot._owns_service = True
        await fake.run(bot)
        fake.busy_checks.append(lambda: bot.busy > 0 or bot.outbox.busy)
        count = seats or seats_for(game)
        users = [fake.add_user(700 + i, f"Player{i}") for i in range(count)]
        try:
            chosen = OPTIONS.get(game) if options is None else options
            return await play(
                fake,
                bot,
                game,
                users,
                seed=seed,
                patient=patient,
                options=chosen,
                computers=computers,
                together=together,
                level=level,
                clicks_only=CLICKS,
            )
        finally:
            await fake.idle()
            await bot.close()
            fake.check()


async def run() -> None:
    logging.disable(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            for patient in (True, False):
                counts = await one(game, patient, Path(tmp))
                print(("patient " if patient else "quick   ") + counts.line(), flush=True)
                routes = ", ".join(f"{k} {v}" for k, v in sorted(counts.calls.items()))
                print(f"          calls: {routes}", flush=True)
                print(
                    f"          counted (global rate limit): {counts.counted}, "
                    f"{counts.game_counted / max(1, counts.turns):.2f} a turn from the start",
                    flush=True,
                )


def main() -> None:
    asyncio.run(run())
