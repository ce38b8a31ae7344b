"""The ratings' queries and writes (tables ``ratings`` and ``rated_games``, bot/store/models.py).

A rating is saved by an update of its row (an insert for a player's first game), added to a
move's ``repo.Writes``: the same statements on SQLite and PostgreSQL (no dialect's upsert), run
with the rest of the move's save. An update, never a delete and an insert: PostgreSQL hands a
transaction waiting on a locked row (``load``) the row's updated version, but skips a deleted
one, and the waiting game would rate from scratch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Table, bindparam, false, func, or_, select, text, tuple_
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import load_only

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
    writes.steps.append((_MARK, [marked(game_id, changes, now)], None))


def marked(game_id: int, changes: Sequence[Any], now: float) -> dict[str, Any]:
    """The ``rated_games`` row of a game that moved the ratings."""
    recorded = {
        str(c.seat if c.seat is not None else "game"): {
            "player": c.player,
            "before": [c.before.mu, c.before.sigma],
            "after": [c.after.mu, c.after.sigma],
        }
        for c in changes
    }
    return {"game_id": game_id, "changes": recorded, "rated_at": now}


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


# ---------------------------------------------------------------- the rebuild's reads and writes
# ``partida ratings rebuild`` (bot/service/ratings.py) reads the finished games a page at a time
# in the order they ended, and writes in short transactions, so that the bot's own writes go
# through between them (on SQLite, its one writer).

_ENDED = (GameRow.updated_at, GameRow.id)


async def finished_after(
    session: AsyncSession, after: tuple[float, int] | None, limit: int | None
) -> Sequence[GameRow]:
    """Finished games with a result, in the order they ended (``updated_at``, then ``id``),
    after the game ``after`` names (its end and id), ``limit`` of them (None: all). Only what
    rating a game needs is loaded (no state), through the index ``ix_games_ended``."""
    query = (
        select(GameRow)
        .options(
            load_only(
                GameRow.id,
                GameRow.kind,
                GameRow.guild_id,
                GameRow.options,
                GameRow.result,
                GameRow.updated_at,
            )
        )
        .where(GameRow.status == FINISHED, GameRow.result.is_not(None))
        .order_by(*_ENDED)
    )
    if after is not None:
        query = query.where(tuple_(*_ENDED) > tuple_(*after))
    if limit is not None:
        query = query.limit(limit)
    return (await session.execute(query)).unique().scalars().all()


async def replace_marks(
    session: AsyncSession, game_ids: Sequence[int], marks: Sequence[dict[str, Any]]
) -> None:
    """The ``rated_games`` rows of ``game_ids`` become ``marks`` (a game without one did not
    count)."""
    if game_ids:
        await session.execute(_RATED.delete().where(_RATED.c.game_id.in_(game_ids)))
    if marks:
        await session.execute(_MARK, list(marks))


async def put(session: AsyncSession, rows: Sequence[dict[str, Any]]) -> None:
    """Write whole rating rows, each an insert or, when the player has one, its update (one
    ``INSERT … ON CONFLICT DO UPDATE``)."""
    if not rows:
        return
    dialect = (await session.connection()).dialect.name
    upsert: Any
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as upsert
    else:
        from sqlalchemy.dialects.sqlite import insert as upsert
    statement = upsert(_RATINGS)
    kept = [c.name for c in _RATINGS.columns if c.name not in _KEY]
    await session.execute(
        statement.on_conflict_do_update(
            index_elements=list(_KEY), set_={name: statement.excluded[name] for name in kept}
        ),
        list(rows),
    )


async def keys_after(
    session: AsyncSession, after: tuple[int, str, str] | None, limit: int
) -> list[tuple[int, str, str]]:
    """The keys of the stored ratings, in key order, after ``after``."""
    query = select(*(_RATINGS.c[k] for k in _KEY)).order_by(*(_RATINGS.c[k] for k in _KEY))
    if after is not None:
        query = query.where(tuple_(*(_RATINGS.c[k] for k in _KEY)) > tuple_(*after))
    rows = await session.execute(query.limit(limit))
    return [(int(g), str(k), str(p)) for g, k, p in rows]


_FORGET = _RATINGS.delete().where(
    _RATINGS.c.guild_id == bindparam("_guild"),
    _RATINGS.c.kind == bindparam("_kind"),
    _RATINGS.c.player == bindparam("_player"),
)


async def forget(session: AsyncSession, keys: Sequence[tuple[int, str, str]]) -> None:
    """Delete these ratings (ones no finished game gives any more)."""
    if keys:
        await session.execute(
            _FORGET, [{"_guild": g, "_kind": k, "_player": p} for g, k, p in keys]
        )


async def hold(session: AsyncSession) -> None:
    """Take the ratings for the rest of the transaction, before reading the games that ended
    meanwhile: on SQLite its one writer (an empty delete takes it), on PostgreSQL the table in
    EXCLUSIVE mode, which waits for a game ending now (its rows are locked ``FOR UPDATE``) and
    makes the next wait for us. A game ends either before (and is read) or after (and rates
    from what the rebuild wrote)."""
    if (await session.connection()).dialect.name == "postgresql":
        await session.execute(text("LOCK TABLE ratings IN EXCLUSIVE MODE"))
    else:
        await session.execute(_RATINGS.delete().where(false()))
