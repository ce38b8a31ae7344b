"""The async repository: every query the service makes, in one place.

All functions take an open ``AsyncSession``; the caller owns the transaction (the service's
``lock → load → engine → save`` loop commits once per command).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from bot.store.models import (
    FINISHED,
    OPEN_STATUSES,
    ActionRow,
    DeadlineRow,
    GameRow,
    PlayerRow,
)

# The statements of every move, built once: building a statement (and its cache key) costs
# more than running it on SQLite. They take their values as bound parameters.
_OPEN_GAME = select(GameRow).where(GameRow.open_channel_id == bindparam("channel_id"))
_OPEN_GAME_LOCKED = _OPEN_GAME.with_for_update(of=GameRow)
# Deadlines are deleted with Core statements on the table: the ORM would look for the rows in
# the session to keep it in step, which cost more than the DELETE (a move holds none of them).
_DEADLINES = cast(Table, DeadlineRow.__table__)
_CLEAR_DEADLINES = _DEADLINES.delete().where(_DEADLINES.c.game_id == bindparam("_game"))
_CLEAR_SEAT_DEADLINES = _CLEAR_DEADLINES.where(_DEADLINES.c.seat == bindparam("_seat"))


async def open_game(
    session: AsyncSession, channel_id: int, *, lock: bool = False
) -> GameRow | None:
    """The channel's unfinished game (lobby or active), with its seats.

    ``lock``: on PostgreSQL, lock the game row (``SELECT … FOR UPDATE OF games``) so that every
    write transaction of a game takes its locks in the same order, game row first. Without it
    two processes can deadlock (one holds a deadline row and waits for the action log, the other
    the reverse) and PostgreSQL only breaks that after a second. SQLite ignores it (it has one
    writer at a time anyway)."""
    query = _OPEN_GAME_LOCKED if lock else _OPEN_GAME
    result = await session.execute(query, {"channel_id": channel_id})
    return result.unique().scalar_one_or_none()


async def game_by_id(session: AsyncSession, game_id: int) -> GameRow | None:
    return await session.get(GameRow, game_id)


async def finished_games(
    session: AsyncSession, channel_id: int, limit: int = 10
) -> Sequence[GameRow]:
    result = await session.execute(
        select(GameRow)
        .where(GameRow.channel_id == channel_id, GameRow.status == FINISHED)
        .order_by(GameRow.updated_at.desc())
        .limit(limit)
    )
    return result.unique().scalars().all()


# A move's save is Core statements on the tables, not the ORM's unit of work: the unit of work
# cost more CPU than everything else in a move (see docs/service.md, "A move's save").
_GAMES = cast(Table, GameRow.__table__)
_SAVE_GAME = _GAMES.update().where(
    _GAMES.c.id == bindparam("_id"), _GAMES.c.version == bindparam("_seen")
)
_LOG = insert(cast(Table, ActionRow.__table__))
_ADD_DEADLINES = insert(_DEADLINES)


def show(row: GameRow, values: dict[str, Any]) -> None:
    """Set loaded attributes of ``row`` without marking them changed, for values that a Core
    statement saves (``save_game``): the ORM would otherwise save them a second time."""
    for key, value in values.items():
        set_committed_value(row, key, value)


async def save_game(session: AsyncSession, row: GameRow, seen: int, values: dict[str, Any]) -> None:
    """Save ``values`` of a game loaded at version ``seen``, if no other writer saved it since:
    ``UPDATE … WHERE version = seen`` (raises ``StaleDataError``, which the service retries
    from a fresh load, when another writer got there first). ``row`` shows the new version."""
    result = await session.execute(
        _SAVE_GAME, {**values, "version": seen + 1, "_id": row.id, "_seen": seen}
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleDataError(f"game {row.id} was saved by another writer since version {seen}")
    show(row, {"version": seen + 1})


async def append_action(
    session: AsyncSession,
    game_id: int,
    seq: int,
    seat: int,
    action: dict[str, Any],
    at: float,
    by_default: bool,
) -> None:
    """Add an entry to the log. ``seq`` must grow with each entry of the game (the service uses
    the game row's version, which is unique per save)."""
    await session.execute(
        _LOG,
        {
            "game_id": game_id,
            "seq": seq,
            "seat": seat,
            "action": action,
            "at": at,
            "by_default": by_default,
        },
    )


async def add_deadlines(session: AsyncSession, rows: list[dict[str, Any]]) -> None:
    """Insert deadline rows (``game_id``, ``seat``, ``kind``, ``due_at``, ``phase``)."""
    if rows:
        await session.execute(_ADD_DEADLINES, rows)


async def action_log(session: AsyncSession, game_id: int) -> Sequence[ActionRow]:
    result = await session.execute(
        select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)
    )
    return result.unique().scalars().all()


async def deadlines_of(session: AsyncSession, game_id: int) -> dict[tuple[int, str], DeadlineRow]:
    result = await session.execute(select(DeadlineRow).where(DeadlineRow.game_id == game_id))
    return {(row.seat, row.kind): row for row in result.scalars()}


async def clear_deadlines(
    session: AsyncSession, game_id: int, seats: Iterable[int] | None = None
) -> None:
    """Delete a game's deadlines: all of them, or those of ``seats`` (none: no statement)."""
    if seats is None:
        await session.execute(_CLEAR_DEADLINES, {"_game": game_id})
        return
    params = [{"_game": game_id, "_seat": seat} for seat in sorted(seats)]
    if params:
        await session.execute(_CLEAR_SEAT_DEADLINES, params)


async def due_deadlines(
    session: AsyncSession, now: float, limit: int = 100
) -> Sequence[DeadlineRow]:
    result = await session.execute(
        select(DeadlineRow)
        .where(DeadlineRow.due_at <= now)
        .order_by(DeadlineRow.due_at)
        .limit(limit)
    )
    return result.unique().scalars().all()


async def claim_deadline(session: AsyncSession, row: DeadlineRow) -> bool:
    """Delete a due deadline, returning whether *this* transaction got it: when two bot
    processes see the same due deadline, only the one whose delete hits a row applies it."""
    result = await session.execute(
        delete(DeadlineRow).where(
            DeadlineRow.game_id == row.game_id,
            DeadlineRow.seat == row.seat,
            DeadlineRow.kind == row.kind,
            DeadlineRow.due_at == row.due_at,
        )
    )
    return (result.rowcount or 0) == 1  # type: ignore[attr-defined]


async def earliest_deadline(session: AsyncSession) -> float | None:
    result = await session.execute(select(func.min(DeadlineRow.due_at)))
    value = result.scalar()
    return float(value) if value is not None else None


async def open_games(session: AsyncSession) -> Sequence[GameRow]:
    result = await session.execute(select(GameRow).where(GameRow.status.in_(OPEN_STATUSES)))
    return result.unique().scalars().all()


async def player_language(session: AsyncSession, user_id: int) -> str | None:
    row = await session.get(PlayerRow, user_id)
    return row.language if row else None


async def set_player_language(session: AsyncSession, user_id: int, language: str | None) -> None:
    row = await session.get(PlayerRow, user_id)
    if row is None:
        session.add(PlayerRow(user_id=user_id, language=language))
    else:
        row.language = language
