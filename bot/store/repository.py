"""The async repository: every query the service makes, in one place.

All functions take an open ``AsyncSession``; the caller owns the transaction (the service's
``lock → load → engine → save`` loop commits once per command).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import (
    FINISHED,
    OPEN_STATUSES,
    ActionRow,
    DeadlineRow,
    GameRow,
    PlayerRow,
)


async def open_game(
    session: AsyncSession, channel_id: int, *, lock: bool = False
) -> GameRow | None:
    """The channel's unfinished game (lobby or active), with its seats.

    ``lock``: on PostgreSQL, lock the game row (``SELECT … FOR UPDATE OF games``) so that every
    write transaction of a game takes its locks in the same order, game row first. Without it
    two processes can deadlock (one holds a deadline row and waits for the action log, the other
    the reverse) and PostgreSQL only breaks that after a second. SQLite ignores it (it has one
    writer at a time anyway)."""
    query = select(GameRow).where(GameRow.open_channel_id == channel_id)
    if lock:
        query = query.with_for_update(of=GameRow)
    result = await session.execute(query)
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


def append_action(
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
    session.add(
        ActionRow(game_id=game_id, seq=seq, seat=seat, action=action, at=at, by_default=by_default)
    )


async def action_log(session: AsyncSession, game_id: int) -> Sequence[ActionRow]:
    result = await session.execute(
        select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)
    )
    return result.unique().scalars().all()


async def deadlines_of(session: AsyncSession, game_id: int) -> dict[tuple[int, str], DeadlineRow]:
    result = await session.execute(select(DeadlineRow).where(DeadlineRow.game_id == game_id))
    return {(row.seat, row.kind): row for row in result.scalars()}


async def clear_deadlines(
    session: AsyncSession, game_id: int, keep_seats: set[int] | None = None
) -> None:
    """Delete a game's deadlines, except those of ``keep_seats``."""
    query = delete(DeadlineRow).where(DeadlineRow.game_id == game_id)
    if keep_seats:
        query = query.where(DeadlineRow.seat.not_in(sorted(keep_seats)))
    await session.execute(query)


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
