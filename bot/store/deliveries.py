"""The queries of the deliveries table (``DeliveryRow``): what committed commands owe their
channels, written in the command's transaction, read back at start-up, deleted once sent."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Table, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import DeliveryRow

_DELIVERIES = cast(Table, DeliveryRow.__table__)


def new_nonce() -> str:
    """A message nonce for Discord (at most 25 characters; a message of several pieces adds
    ``.N`` to it). Random, not the row's id: SQLite may give a deleted row's id again, and
    Discord would then answer a new post with the old message."""
    return secrets.token_hex(8)  # 16 characters


async def owe(
    session: AsyncSession,
    game_id: int | None,
    version: int | None,
    owed: Sequence[tuple[int, str, dict[str, Any]]],
    now: float,
) -> list[tuple[int, str]]:
    """Record ``owed`` (channel id, kind, body), in order; returns each row's (id, nonce)."""
    out: list[tuple[int, str]] = []
    for channel_id, kind, body in owed:
        nonce = new_nonce()
        result = await session.execute(
            insert(_DELIVERIES)
            .values(
                game_id=game_id,
                channel_id=channel_id,
                kind=kind,
                version=version,
                nonce=nonce,
                body=body,
                attempts=0,
                next_try_at=now,
                created_at=now,
            )
            .returning(_DELIVERIES.c.id)
        )
        out.append((int(result.scalar_one()), nonce))
    return out


async def owed_ids(session: AsyncSession, tried_before: float | None = None) -> list[int]:
    """The ids of the deliveries still owed, oldest first (a cheap look: no bodies);
    ``tried_before``: only those whose next try was due before then (abandoned ones)."""
    query = select(_DELIVERIES.c.id).order_by(_DELIVERIES.c.id)
    if tried_before is not None:
        query = query.where(_DELIVERIES.c.next_try_at < tried_before)
    found = await session.execute(query)
    return [int(i) for i in found.scalars().all()]


async def owed(session: AsyncSession, ids: Sequence[int]) -> list[DeliveryRow]:
    """The deliveries ``ids`` that are still owed, oldest first."""
    if not ids:
        return []
    found = await session.execute(
        select(DeliveryRow).where(DeliveryRow.id.in_(list(ids))).order_by(DeliveryRow.id)
    )
    return list(found.scalars().all())


async def settle(session: AsyncSession, ids: Sequence[int]) -> None:
    """Discord took these (or they are moot): they are owed no more."""
    if ids:
        await session.execute(delete(_DELIVERIES).where(_DELIVERIES.c.id.in_(list(ids))))


async def attempted(session: AsyncSession, ids: Sequence[int], next_try_at: float) -> None:
    """A try failed: one more attempt, and when the next one is."""
    if ids:
        await session.execute(
            update(_DELIVERIES)
            .where(_DELIVERIES.c.id.in_(list(ids)))
            .values(attempts=_DELIVERIES.c.attempts + 1, next_try_at=next_try_at)
        )


async def as_edit(session: AsyncSession, ids: Sequence[int], message_id: int) -> None:
    """These deliveries went out without their picture as message ``message_id``: what is
    owed now is an edit of that message (its words again, and the picture drawn anew)."""
    for row in await owed(session, ids):
        body = {key: value for key, value in row.body.items() if key != "thread"}
        body.update(edit=True, edit_of=message_id)
        await session.execute(
            update(_DELIVERIES).where(_DELIVERIES.c.id == row.id).values(kind="edit", body=body)
        )


async def waiting(session: AsyncSession) -> tuple[int, float | None]:
    """How many deliveries are owed, and when the oldest was recorded (``None``: none)."""
    found = await session.execute(select(func.count(), func.min(_DELIVERIES.c.created_at)))
    count, oldest = found.one()
    return int(count), (float(oldest) if oldest is not None else None)
