"""A closed game's log is compacted to one row (bot/store/logs.py) when it ends, and reads back
exactly: the replay, the history's lengths and the log itself are what they were before."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import func, select

from bot.service import Service
from bot.store import logs
from bot.store import repository as repo
from bot.store.database import alembic_config
from bot.store.models import FINISHED, ActionRow, GameLogRow, GameRow, SeatRow
from rules.core import Action, Rng, get_game
from rules.core.play import play_game
from rules.core.policy import choose
from tests.conftest import ALICE, BOB, HERE
from tests.support.registered import generic_games
from tests.test_ratings import play

SEATS = {"zvv": 2}  # seats by game where not 3 (within the game's range)


def seats(kind: str) -> int:
    game = get_game(kind)
    return max(game.min_seats, min(SEATS.get(kind, 3), game.max_seats))


def finished_game(kind: str, seed: int = 7) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A whole game by the computer players: its final state and its log as the service stores
    it (times with fractions, some entries played by default)."""
    game = get_game(kind)
    log: list[dict[str, Any]] = []

    def decide(state: Any, seat: int, rng: Rng) -> Action:
        return choose(game, state, seat, "easy")

    def played(seat: int, action: Action, now: float) -> None:
        entry = {"seq": 2 + len(log), "seat": seat, "action": action.to_json(), "at": now}
        log.append({**entry, "by_default": len(log) % 7 == 3})

    state, _, _ = play_game(
        game,
        seats(kind),
        seed,
        decide,
        salt=0,
        options={},
        start=1_800_000_000.123456789,
        clock_step=17.0 / 3.0,
        played=played,
    )
    return game.dump(state), log


async def store_uncompacted(service: Service, kind: str) -> tuple[int, dict[str, Any]]:
    """A finished game stored as before compaction: one ``actions`` row per move."""
    state, log = finished_game(kind)
    async with service.sessions() as session, session.begin():
        row = GameRow(
            channel_id=HERE.channel_id,
            guild_id=HERE.guild_id,
            kind=kind,
            options={},
            settings={},
            status=FINISHED,
            host_id=ALICE.user_id,
            seed=7,
            state=state,
            result={"winners": [0], "scores": {}},
            created_at=log[0]["at"],
            updated_at=log[-1]["at"],
        )
        row.seats = [
            SeatRow(seat=n, user_id=100 + n, display_name=f"P{n}") for n in range(seats(kind))
        ]
        session.add(row)
        await session.flush()
        session.add_all(ActionRow(game_id=row.id, **entry) for entry in log)
        return row.id, state


def entries(log: Any) -> list[tuple[Any, ...]]:
    return [(e.seq, e.seat, e.action, e.at, e.by_default) for e in log]


@pytest.mark.parametrize("kind", generic_games())
async def test_replay_of_a_compacted_game_equals_the_replay_before(
    service: Service, kind: str
) -> None:
    """Every title: the log, the replay and the history's length of a finished game are the
    same, to the last bit of each move's time, once its log is compacted."""
    game_id, state = await store_uncompacted(service, kind)
    async with service.sessions() as session:
        log_before = entries(await repo.action_log(session, game_id))
        length_before = await logs.lengths(session, [game_id])
    replay_before = await service.state_from_log(game_id)
    assert replay_before == state

    async with service.sessions() as session, session.begin():
        await repo.compact_log(session, game_id)

    async with service.sessions() as session:
        moves = await session.execute(select(func.count()).select_from(ActionRow))
        assert moves.scalar() == 0, "the rows are gone"
        packed = await session.get(GameLogRow, game_id)
        assert packed is not None and packed.moves == len(log_before)
        assert entries(await repo.action_log(session, game_id)) == log_before
        assert await logs.lengths(session, [game_id]) == length_before
    assert await service.state_from_log(game_id) == replay_before


