"""A database grown to many finished games, for the benchmarks of the ratings rebuild, the
storage per game and the bot's memory (``bench/bench_rebuild.py``, ``bench_storage.py``).

Real games are played once per template by the computer players (``rules.core.policy``, the
``normal`` level: realistic lengths, not random play's), then copied: each copy gets its own
id, channel (80 % in a thread of a channel), server and players (40 users a server), and is
written exactly as the service writes a finished game: the game row with its final state and
result, its seats, and its log (``repo.Writes.append_action``'s rows, or the compacted form the
service writes when a game ends, ``compacted=True``). The rebuild then rates them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, insert
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import logs
from bot.store.models import FINISHED, ActionRow, GameRow, SeatRow
from rules.core import Action, Rng, get_game
from rules.core.play import play_game
from rules.core.policy import choose

# (game, seats, options) of the templates, played with a few seeds each.
KINDS: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("badbones", 2, {}),
    ("badbones", 4, {}),
    ("badbones", 1, {}),
    ("farkle", 2, {}),
    ("farkle", 4, {}),
    ("fuse", 3, {}),
    ("zvv", 2, {}),
)
SEEDS = 3
USERS_PER_SERVER = 40
GAMES_PER_SERVER = 200
THREADED = 0.8
START = 1_700_000_000.0
NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank")


@dataclass(frozen=True)
class Template:
    kind: str
    options: dict[str, Any]
    seed: int
    seats: int
    state: dict[str, Any]
    phase: str
    result: dict[str, Any]
    log: list[tuple[int, dict[str, Any], float, bool]]  # seat, action, seconds in, by default


def play(kind: str, seats: int, options: dict[str, Any], seed: int) -> Template:
    """One whole game by the computer players, logged as the service logs it."""
    game = get_game(kind)
    log: list[tuple[int, dict[str, Any], float, bool]] = []

    def decide(state: Any, seat: int, rng: Rng) -> Action:
        return choose(game, state, seat, "normal")

    def played(seat: int, action: Action, now: float) -> None:
        log.append((seat, action.to_json(), now - START, False))

    def pace(rng: Rng) -> float:
        return 20.0 + rng.below(40)  # a person's move every 20 to 60 seconds

    state, _, _ = play_game(
        game,
        seats,
        seed,
        decide,
        salt=0x6A0E,
        options=options,
        start=START,
        clock_step=pace,
        played=played,
    )
    after = game.snapshot(state)
    result = after.result
    return Template(
        kind,
        dict(options),
        seed,
        seats,
        game.dump(state),
        after.phase,
        {
            "winners": list(result.winners) if result else [],
            "scores": {str(k): v for k, v in (result.scores if result else {}).items()},
        },
        log,
    )


def templates() -> list[Template]:
    return [play(kind, n, opts, seed) for kind, n, opts in KINDS for seed in range(1, SEEDS + 1)]


def copies(
    made: list[Template], count: int, first_id: int = 1
) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]], Template]]:
    """``count`` finished games copied from the templates: (game row, seat rows, template)."""
    rng = Rng(0xC0FFEE)
    for n in range(count):
        game_id = first_id + n
        template = made[n % len(made)]
        guild = 1 + n // GAMES_PER_SERVER
        channel = guild * 1000 + rng.below(10)
        threaded = rng.below(100) < THREADED * 100
        where = guild * 10**6 + game_id if threaded else channel
        users = [guild * 1000 + rng.below(USERS_PER_SERVER) for _ in range(template.seats)]
        while len(set(users)) < len(users):  # one seat a user
            users = [guild * 1000 + rng.below(USERS_PER_SERVER) for _ in range(template.seats)]
        began = START + n * 30.0
        ended = began + (template.log[-1][2] if template.log else 0.0)
        row = {
            "id": game_id,
            "channel_id": where,
            "open_channel_id": None,
            "guild_id": guild,
            "kind": template.kind,
            "options": template.options,
            "settings": {"locale": "en", "deadline_minutes": 1440, "reminder_minutes": 720},
            "status": FINISHED,
            "host_id": users[0],
            "seed": template.seed,
            "state": template.state,
            "phase": template.phase,
            "phase_started_at": ended,
            "result": template.result,
            "created_at": began,
            "updated_at": ended,
            "version": len(template.log) + 2,
            "messages": {
                "lobby": {"channel": channel, "id": 10**17 + 2 * game_id},
                "phase": {
                    "channel": where,
                    "id": 10**17 + 2 * game_id + 1,
                    "phase": template.phase,
                    "awaited": [],
                },
            },
            "parent_channel_id": channel if threaded else None,
        }
        seats = [
            {
                "game_id": game_id,
                "seat": seat,
                "user_id": user,
                "display_name": f"{NAMES[seat % len(NAMES)]} {user}",
                "locale": "en",
                "left": False,
                "computer": None,
                "autopilot": False,
                "misses": 0,
            }
            for seat, user in enumerate(users)
        ]
        yield row, seats, template


def entries(game_id: int, template: Template, began: float) -> list[dict[str, Any]]:
    """The log rows of a copy, numbered as the service numbers them (from the version 2 the
    start leaves)."""
    return [
        {
            "game_id": game_id,
            "seq": 2 + index,
            "seat": seat,
            "action": action,
            "at": began + at,
            "by_default": by_default,
        }
        for index, (seat, action, at, by_default) in enumerate(template.log)
    ]


async def grow(
    engine: AsyncEngine,
    count: int,
    made: list[Template] | None = None,
    *,
    compacted: bool = True,
    batch: int = 2000,
    first_id: int = 1,
) -> None:
    """Write ``count`` finished games, ``batch`` a transaction. ``compacted``: their logs as the
    service keeps a finished game's (one compressed row), else one row per move (as before
    the compaction)."""
    made = made if made is not None else templates()
    games, seats_table = cast(Table, GameRow.__table__), cast(Table, SeatRow.__table__)
    actions = cast(Table, ActionRow.__table__)
    pending: tuple[list[Any], list[Any], list[Any]] = ([], [], [])

    async def flush() -> None:
        rows, seated, logged = pending
        if not rows:
            return
        async with engine.begin() as connection:
            await connection.execute(insert(games), rows)
            await connection.execute(insert(seats_table), seated)
            if logged and compacted:
                await connection.execute(insert(logs.TABLE), logged)
            elif logged:
                await connection.execute(insert(actions), logged)
        for part in pending:
            part.clear()

    for row, seated, template in copies(made, count, first_id):
        pending[0].append(row)
        pending[1].extend(seated)
        log = entries(row["id"], template, row["created_at"])
        if compacted:
            pending[2].append(logs.packed(row["id"], log))
        else:
            pending[2].extend(log)
        if len(pending[0]) >= batch:
            await flush()
            await asyncio.sleep(0)
    await flush()


def describe(made: list[Template]) -> str:
    sizes = [
        (
            t.kind,
            t.seats,
            len(t.log),
            len(json.dumps(t.state)),
            len(json.dumps([e[1] for e in t.log])),
        )
        for t in made
    ]
    return "\n".join(
        f"  {kind} ×{seats}: {moves} moves, state {state} B, log JSON {log} B"
        for kind, seats, moves, state, log in sizes
    )
