"""The ratings' queries and writes (tables ``ratings`` and ``rated_games``, bot/store/models.py).

A rating is saved by an update of its row (an insert for a player's first game), added to a
move's ``repo.Writes``: the same statements on SQLite and PostgreSQL (no dialect's upsert), and
on SQLite in the same one crossing as the rest of the move's save. An update, never a delete and
an insert: PostgreSQL hands a transaction waiting on a locked row (``load``) the row's updated
version, but skips a deleted one, and the waiting game would rate from scratch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import FINISHED, ORDINAL, GameRow, RatedGameRow, RatingRow
from bot.store.repository import Writes

_RATINGS = cast(Table, RatingRow.__table__)
_RATED = cast(Table, RatedGameRow.__table__)
_KEY = ("guild_id", "kind", "player")
_UPDATE = _RATINGS.update().where(
    _RATINGS.c.guild_id == bindparam("_guild_id"),
    _RATINGS.c.kind == bindparam("_kind"),
    _RATINGS.c.player == bindparam("_player"),
)
_ADD = _RATINGS.insert()
_MARK = _RATED.insert()
# People and computer players; the game's own virtual player is left off the leaderboard.
_LISTED = ~RatingRow.player.startswith("game:")
# How far ``place_of`` counts: a place beyond it is said as "beyond", so that a player's stats
# cost the same on a server of a hundred players and of a hundred thousand.
PLACES = 1000


async def load(
    session: AsyncSession, guild: int, kind: str, players: Sequence[str]
) -> Sequence[RatingRow]:
    """The standings of ``players`` at ``kind`` on ``guild``, locked on PostgreSQL (two games
    ending at once in two channels of one server must not both start from the same rating)."""
    result = await session.execute(
        select(RatingRow)
        .where(RatingRow.guild_id == guild, RatingRow.kind == kind, RatingRow.player.in_(players))
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return result.scalars().all()


def save(writes: Writes, rows: list[dict[str, Any]], known: set[str]) -> None:
    """Write new standings: an update of each ``known`` player's row (as ``load`` read it), an
    insert for the others. Two first games of a player ending at once both insert: the second
    fails on the key and the service runs its move again, from the first one's rating."""
    for row in rows:
        if row["player"] in known:
            values = {k: v for k, v in row.items() if k not in _KEY}
            values.update({f"_{k}": row[k] for k in _KEY})
            gone = f"rating {row['player']} at {row['kind']} was removed meanwhile"
            writes.steps.append((_UPDATE, [values], gone))
    added = [row for row in rows if row["player"] not in known]
    if added:
        writes.steps.append((_ADD, added, None))


def mark(writes: Writes, game_id: int, changes: Sequence[Any], now: float) -> None:
    """Record that ``game_id`` moved the ratings, with each seat's before and after."""
    recorded = {
        str(c.seat if c.seat is not None else "game"): {
            "player": c.player,
            "before": [c.before.mu, c.before.sigma],
            "after": [c.after.mu, c.after.sigma],
        }
        for c in changes
    }
    writes.steps.append((_MARK, [{"game_id": game_id, "changes": recorded, "rated_at": now}], None))


async def leaderboard(
    session: AsyncSession,
    guild: int,
    kind: str,
    limit: int,
    *,
    offset: int = 0,
    after: str | None = None,
    before: str | None = None,
) -> Sequence[RatingRow]:
    """A page of a game's leaderboard on a server, best first (ties by player).

    ``after``: the players listed after that one (the next page); ``before``: those listed just
    before it (the previous page, still best first); none when that player is not on it.
    ``offset``: skip that many (a page asked for by its number). Read in the order of the index
    ``ix_ratings_rank``, from the page's first entry: never a sort of the server's players."""
    where = [RatingRow.guild_id == guild, RatingRow.kind == kind, _LISTED]
    newer = before is not None and after is None
    edge = before if newer else after
    if edge is not None:
        found = await session.execute(
            select(ORDINAL).where(
                RatingRow.guild_id == guild, RatingRow.kind == kind, RatingRow.player == edge
            )
        )
        ordinal = found.scalar()
        if ordinal is None:
            return []
        # (ordinal, player) beyond the edge's, in the page's direction; the first term is a
        # range of the index, the second only sorts out the edge's ties.
        if newer:
            where += [ORDINAL >= ordinal, or_(ORDINAL > ordinal, RatingRow.player < edge)]
        else:
            where += [ORDINAL <= ordinal, or_(ORDINAL < ordinal, RatingRow.player > edge)]
    order = (
        (ORDINAL.asc(), RatingRow.player.desc()) if newer else (ORDINAL.desc(), RatingRow.player)
    )
    result = await session.execute(
        select(RatingRow).where(*where).order_by(*order).offset(offset).limit(limit)
    )
    rows = result.scalars().all()
    return rows[::-1] if newer else rows


async def count_listed(session: AsyncSession, guild: int, kind: str) -> int:
    """How many players are on a game's leaderboard: a count over the index's entries, which
    grows with the server (the leaderboard counts only when asked for a page past the end)."""
    where = (RatingRow.guild_id == guild, RatingRow.kind == kind, _LISTED)
    total = (
        await session.execute(select(func.count()).select_from(RatingRow).where(*where))
    ).scalar()
    return int(total or 0)


async def of_player(session: AsyncSession, guild: int, player: str) -> Sequence[RatingRow]:
    """A player's standings at every game on a server."""
    result = await session.execute(
        select(RatingRow)
        .where(RatingRow.guild_id == guild, RatingRow.player == player)
        .order_by(RatingRow.games.desc(), RatingRow.kind)
    )
    return result.scalars().all()


async def place_of(session: AsyncSession, guild: int, kind: str, ordinal: float) -> int | None:
    """1 + how many listed players of the game are rated above ``ordinal``, or None when that
    is more than ``PLACES``: the count reads at most ``PLACES`` entries of the index."""
    above = (
        select(RatingRow.player)
        .where(RatingRow.guild_id == guild, RatingRow.kind == kind, _LISTED, ORDINAL > ordinal)
        .limit(PLACES)
        .subquery()
    )
    counted = int((await session.execute(select(func.count()).select_from(above))).scalar() or 0)
    return counted + 1 if counted < PLACES else None


async def changes_of(session: AsyncSession, game_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """The recorded rating changes of these games (a game that did not count is missing)."""
    if not game_ids:
        return {}
    result = await session.execute(select(RatedGameRow).where(RatedGameRow.game_id.in_(game_ids)))
    return {r.game_id: r.changes for r in result.scalars()}


async def clear(session: AsyncSession) -> None:
    await session.execute(delete(RatedGameRow))
    await session.execute(delete(RatingRow))


async def finished_in_order(session: AsyncSession) -> Sequence[GameRow]:
    result = await session.execute(
        select(GameRow)
        .where(GameRow.status == FINISHED, GameRow.result.is_not(None))
        .order_by(GameRow.updated_at, GameRow.id)
    )
    return result.unique().scalars().all()