async def test_a_game_that_ends_keeps_its_log_compacted(service: Service) -> None:
    """The move that ends a game writes its log as one row, its own entry included, and
    deletes the rows, in the same transaction; the history still counts its moves."""
    await play(service, [ALICE, BOB], [3, 1], [True, False])
    async with service.sessions() as session:
        (row,) = (await session.execute(select(GameRow))).unique().scalars().all()
        assert row.status == FINISHED
        moves = await session.execute(select(func.count()).select_from(ActionRow))
        assert moves.scalar() == 0
        log = await repo.action_log(session, row.id)
        assert [(e.seat, e.action["type"]) for e in log] == [
            (0, "bid"),
            (1, "bid"),
            (0, "take"),
            (1, "pass"),
        ]
        assert [e.seq for e in log] == sorted({e.seq for e in log})
    assert await service.state_from_log(row.id) == row.state
    history = await service.history(ALICE, HERE)
    assert history.private is not None and "4 moves" in str(history.private.narration)


async def test_a_game_cancelled_after_it_began_keeps_its_log_compacted(service: Service) -> None:
    assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 2})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    assert (await service.act(ALICE, HERE, "tiny", "bid", {"amount": 2})).ok
    assert (await service.cancel(ALICE, HERE)).ok
    async with service.sessions() as session:
        (row,) = (await session.execute(select(GameRow))).unique().scalars().all()
        moves = await session.execute(select(func.count()).select_from(ActionRow))
        assert moves.scalar() == 0
        assert [e.action for e in await repo.action_log(session, row.id)] == [
            {"type": "bid", "amount": 2}
        ]


async def test_the_games_closed_before_the_migration_are_compacted_after_it(
    tmp_path: Path,
) -> None:
    """A database at 0005 with a finished game, a cancelled one and one being played: after the
    upgrade their logs read as before; the bot's background step (``compact_closed``, here a
    game a transaction) compacts the closed ones, the same entries, and leaves the open one's
    rows; the downgrade puts every row back as it was."""
    path = tmp_path / "old.db"
    url = f"sqlite+aiosqlite:///{path}"
    config = alembic_config(url)
    # (Alembic's env runs its own event loop: in a thread, as the bot runs it.)
    await asyncio.to_thread(command.upgrade, config, "0005")
    _, log = finished_game("farkle")
    db = sqlite3.connect(path)
    for game_id, status in ((1, "finished"), (2, "cancelled"), (3, "active")):
        db.execute(
            "INSERT INTO games (id, channel_id, kind, options, settings, status, host_id, seed,"
            " state, phase, phase_started_at, created_at, updated_at, version)"
            " VALUES (?, ?, 'farkle', '{}', '{}', ?, 1, 7, '{}', '', 0, 0, 0, 1)",
            (game_id, game_id, status),
        )
        db.executemany(
            "INSERT INTO actions (game_id, seq, seat, action, at, by_default)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (game_id, e["seq"], e["seat"], _json(e["action"]), e["at"], e["by_default"])
                for e in log
            ],
        )
    db.commit()
    before = db.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall()
    db.close()
    expected = [(e["seq"], e["seat"], e["action"], e["at"], e["by_default"]) for e in log]

    await asyncio.to_thread(command.upgrade, config, "head")
    service = await Service.open(url, render=False)
    try:
        async with service.sessions() as session:
            for game_id in (1, 2, 3):
                assert entries(await repo.action_log(session, game_id)) == expected
        assert await service.compact_closed(batch=1) == 2
        assert await service.compact_closed() == 0, "nothing left to do"
        async with service.sessions() as session:
            for game_id in (1, 2, 3):
                assert entries(await repo.action_log(session, game_id)) == expected
            kept = await session.execute(select(ActionRow.game_id).distinct())
            assert list(kept.scalars()) == [3]
            packed = await session.execute(select(GameLogRow.game_id).order_by(GameLogRow.game_id))
            assert list(packed.scalars()) == [1, 2]
    finally:
        await service.close()

    await asyncio.to_thread(command.downgrade, config, "0005")
    db = sqlite3.connect(path)
    assert db.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall() == before
    db.close()


def _json(value: Any) -> str:
    import json

    return json.dumps(value)
